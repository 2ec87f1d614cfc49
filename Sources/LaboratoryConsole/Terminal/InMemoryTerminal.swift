import Foundation

/// A ``Terminal`` for tests: scripted input, and every drawn frame kept.
package final class InMemoryTerminal: Terminal, @unchecked Sendable {
    package private(set) var size: TerminalSize
    /// The last frame drawn.
    package private(set) var screen: ScreenBuffer
    /// How many frames were drawn.
    package private(set) var frames = 0

    private let lock = NSCondition()
    private var pending: [TerminalInput] = []
    private var woken = false

    package init(size: TerminalSize = TerminalSize(columns: 100, rows: 30)) {
        self.size = size
        screen = ScreenBuffer(width: size.columns, height: size.rows)
    }

    /// Queues input for the console to read; a resize also changes ``size``.
    package func send(_ inputs: TerminalInput...) {
        lock.lock()
        pending.append(contentsOf: inputs)
        lock.signal()
        lock.unlock()
    }

    /// Queues key presses.
    package func type(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    package func draw(_ buffer: ScreenBuffer) {
        lock.lock()
        screen = buffer
        frames += 1
        lock.unlock()
    }

    package func nextInput(timeout: Duration) -> TerminalInput? {
        lock.lock()
        defer { lock.unlock() }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        let deadline = Date(timeIntervalSinceNow: seconds)
        while pending.isEmpty && !woken {
            if !lock.wait(until: deadline) { break }
        }
        woken = false
        guard !pending.isEmpty else { return nil }
        let input = pending.removeFirst()
        if case .resize(let newSize) = input { size = newSize }
        return input
    }

    package var waker: any TerminalWaker { Waker(terminal: self) }

    private struct Waker: TerminalWaker {
        let terminal: InMemoryTerminal

        func wake() {
            terminal.lock.lock()
            terminal.woken = true
            terminal.lock.signal()
            terminal.lock.unlock()
        }
    }
}
