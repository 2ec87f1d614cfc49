/// A hash of a name (a feature key, an attribute name) for the tables an
/// evaluation looks names up in: the name's UTF-8 bytes taken eight at a
/// time, one multiplication each and one mix at the end, a few cycles for a
/// short name where FNV-1a spends one dependent multiplication per byte. It
/// has no seed, so names can be made to collide; the tables that use it
/// bound their probes.
package enum NameHash {
    /// The name's hash.
    package static func of(_ name: String) -> UInt32 {
        key(of: name).hash
    }

    /// The hash of an ASCII name; `nil` for any other (see ``NameIndex``).
    package static func ascii(_ name: String) -> UInt32? {
        let key = key(of: name)
        return key.isASCII ? key.hash : nil
    }

    /// The name's hash, and whether the name is ASCII (the tables compare
    /// two ASCII names with `==`, which then holds exactly for the same
    /// bytes; other names byte by byte), from one pass over its bytes.
    package static func key(of name: String) -> (hash: UInt32, isASCII: Bool) {
        // Every name is hashed from its bytes, as the tables place them.
        name.withUTF8Bytes(key(ofBytes:))
    }

    /// The hash of a name's UTF-8 bytes, and whether they are ASCII: what
    /// ``key(of:)`` returns for the name, for a caller already holding its bytes.
    @inline(__always)
    package static func key(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, isASCII: Bool) {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)
        var high: UInt64 = 0
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                high |= word
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
                offset += 8
            }
            // The last eight bytes, overlapping the word before when the count is not a multiple of eight.
            let last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            high |= last
            hash = (hash ^ last) &* 0xFF51_AFD7_ED55_8CCD
        } else {
            var tail: UInt64 = 0
            for index in 0..<count { tail = tail << 8 | UInt64(raw[index]) }
            high = tail
            hash = (hash ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        }
        let mixed = mix(hash)
        return (UInt32(truncatingIfNeeded: mixed ^ mixed >> 32), high & 0x8080_8080_8080_8080 == 0)
    }

    /// The end of SplitMix64: every bit of the result depends on every bit given.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ value >> 30) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ value >> 27) &* 0x94D0_49BB_1331_11EB
        return value ^ value >> 31
    }
}
