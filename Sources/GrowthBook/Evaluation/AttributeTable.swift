/// A user's attributes as an evaluation reads them: each top-level attribute
/// found through its name's hash (``NameHash``), which a condition keeps for
/// every name it reads, instead of a scan of the object comparing names; or,
/// for a compact condition's test, through its name's slot
/// (``AttributeSlots``), an index into where the table found each slotted name.
///
/// Made once per context (``GrowthBookContext/attributes``), from the
/// object as `JSON.parse` would build it, so each name is there once. Names
/// are compared as JavaScript compares property names, code unit for code unit.
package struct AttributeTable: Sendable {
    /// The attributes: a JSON object (anything else has no attributes).
    package let root: JSONValue
    /// One attribute as a lookup and a test read it.
    private struct Entry: Sendable {
        var name: String
        /// Whether the name is ASCII: two ASCII names are compared with `==`.
        var isASCII: Bool
        var value: JSONValue
        /// What a compact condition reads of the value (``AttributeFacts``).
        var facts: AttributeFacts
    }

    /// The attributes in order, in one list: four lists (names, whether each
    /// is ASCII, values, facts) were four allocations for every user.
    private let entries: ContiguousArray<Entry>
    /// Each name's slot (``ProbedSlots``); `nil` when names collided too
    /// much, and the names are scanned instead.
    private let slots: ProbedSlots?
    /// Where the attribute of each name with an ``AttributeSlots`` slot is,
    /// by slot (-1: the user has none), for the slots given when the table
    /// was made.
    private let slotPositions: ContiguousArray<Int32>

    /// The table of `attributes`, which should hold each name once (the first
    /// is found); it records where the names of `attributeSlots` are.
    package init(_ attributes: JSONValue, attributeSlots: AttributeSlots = .shared) {
        root = attributes
        var entries = ContiguousArray<Entry>()
        let members = attributes.members ?? []
        entries.reserveCapacity(members.count)
        var slots: ProbedSlots? = ProbedSlots(atLeast: max(4, members.count * 2), maximumProbes: 16)
        for member in members {
            let key = NameHash.key(of: member.key)
            // A repeated name keeps its first place, as a lookup by scan would find it.
            if case .tooFar = slots?.place(
                key.hash,
                at: entries.count,
                isSame: { Self.same(entries[$0].name, entries[$0].isASCII, member.key, key.isASCII) }
            ) {
                slots = nil
            }
            entries.append(
                Entry(name: member.key, isASCII: key.isASCII, value: member.value, facts: AttributeFacts(member.value))
            )
        }
        let given = attributeSlots.given
        var slotPositions = ContiguousArray<Int32>(repeating: -1, count: given.count)
        // The first of a repeated name is the one found, as by its hash.
        for index in entries.indices where entries[index].isASCII {
            if let slot = given[entries[index].name], slotPositions[slot] < 0 { slotPositions[slot] = Int32(index) }
        }
        self.entries = entries
        self.slots = slots
        self.slotPositions = slotPositions
    }

    /// Where the attribute of slot `slot` (``AttributeSlots``) is: -1 when
    /// the user has none; `nil` when the table has no record of the slot (it
    /// was given after the table was made, or the test has none: -1), and the
    /// name must be looked up by its hash.
    @inline(__always)
    func position(ofSlot slot: Int32) -> Int32? {
        Int(slot) < slotPositions.count && slot >= 0 ? slotPositions[Int(slot)] : nil
    }

    /// The value of the attribute `name`, whose ``NameHash/key(of:)`` is `key`; `nil` when there is none.
    package func value(named name: String, key: (hash: UInt32, isASCII: Bool)) -> JSONValue? {
        position(of: name, key: key).map { entries[$0].value }
    }

    /// The value of the attribute `name`; `nil` when there is none.
    package func value(named name: String) -> JSONValue? {
        value(named: name, key: NameHash.key(of: name))
    }

    /// The value of the attribute `name` when it is truthy, as rules hash
    /// and sticky buckets key a user by it; `nil` when it is missing or falsy.
    func truthyValue(named name: String) -> JSONValue? {
        value(named: name).flatMap { JavaScriptSemantics.truthy($0) ? $0 : nil }
    }

    /// Whether two names are the same JavaScript property name: the same
    /// code units. Two ASCII names are that exactly when `==` holds (which
    /// holds `é` and `e` with a combining accent equal, and the Kelvin sign `K`).
    private static func same(_ a: String, _ aIsASCII: Bool, _ b: String, _ bIsASCII: Bool) -> Bool {
        aIsASCII && bIsASCII ? a == b : JavaScriptSemantics.sameName(a, b)
    }

    /// The facts of the attribute at `position` (from ``position(of:key:)``).
    func facts(at position: Int) -> AttributeFacts { entries[position].facts }

    /// The value of the attribute at `position` (from ``position(of:key:)``).
    func value(at position: Int) -> JSONValue { entries[position].value }

    /// Where the attribute `name`, whose ``NameHash/key(of:)`` is `key`, is; `nil` when there is none.
    /// Inlined: a compact condition asks it once per test, and the calls were
    /// 7 % of the instructions of a force rule with two tests.
    @inline(__always)
    func position(of name: String, key: (hash: UInt32, isASCII: Bool)) -> Int? {
        guard let slots else {
            return entries.indices.first { Self.same(entries[$0].name, entries[$0].isASCII, name, key.isASCII) }
        }
        return slots.find(key.hash) { Self.same(entries[$0].name, entries[$0].isASCII, name, key.isASCII) }
    }
}
