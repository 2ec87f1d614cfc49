/// A version as its numeric fields, for the versions whose padded form
/// (``Version``) orders as those fields do: one to five digits a part,
/// split by `.` or `-`. Each part pads to five units, spaces then digits,
/// so two such versions with as many parts compare field by field, and a
/// field orders first by its number of digits (more leading spaces sort
/// lower), then by its digits. Both then end in `-~`, or neither does.
///
/// A user's `1.3.0` is read into fields once per context
/// (``AttributeFacts``), where producing its padded form unit by unit for
/// every rule that tests it (``Version/order(of:comparedTo:)``) took a sixth
/// of an experiment rule's evaluation. Any other pair of versions takes that
/// longer way.
enum VersionFields {
    /// A field's key: its digit count, then its value (the digits, at most five, read as a number).
    private static func key(digits: Int, value: UInt32) -> UInt32 { UInt32(digits) << 17 | value }

    /// The fields of an already padded version (``Version/paddedUnits(_:)``),
    /// and how many; `nil` unless every part is five units of spaces and
    /// then digits, with `-~` after exactly three of them, and there are at
    /// most ``maximumParts``: a version of more parts never orders against a
    /// user's by fields, so it needs none.
    static func fields(padded: [UInt16]) -> (fields: SIMD4<UInt32>, count: Int)? {
        // "~" after the last "-", or not at all.
        let tilde = padded.count >= 2 && padded[padded.count - 1] == 0x7E && padded[padded.count - 2] == 0x2D
        let end = tilde ? padded.count - 2 : padded.count
        // Parts of five units, each followed by "-" but the last.
        guard end % 6 == 5, tilde == (end == 17), (end + 1) / 6 <= maximumParts else { return nil }
        var fields = SIMD4<UInt32>()
        var count = 0
        var start = 0
        while start < end {
            guard start + 5 == end || padded[start + 5] == 0x2D else { return nil }
            var digits = 0
            var value: UInt32 = 0
            for unit in padded[start..<start + 5] {
                if unit == 0x20, digits == 0 { continue }  // the padding
                guard unit >= 0x30, unit <= 0x39 else { return nil }
                digits += 1
                value = value * 10 + UInt32(unit - 0x30)
            }
            guard digits > 0 else { return nil }  // spaces alone
            fields[count] = key(digits: digits, value: value)
            count += 1
            start += 6
        }
        return (fields, count)
    }

    /// The most parts a user's version may have to be read as fields (`1.2.3.4`).
    static let maximumParts = 4

    /// The fields of the version in `bytes`, and how many there are: `nil`
    /// when a part is not one to five digits (a `+build`, a pre-release, an
    /// empty part) or there are more than ``maximumParts``.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (fields: SIMD4<UInt32>, count: Int)? {
        var index = bytes.first == 0x76 ? 1 : 0  // a leading "v" is dropped
        var fields = SIMD4<UInt32>()
        var count = 0
        while true {
            var digits = 0
            var value: UInt32 = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, digits <= 5 {
                value = value &* 10 &+ UInt32(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 5, count < maximumParts else { return nil }
            fields[count] = key(digits: digits, value: value)
            count += 1
            if index == bytes.count { return (fields, count) }
            guard bytes[index] == 0x2E || bytes[index] == 0x2D else { return nil }  // "." or "-"
            index += 1
        }
    }

    /// How a parsed version orders against `expected` (its first
    /// `expectedCount` fields), as their padded forms would: -1, 0 or 1;
    /// `nil` when they have different numbers of fields.
    static func order(
        _ fields: SIMD4<UInt32>,
        count: Int,
        against expected: SIMD4<UInt32>,
        count expectedCount: Int
    ) -> Int? {
        guard count == expectedCount else { return nil }
        for index in 0..<count where fields[index] != expected[index] {
            return fields[index] < expected[index] ? -1 : 1
        }
        return 0
    }
}
