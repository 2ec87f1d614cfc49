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
    @OptionGroup var connect: ConnectOptions

    func run() throws {
        let document: ExperimentsDocument
        if let connection = connect.connection {
            document = try RemoteChange.reporting { try connection.experiments() }
        } else {
            let session = try LabSession.open(global)
            document = try session.run {
                try ExperimentsDocument(
                    debug: session.debug,
                    snapshot: try session.manager.refresh(),
                    token: session.device.token
                )
            }
        }
        if json { return try JSONOutput.print(document) }
        let reports = document.experiments
        let token = ActiveExperimentsToken(document.token)
        printLine("token \(document.token)")
        var sources: [String] = []
        for report in reports where !sources.contains(report.source) { sources.append(report.source) }
        for source in sources {
            printLine("")
            printLine(
                source
                    + (document.stabilized[source].map {
                        " (stabilized since \(Timestamp.iso8601($0)): no new draws or experiments here)"
                    } ?? "")
            )
            let rows = reports.filter { $0.source == source }.map { report in
                [" ", report.name, report.variant ?? DebugSource.inactiveChoice, report.notes(token: token)]
            }
            printLines(TextTable.lines(header: [" ", "EXPERIMENT", "VARIANT", "NOTES"], rows: rows))
        }
        for entry in document.staleForcedVariants {
            printLine("stale forced variant: \(entry.source)/\(entry.experiment): \(entry.reason)")
        }
    }
}
