import Foundation
import Laboratory
import LaboratoryRuntime
import LaboratoryServer

/// What `lab serve` does after a force: rebuilds everything it answers from
/// (``ServedStateHub/rebuild()``), over the generated catalogs. Goal: under 20 ms.
enum ServeRebuildBench {
    static func run(paths: [String], folder: String) throws {
        let catalogs = try zip(paths, CatalogDecoder().decode(contentsOf: paths)).map {
            (path: $0, catalog: try $1.get())
        }
        let laboratory = try LocalLaboratory(
            catalogs: catalogs,
            statePath: folder + "/serve.sqlite",
            debugSource: true,
            app: nil,
            random: BenchRandomSource()
        )
        guard let debug = laboratory.debug else { return }
        let hub = try ServedStateHub(laboratory: laboratory)
        // One experiment forced to each of its variants in turn, as QA tries
        // them; then a different experiment forced each time, which moves it
        // ahead of the others (conflicts are resolved and keys sorted again).
        let experiment = catalogs[0].catalog.experiments[1]
        let sameOne = try rebuilds(hub) { round in
            try debug.force(variant: experiment.variants[round % experiment.variants.count].name, of: experiment.name)
        }
        report("lab serve rebuild after one force, median of 21:      ", sameOne)
        let others = Array(catalogs[1].catalog.experiments.prefix(21))
        let another = try rebuilds(hub) { round in
            try debug.force(variant: others[round].variants.last!.name, of: others[round].name)
        }
        report("— forcing another experiment each time, median of 21:", another)
        try phases(laboratory, debug: debug, label: "forcing the first experiment again") { round in
            try debug.force(variant: experiment.variants[round % experiment.variants.count].name, of: experiment.name)
        }
        let fresh = Array(catalogs[2].catalog.experiments.prefix(21))
        try phases(laboratory, debug: debug, label: "forcing another experiment each time") { round in
            try debug.force(variant: fresh[round].variants.last!.name, of: fresh[round].name)
        }
    }

    /// How long each of 21 rebuilds takes after `change(round)`, sorted.
    private static func rebuilds(_ hub: ServedStateHub, after change: (Int) throws -> Void) throws -> [Double] {
        var samples: [Double] = []
        for round in 0..<21 {
            try change(round)
            let start = DispatchTime.now().uptimeNanoseconds
            try hub.rebuild()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return samples.sorted()
    }

    private static func report(_ label: String, _ samples: [Double]) {
        print(
            String(
                format: "%@ %8.1f ms (min %.1f, max %.1f)",
                label,
                samples[samples.count / 2],
                samples[0],
                samples[samples.count - 1]
            )
        )
    }

    /// The rebuild's steps one by one, the same way ``ServedStateHub`` runs
    /// them: where the time goes, for the README's profile.
    private static func phases(
        _ laboratory: LocalLaboratory,
        debug: DebugSource,
        label: String,
        change: (Int) throws -> Void
    ) throws {
        var previous = try ServedStateHub(laboratory: laboratory).current
        var times: [String: [Double]] = [:]
        func timed<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { times[name, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            return try work()
        }
        for round in 0..<21 {
            try change(round)
            let snapshot = try timed("the manager's refresh") { try laboratory.manager.refresh() }
            let forced = try timed("forced variants read") { try laboratory.store.forcedVariants() }
            let entries = try timed("debug entries") { try debug.latestEntries ?? debug.entries() }
            let shared = timed("shared features") {
                debug.leaves.compactMap { $0.sharing?.sharedFeatures(forcing: forced) }
            }
            previous = timed("served state") {
                ServedState(entries: entries, snapshot: snapshot, shared: shared, previous: previous)
            }
        }
        print("  the steps of a rebuild after \(label), medians of 21:")
        for name in [
            "the manager's refresh", "forced variants read", "debug entries", "shared features", "served state",
        ] {
            let sorted = (times[name] ?? [0]).sorted()
            print(
                String(
                    format: "  — %@ %8.2f ms",
                    name.padding(toLength: 24, withPad: " ", startingAt: 0),
                    sorted[sorted.count / 2]
                )
            )
        }
    }
}
