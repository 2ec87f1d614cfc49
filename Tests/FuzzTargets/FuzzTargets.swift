import Foundation
import GrowthBook
import Laboratory
import LaboratorySQLite
import LaboratoryTesting

/// What each fuzz target does with one input: the parsers that read bytes
/// from outside, and what runs on what they accept. Shared by the libFuzzer
/// builds (`Tests/Fuzz/run`) and the test that replays every corpus file,
/// crashes found once included, on each `swift test`.
public enum FuzzTargets {
    /// The targets by the name of their corpus folder.
    public static let all: [String: @Sendable (Data) -> Void] = [
        "catalog": catalog, "growthbook": growthBook, "sse": serverSentEvents, "overrides": overrides,
        "activeset": activeSet, "state": stateFile, "steering": steering, "regex": regex,
    ]

    /// A `$regex` pattern and the text it tests (split at the first 0 byte;
    /// the first byte's low bit asks for the `i` flag): parsed as JavaScript
    /// reads patterns, compiled, and run within its step budget, which must
    /// end every test; the cached answer must be the machine's.
    public static func regex(_ data: Data) {
        let bytes = [UInt8](data)
        guard let flags = bytes.first else { return }
        let rest = bytes.dropFirst()
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        let pattern = String(decoding: rest[..<split], as: UTF8.self)
        let input = split < rest.endIndex ? String(decoding: rest[(split + 1)...], as: UTF8.self) : ""
        let caseInsensitive = flags & 1 == 1
        guard let program = try? RegexProgram(pattern, caseInsensitive: caseInsensitive) else {
            let compiles = BoundedRegex.compiles(pattern, caseInsensitive: caseInsensitive)
            precondition(!compiles, "a pattern compiled once only")
            return
        }
        let outcome = RegexMachine.test(program, in: Array(input.utf16), budget: BoundedRegex.maximumSteps)
        let matched = BoundedRegex.matches(pattern, caseInsensitive: caseInsensitive, in: input)
        precondition(matched == (outcome == .matched), "the cached answer is not the machine's")
    }

    /// What testers hand the steering side: a tokens file, a typed scope
    /// (`--for`, `?for=`), a time (`forcedAt`). A scope that is taken reads
    /// back the same from its stored form, so the state file keeps it exactly.
    public static func steering(_ data: Data) {
        _ = try? SteeringTokens(decoding: data, file: "fuzz.json")
        let text = String(decoding: data, as: UTF8.self)
        _ = Timestamp.date(fromISO8601: text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let scope = try? Scope(parsing: lines) else { return }
        precondition(Scope(storedForm: scope.storedForm) == scope, "a scope did not read back from its stored form")
        precondition(scope.matches(scope.attributes), "a scope does not match its own attributes")
    }

    /// Assignment values taken from the input (split at 0xFF bytes): kept
    /// scalar for scalar through the text form stores keep them in, and never
    /// reported as entering the active set again while they stay the same.
    public static func activeSet(_ data: Data) {
        let texts = data.split(separator: 0xFF, maxSplits: 7, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        for text in texts {
            let back = AssignmentValue(taggedText: AssignmentValue.string(text).taggedText)?.stringValue
            precondition(back?.unicodeScalars.elementsEqual(text.unicodeScalars) == true, "tagged text lost a scalar")
        }
        func active(other: String) -> [Assignment] {
            texts.enumerated().map {
                Assignment(
                    key: "k\($0.offset)",
                    value: .string($0.element),
                    experiment: "E\($0.offset)",
                    variant: "V",
                    source: "L"
                )
            } + [Assignment(key: "other", value: .string(other), experiment: "Other", variant: "V", source: "L")]
        }
        let store = InMemoryStateStore()
        _ = try? store.swapActiveAssignments(active(other: "x"))
        let change = try? store.swapActiveAssignments(active(other: "y"))
        precondition(change?.entered.map(\.key) == ["other"], "an unchanged value entered the active set again")
        precondition(change?.left.map(\.key) == ["other"], "an unchanged value left the active set")
    }

    /// A catalog: decoded, then served to a device as an app would.
    public static func catalog(_ data: Data) {
        // The fast reader and the positioned one take the same catalogs, as the same model.
        let catalog = try? CatalogDecoder().decode(data, file: "fuzz.json")
        let located = try? CatalogDecoder().decodeLocated(data, file: "fuzz.json")
        precondition((catalog == nil) == (located == nil), "the catalog readers disagree on taking the file")
        precondition(catalog == located?.catalog, "the catalog readers read different catalogs")
        guard let catalog else { return }
        let store = InMemoryStateStore()
        guard let device = try? store.device(candidate: Device(id: "fuzz", token: ActiveExperimentsToken(0.25))) else {
            return
        }
        let local = LocalSource(catalog: catalog, store: store, device: device, random: SeededRandomSource(seed: 1))
        let debug = DebugSource(sources: [local], store: store)
        let manager = AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
        _ = try? manager.refresh()
        if let experiment = catalog.experiments.first, let variant = experiment.variants.last {
            _ = try? debug.force(variant: variant.name, of: experiment.name)
            _ = try? manager.refresh()
        }
    }

    /// A GrowthBook payload: checked, and when accepted, evaluated for a
    /// device with sticky buckets, as the source does on every refresh.
    public static func growthBook(_ data: Data) {
        if let text = String(data: data, encoding: .utf8) {
            // The fast parser and the positioned one accept the same texts, as the same values.
            let fast = try? JSONValueParser.parse(text.utf8)
            let positioned = try? JSONNodeParser.parse(text)
            precondition((fast == nil) == (positioned == nil), "the JSON parsers disagree on accepting the text")
            if let fast, let positioned { precondition(fast == JSONValue(positioned), "the JSON parsers disagree") }
            _ = PayloadLinter().check(text, file: "fuzz.json")
            if let fast, case .object = fast { conditionAgrees(fast) }
            // A payload's checks skip the rules their decode cleared: they find what the checks of every rule find.
            if let fast, let features = fast["features"] {
                let findings = PayloadLinter().findingsOfBothChecks(
                    features: features,
                    bandits: fast["contextualBandits"]
                )
                precondition(findings.everyRule == findings.clearedSkipped, "a decode cleared a rule the checks fault")
            }
        }
        let store = InMemoryStateStore()
        guard let device = try? store.device(candidate: Device(id: "fuzz", token: ActiveExperimentsToken(0.25))) else {
            return
        }
        let source = GrowthBookSource(
            store: store,
            device: device,
            attributes: ["country": "NZ", "version": "1.2.3"],
            fetcher: PlainPayloadFetcher(InMemoryFetcher(data))
        )
        guard (try? source.accept(data)) != nil else { return }
        _ = try? source.activeVariants()
        _ = try? source.activeVariants()
        _ = source.traces()
        _ = source.summary
        // What the Attributes screen lists: every attribute the payload's targeting reads, then evaluated set.
        let read = source.targetingAttributes
        source.useAttributes(Dictionary(uniqueKeysWithValues: read.keys.map { ($0, "fuzz") }))
        _ = try? source.activeVariants()
    }

    /// Users a condition meets: values of every type, and names that only
    /// code units tell apart (`é` in one scalar and in two, the Kelvin sign and `K`).
    private static let conditionUsers: [JSONValue] = [
        ["\u{E9}": 1, "e\u{301}": "US", "\u{212A}": "1.2.0", "K": true],
        ["country": "US", "age": 30, "version": "1.3.0", "beta": true, "tags": ["a", "b"]],
        ["country": "ca", "age": 17.5, "version": "v1.10.0-2", "beta": false, "id": ""],
        ["country": "é", "age": "18", "version": 2, "beta": .null, "tags": []],
        ["country": ["US"], "age": .null, "version": "1.2", "id": ["a": 1]],
        [:],
    ]

    /// An object read as a condition holds for each user exactly when the
    /// general walk says it does, whether or not it has a compact form (``CompactCondition``).
    private static func conditionAgrees(_ json: JSONValue) {
        let condition = Condition(json)
        for user in conditionUsers {
            precondition(
                condition.holds(for: AttributeTable(user), groups: [:]) == condition.holds(for: user, groups: [:]),
                "a condition's compact form and the general walk disagree"
            )
        }
    }

    /// An event stream, in chunks whose sizes come from the input itself.
    public static func serverSentEvents(_ data: Data) {
        var parser = ServerSentEventParser(maximumLineBytes: 4096)
        let bytes = [UInt8](data)
        var offset = 0
        var step = 1
        while offset < bytes.count {
            step = Int(bytes[offset] % 17) + 1
            let end = min(offset + step, bytes.count)
            guard (try? parser.feed(Data(bytes[offset..<end]))) != nil else { return }
            offset = end
        }
    }

    /// An overrides file: decoded, then imported against a small catalog.
    public static func overrides(_ data: Data) {
        guard let file = try? JSONDecoder().decode(OverridesFile.self, from: data),
            let catalog = try? CatalogDecoder().decode(Data(overridesCatalog.utf8), file: "catalog.json")
        else { return }
        let store = InMemoryStateStore()
        guard let device = try? store.device(candidate: Device(id: "fuzz", token: ActiveExperimentsToken(0.25))) else {
            return
        }
        let debug = DebugSource(sources: [LocalSource(catalog: catalog, store: store, device: device)], store: store)
        try? debug.importOverrides(file, replacing: data.count % 2 == 0)
        _ = try? debug.activeVariants()
        _ = try? debug.exportOverrides()
    }

    private static let overridesCatalog = """
        {"source": "Local", "experiments": [{"name": "ButtonColor", "keys": ["buttonColor"], "baseline": "Red",
          "variants": [{"name": "Red", "assignments": {"buttonColor": "red"}},
                       {"name": "Blue", "assignments": {"buttonColor": "blue"}}]}]}
        """
}
