import Foundation

/// The variant a person forced for one experiment through the debug source
/// (the console, `lab force`, an overrides file, the steering API), or
/// `Inactive`, for everyone or for the users of one ``Scope``.
///
/// An experiment holds at most one forced variant per scope; when several
/// match one user, ``precedes(_:)`` decides.
public struct ForcedVariant: Sendable, Hashable {
    /// The source of the experiment.
    public var source: String
    /// The experiment.
    public var experiment: String
    /// The variant to force, or `nil` to deactivate the experiment.
    public var variant: String?
    /// Whom it applies to.
    public var scope: Scope
    /// Who set it: a tester's name, or the local user's; `nil` in files of earlier releases.
    public var tester: String?
    /// When it was set; `nil` in files of earlier releases (older than any other).
    public var forcedAt: Date?

    /// A forced variant (`nil`: Inactive) of `experiment` for `scope`, set by `tester` at `forcedAt` when known.
    public init(
        source: String,
        experiment: String,
        variant: String?,
        scope: Scope = .everyone,
        tester: String? = nil,
        forcedAt: Date? = nil
    ) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.scope = scope
        self.tester = tester
        self.forcedAt = forcedAt
    }

    /// Whether it wins over `other` for a user both match: scoped beats
    /// unscoped, more attributes beat fewer, then the newest; the same scope
    /// and time are ordered by their text, so every process picks the same one.
    public func precedes(_ other: ForcedVariant) -> Bool {
        if scope.attributes.count != other.scope.attributes.count {
            return scope.attributes.count > other.scope.attributes.count
        }
        let time = forcedAt ?? .distantPast
        let otherTime = other.forcedAt ?? .distantPast
        if time != otherTime { return time > otherTime }
        return scope.storedForm < other.scope.storedForm
    }

    /// Whether it makes the same choice as `other`: the same experiment,
    /// scope, variant and tester, set at any time. Setting it again changes nothing.
    public func isSameChoice(as other: ForcedVariant) -> Bool {
        source == other.source && experiment == other.experiment && scope == other.scope
            && variant == other.variant && tester == other.tester
    }

    /// Why it wins over `other`, in the words of the precedence rule.
    public func reasonItPrecedes(_ other: ForcedVariant) -> String {
        if scope.attributes.count != other.scope.attributes.count {
            return other.scope.isEveryone
                ? "a scoped forced variant beats an unscoped one"
                : "more attributes (\(scope.attributes.count)) beat fewer (\(other.scope.attributes.count))"
        }
        return "the newest wins"
    }
}

extension ForcedVariant: Codable {
    private enum CodingKeys: String, CodingKey {
        case source, experiment, variant, scope, tester, forcedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decode(String.self, forKey: .source)
        experiment = try container.decode(String.self, forKey: .experiment)
        variant = try container.decodeIfPresent(String.self, forKey: .variant)
        scope = try Scope(validating: try container.decodeIfPresent([String: String].self, forKey: .scope) ?? [:])
        tester = try container.decodeIfPresent(String.self, forKey: .tester)
        forcedAt = try container.decodeIfPresent(String.self, forKey: .forcedAt).flatMap(Timestamp.date(fromISO8601:))
    }

    /// Everyone's forced variants are written as before (no `scope`), so files
    /// read by earlier releases keep their meaning; `variant` is always written, `null` for Inactive.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(experiment, forKey: .experiment)
        try container.encode(variant, forKey: .variant)
        if !scope.isEveryone { try container.encode(scope.attributes, forKey: .scope) }
        try container.encodeIfPresent(tester, forKey: .tester)
        try container.encodeIfPresent(forcedAt.map(Timestamp.iso8601), forKey: .forcedAt)
    }
}
