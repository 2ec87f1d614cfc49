import Laboratory

/// What a command that changes the state prints: a sentence, or with
/// `--json` the sentence and the assignments the app now gets.
struct ChangeDocument: Encodable {
    var message: String
    var assignments: [Assignment]

    /// Prints what a change through the steering service did: its
    /// sentence (warnings on standard error), or the JSON document.
    static func print(_ outcome: Steering.Outcome, json: Bool) throws {
        for warning in outcome.warnings { printError("warning: \(warning); forcing changes nothing there") }
        try print(outcome.message, assignments: outcome.assignments, json: json)
    }

    /// Prints the sentence, or the JSON document.
    static func print(_ message: String, snapshot: AssignmentsSnapshot, json: Bool) throws {
        try print(message, assignments: snapshot.assignments, json: json)
    }

    private static func print(_ message: String, assignments: [Assignment], json: Bool) throws {
        if json {
            try JSONOutput.print(ChangeDocument(message: message, assignments: assignments))
        } else {
            printLine(message)
        }
    }
}
