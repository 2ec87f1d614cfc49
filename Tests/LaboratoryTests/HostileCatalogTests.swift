import Foundation
import Testing

@testable import Laboratory

/// Catalogs built to be slow: decoding and serving them stays linear. The
/// time bounds only prove termination (about a hundred times what is needed).
@Suite struct HostileCatalogTests {
    private static func catalog(keys count: Int) -> String {
        let keys = (0..<count).map { "\"key\($0)\"" }.joined(separator: ",")
        func assignments(_ value: Int) -> String { (0..<count).map { "\"key\($0)\": \(value)" }.joined(separator: ",") }
        return """
            {"source": "Local", "experiments": [{"name": "Big", "keys": [\(keys)], "baseline": "A", "variants": [
              {"name": "A", "assignments": {\(assignments(1))}}, {"name": "B", "assignments": {\(assignments(2))}}]}]}
            """
    }

    @Test func anExperimentWithTwentyThousandKeysDecodesAndServesInLinearTime() throws {
        let text = Self.catalog(keys: 20_000)
        let clock = ContinuousClock()
        let start = clock.now
        let catalog = try Fixtures.decode(text)
        let world = try World([catalog])
        let snapshot = try world.manager.refresh()
        #expect(clock.now - start < .seconds(60))
        #expect(catalog.experiments[0].keys.count == 20_000)
        #expect(snapshot.assignments.count == 20_000)
    }

    @Test func anObjectWithThousandsOfUnknownMembersIsReportedInLinearTime() {
        let members = (0..<20_000).map { "\"junk\($0)\": 0" }.joined(separator: ",")
        let clock = ContinuousClock()
        let start = clock.now
        let problems = Fixtures.problems(#"{"source": "Local", "experiments": [{"name": "E", \#(members)}]}"#)
        #expect(clock.now - start < .seconds(30))
        #expect(problems.filter { $0.contains("unknown field") }.count == 20_000)
    }
}
