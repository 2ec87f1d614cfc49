import Foundation

/// The variant a source drew for an experiment on this device, and when.
public struct Draw: Sendable, Hashable, Codable {
    public var variant: String
    public var drawnAt: Date

    public init(variant: String, drawnAt: Date) {
        self.variant = variant
        self.drawnAt = drawnAt
    }
}
