import Foundation
import LaboratoryConsole

#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe, for the signal handler. A signal handler
/// can capture nothing and may only make async-signal-safe calls, so it
/// writes the signal's number to this descriptor and returns.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// A pipe that wakes the key loop: background work writes 0, signal handlers
/// write the signal number. `poll()` watches it beside standard input.
final class SignalPipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    /// The signals that end the console cleanly.
    static let ending: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Routes the ending signals into the pipe until ``restoreSignals()``.
    func catchSignals() {
        signalPipeWriteEnd = writeEnd
        // A parent may have started us with these blocked; they must get through.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.ending { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in Self.ending {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
    }

    func restoreSignals() {
        for (signal, old) in previous {
            var old = old
            sigaction(signal, &old, nil)
        }
        previous.removeAll()
    }

    /// Wakes the loop without a signal.
    func wake() {
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe; returns the last signal among what it held, if any.
    func drain() -> Int32? {
        var signal: Int32?
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count <= 0 { break }
            if let last = buffer[0..<count].last(where: { $0 != 0 }) { signal = Int32(last) }
        }
        return signal
    }

    deinit {
        restoreSignals()
        close(readEnd)
        close(writeEnd)
    }
}

/// Wakes a ``CursesTerminal`` from another thread.
struct PipeWaker: TerminalWaker {
    let pipe: SignalPipe
    func wake() { pipe.wake() }
}
