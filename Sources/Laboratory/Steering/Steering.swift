import Foundation

/// The one way forced variants change: force, unforce, reset and import, with
/// their messages, warnings and scope rules.
///
/// `lab force` and its siblings, the console on a state file and the
/// steering API of `lab serve` all call it, so what a change does and what it
/// says cannot drift between them. Every change is recorded with its tester
/// and time, and the manager is refreshed so the outcome's assignments are
/// what the app gets now.
public final class Steering: Sendable {
    /// The debug source the forced variants go through.
    public let debug: DebugSource
    /// The manager refreshed after each change, so its answer reflects it.
    public let manager: AssignmentsManager
    private let store: any ActiveSetStore & ForcedVariantStore
    private let clock: any WallClock

    /// A steering service over `debug` and `manager`, storing in `store` and stamping changes with `clock`.
    public init(
        debug: DebugSource,
        manager: AssignmentsManager,
        store: any ActiveSetStore & ForcedVariantStore,
        clock: any WallClock
    ) {
        self.debug = debug
        self.manager = manager
        self.store = store
        self.clock = clock
    }

    /// What a change did, in words, and what the app gets after it: what
    /// `lab force --json` prints and the steering API answers.
    public struct Outcome: Sendable, Codable {
        /// One sentence: what changed (or that nothing did).
        public var message: String
        /// What the person should know: apps that ignore forced variants.
        public var warnings: [String]
        /// The forced variants set or dropped.
        public var forcedVariants: [ForcedVariant]
        /// The assignments this device gets now.
        public var assignments: [Assignment]

        /// The message and the warnings as one line, for a status line.
        public var summary: String {
            ([message] + warnings.map { "Warning: \($0)." }).joined(separator: " ")
        }
    }

    /// Forces `variant` (or `Inactive`) of `experiment` for `scope`, as `tester`.
    public func force(
        _ variant: String,
        of experiment: String,
        in source: String? = nil,
        scope: Scope = .everyone,
        tester: String?
    ) throws -> Outcome {
        let forced = try debug.force(
            variant: variant,
            of: experiment,
            in: source,
            scope: scope,
            tester: tester,
            at: clock.now()
        )
        let message =
            (forced.variant.map { "Forced \(forced.experiment) to \($0)" } ?? "Forced \(forced.experiment) inactive")
            + Self.phrase(scope) + "."
        return try outcome(message, [forced], warn: true)
    }

    /// Drops the forced variant of `experiment` for `scope`.
    public func unforce(_ experiment: String, in source: String? = nil, scope: Scope = .everyone) throws -> Outcome {
        let dropped = try debug.unforce(experiment: experiment, in: source, scope: scope)
        return try outcome("\(dropped.experiment) is no longer forced\(Self.phrase(scope)).", [dropped], warn: false)
    }

    /// Drops every forced variant, or those of one source, one scope, or both.
    /// The message says how many went; none is said as none.
    public func reset(source: String? = nil, scope: Scope? = nil) throws -> Outcome {
        let (sourceName, dropped) = try debug.reset(source: source, scope: scope)
        let count = dropped.count
        let whose = (sourceName.map { " of \($0)" } ?? "") + (scope.map(Self.phrase) ?? "")
        let message =
            count == 0
            ? "No forced variants\(whose) to drop."
            : (sourceName == nil && scope == nil
                ? "Dropped all forced variants (\(count))."
                : "Dropped \(count) forced variant\(count == 1 ? "" : "s")\(whose).")
        return try outcome(message, dropped, warn: false)
    }

    /// Applies an overrides file, all or nothing; forced variants without a
    /// tester or time are recorded as `tester`'s, now.
    public func importOverrides(
        _ file: OverridesFile,
        replacing: Bool,
        tester: String?,
        from name: String
    ) throws -> Outcome {
        var file = file
        let now = clock.now()
        for index in file.forcedVariants.indices {
            if file.forcedVariants[index].tester == nil { file.forcedVariants[index].tester = tester }
            if file.forcedVariants[index].forcedAt == nil { file.forcedVariants[index].forcedAt = now }
        }
        try debug.importOverrides(file, replacing: replacing)
        let count = file.forcedVariants.count
        return try outcome(
            "Applied \(count) forced variant\(count == 1 ? "" : "s") from \(name)"
                + (replacing ? ", replacing the others." : "."),
            file.forcedVariants,
            warn: count > 0
        )
    }

    /// Stores one of the device's attributes in the state file, where every
    /// app and `lab serve` read it, or removes it (`value` `nil`). A value
    /// given for this run alone gives way: the person changed it now.
    /// The message says what the device's value is now and how many
    /// experiments run differently for it.
    public func setAttribute(_ name: String, to value: String?) throws -> Outcome {
        try DeviceAttribute.check(name: name, value: value)
        let before = try manager.refresh()
        var stored = try store.storedAttributes()
        let removed = value == nil && stored[name] == nil && debug.runAttributes[name] == nil
        stored[name] = value
        try store.setStoredAttributes(stored)
        var run = debug.runAttributes
        if run.removeValue(forKey: name) != nil { debug.useAttributes(run) }
        let after = try manager.refresh()
        let changed = Self.experimentsChanged(from: before, to: after)
        var message: String
        if removed {
            message = "\(name) was not set here."
        } else if let value {
            message = "\(name) is \(value) now"
        } else if let still = debug.deviceAttributes[name] {
            message = "Removed \(name); it is \(still) as the app gives it"
        } else {
            message = "\(name) is unset now"
        }
        if !removed {
            message +=
                changed == 0 ? "; no experiment changed." : ": \(changed) experiment\(changed == 1 ? "" : "s") changed."
        }
        return Outcome(message: message, warnings: [], forcedVariants: [], assignments: after.assignments)
    }

    /// How many experiments run another variant, or start or stop running.
    private static func experimentsChanged(from before: AssignmentsSnapshot, to after: AssignmentsSnapshot) -> Int {
        func variants(_ snapshot: AssignmentsSnapshot) -> [ExperimentID: String] {
            Dictionary(
                snapshot.active.map { ($0.experimentID, $0.variant.name) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        let (old, new) = (variants(before), variants(after))
        return Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.count
    }

    /// The forced variants (stale ones included) and the stored attributes, as a file.
    public func exportOverrides(attributes: [String: String]? = nil) throws -> OverridesFile {
        try debug.exportOverrides(attributes: attributes)
    }

    /// " for id=qa-phone-7", or nothing for everyone.
    public static func phrase(_ scope: Scope) -> String {
        scope.isEveryone ? "" : " for \(scope)"
    }

    private func outcome(_ message: String, _ forcedVariants: [ForcedVariant], warn: Bool) throws -> Outcome {
        let snapshot = try manager.refresh()
        var warnings: [String] = []
        if warn, let apps = AppWiring.ignoringForcedVariants(try store.appWirings()) {
            warnings.append(apps)
        }
        return Outcome(
            message: message,
            warnings: warnings,
            forcedVariants: forcedVariants,
            assignments: snapshot.assignments
        )
    }
}
