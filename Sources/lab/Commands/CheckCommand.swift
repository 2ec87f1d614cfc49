import ArgumentParser
import Foundation
import Laboratory

/// `lab check PATH...`: validate catalogs with `file:line:col` diagnostics.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate catalog files, printing file:line:col diagnostics.",
        discussion: "Exit status: 0 clean, 1 errors found, 2 a file could not be read.")

    @Argument(help: "The catalog files.") var paths: [String]

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one catalog file") }
    }

    func run() throws {
        var errors = 0
        var unreadable = false
        for path in paths {
            do {
                _ = try CatalogDecoder().decode(contentsOf: path)
            } catch {
                for diagnostic in error.diagnostics { printLine(diagnostic.description) }
                errors += error.diagnostics.count
                unreadable = unreadable || error.isUnreadable
            }
        }
        let files = paths.count == 1 ? "1 file" : "\(paths.count) files"
        printLine(errors == 0 ? "\(files) checked: no problems" : "\(files) checked: \(errors) error\(errors == 1 ? "" : "s")")
        if unreadable { throw ExitCode(2) }
        if errors > 0 { throw ExitCode.failure }
    }
}
