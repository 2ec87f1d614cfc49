import ArgumentParser
import Foundation
import Laboratory

/// Writes event rows as a table, JSON lines or CSV.
struct EventWriter {
    let format: EventsCommand.Format

    static let columns = [
        "id", "time", "device", "source", "experiment", "variant", "key", "value", "reason", "forced",
    ]

    func write(_ rows: [RecordedEvent], first: Bool, following: Bool) throws {
        switch format {
        case .json, .jsonl:
            for row in rows { try JSONOutput.print(EventReport(row), pretty: false) }
        case .csv:
            if first { printLine(Self.columns.joined(separator: ",")) }
            for row in rows { printLine(Self.cells(row).map(Self.csvField).joined(separator: ",")) }
        case .table:
            if rows.isEmpty {
                if first && !following { printLine("No events.") }
                return
            }
            let header = Self.columns.map { $0.uppercased() }
            let table = TextTable.lines(header: header, rows: rows.map(Self.cells))
            printLines(first ? table : Array(table.dropFirst()))
        }
    }

    static func cells(_ row: RecordedEvent) -> [String] {
        let event = row.event
        return [
            String(row.id), Timestamp.iso8601(event.time), event.device, event.source, event.experiment, event.variant,
            event.key, event.value.description, event.reason.rawValue, event.forced ? "yes" : "",
        ]
    }

    /// RFC 4180: quote a field holding a comma, quote or line break, doubling quotes.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
