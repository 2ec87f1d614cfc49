/// An attribute the device is evaluated with, or one that targeting reads and
/// nobody set: what the console's Attributes screen lists and edits.
///
/// A device's attributes come in layers, the later winning: the app's own
/// (a GrowthBook connection's, the logged-in user), those stored in the
/// state file (QA's overrides, shared by every process that opens it), and
/// those given for one run of `lab` (`--attribute`, `--as`).
public struct DeviceAttribute: Sendable, Codable, Equatable {
    /// Where the value the device uses comes from.
    public enum Origin: String, Sendable, Codable, CaseIterable {
        /// Given for this run (`lab --attribute`, `--as`): it beats the stored one.
        case run
        /// Stored in the state file: every app and `lab serve` use it.
        case stored
        /// The app's own (a GrowthBook connection's attributes, the logged-in user).
        case app
        /// A source's default when nobody gives one (GrowthBook's `id`: the device id).
        case source
        /// Nobody set it: targeting reads it and finds nothing.
        case unset

        /// How the console says it.
        public var phrase: String {
            switch self {
            case .run: return "this run"
            case .stored: return "state file"
            case .app: return "app"
            case .source: return "default"
            case .unset: return "unset"
            }
        }
    }

    /// The attribute's name, such as `userId`.
    public var name: String
    /// The value the device uses; `nil` when unset.
    public var value: String?
    /// Where the value comes from.
    public var origin: Origin
    /// The experiments whose targeting reads it (conditions, hash attributes, scopes).
    public var readBy: [String]

    /// An attribute, read by the experiments named in `readBy`.
    public init(name: String, value: String?, origin: Origin, readBy: [String] = []) {
        self.name = name
        self.value = value
        self.origin = origin
        self.readBy = readBy
    }

    /// The attributes of each layer, named and valued, with what reads them:
    /// set ones first in name order, then the unset ones targeting reads.
    public static func list(
        own: [String: String],
        sourceDefaults: [String: String],
        stored: [String: String],
        run: [String: String],
        readBy: [String: [String]]
    ) -> [DeviceAttribute] {
        let names = Set(own.keys).union(sourceDefaults.keys).union(stored.keys).union(run.keys).union(readBy.keys)
        return names.map { name in
            let readers = readBy[name] ?? []
            if let value = run[name] { return DeviceAttribute(name: name, value: value, origin: .run, readBy: readers) }
            if let value = stored[name] {
                return DeviceAttribute(name: name, value: value, origin: .stored, readBy: readers)
            }
            if let value = own[name] { return DeviceAttribute(name: name, value: value, origin: .app, readBy: readers) }
            if let value = sourceDefaults[name] {
                return DeviceAttribute(name: name, value: value, origin: .source, readBy: readers)
            }
            return DeviceAttribute(name: name, value: nil, origin: .unset, readBy: readers)
        }
        .sorted { ($0.value == nil ? 1 : 0, $0.name) < ($1.value == nil ? 1 : 0, $1.name) }
    }

    /// Why an attribute a person typed or posted was refused.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The longest name and value stored: longer ones are typing accidents
    /// (a pasted file), and every app reads them on every refresh.
    public static let maximumNameLength = 64
    /// The longest value stored (see ``maximumNameLength``).
    public static let maximumValueLength = 1_024

    /// Checks a name and value a person gives (the console, the steering
    /// API): a name of 1 to 64 characters without `=`, spaces or control
    /// characters, as `--attribute name=value` and scopes write it, and a
    /// value of at most 1,024 characters without control characters.
    public static func check(name: String, value: String?) throws(Invalid) {
        if name.isEmpty || name.count > maximumNameLength {
            throw Invalid(description: "an attribute's name has 1 to \(maximumNameLength) characters")
        }
        if name.unicodeScalars.contains(where: {
            $0 == "=" || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        }) {
            throw Invalid(description: "attribute \"\(name)\": a name has no \"=\", spaces or control characters")
        }
        guard let value else { return }
        if value.count > maximumValueLength {
            throw Invalid(description: "attribute \(name): the value is longer than \(maximumValueLength) characters")
        }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Invalid(description: "attribute \(name): the value has control characters")
        }
    }
}
