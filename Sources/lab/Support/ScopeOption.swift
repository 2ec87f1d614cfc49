import ArgumentParser
import Laboratory

/// `--for name=value`: whom a forced variant applies to (everyone without it).
struct ScopeOption: ParsableArguments {
    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "Whom it is for: the users with this attribute (repeatable, or joined with commas: "
                + "id=qa-phone-7,os=ios); without it, everyone.",
            valueName: "name=value"
        )
    )
    var matches: [String] = []

    func validate() throws {
        _ = try parsed()
    }

    /// The scope given; everyone when none is.
    var scope: Scope {
        (try? parsed()) ?? .everyone
    }

    /// The scope given, or `nil` when `--for` is not (reset: every scope).
    var givenScope: Scope? {
        matches.isEmpty ? nil : scope
    }

    private func parsed() throws -> Scope {
        do {
            return try Scope(parsing: matches)
        } catch {
            throw ValidationError("--for: \(error)")
        }
    }
}
