/// A set of UTF-16 units as sorted, disjoint, non-adjacent ranges: a
/// character class (`[a-z\d]`) or a class escape (`\w`).
struct RegexUnitSet: Equatable, Sendable {
    /// Sorted by lower bound; no two overlap or touch.
    private(set) var ranges: [ClosedRange<UInt16>]

    init(_ ranges: [ClosedRange<UInt16>] = []) {
        self.ranges = []
        for range in ranges { insert(range) }
    }

    /// `\d`: the ASCII digits.
    static let digits = RegexUnitSet([0x30...0x39])
    /// `\w`: ASCII letters, digits and `_` (without the `u` flag, whatever the case flag).
    static let wordUnits = RegexUnitSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: JavaScript's WhiteSpace and LineTerminator.
    static let whiteSpace = RegexUnitSet([
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    /// What `.` does not match: the line terminators.
    static let lineTerminators = RegexUnitSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029])

    mutating func insert(_ range: ClosedRange<UInt16>) {
        var lower = range.lowerBound
        var upper = range.upperBound
        var kept: [ClosedRange<UInt16>] = []
        kept.reserveCapacity(ranges.count + 1)
        var placed = false
        for existing in ranges {
            // Disjoint and not touching: keep it where it is.
            if Int(existing.upperBound) + 1 < Int(lower) {
                kept.append(existing)
            } else if Int(upper) + 1 < Int(existing.lowerBound) {
                if !placed {
                    kept.append(lower...upper)
                    placed = true
                }
                kept.append(existing)
            } else {
                lower = min(lower, existing.lowerBound)
                upper = max(upper, existing.upperBound)
            }
        }
        if !placed { kept.append(lower...upper) }
        ranges = kept
    }

    mutating func formUnion(_ other: RegexUnitSet) {
        for range in other.ranges { insert(range) }
    }

    /// Every unit not in the set.
    var complement: RegexUnitSet {
        var result: [ClosedRange<UInt16>] = []
        var next: Int = 0
        for range in ranges {
            if Int(range.lowerBound) > next { result.append(UInt16(next)...(range.lowerBound - 1)) }
            next = Int(range.upperBound) + 1
        }
        if next <= 0xFFFF { result.append(UInt16(next)...0xFFFF) }
        return RegexUnitSet(result)
    }

    func contains(_ unit: UInt16) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < unit {
                low = middle + 1
            } else if ranges[middle].lowerBound > unit {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}
