import Foundation
import LabTestSupport
import Testing

@testable import GrowthBook

/// `$regex` against JavaScript's own `RegExp` (run with `node`): patterns
/// generated from a seed out of every piece of the syntax (and of syntax
/// JavaScript reads differently from ICU), tested on generated text and on
/// real user agents. Each must compile exactly where JavaScript's does and
/// match exactly where it matches. `LAB_DIFFERENTIAL_SEED` picks another seed.
@Suite(.requires(JavaScriptReference.available, Comment(rawValue: JavaScriptReference.missing)))
struct RegexDifferentialTests {
    @Test func everyTestAgreesWithJavaScript() throws {
        let seed = JavaScriptReference.seed
        var generator = PatternGenerator(seed: seed)
        var tests: [(pattern: String, caseInsensitive: Bool, input: String)] = []
        for _ in 0..<1_500 {
            let pattern = generator.pattern()
            let caseInsensitive = generator.chance(0.3)
            for _ in 0..<4 { tests.append((pattern, caseInsensitive, generator.input())) }
            tests.append((pattern, caseInsensitive, generator.pick(RealUserAgents.all)))
        }
        for pattern in Self.knownDialectPatterns {
            for input in Self.knownDialectInputs { tests.append((pattern, false, input)) }
            tests.append((pattern, true, "ß SS café É ſ \u{212A}"))
        }
        // Ours first: a test that runs out of steps here (false, the one kept
        // difference) is not asked of JavaScript, whose backtracking has no
        // bound and may run for hours on the same pattern and text.
        var ours: [JSONValue] = []
        var asked: [(pattern: String, caseInsensitive: Bool, input: String)] = []
        var gaveUp = 0
        for test in tests {
            guard let program = try? RegexProgram(test.pattern, caseInsensitive: test.caseInsensitive) else {
                ours.append(.string("error"))
                asked.append(test)
                continue
            }
            switch RegexMachine.test(program, in: Array(test.input.utf16), budget: BoundedRegex.maximumSteps) {
            case .gaveUp: gaveUp += 1
            case let outcome:
                ours.append(.bool(outcome == .matched))
                asked.append(test)
            }
        }
        let theirs = try Self.javaScript(asked)
        var differing: [String] = []
        for ((test, expected), answer) in zip(zip(asked, theirs), ours) where answer != expected {
            differing.append(
                "/\(test.pattern)/\(test.caseInsensitive ? "i" : "") on \(JSONValue.string(test.input).jsonText): "
                    + "ours \(answer.jsonText), JavaScript \(expected.jsonText)"
            )
        }
        print(
            "regex differential (seed \(seed)): \(tests.count - differing.count - gaveUp) of \(tests.count) agree, "
                + "\(gaveUp) ran out of steps (JavaScript: \(theirs.filter { $0 == .bool(true) }.count) match, "
                + "\(theirs.filter { $0 == .string("error") }.count) do not compile)"
        )
        #expect(differing.isEmpty, "\(differing.count) differ; first:\n\(differing.prefix(10).joined(separator: "\n"))")
        #expect(theirs.count == asked.count)
        #expect(gaveUp * 100 < tests.count, "\(gaveUp) of \(tests.count) ran out of steps")
    }

    /// What ICU reads differently from JavaScript (issue 25's list, and more).
    static let knownDialectPatterns = [
        "[[:alpha:]]", "\\p{L}", "(?i)abc", "a*+", "\\Aabc", "^\\w+$", "abc$", ".", "[^]", "ß", "\\u{41}", "\\x4",
        "(?<n>a)\\k<n>", "\\8", "\\12", "(a)\\1", "a{,2}", "{", "x{1,", "]", "}", "\\c", "[\\c_]", "\\0", "[\\b]",
        "(?<=ab)c", "(?<!a)b", "^(?:a|ab)c$", "\\bcafé\\b", "\\s", "\\Z", "\\z", "\\Q.\\E", "(?#c)a", "[a-z&&[^b]]",
        "(?x) a", "\\h", "\\R", "\\X", "(?>a)", "a{2}{3}", "(?i:a)",
    ]

    static let knownDialectInputs = [
        "abc", "ABC", "abc\n", "café", "\u{1F600}", "ß", "SS", "a{,2}", "{", "x{1,", "]", "}", "\\c", "_", "\u{0}",
        "\u{8}", "ab", "abc\nd", " ", "\u{A0}", "Z", "z", "Q.E", "a", "aa", "aaa",
        "uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu",
        "\u{A}", "p{L}", ":alpha:", "8", "\u{A}2", "ac", "bc", "abbc", " a", "h", "R", "X",
    ]

    /// JavaScript's answer for each test: `true`, `false`, or `"error"` where `new RegExp` throws.
    static func javaScript(_ tests: [(pattern: String, caseInsensitive: Bool, input: String)]) throws -> [JSONValue] {
        let document = JSONValue.array(
            tests.map { .array([.string($0.pattern), .string($0.caseInsensitive ? "i" : ""), .string($0.input)]) }
        )
        return try JavaScriptReference.run("regex.cjs", on: document).elements ?? []
    }
}

/// Patterns and texts from a seed: every piece of JavaScript's pattern
/// syntax, valid and not, nested a little.
struct PatternGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { random.chance(p) }
    mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    private static let atoms = [
        "a", "b", "c", "A", "B", "é", "É", "ß", "S", "s", "ſ", "0", "1", "9", "-", "_", "/", " ", ".", ".", ".", "\\d",
        "\\D", "\\w", "\\W", "\\s", "\\S", "\\n", "\\t", "\\x41", "\\x4", "\\u00e9", "\\u00E9", "\\u12", "\\cA", "\\cj",
        "\\c", "\\c1", "\\0", "\\00", "\\012", "\\1", "\\2", "\\8", "\\9", "\\k", "\\k<n>", "\\-", "\\/", "\\.", "\\a",
        "\\p", "\\e", "\\ü", "[abc]", "[^ab]", "[a-c]", "[A-Z]", "[\\d-z]", "[a-\\d]", "[]", "[^]", "[a-]", "[-a]",
        "[\\b]", "[\\B]", "[\\c_]", "[\\c]", "[\\1]", "[\\8]", "[\\k]", "[z-a]", "[é-ü]", "[\\w.]", "[^\\s]", "[.]",
        "[[:alpha:]]", "\\p{L}", "{", "}", "]", "{,3}", "x{1,", "\u{1F600}", "\\uD83D", "\\uDE00", "[\\uD83D-\\uDE00]",
        "\\bcafé", "\\K",
    ]

    private static let quantifiers = [
        "*", "+", "?", "{2}", "{1,3}", "{2,}", "{0}", "{3,1}", "*?", "+?", "??", "{1,2}?", "*+", "{1000000}",
    ]

    mutating func pattern() -> String {
        var text = chance(0.2) ? "^" : ""
        text += sequence(depth: 0)
        if chance(0.2) { text += "$" }
        if chance(0.03) { text = pick(["(?i)", "\\A", "(?#x)", "(?x)"]) + text }
        return text
    }

    private mutating func sequence(depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(4)) {
            text += term(depth: depth)
            if chance(0.05) { text += "|" }
        }
        return text
    }

    private mutating func term(depth: Int) -> String {
        var atom: String
        if depth < 3, chance(0.25) {
            let opening = pick(["(", "(", "(?:", "(?<n>", "(?=", "(?!", "(?<=", "(?<!", "(?i:"])
            atom = opening + sequence(depth: depth + 1) + (chance(0.97) ? ")" : "")
        } else if chance(0.05) {
            atom = pick(["\\b", "\\B", "^", "$"])
        } else {
            atom = pick(Self.atoms)
        }
        if chance(0.3) { atom += pick(Self.quantifiers) }
        return atom
    }

    private static let alphabet: [String] = [
        "a", "b", "c", "A", "B", "C", "é", "É", "ß", "S", "s", "ſ", "SS", "0", "1", "9", "-", "_", "/", " ", "\n", "\r",
        "\u{2028}", "\u{A0}", "\u{1F600}", "\u{212A}", "k", "K", "x", "{", "}", "[", "]", "\\", ".", "\u{1}", "\u{8}",
        "\u{A}", "n", "aa", "ab", "abc",
    ]

    mutating func input() -> String {
        (0..<random.below(12)).map { _ in pick(Self.alphabet) }.joined()
    }
}
