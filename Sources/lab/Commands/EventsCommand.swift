import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// `lab events`: the event table, optionally followed as it grows.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Show the event table; --follow keeps printing new rows from any process.")

    @Option(
        help: ArgumentHelp(
            "The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).", valueName: "path"))
    var state: String?
    @Flag(help: "Print JSON: one document, or one object per line with --follow.") var json = false
    @Flag(help: "Keep printing rows as they are added.") var follow = false
    @Option(help: "Show at most this many of the newest rows first.") var limit: Int = 100

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() async throws {
        // Events need no catalog: open the state file alone.
        var options = GlobalOptions()
        options.state = state
        let store: SQLiteStateStore
        do {
            store = try SQLiteStateStore(path: options.statePath)
        } catch {
            printError(error.description)
            throw ExitCode(ExitStatus.ioError)
        }
        var rows = try LabSession.reportingStateErrors { try store.latestEvents(limit: limit).reversed() as [RecordedEvent] }
        if json && !follow {
            try JSONOutput.print(EventsDocument(events: rows.map(EventReport.init)))
            return
        }
        try printRows(rows, header: true)
        guard follow else { return }
        var last = rows.last?.id ?? 0
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(200))
            rows = try LabSession.reportingStateErrors { try store.events(after: last, limit: 1000) }
            try printRows(rows, header: false)
            last = rows.last?.id ?? last
        }
    }

    private func printRows(_ rows: [RecordedEvent], header withHeader: Bool) throws {
        if json {
            for row in rows { try JSONOutput.print(EventReport(row), pretty: false) }
            return
        }
        guard !rows.isEmpty else {
            if withHeader && !follow { printLine("No events.") }
            return
        }
        let cells = rows.map { row in
            let event = row.event
            return [
                String(row.id), Timestamp.iso8601(event.time), event.reason.rawValue, event.source,
                event.experiment, event.variant, event.key, event.value.description, event.device,
            ]
        }
        let header = ["ID", "TIME", "REASON", "SOURCE", "EXPERIMENT", "VARIANT", "KEY", "VALUE", "DEVICE"]
        let table = TextTable.render(header: header, rows: cells)
        printLine(withHeader ? table : table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"))
    }
}

/// The `--json` shape of `lab events`.
struct EventsDocument: Encodable {
    var events: [EventReport]
}

/// One event row in JSON.
struct EventReport: Encodable {
    var id: Int64
    var time: Date
    var device: String
    var source: String
    var experiment: String
    var variant: String
    var key: String
    var value: AssignmentValue
    var reason: String

    init(_ row: RecordedEvent) {
        id = row.id
        time = row.event.time
        device = row.event.device
        source = row.event.source
        experiment = row.event.experiment
        variant = row.event.variant
        key = row.event.key
        value = row.event.value
        reason = row.event.reason.rawValue
    }
}
