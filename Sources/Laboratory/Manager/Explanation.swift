import Foundation

/// Why this device gets what it gets for one experiment, step by step.
public struct Explanation: Sendable, Hashable, Codable {
    /// One step of the reasoning.
    public struct Step: Sendable, Hashable, Codable {
        /// What the step looks at: `token`, `draw`, `forced`, `conflict`…
        public var label: String
        /// What it found, in a sentence.
        public var detail: String

        /// A step with this label and detail.
        public init(label: String, detail: String) {
            self.label = label
            self.detail = detail
        }
    }

    /// The source of the experiment.
    public var source: String
    /// The experiment's name within its source.
    public var experiment: String
    /// The steps, in the order they decide.
    public var steps: [Step]
    /// This experiment's variant that the app gets, or `nil` when it gets
    /// none (inactive, or set aside in a conflict).
    public var variant: String?
    /// What the app gets for this experiment's keys, whichever experiment
    /// assigns them: exactly the manager's assignments for those keys. A key
    /// missing here gets the app's own baseline.
    public var assignments: [Assignment]

    /// The steps on forcing: which forced variant decides (by whom, for
    /// whom, and why it wins over the others that match), and the ones
    /// for other users that do not apply here.
    static func forcingSteps(_ entry: DebugEntry) -> [Step] {
        var steps: [Step] = []
        func by(_ forced: ForcedVariant) -> String {
            let scope = forced.scope.isEveryone ? "for everyone" : "for \(forced.scope)"
            let who = forced.tester.map { ", set by \($0)" } ?? ""
            return scope + who
        }
        if let forcedVariant = entry.forcedVariant {
            if entry.isStale {
                steps.append(
                    Step(
                        label: "forced",
                        detail: "the forced variant \(forcedVariant.variant ?? "") (\(by(forcedVariant))) is stale "
                            + "(no such variant) and ignored"
                    )
                )
            } else {
                let choice = forcedVariant.variant.map { "forced to \($0)" } ?? "forced inactive"
                steps.append(Step(label: "forced", detail: "\(choice) through the debug source, \(by(forcedVariant))"))
                for other in entry.forcedVariants where other != forcedVariant && other.scope.matches(entry.attributes)
                {
                    steps.append(
                        Step(
                            label: "forced",
                            detail: "also matches: \(other.variant ?? DebugSource.inactiveChoice) \(by(other)); "
                                + (entry.isStale(other)
                                    ? "it is stale (no such variant) and ignored"
                                    : "it loses because \(forcedVariant.reasonItPrecedes(other))")
                        )
                    )
                }
            }
        }
        let elsewhere = entry.forcedVariants.filter { !$0.scope.matches(entry.attributes) }
        if !elsewhere.isEmpty {
            let list = elsewhere.map { "\($0.variant ?? DebugSource.inactiveChoice) for \($0.scope)" }
            steps.append(
                Step(label: "forced", detail: "not for this user: " + list.joined(separator: "; "))
            )
        }
        return steps
    }

    /// Explains one experiment from what the debug source and manager know.
    ///
    /// - Parameters:
    ///   - entry: the experiment as the debug source sees it.
    ///   - snapshot: what the manager serves now.
    ///   - device: this device, whose token and id decide a catalog's experiments.
    ///   - userID: the logged-in user, for experiments assigned per user.
    ///   - draw: the stored draw of the experiment on this device, if any.
    ///   - stabilizedAt: when the experiment's source was stabilized, if it was.
    ///   - time: how times are written.
    ///   - decisionSteps: how the experiment's source decides it, when the
    ///     source says so itself (``ExplainingSource/decisionSteps(for:)``:
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

        steps += Self.forcingSteps(entry)
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
                "shares \(conflict.keys.joined(separator: ", ")) with \(other.experimentID); "
                    + (wins ? "this one wins" : "\(other.experiment) wins") + " because \(rule)"
            )
        }
        let served = snapshot.active.first { $0.source == entry.source && $0.experiment.name == experiment.name }
        variant = served?.variant.name
        assignments = experiment.keys.compactMap { snapshot.assignment(for: $0) }
        // Set aside only by a conflict the snapshot names: a variant the snapshot lacks may just be
        // newer than it (a payload that arrived between the two reads).
        let setAside = snapshot.conflicts.contains {
            $0.loser.source == entry.source && $0.loser.experiment == experiment.name
        }
        step("result", Self.result(of: experiment, served: served, assignments: assignments, setAside: setAside))
        self.steps = steps
    }

    /// What the app gets for the experiment's keys, in words: this
    /// experiment's variant, or, key by key, the experiment that won them
    /// (named with its source) and the keys left to the baseline.
    private static func result(
        of experiment: Experiment,
        served: ActiveVariant?,
        assignments: [Assignment],
        setAside isSetAside: Bool
    ) -> String {
        if let served {
            return "the app gets \(served.variant.name): "
                + served.assignments.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        }
        var parts: [String] = []
        let byWinner = Dictionary(grouping: assignments) { Winner(experiment: $0.experimentID, variant: $0.variant) }
        for winner in byWinner.keys.sorted() {
            parts.append(
                byWinner[winner]!.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
                    + " from \(winner.experiment) (\(winner.variant))"
            )
        }
        let assigned = Set(assignments.map(\.key))
        let baseline = experiment.keys.filter { !assigned.contains($0) }
        let setAside = isSetAside ? "this experiment was set aside; " : ""
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

/// The experiment and variant that won keys, as an explanation groups them.
private struct Winner: Hashable, Comparable {
    var experiment: ExperimentID
    var variant: String

    static func < (lhs: Winner, rhs: Winner) -> Bool {
        (lhs.experiment.source, lhs.experiment.name, lhs.variant)
            < (rhs.experiment.source, rhs.experiment.name, rhs.variant)
    }
}
