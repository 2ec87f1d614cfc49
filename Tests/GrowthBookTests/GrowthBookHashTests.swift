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
        expectKnownPartsHashAsJoined(seed: testCase.seed, value: testCase.value, version: testCase.version)
    }

    /// Hashing from a seed's and a value's known parts answers as hashing the joined text.
    private func expectKnownPartsHashAsJoined(
        seed: String,
        value: String,
        version: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let joined = GrowthBookHash.hash(seed: seed, value: value, version: version)
        let parts = GrowthBookHash.hash(
            seed: GrowthBookHash.Seed(seed),
            value: GrowthBookHash.HashedText(value),
            version: version
        )
        #expect(
            parts == joined,
            "hash(\"\(seed)\" (\(seed.utf8.count) bytes), \"\(value)\", v\(version))",
            sourceLocation: sourceLocation
        )
    }

    @Test func hashingFromKnownPartsAgreesOnGeneratedText() {
        let pieces = ["", "a", "id-", "user-42", "é", "ß", "日本", "🧪", "e\u{301}", "\u{0}", "__ns", "0x10"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seed = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let value = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            for version in 0...3 { expectKnownPartsHashAsJoined(seed: seed, value: value, version: version) }
        }
    }

    /// A short ASCII seed is hashed from its bytes kept in place, any other
    /// from its UTF-16 units: every length around the bound
    /// (``GrowthBookHash/Seed/shortCapacity``), ASCII or not, must hash as
    /// the joined text does.
    @Test func seedsOfEveryLengthAroundTheBoundHashAlike() {
        let bound = GrowthBookHash.Seed.shortCapacity
        var seeds: [String] = []
        for count in 0...(bound + 8) {
            let ascii = String((0..<count).map { Character(Unicode.Scalar(UInt8(0x21 + ($0 * 7) % 94))) })
            seeds.append(ascii)
            if count > 0 { seeds.append(String(ascii.dropLast()) + "é") }  // the last byte not ASCII
            if count > 1 { seeds.append("🧪" + ascii.dropFirst(2)) }  // an astral scalar first: two UTF-16 units
        }
        for seed in seeds {
            for value in ["", "user-42", "日本", "a-much-longer-value-than-the-seed-itself-0123456789"] {
                for version in 1...2 { expectKnownPartsHashAsJoined(seed: seed, value: value, version: version) }
            }
        }
    }

    /// A namespace compares a hash's bucket, an integer, with buckets found
    /// once: for every bucket, that must answer as comparing the hash
    /// (`bucket / 1000`) with the namespace's start and end does, for bounds
    /// on a bucket, between two, out of [0, 1], infinite and NaN.
    @Test func namespaceBucketsAnswerAsTheHashComparisonDoes() {
        var random = SystemRandomNumberGenerator()
        var bounds: [Double] = [0, 1, 0.5, 0.001, 0.999, 0.0005, 0.9995, -0.1, 1.5, .infinity, -.infinity, .nan]
        bounds += (0..<40).map { _ in Double(Int.random(in: 0...1000, using: &random)) / 1000 }
        bounds += (0..<40).map { _ in Double.random(in: -0.01...1.01, using: &random) }
        bounds += [0.1 + 0.2, 0.7 * 3 / 3, 1 / 3.0]
        var disagreements: [String] = []
        for start in bounds {
            for end in bounds {
                let namespace = BucketMath.Namespace(id: "ns", start: start, end: end)
                for bucket in 0..<GrowthBookHash.bucketsOfVersion1 {
                    let hash = GrowthBookHash.hash(bucket: bucket)
                    if namespace.buckets.contains(bucket) != (hash >= start && hash < end) {
                        disagreements.append("bucket \(bucket) in [\(start), \(end))")
                    }
                }
            }
        }
        // One expectation for the million comparisons, naming the first few that disagree.
        let disagreeing = disagreements.count
        #expect(disagreeing == 0, "first to disagree: \(disagreements.prefix(5))")
    }
}
