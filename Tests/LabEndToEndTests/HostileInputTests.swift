import Foundation
import GRDB
import LabDrivers
import LabTestSupport
import Laboratory
import LaboratorySQLite
import Testing

/// The built `lab` against hostile payloads, state files, output and
/// terminals: every failure is a message and an exit status, never a trap,
/// and nothing saved is lost. Time bounds only prove termination.
@Suite struct HostileInputTests {
    private static let hugeVariation =
        #"{"features":{"f":{"defaultValue":0,"rules":[{"key":"e","variations":[0,[1e20]]}]}}}"#
    private static let hugeBucketVersion =
        #"{"features":{"f":{"defaultValue":0,"rules":[{"key":"e","variations":[0,1],"bucketVersion":1e19}]}}}"#
    private static let good = #"{"features":{"f":{"defaultValue":0,"rules":[{"key":"e","variations":[0,1]}]}}}"#

    @Test func aHugeNumberInAPayloadNeitherTrapsNorPoisonsTheStateFile() throws {
        let lab = try LabHarness()
        let huge = try lab.write("r1.json", Self.hugeVariation)
        let first = try lab.run("assignments", "--growthbook", huge)
        #expect(first.status == 0, "\(first.stderr)")
        let refused = try lab.run("assignments", "--growthbook", try lab.write("r2.json", Self.hugeBucketVersion))
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\"bucketVersion\" of rule 1 of feature \"f\""), "\(refused.stderr)")
        // Each start after that works, with either payload.
        #expect(try lab.run("assignments", "--growthbook", huge).status == 0)
        #expect(try lab.run("assignments", "--growthbook", try lab.write("good.json", Self.good)).status == 0)
    }

    @Test func aStoredPayloadThatNoLongerLoadsIsRefusedAndRecoversWithEverythingIntact() async throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        #expect(try lab.run("report", "subscribeButtonColor").status == 0)
        let store = try SQLiteStateStore(path: lab.state)
        let draws = try store.draws(source: "Local")
        let events = try store.latestEvents(limit: 1000).count
        // What an older release could have stored: a payload today's checks refuse.
        try store.setPayload(
            StoredPayload(data: Data(Self.hugeBucketVersion.utf8), etag: "\"old\"", fetchedAt: Date()),
            source: "GrowthBook"
        )

        let server = try TestHTTPServer { _ in .response(status: 503, headers: [:], body: Data()) }
        defer { server.stop() }
        let url = server.url.absoluteString
        let demo = LabHarness.packageRoot + "/share/laboratory/demo.json"
        let start = try lab.run("assignments", "--catalog", demo, "--growthbook", url)
        #expect(start.status == 0, "\(start.stderr)")
        #expect(start.stdout.contains("subscribeButtonColor"))
        let update = try lab.run("update", "--catalog", demo, "--growthbook", url)
        #expect(update.stdout.contains("refused") && update.stdout.contains("bucketVersion"), "\(update.stdout)")

        let good = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: Data(Self.good.utf8)) }
        defer { good.stop() }
        let recovered = try lab.run("update", "--catalog", demo, "--growthbook", good.url.absoluteString)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(!recovered.stdout.contains("set aside"))
        #expect(try lab.assignments()["subscribeButtonColor"] == "ButtonColorBlue")  // still forced
        #expect(try store.draws(source: "Local") == draws)
        #expect(try store.latestEvents(limit: 1000).count >= events)
        #expect(try store.forcedVariants().count == 1)
    }

    @Test func noTextCommandPrintsControlCharactersFromItsData() throws {
        let lab = try LabHarness()
        let evil = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let catalog = try lab.write(
            "evil.json",
            """
            {"source": "Local", "experiments": [{"name": "Evil\\u001b[31m", "keys": ["evilKey"], "baseline": "A\\u001b[2J",
              "variants": [{"name": "A\\u001b[2J", "assignments": {"evilKey": "\\u001b]0;pwned\\u0007"}},
                           {"name": "B\\u009b", "assignments": {"evilKey": "\\u001b[H"}}]}]}
            """
        )
        let results = [
            try lab.run("assignments", "--catalog", catalog),
            try lab.run("experiments", "--catalog", catalog),
            try lab.run("explain", "Evil\u{1B}[31m", "--catalog", catalog),
            try lab.run("force", "Evil\u{1B}[31m", "B\u{9B}", "--catalog", catalog),
            try lab.run("force", "Evil\u{1B}[31m", evil, "--catalog", catalog),
            try lab.run("report", "evilKey", "--catalog", catalog),
            try lab.run("events", "--catalog", catalog),
            try lab.run("update", "--catalog", catalog),
            try lab.run("unforce", "Evil\u{1B}[31m", "--catalog", catalog),
        ]
        for result in results {
            let output = result.stdout + result.stderr
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" }, "\(output)")
        }
        #expect(results[0].stdout.contains("\\u{1B}"))
        #expect(results[4].stderr.contains("\\u{1B}]0;pwned\\u{7}"))
        // JSON stays JSON: escaped the JSON way.
        let json = try lab.run("assignments", "--json", "--catalog", catalog)
        #expect(!json.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
        #expect(try LabHarness.json(json.stdout)["assignments"] != nil)
    }

    /// A line feed in a value forged a line of `lab assignments`; `ESC c`
    /// reset the terminal from `lab-demo`; U+202E reversed what followed.
    @Test func valuesCannotForgeLinesResetTheTerminalOrReverseText() throws {
        let lab = try LabHarness()
        let catalog = try lab.write(
            "forge.json",
            """
            {"source": "Local", "experiments": [{"name": "Forge", "keys": ["subscribePromptImage", "subscribeScreenFontColor"],
              "baseline": "A\\u202egnp", "variants": [{"name": "A\\u202egnp", "assignments": {
                "subscribePromptImage": "cat.png\\nfakeKey  fakeValue  Fake  Forged  Local\\u001bc",
                "subscribeScreenFontColor": "blue\\r\\tevil"}}]}]}
            """
        )
        let assignments = try lab.run("assignments", "--catalog", catalog)
        #expect(assignments.status == 0, "\(assignments.stderr)")
        let lines = assignments.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(assignments.stdout)")  // the header and the two keys
        #expect(!lines.contains { $0.hasPrefix("fakeKey") })
        let experiments = try lab.run("experiments", "--catalog", catalog)
        let demo = try Subprocess.run(
            DemoAppTests.binary,
            ["--once", "--catalog", catalog, "--state", lab.state],
            environment: lab.environment
        )
        #expect(demo.status == 0, "\(demo.stderr)")
        for output in [assignments.stdout, experiments.stdout, demo.stdout] {
            #expect(!output.unicodeScalars.contains { ["\u{1B}", "\u{202E}", "\r"].contains($0) }, "\(output)")
        }
        #expect(demo.stdout.contains("cat.png\\u{A}fakeKey"), "\(demo.stdout)")
        #expect(assignments.stdout.contains("A\\u{202E}gnp"))
    }

    @Test func aHugeRefreshIntervalIsAUsageError() throws {
        let lab = try LabHarness()
        let result = try lab.run("console", "--refresh-interval", "9223372036854775807")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--refresh-interval must be from 1 to 86400"), "\(result.stderr)")
    }

    @Test func writingToAFullDiskOrAClosedPipeIsAnErrorNotATrap() throws {
        let lab = try LabHarness()
        let full = try Subprocess.run(
            "/bin/sh",
            ["-c", "'\(LabHarness.binary)' experiments --state '\(lab.state)' > /dev/full"],
            environment: lab.environment
        )
        #expect(full.status == 74)
        #expect(full.stderr.contains("cannot write to standard output"), "\(full.stderr)")
        // A closed standard output.
        let closed = try Subprocess.run(
            "/bin/sh",
            ["-c", "'\(LabHarness.binary)' experiments --state '\(lab.state)' 1>&-"],
            environment: lab.environment
        )
        #expect(closed.status == 74)
        #expect(closed.stderr.contains("cannot write to standard output"), "\(closed.stderr)")
        // A pipe whose reader is gone before lab starts: closed here first, so nothing is left to timing.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let running = try Subprocess.start(
            LabHarness.binary,
            ["experiments", "--state", lab.state],
            environment: lab.environment,
            standardOutput: ends[1]
        )
        close(ends[1])
        let broken = running.wait()
        #expect(broken.status == 74)
        #expect(broken.stderr.contains("cannot write to standard output"), "\(broken.stderr)")
    }

    @Test func oddValuesInTheStateFileAreReportedWithTheirRow() throws {
        let lab = try LabHarness()
        #expect(try lab.run("report", "subscribeButtonColor").status == 0)
        let queue = try DatabaseQueue(path: lab.state)
        let revision = try queue.read { db in
            try Int64.fetchOne(db, sql: "SELECT revision FROM file_state")
        }
        try queue.write { db in try db.execute(sql: "UPDATE events SET time = 'garbage' WHERE id = 1") }
        let events = try lab.run("events")
        #expect(events.status == 74)
        #expect(events.stderr.contains("unexpected value") && events.stderr.contains("\"garbage\""), "\(events.stderr)")
        #expect(events.stderr.contains("id:1"))
        try queue.write { db in
            try db.execute(sql: "UPDATE events SET time = '2026-01-01 00:00:00', device = x'ff00' WHERE id = 1")
        }
        #expect(try lab.run("events", "--json").status == 74)
        try queue.write { db in try db.execute(sql: "UPDATE device SET token = x'00'") }
        let start = try lab.run("assignments")
        #expect(start.status == 74)
        #expect(start.stderr.contains("token"), "\(start.stderr)")
        // The failed commands changed nothing.
        #expect(
            try queue.read { db in try Int64.fetchOne(db, sql: "SELECT revision FROM file_state") }
                == revision
        )
    }

    /// The issue's reproduction: a dropped table trapped in GRDB (status 132).
    @Test(arguments: [
        "DROP TABLE forced_variants",
        "CREATE TRIGGER t AFTER INSERT ON forced_variants BEGIN SELECT 1; END",
        "DROP TABLE grdb_migrations",
    ])
    func aStateFileWithTablesDamagedIsRefusedWithStatus74(_ damage: String) throws {
        let lab = try LabHarness()
        #expect(try lab.run("assignments").status == 0)
        let queue = try DatabaseQueue(path: lab.state)
        try queue.writeWithoutTransaction { db in try db.execute(sql: damage) }
        try queue.close()
        let before = FileManager.default.contents(atPath: lab.state)
        for arguments in [["force", "ButtonColor", "ButtonColorBlue"], ["assignments"], ["events"]] {
            let result = try lab.runRaw(arguments + ["--state", lab.state])
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("the state file is damaged"), "\(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: lab.state) == before)
    }

    @Test func aFIFOADirectoryOrADeviceIsRefusedAtOnce() throws {
        let lab = try LabHarness()
        let fifo = lab.folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let clock = ContinuousClock()
        let start = clock.now
        for path in [fifo, lab.folder, "/dev/null"] {
            let result = try lab.runRaw(["events", "--state", path])
            #expect(result.status == 74)
            #expect(result.stderr.contains("a state file is a regular file"), "\(result.stderr)")
        }
        #expect(clock.now - start < .seconds(30))
    }

    @Test func readersDoNotWaitForAnotherProcesssLongWrite() throws {
        let lab = try LabHarness()
        #expect(try lab.run("report", "subscribeButtonColor").status == 0)
        let queue = try DatabaseQueue(path: lab.state)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try queue.write { db in
                    try db.execute(sql: "INSERT INTO stored_attributes (name, value) VALUES ('held', '1')")
                    holding.signal()
                    _ = release.wait(timeout: .now() + 60)
                }
            } catch {
                // A failed write must not leave the test waiting for ever.
                Issue.record("could not take the write lock: \(error)")
                holding.signal()
            }
        }
        holding.wait()
        defer { release.signal() }
        for command in [["events"], ["experiments"], ["explain", "ButtonColor"], ["assignments"]] {
            let result = try lab.runRaw(command + ["--state", lab.state])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    @Test func exportedOverridesAreReadableOnlyByTheirOwner() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        let path = lab.folder + "/overrides.json"
        #expect(try lab.run("overrides", "export", path).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
