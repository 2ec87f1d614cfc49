import Laboratory
import Testing

@testable import LaboratoryConsole

/// The filter reads each row's own names, never across two rows or two names.
struct RowSectionTests {
    private func row(_ name: String) -> ListRow { ListRow(.attribute(name: name), [name]) }

    @Test func aMatchNeverSpansTwoRowsOrTwoNames() {
        let section = RowSection(
            header: ListRow(.header, ["H", ""]),
            items: [(row("ab"), ["ab", "CD"]), (row("ef"), ["ef"]), (row("gh"), ["gh", "ÉCLAIR"])],
            countsItems: true
        )
        func shown(_ filter: String) -> [String] {
            RowSection.rows(of: [section], filter: filter).filter(\.isSelectable).map { $0.columns[0] }
        }
        #expect(shown("") == ["ab", "ef", "gh"])
        #expect(shown("cd") == ["ab"])  // a second name, case-insensitively
        #expect(shown("bc").isEmpty)  // "ab" + "CD" are two names
        #expect(shown("de").isEmpty)  // "CD" ends a row and "ef" starts the next
        #expect(shown("fg").isEmpty)
        #expect(shown("éclair") == ["gh"])  // lowercasing that changes the bytes' count
        #expect(shown("h") == ["gh"])
        #expect(RowSection.rows(of: [section], filter: "ef").first?.columns == ["H", "1"])
        #expect(RowSection.rows(of: [section], filter: "zz").isEmpty)
    }

    @Test func anExperimentRowNamesItsTitleVariantsAndKeysWhenAsked() {
        let experiment = Experiment(
            name: "ButtonColor",
            keys: ["buttonColor", "buttonSize"],
            variants: [
                Variant(name: "Blue", assignments: ["buttonColor": .string("blue"), "buttonSize": .number(1)]),
                Variant(name: "Red", assignments: ["buttonColor": .string("red"), "buttonSize": .number(2)]),
            ],
            baseline: "Blue",
            title: "The button's colour"
        )
        let row = ListRow(
            .experiment(source: "Local", name: "ButtonColor"),
            ["ButtonColor"],
            role: .plain,
            namesOf: experiment
        )
        #expect(
            row.hiddenNames == [
                ListRow.HiddenName("name", "The button's colour"), ListRow.HiddenName("variant", "Blue"),
                ListRow.HiddenName("variant", "Red"), ListRow.HiddenName("key", "buttonColor"),
                ListRow.HiddenName("key", "buttonSize"),
            ]
        )
        #expect(FilterMatch.hiddenReason(row, filter: "SIZE") == "key buttonSize")
        #expect(FilterMatch.hiddenReason(row, filter: "colour") == "name The button's colour")
        #expect(FilterMatch.hiddenReason(row, filter: "button") == nil)  // the name column shows it
    }
}
