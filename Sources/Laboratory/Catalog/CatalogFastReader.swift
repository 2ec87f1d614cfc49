import GrowthBook

/// Reads a sound catalog straight from its parsed values, keeping no positions:
/// the fast path of ``CatalogDecoder``, since catalogs are read on every
/// start and are far more often right than wrong.
///
/// It checks every rule ``CatalogReader`` checks, but says nothing of what
/// is wrong: any catalog it does not take whole (`nil`) is read again by
/// ``CatalogReader``, whose diagnostics name each problem and its place. A
/// differential fuzz target and tests hold the two readers together.
enum CatalogFastReader {
    /// The catalog in `bytes`, or `nil` when they are not a sound catalog
    /// (or not plain ASCII: the `String` form takes text already checked as UTF-8).
    static func read(ascii bytes: some Collection<UInt8>) -> Catalog? {
        // Bytes past ASCII may be invalid UTF-8, which the parser would repair rather than refuse.
        guard isASCII(bytes) else { return nil }
        return read(utf8: bytes)
    }

    /// Whether every byte is below 0x80, eight at a time where the bytes are
    /// contiguous (`Data`'s own iterator, byte by byte, took a tenth of a
    /// console's start at 10,000 experiments).
    static func isASCII(_ bytes: some Collection<UInt8>) -> Bool {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer -> Bool in
            let raw = UnsafeRawBufferPointer(buffer)
            let words = raw.count / 8
            var high: UInt64 = 0
            for word in 0..<words { high |= raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self) }
            for index in (words * 8)..<raw.count { high |= UInt64(raw[index]) }
            return high & 0x8080_8080_8080_8080 == 0
        }
        return contiguous ?? !bytes.contains { $0 >= 0x80 }
    }

    /// The catalog in `text`, or `nil` when the text is not a sound catalog.
    static func read(_ text: String) -> Catalog? {
        read(utf8: text.utf8)
    }

    /// Reads each experiment as soon as it is parsed, so only one
    /// experiment's values are held at a time besides the model.
    private static func read(utf8 bytes: some Collection<UInt8>) -> Catalog? {
        let experiments = ReadExperiments()
        guard
            let root = try? JSONValueParser.parse(
                bytes,
                handingOverElementsOf: "experiments",
                each: { element in
                    guard experiments.isSound else { return }
                    guard let experiment = experiment(element), experiments.names.insert(experiment.name).inserted
                    else {
                        experiments.isSound = false
                        return
                    }
                    experiments.read.append(experiment)
                }
            ),
            experiments.isSound, case .object(let members) = root,
            hasOnly(members, allowed: ["source", "experiments"]),
            case .string(let source)? = root["source"], !source.isEmpty,
            case .array(let left)? = root["experiments"], left.isEmpty
        else { return nil }
        return Catalog(source: source, experiments: experiments.read)
    }

    /// The experiments read so far; the parser's callback cannot stop it,
    /// so this also says whether all went well.
    private final class ReadExperiments {
        var read: [Experiment] = []
        var names: Set<String> = []
        var isSound = true
    }

    /// An experiment's members, each read once in one pass over the object.
    private struct ExperimentMembers {
        var name, keys, variants, baseline, activeTokenRange, subject, bucketing, whitelist, status, winner: JSONValue?

        /// The members of `object`, or `nil` for an unknown one or one that appears twice.
        init?(_ members: [JSONValue.Member]) {
            for member in members {
                let taken: Bool
                switch member.key {
                case "name": taken = Self.fill(&name, member.value)
                case "keys": taken = Self.fill(&keys, member.value)
                case "variants": taken = Self.fill(&variants, member.value)
                case "baseline": taken = Self.fill(&baseline, member.value)
                case "activeTokenRange": taken = Self.fill(&activeTokenRange, member.value)
                case "subject": taken = Self.fill(&subject, member.value)
                case "bucketing": taken = Self.fill(&bucketing, member.value)
                case "whitelist": taken = Self.fill(&whitelist, member.value)
                case "status": taken = Self.fill(&status, member.value)
                case "winner": taken = Self.fill(&winner, member.value)
                default: return nil
                }
                guard taken else { return nil }
            }
        }

        /// Puts `value` in an empty slot; `false` when the member came before.
        private static func fill(_ slot: inout JSONValue?, _ value: JSONValue) -> Bool {
            guard slot == nil else { return false }
            slot = value
            return true
        }
    }

    private static func experiment(_ value: JSONValue) -> Experiment? {
        guard case .object(let object) = value, let members = ExperimentMembers(object),
            case .string(let name)? = members.name, !name.isEmpty,
            let keys = keys(members.keys),
            case .string(let baseline)? = members.baseline,
            case .array(let elements)? = members.variants, !elements.isEmpty
        else { return nil }
        var range: HalfOpenRange?
        if let node = members.activeTokenRange {
            guard let read = tokenRange(node) else { return nil }
            range = read
        }
        // One sorted array of keys for all the variants (they share its
        // storage), the experiment's own when it lists them sorted.
        let sortedKeys = zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } ? keys : keys.sorted()
        var variants: [Variant] = []
        variants.reserveCapacity(elements.count)
        var variantNames = NameSet()
        for element in elements {
            guard let variant = variant(element, sortedKeys: sortedKeys),
                variantNames.insert(variant.name)
            else { return nil }
            variants.append(variant)
        }
        // The baseline shares its variant's name: one string where there were two, thousands of times.
        guard let baselineIndex = variants.firstIndex(where: { $0.name == baseline }),
            let subject = choice(Subject.self, members.subject, default: .device),
            let bucketing = choice(Bucketing.self, members.bucketing, default: subject == .user ? .hash : .random),
            !(subject == .user && bucketing == .random)
        else { return nil }
        var whitelist: [String: String] = [:]
        if let node = members.whitelist {
            guard case .object(let pairs) = node else { return nil }
            for pair in pairs {
                guard case .string(let variant) = pair.value, variantNames.contains(variant) else { return nil }
                whitelist[pair.key] = variant
            }
        }
        guard let resolution = resolution(status: members.status, winner: members.winner, variants: variantNames)
        else { return nil }
        return Experiment(
            name: name,
            keys: keys,
            variants: variants,
            baseline: variants[baselineIndex].name,
            activeTokenRange: range,
            subject: subject,
            bucketing: bucketing,
            whitelist: whitelist,
            winner: resolution.winner
        )
    }

    /// At least one key, each a non-empty string, none twice.
    private static func keys(_ value: JSONValue?) -> [String]? {
        guard case .array(let elements)? = value, !elements.isEmpty else { return nil }
        var keys: [String] = []
        keys.reserveCapacity(elements.count)
        var seen = NameSet()
        for element in elements {
            guard case .string(let key) = element, !key.isEmpty, seen.insert(key) else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// `[start, end]` inside [0, 1], in order.
    private static func tokenRange(_ value: JSONValue) -> HalfOpenRange? {
        guard case .array(let elements) = value, elements.count == 2,
            case .number(let lower) = elements[0], case .number(let upper) = elements[1],
            (0...1).contains(lower), (0...1).contains(upper), lower <= upper
        else { return nil }
        return HalfOpenRange(lower: lower, upper: upper)
    }

    /// A variant that assigns exactly the experiment's keys, with a positive weight.
    private static func variant(_ value: JSONValue, sortedKeys: [String]) -> Variant? {
        guard case .object(let members) = value else { return nil }
        var name: String?
        var weight: Double?
        var pairs: [JSONValue.Member]?
        for member in members {
            switch (member.key, member.value) {
            case ("name", .string(let given)) where name == nil && !given.isEmpty: name = given
            case ("weight", .number(let given)) where weight == nil && given > 0: weight = given
            case ("assignments", .object(let given)) where pairs == nil: pairs = given
            default: return nil  // unknown, repeated, or not what it must be
            }
        }
        guard let name, let pairs, pairs.count == sortedKeys.count else { return nil }
        var values = [AssignmentValue](repeating: .bool(false), count: sortedKeys.count)
        var assigned = [Bool](repeating: false, count: sortedKeys.count)
        for pair in pairs {
            guard let index = VariantAssignments.index(of: pair.key, inSorted: sortedKeys), !assigned[index] else {
                return nil
            }
            assigned[index] = true
            switch pair.value {
            case .string(let text): values[index] = .string(text)
            case .number(let number): values[index] = .number(number)
            case .bool(let flag): values[index] = .bool(flag)
            default: return nil
            }
        }
        // As many pairs as keys, each a key, none twice: every key is assigned.
        return Variant(
            name: name,
            weight: weight ?? 1,
            assignments: VariantAssignments(sortedKeys: sortedKeys, values: values)
        )
    }

    /// One of an enumeration's raw values, or `fallback` when the member is absent.
    private static func choice<T: RawRepresentable>(_: T.Type, _ value: JSONValue?, default fallback: T) -> T?
    where T.RawValue == String {
        guard let value else { return fallback }
        guard case .string(let text) = value else { return nil }
        return T(rawValue: text)
    }

    /// Whether an experiment runs or is resolved with its winner.
    private enum Resolution {
        case running
        case resolved(winner: String)

        var winner: String? {
            if case .resolved(let winner) = self { return winner }
            return nil
        }
    }

    /// `"status"` and `"winner"`: a winner exactly when resolved, one of
    /// the variants; `nil` when they do not agree.
    private static func resolution(status: JSONValue?, winner: JSONValue?, variants: NameSet) -> Resolution? {
        var resolved = false
        if let status {
            guard case .string(let text) = status, text == "running" || text == "resolved" else { return nil }
            resolved = text == "resolved"
        }
        guard let node = winner else { return resolved ? nil : .running }
        guard case .string(let winner) = node, resolved, variants.contains(winner) else { return nil }
        return .resolved(winner: winner)
    }

    /// Names seen so far: an array while they are few (an experiment's keys
    /// and variants, almost always), where hashing would cost more than it saves.
    private struct NameSet {
        private var few: [String] = []
        private var many: Set<String>?

        init() {}

        init(_ names: [String]) {
            for name in names { _ = insert(name) }
        }

        func contains(_ name: String) -> Bool {
            many?.contains(name) ?? few.contains(name)
        }

        /// Adds `name`; `false` when it was there already.
        mutating func insert(_ name: String) -> Bool {
            if many != nil { return many!.insert(name).inserted }
            if few.contains(name) { return false }
            few.append(name)
            if few.count > 16 { many = Set(few) }
            return true
        }
    }

    /// Whether every member is allowed and none appears twice.
    private static func hasOnly(_ members: [JSONValue.Member], allowed: [String]) -> Bool {
        var seen: [String] = []
        for member in members {
            guard allowed.contains(member.key), !seen.contains(member.key) else { return false }
            seen.append(member.key)
        }
        return true
    }
}
