import ArgumentParser

/// `lab reset`: drop every forced variant.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Drop all forced variants (or those of one source, or one scope)."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Drop only the forced variants of this source.") var source: String?
    @OptionGroup var scope: ScopeOption
    @OptionGroup var connect: ConnectOptions
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        if let connection = connect.connection {
            return try RemoteChange.print(json: json) {
                try connection.reset(source: source, scope: scope.givenScope)
            }
        }
        let session = try LabSession.open(global)
        let outcome = try session.run { try session.steering.reset(source: source, scope: scope.givenScope) }
        try ChangeDocument.print(outcome, json: json)
    }
}
