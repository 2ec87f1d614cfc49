import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// The Attributes screen: what it lists, editing in place with the
/// filter's keys, and everything evaluated again with what QA typed.
@Suite struct AttributesScreenTests {
    /// A payload whose rules read `country`, `plan` and `appVersion`, and hash on `id`.
    static let payload = """
        {"features": {
          "checkout-cta": {"defaultValue": "Buy", "rules": [
            {"id": "fr", "condition": {"country": "FR"}, "force": "Acheter"},
            {"key": "cta-test", "condition": {"plan": {"$in": ["pro", "team"]}},
             "variations": ["Buy", "Get it"], "weights": [0, 1], "hashAttribute": "id"}
          ]},
          "beta-banner": {"defaultValue": false, "rules": [
            {"condition": {"$or": [{"appVersion": {"$vgte": "2.0.0"}}, {"user.plan": "team"}]}, "force": true}
          ]}
        }}
        """

    static func world(size: TerminalSize = TerminalSize(columns: 100, rows: 30)) throws -> ConsoleWorld {
        let world = try ConsoleWorld([], size: size, growthBook: payload)
        world.press(.down, .down, .down, .enter)
        return world
    }

    /// The value of `checkout-cta` the device gets now.
    static func cta(_ world: ConsoleWorld) -> String? {
        world.state.data.snapshot.assignment(for: "checkout-cta")?.value.description
    }

    @Test func theScreenListsWhatTargetingReadsAndWhereEachValueComesFrom() throws {
        let world = try Self.world()
        #expect(world.state.route == .attributes)
        let lines = world.lines
        #expect(lines[1].hasPrefix(" ATTRIBUTE"))
        #expect(lines[1].contains("VALUE") && lines[1].contains("FROM") && lines[1].contains("READ BY"))
        // Set ones first (GrowthBook's id, the device id), then the unset ones the rules read.
        #expect(lines[2].hasPrefix(" id ") && lines[2].contains("device-1") && lines[2].contains("default"))
        #expect(lines[2].contains("cta-test"))
        let names = world.state.rows.compactMap { row -> String? in
            if case .attribute(let name) = row.target { return name }
            return nil
        }
        #expect(names == ["id", "appVersion", "country", "plan", "user.plan"])
        let country = try #require(lines.first { $0.hasPrefix(" country ") })
        #expect(country.contains("—") && country.contains("unset") && country.contains("checkout-cta: force"))
        world.press(.left)
        #expect(world.lines[5] == " Attributes  none set · 4 unset read by targeting")
    }

    @Test func editingInPlaceStoresTheValueAndEverythingIsEvaluatedAgain() async throws {
        let world = try Self.world()
        #expect(Self.cta(world) == nil)
        world.press(.down, .down)
        #expect(world.highlighted == "country")
        world.press(.enter)
        #expect(world.state.prompt?.purpose == .attributeValue(name: "country"))
        world.type("FR")
        // Typed where the value goes, with the keys in the status line.
        let row = try #require(world.lines.first { $0.hasPrefix(" country ") })
        #expect(row.contains("FR▏"))
        #expect(world.lines[28].contains("editing country: Enter saves · Esc cancels"))
        world.press(.enter)
        #expect(world.pending == [.setAttribute(name: "country", value: "FR")])
        try await world.settle()
        #expect(try world.store.storedAttributes() == ["country": "FR"])
        #expect(Self.cta(world) == "Acheter")
        #expect(world.lines[28].contains("country is FR now: 1 experiment changed."))
        let stored = try #require(world.lines.first { $0.hasPrefix(" country ") })
        #expect(stored.contains("FR") && stored.contains("state file"))
        // The highlight stays on the attribute although set ones sort first now.
        #expect(world.highlighted == "country")
    }

    @Test func escapeCancelsCtrlUClearsAndAnEmptiedValueRemovesTheAttribute() async throws {
        let world = try Self.world()
        try world.store.setStoredAttributes(["plan": "pro"])
        try world.reload()
        #expect(Self.cta(world) == "Get it")
        world.press(.down)
        #expect(world.highlighted == "plan")
        world.press(.enter)
        world.type("x")
        world.press(.escape)
        #expect(world.state.prompt == nil && world.pending.isEmpty)
        #expect(world.lines[28].contains("Cancelled."))
        world.press(.enter, .clearLine)
        #expect(world.state.prompt?.text == "")
        world.press(.enter)
        #expect(world.pending == [.setAttribute(name: "plan", value: nil)])
        try await world.settle()
        #expect(try world.store.storedAttributes() == [:])
        #expect(Self.cta(world) == nil)
        #expect(world.lines[28].contains("plan is unset now: 1 experiment changed."))
    }

    @Test func nAddsAnAttributeTypedAsNameEqualsValueAndAMistakeKeepsTheText() async throws {
        let world = try Self.world()
        world.press(.character("n"))
        world.type("appVersion")
        #expect(world.lines[28].contains("new attribute: appVersion▏"))
        world.press(.enter)
        // Refused, with the text kept to mend.
        #expect(world.pending.isEmpty)
        #expect(world.state.prompt?.text == "appVersion")
        #expect(world.lines[28].contains("Type the attribute as name=value"))
        world.type("=2.1.0")
        world.press(.enter)
        #expect(world.pending == [.setAttribute(name: "appVersion", value: "2.1.0")])
        try await world.settle()
        #expect(world.state.data.snapshot.assignment(for: "beta-banner")?.value == .bool(true))
    }

    @Test func dRemovesWhatQASetAndSaysWhyOtherwise() async throws {
        let world = try Self.world()
        world.press(.character("d"))
        #expect(world.pending.isEmpty)
        #expect(world.lines[28].contains("id is the default; ⏎ sets a value over it."))
        world.press(.down, .down)
        world.press(.character("d"))
        #expect(world.lines[28].contains("country is not set."))
        try world.store.setStoredAttributes(["country": "FR"])
        try world.reload()
        world.press(.character("d"))
        #expect(world.pending == [.setAttribute(name: "country", value: nil)])
        try await world.settle()
        #expect(try world.store.storedAttributes() == [:])
    }

    @Test func aBadNameIsRefusedWithTheReason() async throws {
        let world = try Self.world()
        world.press(.character("n"))
        world.type("my country=FR")
        world.press(.enter)
        let message = try await #require(
            {
                do {
                    _ = try await world.environment.perform(world.pending[0])
                    return nil
                } catch {
                    return String(describing: error)
                }
            }() as String?
        )
        #expect(message.contains("a name has no \"=\", spaces or control characters"))
    }
}
