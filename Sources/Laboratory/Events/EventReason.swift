/// Why an event was recorded: a fixed set of reasons plus any custom one.
public struct EventReason: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }

    /// The assignment entered the active set on this device.
    public static let activated: EventReason = "activated"
    /// The assignment left the active set on this device.
    public static let deactivated: EventReason = "deactivated"
    /// The assignment affected what the user saw; recorded once per device,
    /// experiment and variant.
    public static let displayed: EventReason = "displayed"
    /// The app started using the assignment.
    public static let initiated: EventReason = "initiated"

    /// The reasons the framework itself records or documents.
    public static let standard: [EventReason] = [.activated, .deactivated, .displayed, .initiated]
}

extension EventReason {
    /// Why a reason someone typed or posted was refused.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason as given.
        public var reason: String
        /// The standard reasons it nearly spells, nearest first; empty when it is merely malformed.
        public var suggestions: [String]

        public var description: String {
            guard !suggestions.isEmpty else {
                return "reason \"\(reason)\" must be a word of 1 to 64 characters"
            }
            let standard = EventReason.standard.map(\.rawValue).joined(separator: ", ")
            return "no reason \"\(reason)\"\(NameMatch.hint(suggestions)) (reasons: \(standard), or your own)"
        }
    }

    /// A reason as a person or an app gives it, checked the same way at every
    /// door (`lab report`, `lab events`, `POST /events`): a standard reason,
    /// or a custom one of 1 to 64 characters. A near miss of a standard
    /// reason (`displayd`) is a typo and refused with the suggestion: stored,
    /// it would be an exposure no summary counts.
    public init(checking text: String) throws(Invalid) {
        guard !text.isEmpty, text.count <= 64, !text.contains(where: \.isNewline) else {
            throw Invalid(reason: text, suggestions: [])
        }
        let standard = Self.standard.map(\.rawValue)
        if !standard.contains(text), case .missing(let suggestions) = NameMatch.find(text, in: standard),
            !suggestions.isEmpty
        {
            throw Invalid(reason: text, suggestions: suggestions)
        }
        self.init(rawValue: text)
    }
}
