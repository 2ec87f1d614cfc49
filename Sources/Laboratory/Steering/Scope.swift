import GrowthBook

/// Whom a forced variant applies to: everyone, or the users whose attributes
/// match every one of its own (`id=qa-phone-7`, `deviceId=…`, several together).
///
/// A scope is written `name=value` pairs joined by commas, names sorted, in
/// messages, on the command line (`--for`, `--as`) and in the state file; an
/// empty scope is everyone.
public struct Scope: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The attributes a user must have, with these values; none for everyone.
    public let attributes: [String: String]

    /// Everyone: the unscoped meaning forcing has always had.
    public static let everyone = Scope(attributes: [:])

    /// The users whose attributes match all of `attributes`; none is everyone.
    public init(attributes: [String: String]) {
        self.attributes = attributes
    }

    /// Whether this is everyone.
    public var isEveryone: Bool { attributes.isEmpty }

    /// The attributes sorted by name: the order scopes are written, stored and compared in.
    public var sortedAttributes: [(name: String, value: String)] {
        attributes.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Whether a user with `attributes` is in this scope: everyone is; otherwise
    /// each of the scope's attributes must be among them with the same value.
    public func matches(_ attributes: [String: String]) -> Bool {
        self.attributes.allSatisfy { attributes[$0.key] == $0.value }
    }

    /// `id=qa-phone-7,os=ios`, or `everyone`.
    public var description: String {
        isEveryone ? "everyone" : sortedAttributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    }

    /// The scope's stored form: `name=value` pairs, sorted, joined by a unit
    /// separator (U+001F), which no attribute a person types holds; empty for everyone.
    public var storedForm: String {
        sortedAttributes.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{1F}")
    }

    /// Reads ``storedForm``; `nil` when a pair has no `=`.
    public init?(storedForm: String) {
        guard !storedForm.isEmpty else {
            self = .everyone
            return
        }
        var attributes: [String: String] = [:]
        for pair in storedForm.split(separator: "\u{1F}", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
            attributes[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        self.init(attributes: attributes)
    }

    /// Reads what a person typed: `--for id=qa-phone-7`, repeated or joined
    /// with commas (`--for id=a,os=ios`). A name given twice with two values is refused.
    public init(parsing given: [String]) throws(ScopeError) {
        var attributes: [String: String] = [:]
        for text in given {
            for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
                let pair = pair.trimmingWhitespace()
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw ScopeError("\"\(pair)\" is not an attribute match: write name=value (id=qa-phone-7)")
                }
                let name = String(pair[..<equals])
                let value = String(pair[pair.index(after: equals)...])
                if let earlier = attributes[name], earlier != value {
                    throw ScopeError("attribute \"\(name)\" is given twice, as \"\(earlier)\" and \"\(value)\"")
                }
                attributes[name] = value
            }
        }
        try self.init(validating: attributes)
    }

    /// A scope of attributes from a file or a request: a name must be
    /// non-empty and hold no `=`, and neither may hold a control character,
    /// so that every scope is written and read back the same.
    public init(validating attributes: [String: String]) throws(ScopeError) {
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty { throw ScopeError("a scope attribute has no name") }
            if name.contains("=") { throw ScopeError("scope attribute \"\(name)\" has \"=\" in its name") }
            if (name + value).unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw ScopeError("scope attribute \"\(name)\" holds a control character")
            }
        }
        self.init(attributes: attributes)
    }

    /// Scopes in the order the state file and Settings list them: everyone first, then by their text.
    public static func < (lhs: Scope, rhs: Scope) -> Bool {
        (lhs.isEveryone ? 0 : 1, lhs.storedForm) < (rhs.isEveryone ? 0 : 1, rhs.storedForm)
    }
}

extension Scope {
    /// A user's attributes as scopes compare them (an OFREP context, an
    /// SDK's): text as it is, numbers and booleans as JavaScript writes
    /// them; objects, lists and null are left out.
    public static func comparable(_ attributes: [JSONValue.Member]) -> [String: String] {
        var comparable: [String: String] = [:]
        for member in attributes {
            switch member.value {
            case .string(let text): comparable[member.key] = text
            case .number, .bool: comparable[member.key] = JavaScriptSemantics.string(member.value)
            default: break
            }
        }
        return comparable
    }
}

/// Why a scope a person typed was refused.
public struct ScopeError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var text = self
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return text
    }
}
