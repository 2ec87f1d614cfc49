import Dispatch
import Foundation

/// Decodes features on other threads as they are handed over: while a
/// payload is still being parsed (``JSONValueParser/parse(_:streamingMembersOf:each:)``
/// hands over each feature as soon as it has read it), or all at once
/// (``GrowthBookFeature/index(_:)``). Features are decoded in batches.
///
/// At most one job per core but the caller's runs at a time, each taking
/// the oldest batch nobody has taken until none is left. A job per batch
/// started more threads than there are cores: on two cores the parsing
/// thread was then preempted, and decode + index took 2.0–2.4 ms in one run
/// out of two, not 1.6 ms; the features, decoded on several threads, also
/// lay scattered over more of memory, and evaluating them was 2–4 % slower.
///
/// Features are handed over parsed. Handing over the bytes of each
/// definition instead, passed over unparsed (brackets matched, strings
/// skipped) and parsed where its batch is decoded, was measured and given
/// up: the parsing thread then finished in 0.45 ms, not 1.3 ms, but a job's
/// first batch took two to four times as long as the same batch on the
/// calling thread, and a payload took 3.65 ms, not 3.33 (medians of ten
/// interleaved runs). The job's core was not slow (a spin loop at its start
/// ran as fast as on the calling thread); its allocations were (with
/// glibc's malloc held to one arena both threads ran twice as slow). Decoding
/// is bound by its allocations, 18,810 for a payload of 1,000 features, not
/// by how many threads share them.
///
/// ``finish()`` decodes on the calling thread every batch no job has taken
/// yet (the features left after the last full batch, in smaller ones), so a
/// payload of fewer features than a batch starts no job; once it returns no
/// job is left holding the payload's values.
///
/// The features' keys, once all are known (``placeKeys(of:)``), are placed
/// in a table's slots (``FeatureTable/Keys``) by a job that has no batch
/// left, or else by ``finish()``: on two cores the job ran out of batches
/// about 90 µs before the parsing thread had decoded the last one (a
/// payload of 1,000 features), and the keys took the parsing thread 60 µs
/// after it.
final class FeatureStreamDecoder: @unchecked Sendable {
    /// Features in a batch. With batches of 64, a payload decoded again and
    /// again (as an app's updates are) evaluated 16–19 % slower afterwards
    /// than with batches of 256 or with no job at all, whether its features
    /// were evaluated in payload order or shuffled: they lay more scattered
    /// in memory. What scatters them was not found (keeping one thread for
    /// every job changed nothing). Batches of 256 cost about 0.13 ms more to
    /// decode a payload of 1,000 features: the parsing thread waits longer
    /// for the last batch a job took.
    static let batchSize = 256
    /// Features in a batch of those left when the parse is over
    /// (``finish()``): smaller, so that the threads end together. With the
    /// checks no longer on the parsing thread meanwhile, the job took the
    /// last features in one batch while the parsing thread decoded the one
    /// before, then waited about 70 µs for it. In batches of 128, a payload
    /// of 1,000 features took 0.749 ms, not 0.786, and no longer on one core.
    static let tailBatchSize = 128
    /// How many jobs may run at once: one per core but the caller's, of the
    /// cores the creating thread may run on (`taskset`, a container's
    /// cpuset), which `activeProcessorCount` does not count. On one core a
    /// job only takes turns with the parsing thread: decode + index of 1,000
    /// features pinned to one core took 1.17 ms with one, 1.12 without. With
    /// no job, nothing is handed over while a payload is parsed
    /// (``decodesWhileParsing``): its features are decoded at once
    /// afterwards (``decodeAfterParse(_:)``).
    let maximumJobs: Int
    // Touched only by the parsing thread.
    private var pending: [JSONValue.Member] = []
    // Shared with the jobs, under the lock.
    private let lock = NSLock()
    /// Batches in payload order; those before ``nextUntaken`` are taken (and emptied).
    private var untaken: [[JSONValue.Member]] = []
    /// Each batch's features once decoded, in step with ``untaken``.
    private var decoded: [[GrowthBookFeature]] = []
    /// The positions in each batch of its features that need the checks,
    /// once decoded, in step with ``decoded``.
    private var needingChecks: [[Int]] = []
    private var nextUntaken = 0
    private var runningJobs = 0
    /// The features whose keys are to be placed, until a thread takes them.
    private var keysToPlace: [JSONValue.Member]?
    private var placedKeys: FeatureTable.Keys?
    private let jobs = DispatchGroup()

    /// A decoder whose jobs share `cores` cores with the calling thread: by
    /// default those it may run on.
    convenience init(cores: Int? = nil) {
        let cores = cores ?? CoreAffinity.allowedCoreCount ?? ProcessInfo.processInfo.activeProcessorCount
        self.init(maximumJobs: max(0, cores - 1))
    }

    private init(maximumJobs: Int) {
        self.maximumJobs = maximumJobs
    }

    /// Whether features are worth handing over while a payload is parsed:
    /// only a job decodes them meanwhile. Handed over and gathered into
    /// batches for the parsing thread alone, decode + index took 3 % longer
    /// (1.132 against 1.106 ms, the harness, pinned to one core).
    var decodesWhileParsing: Bool { maximumJobs > 0 }

    /// Decodes `members` in order: in batches shared with the jobs, or, with
    /// none, at once on the calling thread (``decodedHere(_:)``), where the
    /// batches' lists and their copies made decode + index 6 % longer
    /// (1.087 against 1.021 ms, the harness, pinned to one core).
    func decodeAll(_ members: [JSONValue.Member]) -> DecodedFeatures {
        guard decodesWhileParsing else { return Self.decodedHere(members) }
        for member in members { add(member) }
        return finish().decoded
    }

    /// Decodes features this decoder was not handed while they were parsed
    /// (decrypted ones, or all of them with no job), on the cores it
    /// counted: with no job, at once on the calling thread; else in batches
    /// by a decoder of its own, whatever this one was handed and finished.
    func decodeAfterParse(_ members: [JSONValue.Member]) -> DecodedFeatures {
        guard decodesWhileParsing else { return Self.decodedHere(members) }
        return FeatureStreamDecoder(maximumJobs: maximumJobs).decodeAll(members)
    }

    /// Takes the next feature, in payload order (on the parsing thread).
    func add(_ member: JSONValue.Member) {
        pending.append(member)
        guard pending.count == Self.batchSize else { return }
        let batch = pending
        pending = []
        if queue(batch, startingJob: true) {
            // A job woken onto this thread's core takes turns with it, however
            // idle the other cores: it leaves this core first, given the core for
            // a moment to do so (`CoreAffinity`).
            let core = CoreAffinity.currentCore
            DispatchQueue.global().async(group: jobs) {
                let moved = CoreAffinity.leave(core)
                defer { moved.map(CoreAffinity.restore) }
                self.decodeUntaken(asJob: true)
            }
            CoreAffinity.yieldCore()
        }
    }

    /// Makes `batch` the next batch, for whichever thread takes it first;
    /// says whether a job should start for it (fewer than ``maximumJobs``
    /// run, and `startingJob`).
    private func queue(_ batch: [JSONValue.Member], startingJob: Bool) -> Bool {
        lock.withLock {
            untaken.append(batch)
            decoded.append([])
            needingChecks.append([])
            guard startingJob, runningJobs < maximumJobs else { return false }
            runningJobs += 1
            return true
        }
    }

    /// Has the keys of `features`, every feature handed over, placed in a
    /// table's slots by the first thread free to do it (see the type's notes).
    func placeKeys(of features: [JSONValue.Member]) {
        lock.withLock { keysToPlace = features }
    }

    /// What a thread takes next: the oldest untaken batch, or else the keys to place.
    private enum Work {
        case batch(number: Int, members: [JSONValue.Member])
        case keys([JSONValue.Member])
    }

    /// Decodes the oldest untaken batch, and the next, until none is left,
    /// then places the keys if they wait. A job that finds nothing left
    /// stops, under the lock, so a batch queued meanwhile starts another.
    private func decodeUntaken(asJob: Bool) {
        while true {
            let work: Work? = lock.withLock {
                if nextUntaken < untaken.count {
                    let number = nextUntaken
                    nextUntaken += 1
                    defer { untaken[number] = [] }  // the values go with the batch
                    return .batch(number: number, members: untaken[number])
                }
                if let keys = keysToPlace {
                    keysToPlace = nil
                    return .keys(keys)
                }
                if asJob { runningJobs -= 1 }
                return nil
            }
            switch work {
            case .batch(let number, let members)?:
                let batch = Self.decodedHere(members)
                lock.withLock {
                    decoded[number] = batch.features
                    needingChecks[number] = batch.needingChecks
                }
            case .keys(let features)?:
                let keys = FeatureTable.Keys(keysOf: features)
                lock.withLock { placedKeys = keys }
            case nil:
                return
            }
        }
    }

    /// Decodes `members` in order on the calling thread.
    static func decodedHere(_ members: [JSONValue.Member]) -> DecodedFeatures {
        // By index: a member handed to the closure whole was copied.
        let features = members.indices.map { GrowthBookFeature(id: members[$0].key, json: members[$0].value) }
        return DecodedFeatures(features: features, needingChecks: features.indices.filter { features[$0].needsChecks })
    }

    /// How many jobs run and how many batches wait for a thread (for tests:
    /// a job takes every batch queued while it runs, then stops).
    var backlog: (runningJobs: Int, untakenBatches: Int) {
        lock.withLock { (runningJobs, untaken.count - nextUntaken) }
    }

    /// Every feature handed over, decoded, in order, and their keys placed
    /// when ``placeKeys(of:)`` was asked.
    func finish() -> (decoded: DecodedFeatures, keys: FeatureTable.Keys?) {
        for start in stride(from: 0, to: pending.count, by: Self.tailBatchSize) {
            _ = queue(Array(pending[start..<min(start + Self.tailBatchSize, pending.count)]), startingJob: false)
        }
        pending = []
        decodeUntaken(asJob: false)
        jobs.wait()
        return lock.withLock {
            // A batch's positions count from its own first feature.
            var positions: [Int] = []
            var start = 0
            for (features, flagged) in zip(decoded, needingChecks) {
                positions += flagged.lazy.map { start + $0 }
                start += features.count
            }
            return (DecodedFeatures(features: decoded.flatMap { $0 }, needingChecks: positions), placedKeys)
        }
    }
}
