/// How a JavaScript regular expression with the `i` flag and without `u`
/// compares units: by ECMAScript's Canonicalize, the unit's uppercase when
/// that is a single unit and does not turn a non-ASCII unit into an ASCII
/// one. So `ß` (uppercase `SS`) matches only itself, `ſ` does not match `s`,
/// and `σ` and `ς` both match `Σ`.
enum RegexCaseFolding {
    /// Canonicalize of every unit, built on first use from the few units
    /// whose uppercase differs.
    static let canonical: [UInt16] = {
        var table = (0...0xFFFF).map { UInt16($0) }
        for unit in 0...0xFFFF {
            guard let scalar = Unicode.Scalar(UInt32(unit)), scalar.properties.changesWhenUppercased else { continue }
            let upper = Array(scalar.properties.uppercaseMapping.utf16)
            guard upper.count == 1 else { continue }
            if unit >= 128 && upper[0] < 128 { continue }
            table[unit] = upper[0]
        }
        return table
    }()

    /// The units that share a canonical unit with others, by that unit: what
    /// a class must be searched for, as `[a-z]` matches `K` under `i`.
    static let equivalents: [UInt16: [UInt16]] = {
        var groups: [UInt16: [UInt16]] = [:]
        for unit in 0...0xFFFF where canonical[unit] != UInt16(unit) {
            groups[canonical[unit], default: [canonical[unit]]].append(UInt16(unit))
        }
        return groups
    }()

    /// Whether `unit` matches `set` case-insensitively: some unit that
    /// canonicalizes as it does is in the set.
    static func set(_ set: RegexUnitSet, containsFolded unit: UInt16) -> Bool {
        if set.contains(unit) { return true }
        guard let group = equivalents[canonical[Int(unit)]] else { return false }
        return group.contains { set.contains($0) }
    }
}
