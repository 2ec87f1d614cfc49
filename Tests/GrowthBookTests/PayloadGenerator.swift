import LabTestSupport

@testable import GrowthBook

/// Payloads and users from a seed, for the differential test against the
/// JavaScript SDK: every rule kind and member the SDK reads, conditions of
/// every operator on attributes shaped as apps send them (and as they
/// sometimes send them: missing, empty, numbers in strings), and, for a
/// quarter of the cases, a second session that changes the experiments
/// under sticky buckets.
struct PayloadGenerator {
    struct Case {
        /// One payload per session, in GrowthBook's shape.
        var sessions: [JSONValue]
        var users: [JSONValue]
        /// Whether sticky buckets carry over from one session to the next.
        var sticky: Bool
    }

    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A number with few decimals, as payloads write them.
    private mutating func fraction() -> Double { Double(random.below(101)) / 100 }

    private static let countries = ["NZ", "US", "FR", "JP", "DE"]
    private static let plans = ["free", "pro", "team", "Pro"]
    private static let tags = ["beta", "staff", "qa", "new", "Beta"]
    private static let versions = [
        "1.0.0", "1.2.3", "1.10.0", "2.0.0-beta.1", "2.0.0", "0.9", "v1.2.3+build.7", "", "1.2",
    ]
    private static let numberTexts = ["0x10", " 12 ", "1_000", "12", "0b11", "", "1e3", "-0", ".5", "Infinity", "abc"]
    private static let userAgentPatterns = [
        "Mobile", "iPhone|iPad", "Android \\d+", "^Mozilla/5\\.0", "Chrome/(\\d+)\\.", "Safari/60[45]",
        "(?<!Mobile )Safari",
        "\\bFirefox\\b", "Edg/", "^okhttp", "CPU (iPhone )?OS 1[67]_", "Gecko\\)", "bot", "MyApp/4\\.\\d+",
        "[[:alpha:]]",
        "Mobile$", "^(?:(?!Android).)*$", "\\(iPad;", "SM-[A-Z]\\d+",
    ]

    mutating func payloadCase(users: Int) -> Case {
        let sticky = random.chance(0.25)
        let count = 1 + random.below(5)
        var bandits: Set<Int> = []
        let features = (0..<count).map { index in
            JSONValue.Member("f\(index)", feature(index: index, of: count, sticky: sticky, bandits: &bandits))
        }
        var members: [JSONValue.Member] = [.init("features", .object(features))]
        if random.chance(0.5) {
            members.append(
                .init(
                    "savedGroups",
                    .object([
                        .init("g1", .array([.string("NZ"), .string("US")])),
                        .init("g2", .array((0..<5).map { _ in .string("u\(random.below(20))") })),
                        .init("g3", .array([.number(1), .number(2), .string("pro")])),
                    ])
                )
            )
        }
        if !bandits.isEmpty {
            members.append(
                .init("contextualBandits", .object(bandits.sorted().map { .init("cb\($0)", contextualBandit()) }))
            )
        }
        let first = JSONValue.object(members)
        var sessions = [first]
        if sticky { sessions.append(nextSession(after: first)) }
        return Case(sessions: sessions, users: (0..<users).map { _ in user() }, sticky: sticky)
    }

    // MARK: - Users

    private mutating func user() -> JSONValue {
        var members: [JSONValue.Member] = []
        switch random.below(10) {
        case 0: break  // no id at all
        case 1: members.append(.init("id", .string("")))
        default: members.append(.init("id", .string("u\(random.below(20))")))
        }
        if random.chance(0.6) { members.append(.init("deviceId", .string("d\(random.below(30))"))) }
        if random.chance(0.8) { members.append(.init("country", .string(random.pick(Self.countries)))) }
        if random.chance(0.8) { members.append(.init("plan", .string(random.pick(Self.plans)))) }
        if random.chance(0.8) {
            members.append(
                .init(
                    "age",
                    random.chance(0.9) ? .number(Double(10 + random.below(60))) : .string("\(random.below(70))")
                )
            )
        }
        if random.chance(0.8) { members.append(.init("version", .string(random.pick(Self.versions)))) }
        if random.chance(0.7) {
            members.append(.init("tags", .array((0..<random.below(4)).map { _ in .string(random.pick(Self.tags)) })))
        }
        if random.chance(0.5) { members.append(.init("company", .string("c\(random.below(20))"))) }
        if random.chance(0.6) { members.append(.init("userAgent", .string(random.pick(RealUserAgents.all)))) }
        if random.chance(0.5) {
            let items = (0..<random.below(3)).map { _ in
                JSONValue.object([
                    .init("name", .string(random.pick(["pen", "cup", "book"]))),
                    .init("price", .number(Double(random.below(30)))),
                ])
            }
            members.append(.init("items", .array(items)))
        }
        if random.chance(0.4) { members.append(.init("n", .string(random.pick(Self.numberTexts)))) }
        if random.chance(0.3) { members.append(.init("o", random.chance(0.5) ? Self.objectOne : Self.objectTwo)) }
        if random.chance(0.3) {
            let falsyAndNot: [JSONValue] = [
                .number(0), .number(1), .string(""), .string("a"), .null, .bool(false), .bool(true),
            ]
            members.append(.init("xs", .array((0..<random.below(4)).map { _ in random.pick(falsyAndNot) })))
        }
        members.append(.init("beta", .bool(random.chance(0.5))))
        // Now and then a name twice, as hand-written JSON may hold one: the last counts.
        if random.chance(0.05) { members.append(.init("country", .string(random.pick(Self.countries)))) }
        return .object(members)
    }

    /// The same members in two orders, an integer-like name among them.
    private static let objectOne = JSONValue.object([.init("b", .number(2)), .init("1", .string("x"))])
    private static let objectTwo = JSONValue.object([.init("1", .string("x")), .init("b", .number(2))])

    // MARK: - Features and rules

    private mutating func value() -> JSONValue {
        switch random.below(6) {
        case 0: return .string(random.pick(["red", "blue", "green"]))
        case 1: return .number(Double(random.below(100)))
        case 2: return .bool(random.chance(0.5))
        case 3: return .null
        case 4: return .array([.number(Double(random.below(3)))])
        default: return .object([.init("size", .number(Double(random.below(5))))])
        }
    }

    private mutating func feature(index: Int, of count: Int, sticky: Bool, bandits: inout Set<Int>) -> JSONValue {
        var rules: [JSONValue] = []
        for ruleIndex in 0..<random.below(4) {
            let rule: JSONValue
            switch random.below(10) {
            case 0...3: rule = forceRule(count: count)
            case 4: rule = banditRule(bandits: &bandits)
            default: rule = experimentRule(count: count, sticky: sticky)
            }
            rules.append(random.chance(0.5) ? rule.adding("id", .string("r\(index)-\(ruleIndex)")) : rule)
        }
        return .object([.init("defaultValue", value()), .init("rules", .array(rules))])
    }

    private mutating func forceRule(count: Int) -> JSONValue {
        var members: [JSONValue.Member] = [.init("force", value())]
        if random.chance(0.6) { members.append(.init("condition", condition(depth: 0))) }
        if random.chance(0.3) { members.append(.init("coverage", .number(fraction()))) }
        if random.chance(0.1) {
            let start = fraction() / 2
            members.append(.init("range", .array([.number(start), .number(start + 0.5)])))
        }
        if random.chance(0.3) { members.append(.init("seed", .string(random.pick(["", "s1", "x"])))) }
        appendHashing(to: &members)
        appendSharedTargeting(to: &members, count: count)
        return .object(members)
    }

    private mutating func experimentRule(count: Int, sticky: Bool) -> JSONValue {
        let variations = 2 + random.below(3)
        var members: [JSONValue.Member] = [.init("variations", .array((0..<variations).map { _ in value() }))]
        if random.chance(0.9) {
            members.append(.init("key", .string(random.chance(0.1) ? "" : "exp-\(random.below(30))")))
        }
        if random.chance(0.6) { members.append(.init("weights", weights(variations))) }
        if random.chance(0.4) { members.append(.init("coverage", .number(fraction()))) }
        if random.chance(0.5) { members.append(.init("condition", condition(depth: 0))) }
        if random.chance(0.3) { members.append(.init("seed", .string(random.pick(["", "s\(random.below(100))"])))) }
        appendHashing(to: &members)
        if random.chance(0.2) {
            let start = Double(random.below(60)) / 100
            members.append(
                .init(
                    "namespace",
                    .array([.string("ns"), .number(start), .number(start + random.pick([0.3, 0.5, 0.6]))])
                )
            )
        }
        if random.chance(0.4) { members.append(.init("meta", meta(variations))) }
        if random.chance(0.1) {
            let share = 1 / Double(variations)
            let ranges = (0..<variations).map { index in
                JSONValue.array([.number(Double(index) * share), .number(Double(index) * share + share / 2)])
            }
            members.append(.init("ranges", .array(ranges)))
        }
        if sticky, random.chance(0.5) { members.append(.init("bucketVersion", .number(Double(random.below(2))))) }
        appendSharedTargeting(to: &members, count: count)
        return .object(members)
    }

    private mutating func banditRule(bandits: inout Set<Int>) -> JSONValue {
        let reference = random.below(3)
        // A third of the references name a bandit the payload does not hold.
        if reference < 2 { bandits.insert(reference) }
        return .object([
            .init("key", .string("bandit-\(reference)")),
            .init("contextualVariations", .array([.string("a"), .string("b"), .string("c")])),
            .init("weights", .array([.number(0.5), .number(0.3), .number(0.2)])),
            .init("contextualBanditRef", .string("cb\(reference)")),
            .init("meta", .array(["a", "b", "c"].map { .object([.init("key", .string($0))]) })),
        ])
    }

    private mutating func contextualBandit() -> JSONValue {
        let leaves = (0..<(1 + random.below(3))).map { leaf in
            JSONValue.object([
                .init("leafId", .number(Double(leaf))), .init("condition", condition(depth: 1)),
                .init("weights", weights(3)),
            ])
        }
        return .object([
            .init("banditVersion", .number(Double(1 + random.below(3)))), .init("contexts", .array(leaves)),
        ])
    }

    /// Hash and fallback attributes, hash versions (a few unknown), sticky bucketing switched off.
    private mutating func appendHashing(to members: inout [JSONValue.Member]) {
        if random.chance(0.3) {
            members.append(.init("hashAttribute", .string(random.pick(["id", "deviceId", "company", ""]))))
        }
        if random.chance(0.25) {
            members.append(.init("fallbackAttribute", .string(random.pick(["deviceId", "company"]))))
        }
        if random.chance(0.35) {
            members.append(.init("hashVersion", .number(random.chance(0.1) ? 3 : Double(1 + random.below(2)))))
        }
        if random.chance(0.1) { members.append(.init("disableStickyBucketing", .bool(true))) }
    }

    /// Filters and prerequisites, which every kind of rule may carry.
    private mutating func appendSharedTargeting(to members: inout [JSONValue.Member], count: Int) {
        if random.chance(0.12) {
            var filter: [JSONValue.Member] = [
                .init("seed", .string("fs\(random.below(3))")),
                .init("ranges", .array([.array([.number(0), .number(random.pick([0.3, 0.5, 0.8]))])])),
            ]
            if random.chance(0.3) { filter.append(.init("attribute", .string(random.pick(["deviceId", "company"])))) }
            if random.chance(0.3) { filter.append(.init("hashVersion", .number(Double(1 + random.below(2))))) }
            members.append(.init("filters", .array([.object(filter)])))
        }
        if random.chance(0.12) {
            let parent = JSONValue.object([
                .init("id", .string("f\(random.below(count + 1))")),  // sometimes a feature that does not exist
                .init(
                    "condition",
                    random.pick([#"{"value": {"$exists": true}}"#, #"{"value": true}"#, #"{"value": {"$gt": 10}}"#])
                        .json
                ),
                .init("gate", .bool(random.chance(0.3))),
            ])
            members.append(.init("parentConditions", .array([parent])))
        }
    }

    /// Weights that add up to 1, as GrowthBook writes them.
    private mutating func weights(_ count: Int) -> JSONValue {
        var raw = (0..<count).map { _ in 1 + random.below(9) }
        let total = raw.reduce(0, +)
        raw = raw.map { $0 * 100 / total }
        raw[0] += 100 - raw.reduce(0, +)
        return .array(raw.map { .number(Double($0) / 100) })
    }

    private mutating func meta(_ count: Int) -> JSONValue {
        .array(
            (0..<count).map { index in
                var members: [JSONValue.Member] = []
                if random.chance(0.8) { members.append(.init("key", .string(random.chance(0.1) ? "" : "v\(index)"))) }
                if random.chance(0.5) { members.append(.init("name", .string("Variant \(index)"))) }
                if random.chance(0.1) { members.append(.init("passthrough", .bool(true))) }
                return .object(members)
            }
        )
    }

    /// The payload a later session sees: experiments reweighted, their bucket
    /// versions raised or blocked, sticky bucketing switched off for some.
    private mutating func nextSession(after payload: JSONValue) -> JSONValue {
        let features = (payload["features"]?.members ?? []).map { feature in
            let rules = (feature.value["rules"]?.elements ?? []).map { rule -> JSONValue in
                guard let variations = rule["variations"]?.elements else { return rule }
                switch random.below(5) {
                case 0: return rule.adding("weights", weights(variations.count))
                case 1: return rule.adding("bucketVersion", .number(2))
                case 2: return rule.adding("bucketVersion", .number(1)).adding("minBucketVersion", .number(1))
                case 3: return rule.adding("coverage", .number(fraction()))
                default: return rule
                }
            }
            return JSONValue.Member(feature.key, feature.value.adding("rules", .array(rules)))
        }
        return payload.adding("features", .object(features))
    }

    // MARK: - Conditions

    private mutating func condition(depth: Int) -> JSONValue {
        if depth < 2, random.chance(0.25) {
            let parts = (0..<random.below(3)).map { _ in condition(depth: depth + 1) }
            return .object([.init(random.pick(["$or", "$and", "$nor"]), .array(parts))])
        }
        if depth < 2, random.chance(0.08) { return .object([.init("$not", condition(depth: depth + 1))]) }
        if random.chance(0.15) { return .object([attributeTest(), attributeTest()]) }
        return .object([attributeTest()])
    }

    private mutating func attributeTest() -> JSONValue.Member {
        switch random.below(22) {
        case 0:
            return .init(
                "country",
                random.chance(0.5)
                    ? .string(random.pick(Self.countries))
                    : op(random.pick(["$eq", "$ne"]), .string(random.pick(Self.countries)))
            )
        case 1:
            let list = JSONValue.array(
                (0..<(1 + random.below(3))).map { _ in .string(random.pick(Self.countries + ["nz"])) }
            )
            return .init("country", op(random.pick(["$in", "$nin", "$ini", "$nini"]), list))
        case 2:
            return .init(
                "age",
                op(
                    random.pick(["$gt", "$gte", "$lt", "$lte"]),
                    random.chance(0.8) ? .number(Double(10 + random.below(60))) : .string("3\(random.below(10))")
                )
            )
        case 3:
            return .init(random.pick(["plan", "company", "deviceId", "id"]), op("$exists", .bool(random.chance(0.5))))
        case 4:
            return .init(
                "version",
                op(
                    random.pick(["$vgt", "$vgte", "$vlt", "$vlte", "$veq", "$vne"]),
                    .string(random.pick(Self.versions))
                )
            )
        case 5:
            return .init(
                "plan",
                op(
                    random.pick(["$regex", "$regexi"]),
                    .string(random.pick(["^p", "e$", "RO", "ea", "^(free|team)$"]))
                )
            )
        case 6:
            return .init(
                random.pick(["tags", "items", "xs"]),
                op("$size", random.chance(0.7) ? .number(Double(random.below(3))) : op("$gt", .number(0)))
            )
        case 7: return .init("tags", op(random.pick(["$all", "$alli"]), .array([.string(random.pick(Self.tags))])))
        case 8:
            return .init("tags", op("$elemMatch", op(random.pick(["$eq", "$ne"]), .string(random.pick(Self.tags)))))
        case 9:
            return .init("beta", random.chance(0.5) ? .bool(random.chance(0.5)) : op("$ne", .bool(random.chance(0.5))))
        case 10:
            return .init(
                "userAgent",
                op(random.pick(["$regex", "$regexi"]), .string(random.pick(Self.userAgentPatterns)))
            )
        case 11:
            return .init(
                random.pick(["items.0.name", "items.1.price", "tags.length", "items.length", "tags.0"]),
                pathTest()
            )
        case 12:
            return .init(
                "n",
                random.pick([
                    .number(16), .number(12), .number(0), op("$gt", .number(10)), op("$lte", .number(0)), .string("12"),
                ])
            )
        case 13: return .init("o", random.pick([Self.objectOne, Self.objectTwo, op("$eq", Self.objectOne)]))
        case 14:
            return .init(
                "xs",
                op(
                    "$elemMatch",
                    random.pick([op("$exists", .bool(true)), op("$lt", .number(1)), op("$eq", .string(""))])
                )
            )
        case 15:
            return .init("items", op("$elemMatch", .object([.init("name", .string(random.pick(["pen", "cup"])))])))
        case 16:
            return .init(
                random.pick(["id", "country", "age"]),
                op(random.pick(["$inGroup", "$notInGroup"]), .string(random.pick(["g1", "g2", "g3", "g9"])))
            )
        case 17:
            return .init(
                random.pick(["age", "tags", "o", "missing", "beta"]),
                op("$type", .string(random.pick(["number", "string", "array", "object", "null", "boolean"])))
            )
        case 18: return .init("$nor", .array([]))
        case 19: return .init("tags", op("$not", op("$size", .number(0))))
        case 20:
            return .init(
                "missing",
                random.pick([
                    .null, op("$exists", .bool(false)), op("$vlt", .string("1.0.0")), op("$regex", .string("null")),
                ])
            )
        default:
            return .init(
                "country",
                random.pick([.array([.string("NZ")]), op("$in", .string("NZ")), op("$unknown", .number(1))])
            )
        }
    }

    /// What a path through an array is compared with.
    private mutating func pathTest() -> JSONValue {
        random.pick([
            .string("pen"), .number(2), .number(10), op("$gt", .number(1)), op("$exists", .bool(true)), .string("beta"),
        ])
    }

    private func op(_ name: String, _ operand: JSONValue) -> JSONValue {
        .object([.init(name, operand)])
    }
}

extension JSONValue {
    /// The object with `key` set to `value`, in place when it is there already.
    fileprivate func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        var members = self.members ?? []
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(.init(key, value))
        }
        return .object(members)
    }
}

extension String {
    /// The JSON this text holds (test literals only).
    fileprivate var json: JSONValue { (try? JSONValue.parse(self)) ?? .null }
}

/// User agents of real browsers and apps, as `$regex` conditions meet them.
enum RealUserAgents {
    static let all = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
        "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
        "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
        "Mozilla/5.0 (compatible; Googlebot/2.0; +http://www.google.com/bot.html)",
        "MyApp/4.12.0 (com.example.myapp; build:4120; iOS 17.5.1) Alamofire/5.9.1",
        "okhttp/4.12.0",
    ]
}
