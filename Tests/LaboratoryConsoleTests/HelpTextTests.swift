import Foundation
import Testing

@testable import LaboratoryConsole

/// The README's key table and flags legend say what the help overlay says.
@Suite struct HelpTextTests {
    static let readme = try? String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"),
        encoding: .utf8
    )

    @Test func everyFlagOfTheHelpIsInTheReadme() throws {
        let readme = try #require(Self.readme)
        let legend = HelpText.lines.drop { !$0.hasPrefix("Flags:") }.prefix { !$0.hasPrefix("Press") }
        let flags = legend.flatMap { line in
            line.replacingOccurrences(of: "Flags:", with: "").components(separatedBy: "·")
                .compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        #expect(flags.count == 6)
        for flag in flags {
            #expect(readme.contains("`\(flag)` ") || readme.contains("`\(flag)`\n"), "flag \(flag)")
        }
    }

    /// The README's key table, the help overlay and `lab(1)` list the same
    /// keys, in the same order: each is read back here and compared.
    @Test func theReadmeTheHelpAndTheManualListTheSameKeys() throws {
        let readme = try #require(Self.readme)
        let expected = ConsoleKeys.bindings.map(\.keys)
        let table = readme.components(separatedBy: "| keys | do |\n|---|---|\n")[1]
            .split(separator: "\n").prefix { $0.hasPrefix("| ") }
        let readmeKeys = table.map { row in
            row.split(separator: "|")[0].replacingOccurrences(of: "`", with: "").split(separator: " ").map(String.init)
        }
        #expect(readmeKeys == expected)
        let helpKeys = HelpText.lines.prefix { !$0.isEmpty }.map { line in
            ConsoleKeys.bindings.first { line.hasPrefix($0.keys.joined(separator: " ") + " ") }?.keys ?? [line]
        }
        #expect(helpKeys == expected)
        let manual = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("share/man/man1/lab.1"),
            encoding: .utf8
        )
        let section = manual.components(separatedBy: ".Sh CONSOLE KEYS\n").dropFirst().first ?? ""
        let manualKeys = section.components(separatedBy: ".El")[0].split(separator: "\n")
            .filter { $0.hasPrefix(".It ") }.map { $0.dropFirst(4).split(separator: " ").map(String.init) }
        #expect(manualKeys == expected)
    }

    @Test func theHelpFitsTheSmallestScreen() {
        // The overlay's frame takes two rows, and it keeps a row free above and below.
        #expect(HelpText.lines.count <= TerminalSize.minimum.rows - 4)
        #expect(HelpText.lines.allSatisfy { TextWidth.of($0) <= TerminalSize.minimum.columns - 10 })
    }
}
