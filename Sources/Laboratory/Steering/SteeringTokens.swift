import Foundation

/// The testers who may steer a shared `lab serve`, each with a token: a
/// JSON object from tester name to token (`{"ana": "9f2c…", "bo": "41d7…"}`),
/// given with `--tokens FILE`. The name is what forced variants record.
package struct SteeringTokens: Sendable, Equatable {
    /// Tester by token.
    package let testers: [String: String]

    /// The shortest token taken: a guessable one would let anyone on the LAN steer.
    package static let minimumLength = 16

    package init(testers byToken: [String: String]) {
        testers = byToken
    }

    /// The tester a token belongs to, if any.
    package func tester(for token: String) -> String? {
        testers[token]
    }

    /// Why a tokens file was refused, with where: `file:line:col: message`.
    package typealias Invalid = InvalidFile

    /// Reads a tokens file: every mistake is named with its line and column.
    package init(decoding data: Data, file: String) throws(Invalid) {
        let members = try Invalid.strings(
            in: try Invalid.json(data, file: file),
            file: file,
            notAnObject: { "expected an object from tester name to token, found \($0)" },
            notAString: { "the token of \"\($0)\" must be a string, found \($1)" }
        )
        var byToken: [String: String] = [:]
        for (tester, token, node) in members {
            guard !tester.isEmpty else { throw Invalid(file, at: node, "a tester has no name") }
            guard token.count >= Self.minimumLength, !token.contains(where: \.isWhitespace) else {
                throw Invalid(
                    file,
                    at: node,
                    "the token of \"\(tester)\" must be at least \(Self.minimumLength) characters without spaces "
                        + "(openssl rand -hex 16 makes one)"
                )
            }
            if let other = byToken[token] {
                throw Invalid(
                    file,
                    at: node,
                    "\"\(tester)\" has the same token as \"\(other)\"; each tester needs their own"
                )
            }
            byToken[token] = tester
        }
        self.init(testers: byToken)
    }
}
