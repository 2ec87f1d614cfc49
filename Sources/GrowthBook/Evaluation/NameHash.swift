/// A hash of a name (a feature key, an attribute name) for the tables an
/// evaluation looks names up in: the name's UTF-8 bytes taken eight at a
/// time, one multiplication each and one for the bytes left over, a few
/// cycles for a short name where FNV-1a spends one dependent multiplication
/// per byte. It has no seed, so names can be made to collide; the tables
/// that use it bound their probes.
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
    ///
    /// Each whole word, then the tail (``tail(of:from:)``), is folded in by
    /// one full-width multiplication (``fold(_:_:)``): two multiplications
    /// for a key of 8 to 15 bytes, where each word's multiplication and the
    /// two of SplitMix64's end made four, each waiting for the one before
    /// (a fifth of a feature's lookup).
    @inline(__always)
    package static func key(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, isASCII: Bool) {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var high: UInt64 = 0
        var offset = 0
        while count - offset >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            high |= word
            hash = fold(hash ^ word, 0xFF51_AFD7_ED55_8CCD)
            offset += 8
        }
        let last = tail(of: raw, from: offset)
        high |= last
        hash = fold(hash ^ last, 0xC4CE_B9FE_1A85_EC53)
        return (UInt32(truncatingIfNeeded: hash ^ hash >> 32), high & 0x8080_8080_8080_8080 == 0)
    }

    /// The bytes of `raw` from `offset` on, fewer than eight, as one word
    /// (the first in its lowest byte), read four, two and one at a time.
    /// Not the last eight bytes read at once, overlapping the word before:
    /// a short key's bytes are a copy on the stack, written as two words,
    /// and a read across both waited for the writes to reach the cache.
    @inline(__always)
    static func tail(of raw: UnsafeRawBufferPointer, from offset: Int) -> UInt64 {
        let length = raw.count - offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var at = offset
        if length & 4 != 0 {
            value = UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            (shift, at) = (32, at + 4)
        }
        if length & 2 != 0 {
            value |= UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)) << shift
            (shift, at) = (shift + 16, at + 2)
        }
        if length & 1 != 0 { value |= UInt64(raw.load(fromByteOffset: at, as: UInt8.self)) << shift }
        return value
    }

    /// The 128-bit product of `value` and `factor`, its two halves xored:
    /// the high half mixes every bit of `value` into all of its own, and the
    /// xor brings them into the low bits a table's slot is cut from.
    @inline(__always)
    private static func fold(_ value: UInt64, _ factor: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: factor)
        return product.high ^ product.low
    }
}
