/// A JavaScript regular expression, parsed: what `new RegExp(source)` (no
/// `u` flag, with the web-compatibility grammar of ECMAScript's Annex B)
/// reads, as a tree. ``RegexProgram`` compiles it for ``RegexMachine``.
///
/// GrowthBook's `$regex` runs in JavaScript in most SDKs, so a pattern must
/// mean here exactly what it means there: `\w` is ASCII, `.` is any UTF-16
/// unit but a line break, `$` is the end of the input only, `[^]` is any
/// unit, `\p{L}` is `p{L}`, `\8` is `8`, `\12` is a back reference when
/// there are twelve groups and the octal escape `\n` otherwise.
indirect enum RegexPattern: Equatable, Sendable {
    /// Matches the empty string.
    case empty
    /// One UTF-16 unit.
    case unit(UInt16)
    /// One unit in (or, when `negated`, outside) a set.
    case set(RegexUnitSet, negated: Bool)
    /// Each part in turn.
    case sequence([RegexPattern])
    /// The first alternative that leads to a match.
    case alternation([RegexPattern])
    /// A group; `capture` is its 1-based number when it captures.
    case group(RegexPattern, capture: Int?)
    /// `body` repeated; `captures` are the groups inside it, cleared at each repetition.
    case repetition(RegexPattern, min: Int, max: Int?, greedy: Bool, captures: ClosedRange<Int>?)
    /// `^`, `$` (no `m` flag: the ends of the input only), `\b` and `\B`.
    case assertion(RegexAssertion)
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`.
    case look(RegexPattern, ahead: Bool, negated: Bool)
    /// `\1` or `\k<name>`: the text a group captured (empty when it captured nothing).
    case backReference(Int)
}

/// The zero-width assertions.
enum RegexAssertion: Equatable, Sendable {
    case start, end, wordBoundary, notWordBoundary
}

/// Why a pattern is not a JavaScript regular expression: `new RegExp` throws,
/// and GrowthBook's SDK then reads the condition as false.
package struct RegexSyntaxError: Error, Equatable, CustomStringConvertible {
    package var reason: String
    /// The UTF-16 offset in the pattern where reading stopped.
    package var offset: Int

    package var description: String { "\(reason) at character \(offset + 1)" }
}
