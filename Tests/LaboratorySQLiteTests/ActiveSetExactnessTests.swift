import Foundation
import LabTestSupport
import Laboratory
import LaboratoryRuntime
import LaboratorySQLite
import LaboratoryTesting
import Testing

/// What is active is compared exactly, scalar by scalar, by every store:
/// no value is ever "activated" again because of how its text looks.
@Suite struct ActiveSetExactnessTests {
    /// Texts that Swift's Unicode-aware `==` or character-wise slicing get wrong.
    static let hostile: [String] = [
        "\u{0301}x", "\u{0301}", "e\u{0301}", "é", "👨‍👩‍👧‍👦", "👍🏽", "🇳🇿", "\u{200D}", "a\u{200D}", "",
        ":", "s:", "\u{FEFF}x", "ﬁ", "Å", "Å", "\u{1F3FB}", "\r\n", "a\u{0}b",
    ]

    /// The test's state file, removed when it ends.
    private let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("lab-exact") }

    /// Each store, the SQLite one with its file in `folder`.
    static func stores(in folder: TemporaryFolder) throws -> [(String, any StateStore)] {
        [("in memory", InMemoryStateStore()), ("SQLite", try SQLiteStateStore(path: folder.file("state.sqlite")))]
    }

    private func assignment(_ key: String, _ value: AssignmentValue) -> Assignment {
        Assignment(key: key, value: value, experiment: "E", variant: "V", source: "Local")
    }

    @Test(arguments: hostile)
    func anUnchangedValueIsNeverActivatedAgain(text: String) throws {
        for (name, store) in try Self.stores(in: scratch) {
            let first = try store.swapActiveAssignments([assignment("a", .string(text)), assignment("b", "x")])
            #expect(first.entered.count == 2, "\(name)")
            // Another key changes: the hostile one must not come back as a change.
            let second = try store.swapActiveAssignments([assignment("a", .string(text)), assignment("b", "y")])
            #expect(second.entered.map(\.key) == ["b"] && second.left.map(\.key) == ["b"], "\(name): \(second)")
            let third = try store.swapActiveAssignments([assignment("a", .string(text)), assignment("b", "y")])
            #expect(third.isEmpty, "\(name)")
            // And what comes back out is the text that went in, scalar for scalar.
            let fourth = try store.swapActiveAssignments([assignment("b", "y")])
            let left = try #require(fourth.left.first?.value.stringValue, "\(name)")
            #expect(left.unicodeScalars.elementsEqual(text.unicodeScalars), "\(name): \(Array(left.unicodeScalars))")
        }
    }

    @Test func textThatOnlyLooksTheSameIsAChange() throws {
        for (name, store) in try Self.stores(in: scratch) {
            _ = try store.swapActiveAssignments([assignment("a", "é")])
            let change = try store.swapActiveAssignments([assignment("a", "e\u{0301}")])
            #expect(change.entered.first?.value.stringValue?.unicodeScalars.count == 2, "\(name): \(change)")
            #expect(change.left.first?.value.stringValue?.unicodeScalars.count == 1, "\(name): \(change)")
        }
    }

    @Test func aValueStartingWithACombiningMarkIsActivatedOnceAcrossStateChanges() throws {
        let folder = scratch.path
        let catalog = try CatalogDecoder().decode(
            Data(
                #"""
                {"source": "Local", "experiments": [
                  {"name": "Accent", "keys": ["accent"], "baseline": "Plain", "variants": [
                    {"name": "Plain", "assignments": {"accent": "\u0301x"}}]},
                  {"name": "Other", "keys": ["other"], "baseline": "A", "variants": [
                    {"name": "A", "assignments": {"other": "a"}}, {"name": "B", "assignments": {"other": "b"}}]}]}
                """#.utf8
            ),
            file: "c.json"
        )
        let laboratory = try LocalLaboratory(
            catalogs: [(path: folder + "/c.json", catalog: catalog)],
            statePath: folder + "/state.sqlite",
            debugSource: true
        )
        try laboratory.manager.refresh()
        for variant in ["B", "A", "B"] {
            try #require(laboratory.debug).force(variant: variant, of: "Other")
            try laboratory.manager.refresh()
        }
        let activations = try laboratory.store.latestEvents(limit: 100).filter {
            $0.event.key == "accent" && $0.event.reason == .activated
        }
        #expect(activations.count == 1)
        #expect(activations.first?.event.value.stringValue?.unicodeScalars.first == "\u{0301}")
    }

    @Test func eventValuesComeBackScalarForScalar() throws {
        let (_, store) = try Self.stores(in: scratch)[1]
        let log = try #require(store as? SQLiteStateStore)
        let events = Self.hostile.map {
            Event(
                time: Date(timeIntervalSince1970: 1_800_000_000),
                device: "d",
                source: "Local",
                experiment: "E",
                variant: "V",
                key: "k",
                value: .string($0),
                reason: .activated
            )
        }
        try log.record(events)
        let read = try log.events(matching: EventQuery(), after: nil, limit: 100).map {
            $0.event.value.stringValue ?? "-"
        }
        #expect(read.map { Array($0.unicodeScalars) } == Self.hostile.map { Array($0.unicodeScalars) })
    }

    @Test(arguments: hostile)
    func taggedTextKeepsEveryScalar(text: String) {
        let value = AssignmentValue(taggedText: AssignmentValue.string(text).taggedText)
        #expect(value?.stringValue?.unicodeScalars.elementsEqual(text.unicodeScalars) == true)
    }
}
