/// A screen to draw on and a source of input: ncurses in `lab console`,
/// ``InMemoryTerminal`` in tests.
package protocol Terminal: AnyObject {
    /// The current size.
    var size: TerminalSize { get }

    /// Shows the buffer.
    func draw(_ buffer: ScreenBuffer)

    /// Waits up to `timeout` for input; `nil` when the time passed or
    /// ``TerminalWaker/wake()`` was called.
    func nextInput(timeout: Duration) -> TerminalInput?

    /// Lets background work interrupt ``nextInput(timeout:)`` from any thread.
    var waker: any TerminalWaker { get }
}

/// Wakes a terminal that is waiting for input. Safe from any thread.
package protocol TerminalWaker: Sendable {
    func wake()
}
