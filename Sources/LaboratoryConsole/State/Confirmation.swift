import Foundation

/// A question the console asks before doing something that cannot be undone.
package struct Confirmation: Sendable, Equatable {
    /// The question, e.g. "Drop all 3 forced variants?".
    package var question: String
    /// What happens on yes.
    package var effect: ConsoleEffect
}

/// A line of text the console asks for, such as a file path.
package struct Prompt: Sendable, Equatable {
    package enum Purpose: Sendable, Equatable {
        case exportOverrides
        case importOverrides
        /// A new value for an attribute, typed in its row.
        case attributeValue(name: String)
        /// A new attribute, typed as `name=value` in the status line.
        case newAttribute
    }

    package var purpose: Purpose
    package var title: String
    package var text: String

    /// Where exports go and imports come from unless the user types otherwise.
    package static let defaultFile = "laboratory-overrides.json"

    /// Whether it is typed where its text goes (an attribute's row, the
    /// status line) rather than in a box over the screen.
    var isInPlace: Bool {
        switch purpose {
        case .exportOverrides, .importOverrides: return false
        case .attributeValue, .newAttribute: return true
        }
    }

    /// What Enter does with the text: an effect, or a refusal to show.
    enum Outcome: Equatable {
        case effect(ConsoleEffect)
        case refused(String)
    }

    /// The effect the text asks for, or why the text cannot be taken.
    var outcome: Outcome {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch purpose {
        case .exportOverrides, .importOverrides:
            guard !trimmed.isEmpty else { return .refused("No file given.") }
            return .effect(purpose == .exportOverrides ? .exportOverrides(path: text) : .importOverrides(path: text))
        case .attributeValue(let name):
            // Emptied, the attribute goes: as an emptied filter shows everything again.
            return .effect(.setAttribute(name: name, value: text.isEmpty ? nil : text))
        case .newAttribute:
            guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else {
                return .refused("Type the attribute as name=value, e.g. country=FR.")
            }
            let name = String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces)
            let value = String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            return .effect(.setAttribute(name: name, value: value))
        }
    }
}

/// A line for the status bar.
package struct StatusMessage: Sendable, Equatable {
    package var text: String
    package var isError: Bool
    /// Whether it reports a catalog that no longer loads: it goes when the catalog loads again.
    package var isCatalogProblem = false

    package init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
