import Foundation

/// The variant a source drew for an experiment on this device, and when.
public struct StoredChoice: Sendable, Hashable {
    public var variant: String
    public var madeAt: Date

    public init(variant: String, madeAt: Date) {
        self.variant = variant
        self.madeAt = madeAt
    }
}

/// What to do with one experiment's stored choice, decided inside the store's
/// transaction so two processes never draw twice for the same device.
public enum ChoiceDecision: Sendable, Hashable {
    /// Leave it as it is (including having none).
    case keep
    /// Store this variant, replacing any other.
    case choose(String)
    /// Drop the stored choice.
    case forget
}
