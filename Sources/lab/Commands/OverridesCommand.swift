import ArgumentParser
import Foundation
import Laboratory

/// `lab overrides export|import`: forced variants and attributes as a file.
struct OverridesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overrides",
        abstract: "Save forced variants and attributes to a file, or apply such a file.",
        subcommands: [OverridesExportCommand.self, OverridesImportCommand.self]
    )
}

/// `lab overrides export [PATH]`.
struct OverridesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the forced variants and attributes as JSON (to standard output by default)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write.") var path: String?

    func run() throws {
        let session = try LabSession.open(global)
        let file = try session.run { try session.debug.exportOverrides(attributes: session.attributes) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(file) + Data("\n".utf8)
        guard let path else {
            return StandardStreams.write(
                Data(TerminalText.json(String(decoding: data, as: UTF8.self)).utf8),
                to: STDOUT_FILENO
            )
        }
        do {
            // It holds user ids: private to the user, like the state file.
            try PrivateFile.write(data, to: path)
        } catch {
            printError("\(path): cannot write: \(error)")
            throw ExitCode(ExitStatus.ioError)
        }
        printLine("Wrote \(file.requests.count) forced variant\(file.requests.count == 1 ? "" : "s") to \(path).")
    }
}

/// `lab overrides import PATH [--replace]`.
struct OverridesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Apply an overrides file: every request is checked first, and nothing is applied if one is unknown."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The overrides file.") var path: String
    @Flag(help: "Drop the forced variants and attributes the file does not name.") var replace = false
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let file: OverridesFile
        do {
            file = try JSONDecoder().decode(OverridesFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as DecodingError {
            printError("\(path): not an overrides file: \(Self.describe(error))")
            throw ExitCode(ExitStatus.dataError)
        } catch {
            printError("\(path): cannot read: \(error.localizedDescription)")
            throw ExitCode(ExitStatus.noInput)
        }
        let session = try LabSession.open(global)
        let snapshot: AssignmentsSnapshot
        do {
            snapshot = try session.run {
                try session.debug.importOverrides(file, replacing: replace)
                if let user = file.attributes["userId"] {
                    for local in session.laboratory.locals { local.setUserID(user) }
                }
                return try session.manager.refresh()
            }
        } catch let error as OverridesError {
            printError("\(path): \(error)")
            throw ExitCode.failure
        }
        try ChangeDocument.print(
            "Applied \(file.requests.count) forced variant\(file.requests.count == 1 ? "" : "s") from \(path)\(replace ? ", replacing the others" : "").",
            snapshot: snapshot,
            json: json
        )
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"" + Self.path(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + Self.path(context)
        @unknown default:
            return String(describing: error)
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty
            ? ""
            : " at " + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
