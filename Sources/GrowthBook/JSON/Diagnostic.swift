/// One problem found in a file, in the compiler style editors jump to:
/// `demo.json:14:9: error: variant "LargeBlue" of experiment … does not assign key …`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The input cannot be used as it is.
        case error
        /// The input is used, but probably not as its author meant.
        case warning
    }

    /// The file as the user named it.
    public var file: String
    /// Where in the file; `nil` when the problem is the file as a whole.
    public var position: SourcePosition?
    /// Whether the problem stops the file from being used.
    public var severity: Severity
    /// What is wrong, for a person.
    public var message: String

    /// A problem in `file`, at `position`.
    public init(file: String, position: SourcePosition?, severity: Severity = .error, message: String) {
        self.file = file
        self.position = position
        self.severity = severity
        self.message = message
    }

    public var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): \(severity.rawValue): \(message)"
    }
}
