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
