import Foundation
import GRDB
import GrowthBook
import Laboratory
import Testing

@testable import LaboratorySQLite

/// The active set's digest is stored in state files: a faster way of
/// computing it must give what earlier releases stored, or their first
/// refresh would read and compare every active row for nothing.
@Suite struct ActiveSetDigestTests {
    /// The digest as earlier releases computed it (up to commit 9600312).
    private static func earlierDigest(_ assignments: [Assignment]) -> String {
        var sum: UInt64 = 0
        for assignment in assignments {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for field in [
                assignment.source, assignment.experiment, assignment.variant, assignment.key,
                assignment.value.taggedText,
            ] {
                for byte in field.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
            }
            sum &+= hash
        }
        return "\(assignments.count):\(String(sum, radix: 16))"
    }

    @Test func theDigestIsTheOneEarlierReleasesStored() {
        let values: [AssignmentValue] = [
            "blue", "", "é\u{0301}👍🏽", "a\u{0}b", 12, 14.5, -0.0, 1e300, true, false,
            .json(.object([JSONValue.Member("a", .array([.null, .number(1)]))])),
        ]
        var assignments: [Assignment] = []
        for (index, value) in values.enumerated() {
            assignments.append(
                Assignment(
                    key: "key\(index)",
                    value: value,
                    experiment: "Exp\(index % 3)",
                    variant: "V",
                    source: "Local"
                )
            )
            #expect(ActiveSetDigest.of(assignments) == Self.earlierDigest(assignments), "with \(value)")
        }
        #expect(ActiveSetDigest.of([]) == Self.earlierDigest([]))
    }

    /// A swap after this store's own moves the digest by what changed; the
    /// file then holds the digest of its whole set, as any other process
    /// would compute it.
    @Test func aSwapMovesTheDigestByWhatChanged() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteStateStore(path: path)
        func set(_ variants: [String]) -> [Assignment] {
            variants.enumerated().map { index, variant in
                Assignment(
                    key: "k\(index)",
                    value: .string(variant),
                    experiment: "E\(index)",
                    variant: variant,
                    source: "Local"
                )
            }
        }
        func stored() throws -> String? {
            try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "SELECT activeDigest FROM file_state")
            }
        }
        let steps = [["A", "B", "C"], ["A", "X", "C"], ["A", "X"], ["A", "X", "C", "D"], ["A", "X", "C", "D"], []]
        for variants in steps {
            _ = try store.swapActiveAssignments(set(variants))
            #expect(try stored() == ActiveSetDigest.of(set(variants)), "after \(variants)")
        }
        // Another handle on the file (another process) finds nothing to change.
        #expect(try SQLiteStateStore(path: path).swapActiveAssignments([]).isEmpty)
    }

    @Test func anUpdatedDigestIsTheDigestOfTheNewSet() {
        let old = [Assignment(key: "a", value: "1", experiment: "E", variant: "V1", source: "S")]
        let new = [Assignment(key: "a", value: "2", experiment: "E", variant: "V2", source: "S")]
        let change = ActiveSetChange.between(old, new)
        #expect(ActiveSetDigest.updated(ActiveSetDigest.of(old), by: change) == ActiveSetDigest.of(new))
        #expect(ActiveSetDigest.updated("not a digest", by: change) == nil)
    }
}
