import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// The highlight stays on the same thing while rows move under it, so `d`
/// or Enter never acts on another experiment than the one the tester chose.
@Suite struct HighlightAnchorTests {
    /// A catalog with one two-variant experiment per name.
    private static func catalog(_ names: [String]) throws -> Catalog {
        let experiments = names.map { name in
            """
            {"name": "\(name)", "keys": ["key\(name)"], "baseline": "\(name)Off", "variants": [
              {"name": "\(name)Off", "assignments": {"key\(name)": false}},
              {"name": "\(name)On", "assignments": {"key\(name)": true}}]}
            """
        }
        let text = #"{"source": "Local", "experiments": [\#(experiments.joined(separator: ","))]}"#
        return try CatalogDecoder().decode(Data(text.utf8), file: "c.json")
    }

    /// What another process (or an edit) makes the console load next.
    private static func data(_ names: [String]) throws -> ConsoleData {
        try ConsoleWorld([catalog(names)]).environment.load()
    }

    private func experimentsScreen(_ names: [String], highlighting name: String) throws -> ConsoleWorld {
        let world = try ConsoleWorld([Self.catalog(names)])
        world.press(.enter)
        while world.highlighted != name { world.press(.down) }
        return world
    }

    @Test func anExperimentAddedAboveDoesNotMoveTheHighlight() throws {
        let world = try experimentsScreen(["Beta", "Gamma", "Delta"], highlighting: "Gamma")
        _ = ConsoleReducer.reduce(
            &world.state,
            .dataLoaded(try Self.data(["Alpha", "Aleph", "Beta", "Gamma", "Delta"]))
        )
        #expect(world.highlighted == "Gamma")
        #expect(world.state.message == nil)
        // And `d`, Enter act on it.
        world.press(.enter)
        #expect(world.state.route == .variants(source: "Local", experiment: "Gamma"))
    }

    @Test func aVanishedExperimentHandsTheHighlightToItsNeighbourAndSaysSo() throws {
        let world = try experimentsScreen(["Beta", "Gamma", "Delta"], highlighting: "Gamma")
        _ = ConsoleReducer.reduce(&world.state, .dataLoaded(try Self.data(["Beta", "Delta"])))
        #expect(world.highlighted == "Delta")
        #expect(world.state.message?.text == "Gamma is gone; the highlight moved to Delta.")
        // The last row gone: the one before it.
        world.press(.end)
        _ = ConsoleReducer.reduce(&world.state, .dataLoaded(try Self.data(["Beta", "Alpha"])))
        #expect(world.highlighted == "Beta")
    }

    @Test func aFilterKeepsTheHighlightWhileItStillMatches() throws {
        let world = try experimentsScreen(["Beta", "Gamma", "Gambit"], highlighting: "Gamma")
        world.press(.character("/"))
        world.type("gam")
        #expect(world.highlighted == "Gamma")
        world.type("b")
        #expect(world.highlighted == "Gambit")  // no longer matching: the first match
        #expect(world.state.message == nil)
    }

    @Test func aScreenBelowFindsItsRowAgainWhenItComesBack() throws {
        let world = try experimentsScreen(["Beta", "Gamma", "Delta"], highlighting: "Delta")
        world.press(.enter)  // the variants of Delta
        _ = ConsoleReducer.reduce(&world.state, .dataLoaded(try Self.data(["Alpha", "Beta", "Gamma", "Delta"])))
        world.press(.escape)
        #expect(world.highlighted == "Delta")
    }

    @Test func theNewestEventArrivingKeepsTheHighlightOnItsEvent() async throws {
        let world = try ConsoleWorld.demo()
        world.press(.down, .down, .enter)
        #expect(world.state.route == .events)
        world.press(.down)
        let before = world.state.rows[world.state.frame.cursor].target
        try world.events.record([
            Event(
                time: Date(timeIntervalSince1970: 1_800_000_100),
                device: "device-1",
                source: "Local",
                experiment: "ButtonColor",
                variant: "ButtonColorRed",
                key: "subscribeButtonColor",
                value: "red",
                reason: .displayed
            )
        ])
        try world.reload()
        #expect(world.state.rows[world.state.frame.cursor].target == before)
        #expect(world.state.rows.count > 1)
    }
}
