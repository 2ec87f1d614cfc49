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
            /// (``ValueTest/string(_:)``), whose hash is ``textHash``.
            case string
            /// One of the ASCII strings ``pool``[``poolRange``] (`$in`), or none of them (`$nin`).
            case strings
            case notStrings
            /// Equal to ``number`` (a number test).
            case number
            /// A number, ordered against ``number`` as ``order`` says.
            case numberOrder
            /// A boolean equal to ``number`` (1 or 0).
            case bool
            /// A version ordered against ``versionFields`` as ``order`` says.
            case version
            /// Only the condition's own test can say.
            case general
        }

        var kind: Kind = .general
        var order: ValueTest.ComparisonOrder = .equal
        /// How many of ``versionFields`` a version test has; declared here, in padding.
        var versionFieldCount: UInt8 = 0
        /// The attribute's slot (``AttributeSlots``), or -1; declared here,
        /// where it fills the padding before the operand.
        var slot: Int32 = -1
        /// The operand's 16 bytes, read as ``kind`` says: as ``number``,
        /// ``textHash``, ``poolRange`` or ``versionFields``. The versions'
        /// fields in a list of the condition's own were an allocation a condition.
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        /// What a number, order or boolean test compares with.
        var number: Double {
            get { Double(bitPattern: low) }
            set { low = newValue.bitPattern }
        }

        /// The hash (``NameHash``) of a string test's string.
        var textHash: UInt32 {
            get { UInt32(truncatingIfNeeded: low) }
            set { low = UInt64(newValue) }
        }

        /// Where a strings test's strings are in ``CompactCondition/pool``.
        var poolRange: Range<Int> {
            get { Int(UInt32(truncatingIfNeeded: high))..<Int(UInt32(truncatingIfNeeded: high >> 32)) }
            set { high = UInt64(UInt32(newValue.upperBound)) << 32 | UInt64(UInt32(newValue.lowerBound)) }
        }

        /// A version test's fields (``VersionFields``), the first ``versionFieldCount`` of them.
        var versionFields: SIMD4<UInt32> {
            get {
                SIMD4(
                    UInt32(truncatingIfNeeded: low),
                    UInt32(truncatingIfNeeded: low >> 32),
                    UInt32(truncatingIfNeeded: high),
                    UInt32(truncatingIfNeeded: high >> 32)
                )
            }
            set {
                low = UInt64(newValue[1]) << 32 | UInt64(newValue[0])
                high = UInt64(newValue[3]) << 32 | UInt64(newValue[2])
            }
        }
    }

    /// The parts whose tests (``Condition/Part/compact``) must all hold: the
    /// condition's members; `nil` when the condition is not of this shape
    /// (nested, `$or`, paths), and the general walk evaluates it.
    let members: Range<Int>?
    /// The strings the strings tests compare against: the list of the
    /// condition's one `$in` test itself (``ValueTest/Operator/inStrings(_:negated:)``),
    /// shared, or the lists of several joined. A pool of copies was an
    /// allocation every condition with an `$in` compiled; reading the test's
    /// own list in evaluation instead made the front door 3 ns slower.
    let pool: [ValueTest.ListedString]

    /// Compiles the tests of a condition's parts in place, when it has this
    /// form: a list of the tests apart from the parts was an allocation a condition.
    init(parts: inout ContiguousArray<Condition.Part>) {
        var pool: [ValueTest.ListedString] = []
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
            return
        }
        for index in members {
            var test = Test()
            switch parts[index].test {
            case .string(let text):
                // Compared with the test's own string, not a pooled copy: a
                // pool for one string was an allocation a condition.
                let key = NameHash.key(of: text)
                if key.isASCII { (test.kind, test.textHash) = (.string, key.hash) }
            case .number(let number): (test.kind, test.number) = (.number, number)
            case .bool(let flag): (test.kind, test.number) = (.bool, flag ? 1 : 0)
            case .single(.numberOrder(let order, let number)):
                (test.kind, test.order, test.number) = (.numberOrder, order, number)
            case .single(.inStrings(let strings, let negated)):
                if strings.indices.allSatisfy({ strings[$0].key.isASCII }) {
                    let start = pool.count
                    if pool.isEmpty { pool = strings } else { pool += strings }
                    (test.kind, test.poolRange) = (negated ? .notStrings : .strings, start..<pool.count)
                }
            case .single(.version(let order, let padded)):
                if let version = VersionFields.fields(padded: padded) {
                    (test.kind, test.order, test.versionFields) = (.version, order, version.fields)
                    test.versionFieldCount = UInt8(version.count)
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
                    test.textHash == facts.textHash
                    && Self.attribute(at: position, in: attributes, is: condition.parts[index].test.text)
            case (.strings, .asciiString), (.notStrings, .asciiString):
                var found = false
                for index in test.poolRange
                where pool[index].key.hash == facts.textHash
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
                let order = VersionFields.order(
                    facts.versionFields,
                    count: facts.versionFieldCount,
                    against: test.versionFields,
                    count: Int(test.versionFieldCount)
                )
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
    /// string of an `$in` list.
    private static func attribute(at position: Int, in attributes: AttributeTable, is expected: String?) -> Bool {
        guard let expected, case .string(let text) = attributes.value(at: position) else { return false }
        return expected == text
    }
}
