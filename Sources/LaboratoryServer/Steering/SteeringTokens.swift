import Foundation
import GrowthBook

/// The testers who may steer a shared `lab serve`, each with a token: a
/// JSON object from tester name to token (`{"ana": "9f2c…", "bo": "41d7…"}`),
/// given with `--tokens FILE`. The name is what forced variants record.
public struct SteeringTokens: Sendable, Equatable {
    /// Tester by token.
    public let testers: [String: String]

    /// The shortest token taken: a guessable one would let anyone on the LAN steer.
    public static let minimumLength = 16

    public init(testers byToken: [String: String]) {
        testers = byToken
    }

    /// The tester a token belongs to, if any.
    public func tester(for token: String) -> String? {
        testers[token]
    }

    /// Why a tokens file was refused, with where: `file:line:col: message`.
    public struct Invalid: Error, CustomStringConvertible, Sendable, Equatable {
        public var file: String
        public var position: SourcePosition?
        public var message: String

        public var description: String {
            "\(file)\(position.map { ":\($0.line):\($0.column)" } ?? ""): \(message)"
        }
    }

    /// Reads a tokens file: every mistake is named with its line and column.
    public init(decoding data: Data, file: String) throws(Invalid) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Invalid(file: file, message: "not UTF-8 text")
        }
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            throw Invalid(file: file, position: error.position, message: error.message)
        }
        guard case .object(let members) = root.kind else {
            throw Invalid(
                file: file,
                position: root.position,
                message: "expected an object from tester name to token, found \(root.kindName)"
            )
        }
        var byToken: [String: String] = [:]
        for member in members {
            guard !member.name.isEmpty else {
                throw Invalid(file: file, position: member.value.position, message: "a tester has no name")
            }
            guard case .string(let token) = member.value.kind else {
                throw Invalid(
                    file: file,
                    position: member.value.position,
                    message: "the token of \"\(member.name)\" must be a string, found \(member.value.kindName)"
                )
            }
            guard token.count >= Self.minimumLength, !token.contains(where: \.isWhitespace) else {
                throw Invalid(
                    file: file,
                    position: member.value.position,
                    message:
                        "the token of \"\(member.name)\" must be at least \(Self.minimumLength) characters without spaces "
                        + "(openssl rand -hex 16 makes one)"
                )
            }
            if let other = byToken[token] {
                throw Invalid(
                    file: file,
                    position: member.value.position,
                    message: "\"\(member.name)\" has the same token as \"\(other)\"; each tester needs their own"
                )
            }
            byToken[token] = member.name
        }
        self.init(testers: byToken)
    }
}
