import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// Every screen as a whole, at the smallest size the console runs in and at
/// a roomy one, compared with the files under `Snapshots/` (which double as
/// the README's captures).
@Suite struct ScreenSnapshotTests {
    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40)]

    /// A named way to bring the console to a screen.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var setUp: @Sendable (TerminalSize) async throws -> ConsoleWorld

        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "main") { try ConsoleWorld.demo(size: $0) },
        Scenario(name: "experiments") { size in
            let world = try ConsoleWorld.demo(size: size)
            try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
            try world.reload()
            world.press(.enter, .down, .down, .down)
            return world
        },
        Scenario(name: "experiments-flags") { size in
            let world = try ConsoleWorld(Fixtures.flagged, size: size)
            try world.debug.force(variant: "On", of: "Banner", in: "Remote")
            try world.reload()
            world.press(.enter)
            return world
        },
        Scenario(name: "variants") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.enter, .down, .down, .down, .down, .down, .enter, .down)
            return world
        },
        Scenario(name: "detail-wide") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.enter, .down, .character("p"))
            return world
        },
        Scenario(name: "filter") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.enter, .character("/"))
            world.type("pagecount")
            return world
        },
        Scenario(name: "help") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.enter, .character("?"))
            return world
        },
        Scenario(name: "confirm") { size in
            let world = try ConsoleWorld.demo(size: size)
            try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
            try world.reload()
            world.press(.character("r"))
            return world
        },
        Scenario(name: "too-small") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.send(.resize(TerminalSize(columns: size.columns / 2, rows: size.rows / 2)))
            return world
        },
        Scenario(name: "events") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.down, .down, .enter)
            return world
        },
        Scenario(name: "event-detail") { size in
            let world = try ConsoleWorld.demo(size: size)
            try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor", tester: "ana")
            try world.reload()
            _ = try world.manager.report(key: "subscribeButtonColor", reason: .displayed)
            try world.reload()
            world.press(.down, .down, .enter, .enter)
            return world
        },
        Scenario(name: "detail-scrolled") { size in
            let world = try ConsoleWorld.demo(size: size)
            world.press(.enter, .down, .down, .down, .down, .down, .enter, .down, .tab, .pageDown)
            return world
        },
        Scenario(name: "settings") { size in
            let world = try ConsoleWorld.demo(
                size: size,
                server: {
                    ConsoleData.ServerInfo(
                        url: "http://127.0.0.1:3100",
                        openStreams: 1,
                        requestsLastMinute: 12,
                        lastClient: "127.0.0.1:50412"
                    )
                },
                schedules: { ["Local": FetchSchedule(next: Date(timeIntervalSince1970: 1_800_000_030), interval: 30)] }
            )
            world.press(.end, .up, .enter)
            return world
        },
        Scenario(name: "attributes") { size in
            let world = try ConsoleWorld([], size: size, growthBook: AttributesScreenTests.payload)
            try world.store.setStoredAttributes(["country": "FR"])
            try world.reload()
            world.press(.down, .down, .down, .enter, .down, .down, .down, .enter)
            world.type("pro")
            return world
        },
        Scenario(name: "hostile-names") { size in
            let world = try ConsoleWorld(Fixtures.hostile, size: size)
            world.press(.enter, .down)
            return world
        },
    ]

    @Test(arguments: scenarios)
    func screen(_ scenario: Scenario) async throws {
        for size in Self.sizes {
            let world = try await scenario.setUp(size)
            assertSnapshot(world.lines, named: "\(scenario.name).\(size.columns)x\(size.rows)")
        }
    }

    /// The capture at the top of the README is the 80×24 experiments snapshot.
    @Test func theReadmeShowsTheExperimentsSnapshot() throws {
        let root = Snapshot.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```\n")
        #expect(blocks.count > 2)
        let capture = blocks[1]
        let snapshot = try String(
            contentsOf: Snapshot.folder.appendingPathComponent("experiments.80x24.txt"),
            encoding: .utf8
        )
        #expect(capture == snapshot, "README's first capture:\n\(capture)")
    }

    enum Fixtures {
        /// Every flag the list has: forced, conflict, stale-free resolved and whitelisted.
        static let flagged = [
            Catalog(
                source: "Local",
                experiments: [
                    Experiment(
                        name: "Checkout",
                        keys: ["checkoutFlow"],
                        variants: [
                            Variant(name: "CheckoutClassic", assignments: ["checkoutFlow": "classic"]),
                            Variant(name: "CheckoutOnePage", assignments: ["checkoutFlow": "onePage"]),
                        ],
                        baseline: "CheckoutClassic",
                        winner: "CheckoutOnePage"
                    ),
                    Experiment(
                        name: "Banner",
                        keys: ["bannerShown"],
                        variants: [
                            Variant(name: "Off", assignments: ["bannerShown": false]),
                            Variant(name: "On", assignments: ["bannerShown": true]),
                        ],
                        baseline: "Off",
                        whitelist: ["device-1": "Off"]
                    ),
                ]
            ),
            Catalog(
                source: "Remote",
                experiments: [
                    Experiment(
                        name: "Banner",
                        keys: ["bannerShown"],
                        variants: [
                            Variant(name: "Off", assignments: ["bannerShown": false]),
                            Variant(name: "On", assignments: ["bannerShown": true]),
                        ],
                        baseline: "Off"
                    )
                ]
            ),
        ]

        /// Names a catalog may hold that a terminal must not take as commands, and wide ones.
        static let hostile = [
            Catalog(
                source: "Local",
                experiments: [
                    Experiment(
                        name: "Clear\u{1B}[2JScreen",
                        keys: ["k1"],
                        variants: [
                            Variant(name: "Bell\u{7}", assignments: ["k1": "\u{1B}]0;title\u{7}"]),
                            Variant(name: "Plain", assignments: ["k1": "plain"]),
                        ],
                        baseline: "Plain"
                    ),
                    Experiment(
                        name: "家族👨‍👩‍👧‍👦Test",
                        keys: ["k2"],
                        variants: [
                            Variant(name: "👍🏽", assignments: ["k2": "e\u{301}"]),
                            Variant(name: "🇳🇿", assignments: ["k2": "nz"]),
                        ],
                        baseline: "🇳🇿"
                    ),
                    Experiment(
                        name: String(repeating: "VeryLongExperimentName", count: 4),
                        keys: ["k3"],
                        variants: [
                            Variant(name: "A", assignments: ["k3": 1]),
                            Variant(name: "B", assignments: ["k3": 2]),
                        ],
                        baseline: "A"
                    ),
                ]
            )
        ]
    }
}
