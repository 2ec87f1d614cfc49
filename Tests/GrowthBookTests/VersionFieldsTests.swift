import Testing

@testable import GrowthBook

/// Versions compared field by field order exactly as their padded strings
/// do, and the pairs they cannot answer are left to the padded comparison.
struct VersionFieldsTests {
    /// How `actual` orders against `expected` by fields; `nil` where they cannot tell.
    private static func order(_ actual: String, against expected: (fields: SIMD4<UInt32>, count: Int)) -> Int? {
        var text = actual
        guard let parsed = text.withUTF8(VersionFields.parse) else { return nil }
        return VersionFields.order(parsed.fields, count: parsed.count, against: expected.fields, count: expected.count)
    }

    /// Every pair of the listed versions and of generated ones (one to four
    /// parts of one to six digits, leading zeros, both separators, a `v`).
    @Test func ordersAsThePaddedStringsDoOrAbstains() {
        var generator = SystemRandomNumberGenerator()
        var generated: [String] = []
        for _ in 0..<300 {
            let parts = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                String((0..<Int.random(in: 1...6, using: &generator)).map { _ in "0012345789".randomElement()! })
            }
            var text = ""
            for (index, part) in parts.enumerated() {
                if index > 0 { text += Bool.random(using: &generator) ? "." : "-" }
                text += part
            }
            generated.append(Bool.random(using: &generator) ? "v" + text : text)
        }
        let listed = VersionTests.versions.compactMap(\.stringValue)
        let versions = listed + generated + ["1.2.3", "1.2.3", "01.2.3", "1.2.30", "1.2.3.", "1.2.3+4"]
        var answered = 0
        for expected in versions {
            let padded = Version.paddedUnits(.string(expected))
            guard let fields = VersionFields.fields(padded: padded) else { continue }
            for actual in versions {
                let order = Self.order(actual, against: fields)
                guard let order else { continue }
                answered += 1
                #expect(
                    order == Version.order(of: .string(actual), comparedTo: padded),
                    "\(actual) against \(expected)"
                )
            }
        }
        // The usual versions are answered, not left to the long way.
        #expect(answered > versions.count * 20)
    }

    @Test func answersTheUsualShapesOnly() {
        func order(_ actual: String, _ expected: String) -> Int? {
            VersionFields.fields(padded: Version.paddedUnits(.string(expected))).flatMap {
                Self.order(actual, against: $0)
            }
        }
        #expect(order("1.3.0", "1.2.0") == 1)
        #expect(order("v1.2.0", "1.2.0") == 0)
        #expect(order("1.2.0", "1.10.0") == -1)
        #expect(order("01.2.0", "1.2.0") == 1)  // "   01" sorts above "    1"
        #expect(order("1.2", "1.2.0") == nil)  // another number of parts
        #expect(order("1.2.0-beta", "1.2.0") == nil)
        #expect(order("1.2.0+5", "1.2.0") == nil)
        #expect(order("123456.0.0", "1.2.0") == nil)
        #expect(order("1.2.0", "1.2.0-beta") == nil)
        #expect(order("", "1.2.0") == nil)
        #expect(order("1.2.3.4.5", "1.2.3.4.5") == nil)  // more parts than a user's version is read with
        // So such a version keeps no fields.
        #expect(VersionFields.fields(padded: Version.paddedUnits(.string("1.2.3.4.5"))) == nil)
        #expect(order("1.2.3.4", "1.2.3.4") == 0)
    }
}
