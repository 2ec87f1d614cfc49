import ArgumentParser

/// `lab reset`: drop every forced variant.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Drop all forced variants (or those of one source)."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Drop only the forced variants of this source.") var source: String?
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let snapshot = try session.run {
            try session.debug.reset(source: source)
            return try session.manager.refresh()
        }
        try ChangeDocument.print(
            source.map { "Dropped the forced variants of \($0)." } ?? "Dropped all forced variants.",
            snapshot: snapshot,
            json: json
        )
    }
}
