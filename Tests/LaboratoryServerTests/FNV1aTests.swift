import Testing

@testable import LaboratoryServer

/// The ETag hash: the same for the same text in every run, different when
/// any byte differs, in the eight-byte words and in the bytes after them.
@Suite struct FNV1aTests {
    private static func tag(_ text: String) -> String {
        var hash = FNV1a()
        hash.add(text)
        return hash.tag
    }

    @Test func aTagIsTheSameInEveryRun() {
        // Pinned, worked out by hand (FNV-1a's basis and prime, a word read
        // little-endian, then the 0xFF separator): a client's ETag must still
        // match after the server restarts.
        #expect(Self.tag("") == "\"af64724c8602eb6e\"")
        #expect(Self.tag("features") == "\"c6cb7cf1ae987992\"")
    }

    @Test func everyByteCountsWhereverItIs() {
        for length in 1...19 {
            let text = String(repeating: "a", count: length)
            var tags: Set<String> = [Self.tag(text)]
            for position in 0..<length {
                var bytes = Array(text.utf8)
                bytes[position] = UInt8(ascii: "b")
                tags.insert(Self.tag(String(decoding: bytes, as: UTF8.self)))
            }
            #expect(tags.count == length + 1, "a change at any of \(length) positions changes the tag")
        }
        // Fields hash apart wherever they are split.
        var (ab, a) = (FNV1a(), FNV1a())
        ab.add("ab")
        ab.add("c")
        a.add("a")
        a.add("bc")
        #expect(ab.tag != a.tag)
    }
}
