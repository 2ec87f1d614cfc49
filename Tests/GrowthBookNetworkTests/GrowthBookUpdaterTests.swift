import Foundation
import GrowthBookNetwork
import LabTestSupport
import LaboratoryTesting
import Synchronization
import Testing

/// The updater's schedule, with time advanced by hand, and its switch to streaming.
@Suite(.timeLimit(.minutes(2))) struct GrowthBookUpdaterTests {
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test func fetchesAtOnceThenOnceEachInterval() async {
        let sleeper = ManualSleeper()
        let fetches = Counter()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let updater = GrowthBookUpdater(
            every: .seconds(30),
            fetch: { fetches.add() },
            receive: { _ in },
            sleep: sleeper.sleep,
            now: { start }
        )
        #expect(updater.nextFetch == nil)
        updater.start()
        updater.start()  // a second start changes nothing
        #expect(await sleeper.nextSleep() == .seconds(30))
        #expect(fetches.value == 1)
        #expect(updater.nextFetch == start.addingTimeInterval(30))
        sleeper.wake()
        #expect(await sleeper.nextSleep() == .seconds(30))
        #expect(fetches.value == 2)
        #expect(!updater.isStreaming)  // no stream URL: polling only
        updater.stop()
        sleeper.wake()
    }

    @Test func streamsOnceTheServerOffersEventsAndAppliesWhatTheyCarry() async throws {
        let server = try TestHTTPServer { head in
            if head.hasPrefix("GET /sub/") {
                let event = "event: features\ndata: {\"features\": {}}\n\n"
                return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(event.utf8))
            }
            return .response(status: 404, headers: [:], body: Data())
        }
        defer { server.stop() }
        let sleeper = ManualSleeper()
        let offered = Mutex(false)
        let started = Counter()
        let (received, arrived) = AsyncStream.makeStream(of: Data.self)
        let updater = GrowthBookUpdater(
            every: .seconds(60),
            streamURL: GrowthBookStreamer.streamURL(
                host: URL(string: "http://127.0.0.1:\(server.port)")!,
                clientKey: "k"
            ),
            streamingOffered: { offered.withLock { $0 } },
            streamStarted: { started.add() },
            fetch: {},
            receive: { arrived.yield($0) },
            sleep: sleeper.sleep
        )
        updater.start()
        _ = await sleeper.nextSleep()
        #expect(!updater.isStreaming && started.value == 0)  // not offered yet: polling
        offered.withLock { $0 = true }
        sleeper.wake()
        _ = await sleeper.nextSleep()
        #expect(updater.isStreaming && started.value == 1)
        var iterator = received.makeAsyncIterator()
        #expect(await iterator.next() == Data(#"{"features": {}}"#.utf8))
        updater.stop()
        #expect(!updater.isStreaming)
        sleeper.wake()
    }
}
