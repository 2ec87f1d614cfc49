import Foundation
import Testing

@testable import Laboratory

/// GrowthBook's own hash cases (`../shared/conformance/growthbook/cases.json`),
/// so hash bucketing agrees with GrowthBook's SDKs.
@Suite struct GrowthBookHashTests {
    static let casesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "shared/conformance/growthbook/cases.json"
        ).path

    struct Case: CustomTestStringConvertible, Sendable {
        var seed: String
        var value: String
        var version: Int
        var expected: Double?
        var testDescription: String { "hash(\"\(seed)\", \"\(value)\", v\(version))" }
    }

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: casesPath),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let rows = root["hash"] as? [[Any]]
        else { return [] }
        return rows.compactMap { row in
            guard row.count == 4, let seed = row[0] as? String, let value = row[1] as? String,
                let version = row[2] as? Int
            else { return nil }
            return Case(seed: seed, value: value, version: version, expected: row[3] as? Double)
        }
    }()

    @Test(
        .enabled(if: !cases.isEmpty, "GrowthBook cases not found at ../shared/conformance/growthbook/cases.json"),
        arguments: cases
    )
    func matchesGrowthBook(_ testCase: Case) {
        let hash = HashBucketing.hash(seed: testCase.seed, value: testCase.value, version: testCase.version)
        if let expected = testCase.expected {
            #expect(hash.map { abs($0 - expected) < 1e-9 } == true, "got \(String(describing: hash))")
        } else {
            #expect(hash == nil)
        }
    }
}
