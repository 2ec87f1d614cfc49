import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

/// The fast catalog reader and the positioned one take the same catalogs,
/// as the same model: every rule broken one at a time, and random edits.
@Suite struct CatalogFastReaderTests {
    /// A catalog that uses every field a catalog may have.
    private static let sound = """
        {"source": "Local", "experiments": [
          {"name": "ButtonColor", "keys": ["buttonColor", "buttonSize"], "activeTokenRange": [0.1, 0.6],
           "baseline": "Red", "whitelist": {"employee-1": "Blue"}, "variants": [
            {"name": "Red", "weight": 2, "assignments": {"buttonColor": "red", "buttonSize": 12}},
            {"name": "Blue", "assignments": {"buttonColor": "blue", "buttonSize": 14.5}}]},
          {"name": "Onboarding", "keys": ["onboarding"], "subject": "user", "bucketing": "hash",
           "status": "resolved", "winner": "Short", "baseline": "Long", "variants": [
            {"name": "Long", "assignments": {"onboarding": false}},
            {"name": "Short", "assignments": {"onboarding": true}}]},
          {"name": "Search", "keys": ["search"], "status": "running", "subject": "device", "bucketing": "random",
           "baseline": "Off", "variants": [{"name": "Off", "weight": 0.5, "assignments": {"search": "off"}}]}]}
        """

    /// One rule broken at a time: each replaces the first `of` with `with`.
    private static let edits: [(of: String, with: String)] = [
        (#""source": "Local""#, #""source": """#),
        (#""source": "Local""#, #""source": 1"#),
        (#""source": "Local", "#, ""),
        (#""source": "Local""#, #""source": "Local", "extra": 1"#),
        (#""source": "Local""#, #""source": "Local", "source": "Other""#),
        (#""experiments": ["#, #""experiments": {"a": ["#),
        (#""name": "ButtonColor""#, #""name": """#),
        (#""name": "ButtonColor""#, #""name": "Onboarding""#),
        (#""name": "ButtonColor""#, #""name": "ButtonColor", "wieght": 1"#),
        (#""name": "ButtonColor""#, #""name": "ButtonColor", "name": "Again""#),
        (#""keys": ["buttonColor", "buttonSize"]"#, #""keys": []"#),
        (#""keys": ["buttonColor", "buttonSize"]"#, #""keys": ["buttonColor", "buttonColor"]"#),
        (#""keys": ["buttonColor", "buttonSize"]"#, #""keys": ["buttonColor", ""]"#),
        (#""keys": ["buttonColor", "buttonSize"]"#, #""keys": ["buttonColor", 2]"#),
        (#""keys": ["buttonColor", "buttonSize"]"#, #""keys": "buttonColor""#),
        ("[0.1, 0.6]", "[0.6, 0.1]"),
        ("[0.1, 0.6]", "[0.1, 1.5]"),
        ("[0.1, 0.6]", "[-0.1, 0.6]"),
        ("[0.1, 0.6]", "[0.1]"),
        ("[0.1, 0.6]", #"[0.1, "0.6"]"#),
        ("[0.1, 0.6]", "[0, 1]"),
        (#""baseline": "Red""#, #""baseline": "Green""#),
        (#""baseline": "Red", "#, ""),
        (#""employee-1": "Blue""#, #""employee-1": "Green""#),
        (#""employee-1": "Blue""#, #""employee-1": 1"#),
        (#""whitelist": {"employee-1": "Blue"}"#, #""whitelist": ["Blue"]"#),
        (#""whitelist": {"employee-1": "Blue"}"#, #""whitelist": {"a": "Blue", "a": "Red"}"#),
        (#""weight": 2"#, #""weight": 0"#),
        (#""weight": 2"#, #""weight": -1"#),
        (#""weight": 2"#, #""weight": "2""#),
        (#""weight": 2"#, #""weight": 2e-300"#),
        (#""buttonSize": 12}"#, "}"),
        (#""buttonSize": 12}"#, #""buttonSize": 12, "other": 1}"#),
        (#""buttonSize": 12}"#, #""buttonSize": 12, "buttonSize": 13}"#),
        (#""buttonSize": 12}"#, #""buttonSize": null}"#),
        (#""buttonSize": 12}"#, #""buttonSize": [12]}"#),
        (#""name": "Blue""#, #""name": "Red""#),
        (#""name": "Blue""#, #""name": """#),
        (#""name": "Blue""#, #""name": "Blue", "color": "blue""#),
        (#""subject": "user""#, #""subject": "team""#),
        (#""subject": "user", "bucketing": "hash""#, #""subject": "user", "bucketing": "random""#),
        (#""subject": "user", "bucketing": "hash""#, #""subject": "user""#),
        (#""bucketing": "hash""#, #""bucketing": true"#),
        (#""status": "resolved""#, #""status": "done""#),
        (#""status": "resolved", "#, ""),
        (#""winner": "Short", "#, ""),
        (#""winner": "Short""#, #""winner": "Medium""#),
        (#""winner": "Short""#, #""winner": 1"#),
        (#""status": "running""#, #""status": "running", "winner": "Off""#),
        (#"[{"name": "Off", "weight": 0.5, "assignments": {"search": "off"}}]"#, "[]"),
        (#""assignments": {"search": "off"}"#, #""assignments": ["off"]"#),
        (#""Short", "assignments": {"onboarding": true}}"#, #""Short", "assignments": {"onboarding": true}}, 1"#),
        (#"{"source""#, #"\#u{FEFF}{"source""#),
        ("\"red\"", #""r\u00e9d""#),
        ("\"red\"", "\"re\\u0000d\""),
    ]

    private static func agree(_ text: String, _ label: String) throws {
        let data = Data(text.utf8)
        let fast = try? CatalogDecoder().decode(data, file: "c.json")
        let located = try? CatalogDecoder().decodeLocated(data, file: "c.json")
        #expect((fast == nil) == (located == nil), "\(label): \(fast == nil ? "fast refused" : "fast took") it")
        #expect(fast == located?.catalog, "\(label)")
    }

    @Test func theSoundCatalogIsReadAlikeWithEveryField() throws {
        let fast = try #require(CatalogFastReader.read(Self.sound))
        let located = try CatalogDecoder().decodeLocated(Data(Self.sound.utf8), file: "c.json")
        #expect(fast == located.catalog)
        #expect(fast.experiments.map(\.name) == ["ButtonColor", "Onboarding", "Search"])
        #expect(fast.experiments[1].winner == "Short" && fast.experiments[1].subject == .user)
    }

    @Test(arguments: edits.indices) func eachBrokenRuleIsRefusedByBoth(_ index: Int) throws {
        let edit = Self.edits[index]
        let text = try #require(
            Self.sound.range(of: edit.of).map { Self.sound.replacingCharacters(in: $0, with: edit.with) }
        )
        try Self.agree(text, "\(edit.of) → \(edit.with)")
    }

    /// Random edits of the sound catalog (a byte dropped, doubled or
    /// changed, a span cut), from a fixed seed.
    @Test func randomEditsAreReadAlike() throws {
        let random = SeededRandomSource(seed: 0x5EED_CA7A)
        func below(_ count: Int) -> Int { min(count - 1, Int(random.nextUnit() * Double(count))) }
        let bytes = Array(Self.sound.utf8)
        let alphabet = Array(#"{}[]":, 0123456789.-eE"abtrufnl\"#.utf8)
        for round in 0..<3_000 {
            var edited = bytes
            for _ in 0...(round % 3) {
                let at = below(edited.count)
                switch below(4) {
                case 0: edited.remove(at: at)
                case 1: edited.insert(edited[at], at: at)
                case 2: edited[at] = alphabet[below(alphabet.count)]
                default: edited.removeSubrange(at..<min(edited.count, at + below(24)))
                }
                if edited.isEmpty { edited = [UInt8(ascii: "{")] }
            }
            try Self.agree(String(decoding: edited, as: UTF8.self), "round \(round)")
        }
    }

    /// The ASCII check finds a byte past ASCII wherever it is, eight at a
    /// time in contiguous bytes and one by one in others.
    @Test func theASCIICheckFindsAHighByteAnywhere() {
        for count in 0..<24 {
            let plain = Data(repeating: 0x41, count: count)
            #expect(CatalogFastReader.isASCII(plain))
            #expect(CatalogFastReader.isASCII(plain.lazy.map { $0 }))
            for position in 0..<count {
                var high = plain
                high[position] = 0x80 | UInt8(position)
                #expect(!CatalogFastReader.isASCII(high), "a high byte at \(position) of \(count)")
                #expect(!CatalogFastReader.isASCII(Array(high)))
                #expect(!CatalogFastReader.isASCII(high.lazy.map { $0 }))
            }
        }
    }
}
