import Testing

@testable import GrowthBook

/// The unit-by-unit version comparison agrees with comparing the padded strings it stands for.
@Suite struct VersionTests {
    static let versions: [JSONValue] =
        [
            "1.2.3", "v1.2.3", "1.2.3-beta", "1.2.3-beta.2", "1.2.3+build.5", "1.2", "1.2.3.4", "10.0.0", "9.99.999",
            "123456.1.0", "00001.2.3", "1..2", ".", "-", "+", "v", "vv1", "1.2.3-", "abc", "1.2.3-rc.10", "1.2.3-rc.9",
            "", "é.1.2", "1.2.3-ß", "1.2.3-\u{1F600}",
        ].map(JSONValue.string) + [.number(1.5), .number(2), .null, .bool(true)]

    @Test func ordersAsThePaddedStringsDo() {
        for actual in Self.versions {
            for expected in Self.versions {
                let a = Version.padded(actual)
                let b = Version.padded(expected)
                let wanted = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : (a == b ? 0 : 1)
                #expect(
                    Version.order(of: actual, comparedTo: Array(b.utf16)) == wanted,
                    "\(actual) against \(expected)"
                )
            }
        }
    }

    @Test func theCompiledUnitsAreThePaddedString() {
        for version in Self.versions {
            #expect(Version.paddedUnits(version) == Array(Version.padded(version).utf16), "\(version)")
        }
    }
}
