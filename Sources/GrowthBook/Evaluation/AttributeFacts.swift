/// What a compact condition (``CompactCondition``) reads of an attribute's
/// value: its type, and a number or an ASCII string's hash, found once per
/// context. Plain values, so reading them counts no references.
struct AttributeFacts: Sendable {
    enum Kind: UInt8, Sendable {
        /// A string of ASCII characters alone, whose hash is ``textHash``.
        case asciiString
        case number
        case bool
        /// Anything else: another string, `null`, an array, an object.
        case other
    }

    var kind: Kind
    /// The number; for a boolean, 1 or 0.
    var number: Double = 0
    /// An ASCII string's ``NameHash``.
    var textHash: UInt32 = 0
    /// An ASCII string read as a version (``VersionFields``), when it is one
    /// of the usual shape; ``versionFieldCount`` is 0 when it is not.
    var versionFields = SIMD4<UInt32>()
    var versionFieldCount = 0

    init(_ value: JSONValue) {
        switch value {
        case .string(let text):
            let key = NameHash.key(of: text)
            if key.isASCII {
                kind = .asciiString
                textHash = key.hash
                if let version = text.withUTF8Bytes(VersionFields.parse) {
                    (versionFields, versionFieldCount) = version
                }
            } else {
                kind = .other
            }
        case .number(let number):
            kind = .number
            self.number = number
        case .bool(let flag):
            kind = .bool
            number = flag ? 1 : 0
        default: kind = .other
        }
    }
}
