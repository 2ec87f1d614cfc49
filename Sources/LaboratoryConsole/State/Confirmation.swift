/// A question the console asks before doing something that cannot be undone.
public struct Confirmation: Sendable, Equatable {
    /// The question, e.g. "Drop all 3 forced variants?".
    public var question: String
    /// What happens on yes.
    public var effect: ConsoleEffect
}

/// A line of text the console asks for, such as a file path.
public struct Prompt: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        case exportOverrides
        case importOverrides
    }

    public var purpose: Purpose
    public var title: String
    public var text: String

    /// Where exports go and imports come from unless the user types otherwise.
    public static let defaultFile = "laboratory-overrides.json"

    /// The effect the text asks for.
    var effect: ConsoleEffect {
        switch purpose {
        case .exportOverrides: return .exportOverrides(path: text)
        case .importOverrides: return .importOverrides(path: text)
        }
    }
}

/// A line for the status bar.
public struct StatusMessage: Sendable, Equatable {
    public var text: String
    public var isError: Bool
    /// Whether it reports a catalog that no longer loads: it goes when the catalog loads again.
    public var isCatalogProblem = false

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
