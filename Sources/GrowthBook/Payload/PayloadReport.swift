/// Problems found in a payload, each placed by the steps that lead to its
/// value rather than by line and column: the checks run on ``JSONValue``,
/// which keeps no positions, and the places are looked up in a positioned
/// parse (``resolved(file:text:decryptedFeatures:)``) only when there is a problem
/// to report, so a clean payload is never parsed twice.
struct PayloadReport: Sendable {
    /// The part of the payload a finding is in.
    enum Part: Sendable {
        /// The payload as a whole.
        case payload
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
        /// Whether an app refuses the payload for it; a rule that can never
        /// match is an error to the linter but evaluates, as in every SDK.
        var refusesPayload = true
    }

    private(set) var findings: [Finding] = []

    mutating func error(_ message: String, in part: Part = .features, at path: [Int], atName: Bool = false) {
        findings.append(Finding(severity: .error, message: message, part: part, path: path, atName: atName))
    }

    /// An error in a rule the SDKs still evaluate (it just never matches):
    /// reported by the linter, not a reason to refuse the payload.
    mutating func neverMatches(_ message: String, at path: [Int]) {
        var finding = Finding(severity: .error, message: message, part: .features, path: path, atName: false)
        finding.refusesPayload = false
        findings.append(finding)
    }

    /// The findings an app acts on: all but the errors it evaluates anyway, which become warnings.
    var forRuntime: PayloadReport {
        var report = self
        for index in report.findings.indices where !report.findings[index].refusesPayload {
            report.findings[index].severity = .warning
        }
        return report
    }

    mutating func warning(_ message: String, in part: Part = .features, at path: [Int], atName: Bool = false) {
        findings.append(Finding(severity: .warning, message: message, part: part, path: path, atName: atName))
    }

    /// The findings as diagnostics of `file`, placed by parsing the
    /// payload's text again with positions (and the decrypted features'
    /// text, when the features were encrypted); no parse when there are none.
    func resolved(file: String, text: String, decryptedFeatures: String? = nil) -> [Diagnostic] {
        resolved(file: file, text: { text }, decryptedFeatures: decryptedFeatures)
    }

    /// ``resolved(file:text:decryptedFeatures:)`` with the text made only
    /// when there is a finding to place in it.
    func resolved(file: String, text: () -> String, decryptedFeatures: String? = nil) -> [Diagnostic] {
        guard !findings.isEmpty else { return [] }
        let payload = try? JSONNodeParser.parse(text())
        let features = decryptedFeatures.map { try? JSONNodeParser.parse($0) } ?? payload?[member: "features"]
        let bandits = payload?[member: "contextualBandits"]
        return findings.map { finding in
            let root: JSONNode?
            switch finding.part {
            case .payload: root = payload
            case .features: root = features
            case .bandits: root = bandits
            }
            return Diagnostic(
                file: file,
                position: root?.position(at: finding.path, atName: finding.atName),
                severity: finding.severity,
                message: finding.message
            )
        }
    }
}
