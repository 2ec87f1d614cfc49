import ArgumentParser

/// `lab stabilize`: freeze the user experience on this device.
struct StabilizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stabilize",
        abstract: "Stabilize: assignments stop changing here and new experiments are not exposed."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let snapshot = try session.run {
            try session.manager.stabilize()
            return session.manager.snapshot
        }
        try ChangeDocument.print(
            "Stabilized with \(snapshot.active.count) active experiments.",
            snapshot: snapshot,
            json: json
        )
    }
}
