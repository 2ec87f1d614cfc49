import Foundation
import LabFuzzTargets
import Testing

/// Every input in `Tests/Fuzz/Corpus/<target>/`, seeds and the inputs that
/// once crashed (`crash-*`), run through its fuzz target: none may trap.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    static var inputs: [String] {
        FuzzTargets.all.keys.sorted().flatMap { target in
            let folder = corpus.appendingPathComponent(target)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return files.sorted().map { "\(target)/\($0)" }
        }
    }

    @Test func everyTargetHasSeeds() {
        for target in FuzzTargets.all.keys {
            #expect(Self.inputs.contains { $0.hasPrefix(target + "/") }, "no corpus for \(target)")
        }
    }

    @Test(arguments: inputs)
    func replays(_ input: String) throws {
        let target = try #require(FuzzTargets.all[String(input.prefix { $0 != "/" })])
        target(try Data(contentsOf: Self.corpus.appendingPathComponent(input)))
    }
}
