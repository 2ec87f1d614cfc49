import Laboratory

/// An order-independent digest of a set of assignments: FNV-1a of each
/// assignment, summed, with the count. Lets a refresh that changes nothing
/// skip reading every active row.
enum ActiveSetDigest {
    static func of(_ assignments: [Assignment]) -> String {
        var sum: UInt64 = 0
        for assignment in assignments {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for field in [
                assignment.source, assignment.experiment, assignment.variant, assignment.key,
                assignment.value.taggedText,
            ] {
                for byte in field.utf8 {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
            }
            sum &+= hash
        }
        return "\(assignments.count):\(String(sum, radix: 16))"
    }
}
