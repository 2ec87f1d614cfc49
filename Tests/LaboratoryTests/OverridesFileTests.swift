import Foundation
import Testing

@testable import Laboratory

/// Overrides files: version 2 names the list `forcedVariants`; version 1
/// files (`requests`) from earlier releases still read.
@Suite struct OverridesFileTests {
    let forced = [ForcedVariant(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")]

    @Test func aWrittenFileIsVersion2AndReadsBack() throws {
        let file = OverridesFile(attributes: ["userId": "qa-7"], forcedVariants: forced)
        let text = String(decoding: file.encoded(), as: UTF8.self)
        #expect(text.contains("\"forcedVariants\"") && text.contains("\"version\" : 2"), "\(text)")
        #expect(!text.contains("requests"))
        #expect(try OverridesFile(decoding: file.encoded(), file: "f.json") == file)
    }

    @Test func aVersion1FileStillReads() throws {
        let old =
            #"{"version": 1, "requests": [{"source": "Local", "experiment": "ButtonColor", "variant": "ButtonColorBlue"}]}"#
        let file = try OverridesFile(decoding: Data(old.utf8), file: "old.json")
        #expect(file.version == 1 && file.forcedVariants == forced)
        // Each version names its own list.
        let mixed = #"{"version": 2, "requests": []}"#
        #expect(throws: OverridesFile.Invalid.self) { try OverridesFile(decoding: Data(mixed.utf8), file: "m.json") }
        #expect {
            try OverridesFile(decoding: Data(mixed.utf8), file: "m.json")
        } throws: { String(describing: $0) == "m.json:1:1: missing \"forcedVariants\"" }
    }
}
