/// The identity of the device (or state file) that experiments run on.
public struct Device: Sendable, Hashable, Codable {
    /// A random identifier, written into every event.
    public var id: String
    /// The active experiments token.
    public var token: ActiveExperimentsToken

    /// A device with this id and token.
    public init(id: String, token: ActiveExperimentsToken) {
        self.id = id
        self.token = token
    }
}
