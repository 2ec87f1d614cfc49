import Foundation

/// The variant a source drew for an experiment on this device, and when.
public struct Draw: Sendable, Hashable, Codable {
    /// The variant drawn.
    public var variant: String
    /// When it was drawn.
    public var drawnAt: Date

    /// A draw of `variant` at `drawnAt`.
    public init(variant: String, drawnAt: Date) {
        self.variant = variant
        self.drawnAt = drawnAt
    }
}
