import Foundation
import Testing

/// The manual page and completion scripts under `share/` are generated from
/// the command definitions; this fails when a command changed and they were
/// not regenerated (`swift run lab generate-docs`).
@Suite struct GeneratedDocsTests {
    @Test func shippedDocsMatchTheCommands() throws {
        let lab = try LabHarness()
        let output = lab.folder + "/share"
        let result = try lab.runRaw(["generate-docs", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        for path in ["man/man1/lab.1", "completions/lab.bash", "completions/_lab", "completions/lab.fish"] {
            let fresh = try String(contentsOfFile: output + "/" + path, encoding: .utf8)
            let shipped = try String(contentsOfFile: LabHarness.packageRoot + "/share/" + path, encoding: .utf8)
            #expect(fresh == shipped, "share/\(path) is out of date: run `swift run lab generate-docs`")
        }
        let manual = try String(contentsOfFile: output + "/man/man1/lab.1", encoding: .utf8)
        for command in ["console", "assignments", "experiments", "explain", "force", "overrides export", "check"] {
            #expect(manual.contains(".It Cm \(command)"), "the manual lacks \(command)")
        }
        #expect(!manual.contains("generate-docs"))
    }
}
