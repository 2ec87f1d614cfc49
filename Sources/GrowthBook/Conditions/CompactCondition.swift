/// The usual condition, compiled a second time into plain values: an
/// object of top-level attributes, each with a test of the kinds payloads
/// are made of (`"country": "US"`, `{"$in": ["US", "CA"]}`, `{"$gte": 18}`,
/// `true`). Evaluating it reads each attribute's ``AttributeFacts`` (its type,
/// a number, an ASCII string's hash) and compares plain values: no value is
/// copied out, so no reference is counted, where the general walk copied
/// every test and value it met (nearly half of an evaluation of a force rule
/// with a two-attribute condition).
///
/// Only what it can answer exactly as ``ValueTest/matches(_:_:)`` would is
/// answered here: a value of another type (a string that is not ASCII, a
/// missing attribute, an array) goes to the condition's own test.
struct CompactCondition: Sendable {
    /// One attribute's test, kept in its part (``Condition/Part/compact``).
    struct Test: Sendable {
        enum Kind: UInt8, Sendable {
            /// Equal to the ASCII string of the part's own test
            /// (``ValueTest/string(_:)``), whose hash `first` holds (its bits).
            case string
            /// One of the ASCII strings ``pool``[`first`..<`first + count`] (`$in`), or none of them (`$nin`).
            case strings
            case notStrings
            /// Equal to ``number`` (a number test).
            case number
            /// A number, ordered against ``number`` as ``order`` says.
            case numberOrder
            /// A boolean equal to ``number`` (1 or 0).
            case bool
            /// A version ordered against ``versionFields``[`first`..<`first + count`] as ``order`` says.
            case version
            /// Only the condition's own test can say.
            case general
        }

        var kind: Kind = .general
        var order: ValueTest.ComparisonOrder = .equal
        /// The attribute's slot (``AttributeSlots``), or -1; declared here,
        /// where it fills the padding before ``number``.
        var slot: Int32 = -1
        var number: Double = 0
        var first: Int32 = 0
        var count: Int32 = 0
    }

    /// The parts whose tests (``Condition/Part/compact``) must all hold: the
    /// condition's members; `nil` when the condition is not of this shape
    /// (nested, `$or`, paths), and the general walk evaluates it.
    let members: Range<Int>?
    /// A string a test compares against, with its hash.
    struct PooledString: Sendable {
        var text: String
        var hash: UInt32
    }

    /// The strings the tests compare against.
    let pool: ContiguousArray<PooledString>
    /// The numeric fields of the versions the tests compare against (``VersionFields``).
    let versionFields: ContiguousArray<UInt32>

    /// Compiles the tests of a condition's parts in place, when it has this
    /// form: a list of the tests apart from the parts was an allocation a condition.
    init(parts: inout ContiguousArray<Condition.Part>) {
        var pool = ContiguousArray<PooledString>()
        var versionFields = ContiguousArray<UInt32>()
        /// Adds ASCII strings to the pool; `nil` (and nothing added) when one is not ASCII.
        func pooled(_ strings: some Collection<String>) -> (first: Int32, count: Int32)? {
            let first = pool.count
            for text in strings {
                let key = NameHash.key(of: text)
                guard key.isASCII else {
                    pool.removeSubrange(first...)
                    return nil
                }
                pool.append(PooledString(text: text, hash: key.hash))
            }
            return (Int32(first), Int32(strings.count))
        }
        // One member, or a group of members: `{"country": …, "age": …}`.
        let members: Range<Int>
        if parts.count == 1 {
            members = 0..<1
        } else if parts.first?.kind == .all {
            members = 1..<parts.count
        } else {
            members = 0..<0
        }
        // The parts are read in place, by index: a loop over them (or over a
        // slice of them) copied each, its name and test retained and released.
        guard !members.isEmpty, members.allSatisfy({ parts[$0].kind == .member }) else {
            self.members = nil
            self.pool = []
            self.versionFields = []
            return
        }
        // Room for every string at once: growing would copy the pool (and count its strings) again.
        pool.reserveCapacity(
            members.reduce(0) { count, index in
                switch parts[index].test {
                case .single(.inStrings(let strings, _)): return count + strings.count
                default: return count
                }
            }
        )
        for index in members {
            var test = Test()
            switch parts[index].test {
            case .string(let text):
                // Compared with the test's own string, not a pooled copy: a
                // pool for one string was an allocation a condition.
                let key = NameHash.key(of: text)
                if key.isASCII { (test.kind, test.first) = (.string, Int32(bitPattern: key.hash)) }
            case .number(let number): (test.kind, test.number) = (.number, number)
            case .bool(let flag): (test.kind, test.number) = (.bool, flag ? 1 : 0)
            case .single(.numberOrder(let order, let number)):
                (test.kind, test.order, test.number) = (.numberOrder, order, number)
            case .single(.inStrings(let strings, let negated)):
                if let range = pooled(strings) {
                    (test.kind, test.first, test.count) = (negated ? .notStrings : .strings, range.first, range.count)
                }
            case .single(.version(let order, let padded)):
                let first = Int32(versionFields.count)
                if let count = VersionFields.append(padded: padded, to: &versionFields) {
                    (test.kind, test.order, test.first, test.count) = (.version, order, first, Int32(count))
                }
            default: break
            }
            parts[index].compact = test
        }
        AttributeSlots.shared.assigning { slot in
            for index in members {
                parts[index].compact.slot = slot(parts[index].name.text, parts[index].name.key)
            }
        }
        self.members = members
        self.pool = pool
        self.versionFields = versionFields
    }

    /// Whether every test holds for `attributes`, or `nil` when the
    /// condition has no compact form; `condition` answers the tests and
    /// values not compiled here. Inlined, with the walk below, into the
    /// condition's own `holds`: one call per condition, where there was one
    /// more, and one per test to find its attribute.
    @inline(__always)
    func holds(for attributes: AttributeTable, in condition: Condition, groups: [String: [JSONValue]]) -> Bool? {
        // The compiled tests are read over the buffer: a loop over the array
        // itself counted its references, and reading them from the list
        // (as the names and tests are) took 18 more instructions a force rule.
        guard let members else { return nil }
        return condition.parts.withUnsafeBufferPointer {
            holds($0, members, for: attributes, in: condition, groups: groups)
        }
    }

    @inline(__always)
    private func holds(
        _ parts: UnsafeBufferPointer<Condition.Part>,
        _ members: Range<Int>,
        for attributes: AttributeTable,
        in condition: Condition,
        groups: [String: [JSONValue]]
    ) -> Bool {
        for index in members {
            let test = parts[index].compact
            // Found by the attribute's slot, or else by its name. The name
            // and test are read from the condition's own list, which cannot
            // change: read through the buffer, the name was retained for the
            // lookup (a retain and a release an evaluation).
            let found: Int?
            if let slotted = attributes.position(ofSlot: test.slot) {
                found = slotted < 0 ? nil : Int(slotted)
            } else {
                found = attributes.position(of: condition.parts[index].name.text, key: condition.parts[index].name.key)
            }
            guard let position = found else {
                if !condition.parts[index].test.matches(.null, groups) { return false }
                continue
            }
            let facts = attributes.facts(at: position)
            let holds: Bool
            switch (test.kind, facts.kind) {
            case (.string, .asciiString):
                holds =
                    UInt32(bitPattern: test.first) == facts.textHash
                    && Self.attribute(at: position, in: attributes, is: condition.parts[index].test.text)
            case (.strings, .asciiString), (.notStrings, .asciiString):
                var found = false
                for index in Int(test.first)..<Int(test.first + test.count)
                where pool[index].hash == facts.textHash
                    && Self.attribute(at: position, in: attributes, is: pool[index].text)
                {
                    found = true
                    break
                }
                holds = found != (test.kind == .notStrings)
            case (.number, .number): holds = facts.number == test.number
            case (.numberOrder, .number):
                let (number, expected) = (facts.number, test.number)
                holds =
                    !number.isNaN && !expected.isNaN
                    && test.order.holds(number < expected ? -1 : (number == expected ? 0 : 1))
            case (.bool, .bool): holds = facts.number == test.number
            case (.version, .asciiString) where facts.versionFieldCount > 0:
                let order = versionFields.withUnsafeBufferPointer { fields in
                    VersionFields.order(
                        facts.versionFields,
                        count: facts.versionFieldCount,
                        against: UnsafeBufferPointer(rebasing: fields[Int(test.first)..<Int(test.first + test.count)])
                    )
                }
                guard let order else { fallthrough }
                holds = test.order.holds(order)
            default: holds = condition.parts[index].test.matches(attributes.value(at: position), groups)
            }
            if !holds { return false }
        }
        return true
    }

    /// Whether the attribute at `position` is the string `expected`, whose
    /// hash is the attribute's: the comparison of a string test and of each
    /// string of a pool.
    private static func attribute(at position: Int, in attributes: AttributeTable, is expected: String?) -> Bool {
        guard let expected, case .string(let text) = attributes.value(at: position) else { return false }
        return expected == text
    }
}
