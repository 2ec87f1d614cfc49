import Foundation
import Laboratory
import LaboratorySQLite
import Testing

/// A first start's writes stay in the write-ahead log until the store
/// closes: copying them into the state file in the middle of the start,
/// and waiting for the disk, was 40 ms before the console's first frame.
struct WriteAheadLogTests {
    @Test func aFirstStartsWritesReachTheFileWhenTheStoreCloses() throws {
        let folder = NSTemporaryDirectory() + "write-ahead-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.sqlite"
        // 20,000 events, as a first start at 10,000 experiments records:
        // well past SQLite's default of 1,000 pages before a copy.
        let events = (0..<20_000).map { index in
            Event(
                time: Date(timeIntervalSince1970: 1_790_000_000),
                device: "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                source: "Source\(index % 3)",
                experiment: "Experiment\(index / 2)",
                variant: "Experiment\(index / 2)Control",
                key: "key\(index)",
                value: .string("control"),
                reason: .activated
            )
        }
        var store: SQLiteStateStore? = try SQLiteStateStore(path: path)
        try store?.record(events)
        let logBytes = try size(path + "-wal")
        let fileBytes = try size(path)
        #expect(logBytes > 4_096 * 1_000, "the events are in the log: \(logBytes) bytes")
        #expect(fileBytes < logBytes / 4, "and not yet in the file: \(fileBytes) bytes")
        #expect(try store?.events(after: nil, limit: 1).count == 1)

        store = nil
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing copies the log and removes it")
        #expect(try size(path) > logBytes / 2)
        let reopened = try SQLiteStateStore(path: path)
        #expect(try reopened.events(after: nil, limit: 30_000).count == 20_000)
    }

    private func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
