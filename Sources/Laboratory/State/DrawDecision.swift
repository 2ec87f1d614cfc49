/// What to do with one experiment's stored draw, decided inside the store's
/// transaction so two processes never draw twice for the same device.
public enum DrawDecision: Sendable, Hashable {
    /// Leave it as it is (including having none).
    case keep
    /// Store this variant, replacing any other.
    case choose(String)
    /// Drop the stored draw.
    case forget
}
