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

    @Test func everyKeyOfTheHelpIsInTheReadmesTable() throws {
        let readme = try #require(Self.readme)
        let table = readme.split(separator: "\n").filter { $0.hasPrefix("| ") }.joined(separator: "\n")
        for line in HelpText.lines.prefix(while: { !$0.isEmpty }) {
            let keys = line.prefix(16).split(separator: " ").map(String.init)
            for key in keys where key.count == 1 && key.first!.isLetter {
                #expect(table.contains("`\(key)`"), "key \(key) of \"\(line)\"")
            }
            let named = keys.filter { $0.count > 1 }
            for key in named { #expect(table.contains(key), "key \(key) of \"\(line)\"") }
        }
    }
}
