import Foundation
import LaboratoryRuntime
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct CatalogDecoderTests {
    @Test func decodesTheDesignExample() throws {
        let catalog = try Fixtures.decode(
            """
            {
              "source": "Local",
              "experiments": [
                {
                  "name": "SubscriptionScreenTheme",
                  "keys": ["subscribeScreenFontColor", "subscribeScreenFontSize"],
                  "activeTokenRange": [0.0, 0.5],
                  "baseline": "SubscriptionScreenThemeSmallBlue",
                  "variants": [
                    { "name": "SubscriptionScreenThemeSmallBlue", "weight": 2,
                      "assignments": { "subscribeScreenFontColor": "blue", "subscribeScreenFontSize": 10 } },
                    { "name": "SubscriptionScreenThemeLargeYellow", "weight": 1,
                      "assignments": { "subscribeScreenFontColor": "yellow", "subscribeScreenFontSize": 12 } }
                  ]
                }
              ]
            }
            """
        )
        #expect(catalog.source == "Local")
        let experiment = try #require(catalog.experiments.first)
        #expect(experiment.keys == ["subscribeScreenFontColor", "subscribeScreenFontSize"])
        #expect(experiment.activeTokenRange == HalfOpenRange(lower: 0, upper: 0.5))
        #expect(experiment.variants.map(\.weight) == [2, 1])
        #expect(experiment.variants[1].assignments["subscribeScreenFontSize"] == .number(12))
        #expect(experiment.baseline == "SubscriptionScreenThemeSmallBlue")
    }

    @Test func theDemoCatalogIsValid() throws {
        let catalog = try Fixtures.demoCatalog()
        #expect(catalog.experiments.map(\.name).contains("SubscriptionPromptImage"))
    }

    @Test func weightDefaultsToOneAndBooleansDecode() throws {
        let catalog = try Fixtures.decode(
            """
            {"source": "S", "experiments": [{"name": "E", "keys": ["on"], "baseline": "Off",
              "variants": [{"name": "Off", "assignments": {"on": false}}]}]}
            """
        )
        #expect(catalog.experiments[0].variants[0].weight == 1)
        #expect(catalog.experiments[0].variants[0].assignments["on"] == .bool(false))
    }

    /// A catalog with one experiment whose lines are known, so positions are exact.
    private func catalog(
        range: String = "[0.0, 0.5]",
        baseline: String = "Small",
        weight: String = "2",
        second: String = #"{"fontColor": "yellow", "fontSize": 12}"#,
        extra: String = ""
    ) -> String {
        """
        {
          "source": "Local",
          "experiments": [
            {
              "name": "Theme",
              "keys": ["fontColor", "fontSize"],
              "activeTokenRange": \(range),
              "baseline": "\(baseline)",
              "variants": [
                { "name": "Small", "weight": \(weight),
                  "assignments": {"fontColor": "blue", "fontSize": 10} },
                { "name": "Large",
                  "assignments": \(second) }\(extra)
              ]
            }
          ]
        }
        """
    }

    @Test func reportsAVariantThatMissesAKey() {
        #expect(
            Fixtures.problems(catalog(second: #"{"fontColor": "yellow"}"#)) == [
                "12:9: variant \"Large\" of experiment \"Theme\" does not assign key \"fontSize\""
            ]
        )
    }

    @Test func reportsAVariantThatAddsAKey() {
        #expect(
            Fixtures.problems(catalog(second: #"{"fontColor": "y", "fontSize": 1, "bold": true}"#)) == [
                "13:60: variant \"Large\" of experiment \"Theme\" assigns key \"bold\", which is not one of the experiment's keys"
            ]
        )
    }

    @Test func reportsABaselineThatNamesNoVariant() {
        #expect(
            Fixtures.problems(catalog(baseline: "Medium")) == [
                "8:19: baseline \"Medium\" of experiment \"Theme\" names no variant (variants: Small, Large)"
            ]
        )
    }

    @Test(arguments: ["0", "-1"])
    func reportsANonPositiveWeight(weight: String) {
        #expect(
            Fixtures.problems(catalog(weight: weight)) == [
                "10:38: weight of variant \"Small\" of experiment \"Theme\" must be positive, found \(weight)"
            ]
        )
    }

    @Test func reportsAWeightThatIsNotANumber() {
        #expect(
            Fixtures.problems(catalog(weight: "\"2\"")) == [
                "10:38: weight of variant \"Small\" of experiment \"Theme\" must be a positive number, found a string"
            ]
        )
    }

    @Test func reportsATokenRangeOutsideTheUnitInterval() {
        #expect(
            Fixtures.problems(catalog(range: "[0.5, 1.5]")) == [
                "7:27: \"activeTokenRange\" of experiment \"Theme\" must lie in [0, 1], found [0.5, 1.5]"
            ]
        )
    }

    @Test func reportsAReversedTokenRange() {
        #expect(
            Fixtures.problems(catalog(range: "[0.6, 0.2]")) == [
                "7:27: \"activeTokenRange\" of experiment \"Theme\" is reversed: start 0.6 is after end 0.2"
            ]
        )
    }

    @Test func reportsAMalformedTokenRange() {
        #expect(
            Fixtures.problems(catalog(range: "[0.5]")) == [
                "7:27: \"activeTokenRange\" of experiment \"Theme\" must be [start, end] with two numbers"
            ]
        )
    }

    @Test func reportsADuplicateVariantName() {
        let extra = ",\n        { \"name\": \"Small\", \"assignments\": {\"fontColor\": \"red\", \"fontSize\": 9} }"
        #expect(
            Fixtures.problems(catalog(extra: extra)) == [
                "14:9: variant \"Small\" of experiment \"Theme\" is defined twice (first at line 10)"
            ]
        )
    }

    @Test func reportsADuplicateExperimentName() {
        let json = """
            {"source": "S", "experiments": [
              {"name": "E", "keys": ["k"], "baseline": "A", "variants": [{"name": "A", "assignments": {"k": 1}}]},
              {"name": "E", "keys": ["k"], "baseline": "A", "variants": [{"name": "A", "assignments": {"k": 2}}]}
            ]}
            """
        #expect(Fixtures.problems(json) == ["3:3: experiment \"E\" is defined twice (first at line 2)"])
    }

    @Test func reportsMalformedJSONWithItsPosition() {
        #expect(
            Fixtures.problems("{\n  \"source\": \"S\",\n  \"experiments\": [,]\n}") == [
                "3:19: malformed JSON: expected a value, found character ','"
            ]
        )
    }

    @Test func reportsUnknownAndMistypedFields() {
        let json = """
            {"source": 3, "experiments": [
              {"name": "E", "keys": ["k"], "baseline": "A",
               "variants": [{"name": "A", "wieght": 2, "assignments": {"k": null}}]}
            ]}
            """
        #expect(
            Fixtures.problems(json) == [
                "1:12: \"source\" of the catalog must be a string, found a number",
                "3:31: unknown field \"wieght\" in variant \"A\" of experiment \"E\" (expected one of \"assignments\", \"name\", \"weight\")",
                "3:65: value of key \"k\" in variant \"A\" of experiment \"E\" must be a string, number or boolean, found null",
            ]
        )
    }

    @Test func reportsEveryProblemNotOnlyTheFirst() {
        let problems = Fixtures.problems(catalog(range: "[0.6, 0.2]", baseline: "Medium", weight: "0"))
        #expect(problems.count == 3)
    }

    @Test func namesTheFileInEachDiagnostic() {
        do {
            _ = try CatalogDecoder().decode(Data("[]".utf8), file: "demo.json")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "demo.json:1:1: error: the catalog must be a JSON object with \"source\" and \"experiments\", found an array"
            )
        }
    }

    @Test func refusesTextThatIsNotUTF8() {
        #expect(throws: CatalogError.self) { try CatalogDecoder().decode(Data([0x7B, 0xFF, 0x7D]), file: "x.json") }
    }

    @Test func reportsAMissingFileAsUnreadable() {
        do {
            _ = try CatalogDecoder().decode(contentsOf: "/nonexistent/catalog.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.isUnreadable)
            #expect(error.description == "/nonexistent/catalog.json: error: cannot read the file: no such file")
        }
    }
}
