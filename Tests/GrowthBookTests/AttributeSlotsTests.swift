import Foundation
import Testing

@testable import GrowthBook

/// Attribute names' slots: one per ASCII name while there is room, recorded
/// by every attribute table made after, and never a wrong answer from a table
/// made before a slot was given.
struct AttributeSlotsTests {
    private static func slot(_ name: String, in slots: AttributeSlots) -> Int32 {
        slots.assigning { slot in slot(name, NameHash.key(of: name)) }
    }

    @Test func aNameKeepsItsSlotAndOnlyASCIINamesHaveOne() {
        let slots = AttributeSlots(capacity: 8)
        #expect(Self.slot("country", in: slots) == 0)
        #expect(Self.slot("age", in: slots) == 1)
        #expect(Self.slot("country", in: slots) == 0)
        #expect(Self.slot("é", in: slots) == -1)
        #expect(Self.slot("e\u{301}", in: slots) == -1)
        #expect(Self.slot("", in: slots) == 2)
        #expect(slots.given.count == 3)
    }

    /// Past the capacity, names that have a slot keep it and new ones get none.
    @Test func noSlotsArePastTheCapacity() {
        let slots = AttributeSlots(capacity: 2)
        #expect(Self.slot("a", in: slots) == 0)
        #expect(Self.slot("b", in: slots) == 1)
        #expect(Self.slot("c", in: slots) == -1)
        #expect(Self.slot("a", in: slots) == 0)
        #expect(Self.slot("b", in: slots) == 1)
        #expect(slots.given.count == 2)
    }

    /// Threads giving names slots at once, most of them names another thread
    /// gave already (found without the lock), agree: each name one slot,
    /// the slots 0 up to the number of names, none given twice, and the
    /// names that found no room none. Twenty times over, fresh slots each
    /// time: a race shows in some runs, not in every one.
    @Test func threadsAtOnceAgreeOnEverySlot() async {
        let names = (0..<64).map { "attribute-\($0)" }
        for _ in 0..<20 {
            let slots = AttributeSlots(capacity: 48)
            let answers = await withTaskGroup(of: [String: Int32].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var seen: [String: Int32] = [:]
                        for round in 0..<10 {
                            for index in names.indices {
                                // Every thread in the same order: they meet each new name at once.
                                let name = names[(index + round) % names.count]
                                let slot = Self.slot(name, in: slots)
                                if let before = seen[name] { #expect(before == slot, "\(name)") }
                                seen[name] = slot
                            }
                        }
                        return seen
                    }
                }
                return await group.reduce(into: [[String: Int32]]()) { $0.append($1) }
            }
            for name in names {
                #expect(Set(answers.map { $0[name] }).count == 1, "\(name)")
            }
            #expect(answers[0].values.filter { $0 >= 0 }.sorted() == Array(0..<48))
            #expect(answers[0].values.filter { $0 < 0 }.count == 16)
            #expect(slots.given.count == 48)
            for name in names {
                #expect(slots.given[name].map(Int32.init) ?? -1 == answers[0][name], "\(name)")
            }
        }
    }

    /// A table records where each slotted name is (the first of a repeated
    /// one), -1 for one the user lacks, and nothing for slots given after it.
    @Test func aTableRecordsTheSlotsGivenBeforeIt() {
        let slots = AttributeSlots(capacity: 8)
        for name in ["plan", "id", "country"] { _ = Self.slot(name, in: slots) }
        let table = AttributeTable(
            .object([.init("id", "u1"), .init("K", 1), .init("plan", "pro"), .init("plan", "free")]),
            attributeSlots: slots
        )
        #expect(table.position(ofSlot: 0) == 2)
        #expect(table.position(ofSlot: 1) == 0)
        #expect(table.position(ofSlot: 2) == -1)
        #expect(Self.slot("K", in: slots) == 3)
        #expect(table.position(ofSlot: 3) == nil)
        #expect(table.position(ofSlot: -1) == nil)
    }

    /// The Kelvin sign is `K` to Swift's `==` but another property name to
    /// JavaScript: a slot of `K` never finds it.
    @Test func aNameThatIsNotASCIIIsNeverRecordedUnderAnASCIIOne() {
        let slots = AttributeSlots(capacity: 8)
        #expect(Self.slot("K", in: slots) == 0)
        let table = AttributeTable(.object([.init("\u{212A}", 1)]), attributeSlots: slots)
        #expect(table.position(ofSlot: 0) == -1)
    }

    /// A condition compiled after a user's table was made (its names given
    /// slots the table has no record of) finds the attributes by their hash.
    @Test func aConditionNewerThanTheTableStillFindsItsAttributes() {
        let name = "fresh-\(UUID().uuidString)"
        let attributes: JSONValue = .object([.init(name, "yes"), .init("age", 30)])
        let older = AttributeTable(attributes)
        let condition = Condition(.object([.init(name, "yes"), .init("age", ["$gte": 18])]))
        let newer = AttributeTable(attributes)
        #expect(older.position(ofSlot: condition.parts[1].compact.slot) == nil)
        #expect(newer.position(ofSlot: condition.parts[1].compact.slot) == 0)
        #expect(condition.holds(for: older, groups: [:]))
        #expect(condition.holds(for: newer, groups: [:]))
        let without = AttributeTable(.object([.init("age", 30)]))
        #expect(without.position(ofSlot: condition.parts[1].compact.slot) == -1)
        #expect(!condition.holds(for: without, groups: [:]))
    }
}
