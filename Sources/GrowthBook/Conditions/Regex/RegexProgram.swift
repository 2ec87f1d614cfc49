/// A parsed pattern compiled into instructions for ``RegexMachine``, a
/// backtracking machine that keeps its choices on the heap, so no input or
/// pattern can exhaust the stack, and counts its steps, so no match can run
/// for long.
package struct RegexProgram: Sendable {
    /// One step of the machine. Units, sets and back references read
    /// forwards, or backwards inside a lookbehind (as ECMAScript matches one).
    enum Instruction: Sendable {
        case unit(UInt16, backward: Bool)
        case set(RegexUnitSet, negated: Bool, backward: Bool)
        /// Try `preferred` first; on failure come back and take `other`.
        case split(preferred: Int, other: Int)
        case jump(Int)
        /// Record the position in a capture slot (group × 2, + 1 for its end).
        case save(slot: Int)
        /// Forget what the groups captured (each repetition starts afresh).
        case clearCaptures(ClosedRange<Int>)
        case assertion(RegexAssertion)
        case backReference(Int, backward: Bool)
        /// A lookaround whose body (compiled forwards for a lookahead,
        /// backwards for a lookbehind) runs from `body` up to its own
        /// `.match`; then execution goes on at `next`.
        case look(body: Int, next: Int, negated: Bool)
        /// Set a repetition's counter to 0.
        case resetCounter(register: Int)
        /// The head of a repetition: below `min` repetitions go on into the
        /// body, at `max` go to `exit`, in between try both (the body first
        /// when greedy). An optional repetition notes where it started in `start`.
        case loop(counter: Int, start: Int, min: Int, max: Int?, greedy: Bool, exit: Int)
        /// The end of a repetition's body: count it, and fail when an optional
        /// repetition matched nothing (ECMAScript ends such a loop there).
        case iterated(counter: Int, start: Int)
        case match
    }

    private(set) var instructions: [Instruction] = []
    let groupCount: Int
    private(set) var registerCount = 0
    let caseInsensitive: Bool

    /// Programs larger than this are refused (a pattern longer than any
    /// payload holds; repetitions are loops, never unrolled).
    static let maximumInstructions = 100_000

    struct TooLarge: Error {}

    /// Compiles `source`, read as `new RegExp(source, caseInsensitive ? "i" : "")` reads it.
    package init(_ source: String, caseInsensitive: Bool) throws(RegexSyntaxError) {
        let (pattern, groups) = try RegexParser.parse(source)
        groupCount = groups
        self.caseInsensitive = caseInsensitive
        do {
            try emit(pattern, backward: false)
            instructions.append(.match)
        } catch {
            throw RegexSyntaxError(
                reason: "the pattern needs more than \(Self.maximumInstructions) steps to write out",
                offset: 0
            )
        }
    }

    /// Whether the pattern can only match at the start of the input.
    var anchoredAtStart: Bool {
        guard case .assertion(.start) = instructions.first else { return false }
        return true
    }

    private mutating func append(_ instruction: Instruction) throws(TooLarge) {
        if instructions.count >= Self.maximumInstructions { throw TooLarge() }
        instructions.append(instruction)
    }

    private mutating func emit(_ pattern: RegexPattern, backward: Bool) throws(TooLarge) {
        switch pattern {
        case .empty: break
        case .unit(let unit):
            try append(.unit(caseInsensitive ? RegexCaseFolding.canonical[Int(unit)] : unit, backward: backward))
        case .set(let set, let negated): try append(.set(set, negated: negated, backward: backward))
        case .sequence(let parts):
            // Backwards, a sequence is matched from its last part.
            for part in backward ? parts.reversed() : parts { try emit(part, backward: backward) }
        case .alternation(let alternatives):
            var jumpsToEnd: [Int] = []
            for (position, alternative) in alternatives.enumerated() {
                if position < alternatives.count - 1 {
                    let split = instructions.count
                    try append(.split(preferred: split + 1, other: -1))
                    try emit(alternative, backward: backward)
                    jumpsToEnd.append(instructions.count)
                    try append(.jump(-1))
                    instructions[split] = .split(preferred: split + 1, other: instructions.count)
                } else {
                    try emit(alternative, backward: backward)
                }
            }
            for jump in jumpsToEnd { instructions[jump] = .jump(instructions.count) }
        case .group(let body, let capture):
            guard let capture else { return try emit(body, backward: backward) }
            // Backwards, the group's end is reached first.
            try append(.save(slot: capture * 2 + (backward ? 1 : 0)))
            try emit(body, backward: backward)
            try append(.save(slot: capture * 2 + (backward ? 0 : 1)))
        case .repetition(let body, let min, let max, let greedy, let captures):
            try emitRepetition(body, min: min, max: max, greedy: greedy, captures: captures, backward: backward)
        case .assertion(let assertion): try append(.assertion(assertion))
        case .look(let body, let ahead, let negated):
            let look = instructions.count
            try append(.look(body: look + 1, next: -1, negated: negated))
            // A lookbehind's body is matched backwards from where it stands.
            try emit(body, backward: !ahead)
            try append(.match)
            instructions[look] = .look(body: look + 1, next: instructions.count, negated: negated)
        case .backReference(let group): try append(.backReference(group, backward: backward))
        }
    }

    /// A repetition as a counted loop (never unrolled, so `a{1000000}` is
    /// six instructions): a counter register and a register for where the
    /// current repetition started.
    private mutating func emitRepetition(
        _ body: RegexPattern,
        min: Int,
        max: Int?,
        greedy: Bool,
        captures: ClosedRange<Int>?,
        backward: Bool
    ) throws(TooLarge) {
        let counter = registerCount
        let start = registerCount + 1
        registerCount += 2
        try append(.resetCounter(register: counter))
        let loop = instructions.count
        try append(.loop(counter: counter, start: start, min: min, max: max, greedy: greedy, exit: -1))
        if let captures { try append(.clearCaptures(captures)) }
        try emit(body, backward: backward)
        try append(.iterated(counter: counter, start: start))
        try append(.jump(loop))
        instructions[loop] = .loop(
            counter: counter,
            start: start,
            min: min,
            max: max,
            greedy: greedy,
            exit: instructions.count
        )
    }
}
