import Synchronization

/// `$regex` / `$regexi` matching as GrowthBook's JavaScript SDK matches
/// (`new RegExp(pattern, "i"?).test(String(value))`), that always ends:
/// each pattern is compiled once, each test may take at most
/// ``maximumSteps`` steps of the matching machine, and a test that runs out
/// of them counts as no match.
///
/// Patterns are read and run by this library's own JavaScript regular
/// expressions (``RegexParser``, ``RegexMachine``), not by ICU: ICU reads
/// `[[:alpha:]]`, `\p{L}`, `(?i)`, `\A`, `$` before a final newline and
/// case folding differently from JavaScript, and Foundation's progress
/// callback, the only way to stop it, comes once per start position.
/// Results are remembered per pattern and input, so a device whose
/// attributes do not change pays for a slow pattern once, not on every evaluation.
package enum BoundedRegex {
    /// Instructions one test may execute over all its start positions:
    /// milliseconds at most, far more than any real pattern needs on a user
    /// agent, far less than `^(a+)+$` needs on thirty `a`s and a `b`.
    package static let maximumSteps = 1_000_000
    /// Entries kept in each cache before it is emptied.
    private static let cacheLimit = 4_096
    /// Longer patterns and inputs are matched without being remembered, so
    /// the caches stay small (4,096 × 1 KiB) whatever a payload holds.
    private static let cachedLength = 1_024

    private struct Caches {
        /// Pattern (with its case flag) → compiled program, or why it is not one.
        var compiled: [String: Result<RegexProgram, RegexSyntaxError>] = [:]
        /// Pattern + input → whether it matched.
        var results: [String: Bool] = [:]
        /// Patterns that ran out of steps, in the order first seen.
        var gaveUp: [String] = []
    }

    private static let caches = Mutex(Caches())

    /// Patterns that ran out of steps in this process, for the status line.
    package static var patternsThatGaveUp: [String] { caches.withLock({ $0 }).gaveUp }

    /// Whether `pattern` compiles: a payload check compiles it once, and the
    /// evaluation that matches with it later finds it compiled.
    package static func compiles(_ pattern: String, caseInsensitive: Bool) -> Bool {
        syntaxError(in: pattern, caseInsensitive: caseInsensitive) == nil
    }

    /// Why `pattern` is not a JavaScript regular expression, or `nil` when it
    /// is one (compiled and remembered, as ``compiles(_:caseInsensitive:)`` does).
    static func syntaxError(in pattern: String, caseInsensitive: Bool) -> RegexSyntaxError? {
        guard case .failure(let error) = compiled(pattern, caseInsensitive: caseInsensitive) else { return nil }
        return error
    }

    private static func patternKey(_ pattern: String, caseInsensitive: Bool) -> String {
        (caseInsensitive ? "i/" : "/") + pattern
    }

    /// The compiled pattern or why it does not compile, from the cache or
    /// compiled now (and remembered, when short enough).
    private static func compiled(_ pattern: String, caseInsensitive: Bool) -> Result<RegexProgram, RegexSyntaxError> {
        let key = patternKey(pattern, caseInsensitive: caseInsensitive)
        if let known = caches.withLock({ $0.compiled[key] }) { return known }
        let compiled = Result { () throws(RegexSyntaxError) in
            try RegexProgram(pattern, caseInsensitive: caseInsensitive)
        }
        if pattern.utf8.count <= cachedLength {
            caches.withLock { caches in
                if caches.compiled.count >= cacheLimit { caches.compiled = [:] }
                caches.compiled[key] = compiled
            }
        }
        return compiled
    }

    /// Whether `text` matches `pattern` (JavaScript `RegExp.test`); an invalid
    /// pattern and a match that runs out of steps are both `false`.
    package static func matches(_ pattern: String, caseInsensitive: Bool, in text: String) -> Bool {
        let resultKey = patternKey(pattern, caseInsensitive: caseInsensitive) + "\u{0}" + text
        let remembers = pattern.utf8.count <= cachedLength && text.utf8.count <= cachedLength
        if remembers, let cached = caches.withLock({ $0.results[resultKey] }) { return cached }
        guard case .success(let program) = compiled(pattern, caseInsensitive: caseInsensitive) else { return false }
        let outcome = RegexMachine.test(program, in: Array(text.utf16), budget: maximumSteps)
        let matched = outcome == .matched
        caches.withLock { caches in
            if remembers {
                if caches.results.count >= cacheLimit { caches.results = [:] }
                caches.results[resultKey] = matched
            }
            if outcome == .gaveUp, caches.gaveUp.count < 100, !caches.gaveUp.contains(pattern) {
                caches.gaveUp.append(pattern)
            }
        }
        return matched
    }
}
