import Laboratory

/// An order-independent digest of a set of assignments: FNV-1a of each
/// assignment, summed, with the count. Lets a refresh that changes nothing
/// skip reading every active row.
///
/// A sum, so a change moves it by what entered and what left alone
/// (``updated(_:by:)``): one force among 20,000 assignments hashes two.
enum ActiveSetDigest {
    static func of(_ assignments: [Assignment]) -> String {
        var sum: UInt64 = 0
        for index in assignments.indices { sum &+= hash(assignments[index]) }
        return text(count: assignments.count, sum: sum)
    }

    /// The digest of the set `digest` stands for, after `change`; `nil`
    /// for a digest this release did not write.
    static func updated(_ digest: String, by change: ActiveSetChange) -> String? {
        let parts = digest.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[0]), let sum = UInt64(parts[1], radix: 16) else { return nil }
        var updated = sum
        for assignment in change.entered { updated &+= hash(assignment) }
        for assignment in change.left { updated &-= hash(assignment) }
        return text(count: count + change.entered.count - change.left.count, sum: updated)
    }

    private static func text(count: Int, sum: UInt64) -> String {
        "\(count):\(String(sum, radix: 16))"
    }

    /// One assignment's hash: field by field, the value as its tagged text,
    /// as the digests in files of earlier releases were made, without an
    /// array or a string made per assignment.
    private static func hash(_ assignment: Assignment) -> UInt64 {
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
        return hash.value
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
