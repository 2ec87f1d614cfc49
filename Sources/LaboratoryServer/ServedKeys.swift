import GrowthBook
import Laboratory

/// The keys `lab serve` answers for and who decides each: kept from one
/// rebuild to the next while the catalogs and the shared sources' features
/// stay as they were, so a force does not index 20,000 keys again.
final class ServedKeys: Sendable {
    /// Catalog keys (this device's), then shared keys, each once.
    let keys: [String]
    /// Each key's position in ``keys``.
    let index: [String: Int]
    /// The catalog keys, in catalog order: the first ``deviceKeys``.count of ``keys``.
    let deviceKeys: [String]
    /// Each device key's owner, as a position in the entries it was built from.
    let owners: [Int]
    /// The keys a shared source decides, after the device keys.
    let sharedKeys: [String]
    /// Shared key → the position of its source among the shared sources.
    let sharedIndex: [String: Int]
    /// The sources that pass features through.
    let sharedSources: Set<String>
    /// Experiment name → the source and the experiment (the first of a name).
    let experiments: [String: (source: String, experiment: Experiment)]

    /// What these keys were built from: each entry's source and experiment,
    /// each shared source's name and keys, and, for a key both a catalog and
    /// a shared source assign, the source the device's assignment came from.
    private let entrySources: [String]
    private let entryExperiments: [Experiment]
    private let sharedSignature: [(source: String, keys: [String])]
    private let contested: [(key: String, winner: String?)]

    init(_ entries: [DebugEntry], shared: [SharedFeatures], snapshot: AssignmentsSnapshot) {
        let sharedSources = Set(shared.map(\.source))
        var experiments: [String: (source: String, experiment: Experiment)] = [:]
        // Each key's owner as a position in `entries`: thousands of entries are not copied.
        var owners: [String: Int] = [:]
        var deviceKeys: [String] = []
        // Entries are read in place, by index: iterating would copy each one.
        for index in entries.indices {
            let (source, experiment) = (entries[index].source, entries[index].experiment)
            if experiments[experiment.name] == nil { experiments[experiment.name] = (source, experiment) }
            guard !sharedSources.contains(source) else { continue }
            for key in experiment.keys where owners[key] == nil {
                owners[key] = index
                deviceKeys.append(key)
            }
        }
        // A key both a catalog and a shared source assign goes to the shared
        // one unless a catalog experiment gives it to this device.
        var sharedIndex: [String: Int] = [:]
        var sharedKeys: [String] = []
        var contested: [(key: String, winner: String?)] = []
        var seen: Set<String> = []
        for (position, source) in shared.enumerated() {
            for key in source.keys where sharedIndex[key] == nil {
                if owners[key] != nil {
                    let winner = snapshot.assignment(for: key)?.source
                    if seen.insert(key).inserted { contested.append((key, winner)) }
                    guard winner == source.source else { continue }
                }
                sharedIndex[key] = position
                sharedKeys.append(key)
            }
        }
        deviceKeys.removeAll { sharedIndex[$0] != nil }
        self.deviceKeys = deviceKeys
        self.owners = deviceKeys.map { owners[$0]! }
        self.sharedKeys = sharedKeys
        self.sharedIndex = sharedIndex
        self.sharedSources = sharedSources
        self.experiments = experiments
        keys = deviceKeys + sharedKeys
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { index[key] = position }
        self.index = index
        entrySources = entries.map(\.source)
        entryExperiments = entries.map(\.experiment)
        sharedSignature = shared.map { ($0.source, $0.keys) }
        self.contested = contested
    }

    /// Whether these keys are still the keys of `entries`, `shared` and
    /// `snapshot`: the same experiments in the same order (an experiment
    /// that did not change shares its storage, so this is a pointer
    /// comparison each), the same shared keys, and the same winner of every
    /// key both kinds of source assign.
    func fits(_ entries: [DebugEntry], shared: [SharedFeatures], snapshot: AssignmentsSnapshot) -> Bool {
        guard entries.count == entryExperiments.count, shared.count == sharedSignature.count else { return false }
        for index in entries.indices {
            guard entries[index].source == entrySources[index], entries[index].experiment == entryExperiments[index]
            else { return false }
        }
        for (source, signature) in zip(shared, sharedSignature) {
            guard source.source == signature.source, source.keys == signature.keys else { return false }
        }
        return contested.allSatisfy { snapshot.assignment(for: $0.key)?.source == $0.winner }
    }
}
