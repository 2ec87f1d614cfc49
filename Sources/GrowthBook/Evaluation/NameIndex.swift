/// Names to positions, for the hot paths that look thousands of names up
/// per change (the keys of 10,000 experiments): each name hashed once by
/// ``NameHash`` and probed linearly, about a third of what a `Dictionary`'s
/// seeded hash costs. Names can be made to collide (the hash has no seed):
/// a name that lands too far from its slot turns the table into a dictionary.
///
/// Names are equal as Swift's strings are (canonically: `é` is `e` and a
/// combining accent), as a dictionary's keys are. The hash reads bytes, which
/// keeps that promise for ASCII names only: the first other name turns the
/// table into a dictionary, and one looked up meanwhile is compared with every name.
package struct NameIndex: Sendable {
    private var names: [String] = []
    private var positions: [Int] = []
    /// Each slot's hash and the entry it holds (-1: empty); empty once a
    /// dictionary answers instead.
    private var slots: [Slot]
    private var mask: Int
    private var dictionary: [String: Int]?

    private struct Slot: Sendable {
        var hash: UInt32
        var entry: Int32
    }

    /// How far from its slot a name may land before the table gives way to a dictionary.
    private static let maximumProbes = 32

    /// An empty index with room for `capacity` names before it grows.
    package init(capacity: Int = 0) {
        var size = 8
        while size < capacity * 2 { size *= 2 }
        slots = [Slot](repeating: Slot(hash: 0, entry: -1), count: size)
        mask = size - 1
        names.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// How many names there are.
    package var count: Int { dictionary?.count ?? names.count }

    /// The position of `name`, if it has one.
    package subscript(name: String) -> Int? {
        if let dictionary { return dictionary[name] }
        // Every name here is ASCII; another may still equal one canonically (the Kelvin sign is `K`).
        guard let hash = NameHash.ascii(name) else { return names.firstIndex(of: name).map { positions[$0] } }
        var slot = Int(hash) & mask
        // At most half the slots are taken: an empty one ends every search.
        while true {
            let found = slots[slot]
            if found.entry < 0 { return nil }
            if found.hash == hash && names[Int(found.entry)] == name { return positions[Int(found.entry)] }
            slot = (slot + 1) & mask
        }
    }

    /// Gives `name` the position `position` unless it has one; the one it had, if it had one.
    @discardableResult
    package mutating func insert(_ name: String, at position: Int) -> Int? {
        if dictionary != nil {
            if let known = dictionary![name] { return known }
            dictionary![name] = position
            return nil
        }
        guard let hash = NameHash.ascii(name) else {
            if let known = self[name] { return known }
            useDictionary()
            dictionary![name] = position
            return nil
        }
        if (names.count + 1) * 2 > slots.count { grow() }
        var slot = Int(hash) & mask
        var probes = 0
        while slots[slot].entry >= 0 {
            let entry = Int(slots[slot].entry)
            if slots[slot].hash == hash && names[entry] == name { return positions[entry] }
            probes += 1
            if probes > Self.maximumProbes {
                useDictionary()
                dictionary![name] = position
                return nil
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(hash: hash, entry: Int32(names.count))
        names.append(name)
        positions.append(position)
        return nil
    }

    /// Twice the slots, every name placed again.
    private mutating func grow() {
        var bigger = NameIndex(capacity: names.count * 2)
        for index in names.indices { bigger.insert(names[index], at: positions[index]) }
        self = bigger
    }

    /// Hands every name to a dictionary, which answers from now on.
    private mutating func useDictionary() {
        dictionary = Dictionary(zip(names, positions), uniquingKeysWith: { first, _ in first })
        slots = []
        mask = 0
    }
}
