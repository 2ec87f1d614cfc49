import ArgumentParser

/// `lab reset`: drop every forced variant.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Drop all forced variants (or those of one source).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Drop only the forced variants of this source.") var source: String?

    func run() throws {
        let session = try LabSession.open(global)
        try session.run {
            try session.debug.reset(source: source)
            try session.manager.refresh()
        }
        printLine(source.map { "Dropped the forced variants of \($0)." } ?? "Dropped all forced variants.")
    }
}
