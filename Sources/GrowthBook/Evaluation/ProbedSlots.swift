/// The slots of an open-addressing table over names kept elsewhere: each
/// slot holds a name's ``NameHash`` and the name's position in its owner's
/// arrays, and a name is looked for from its hash's slot onwards, one slot
/// at a time, up to `maximumProbes` slots.
///
/// ``FeatureTable``, ``AttributeTable`` and ``NameIndex`` keep their names
/// and what the names stand for, say when two names are the same, and
/// decide what answers when a name lands too far from its slot (the hash
/// has no seed, so names can be made to collide): this is the part they share.
struct ProbedSlots: Sendable {
    private struct Slot: Sendable {
        var hash: UInt32
        /// The name's position; -1 for an empty slot.
        var position: Int32
    }

    private var slots: ContiguousArray<Slot>
    private let mask: Int
    /// How far from its slot a name may land.
    let maximumProbes: Int

    /// Where a name went.
    enum Placement {
        /// Into an empty slot.
        case placed
        /// Nowhere: the same name is there already, at this position.
        case found(Int)
        /// Nowhere: every slot within `maximumProbes` of its own is taken.
        case tooFar
    }

    /// No names, in the smallest power of two of slots that is at least `count`.
    init(atLeast count: Int, maximumProbes: Int) {
        var size = 1
        while size < count { size *= 2 }
        slots = ContiguousArray(repeating: Slot(hash: 0, position: -1), count: size)
        mask = size - 1
        self.maximumProbes = maximumProbes
    }

    /// How many slots there are: names beyond a fraction of it make probes long.
    var size: Int { slots.count }

    /// Places the name at `position`, whose hash is `hash`, unless a name
    /// that `isSame` (given a position) says is the same is there already.
    @inline(__always)
    mutating func place(_ hash: UInt32, at position: Int, isSame: (Int) -> Bool) -> Placement {
        var slot = Int(hash) & mask
        var probes = 0
        while slots[slot].position >= 0 {
            let other = Int(slots[slot].position)
            if slots[slot].hash == hash && isSame(other) { return .found(other) }
            probes += 1
            if probes > maximumProbes { return .tooFar }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(hash: hash, position: Int32(position))
        return .placed
    }

    /// The position of the name whose hash is `hash` and which `isSame`
    /// (given a position) says is the one looked for. Every name was placed
    /// within `maximumProbes` of its slot and none removed, so an empty slot
    /// or that many probes end the search.
    @inline(__always)
    func find(_ hash: UInt32, isSame: (Int) -> Bool) -> Int? {
        var slot = Int(hash) & mask
        for _ in 0...maximumProbes {
            let found = slots[slot]
            if found.position < 0 { return nil }
            if found.hash == hash && isSame(Int(found.position)) { return Int(found.position) }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
