import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// `lab serve` read by real clients nobody here wrote: the official GrowthBook
/// Python SDK (streaming) and the OpenFeature Python SDK with its OFREP
/// provider, from the virtual environment `.ci/run` sets up in `.build/python`.
@Suite(.requires(PythonClients.available, PythonClients.missing))
struct InteroperabilityTests {
    @Test func theGrowthBookSDKShowsWhatLabShowsAndStreamsAForceWithItsTracking() throws {
        let lab = try LabHarness()
        let expected =
            try LabHarness.json(try lab.run("assignments", "--json").stdout)["assignments"] as? [[String: Any]] ?? []
        let drawn = expected.first { $0["key"] as? String == "subscribeButtonColor" }?["value"] as? String
        let (variant, value) = drawn == "darkGray" ? ("ButtonColorBlue", "blue") : ("ButtonColorDarkGray", "darkGray")
        let serving = try LabServe(lab)
        defer { serving.stop() }
        let result = try PythonClients.run(
            "growthbook_client.py",
            [
                try PythonClients.config(
                    base: serving.base,
                    attributes: ["id": "interop-user"],
                    force: [LabHarness.binary, "force", "ButtonColor", variant, "--state", lab.state],
                    feature: "subscribeButtonColor",
                    expected: value
                )
            ],
            environment: lab.environment
        )
        let initial = try #require(result["initial"] as? [String: Any])
        for row in expected {
            let key = row["key"] as? String ?? ""
            #expect("\(initial[key] ?? "nil")" == "\(row["value"] ?? "nil")", "\(key)")
        }
        let seconds = try #require(result["seconds"] as? Double, "the forced value never arrived: \(result)")
        #expect(seconds < 5)  // within a second in practice (the benchmark measures it); this proves it arrives
        // One payload request: the forced value came down the stream, not from a new fetch.
        #expect(serving.log.components(separatedBy: "GET /api/features/").count - 1 == 1, "\(serving.log)")
        let tracked = result["tracked"] as? [[String: Any]] ?? []
        #expect(
            tracked.contains { $0["experiment"] as? String == "ButtonColor" && $0["key"] as? String == variant },
            "\(tracked)"
        )
    }

    /// A GrowthBook payload whose rules target users: the Dutch get a force
    /// rule, pro users an experiment.
    static let upstreamPayload = """
        {"features": {"headline": {"defaultValue": "Hello", "rules": [
          {"force": "Hoi", "condition": {"country": "NL"}},
          {"key": "headline-test", "variations": ["Hello", "Welcome"], "weights": [0.5, 0.5], "coverage": 1,
           "condition": {"plan": "pro"}, "meta": [{"key": "plain", "name": "Plain"}, {"key": "warm", "name": "Warm"}]}]}}}
        """

    /// The OFREP provider's evaluation context is evaluated against the
    /// upstream rules; a forced experiment answers every context.
    @Test func theOFREPContextIsEvaluatedAgainstUpstreamRules() throws {
        let lab = try LabHarness()
        let payload = try lab.write("payload.json", Self.upstreamPayload)
        let serving = try LabServe(lab, ["--growthbook", payload])
        defer { serving.stop() }
        let dutch = try PythonClients.run(
            "ofrep_client.py",
            [serving.base, "--context", #"{"targetingKey": "u1", "country": "NL"}"#, "headline:string"],
            environment: lab.environment
        )
        let rule = try #require(dutch["headline"] as? [String: Any])
        #expect(rule["value"] as? String == "Hoi" && (rule["reason"] as? String)?.contains("TARGETING_MATCH") == true)
        #expect((rule["metadata"] as? [String: Any])?["experiment"] as? String == "headline: force")
        #expect(try lab.run("force", "headline-test", "Warm", "--growthbook", payload).status == 0)
        // The server notices the state file's change within a poll: ask until it has.
        func ask() throws -> [String: Any] {
            let forced = try PythonClients.run(
                "ofrep_client.py",
                [serving.base, "--context", #"{"targetingKey": "u1", "country": "NL"}"#, "headline:string"],
                environment: lab.environment
            )
            return forced["headline"] as? [String: Any] ?? [:]
        }
        let answer =
            try Poll.until(seconds: 10, every: 0.1) { () throws -> [String: Any]? in
                let answer = try ask()
                return answer["value"] as? String == "Welcome" ? answer : nil
            } ?? ask()
        #expect(answer["value"] as? String == "Welcome" && answer["variant"] as? String == "Warm")
        #expect((answer["reason"] as? String)?.contains("STATIC") == true)
        #expect((answer["metadata"] as? [String: Any])?["forced"] as? Bool == true)
    }

    /// An upstream GrowthBook payload whose rules target users: `lab serve`
    /// passes them through, so the SDK's own user is evaluated by them, and a
    /// forced experiment reaches that user, tracking included.
    @Test func anUpstreamPayloadKeepsItsTargetingAndAForceReachesAnyUser() throws {
        let lab = try LabHarness()
        let payload = try lab.write("payload.json", Self.upstreamPayload)
        let serving = try LabServe(lab, ["--growthbook", payload])
        defer { serving.stop() }
        let result = try PythonClients.run(
            "growthbook_client.py",
            [
                try PythonClients.config(
                    base: serving.base,
                    attributes: ["id": "someone-else", "country": "NL", "plan": "free"],
                    force: [
                        LabHarness.binary, "force", "headline-test", "Warm", "--growthbook", payload, "--state",
                        lab.state,
                    ],
                    feature: "headline",
                    expected: "Welcome"
                )
            ],
            environment: lab.environment
        )
        // Before the force, GrowthBook's own targeting decided for this user.
        #expect((result["initial"] as? [String: Any])?["headline"] as? String == "Hoi")
        let seconds = try #require(result["seconds"] as? Double, "the forced value never arrived: \(result)")
        #expect(seconds < 5)
        let tracked = result["tracked"] as? [[String: Any]] ?? []
        #expect(
            tracked.contains {
                $0["experiment"] as? String == "headline-test" && $0["key"] as? String == "warm"
                    && $0["name"] as? String == "Warm"
            },
            "\(tracked)"
        )
    }

    @Test func theOFREPProviderGetsEachKeysVariantReasonAndMetadata() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        let serving = try LabServe(lab)
        defer { serving.stop() }
        let answers = try PythonClients.run(
            "ofrep_client.py",
            [
                serving.base, "subscribeButtonColor:string", "onboardingPageCount:integer",
                "profileShowsBadges:boolean",
                "noSuchKey:string",
            ],
            environment: lab.environment
        )
        let button = try #require(answers["subscribeButtonColor"] as? [String: Any])
        #expect(button["value"] as? String == "blue")
        #expect(button["variant"] as? String == "ButtonColorBlue")
        #expect((button["reason"] as? String)?.contains("STATIC") == true)
        let metadata = button["metadata"] as? [String: Any] ?? [:]
        #expect(metadata["experiment"] as? String == "ButtonColor")
        #expect(metadata["source"] as? String == "Local")
        #expect(metadata["forced"] as? Bool == true)
        let assignments =
            try LabHarness.json(try lab.run("assignments", "--json").stdout)["assignments"] as? [[String: Any]] ?? []
        for row in assignments where ["onboardingPageCount", "profileShowsBadges"].contains(row["key"] as? String) {
            let answer = answers[row["key"] as! String] as? [String: Any] ?? [:]
            #expect(answer["variant"] as? String == row["variant"] as? String)
            #expect("\(answer["value"] ?? "nil")" == "\(row["value"] ?? "nil")")
        }
        #expect((answers["noSuchKey"] as? [String: Any])?["error"] as? String == "FLAG_NOT_FOUND")
    }

    /// With a client key, the OFREP provider reads with `Authorization: Bearer`
    /// and gets nothing without it.
    @Test func theOFREPProviderSendsTheClientKeyAndIsRefusedWithoutIt() throws {
        let lab = try LabHarness()
        let serving = try LabServe(lab, ["--client-key", "sdk-qa"])
        defer { serving.stop() }
        let keyed = try PythonClients.run(
            "ofrep_client.py",
            [serving.base, "--api-key", "sdk-qa", "subscribeButtonColor:string"],
            environment: lab.environment
        )
        let answer = try #require(keyed["subscribeButtonColor"] as? [String: Any])
        #expect(answer["error"] as? String == "None", "\(answer)")
        #expect(["red", "blue", "darkGray"].contains(answer["value"] as? String ?? ""), "\(answer)")
        for arguments in [[serving.base], [serving.base, "--api-key", "sdk-wrong"]] {
            let refused = try PythonClients.run(
                "ofrep_client.py",
                arguments + ["subscribeButtonColor:string"],
                environment: lab.environment
            )
            let answer = try #require(refused["subscribeButtonColor"] as? [String: Any])
            #expect(answer["value"] as? String == "missing", "\(arguments): \(answer)")
            #expect(answer["error"] as? String != "None", "\(arguments): \(answer)")
        }
    }

    /// Team steering at the seams: one `lab serve`, an SDK per user. A
    /// variant a connected console scoped to user A forces reaches A's SDK
    /// (and its tracking callback) and no one else's; an SDK that sets no
    /// `id` gets what `lab assignments` shows; the OFREP provider with A's
    /// targeting key gets it as STATIC.
    @Test(.requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux"))
    func aScopedForceReachesOnlyItsUsersSDK() throws {
        let lab = try LabHarness()
        let expected =
            try LabHarness.json(try lab.run("assignments", "--json").stdout)["assignments"] as? [[String: Any]] ?? []
        let drawn = try #require(
            expected.first { $0["key"] as? String == "subscribeButtonColor" }?["value"] as? String
        )
        // The variant next to the drawn one in the console's list (Red, Blue, DarkGray, Inactive).
        let (variant, value, key) =
            switch drawn {
            case "red": ("ButtonColorBlue", "blue", "Down")
            case "blue": ("ButtonColorDarkGray", "darkGray", "Down")
            default: ("ButtonColorBlue", "blue", "Up")
            }
        let serving = try LabServe(lab)
        defer { serving.stop() }
        // One process per SDK, as on separate devices: the SDK keeps one stream per process.
        let users = ["A": ["id": "qa-phone-a"], "B": ["id": "qa-phone-b"], "none": ["deviceId": "no-id-here"]]
        var watchers: [String: Subprocess.Running] = [:]
        defer {
            for watcher in watchers.values {
                kill(watcher.pid, SIGKILL)
                _ = watcher.wait()  // reaps it and removes its output files
            }
        }
        for (name, attributes) in users {
            let config: [String: Any] = [
                "base": serving.base, "clientKey": "key-\(name)", "attributes": attributes,
                "feature": "subscribeButtonColor",
            ]
            watchers[name] = try Subprocess.start(
                PythonClients.python,
                [
                    PythonClients.scripts + "growthbook_watcher.py",
                    String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self),
                ],
                environment: lab.environment
            )
        }
        var before: [String: String] = [:]
        for (name, watcher) in watchers {
            let ready = try #require(
                Poll.until(seconds: 30) {
                    let text = (try? String(contentsOfFile: watcher.stdoutPath, encoding: .utf8)) ?? ""
                    return text.split(separator: "\n").first.map(String.init)
                },
                "\(name)'s SDK never loaded its features"
            )
            before[name] = try LabHarness.json(ready)["value"] as? String
        }
        #expect(before == ["A": drawn, "B": drawn, "none": drawn], "every SDK starts with what lab assignments shows")
        // A tester's console, connected to the server and scoped to phone A, forces it.
        let console = try Tmux(
            command: "'\(LabHarness.binary)' console --connect \(serving.base) --as id=qa-phone-a",
            environment: lab.environment
        )
        defer { console.kill() }
        #expect(console.waitFor("as id=qa-phone-a", timeout: 20), "\(console.capture())")
        try console.send("Enter")  // Experiments
        #expect(console.waitFor("ButtonColor"))
        try console.send("Enter", key)  // ButtonColor's variants, the one next to the drawn
        let forcedAt = Date().timeIntervalSince1970
        try console.send("Enter")
        #expect(console.waitFor("Forced ButtonColor to \(variant) for id=qa-phone-a."), "\(console.capture())")
        var results: [String: [String: Any]] = [:]
        for (name, watcher) in watchers {
            let output = watcher.wait().stdout.split(separator: "\n").last.map(String.init) ?? ""
            results[name] = try LabHarness.json(output)
        }
        watchers = [:]
        for name in users.keys {
            #expect(results[name]?["rulesChangedAt"] is Double, "\(name) never got the new payload: \(results)")
        }
        let arrived = try #require(results["A"]?["valueChangedAt"] as? Double, "A never got it: \(results)")
        #expect(arrived - forcedAt < 5)  // about 0.1 s in practice; this proves it arrives
        #expect(results["A"]?["value"] as? String == value)
        // B and the SDK without an id keep what they had, which is what this device shows.
        #expect(results["B"]?["value"] as? String == drawn && results["none"]?["value"] as? String == drawn)
        let tracked = results.mapValues { $0["tracked"] as? [[String: Any]] ?? [] }
        #expect(
            tracked["A"]?.contains { $0["experiment"] as? String == "ButtonColor" && $0["key"] as? String == variant }
                == true,
            "\(tracked)"
        )
        #expect(tracked["B"]?.allSatisfy { $0["key"] as? String != variant } == true, "\(tracked)")
        // OFREP: A's targeting key gets the forced variant as STATIC; B's does not.
        for (key, wanted, reasonIsStatic) in [("qa-phone-a", value, true), ("qa-phone-b", drawn, false)] {
            let answers = try PythonClients.run(
                "ofrep_client.py",
                [serving.base, "--context", #"{"targetingKey": "\#(key)"}"#, "subscribeButtonColor:string"],
                environment: lab.environment
            )
            let answer = try #require(answers["subscribeButtonColor"] as? [String: Any])
            #expect(answer["value"] as? String == wanted, "\(key): \(answer)")
            #expect((answer["reason"] as? String)?.contains("STATIC") == reasonIsStatic, "\(key): \(answer)")
        }
        // Settings' list, `lab experiments`: the forced variant says for whom and who set it.
        let experiments = try LabHarness.json(try lab.run("experiments", "--json").stdout)
        let rows = experiments["experiments"] as? [[String: Any]] ?? []
        let button = try #require(rows.first { $0["name"] as? String == "ButtonColor" })
        let forced = try #require((button["forcedVariants"] as? [[String: Any]])?.first)
        #expect(forced["scope"] as? [String: String] == ["id": "qa-phone-a"])
        #expect((forced["tester"] as? String)?.isEmpty == false)
    }
}

/// The Python interpreter of `.build/python`, when the clients are installed there.
enum PythonClients {
    static let python = LabHarness.packageRoot + "/.build/python/bin/python"
    static let scripts = LabHarness.packageRoot + "/Tests/LabEndToEndTests/Interop/"
    static let missing: Comment =
        "the Python clients are not installed: python3 -m venv .build/python && .build/python/bin/pip install growthbook openfeature-sdk openfeature-provider-ofrep (as .ci/run does)"

    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = try? Subprocess.run(
            python,
            ["-c", "import growthbook, openfeature.contrib.provider.ofrep"],
            environment: [:]
        )
        return check?.status == 0
    }()

    /// The GrowthBook client's configuration, as the one argument it takes.
    static func config(
        base: String,
        attributes: [String: String],
        force: [String],
        feature: String,
        expected: String
    ) throws -> String {
        let object: [String: Any] = [
            "base": base, "clientKey": "any-key", "attributes": attributes, "force": force, "feature": feature,
            "expected": expected,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// Runs a script and parses the JSON document it prints.
    static func run(_ script: String, _ arguments: [String], environment: [String: String]) throws -> [String: Any] {
        let result = try Subprocess.run(python, [scripts + script] + arguments, environment: environment)
        guard result.status == 0 else { throw HarnessError("\(script) failed (\(result.status)): \(result.stderr)") }
        return try LabHarness.json(result.stdout.split(separator: "\n").last.map(String.init) ?? "")
    }
}
