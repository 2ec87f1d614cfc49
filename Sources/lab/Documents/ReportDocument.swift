import ArgumentParser
import Laboratory

/// The `--json` shape of `lab report`.
struct ReportDocument: Encodable {
    var recorded: Bool
    var reason: String
    var assignment: Assignment
}
