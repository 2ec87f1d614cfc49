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
}
