/// Two active experiments that assign the same keys; one of them was set aside.
public struct Conflict: Sendable, Hashable, Codable {
    /// An experiment of a source, with the variant it ran.
    public struct Party: Sendable, Hashable, Codable {
        /// The source of the experiment.
        public var source: String
        /// The experiment's name within its source.
        public var experiment: String
        /// Its active variant.
        public var variant: String
        /// Whether a person forced that variant.
        public var forced: Bool
    }

    /// The keys both experiments assign, sorted.
    public var keys: [String]
    /// The experiment whose assignments the app gets.
    public var winner: Party
    /// The experiment set aside: the app gets none of its keys.
    public var loser: Party
}

extension Conflict: CustomStringConvertible {
    public var description: String {
        "\(loser.experimentID) shares \(keys.joined(separator: ", ")) with "
            + "\(winner.experimentID), which wins"
    }
}
