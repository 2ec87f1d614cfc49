import Foundation
import LabTestSupport
import LaboratoryRuntime
import Testing

@testable import Laboratory

@Suite struct CatalogLinterTests {
    /// The test's catalog files, removed when it ends.
    private let scratch: TemporaryFolder
    private var folder: String { scratch.path }

    init() throws { scratch = try TemporaryFolder("lab-lint") }

    private func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `line:col: severity: message` of each diagnostic, with the folder cut off.
    private func check(_ paths: [String]) -> [String] {
        CatalogLinter().check(paths: paths).diagnostics.map {
            "\(($0.file as NSString).lastPathComponent):\($0.position?.description ?? "-"): \($0.severity.rawValue): \($0.message)"
        }
    }

    @Test func theDemoCatalogIsClean() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let report = CatalogLinter().check(paths: [root.appendingPathComponent("share/laboratory/demo.json").path])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    @Test func sharedKeysInOverlappingRangesAreAnErrorAcrossFiles() throws {
        let first = try file(
            "first.json",
            """
            {"source": "Local", "experiments": [
              {"name": "Onboarding", "keys": ["pageCount"], "activeTokenRange": [0.0, 0.6], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"pageCount": 3}}]}]}
            """
        )
        let second = try file(
            "second.json",
            """
            {"source": "Promo", "experiments": [
              {"name": "Welcome", "keys": ["pageCount"], "activeTokenRange": [0.5, 1.0], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"pageCount": 5}}]},
              {"name": "Apart", "keys": ["pageCount"], "activeTokenRange": [0.6, 0.7], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"pageCount": 1}}]}]}
            """
        )
        #expect(
            check([first, second]) == [
                "second.json:2:32: error: 3 experiments share key \"pageCount\" and can be active together, two at a time or more, on tokens [0.5, 0.7): \"Local/Onboarding\" (\(first):2:3), \"Promo/Welcome\" (\(second):2:3), \"Promo/Apart\" (\(second):4:3)"
            ]
        )
    }

    @Test func anExperimentWithABrokenVariantStillCountsForSharedKeys() throws {
        let first = try file(
            "broken-variant.json",
            """
            {"source": "Local", "experiments": [
              {"name": "Onboarding", "keys": ["pageCount"], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"pageCount": 3}}, {"name": "B", "assignments": {}}]}]}
            """
        )
        let second = try file(
            "sound.json",
            """
            {"source": "Promo", "experiments": [
              {"name": "Welcome", "keys": ["pageCount"], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"pageCount": 5}}]}]}
            """
        )
        let found = check([first, second])
        #expect(found.contains { $0.contains("error: variant \"B\"") || $0.contains("\"B\" of") }, "\(found)")
        #expect(found.contains { $0.contains("share key \"pageCount\"") }, "\(found)")
    }

    @Test func userAndDeviceLevelExperimentsSharingAKeyAlwaysOverlap() throws {
        let path = try file(
            "mixed.json",
            """
            {"source": "Local", "experiments": [
              {"name": "DeviceSide", "keys": ["k"], "activeTokenRange": [0.0, 0.1], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"k": 1}}]},
              {"name": "UserSide", "keys": ["k"], "subject": "user", "activeTokenRange": [0.9, 1.0], "baseline": "A",
               "variants": [{"name": "A", "assignments": {"k": 2}}]}]}
            """
        )
        #expect(
            check([path]).first?.contains(
                "can be active together on any token (one is user-level, the other device-level)"
            ) == true
        )
    }

    @Test func warningsForConventionsSharesTwinsAndEmptyRanges() throws {
        let path = try file(
            "style.json",
            """
            {"source": "Local", "experiments": [
              {"name": "button_color", "keys": ["ButtonColor"], "baseline": "red", "activeTokenRange": [0.3, 0.3],
               "variants": [{"name": "red", "weight": 200, "assignments": {"ButtonColor": "red"}},
                            {"name": "Blue", "weight": 1, "assignments": {"ButtonColor": "red"}}]},
              {"name": "Profile", "keys": ["layout"], "baseline": "Control",
               "variants": [{"name": "Control", "assignments": {"layout": "a"}},
                            {"name": "ControlCheck", "assignments": {"layout": "a"}}]}]}
            """
        )
        #expect(
            check([path]) == [
                "style.json:2:3: warning: experiment \"button_color\": experiment names are UpperCamelCase",
                "style.json:2:37: warning: key \"ButtonColor\" of experiment \"button_color\": keys are lowerCamelCase",
                "style.json:3:17: warning: variant \"red\" of experiment \"button_color\": variant names are UpperCamelCase",
                "style.json:4:44: warning: variant \"Blue\" of experiment \"button_color\" gets 0.5 % of draws, under 1 %",
                "style.json:4:17: warning: variants \"red\" and \"Blue\" of experiment \"button_color\" assign the same values; name one as an A/A check (for example \"redCheck\") if that is the intent",
                "style.json:2:92: warning: experiment \"button_color\" can never be active: its token range [0.3, 0.3) is empty",
            ]
        )
    }

    @Test func aBrokenExperimentHidesNoOtherProblem() throws {
        let one = try file(
            "one.json",
            """
            {"source": "A", "experiments": [
              {"name": "Broken", "keys": ["k1"], "baseline": "X", "variants": [{"name": "X", "assignments": {}}]},
              {"name": "One", "keys": ["shared"], "baseline": "P", "variants": [
                {"name": "P", "assignments": {"shared": 1}}, {"name": "Q", "assignments": {"shared": 2}}]},
              {"name": "lowercase", "keys": ["k2"], "baseline": "P", "variants": [
                {"name": "P", "assignments": {"k2": 1}}, {"name": "Q", "assignments": {"k2": 2}}]}]}
            """
        )
        let two = try file(
            "two.json",
            """
            {"source": "B", "experiments": [
              {"name": "Two", "keys": ["shared"], "baseline": "Nope", "variants": [
                {"name": "P", "assignments": {"shared": 1}}, {"name": "Q", "assignments": {"shared": 2}}]},
              {"name": "Three", "keys": ["shared"], "baseline": "P", "variants": [
                {"name": "P", "assignments": {"shared": 1}}, {"name": "Q", "assignments": {"shared": 2}}]}]}
            """
        )
        let report = CatalogLinter().check(paths: [one, two])
        let messages = report.diagnostics.map(\.message)
        // The structural errors of both files…
        #expect(messages.contains { $0.contains("variant \"X\" of experiment \"Broken\" does not assign key \"k1\"") })
        #expect(messages.contains { $0.contains("baseline \"Nope\" of experiment \"Two\" names no variant") })
        // …and, past them, the overlap (a broken experiment whose keys and range are sound counts) and the conventions.
        #expect(
            messages.contains {
                $0.contains("\"B/Three\"") && $0.contains("\"A/One\"") && $0.contains("\"B/Two\"")
                    && $0.contains("share key \"shared\"")
            },
            "\(messages)"
        )
        #expect(messages.contains { $0.contains("experiment \"lowercase\": experiment names are UpperCamelCase") })
        #expect(report.errors == 3 && report.warnings == 1)
    }

    @Test func structuralErrorsAndUnreadableFilesAreReported() throws {
        let broken = try file("broken.json", "{\"source\": \"S\", \"experiments\": [}")
        let report = CatalogLinter().check(paths: [broken, folder + "/missing.json"])
        #expect(report.errors == 2)
        #expect(report.unreadable == [folder + "/missing.json"])
        #expect(
            report.diagnostics[0].description
                == "\(broken):1:33: error: malformed JSON: expected a value, found character '}'"
        )
    }
}
