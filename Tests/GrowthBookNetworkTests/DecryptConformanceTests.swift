import Foundation
import Testing

@testable import GrowthBookNetwork

/// GrowthBook's `decrypt` cases from `../shared/conformance/growthbook/cases.json`.
@Suite struct DecryptConformanceTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/growthbook/cases.json").path

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var encrypted: String
        var key: String
        var expected: String?
        var testDescription: String { name }
    }

    /// The section read once: how many rows the file has (a row of the
    /// wrong shape is counted, not dropped) and the cases they make.
    static let section: (rows: Int, cases: [Case]) = {
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return (0, []) }
        let rows = (root["decrypt"] as? [Any])?.map { $0 as? [Any] ?? [] } ?? []
        let cases: [Case] = rows.compactMap { row in
            guard row.count == 4, let name = row[0] as? String, let encrypted = row[1] as? String,
                let key = row[2] as? String
            else { return nil }
            return Case(name: name, encrypted: encrypted, key: key, expected: row[3] as? String)
        }
        return (rows.count, cases)
    }()

    static var cases: [Case] { section.cases }

    /// A missing or empty section fails rather than running nothing; only the whole file missing skips.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: path),
            "GrowthBook cases not found at ../shared/conformance/growthbook/cases.json"
        )
    )
    func theSectionIsThereAndEveryRowIsRead() {
        #expect(Self.section.rows > 0, "section \"decrypt\" is missing or empty in \(Self.path)")
        #expect(
            Self.cases.count == Self.section.rows,
            "\(Self.section.rows - Self.cases.count) rows of \"decrypt\" have the wrong shape"
        )
    }

    @Test(arguments: cases)
    func decrypt(_ testCase: Case) {
        let result = try? PayloadDecryption.decrypt(testCase.encrypted, key: testCase.key)
        #expect(result == testCase.expected)
    }
}
