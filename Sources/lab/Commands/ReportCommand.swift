import ArgumentParser
import Laboratory

/// `lab report KEY`: report that an assignment affected the user.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report that an assignment affected the user, as the app does."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The assignment's key.") var key: String
    @Option(help: "displayed, initiated, or any custom reason.") var reason: String = EventReason.displayed.rawValue
    @Flag(help: "Print one JSON document: whether an event was recorded, and for which assignment.") var json = false

    func validate() throws {
        do {
            _ = try EventReason(checking: reason)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let reason = EventReason(rawValue: self.reason)
        let session = try LabSession.open(global)
        let (assignment, recorded) = try session.run { () -> (Assignment?, Bool) in
            try session.manager.refresh()
            guard let assignment = session.manager.assignment(for: key) else { return (nil, false) }
            return (assignment, try session.manager.report(assignment, reason: reason))
        }
        guard let assignment else {
            printError("no active experiment assigns \"\(key)\": the app uses its baseline; nothing recorded")
            throw ExitCode.failure
        }
        let message =
            recorded
            ? "Recorded \(reason) for \(key) = \(assignment.value) (\(assignment.experiment)/\(assignment.variant))."
            : "Not recorded: \(assignment.experiment)/\(assignment.variant) was already \(reason) on this device."
        if json {
            try JSONOutput.print(ReportDocument(recorded: recorded, reason: reason.rawValue, assignment: assignment))
        } else {
            printLine(message)
        }
    }
}
