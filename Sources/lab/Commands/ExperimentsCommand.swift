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
        let (entries, snapshot, stale) = try session.run {
            let snapshot = try session.manager.refresh()
            return (try session.debug.entries(), snapshot, try session.debug.staleForcedVariants())
        }
        let reports = entries.map { ExperimentReport(entry: $0, snapshot: snapshot) }
        if json {
            var stabilized: [String: Date] = [:]
            for source in session.debug.sources {
                if let date = try session.run({ try source.stabilization() }) { stabilized[source.name] = date }
            }
            try JSONOutput.print(
                ExperimentsDocument(
                    token: session.device.token.value,
                    stabilized: stabilized,
                    experiments: reports,
                    staleForcedVariants: stale.map { StaleReport($0) }
                )
            )
            return
        }
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
        for entry in stale {
            printLine(
                "stale forced variant: \(entry.forcedVariant.source)/\(entry.forcedVariant.experiment): \(entry.reason)"
            )
        }
    }
}
