import Laboratory

/// What a command that changes the state prints: a sentence, or with
/// `--json` the sentence and the assignments the app now gets.
struct ChangeDocument: Encodable {
    var message: String
    var assignments: [Assignment]

    /// Prints the sentence, or the JSON document.
    static func print(_ message: String, snapshot: AssignmentsSnapshot, json: Bool) throws {
        if json {
            try JSONOutput.print(ChangeDocument(message: message, assignments: snapshot.assignments))
        } else {
            printLine(message)
        }
    }
}
