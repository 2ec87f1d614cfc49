import Foundation
import Testing

@testable import GrowthBook

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

    /// The section read once: how many rows the file has (a row of the
    /// wrong shape is counted, not dropped) and the cases they make.
    static let section: (rows: Int, cases: [Case]) = {
        guard let data = FileManager.default.contents(atPath: casesPath),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return (0, []) }
        let rows = (root["hash"] as? [Any])?.map { $0 as? [Any] ?? [] } ?? []
        let cases: [Case] = rows.compactMap { row in
            guard row.count == 4, let seed = row[0] as? String, let value = row[1] as? String,
                let version = row[2] as? Int
            else { return nil }
            return Case(seed: seed, value: value, version: version, expected: row[3] as? Double)
        }
        return (rows.count, cases)
    }()

    static var cases: [Case] { section.cases }

    /// A missing or empty section fails rather than running nothing; only the whole file missing skips.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: casesPath),
            "GrowthBook cases not found at ../shared/conformance/growthbook/cases.json"
        )
    )
    func theSectionIsThereAndEveryRowIsRead() {
        #expect(Self.section.rows > 0, "section \"hash\" is missing or empty in \(Self.casesPath)")
        #expect(
            Self.cases.count == Self.section.rows,
            "\(Self.section.rows - Self.cases.count) rows of \"hash\" have the wrong shape"
        )
    }

    @Test(arguments: cases)
    func matchesGrowthBook(_ testCase: Case) {
        let hash = GrowthBookHash.hash(seed: testCase.seed, value: testCase.value, version: testCase.version)
        if let expected = testCase.expected {
            #expect(hash.map { abs($0 - expected) < 1e-9 } == true, "got \(String(describing: hash))")
        } else {
            #expect(hash == nil)
        }
    }
}
