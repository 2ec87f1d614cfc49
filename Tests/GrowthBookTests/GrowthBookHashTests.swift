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

    /// The evaluator hashes from a seed's units and a value's state, known
    /// ahead; it must answer as hashing the joined text does, for every version.
    @Test(arguments: cases)
    func theCaseHashesAlikeFromKnownParts(_ testCase: Case) {
        let joined = GrowthBookHash.hash(seed: testCase.seed, value: testCase.value, version: testCase.version)
        let parts = GrowthBookHash.hash(
            seed: GrowthBookHash.Seed(testCase.seed),
            value: GrowthBookHash.HashedText(testCase.value),
            version: testCase.version
        )
        #expect(parts == joined)
    }

    @Test func hashingFromKnownPartsAgreesOnGeneratedText() {
        let pieces = ["", "a", "id-", "user-42", "é", "ß", "日本", "🧪", "e\u{301}", "\u{0}", "__ns", "0x10"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seed = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let value = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            for version in 0...3 {
                let joined = GrowthBookHash.hash(seed: seed, value: value, version: version)
                let parts = GrowthBookHash.hash(
                    seed: GrowthBookHash.Seed(seed),
                    value: GrowthBookHash.HashedText(value),
                    version: version
                )
                #expect(parts == joined, "hash(\"\(seed)\", \"\(value)\", v\(version))")
            }
        }
    }
}
