import Foundation

/// The variant a source drew for an experiment on this device, and when.
public struct Draw: Sendable, Hashable {
    public var variant: String
    public var drawnAt: Date

    public init(variant: String, drawnAt: Date) {
        self.variant = variant
        self.drawnAt = drawnAt
    }
}

/// What to do with one experiment's stored choice, decided inside the store's
/// transaction so two processes never draw twice for the same device.
public enum DrawDecision: Sendable, Hashable {
    /// Leave it as it is (including having none).
    case keep
    /// Store this variant, replacing any other.
    case choose(String)
    /// Drop the stored choice.
    case forget
}
