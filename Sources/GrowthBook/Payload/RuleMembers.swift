/// The members GrowthBook reads from a rule or an experiment, found in one
/// pass over its object: a member's index, the first of a repeated name, as
/// a lookup by name finds it. Checks and decoding read them from here instead
/// of searching the object once for every name they know.
struct RuleMembers {
    let members: [JSONValue.Member]
    private(set) var id, key, condition, force, coverage, range, seed, hashAttribute, fallbackAttribute: Int?
    private(set) var hashVersion, variations, contextualVariations, contextualBanditRef, weights, namespace: Int?
    private(set) var meta, ranges, filters, parentConditions, name, phase, bucketVersion, minBucketVersion: Int?
    private(set) var disableStickyBucketing, status, active: Int?

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
            case (2, UInt8(ascii: "i")): if key == "id" { Self.keep(&id, index) }
            case (3, UInt8(ascii: "k")): if key == "key" { Self.keep(&self.key, index) }
            case (4, UInt8(ascii: "s")): if key == "seed" { Self.keep(&seed, index) }
            case (4, UInt8(ascii: "m")): if key == "meta" { Self.keep(&meta, index) }
            case (4, UInt8(ascii: "n")): if key == "name" { Self.keep(&name, index) }
            case (5, UInt8(ascii: "f")): if key == "force" { Self.keep(&force, index) }
            case (5, UInt8(ascii: "r")): if key == "range" { Self.keep(&range, index) }
            case (5, UInt8(ascii: "p")): if key == "phase" { Self.keep(&phase, index) }
            case (6, UInt8(ascii: "r")): if key == "ranges" { Self.keep(&ranges, index) }
            case (6, UInt8(ascii: "s")): if key == "status" { Self.keep(&status, index) }
            case (6, UInt8(ascii: "a")): if key == "active" { Self.keep(&active, index) }
            case (7, UInt8(ascii: "w")): if key == "weights" { Self.keep(&weights, index) }
            case (7, UInt8(ascii: "f")): if key == "filters" { Self.keep(&filters, index) }
            case (8, UInt8(ascii: "c")): if key == "coverage" { Self.keep(&coverage, index) }
            case (9, UInt8(ascii: "c")): if key == "condition" { Self.keep(&condition, index) }
            case (9, UInt8(ascii: "n")): if key == "namespace" { Self.keep(&namespace, index) }
            case (10, UInt8(ascii: "v")): if key == "variations" { Self.keep(&variations, index) }
            case (11, UInt8(ascii: "h")): if key == "hashVersion" { Self.keep(&hashVersion, index) }
            case (13, UInt8(ascii: "h")): if key == "hashAttribute" { Self.keep(&hashAttribute, index) }
            case (13, UInt8(ascii: "b")): if key == "bucketVersion" { Self.keep(&bucketVersion, index) }
            case (16, UInt8(ascii: "m")): if key == "minBucketVersion" { Self.keep(&minBucketVersion, index) }
            case (16, UInt8(ascii: "p")): if key == "parentConditions" { Self.keep(&parentConditions, index) }
            case (17, UInt8(ascii: "f")): if key == "fallbackAttribute" { Self.keep(&fallbackAttribute, index) }
            case (19, UInt8(ascii: "c")): if key == "contextualBanditRef" { Self.keep(&contextualBanditRef, index) }
            case (20, UInt8(ascii: "c")): if key == "contextualVariations" { Self.keep(&contextualVariations, index) }
            case (22, UInt8(ascii: "d")):
                if key == "disableStickyBucketing" { Self.keep(&disableStickyBucketing, index) }
            default: break
            }
        }
    }

    private static func keep(_ slot: inout Int?, _ index: Int) {
        if slot == nil { slot = index }
    }

    /// The value of the member at `index`, when there is one.
    subscript(_ index: Int?) -> JSONValue? {
        guard let index else { return nil }
        return members[index].value
    }
}
