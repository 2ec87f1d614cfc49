/// FNV-1a, 64 bits: the hash behind `lab serve`'s ETags, the same in every
/// process and every run (Swift's `Hasher` is seeded anew per process, and
/// a client's ETag must still match after the server restarts).
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Adds the text's UTF-8 bytes, then a separator no text holds, so
    /// that `"ab", "c"` and `"a", "bc"` hash apart.
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        value = (value ^ 0xFF) &* 0x0000_0100_0000_01B3
    }

    /// The hash as a strong ETag: hexadecimal digits, quoted.
    var tag: String { "\"" + String(value, radix: 16) + "\"" }
}
