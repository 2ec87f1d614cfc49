import ArgumentParser

/// `lab stabilize`: stabilize every source on this device, so its assignments stay as they are.
struct StabilizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stabilize",
        abstract: "Stabilize: assignments stop changing here and new experiments are not exposed."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Debug: forget the stabilization, so stabilizing can be tested again.") var undo = false
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        if undo {
            let snapshot = try session.run {
                try session.debug.undoStabilization()
                return try session.manager.refresh()
            }
            return try ChangeDocument.print(
                "No longer stabilized (a debug action): draws and new experiments flow again.",
                snapshot: snapshot,
                json: json
            )
        }
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
