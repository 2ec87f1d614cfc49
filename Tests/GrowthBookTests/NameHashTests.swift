import Testing

@testable import GrowthBook

/// The hash every feature and attribute lookup starts with: it reads every
/// byte of a name, whole words and the bytes left over alike.
@Suite struct NameHashTests {
    /// The bytes after the last whole word, as one word, the first lowest.
    @Test func theTailIsTheBytesLeftOverInOrder() {
        let bytes: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        for count in 0...15 {
            let offset = count >= 8 ? 8 : 0
            let expected = bytes[offset..<count].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            bytes.prefix(count).withUnsafeBytes { raw in
                #expect(NameHash.tail(of: raw, from: offset) == expected, "\(count) bytes")
            }
        }
    }

    /// Changing any one byte of a name of up to 24 bytes changes its hash:
    /// no byte of a word or of the tail is left out.
    @Test func everyByteCounts() {
        for length in 1...24 {
            let name = String(repeating: "a", count: length)
            let hash = NameHash.of(name)
            for position in 0..<length {
                var bytes = Array(name.utf8)
                bytes[position] = UInt8(ascii: "b")
                let changed = String(decoding: bytes, as: UTF8.self)
                #expect(NameHash.of(changed) != hash, "\(changed)")
            }
            // The length counts too: a name and the same name with a zero byte more are two names.
            #expect(NameHash.of(name + "\u{0}") != hash)
        }
    }

    /// A name is ASCII when none of its bytes, in a word or in the tail, has the high bit set.
    @Test func asciiIsEveryByte() {
        for length in 1...20 {
            #expect(NameHash.key(of: String(repeating: "a", count: length)).isASCII)
            for position in 0..<length {
                let name =
                    String(repeating: "a", count: position) + "é" + String(repeating: "a", count: length - position)
                #expect(!NameHash.key(of: name).isASCII, "\(name)")
            }
        }
    }
}
