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
    /// Each name's slot (``ProbedSlots``), at most half of them taken;
    /// `nil` once a dictionary answers instead.
    private var slots: ProbedSlots?
    private var dictionary: [String: Int]?

    /// How far from its slot a name may land before the table gives way to a dictionary.
    private static let maximumProbes = 32

    /// An empty index with room for `capacity` names before it grows.
    package init(capacity: Int = 0) {
        slots = ProbedSlots(atLeast: max(8, capacity * 2), maximumProbes: Self.maximumProbes)
        names.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// How many names there are.
    package var count: Int { dictionary?.count ?? names.count }

    /// The position of `name`, if it has one.
    package subscript(name: String) -> Int? {
        guard slots != nil else { return dictionary?[name] }
        // Every name here is ASCII; another may still equal one canonically (the Kelvin sign is `K`).
        guard let hash = NameHash.ascii(name) else { return names.firstIndex(of: name).map { positions[$0] } }
        return position(of: name, asciiHash: hash)
    }

    /// The position of `name`, whose ``NameHash/ascii(_:)`` is `asciiHash`
    /// (known already, as a compiled condition's names' are), if it has one.
    package func position(of name: String, asciiHash hash: UInt32) -> Int? {
        guard let slots else { return dictionary?[name] }
        return slots.find(hash, isSame: { names[$0] == name }).map { positions[$0] }
    }

    /// Gives `name` the position `position` unless it has one; the one it had, if it had one.
    @discardableResult
    package mutating func insert(_ name: String, at position: Int) -> Int? {
        insert(name, asciiHash: NameHash.ascii(name), at: position)
    }

    /// ``insert(_:at:)`` for a name whose ``NameHash/ascii(_:)`` is known
    /// already (`asciiHash`), as a compiled condition's names are.
    @discardableResult
    package mutating func insert(_ name: String, asciiHash: UInt32?, at position: Int) -> Int? {
        if slots != nil, let hash = asciiHash {
            if (names.count + 1) * 2 > slots!.size { grow() }
            switch slots!.place(hash, at: names.count, isSame: { names[$0] == name }) {
            case .placed:
                names.append(name)
                positions.append(position)
                return nil
            case .found(let entry): return positions[entry]
            case .tooFar: break
            }
        }
        // A name that is not ASCII, or that lands too far: a dictionary answers from now on.
        if slots != nil {
            if let known = self[name] { return known }
            dictionary = Dictionary(zip(names, positions), uniquingKeysWith: { first, _ in first })
            slots = nil
        }
        if let known = dictionary![name] { return known }
        dictionary![name] = position
        return nil
    }

    /// Twice the slots, every name placed again.
    private mutating func grow() {
        var bigger = NameIndex(capacity: names.count * 2)
        for index in names.indices { bigger.insert(names[index], at: positions[index]) }
        self = bigger
    }
}
