import Foundation
import Synchronization

/// `$regex` / `$regexi` matching that always ends: each pattern is compiled
/// once, each match may take a bounded number of the regex engine's steps,
/// and a match that runs out of steps counts as no match.
///
/// The engine (ICU, through `NSRegularExpression`) backtracks, so a pattern
/// such as `^([0-9a-f-]+)+x$` takes time exponential in the input. Its
/// progress callback comes every few thousand steps; the match is stopped
/// after ``maximumProgressReports`` of them (a few hundred thousand steps,
/// milliseconds), which bounds every match whatever the pattern and input.
/// Results are remembered per pattern and input, so a device whose attributes
/// do not change pays for a slow pattern once, not on every evaluation.
public enum BoundedRegex {
    /// Progress reports after which a match gives up.
    static let maximumProgressReports = 24
    /// Entries kept in each cache before it is emptied.
    private static let cacheLimit = 4_096
    /// Longer patterns and inputs are matched without being remembered, so
    /// the caches stay small (4,096 × 1 KiB) whatever a payload holds.
    private static let cachedLength = 1_024

    private struct Caches {
        /// Pattern (with its case flag) → compiled expression, `nil` if invalid.
        var compiled: [String: NSRegularExpression?] = [:]
        /// Pattern + input → whether it matched.
        var results: [String: Bool] = [:]
        /// Patterns that ran out of steps, in the order first seen.
        var gaveUp: [String] = []
    }

    private static let caches = Mutex(Caches())

    /// Patterns that ran out of steps in this process, for the status line.
    public static var patternsThatGaveUp: [String] { caches.withLock({ $0 }).gaveUp }

    /// Whether `pattern` compiles: a payload check compiles it once, and the
    /// evaluation that matches with it later finds it compiled.
    static func compiles(_ pattern: String, caseInsensitive: Bool) -> Bool {
        expression(pattern, caseInsensitive: caseInsensitive) != nil
    }

    private static func patternKey(_ pattern: String, caseInsensitive: Bool) -> String {
        (caseInsensitive ? "i/" : "/") + pattern
    }

    /// The compiled pattern, from the cache or compiled now (and
    /// remembered, when short enough); `nil` when it is not a valid pattern.
    private static func expression(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = patternKey(pattern, caseInsensitive: caseInsensitive)
        if let known = caches.withLock({ $0.compiled[key] }) { return known }
        let expression = try? NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        if pattern.utf8.count <= cachedLength {
            caches.withLock { caches in
                if caches.compiled.count >= cacheLimit { caches.compiled = [:] }
                caches.compiled[key] = .some(expression)
            }
        }
        return expression
    }

    /// Whether `text` matches `pattern` (JavaScript `RegExp.test`); an invalid
    /// pattern and a match that runs out of steps are both `false`.
    static func matches(_ pattern: String, caseInsensitive: Bool, in text: String) -> Bool {
        let resultKey = patternKey(pattern, caseInsensitive: caseInsensitive) + "\u{0}" + text
        let remembers = pattern.utf8.count <= cachedLength && text.utf8.count <= cachedLength
        if let cached = caches.withLock({ $0.results[resultKey] }) { return cached }
        guard let expression = expression(pattern, caseInsensitive: caseInsensitive) else { return false }
        var matched = false
        var reports = 0
        var exhausted = false
        expression.enumerateMatches(
            in: text,
            options: [.reportProgress],
            range: NSRange(text.startIndex..., in: text)
        ) { match, _, stop in
            if match != nil {
                matched = true
                stop.pointee = true
                return
            }
            reports += 1
            if reports >= maximumProgressReports {
                exhausted = true
                stop.pointee = true
            }
        }
        caches.withLock { caches in
            if remembers {
                if caches.results.count >= cacheLimit { caches.results = [:] }
                caches.results[resultKey] = matched
            }
            if exhausted, caches.gaveUp.count < 100, !caches.gaveUp.contains(pattern) { caches.gaveUp.append(pattern) }
        }
        return matched
    }
}
