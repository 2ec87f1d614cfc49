import ArgumentParser
import Foundation
import Laboratory

/// `lab experiments`: every experiment of every source, with its state here.
struct ExperimentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiments",
        abstract: "Show every experiment of every source, with its state on this device."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON document.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let document = try session.run {
            try ExperimentsDocument(
                debug: session.debug,
                snapshot: try session.manager.refresh(),
                token: session.device.token
            )
        }
        if json { return try JSONOutput.print(document) }
        let reports = document.experiments
        printLine("token \(session.device.token.value)")
        for source in session.debug.sources {
            printLine("")
            let stabilized = try session.run { try source.stabilization() }
            printLine(
                source.name
                    + (stabilized.map {
                        " (stabilized since \(Timestamp.iso8601($0)): no new draws or experiments here)"
                    } ?? "")
            )
            let rows = reports.filter { $0.source == source.name }.map { report in
                [" ", report.name, report.variant ?? "Inactive", report.notes(token: session.device.token)]
            }
            printLines(TextTable.lines(header: [" ", "EXPERIMENT", "VARIANT", "NOTES"], rows: rows))
        }
        for entry in document.staleForcedVariants {
            printLine("stale forced variant: \(entry.source)/\(entry.experiment): \(entry.reason)")
        }
    }
}
