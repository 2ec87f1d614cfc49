/// Runs a ``RegexProgram`` over UTF-16 units as JavaScript's `RegExp.test`
/// does (every start position, leftmost first), backtracking through
/// choices kept in an array rather than on the call stack, and counting
/// every instruction it executes against a budget, so the work of one test
/// is bounded whatever the pattern and input: at the budget it gives up.
package struct RegexMachine {
    /// What a test came to.
    package enum Outcome: Equatable {
        case matched, notMatched
        /// The budget ran out first.
        case gaveUp
    }

    private let program: RegexProgram
    private let instructions: [RegexProgram.Instruction]
    private let input: [UInt16]
    /// Capture slots: group × 2 is where it starts, + 1 where it ends; -1 when unset.
    private var slots: [Int]
    /// Repetition counters and starts.
    private var registers: [Int]
    private var steps = 0
    private let budget: Int

    /// Something to undo or retry when a path fails.
    private struct Entry {
        enum Kind: UInt8 { case choice, lazyIteration, slot, register }
        var kind: Kind
        /// The instruction to go on at, or the slot or register to restore.
        var target: Int32
        /// The position to go on from, or the value to restore.
        var value: Int32
        /// For a lazy repetition taken on retry: the register that notes where it starts.
        var register: Int32 = -1
    }

    private struct OutOfSteps: Error {}

    /// Whether `program` matches somewhere in `input`, within `budget` instructions in all.
    package static func test(_ program: RegexProgram, in input: [UInt16], budget: Int) -> Outcome {
        var machine = RegexMachine(program: program, input: input, budget: budget)
        do {
            for start in 0...input.count {
                if try machine.run(from: 0, at: start) != nil { return .matched }
                if program.anchoredAtStart { break }
            }
            return .notMatched
        } catch {
            return .gaveUp
        }
    }

    private init(program: RegexProgram, input: [UInt16], budget: Int) {
        self.program = program
        instructions = program.instructions
        self.input = input
        self.budget = budget
        slots = Array(repeating: -1, count: (program.groupCount + 1) * 2)
        registers = Array(repeating: -1, count: program.registerCount)
    }

    /// Runs from instruction `start` at `position` up to a `.match`; the
    /// position matched up to, or `nil` when every path fails (with the
    /// slots and registers as they were).
    private mutating func run(from start: Int, at position: Int) throws(OutOfSteps) -> Int? {
        var stack: [Entry] = []
        var pc = start
        var position = position
        while true {
            steps += 1
            if steps > budget { throw OutOfSteps() }
            var failed = false
            switch instructions[pc] {
            case .unit(let unit, let backward):
                let at = backward ? position - 1 : position
                if at >= 0 && at < input.count && folded(input[at]) == unit {
                    position += backward ? -1 : 1
                    pc += 1
                } else {
                    failed = true
                }
            case .set(let set, let negated, let backward):
                let at = backward ? position - 1 : position
                if at >= 0 && at < input.count && contains(set, input[at]) != negated {
                    position += backward ? -1 : 1
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let preferred, let other):
                stack.append(Entry(kind: .choice, target: Int32(other), value: Int32(position)))
                pc = preferred
            case .jump(let target):
                pc = target
            case .save(let slot):
                setSlot(slot, to: position, undo: &stack)
                pc += 1
            case .clearCaptures(let groups):
                for group in groups {
                    setSlot(group * 2, to: -1, undo: &stack)
                    setSlot(group * 2 + 1, to: -1, undo: &stack)
                }
                pc += 1
            case .assertion(let assertion):
                if holds(assertion, at: position) { pc += 1 } else { failed = true }
            case .backReference(let group, let backward):
                if let moved = matchBackReference(group, at: position, backward: backward) {
                    position = moved
                    pc += 1
                } else {
                    failed = true
                }
            case .look(let body, let next, let negated):
                let before = slots
                let found = try run(from: body, at: position) != nil
                if found != negated {
                    if negated {
                        slots = before
                    } else {
                        // What a lookahead captured stays, and is undone when this path fails.
                        for slot in slots.indices where slots[slot] != before[slot] {
                            stack.append(Entry(kind: .slot, target: Int32(slot), value: Int32(before[slot])))
                        }
                    }
                    pc = next
                } else {
                    slots = before
                    failed = true
                }
            case .resetCounter(let register):
                setRegister(register, to: 0, undo: &stack)
                pc += 1
            case .loop(let counter, let startRegister, let min, let max, let greedy, let exit):
                let count = registers[counter]
                if count < min {
                    setRegister(startRegister, to: -1, undo: &stack)
                    pc += 1
                } else if let max, count >= max {
                    pc = exit
                } else if greedy {
                    stack.append(Entry(kind: .choice, target: Int32(exit), value: Int32(position)))
                    setRegister(startRegister, to: position, undo: &stack)
                    pc += 1
                } else {
                    stack.append(
                        Entry(
                            kind: .lazyIteration,
                            target: Int32(pc + 1),
                            value: Int32(position),
                            register: Int32(startRegister)
                        )
                    )
                    pc = exit
                }
            case .iterated(let counter, let startRegister):
                let started = registers[startRegister]
                if started >= 0 && started == position {
                    failed = true
                } else {
                    setRegister(counter, to: registers[counter] + 1, undo: &stack)
                    pc += 1
                }
            case .match:
                return position
            }
            guard failed else { continue }
            // Undo back to the latest choice, and take its other way.
            while true {
                guard let entry = stack.popLast() else { return nil }
                switch entry.kind {
                case .slot: slots[Int(entry.target)] = Int(entry.value)
                case .register: registers[Int(entry.target)] = Int(entry.value)
                case .choice:
                    pc = Int(entry.target)
                    position = Int(entry.value)
                case .lazyIteration:
                    pc = Int(entry.target)
                    position = Int(entry.value)
                    setRegister(Int(entry.register), to: position, undo: &stack)
                }
                if entry.kind == .choice || entry.kind == .lazyIteration { break }
            }
        }
    }

    private mutating func setSlot(_ slot: Int, to value: Int, undo stack: inout [Entry]) {
        guard slots[slot] != value else { return }
        stack.append(Entry(kind: .slot, target: Int32(slot), value: Int32(slots[slot])))
        slots[slot] = value
    }

    private mutating func setRegister(_ register: Int, to value: Int, undo stack: inout [Entry]) {
        guard registers[register] != value else { return }
        stack.append(Entry(kind: .register, target: Int32(register), value: Int32(registers[register])))
        registers[register] = value
    }

    /// A unit as the program's units are written: canonicalized under the `i` flag.
    private func folded(_ unit: UInt16) -> UInt16 {
        program.caseInsensitive ? RegexCaseFolding.canonical[Int(unit)] : unit
    }

    private func contains(_ set: RegexUnitSet, _ unit: UInt16) -> Bool {
        program.caseInsensitive ? RegexCaseFolding.set(set, containsFolded: unit) : set.contains(unit)
    }

    private func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == input.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexUnitSet.wordUnits.contains(input[position - 1])
            let after = position < input.count && RegexUnitSet.wordUnits.contains(input[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    /// The position after the text group `group` captured, matched at
    /// `position` (before it, backwards); an unset group matches the empty string.
    private func matchBackReference(_ group: Int, at position: Int, backward: Bool) -> Int? {
        let start = slots[group * 2]
        let end = slots[group * 2 + 1]
        guard start >= 0, end >= 0 else { return position }
        let length = end - start
        let from = backward ? position - length : position
        guard from >= 0, from + length <= input.count else { return nil }
        for offset in 0..<length where folded(input[from + offset]) != folded(input[start + offset]) {
            return nil
        }
        return backward ? from : from + length
    }
}
