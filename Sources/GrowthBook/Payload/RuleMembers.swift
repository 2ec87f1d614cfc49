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
            // By length first, so a name is compared with at most three others.
            let key = members[index].key
            switch key.utf8.count {
            case 2: if key == "id" { Self.keep(&id, index) }
            case 3: if key == "key" { Self.keep(&self.key, index) }
            case 4:
                if key == "seed" {
                    Self.keep(&seed, index)
                } else if key == "meta" {
                    Self.keep(&meta, index)
                } else if key == "name" {
                    Self.keep(&name, index)
                }
            case 5:
                if key == "force" {
                    Self.keep(&force, index)
                } else if key == "range" {
                    Self.keep(&range, index)
                } else if key == "phase" {
                    Self.keep(&phase, index)
                }
            case 6:
                if key == "ranges" {
                    Self.keep(&ranges, index)
                } else if key == "status" {
                    Self.keep(&status, index)
                } else if key == "active" {
                    Self.keep(&active, index)
                }
            case 7:
                if key == "weights" {
                    Self.keep(&weights, index)
                } else if key == "filters" {
                    Self.keep(&filters, index)
                }
            case 8: if key == "coverage" { Self.keep(&coverage, index) }
            case 9:
                if key == "condition" {
                    Self.keep(&condition, index)
                } else if key == "namespace" {
                    Self.keep(&namespace, index)
                }
            case 10: if key == "variations" { Self.keep(&variations, index) }
            case 11: if key == "hashVersion" { Self.keep(&hashVersion, index) }
            case 13:
                if key == "hashAttribute" {
                    Self.keep(&hashAttribute, index)
                } else if key == "bucketVersion" {
                    Self.keep(&bucketVersion, index)
                }
            case 16:
                if key == "minBucketVersion" {
                    Self.keep(&minBucketVersion, index)
                } else if key == "parentConditions" {
                    Self.keep(&parentConditions, index)
                }
            case 17: if key == "fallbackAttribute" { Self.keep(&fallbackAttribute, index) }
            case 19: if key == "contextualBanditRef" { Self.keep(&contextualBanditRef, index) }
            case 20: if key == "contextualVariations" { Self.keep(&contextualVariations, index) }
            case 22: if key == "disableStickyBucketing" { Self.keep(&disableStickyBucketing, index) }
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
