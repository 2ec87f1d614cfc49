import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

/// Inputs that grow: the work must grow with them, not with their square.
/// Each test times an input and one four times larger (the best of three
/// runs each) and allows eight times the time, not sixteen: a quadratic step
/// at these sizes takes seconds and fails at once, a linear one takes
/// milliseconds. Time is the thread's CPU time, so the rest of the suite
/// running beside it does not count (wall-clock time once measured 8.7× for
/// 4× of linear work with the whole suite running; alone, 4.3×). A
/// termination bound, not a speed goal.
@Suite(.serialized) struct ScalingTests {
    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = threadCPUTime()
            try work()
            best = min(best, threadCPUTime() - start)
        }
        return best
    }

    /// The CPU time this thread has used, in seconds.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `larger` (four times the input) over `single` as it should be for
    /// linear work; a floor of 5 ms keeps the noise of tiny timings out of the ratio.
    static func expectLinear(_ single: Double, _ larger: Double, _ what: String) {
        #expect(larger <= 8 * max(single, 0.005), "\(what): \(single) s, four times the input \(larger) s")
    }

    private func load(_ payload: String) throws -> GrowthBookSource {
        let store = InMemoryStateStore()
        let device = try store.device(candidate: Device(id: "d", token: ActiveExperimentsToken(0.5)))
        let source = GrowthBookSource(
            store: store,
            device: device,
            fetcher: PlainPayloadFetcher(InMemoryFetcher(Data(payload.utf8)))
        )
        try source.accept(Data(payload.utf8))
        return source
    }

    static func rule(variations count: Int, repeatedNames: Bool) -> String {
        let variations = (0..<count).map(String.init).joined(separator: ",")
        let weights = Array(repeating: "\(1.0 / Double(count))", count: count).joined(separator: ",")
        let meta = (0..<count).map { repeatedNames ? #"{"name": "Same"}"# : #"{"key": "v\#($0)"}"# }
        return #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [\#(variations)], "#
            + #""weights": [\#(weights)], "meta": [\#(meta.joined(separator: ","))]}]}}}"#
    }

    @Test(arguments: [false, true])
    func aRuleWithManyVariationsMapsInLinearTime(repeatedNames: Bool) throws {
        let small = Self.rule(variations: 8_000, repeatedNames: repeatedNames)
        let large = Self.rule(variations: 32_000, repeatedNames: repeatedNames)
        let source = try load(small)
        #expect(source.experiments.first?.variants.count == 8_000)
        #expect(Set(source.experiments.first?.variants.map(\.name) ?? []).count == 8_000)  // unique
        let single = try Self.seconds { _ = try load(small) }
        let larger = try Self.seconds { _ = try load(large) }
        Self.expectLinear(single, larger, "\(repeatedNames ? "repeated names" : "variations")")
    }

    @Test func repeatsOfANameGetTheFirstFreeNumber() {
        let names = ["A", "A", "A#2", "A", "B", "A"]
        let variants = names.map { Variant(name: $0, weight: 1, assignments: [:]) }
        #expect(GrowthBookExperiments.uniqueNames(variants).map(\.name) == ["A", "A#1", "A#2", "A#3", "B", "A#4"])
    }

    static func catalog(experiments count: Int) -> CatalogFile {
        let experiments = (0..<count).map {
            #"{"name": "E\#($0)", "keys": ["shared"], "baseline": "A", "variants": [{"name": "A", "assignments": {"shared": \#($0)}}]}"#
        }
        let text = #"{"source": "Local", "experiments": [\#(experiments.joined(separator: ",\n"))]}"#
        return CatalogFile(name: "many.json", contents: .success(Data(text.utf8)))
    }

    @Test func experimentsSharingOneKeyAreOneErrorCheckedInLinearTime() {
        let report = CatalogLinter().check(files: [Self.catalog(experiments: 1_000)])
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors.prefix(3))")
        #expect(errors.first?.message.hasPrefix("1000 experiments share key \"shared\"") == true)
        #expect(errors.first?.message.hasSuffix("and 992 more") == true)
        let small = Self.catalog(experiments: 2_000)
        let large = Self.catalog(experiments: 8_000)
        let single = Self.seconds { _ = CatalogLinter().check(files: [small]) }
        let larger = Self.seconds { _ = CatalogLinter().check(files: [large]) }
        Self.expectLinear(single, larger, "experiments sharing a key")
    }
}
