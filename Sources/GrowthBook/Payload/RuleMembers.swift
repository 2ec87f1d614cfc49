/// The members GrowthBook reads from a rule or an experiment, found in one
/// pass over its object: a member's index, the first of a repeated name, as
/// a lookup by name finds it. Checks and decoding read them from here instead
/// of searching the object once for every name they know.
struct RuleMembers {
    let members: [JSONValue.Member]
    /// Each name's first member index, -1 for none, by ``Name``: one small
    /// vector to fill and copy, where 26 optional integers made a 420-byte
    /// struct (setting and moving them was 2 % of decoding a payload and
    /// 12 % of checking it).
    private var places = SIMD32<Int32>(repeating: -1)

    /// The names, as positions in ``places``.
    private enum Name: Int {
        case id, key, condition, force, coverage, range, seed, hashAttribute, fallbackAttribute, hashVersion
        case variations, contextualVariations, contextualBanditRef, weights, namespace, meta, ranges, filters
        case parentConditions, name, phase, bucketVersion, minBucketVersion, disableStickyBucketing, status, active
    }

    var id: Int? { place(.id) }
    var key: Int? { place(.key) }
    var condition: Int? { place(.condition) }
    var force: Int? { place(.force) }
    var coverage: Int? { place(.coverage) }
    var range: Int? { place(.range) }
    var seed: Int? { place(.seed) }
    var hashAttribute: Int? { place(.hashAttribute) }
    var fallbackAttribute: Int? { place(.fallbackAttribute) }
    var hashVersion: Int? { place(.hashVersion) }
    var variations: Int? { place(.variations) }
    var contextualVariations: Int? { place(.contextualVariations) }
    var contextualBanditRef: Int? { place(.contextualBanditRef) }
    var weights: Int? { place(.weights) }
    var namespace: Int? { place(.namespace) }
    var meta: Int? { place(.meta) }
    var ranges: Int? { place(.ranges) }
    var filters: Int? { place(.filters) }
    var parentConditions: Int? { place(.parentConditions) }
    var name: Int? { place(.name) }
    var phase: Int? { place(.phase) }
    var bucketVersion: Int? { place(.bucketVersion) }
    var minBucketVersion: Int? { place(.minBucketVersion) }
    var disableStickyBucketing: Int? { place(.disableStickyBucketing) }
    var status: Int? { place(.status) }
    var active: Int? { place(.active) }

    private func place(_ name: Name) -> Int? {
        let place = places[name.rawValue]
        return place < 0 ? nil : Int(place)
    }

    /// The members of `json`, none when it is not an object.
    init(_ json: JSONValue) {
        members = json.members ?? []
        // By index: a `for member in` loop would copy every member, value and all.
        for index in members.indices {
            // By length and first byte: then a name is compared with at most
            // one other, and only a name that is that one is compared at all
            // (two different strings of the same length took Swift's slow comparison).
            let key = members[index].key
            switch (key.utf8.count, key.utf8.first ?? 0) {
            case (2, UInt8(ascii: "i")): if key == "id" { keep(.id, index) }
            case (3, UInt8(ascii: "k")): if key == "key" { keep(.key, index) }
            case (4, UInt8(ascii: "s")): if key == "seed" { keep(.seed, index) }
            case (4, UInt8(ascii: "m")): if key == "meta" { keep(.meta, index) }
            case (4, UInt8(ascii: "n")): if key == "name" { keep(.name, index) }
            case (5, UInt8(ascii: "f")): if key == "force" { keep(.force, index) }
            case (5, UInt8(ascii: "r")): if key == "range" { keep(.range, index) }
            case (5, UInt8(ascii: "p")): if key == "phase" { keep(.phase, index) }
            case (6, UInt8(ascii: "r")): if key == "ranges" { keep(.ranges, index) }
            case (6, UInt8(ascii: "s")): if key == "status" { keep(.status, index) }
            case (6, UInt8(ascii: "a")): if key == "active" { keep(.active, index) }
            case (7, UInt8(ascii: "w")): if key == "weights" { keep(.weights, index) }
            case (7, UInt8(ascii: "f")): if key == "filters" { keep(.filters, index) }
            case (8, UInt8(ascii: "c")): if key == "coverage" { keep(.coverage, index) }
            case (9, UInt8(ascii: "c")): if key == "condition" { keep(.condition, index) }
            case (9, UInt8(ascii: "n")): if key == "namespace" { keep(.namespace, index) }
            case (10, UInt8(ascii: "v")): if key == "variations" { keep(.variations, index) }
            case (11, UInt8(ascii: "h")): if key == "hashVersion" { keep(.hashVersion, index) }
            case (13, UInt8(ascii: "h")): if key == "hashAttribute" { keep(.hashAttribute, index) }
            case (13, UInt8(ascii: "b")): if key == "bucketVersion" { keep(.bucketVersion, index) }
            case (16, UInt8(ascii: "m")): if key == "minBucketVersion" { keep(.minBucketVersion, index) }
            case (16, UInt8(ascii: "p")): if key == "parentConditions" { keep(.parentConditions, index) }
            case (17, UInt8(ascii: "f")): if key == "fallbackAttribute" { keep(.fallbackAttribute, index) }
            case (19, UInt8(ascii: "c")): if key == "contextualBanditRef" { keep(.contextualBanditRef, index) }
            case (20, UInt8(ascii: "c")): if key == "contextualVariations" { keep(.contextualVariations, index) }
            case (22, UInt8(ascii: "d")):
                if key == "disableStickyBucketing" { keep(.disableStickyBucketing, index) }
            default: break
            }
        }
    }

    /// The members of the experiment an experiment rule runs, as GrowthBook
    /// builds it: `variations` are the rule's `contextualVariations` when it
    /// has them; what stays on the rule (`id`, `force`, `range`, prerequisites,
    /// the bandit's name, and `status` and `active`, which a rule does not
    /// pass on) is absent.
    var ofExperiment: RuleMembers {
        var experiment = self
        // Lane by lane: a whole-vector operation on `SIMD32` is not
        // vectorized here and cost 1,900 instructions an experiment rule.
        // A literal of constants, which the compiler lays out once in the
        // program: a `static let` of them cost 139 more instructions an
        // experiment rule (its first-use check and the list's reference count).
        let ruleOnly: [Name] = [
            .id, .force, .range, .parentConditions, .contextualVariations, .contextualBanditRef, .status, .active,
        ]
        for name in ruleOnly { experiment.places[name.rawValue] = -1 }
        experiment.places[Name.variations.rawValue] =
            places[Name.contextualVariations.rawValue] >= 0
            ? places[Name.contextualVariations.rawValue] : places[Name.variations.rawValue]
        return experiment
    }

    private mutating func keep(_ name: Name, _ index: Int) {
        if places[name.rawValue] < 0 { places[name.rawValue] = Int32(index) }
    }

    /// The value of the member at `index`, when there is one.
    subscript(_ index: Int?) -> JSONValue? {
        guard let index else { return nil }
        return members[index].value
    }
}
