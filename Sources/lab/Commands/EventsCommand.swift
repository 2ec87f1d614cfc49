import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// `lab events`: the event table, filtered, in several formats, followed as it
/// grows, or summed up as exposures with a sample-ratio-mismatch check.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Show the event table; --follow keeps printing rows as any process adds them.",
        discussion: """
            --summary counts exposures (displayed events, one per device and variant) per experiment \
            and variant, and flags a sample-ratio mismatch: a split that the configured weights make \
            unlikely (chi-square, p < 0.001). It reads the weights from the catalogs.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, jsonl, csv
    }

    @OptionGroup var global: GlobalOptions
    @Option(help: "table, json (one document), jsonl (one object per line) or csv.") var format: Format = .table
    @Flag(help: "The same as --format json.") var json = false
    @Flag(help: "Keep printing rows as they are added (json becomes jsonl).") var follow = false
    @Option(help: "Show at most this many of the newest matching rows.") var limit: Int = 100
    @Option(help: "Only rows since a time: 2026-11-22, 2026-11-22T13:00:00Z, or ago: 30s, 10m, 2h, 7d.")
    var since: String?
    @Option(help: "Only rows with this reason (repeatable).") var reason: [String] = []
    @Option(help: "Only rows of this experiment (repeatable).") var experiment: [String] = []
    @Flag(help: "Exposures per experiment and variant, with the sample-ratio-mismatch check.") var summary = false
    @OptionGroup var connect: ConnectOptions

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
        if let since, SinceParser.date(since, now: Date()) == nil {
            throw ValidationError(
                "--since takes a date (2026-11-22), a time (2026-11-22T13:00:00Z) or an age (30s, 10m, 2h, 7d), got \"\(since)\""
            )
        }
        if summary && follow { throw ValidationError("--summary and --follow do not go together") }
        if summary && connect.url != nil {
            throw ValidationError("--summary reads the catalogs' weights on this machine; it does not take --connect")
        }
        // Custom reasons are allowed; a near miss of a standard one is a typo.
        for reason in reason {
            do {
                _ = try EventReason(checking: reason)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    private var effectiveFormat: Format {
        let format = json ? .json : self.format
        return follow && format == .json ? .jsonl : format
    }

    func run() async throws {
        if summary { return try printSummary() }
        let query = EventQuery(
            since: since.flatMap { SinceParser.date($0, now: Date()) },
            reasons: reason.map(EventReason.init(rawValue:)),
            experiments: experiment
        )
        if let connection = connect.connection { return try await runConnected(connection, query: query) }
        let store = try openStore()
        // Rows from before booleans kept their type read 0 and 1: the catalogs tell which were booleans.
        let experiments = LabSession.catalogExperiments(global)
        let rows = try LabSession.reportingStateErrors {
            try store.latestEvents(matching: query, limit: limit).reversed().map {
                $0.restoringBoolean(from: experiments)
            }
        }
        let writer = EventWriter(format: effectiveFormat)
        if effectiveFormat == .json {
            try JSONOutput.print(EventsDocument(events: rows.map(EventReport.init)))
            return
        }
        try writer.write(rows, first: true, following: follow)
        guard follow else { return }
        // Follow from the newest row of all, matching or not: older rows are not news.
        var last = try LabSession.reportingStateErrors { try store.latestEvents(limit: 1).first?.id } ?? 0
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(200))
            let fresh = try LabSession.reportingStateErrors {
                try store.events(matching: query, after: last, limit: 1000).map {
                    $0.restoringBoolean(from: experiments)
                }
            }
            try writer.write(fresh, first: false, following: true)
            last = fresh.last?.id ?? last
        }
    }

    /// `--connect`: the server's event table; `--follow` fetches what is new
    /// whenever its change stream says events arrived, never on a timer.
    private func runConnected(_ connection: HTTPSteeringConnection, query: EventQuery) async throws {
        func rows(after id: Int64?) throws -> [RecordedEvent] {
            let reports = try RemoteChange.reporting {
                try connection.events(query: query, after: id, limit: id == nil ? limit : 1000)
            }
            // The API filters by reason and experiment; the time is filtered here.
            let recorded = reports.map(RecordedEvent.init).filter { query.matches($0.event) }
            return id == nil ? recorded.reversed() : recorded
        }
        let first = try rows(after: nil)
        if effectiveFormat == .json {
            try JSONOutput.print(EventsDocument(events: first.map(EventReport.init)))
            return
        }
        let writer = EventWriter(format: effectiveFormat)
        try writer.write(first, first: true, following: follow)
        guard follow else { return }
        var last =
            try RemoteChange.reporting { try connection.events(query: EventQuery(), after: nil, limit: 1) }
            .first?.id ?? 0
        try await ChangeFollower.follow(
            connection,
            event: { event in
                // On connecting again too: what arrived meanwhile is printed.
                guard event.type == "events" || event.type == "hello" else { return }
                let fresh = try rows(after: last)
                try writer.write(fresh, first: false, following: true)
                last = fresh.last?.id ?? last
            },
            lost: { reason, _ in printError("lost the server's change stream (\(reason)); connecting again") }
        )
    }

    /// Events need no catalog: open the state file alone.
    private func openStore() throws -> SQLiteStateStore {
        do {
            return try SQLiteStateStore(path: global.statePath)
        } catch {
            printError(error.description)
            throw ExitCode(ExitStatus.ioError)
        }
    }

    private func printSummary() throws {
        let session = try LabSession.open(global)
        let counts = try session.run { try session.store.exposureCounts() }
        let definitions = session.debug.sources.flatMap { source in source.experiments.map { (source.name, $0) } }
        let summaries = ExposureSummary.summaries(counts: counts, experiments: definitions)
            .filter { experiment.isEmpty || experiment.contains($0.experiment) }
        if effectiveFormat == .json || effectiveFormat == .jsonl {
            try JSONOutput.print(SummaryDocument(experiments: summaries.map(SummaryDocument.Experiment.init)))
            return
        }
        guard !summaries.isEmpty else { return printLine("No exposures yet (no displayed events).") }
        for summary in summaries {
            printLine(
                "\(ExperimentID(source: summary.source, name: summary.experiment)): \(summary.total) exposures"
                    + (summary.forcedExposures > 0
                        ? " (and \(summary.forcedExposures) of forced variants, left out: QA, not experiment data)"
                        : "")
            )
            let rows = summary.rows.map { row in
                [row.variant, String(row.exposures), Self.percent(row.observedShare), Self.percent(row.expectedShare)]
            }
            printLines(
                TextTable.lines(
                    header: ["  VARIANT", "EXPOSURES", "OBSERVED", "EXPECTED"],
                    rows: rows.map { ["  " + $0[0]] + $0.dropFirst() }
                )
            )
            guard summary.canJudge else {
                printLine(
                    "  too few exposures to judge the split (the check needs at least "
                        + "\(Int(ExposureSummary.minimumExpected)) expected for every variant)"
                )
                printLine("")
                continue
            }
            let verdict =
                summary.isSampleRatioMismatch
                ? "SAMPLE RATIO MISMATCH: p < \(ExposureSummary.threshold); check assignment and logging before reading results"
                : "split matches the weights"
            printLine(String(format: "  chi-square %.2f, p = %.4g: %@", summary.chiSquare, summary.pValue, verdict))
            printLine("")
        }
    }

    private static func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
}
