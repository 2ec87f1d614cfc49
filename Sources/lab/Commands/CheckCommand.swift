import ArgumentParser
import Foundation
import GrowthBook
import GrowthBookNetwork
import Laboratory
import LaboratoryRuntime

/// `lab check PATH...`: validate catalogs with `file:line:col` diagnostics.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate catalog files, printing file:line:col diagnostics.",
        discussion: """
            The files are checked together: two experiments in any of them that share a key and can be \
            active on the same device are an error. Exit status: 0 clean, 1 errors (or warnings with \
            --warnings-as-errors), 2 a file could not be read.
            """
    )

    @Argument(help: "The catalog files.") var paths: [String] = []
    @Option(
        help: ArgumentHelp("A GrowthBook payload to check with them: a file or a features URL.", valueName: "url|path")
    )
    var growthbook: String?
    @Flag(help: "Print one JSON document.") var json = false
    @Flag(help: "Fail on warnings too.") var warningsAsErrors = false

    func validate() throws {
        guard !paths.isEmpty || growthbook != nil else {
            throw ValidationError("name at least one catalog file or --growthbook")
        }
    }

    func run() async throws {
        var payloads: [(name: String, text: String)] = []
        if let growthbook {
            do {
                let data: Data
                if growthbook.hasPrefix("http://") || growthbook.hasPrefix("https://"),
                    let url = URL(string: growthbook)
                {
                    // Without an ETag the server answers with a payload, never 304.
                    guard case .payload(let body, _) = try await HTTPPayloadFetcher(url: url).fetch(etag: nil) else {
                        throw ExitCode(ExitStatus.noInput)
                    }
                    data = body
                } else {
                    data = try Data(contentsOf: URL(fileURLWithPath: growthbook))
                }
                payloads.append((growthbook, String(decoding: data, as: UTF8.self)))
            } catch {
                printLine("\(growthbook): error: cannot read the payload: \(error)")
                throw ExitCode(ExitStatus.noInput)
            }
        }
        let report = CatalogLinter().check(paths: paths, payloads: payloads)
        let order = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let diagnostics = report.diagnostics.enumerated().sorted { lhs, rhs in
            let left = (
                order[lhs.element.file] ?? 0, lhs.element.position ?? SourcePosition(line: 0, column: 0), lhs.offset
            )
            let right = (
                order[rhs.element.file] ?? 0, rhs.element.position ?? SourcePosition(line: 0, column: 0), rhs.offset
            )
            return left < right
        }.map(\.element)
        let files = report.files == 1 ? "1 file" : "\(report.files) files"
        let summary =
            report.errors == 0 && report.warnings == 0
            ? "\(files) checked: no problems"
            : "\(files) checked: \(Summary.plural(report.errors, "error")), \(Summary.plural(report.warnings, "warning"))"
        if json {
            try JSONOutput.print(
                CheckDocument(
                    files: report.files,
                    errors: report.errors,
                    warnings: report.warnings,
                    diagnostics: diagnostics.map(CheckDocument.Item.init)
                )
            )
        } else {
            for diagnostic in diagnostics { printLine(diagnostic.description) }
            printLine(summary)
        }
        if !report.unreadable.isEmpty { throw ExitCode(ExitStatus.noInput) }
        if report.errors > 0 || (warningsAsErrors && report.warnings > 0) { throw ExitCode.failure }
    }
}
