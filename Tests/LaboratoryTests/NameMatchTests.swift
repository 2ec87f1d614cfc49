import Testing

@testable import Laboratory

/// What a person meant by a name they typed.
@Suite struct NameMatchTests {
    private let names = ["ButtonColor", "ButtonSize", "OnboardingShortFlow", "buttoncolor2", "Profile"]

    @Test func exactAndUniqueCaseInsensitiveNamesAreFound() {
        #expect(NameMatch.find("ButtonColor", in: names) == .found("ButtonColor"))
        #expect(NameMatch.find("onboardingshortflow", in: names) == .found("OnboardingShortFlow"))
        // Two names equal but for case: no guessing.
        #expect(NameMatch.find("AB", in: ["ab", "Ab"]) == .missing(suggestions: ["Ab", "ab"]))
    }

    @Test func typosGetTheNearestNames() {
        #expect(NameMatch.find("ButonColor", in: names) == .missing(suggestions: ["ButtonColor", "buttoncolor2"]))
        #expect(
            NameMatch.find("Blue", in: ["ButtonColorRed", "ButtonColorBlue"])
                == .missing(suggestions: ["ButtonColorBlue"])
        )
        #expect(NameMatch.find("Zzzzzzzz", in: names) == .missing(suggestions: []))
        #expect(NameMatch.hint([]) == "")
        #expect(NameMatch.hint(["a", "b", "c"]) == #"; did you mean "a", "b" or "c"?"#)
        #expect(NameMatch.distance("kitten", "sitting") == 3)
    }

    @Test func theDebugSourceTakesCaseInsensitiveNamesAndSuggestsTheRest() throws {
        let world = try World([
            Catalog(source: "Local", experiments: [Fixtures.experiment("Ranged", variants: [("Red", 1), ("Blue", 1)])])
        ])
        let forced = try world.debug.force(variant: "blue", of: "ranged", in: "local")
        #expect(forced == ForcedVariant(source: "Local", experiment: "Ranged", variant: "Blue"))
        #expect(try world.debug.force(variant: "inactive", of: "Ranged").variant == nil)
        #expect(throws: DebugSourceError.unknownExperiment("Rnged", source: nil, suggestions: ["Ranged"])) {
            try world.debug.force(variant: "Red", of: "Rnged")
        }
        #expect(
            throws: DebugSourceError.unknownVariant(
                "Rde",
                experiment: "Ranged",
                known: ["Red", "Blue", "Inactive"],
                suggestions: ["Red"]
            )
        ) { try world.debug.force(variant: "Rde", of: "Ranged") }
    }
}
