import Foundation
import LaboratoryConsole

/// Writes `lab(1)` in mdoc from the command definitions, so the manual page
/// cannot drift from what the parser accepts.
enum ManualPage {
    static func render(_ info: ToolInfo, date: String = LabVersion.releaseDate) -> String {
        let root = info.command
        var page = [
            ".Dd \(date)",
            ".Dt \(root.commandName.uppercased()) 1",
            ".Os",
            ".Sh NAME",
            ".Nm \(root.commandName)",
            ".Nd \(escape(root.abstract ?? ""))",
            ".Sh SYNOPSIS",
            ".Nm",
            ".Ar command",
            ".Op Ar options",
        ]
        if let discussion = root.discussion {
            page += [".Sh DESCRIPTION", escape(discussion)]
        }
        page += [".Sh COMMANDS", ".Bl -tag -width 6n"]
        for command in visible(root.subcommands) {
            page += commandSection(command, path: [root.commandName])
        }
        page += [".El"]
        page += consoleKeys()
        page += [
            ".Sh EXIT STATUS",
            "0 on success; 1 on failure; 64 for a usage error; 65 for a malformed catalog (the state file is not changed);",
            "66 for a catalog that cannot be read; 69 when the server",
            ".Fl -connect",
            "names cannot be reached; 74 for a state file that cannot be used.",
            "The console, ended by a signal, gives the terminal back and exits with 128 plus the signal's number:",
            "129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM.",
            ".Sh EXAMPLES",
            "Force a variant on this machine, and see what the app gets:",
            ".Dl lab force ButtonColor Blue",
            ".Dl lab assignments",
            "Force it only for one tester's phone, on a server the team shares:",
            ".Dl lab force ButtonColor Blue --for id=qa-phone-7 --connect http://192.168.1.20:3100 --token TOKEN",
            "Serve the state file to GrowthBook SDKs and OpenFeature providers on the LAN:",
            ".Dl lab serve --host 0.0.0.0 --client-key sdk-qa",
            "Check catalogs and a GrowthBook payload together, as a compiler does:",
            ".Dl lab check catalogs/*.json --growthbook payload.json",
            "Hand a colleague what you forced:",
            ".Dl lab overrides export qa.json",
            ".Dl lab overrides import qa.json",
            ".Sh FILES",
            ".Bl -tag -width 6n",
            ".It Pa $XDG_STATE_HOME/laboratory/default.sqlite",
            "The state file: token, draws, forced variants and events, shared with apps.",
            ".It Pa share/laboratory/demo.json",
            "The demo catalog, used when no",
            ".Fl -catalog",
            "is given.",
            ".El",
            ".Sh ENVIRONMENT",
            ".Bl -tag -width 6n",
            ".It Ev NO_COLOR",
            "When set and not empty, the console draws without colour.",
            ".It Ev XDG_STATE_HOME",
            "Where the default state file lives.",
            ".El",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// The console's keys, from the list the help overlay is drawn from.
    private static func consoleKeys() -> [String] {
        var lines = [
            ".Sh CONSOLE KEYS",
            "In",
            ".Nm",
            ".Cm console :",
            ".Bl -tag -width 6n",
        ]
        for binding in ConsoleKeys.bindings {
            lines.append(".It " + escape(binding.keys.joined(separator: " ")))
            lines.append(escape(binding.action))
        }
        return lines + [".El"]
    }

    private static func visible(_ commands: [ToolInfo.Command]?) -> [ToolInfo.Command] {
        (commands ?? []).filter { $0.shouldDisplay ?? true }
    }

    private static func commandSection(_ command: ToolInfo.Command, path: [String]) -> [String] {
        let words = path.dropFirst() + [command.commandName]
        var lines = [".It Cm \(words.joined(separator: " "))" + synopsis(command.arguments ?? [])]
        if let abstract = command.abstract { lines.append(escape(abstract)) }
        if let discussion = command.discussion { lines += [".Pp", escape(discussion)] }
        let options = (command.arguments ?? []).filter { $0.shouldDisplay && $0.kind != "positional" && !isHelp($0) }
        if !options.isEmpty {
            lines.append(".Bl -tag -width 6n")
            for option in options {
                lines.append(
                    ".It " + flag(option) + (option.kind == "option" ? " Ar \(option.valueName ?? "value")" : "")
                )
                var text = escape(option.abstract ?? "")
                if let value = option.defaultValue { text += " (default: \(escape(value)))" }
                lines.append(text)
            }
            lines.append(".El")
        }
        for sub in visible(command.subcommands) {
            lines += commandSection(sub, path: path + [command.commandName])
        }
        return lines
    }

    private static func synopsis(_ arguments: [ToolInfo.Argument]) -> String {
        arguments.filter { $0.kind == "positional" && $0.shouldDisplay }.map { argument in
            let name = "Ar \(argument.valueName ?? "value")" + (argument.isRepeating ? " ..." : "")
            return argument.isOptional ? " Op \(name)" : " \(name)"
        }.joined()
    }

    private static func flag(_ argument: ToolInfo.Argument) -> String {
        let names = argument.names ?? []
        let long = names.first { $0.kind == "long" }
        let short = names.first { $0.kind == "short" }
        return (long.map { "Fl -\($0.name)" } ?? short.map { "Fl \($0.name)" }) ?? "Fl ?"
    }

    private static func isHelp(_ argument: ToolInfo.Argument) -> Bool {
        argument.names?.contains { $0.name == "help" || $0.name == "version" } ?? false
    }

    /// A line that starts with a dot or quote would be read as a request.
    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}
