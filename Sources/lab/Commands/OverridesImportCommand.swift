import ArgumentParser
import Foundation
import Laboratory
import LaboratoryRuntime

/// `lab overrides import PATH [--replace]`.
struct OverridesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Apply an overrides file: every forced variant is checked first, and nothing is applied if one is unknown."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The overrides file.") var path: String
    @Flag(help: "Drop the forced variants and attributes the file does not name.") var replace = false
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false
    @OptionGroup var connect: ConnectOptions

    func run() throws {
        let data: Data
        do {
            data = try FileContents.read(path)
        } catch {
            printError(error.description)
            throw ExitCode(ExitStatus.noInput)
        }
        let file: OverridesFile
        do {
            file = try OverridesFile(decoding: data, file: path)
        } catch {
            printError(TerminalText.visible(error.description))
            throw ExitCode(ExitStatus.dataError)
        }
        if let connection = connect.connection {
            return try RemoteChange.print(json: json) {
                try connection.importOverrides(data, replacing: replace)
            }
        }
        let session = try LabSession.open(global)
        let outcome: Steering.Outcome
        do {
            outcome = try session.run {
                try session.steering.importOverrides(file, replacing: replace, tester: session.tester, from: path)
            }
        } catch let error as OverridesError {
            printError("\(path): \(error)")
            throw ExitCode.failure
        }
        try ChangeDocument.print(outcome, json: json)
    }

}
