import Synchronization

/// Small numbers for the attribute names that compact conditions test and
/// rules hash, so that a user's ``AttributeTable`` answers a test by an array
/// index where it hashed the name, probed and compared names (about 40
/// instructions a test), and an evaluator finds whom a rule hashes by one
/// where it compared names (``GrowthBookEvaluator``'s `subjectsBySlot`).
///
/// A compact condition's test takes its attribute's slot when it is compiled
/// (``CompactCondition``), an experiment or rollout its hash attribute's when
/// it is decoded; an attribute table records, when it is made, where each of
/// its attributes that has a slot is. A slot given after a table was made is
/// beyond what that table recorded, and so is a name given none (not ASCII,
/// or once ``capacity`` names have one): a test then finds its attribute by
/// its hash, as before. Slots are given for the life of the process and never
/// taken back, so a slot means one name in every payload and table; ASCII
/// only, because two ASCII names are the same JavaScript property name
/// exactly when they are the same bytes, which is what the index of slots
/// compares.
package final class AttributeSlots: Sendable {
    /// The slots every condition and attribute table uses.
    package static let shared = AttributeSlots(capacity: 256)

    /// How many names may have a slot: a table records one position for each
    /// slot given, so this bounds what making a table costs, whatever names
    /// payloads bring over a long run.
    package let capacity: Int
    /// Each name's slot is its position in the index, as the last of these
    /// snapshots holds it: one a name given, at most ``capacity``, kept as
    /// long as the slots are so that readers need not count a reference to
    /// the one they read. A name is given its slot under this lock. A
    /// ``NameIndex``, not a dictionary: its hash is a few instructions where
    /// a dictionary's seeded hash took a payload's decoding 2 % more of them.
    private let snapshots = Mutex<[Snapshot]>([])
    /// The last snapshot (of ``snapshots``), read without the lock: a name
    /// given its slot already, as almost every name a condition or rule
    /// meets is, is found without writing anything another thread reads.
    /// Under one lock, the two threads decoding a payload took it about
    /// 1,700 times a decode, each taking its cache line from the other core
    /// and now and then sleeping on it (`perf`: half of a condition's
    /// compact compile). The snapshot's address as a number (0 for none):
    /// `Atomic` holds no pointer.
    private let published = Atomic<UInt>(0)

    /// An index as it was once a name was given: never changed.
    private final class Snapshot: Sendable {
        let index: NameIndex
        init(_ index: NameIndex) { self.index = index }
    }

    /// Slots for up to `capacity` names.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Calls `body` with a function that gives a name its slot (the one it
    /// has, or the next, while there is room); the function answers -1 for a
    /// name that is not ASCII or finds no room. It takes the name's
    /// ``NameHash/key(of:)``, which a condition has found already. A name
    /// with a slot is found without the lock; only a name given one takes it.
    package func assigning<Result>(
        _ body: (_ slot: (String, _ key: (hash: UInt32, isASCII: Bool)) -> Int32) -> Result
    ) -> Result {
        body { name, key in
            guard key.isASCII else { return -1 }
            if let known = withPublished({ $0.position(of: name, asciiHash: key.hash) }) { return Int32(known) }
            return snapshots.withLock { snapshots in
                var index = snapshots.last?.index ?? NameIndex()
                let next = index.count
                guard next < capacity else { return index[name].map(Int32.init) ?? -1 }
                if let known = index.insert(name, asciiHash: key.hash, at: next) { return Int32(known) }
                let snapshot = Snapshot(index)
                snapshots.append(snapshot)
                let address = UInt(bitPattern: Unmanaged.passUnretained(snapshot).toOpaque())
                published.store(address, ordering: .releasing)
                return Int32(next)
            }
        }
    }

    /// The slot of the attribute a rule hashes (`name || "id"`), given one
    /// if it has none and there is room; -1 when it has none.
    package func slot(hashing name: String?) -> Int32 {
        let attribute = GrowthBookHash.attribute(name)
        return assigning { slot in slot(attribute, NameHash.key(of: attribute)) }
    }

    /// The slots given so far, by name: what a table records positions for.
    package var given: NameIndex {
        withPublished { $0 } ?? NameIndex()
    }

    /// `body` of the last published index, `nil` before any name has a slot.
    /// The snapshot is read without counting a reference: ``snapshots`` keeps it.
    private func withPublished<Result>(_ body: (NameIndex) -> Result?) -> Result? {
        guard let pointer = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Snapshot>.fromOpaque(pointer)._withUnsafeGuaranteedRef { body($0.index) }
    }
}
