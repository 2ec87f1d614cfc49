/// One of a user's attributes as rules hash it: its value when truthy, and
/// that value as hashing reads it (empty when there is none). Found and
/// hashed once per user, not once per rule: almost every rule hashes `id`.
struct HashedAttribute: Sendable {
    /// The attribute's name (`id` for a rule that names none).
    var name: String
    /// The attribute's value, when it is truthy; a user without one is hashed by nobody.
    var value: JSONValue?
    var hashed: GrowthBookHash.HashedText
    /// The name's slot (``AttributeSlots``), when it is known; -1 otherwise.
    var slot: Int32

    /// The attribute `name` of `attributes`, hashed; `slot` is the name's, when known.
    init(_ name: String, in attributes: AttributeTable, slot: Int32 = -1) {
        // The attributes hold each name once: the first member is the one.
        let value = attributes.truthyValue(named: name)
        self.name = name
        self.slot = slot
        self.value = value
        hashed = GrowthBookHash.HashedText(value.map { JavaScriptSemantics.string($0) } ?? "")
    }

    /// The hash of the value with `seed` into [0, 1); `nil` when the user
    /// has no value, or for an unknown hash version.
    @inline(__always)
    func hash(seed: GrowthBookHash.Seed, version: Int) -> Double? {
        guard value != nil else { return nil }
        return GrowthBookHash.hash(seed: seed, value: hashed, version: version)
    }
}
