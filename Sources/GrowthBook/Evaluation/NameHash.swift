/// A hash of a name (a feature key, an attribute name) for the tables an
/// evaluation looks names up in: the name's UTF-8 bytes taken eight at a
/// time and mixed by multiplication, a few cycles for a short name where
/// FNV-1a spends one dependent multiplication per byte. It has no seed, so
/// names can be made to collide; the tables that use it bound their probes.
package enum NameHash {
    package static func of(_ name: String) -> UInt32 {
        let hash = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            let raw = UnsafeRawBufferPointer(bytes)
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < raw.count {
                var tail: UInt64 = 0
                for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
                hash = mix(hash ^ tail)
            }
            return hash
        }
        // A string without contiguous UTF-8 (bridged) is hashed by its units.
        guard let hash else { return GrowthBookHash.fnv32a(name) }
        return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }

    /// The hash of an ASCII name; `nil` for any other (see ``NameIndex``).
    package static func ascii(_ name: String) -> UInt32? {
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.reduce(0 as UInt8) { $0 | $1 } < 0x80
        }
        return ascii == true ? of(name) : nil
    }

    /// One round of a 64-bit mixer (SplitMix64's finalizer).
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ value >> 30) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ value >> 27) &* 0x94D0_49BB_1331_11EB
        return value ^ value >> 31
    }
}
