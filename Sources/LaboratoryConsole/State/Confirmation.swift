/// A question the console asks before doing something that cannot be undone.
public struct Confirmation: Sendable, Equatable {
    /// The question, e.g. "Drop all 3 forced variants?".
    public var question: String
    /// What happens on yes.
    public var effect: ConsoleEffect
}

/// A line for the status bar.
public struct StatusMessage: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
