import Foundation

/// Why this device gets what it gets for one experiment, step by step.
public struct Explanation: Sendable, Hashable, Codable {
    /// One step of the reasoning.
    public struct Step: Sendable, Hashable, Codable {
        /// What the step looks at: `token`, `draw`, `forced`, `conflict`…
        public var label: String
        public var detail: String

        public init(label: String, detail: String) {
            self.label = label
            self.detail = detail
        }
    }

    public var source: String
    public var experiment: String
    public var steps: [Step]
    /// This experiment's variant that the app gets, or `nil` when it gets
    /// none (inactive, or set aside in a conflict).
    public var variant: String?
    /// What the app gets for this experiment's keys, whichever experiment
    /// assigns them: exactly the manager's assignments for those keys. A key
    /// missing here gets the app's own baseline.
    public var assignments: [Assignment]

    /// Explains one experiment from what the debug source and manager know.
    ///
    /// - Parameters:
    ///   - draw: the stored draw of the experiment on this device, if any.
    ///   - time: how times are written.
    ///   - decisionSteps: how the experiment's source decides it, when the
    ///     source says so itself (``ExperimentSource/decisionSteps(for:)``:
    ///     GrowthBook's rules); a catalog's experiments are explained here.
    public init(
        entry: DebugEntry,
        snapshot: AssignmentsSnapshot,
        device: Device,
        userID: String?,
        draw: Draw?,
        stabilizedAt: Date?,
        decisionSteps: [Step]? = nil,
        time: (Date) -> String
    ) {
        source = entry.source
        experiment = entry.experiment.name
        var steps: [Step] = []
        func step(_ label: String, _ detail: String) { steps.append(Step(label: label, detail: detail)) }
        let experiment = entry.experiment

        if let decisionSteps, !decisionSteps.isEmpty {
            steps += decisionSteps
        } else {
            step(
                "experiment",
                "\(experiment.subject.rawValue)-level, \(experiment.bucketing.rawValue) bucketing, "
                    + (experiment.isResolved ? "resolved" : "running") + ", baseline \(experiment.baseline)"
            )
            steps += Self.localSteps(experiment, device: device, userID: userID, draw: draw, time: time)
        }
        if let stabilizedAt {
            step("stabilized", "since \(time(stabilizedAt)): nothing new is drawn and no new experiment is exposed")
        }
        step(
            "source",
            entry.natural.map { "\(entry.source) runs \($0.variant.name) (\($0.basis.words))" }
                ?? "\(entry.source) does not run it here"
        )

        if let forcedVariant = entry.forcedVariant {
            if entry.isStale {
                step(
                    "forced",
                    "the forced variant \(forcedVariant.variant ?? "") is stale (no such variant) and ignored"
                )
            } else {
                step(
                    "forced",
                    forcedVariant.variant.map { "forced to \($0) through the debug source" }
                        ?? "forced inactive through the debug source"
                )
            }
        }
        for conflict in snapshot.conflicts(involving: entry.source, experiment.name) {
            let wins = conflict.winner.source == entry.source && conflict.winner.experiment == experiment.name
            let other = wins ? conflict.loser : conflict.winner
            let rule: String
            if conflict.winner.forced != conflict.loser.forced {
                rule = "a forced experiment wins over one that is not"
            } else if conflict.winner.source != conflict.loser.source {
                rule = "source \(conflict.winner.source) comes first"
            } else {
                rule = "\(conflict.winner.experiment) sorts first"
            }
            step(
                "conflict",
                "shares \(conflict.keys.joined(separator: ", ")) with \(other.source)/\(other.experiment); "
                    + (wins ? "this one wins" : "\(other.experiment) wins") + " because \(rule)"
            )
        }
        let served = snapshot.active.first { $0.source == entry.source && $0.experiment.name == experiment.name }
        variant = served?.variant.name
        assignments = experiment.keys.compactMap { snapshot.assignment(for: $0) }
        step("result", Self.result(of: experiment, served: served, assignments: assignments, entry: entry))
        self.steps = steps
    }

    /// What the app gets for the experiment's keys, in words: this
    /// experiment's variant, or, key by key, the experiment that won them
    /// (named with its source) and the keys left to the baseline.
    private static func result(
        of experiment: Experiment,
        served: ActiveVariant?,
        assignments: [Assignment],
        entry: DebugEntry
    ) -> String {
        if let served {
            return "the app gets \(served.variant.name): "
                + served.assignments.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        }
        var parts: [String] = []
        let byWinner = Dictionary(grouping: assignments) { "\($0.source)/\($0.experiment) (\($0.variant))" }
        for winner in byWinner.keys.sorted() {
            parts.append(
                byWinner[winner]!.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + " from \(winner)"
            )
        }
        let assigned = Set(assignments.map(\.key))
        let baseline = experiment.keys.filter { !assigned.contains($0) }
        let setAside = entry.effective != nil ? "this experiment was set aside; " : ""
        let baselineKeys = "its baseline, \(experiment.baseline), for " + baseline.joined(separator: ", ")
        if parts.isEmpty { return setAside + "the app uses " + baselineKeys }
        if !baseline.isEmpty { parts.append("and uses " + baselineKeys) }
        return setAside + "the app gets " + parts.joined(separator: "; ")
    }

    /// How a local source decides: resolution, subject, whitelist, token, draw or hash.
    private static func localSteps(
        _ experiment: Experiment,
        device: Device,
        userID: String?,
        draw: Draw?,
        time: (Date) -> String
    ) -> [Step] {
        var steps: [Step] = []
        func step(_ label: String, _ detail: String) { steps.append(Step(label: label, detail: detail)) }
        let subject = experiment.subject == .device ? device.id : userID
        if let winner = experiment.winner {
            step("resolved", "everyone gets the winner, \(winner), whatever the token, draw or user")
        } else if let subject {
            step("subject", experiment.subject == .device ? "this device, \(subject)" : "user \(subject)")
            if let pinned = experiment.whitelist[subject] {
                step("whitelist", "\(subject) is pinned to \(pinned), whatever the weights or range")
            } else {
                if let range = experiment.activeTokenRange {
                    let token = experiment.subject == .device ? device.token : HashBucketing.token(forUser: subject)
                    let inside = range.contains(token)
                    step(
                        "token",
                        String(
                            format: "%@ token %.4f is %@ the range %@",
                            experiment.subject.rawValue,
                            token.value,
                            inside ? "inside" : "outside",
                            range.description
                        )
                            + (inside || draw == nil
                                ? "" : "; the device was already in, so the range change does not apply")
                    )
                } else {
                    step("token", "no token range: runs on every \(experiment.subject.rawValue)")
                }
                switch experiment.bucketing {
                case .random:
                    if let draw {
                        let still = experiment.variant(named: draw.variant) != nil
                        step(
                            "draw",
                            "drew \(draw.variant) at \(time(draw.drawnAt))"
                                + (still ? "" : ", a variant the catalog no longer has, so the device draws again")
                        )
                    } else {
                        step("draw", "no draw on this device")
                    }
                case .hash:
                    let pick = HashBucketing.variant(of: experiment, subject: subject)?.name ?? "nothing"
                    step(
                        "hash",
                        "the hash of \(subject) picks \(pick) (weights "
                            + experiment.variants.map { "\($0.name) \(AssignmentValue.number($0.weight))" }.joined(
                                separator: ", "
                            ) + ")"
                    )
                }
            }
        } else {
            step("subject", "nobody is logged in, so this user-level experiment is inactive")
        }
        return steps
    }

}
