/// The parts of swift-argument-parser's `--experimental-dump-help` JSON that
/// the manual page uses.
struct ToolInfo: Decodable {
    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var arguments: [Argument]?
        var subcommands: [Command]?
    }

    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var defaultValue: String?
        var isOptional: Bool
        var isRepeating: Bool
        var shouldDisplay: Bool
    }

    var command: Command
}
