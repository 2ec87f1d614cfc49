import Laboratory

/// Builds the rows of each screen from the data, applying the screen's filter.
public enum RowBuilder {
    public static func rows(for frame: Frame, state: ConsoleState) -> [ListRow] {
        let data = state.data
        let filter = frame.filter.lowercased()
        switch frame.route {
        case .main: return main(state)
        case .experiments: return experiments(data, filter: filter)
        case .variants(let source, let experiment): return variants(data, source: source, experiment: experiment, filter: filter)
        case .assignments: return assignments(data, filter: filter)
        case .events: return events(data, filter: filter, reason: state.eventReason, state: state)
        case .settings: return settings(data, state: state)
        }
    }

    private static func matches(_ filter: String, _ names: [String]) -> Bool {
        filter.isEmpty || names.contains { $0.lowercased().contains(filter) }
    }

    static func main(_ state: ConsoleState) -> [ListRow] {
        let data = state.data
        let forced = data.entries.filter { $0.request != nil }.count
        return [
            ListRow(.category(.experiments), ["Experiments", Summaries.experiments(data)]),
            ListRow(.category(.assignments), ["Assignments", Summaries.assignments(data)]),
            ListRow(.category(.events), ["Events", Summaries.events(data, timeZone: state.timeZone)]),
            ListRow(.category(.settings), ["Settings", Summaries.settings(data, timeZone: state.timeZone)]),
            ListRow(.header, ["", ""]),
            ListRow(.resetAll, ["Reset", forced == 0 ? "no forced variants" : "drop all \(Summaries.plural(forced, "forced variant"))"],
                    role: forced == 0 ? .muted : .plain),
        ]
    }

    static func experiments(_ data: ConsoleData, filter: String) -> [ListRow] {
        var rows: [ListRow] = []
        for source in data.sources {
            let entries = data.entries.filter { $0.source == source.name }
                .filter { entry in
                    matches(filter, [entry.experiment.name] + entry.experiment.variants.map(\.name) + entry.experiment.keys)
                }
                .sorted { $0.experiment.name < $1.experiment.name }
            guard !entries.isEmpty || filter.isEmpty else { continue }
            rows.append(ListRow(.header, [source.name.uppercased(), "\(entries.count)"], role: .header))
            for entry in entries {
                let variant = entry.effective?.variant.name ?? DebugSource.inactiveChoice
                let role: CellStyle.Role = entry.isSetAside(in: data.snapshot)
                    ? .conflict : entry.isForced ? .forced : entry.effective == nil ? .inactive : .plain
                rows.append(ListRow(
                    .experiment(source: entry.source, name: entry.experiment.name),
                    [entry.experiment.name, variant, markers(entry, data: data, source: source)], role: role))
            }
        }
        return rows
    }

    /// Short flags: F forced, ! conflict, ? stale request, S stabilized.
    static func markers(_ entry: DebugEntry, data: ConsoleData, source: ConsoleData.SourceInfo) -> String {
        var flags = ""
        if entry.isForced { flags += "F" }
        if !entry.conflicts(in: data.snapshot).isEmpty { flags += "!" }
        if entry.isStale { flags += "?" }
        if source.stabilizedAt != nil { flags += "S" }
        return flags
    }

    static func variants(_ data: ConsoleData, source: String, experiment: String, filter: String) -> [ListRow] {
        guard let entry = data.entry(source: source, experiment: experiment) else { return [] }
        let current = entry.effective?.variant.name
        var rows: [ListRow] = []
        for variant in entry.experiment.variants
        where matches(filter, [variant.name] + variant.assignments.keys.sorted()) {
            let share = entry.experiment.share(of: variant) * 100
            rows.append(ListRow(
                .choice(variant.name),
                [variant.name == current ? "●" : " ", variant.name, String(format: "%.1f %%", share)],
                role: variant.name == current ? (entry.isForced ? .forced : .accent) : .plain))
        }
        if matches(filter, [DebugSource.inactiveChoice]) {
            rows.append(ListRow(
                .choice(nil), [current == nil ? "●" : " ", DebugSource.inactiveChoice, "baseline"],
                role: current == nil ? .inactive : .plain))
        }
        return rows
    }

    static func assignments(_ data: ConsoleData, filter: String) -> [ListRow] {
        data.snapshot.assignments
            .filter { matches(filter, [$0.key, $0.experiment, $0.variant]) }
            .map { ListRow(.assignment(key: $0.key), [$0.key, $0.value.description, $0.experiment, $0.variant, $0.source]) }
    }

    static func events(_ data: ConsoleData, filter: String, reason: String?, state: ConsoleState) -> [ListRow] {
        data.events
            .filter { reason == nil || $0.event.reason.rawValue == reason }
            .filter { matches(filter, [$0.event.experiment, $0.event.variant, $0.event.key]) }
            .map { row in
                let event = row.event
                let role: CellStyle.Role = switch event.reason {
                case .displayed: .accent
                case .deactivated: .inactive
                default: .plain
                }
                return ListRow(
                    .event(id: row.id),
                    [TimeText.clock(event.time, timeZone: state.timeZone), event.reason.rawValue, event.experiment,
                     event.variant, "\(event.key) = \(event.value)"],
                    role: role)
            }
    }

    static func settings(_ data: ConsoleData, state: ConsoleState) -> [ListRow] {
        var rows: [ListRow] = []
        for source in data.sources {
            let forced = data.entries.filter { $0.source == source.name && $0.request != nil }.count
            var status = TimeText.status(source.status, timeZone: state.timeZone)
            if let stabilized = source.stabilizedAt {
                status += " · stabilized since \(TimeText.clock(stabilized, timeZone: state.timeZone))"
            }
            let statusRole: CellStyle.Role = switch source.status {
            case .error: .error
            case .ok: .ok
            default: .plain
            }
            rows.append(ListRow(.header, [source.name.uppercased(), Summaries.plural(source.experimentCount, "experiment")], role: .header))
            rows.append(ListRow(.update(source: source.name), ["Update", "fetch the sources again"]))
            rows.append(ListRow(.status(source: source.name), ["Status", status], role: statusRole))
            rows.append(ListRow(
                .reset(source: source.name),
                ["Reset", forced == 0 ? "no forced variants" : "drop \(Summaries.plural(forced, "forced variant"))"],
                role: forced == 0 ? .muted : .plain))
        }
        return rows
    }
}
