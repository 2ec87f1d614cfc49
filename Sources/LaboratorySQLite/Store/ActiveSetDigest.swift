import Laboratory

/// An order-independent digest of a set of assignments: FNV-1a of each
/// assignment, summed, with the count. Lets a refresh that changes nothing
/// skip reading every active row.
enum ActiveSetDigest {
    static func of(_ assignments: [Assignment]) -> String {
        var sum: UInt64 = 0
        for assignment in assignments {
            // Field by field, the value as its tagged text: the digest files
            // of earlier releases hold, without an array or a string made per assignment.
            var hash = FieldHash()
            hash.add(assignment.source)
            hash.add(assignment.experiment)
            hash.add(assignment.variant)
            hash.add(assignment.key)
            if case .string(let text) = assignment.value {
                hash.add("s:", continuing: true)
                hash.add(text)
            } else {
                hash.add(assignment.value.taggedText)
            }
            sum &+= hash.value
        }
        return "\(assignments.count):\(String(sum, radix: 16))"
    }

    /// FNV-1a over fields, each followed by a 0xFF byte.
    private struct FieldHash {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325

        /// Adds the text's bytes, then the separator unless the field goes on.
        mutating func add(_ text: String, continuing: Bool = false) {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            if !continuing { value = (value ^ 0xFF) &* 0x0000_0100_0000_01B3 }
        }
    }
}
