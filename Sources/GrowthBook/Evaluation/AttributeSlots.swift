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
    /// Each name's slot is its position here. A ``NameIndex``, not a
    /// dictionary: its hash is a few instructions where a dictionary's
    /// seeded hash took a payload's decoding 2 % more of them.
    private let slots = Mutex(NameIndex())

    /// Slots for up to `capacity` names.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Calls `body` with a function that gives a name its slot (the one it
    /// has, or the next, while there is room); the function answers -1 for a
    /// name that is not ASCII or finds no room. It takes the name's
    /// ``NameHash/key(of:)``, which a condition has found already. One lock
    /// for all the names of a condition.
    package func assigning<Result>(
        _ body: (_ slot: (String, _ key: (hash: UInt32, isASCII: Bool)) -> Int32) -> Result
    ) -> Result {
        slots.withLock { slots in
            body { name, key in
                guard key.isASCII else { return -1 }
                let next = slots.count
                guard next < capacity else { return slots[name].map(Int32.init) ?? -1 }
                return Int32(slots.insert(name, asciiHash: key.hash, at: next) ?? next)
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
        slots.withLock { $0 }
    }
}
