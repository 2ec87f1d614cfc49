import ArgumentParser

/// `lab update`: fetch the sources again.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Fetch the sources again and show how each fetch went.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try LabSession.open(global)
        let statuses = await session.manager.update()
        var failed = false
        for name in statuses.keys.sorted() {
            let status = statuses[name]!
            if case .error = status { failed = true }
            printLine("\(name): \(status.summary)")
        }
        if failed { throw ExitCode.failure }
    }
}
