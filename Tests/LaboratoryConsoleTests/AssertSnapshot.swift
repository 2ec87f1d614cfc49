import Foundation
import Testing

/// Compares a whole screen with its snapshot file under `Snapshots/`, as
/// swift-argument-parser's `assertSnapshot` compares whole outputs.
///
/// Run with `LAB_RECORD_SNAPSHOTS=1` to write the files again after a
/// deliberate change (the run then fails once, so a recording is never
/// mistaken for a pass); review them with `git diff`.
func assertSnapshot(
    _ lines: [String],
    named name: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let url = Snapshot.folder.appendingPathComponent(name + ".txt")
    let actual = lines.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["LAB_RECORD_SNAPSHOTS"] == "1" {
        do {
            try FileManager.default.createDirectory(at: Snapshot.folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            Issue.record("recorded \(url.path); run again without LAB_RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
        } catch {
            Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(url.path): record it with LAB_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
    let was = first < old.count ? String(old[first]) : "(no line)"
    let now = first < new.count ? String(new[first]) : "(no line)"
    let message = "\(name) differs from \(url.lastPathComponent) at line \(first + 1):\n  was: \(was)\n  now: \(now)\n"
    Issue.record(Comment(rawValue: message + "whole screen:\n" + actual), sourceLocation: sourceLocation)
}

enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
}
