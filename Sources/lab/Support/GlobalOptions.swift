import ArgumentParser
import LaboratoryRuntime

/// The options every command that opens the experiments takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp("A local catalog file (repeatable); the demo catalog when none is given.", valueName: "path")
    )
    var catalogs: [String] = []

    @Option(
        help: ArgumentHelp(
            "The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).",
            valueName: "path"
        )
    )
    var state: String?

    @Option(
        help: ArgumentHelp(
            "A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.",
            valueName: "url|path"
        )
    )
    var growthbook: String?

    @Option(help: ArgumentHelp("The GrowthBook client key, when --growthbook is an API host.", valueName: "key"))
    var clientKey: String?

    @Option(help: ArgumentHelp("The key that decrypts an encrypted GrowthBook payload (base64).", valueName: "key"))
    var decryptionKey: String?

    @Option(
        name: .customLong("attribute"),
        help: ArgumentHelp(
            "An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.",
            valueName: "key=value"
        )
    )
    var attributeList: [String] = []

    func validate() throws {
        for attribute in attributeList where !attribute.contains("=") || attribute.hasPrefix("=") {
            throw ValidationError("--attribute takes key=value, got \"\(attribute)\"")
        }
    }

    /// The attributes by key; a later repeat of a key wins.
    var attributes: [String: String] {
        var attributes: [String: String] = [:]
        for attribute in attributeList {
            let parts = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            attributes[String(parts[0])] = String(parts[1])
        }
        return attributes
    }

    /// The state file path: `--state`, else the default under `$XDG_STATE_HOME`.
    var statePath: String { state ?? LocalLaboratory.defaultStatePath() }
}
