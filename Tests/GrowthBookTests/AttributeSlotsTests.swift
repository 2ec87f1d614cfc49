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
