/// A user's attributes as an evaluation reads them: each top-level attribute
/// found through its name's hash (``NameHash``), which a condition keeps for
/// every name it reads, instead of a scan of the object comparing names.
///
/// Made once per context (``GrowthBookContext/attributes``), from the
/// object as `JSON.parse` would build it, so each name is there once. Names
/// are compared as JavaScript compares property names, code unit for code unit.
package struct AttributeTable: Sendable {
    /// The attributes: a JSON object (anything else has no attributes).
    package let root: JSONValue
    private let names: ContiguousArray<String>
    /// Whether each name is ASCII: two ASCII names are compared with `==`.
    private let asciiNames: ContiguousArray<Bool>
    private let values: ContiguousArray<JSONValue>
    /// Each slot's name hash and the position of its attribute (-1: empty);
    /// empty when names collided too much, and ``values`` are scanned instead.
    private let slots: ContiguousArray<Slot>
    private let mask: Int

    private struct Slot: Sendable {
        var hash: UInt32
        var position: Int32
    }

    /// How far from its slot a name may land before the table is given up for a scan.
    private static let maximumProbes = 16

    /// The table of `attributes`, which should hold each name once (the first is found).
    package init(_ attributes: JSONValue) {
        root = attributes
        var names = ContiguousArray<String>()
        var values = ContiguousArray<JSONValue>()
        var hashes = ContiguousArray<UInt32>()
        var asciiNames = ContiguousArray<Bool>()
        if case .object(let members) = attributes {
            names.reserveCapacity(members.count)
            values.reserveCapacity(members.count)
            for member in members {
                let key = NameHash.key(of: member.key)
                names.append(member.key)
                values.append(member.value)
                hashes.append(key.hash)
                asciiNames.append(key.isASCII)
            }
        }
        var capacity = 4
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = ContiguousArray(repeating: Slot(hash: 0, position: -1), count: capacity)
        let mask = capacity - 1
        var collided = false
        names: for (position, name) in names.enumerated() {
            let hash = hashes[position]
            var slot = Int(hash) & mask
            var probes = 0
            while slots[slot].position >= 0 {
                // A repeated name keeps its first place, as a lookup by scan would find it.
                let other = Int(slots[slot].position)
                if slots[slot].hash == hash && Self.same(names[other], asciiNames[other], name, asciiNames[position]) {
                    continue names
                }
                probes += 1
                if probes > Self.maximumProbes {
                    collided = true
                    break names
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = Slot(hash: hash, position: Int32(position))
        }
        self.names = names
        self.asciiNames = asciiNames
        self.values = values
        self.slots = collided ? [] : slots
        self.mask = collided ? 0 : mask
    }

    /// The value of the attribute `name`, whose ``NameHash/key(of:)`` is `key`; `nil` when there is none.
    package func value(named name: String, key: (hash: UInt32, isASCII: Bool)) -> JSONValue? {
        position(of: name, key: key).map { values[$0] }
    }

    /// The value of the attribute `name`; `nil` when there is none.
    package func value(named name: String) -> JSONValue? {
        value(named: name, key: NameHash.key(of: name))
    }

    /// Whether two names are the same JavaScript property name: the same
    /// code units. Two ASCII names are that exactly when `==` holds (which
    /// holds `é` and `e` with a combining accent equal, and the Kelvin sign `K`).
    private static func same(_ a: String, _ aIsASCII: Bool, _ b: String, _ bIsASCII: Bool) -> Bool {
        aIsASCII && bIsASCII ? a == b : a.utf8.elementsEqual(b.utf8)
    }

    private func position(of name: String, key: (hash: UInt32, isASCII: Bool)) -> Int? {
        if slots.isEmpty { return names.indices.first { Self.same(names[$0], asciiNames[$0], name, key.isASCII) } }
        var slot = Int(key.hash) & mask
        for _ in 0...Self.maximumProbes {
            let found = slots[slot]
            if found.position < 0 { return nil }
            let position = Int(found.position)
            if found.hash == key.hash && Self.same(names[position], asciiNames[position], name, key.isASCII) {
                return position
            }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
