import Foundation
import LabTestSupport
import Laboratory
import Testing

/// `lab stabilize --undo`, as every store keeps it.
@Suite struct StabilizationUndoTests {
    @Test func undoForgetsTheStabilizationAndOnlyAChangeMovesTheRevision() throws {
        let scratch = try TemporaryFolder("lab-undo")
        for (name, store) in try ActiveSetExactnessTests.stores(in: scratch) {
            try store.stabilize(source: "Local", at: Date(timeIntervalSince1970: 1_800_000_000))
            #expect(try store.stabilization(source: "Local") != nil, "\(name)")
            let before = try store.revision()
            try store.unstabilize(source: "Local")
            #expect(try store.stabilization(source: "Local") == nil, "\(name)")
            #expect(try store.revision() > before, "\(name)")
            let after = try store.revision()
            try store.unstabilize(source: "Local")  // nothing to forget
            #expect(try store.revision() == after, "\(name)")
        }
    }
}
