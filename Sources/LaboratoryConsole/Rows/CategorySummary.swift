import Foundation
import Laboratory

/// The one-line summaries of the main screen, e.g. "6 experiments · 1 forced · 0 conflicts".
enum CategorySummary {
    static func experiments(_ data: ConsoleData) -> String {
        let count = data.entries.count
        // One pass, counting: filtering would copy thousands of entries.
        var (running, setAside, forced) = (0, 0, 0)
        for entry in data.entries {
            if entry.isForced { forced += 1 }
            guard entry.effective != nil else { continue }
            running += 1
            if !data.snapshot.conflicts.isEmpty && entry.isSetAside(in: data.snapshot) { setAside += 1 }
        }
        // Active means the app gets its keys: a conflict's loser runs a variant but gives none.
        let active = running - setAside
        let conflicts = data.snapshot.conflicts.count
        var parts = [plural(count, "experiment"), "\(active) active"]
        if setAside > 0 { parts.append("\(setAside) set aside") }
        parts += ["\(forced) forced", plural(conflicts, "conflict")]
        if !data.staleForcedVariants.isEmpty {
            parts.append(plural(data.staleForcedVariants.count, "stale forced variant"))
        }
        return parts.joined(separator: " · ")
    }

    static func assignments(_ data: ConsoleData) -> String {
        // Each accepted variant gives the app all its keys: counting those with
        // keys counts the experiments, without a set of 20,000 ids at 10,000 experiments.
        let experiments = data.snapshot.active.reduce(0) { $0 + ($1.variant.assignments.isEmpty ? 0 : 1) }
        return "\(plural(data.snapshot.assignments.count, "active key")) from \(plural(experiments, "experiment"))"
    }

    static func events(_ data: ConsoleData, timeZone: ClockZone) -> String {
        guard let newest = data.events.first else { return "no events yet" }
        return "\(plural(Int(data.newestEventID), "event")) · newest \(newest.event.reason) at "
            + TimeText.clock(newest.event.time, timeZone: timeZone)
    }

    /// "country FR · plan pro · 2 unset", or what there is to set.
    static func attributes(_ data: ConsoleData) -> String {
        let set = data.attributes.filter { $0.value != nil && $0.origin != .source }
        let unset = data.attributes.filter { $0.value == nil }.count
        var parts = set.prefix(3).map { "\($0.name) \($0.value ?? "")" }
        if set.count > 3 { parts.append("+\(set.count - 3) more") }
        if parts.isEmpty { parts.append("none set") }
        if unset > 0 { parts.append("\(unset) unset read by targeting") }
        return parts.joined(separator: " · ")
    }

    static func settings(_ data: ConsoleData, timeZone: ClockZone) -> String {
        let statuses = data.sources.map { "\($0.name) \(TimeText.status($0.status, timeZone: timeZone))" }
        return ([plural(data.sources.count, "source")] + statuses).joined(separator: " · ")
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

/// Times as the console writes them.
enum TimeText {
    static func clock(_ date: Date, timeZone: ClockZone) -> String {
        let parts = timeZone.clockParts(of: date)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return twoDigits(parts.hour) + ":" + twoDigits(parts.minute) + ":" + twoDigits(parts.second)
    }

    /// `idle`, `updating…`, `ok at 14:03:12`, `error: reason`, in the console's time zone.
    static func status(_ status: SourceStatus, timeZone: ClockZone) -> String {
        if case .ok(let date) = status { return "ok at \(clock(date, timeZone: timeZone))" }
        return status.summary
    }
}
