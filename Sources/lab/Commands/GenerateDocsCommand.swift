import ArgumentParser
import Foundation

/// `lab generate-docs`: writes the manual page and completion scripts that
/// ship under `share/`, from the command definitions themselves.
///
/// Hidden from help; run it after changing a command, and the end-to-end
/// test that compares the shipped files says when someone forgot.
struct GenerateDocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-docs",
        abstract: "Write share/man/man1/lab.1 and the bash, zsh and fish completion scripts.",
        shouldDisplay: false
    )

    @Option(help: "The share folder to write into.") var output: String = "share"

    /// The files and their contents, by path under the share folder.
    static func documents() throws -> [(String, String)] {
        let info = try JSONDecoder().decode(ToolInfo.self, from: Data(Lab._dumpHelp().utf8))
        return [
            ("man/man1/lab.1", ManualPage.render(info)),
            ("completions/lab.bash", Lab.completionScript(for: .bash)),
            ("completions/_lab", Lab.completionScript(for: .zsh)),
            ("completions/lab.fish", Lab.completionScript(for: .fish)),
        ]
    }

    func run() throws {
        for (path, text) in try Self.documents() {
            let url = URL(fileURLWithPath: output).appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url, options: .atomic)
            printLine("wrote \(url.path)")
        }
    }
}
