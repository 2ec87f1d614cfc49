// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Laboratory",
    products: [
        .library(name: "GrowthBook", targets: ["GrowthBook"]),
        .library(name: "GrowthBookNetwork", targets: ["GrowthBookNetwork"]),
        .library(name: "Laboratory", targets: ["Laboratory"]),
        .library(name: "LaboratorySQLite", targets: ["LaboratorySQLite"]),
        .library(name: "LaboratoryRuntime", targets: ["LaboratoryRuntime"]),
        .library(name: "LaboratoryTesting", targets: ["LaboratoryTesting"]),
        .executable(name: "lab", targets: ["lab"]),
        .executable(name: "lab-demo", targets: ["lab-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        // Without its default ConfigurationSupport trait: the server reads no swift-configuration provider,
        // so no build compiles that package.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // Both already come with Hummingbird: the server's channel handlers name their types.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        // Also one of Hummingbird's: TLS for the event stream an app reads with backpressure of its own.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
    ],
    targets: [
        // A GrowthBook SDK for server-side Swift, Foundation only, no I/O and no Laboratory types: payloads
        // decoded and checked once, conditions, hashing and bucketing, feature and experiment evaluation,
        // sticky buckets, prerequisites. A server that only wants GrowthBook imports this.
        .target(name: "GrowthBook"),
        // GrowthBook's network half: fetching with ETags, server-sent events with capped backoff,
        // decryption (swift-crypto), and the updater that keeps a payload current for any app.
        .target(
            name: "GrowthBookNetwork",
            dependencies: [
                "GrowthBook", .product(name: "_CryptoExtras", package: "swift-crypto"),
                // A connected client says why a fetch failed or a payload was refused.
                .product(name: "Logging", package: "swift-log"),
                // The event stream reads its socket only as fast as it parses (URLSession on Linux does not).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Pure core: model, catalog, bucketing, sources, manager, events, and the GrowthBook source that maps
        // GrowthBook's rules onto experiments. Foundation only, no I/O: it takes bytes.
        .target(name: "Laboratory", dependencies: ["GrowthBook"]),
        // In-memory twins for tests of apps and of Laboratory itself: state store, event sink,
        // fetcher, clock and random sources.
        .target(name: "LaboratoryTesting", dependencies: ["Laboratory"]),
        // The state store and event table on SQLite (GRDB): one file that the app, the console and the server
        // open at the same time.
        .target(
            name: "LaboratorySQLite",
            dependencies: [
                "Laboratory", "GrowthBook", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own calls, for writing thousands of rows at once (BulkInsert).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The runtime wiring an app links: LocalLaboratory (sources, store, manager and debug source wired
        // together), the GrowthBook connection, watching catalog files, and reading and writing files.
        .target(
            name: "LaboratoryRuntime",
            dependencies: ["Laboratory", "GrowthBook", "GrowthBookNetwork", "LaboratorySQLite"]
        ),
        // `lab serve`: the state file as GrowthBook SDK endpoints, OFREP and events in (the only Hummingbird user).
        .target(
            name: "LaboratoryServer",
            dependencies: [
                "GrowthBook", "Laboratory", "LaboratorySQLite", "LaboratoryRuntime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // Pure console core: Tweaks tree, state, reducer, rendering into a screen buffer.
        .target(name: "LaboratoryConsole", dependencies: ["GrowthBook", "Laboratory"]),
        // ncursesw, for the one module that draws on a real terminal.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "ConsoleCurses", dependencies: ["CNcursesw", "LaboratoryConsole"]),
        .executableTarget(
            name: "lab",
            dependencies: [
                "GrowthBook",
                "Laboratory",
                "LaboratorySQLite",
                "LaboratoryRuntime",
                "GrowthBookNetwork",
                "LaboratoryServer",
                "LaboratoryConsole",
                "ConsoleCurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The demo app: the framework used as an app uses it.
        .executableTarget(
            name: "lab-demo",
            dependencies: [
                "Laboratory",
                "LaboratoryConsole",
                "LaboratoryRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Counts heap allocations in the one executable that links it (`lab-bench`).
        .target(name: "CAllocationCounter"),
        // Benchmarks: `swift run -c release lab-bench`.
        .executableTarget(
            name: "lab-bench",
            dependencies: [
                // `lab-bench server` drives the built `lab serve` over raw loopback connections.
                "lab", "LabDrivers",
                "GrowthBook",
                "Laboratory",
                "LaboratoryRuntime",
                "LaboratoryConsole",
                "LaboratoryServer",
                "ConsoleCurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "CAllocationCounter",
            ],
            // The Python GrowthBook SDK's side of `lab-bench growthbook`.
            exclude: ["growthbook_python_bench.py"]
        ),
        // The GrowthBook library's own tests: the conformance suite, hashing, the JSON parser.
        .testTarget(
            name: "GrowthBookTests",
            dependencies: ["GrowthBook", "LabTestSupport", "LabDrivers"],
            exclude: ["Differential"]  // the JavaScript side of the differential test, run with node
        ),
        // The core's tests; LaboratoryRuntime only to read catalog files from disk.
        .testTarget(
            name: "LaboratoryTests",
            dependencies: ["GrowthBook", "Laboratory", "LaboratoryTesting", "LaboratoryRuntime", "LabTestSupport"]
        ),
        .testTarget(
            name: "LaboratorySQLiteTests",
            dependencies: [
                "LaboratorySQLite", "LaboratoryRuntime", "LaboratoryTesting", "LabTestSupport",
                // GRDB's own reading and writing of times, which `StoredTime` must match.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]  // state files of earlier releases, read by path
        ),
        // LocalLaboratory's wiring and the catalog watcher, over real files.
        .testTarget(
            name: "LaboratoryRuntimeTests",
            dependencies: [
                "LaboratoryRuntime", "LaboratorySQLite", "LaboratoryTesting", "LabTestSupport", "LabDrivers",
            ]
        ),
        // The rules every StateStore must keep, run against each store.
        .testTarget(
            name: "StateStoreContractTests",
            dependencies: ["LaboratorySQLite", "LaboratoryTesting", "LabTestSupport"]
        ),
        .testTarget(
            name: "LaboratoryServerTests",
            dependencies: [
                "LaboratoryServer", "GrowthBook", "GrowthBookNetwork", "LaboratoryRuntime", "LaboratoryTesting",
                "LabTestSupport",
                // What a request gets, through the router without a socket, where sockets are not the point: the
                // context's channel is an embedded one (HummingbirdTesting would build an HTTP client and HTTP/2).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                // The request bounds handler's parts, on an embedded channel.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // The method of a request sent over a socket (`HTTPExchange`'s).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // To hold the state file's write lock as another process would.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "GrowthBookNetworkTests",
            dependencies: [
                "GrowthBookNetwork", "Laboratory", "LaboratoryTesting", "LabTestSupport",
                // A TLS server with a certificate of the tests' own, for the client's `https`.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // A small HTTP server on 127.0.0.1 that the remote-source tests answer badly with, and what suites need.
        .target(name: "LabTestSupport", dependencies: ["LabDrivers"], path: "Tests/LabTestSupport"),
        // What drives `lab` from outside, for the benchmarks and the end-to-end tests alike: raw loopback
        // connections that may misbehave, and finding programs on PATH.
        .target(name: "LabDrivers", dependencies: ["CSpawnActions"]),
        // The one glibc call Swift's Glibc module hides: a child started by `posix_spawn` closes every
        // descriptor but those it was given.
        .target(name: "CSpawnActions"),
        // What each fuzz target does with an input: the parsers that read bytes from outside. Pure modules
        // and the state file only, so the sanitized fuzz build compiles no network or server stack.
        .target(
            name: "LabFuzzTargets",
            dependencies: ["GrowthBook", "Laboratory", "LaboratorySQLite", "LaboratoryTesting"],
            path: "Tests/FuzzTargets"
        ),
        // The fuzzing binary over every target: `Tests/Fuzz/run` builds it with SwiftPM, sanitized for
        // libFuzzer and AddressSanitizer, and its main hands over to libFuzzer's driver (which the C
        // target reaches weakly, so a plain build links and says what it lacks).
        .target(name: "CFuzzerDriver", path: "Tests/Fuzz/Driver"),
        .executableTarget(
            name: "lab-fuzz",
            dependencies: ["LabFuzzTargets", "CFuzzerDriver"],
            path: "Tests/Fuzz/Main"
        ),
        // Replays every fuzz corpus file, crashes found once included, through its target.
        .testTarget(name: "FuzzCorpusTests", dependencies: ["LabFuzzTargets"]),
        .testTarget(
            name: "LaboratoryConsoleTests",
            dependencies: [
                "GrowthBook", "LaboratoryConsole", "LaboratoryTesting", "LaboratoryRuntime", "LabTestSupport",
            ],
            exclude: ["Snapshots"]  // whole screens, read by path
        ),
        .testTarget(name: "ConsoleCursesTests", dependencies: ["ConsoleCurses", "CNcursesw"]),
        // Drives the built `lab` binary; depends on it so `swift test` builds it first.
        .testTarget(
            name: "LabEndToEndTests",
            dependencies: [
                "lab", "lab-demo", "Laboratory", "LaboratorySQLite", "LaboratoryRuntime", "LabTestSupport",
                // To damage state files and hold their write lock as another process would.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Interop", "Scripts"]  // the Python clients' scripts, and shell scripts some tests run
        ),
    ],
    swiftLanguageModes: [.v6]
)
