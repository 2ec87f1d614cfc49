import Foundation
import Testing

/// `lab overrides export|import`: a configuration handed from one QA engineer to another.
@Suite struct OverridesCommandTests {
    @Test func exportResetImportRestoresTheSameAssignments() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorDarkGray").status == 0)
        #expect(try lab.run("force", "ProfileRedesign", "Inactive").status == 0)
        #expect(try lab.run("force", "SubscriptionPromptImage", "SubscriptionPromptImageCity").status == 0)
        let before = try lab.run("assignments", "--json").stdout
        let file = lab.folder + "/overrides.json"
        #expect(try lab.run("overrides", "export", file).status == 0)
        #expect(try lab.run("reset").status == 0)
        #expect(try lab.run("assignments", "--json").stdout != before)
        let imported = try lab.run("overrides", "import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try lab.run("assignments", "--json").stdout == before)

        // Another device gets the same forced configuration.
        let colleague = try LabHarness()
        #expect(try colleague.run("overrides", "import", file).status == 0)
        let theirs = try colleague.assignments()
        #expect(theirs["subscribeButtonColor"] == "ButtonColorDarkGray")
        #expect(theirs["subscribePromptImage"] == "SubscriptionPromptImageCity")
        #expect(theirs["profileLayout"] == nil)
    }

    @Test func anUnknownVariantIsRefusedAndNothingChanges() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        let before = try lab.run("experiments", "--json").stdout
        let file = try lab.write(
            "bad.json",
            """
            {"version": 1, "requests": [
              {"source": "Local", "experiment": "ProfileRedesign", "variant": "NewProfileV1"},
              {"source": "Local", "experiment": "ButtonColor", "variant": "ButtonColorPurple"},
              {"source": "Local", "experiment": "NoSuchExperiment", "variant": null}]}
            """
        )
        let result = try lab.run("overrides", "import", file, "--replace")
        #expect(result.status == 1)
        #expect(result.stderr.contains("Local/ButtonColor: no variant \"ButtonColorPurple\""))
        #expect(result.stderr.contains("Local/NoSuchExperiment: no such experiment"))
        #expect(try lab.run("experiments", "--json").stdout == before)
    }

    @Test func attributesTravelWithTheFile() throws {
        let lab = try LabHarness()
        let export = try lab.run("overrides", "export", "--attribute", "userId=qa-7")
        let document = try LabHarness.json(export.stdout)
        #expect((document["attributes"] as? [String: String]) == ["userId": "qa-7"])
        #expect(
            try LabHarness.json(try lab.run("overrides", "export").stdout)["attributes"] as? [String: String] == [:]
        )
        let file = try lab.write("with-user.json", export.stdout)
        #expect(try lab.run("overrides", "import", file).status == 0)
        let stored = try LabHarness.json(try lab.run("overrides", "export").stdout)
        #expect(stored["attributes"] as? [String: String] == ["userId": "qa-7"])
    }

    @Test func aFileThatIsNotAnOverridesFileSaysWhereAndWhyInPlainWords() throws {
        let lab = try LabHarness()
        for (text, expected) in [
            (#"{"version": 1, "requests": 3}"#, ":1:28: \"requests\" must be an array, found a number"),
            (
                "{\n  \"version\": 1,\n  \"requests\": [{\"source\": \"Local\"}]\n}",
                ":3:16: forced variant 1 has no \"experiment\""
            ),
            ("{\"version\": 1, \"requests\": [}", ":1:29: expected a value"),
            (#"{"requests": []}"#, ":1:1: missing \"version\""),
        ] {
            let file = try lab.write("nope.json", text)
            let result = try lab.run("overrides", "import", file)
            #expect(result.status == 65, "\(text)")
            #expect(result.stderr.hasPrefix("lab: " + file + expected), "\(text): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("The given data"))
        }
        let missing = try lab.run("overrides", "import", lab.folder + "/absent.json")
        #expect(missing.status == 66)
        #expect(missing.stderr == "lab: " + lab.folder + "/absent.json: cannot read the file: no such file\n")
        let folder = try lab.run("overrides", "import", lab.folder)
        #expect(folder.stderr.hasSuffix("cannot read the file: it is a folder\n"), "\(folder.stderr)")
    }
}
