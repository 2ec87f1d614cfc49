import Laboratory

/// Builds the sections of each screen from the data; ``RowSection`` applies the filter.
package enum RowBuilder {
    package static func sections(for route: Route, state: ConsoleState) -> [RowSection] {
        let data = state.data
        switch route {
        case .main: return main(state)
        case .experiments: return experiments(data)
        case .variants(let source, let experiment): return variants(data, source: source, experiment: experiment)
        case .assignments: return assignments(data)
        case .events: return events(data, reason: state.eventReason, state: state)
        case .attributes: return attributes(data)
        case .settings: return settings(data, state: state)
        }
    }

    static func main(_ state: ConsoleState) -> [RowSection] {
        let data = state.data
        let forced = resettable(data)
        let categories = [
            ListRow(.category(.experiments), ["Experiments", CategorySummary.experiments(data)]),
            ListRow(.category(.assignments), ["Assignments", CategorySummary.assignments(data)]),
            ListRow(.category(.events), ["Events", CategorySummary.events(data, timeZone: state.timeZone)]),
            ListRow(.category(.attributes), ["Attributes", CategorySummary.attributes(data)]),
            ListRow(.category(.settings), ["Settings", CategorySummary.settings(data, timeZone: state.timeZone)]),
        ]
        let reset = ListRow(
            .resetAll,
            [
                "Reset",
                forced == 0
                    ? "no forced variants"
                    : (forced == 1 ? "drop the forced variant" : "drop all \(forced) forced variants"),
            ],
            role: forced == 0 ? .muted : .plain
        )
        return [
            RowSection(items: categories.map { ($0, $0.columns) }),
            RowSection(header: ListRow(.header, ["", ""]), items: [(reset, reset.columns)]),
        ]
    }

    static func experiments(_ data: ConsoleData) -> [RowSection] {
        // Index the conflicts once, not once per row.
        var conflicted: Set<ExperimentID> = []
        var setAside: Set<ExperimentID> = []
        for conflict in data.snapshot.conflicts {
            conflicted.insert(conflict.winner.experimentID)
            conflicted.insert(conflict.loser.experimentID)
            setAside.insert(conflict.loser.experimentID)
        }
        // Positions, not copies of the entries: there are thousands.
        let entries = data.entries
        let grouped = Dictionary(grouping: entries.indices, by: { entries[$0].source })
        return data.sources.map { source in
            let positions = (grouped[source.name] ?? []).sorted {
                entries[$0].experiment.name < entries[$1].experiment.name
            }
            var section = RowSection(
                header: ListRow(.header, [source.name.uppercased(), "\(positions.count)"], role: .header),
                countsItems: true
            )
            // Each row is added as it is made: no list of thousands of rows and names beside the section.
            section.reserveCapacity(
                items: positions.count,
                nameBytes: positions.reduce(0) { $0 + nameBytes(of: entries[$1].experiment) }
            )
            for position in positions {
                let entry = entries[position]
                let id = ExperimentID(source: entry.source, name: entry.experiment.name)
                let effective = entry.effective
                let role: CellStyle.Role =
                    setAside.contains(id)
                    ? .conflict : entry.isForced ? .forced : effective == nil ? .inactive : .plain
                var flags = ""
                if entry.isForced { flags += "F" }
                if conflicted.contains(id) { flags += "!" }
                if entry.isStale { flags += "?" }
                if source.stabilizedAt != nil { flags += "S" }
                if entry.experiment.isResolved { flags += "R" }
                if effective?.basis == .whitelisted { flags += "W" }
                let name = entry.experiment.name
                let row = ListRow(
                    .experiment(source: entry.source, name: name),
                    [
                        name,
                        // A conflict's loser gives the app none of its keys: its variant must not look active.
                        effective.map { active in
                            let shown = VariantName.shown(active.variant.name, under: name)
                            return setAside.contains(id) ? "set aside (\(shown))" : shown
                        } ?? DebugSource.inactiveChoice, flags,
                    ],
                    role: role,
                    namesOf: entry.experiment
                )
                section.append(row, names: names(of: entry.experiment))
            }
            return section
        }
    }

    /// What the filter finds an experiment's row by: its name, title, variants and keys.
    private static func names(of experiment: Experiment) -> [String] {
        [experiment.name] + (experiment.title.map { [$0] } ?? []) + experiment.variants.map(\.name) + experiment.keys
    }

    /// ``RowSection/bytes(of:)`` of ``names(of:)``, counted without making the list.
    private static func nameBytes(of experiment: Experiment) -> Int {
        let title = experiment.title.map { $0.utf8.count + 1 } ?? 0
        return experiment.name.utf8.count + title
            + experiment.variants.reduce(0) { $0 + $1.name.utf8.count + 1 }
            + experiment.keys.reduce(0) { $0 + $1.utf8.count + 1 }
    }

    static func variants(_ data: ConsoleData, source: String, experiment: String) -> [RowSection] {
        guard let entry = data.entry(source: source, experiment: experiment) else { return [] }
        let current = entry.effective?.variant.name
        var items: [(row: ListRow, names: [String])] = entry.experiment.variants.map { variant in
            let share = entry.experiment.share(of: variant) * 100
            let row = ListRow(
                .choice(variant.name),
                [
                    variant.name == current ? "●" : " ", VariantName.shown(variant.name, under: experiment),
                    String(format: "%.1f %%", share),
                ],
                role: variant.name == current ? (entry.isForced ? .forced : .accent) : .plain,
                hiddenNames: [ListRow.HiddenName("variant", variant.name)]
                    + variant.assignments.keys.map { ListRow.HiddenName("key", $0) }
            )
            return (row, [variant.name] + variant.assignments.keys)
        }
        let inactive = ListRow(
            .choice(nil),
            [current == nil ? "●" : " ", DebugSource.inactiveChoice, "baseline"],
            role: current == nil ? .inactive : .plain
        )
        items.append((inactive, [DebugSource.inactiveChoice]))
        return [RowSection(items: items)]
    }

    static func assignments(_ data: ConsoleData) -> [RowSection] {
        // A forced variant's keys are QA's doing: marked, as on the Experiments screen.
        var forced: Set<ListRow.Target> = []
        for active in data.snapshot.active where active.forced {
            forced.insert(.experiment(source: active.source, name: active.experiment.name))
        }
        return [
            RowSection(
                items: data.snapshot.assignments.map {
                    let isForced = forced.contains(.experiment(source: $0.source, name: $0.experiment))
                    return (
                        ListRow(
                            .assignment(key: $0.key),
                            [
                                $0.key, $0.value.description, $0.experiment,
                                VariantName.shown($0.variant, under: $0.experiment), isForced ? "F" : "", $0.source,
                            ],
                            role: isForced ? .forced : .plain,
                            hiddenNames: [ListRow.HiddenName("variant", $0.variant)]
                        ),
                        [$0.key, $0.experiment, $0.variant]
                    )
                }
            )
        ]
    }

    static func events(_ data: ConsoleData, reason: String?, state: ConsoleState) -> [RowSection] {
        let rows = data.events
            .filter { reason == nil || $0.event.reason.rawValue == reason }
            .map { row -> (row: ListRow, names: [String]) in
                let event = row.event
                // A forced exposure is QA's, not experiment data: it looks like a forced variant does.
                let role: CellStyle.Role =
                    switch event.reason {
                    case _ where event.forced: .forced
                    case .displayed: .accent
                    case .deactivated: .inactive
                    default: .plain
                    }
                let listRow = ListRow(
                    .event(id: row.id),
                    [
                        TimeText.clock(event.time, timeZone: state.timeZone), event.reason.rawValue, event.experiment,
                        VariantName.shown(event.variant, under: event.experiment), event.forced ? "F" : "",
                        event.device, "\(event.key) = \(event.value)",
                    ],
                    role: role,
                    hiddenNames: [ListRow.HiddenName("variant", event.variant)]
                        + (event.tester.map { [ListRow.HiddenName("tester", $0)] } ?? [])
                )
                return (
                    listRow,
                    [event.experiment, event.variant, event.key, event.device] + (event.tester.map { [$0] } ?? [])
                )
            }
        return [RowSection(items: rows)]
    }

    /// The attributes the device is evaluated with, then those targeting
    /// reads that nobody set; QA's (stored or this run's) look as forced
    /// variants do, as they are QA's doing too.
    static func attributes(_ data: ConsoleData) -> [RowSection] {
        let items = data.attributes.map { attribute -> (row: ListRow, names: [String]) in
            let role: CellStyle.Role =
                switch attribute.origin {
                case .stored, .run: .forced
                case .unset: .muted
                case .app, .source: .plain
                }
            let readers = attribute.readBy
            let readBy =
                readers.isEmpty
                ? "nothing targets it"
                : readers.prefix(2).joined(separator: ", ") + (readers.count > 2 ? " +\(readers.count - 2)" : "")
            let row = ListRow(
                .attribute(name: attribute.name),
                [attribute.name, attribute.value ?? "—", attribute.origin.phrase, readBy],
                role: role,
                hiddenNames: readers.dropFirst(2).map { ListRow.HiddenName("read by", $0) }
            )
            return (row, [attribute.name, attribute.value ?? ""] + readers)
        }
        return [RowSection(items: items)]
    }

    /// The forced variants a reset here drops: every one (all scopes), or,
    /// in a console scoped with `--as`, those of its scope.
    static func resettable(_ data: ConsoleData, source: String? = nil) -> Int {
        // Counted in place: filtering would copy thousands of entries.
        var count = 0
        for entry in data.entries where !entry.forcedVariants.isEmpty && (source == nil || entry.source == source) {
            count += entry.forcedVariants.count { data.scope.isEveryone || $0.scope == data.scope }
        }
        return count
    }

    static func settings(_ data: ConsoleData, state: ConsoleState) -> [RowSection] {
        let forced = data.entries.flatMap(\.forcedVariants).count
        let overrides = RowSection(
            header: ListRow(.header, ["OVERRIDES", "forced variants as a file"], role: .header),
            items: [
                ListRow(
                    .exportOverrides,
                    ["Export", "write the \(CategorySummary.plural(forced, "forced variant")) to a file"]
                ),
                ListRow(.importOverrides, ["Import", "apply a file from a colleague (checked first)"]),
            ].map { ($0, $0.columns) }
        )
        return sources(data, state: state) + forcedVariants(data, state: state) + [overrides] + apps(data.appWirings)
            + (data.server.map { [server($0)] } ?? [])
    }

    /// Every forced variant, for whom, who set it and when: on a server a
    /// team shares, this is how a tester sees what the others force.
    private static func forcedVariants(_ data: ConsoleData, state: ConsoleState) -> [RowSection] {
        let all = data.entries.flatMap { entry in entry.forcedVariants.map { (entry, $0) } }
            .sorted {
                ($0.1.experiment, $0.1.source, $0.1.scope) < ($1.1.experiment, $1.1.source, $1.1.scope)
            }
        guard !all.isEmpty else { return [] }
        let rows = all.map { entry, forced -> (row: ListRow, names: [String]) in
            var detail = forced.experiment + " → "
            detail +=
                forced.variant.map { VariantName.shown($0, under: forced.experiment) } ?? DebugSource.inactiveChoice
            detail += forced.scope.isEveryone ? " for everyone" : " for \(forced.scope)"
            if let tester = forced.tester { detail += " · by \(tester)" }
            if let time = forced.forcedAt { detail += " at \(TimeText.clock(time, timeZone: state.timeZone))" }
            if entry.isStale(forced) { detail += " · stale" }
            let applies = entry.forcedVariant == forced && !entry.isStale(forced)
            let row = ListRow(
                .forcedVariant(source: forced.source, experiment: forced.experiment, scope: forced.scope),
                ["Forced", detail],
                role: entry.isStale(forced) ? .error : applies ? .forced : .plain,
                hiddenNames: forced.tester.map { [ListRow.HiddenName("tester", $0)] } ?? []
            )
            return (row, [forced.experiment, forced.variant ?? DebugSource.inactiveChoice, forced.scope.description])
        }
        return [
            RowSection(
                header: ListRow(
                    .header,
                    ["FORCED", "\(CategorySummary.plural(all.count, "forced variant")), for whom, by whom"],
                    role: .header
                ),
                items: rows
            )
        ]
    }

    /// The apps that opened the state file, and whether what is forced here reaches them.
    private static func apps(_ wirings: [AppWiring]) -> [RowSection] {
        guard !wirings.isEmpty else { return [] }
        let rows = wirings.map { wiring in
            // An app that quit changes nothing either way: said, and not raised as a problem.
            guard wiring.isRunning else {
                return ListRow(
                    .app(wiring.app),
                    [wiring.app, "quit · " + (wiring.hasDebugSource ? "had a debug source" : "had no debug source")],
                    role: .muted
                )
            }
            return wiring.hasDebugSource
                ? ListRow(.app(wiring.app), [wiring.app, "has a debug source: forced variants apply"])
                : ListRow(
                    .app(wiring.app),
                    [wiring.app, "no debug source (a release build?): forcing changes nothing there"],
                    role: .error
                )
        }
        return [
            RowSection(
                header: ListRow(.header, ["APPS", "that opened this state file"], role: .header),
                items: rows.map { ($0, $0.columns) }
            )
        ]
    }

    /// `lab console --serve`: where apps connect, and who does.
    private static func server(_ server: ConsoleData.ServerInfo) -> RowSection {
        var clients =
            "\(CategorySummary.plural(server.openStreams, "open stream")) · "
            + "\(CategorySummary.plural(server.requestsLastMinute, "request")) in the last minute"
        if let last = server.lastClient { clients += " · last client \(last)" }
        return RowSection(
            header: ListRow(.header, ["SERVER", "GrowthBook SDKs and OpenFeature OFREP"], role: .header),
            items: [
                ListRow(.server, ["Address", server.url]),
                ListRow(
                    .server,
                    ["Clients", clients],
                    role: server.openStreams + server.requestsLastMinute == 0 ? .muted : .plain
                ),
            ].map { ($0, $0.columns) }
        )
    }

    private static func sources(_ data: ConsoleData, state: ConsoleState) -> [RowSection] {
        data.sources.map { source in
            let forced = resettable(data, source: source.name)
            var status = TimeText.status(source.status, timeZone: state.timeZone)
            if let detail = source.detail { status += " · " + detail }
            if let stabilized = source.stabilizedAt {
                status += " · stabilized since \(TimeText.clock(stabilized, timeZone: state.timeZone))"
            }
            let statusRole: CellStyle.Role =
                switch source.status {
                case .error: .error
                case .ok: .ok
                default: .plain
                }
            var items = [
                ListRow(.update(source: source.name), ["Update", "fetch the sources again"]),
                ListRow(.status(source: source.name), ["Status", status], role: statusRole),
                ListRow(
                    .reset(source: source.name),
                    [
                        "Reset",
                        forced == 0 ? "no forced variants" : "drop \(CategorySummary.plural(forced, "forced variant"))",
                    ],
                    role: forced == 0 ? .muted : .plain
                ),
            ]
            if let schedule = source.schedule {
                let next = TimeText.clock(schedule.next, timeZone: state.timeZone)
                items.insert(
                    ListRow(
                        .status(source: source.name),
                        ["Next fetch", "\(next), then every \(CategorySummary.plural(schedule.interval, "second"))"]
                    ),
                    at: 2
                )
            }
            return RowSection(
                header: ListRow(
                    .header,
                    [source.name.uppercased(), CategorySummary.plural(source.experimentCount, "experiment")],
                    role: .header
                ),
                items: items.map { ($0, $0.columns) }
            )
        }
    }
}
