/// Problems found in a payload, each placed by the steps that lead to its
/// value rather than by line and column: the checks run on ``JSONValue``,
/// which keeps no positions, and the places are looked up in a positioned
/// parse (``resolved(file:features:bandits:)``) only when there is a problem
/// to report, so a clean payload is never parsed twice.
struct PayloadReport: Sendable {
    /// The part of the payload a finding is in.
    enum Part: Sendable {
        /// The `features` object (its own document when it was encrypted).
        case features
        /// The `contextualBandits` object.
        case bandits
    }

    /// One problem and where it is.
    struct Finding: Sendable {
        var severity: Diagnostic.Severity
        var message: String
        var part: Part
        /// From the part's object: an element's index in an array, a
        /// member's index in an object (so a repeated name is told apart).
        var path: [Int]
        /// Whether the place is the last member's name rather than its value.
        var atName: Bool
    }

    private(set) var findings: [Finding] = []

    mutating func error(_ message: String, in part: Part = .features, at path: [Int], atName: Bool = false) {
        findings.append(Finding(severity: .error, message: message, part: part, path: path, atName: atName))
    }

    mutating func warning(_ message: String, in part: Part = .features, at path: [Int], atName: Bool = false) {
        findings.append(Finding(severity: .warning, message: message, part: part, path: path, atName: atName))
    }

    /// The findings as diagnostics of `file`, placed in the positioned parse of each part.
    func resolved(file: String, features: JSONNode?, bandits: JSONNode?) -> [Diagnostic] {
        findings.map { finding in
            let root = finding.part == .features ? features : bandits
            return Diagnostic(
                file: file,
                position: root?.position(at: finding.path, atName: finding.atName),
                severity: finding.severity,
                message: finding.message
            )
        }
    }
}
