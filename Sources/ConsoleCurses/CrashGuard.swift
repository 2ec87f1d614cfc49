import CNcursesw
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Gives the terminal back even when the process crashes: a trap, a stack
/// overflow or an abort runs a handler that restores the terminal's modes
/// from before the console started and leaves the alternate screen, then
/// hands the signal to whoever handled it before (Swift's backtracer prints
/// its report on a usable terminal) and dies of it as it would have.
///
/// A handler may only make async-signal-safe calls and capture nothing, so
/// everything it needs is prepared here and kept in globals.
enum CrashGuard {
    /// The signals a crash arrives as.
    static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Saves the terminal's current modes; call before ncurses changes them.
    static func saveModes() {
        crashSavedModesValid = tcgetattr(STDIN_FILENO, &crashSavedModes) == 0
    }

    /// Installs the handlers, with the reset sequences of the terminal ncurses opened.
    static func install() {
        // What ncurses' endwin would send: leave the alternate screen, show the
        // cursor, keypad and attributes back to normal, mouse reports off.
        var reset: [UInt8] = []
        for capability in ["sgr0", "rmkx", "cnorm", "rmcup"] {
            if let value = tigetstr(capability), Int(bitPattern: value) != -1 {
                reset += Array(String(cString: value).utf8)
            }
        }
        reset += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\r\n".utf8)
        crashResetLength = min(reset.count, MemoryLayout.size(ofValue: crashReset))
        withUnsafeMutableBytes(of: &crashReset) { buffer in
            for index in 0..<crashResetLength { buffer[index] = reset[index] }
        }
        // A stack overflow leaves no stack to run the handler on: give it one.
        let size = 64 << 10
        if let memory = malloc(size) {
            var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: size)
            sigaltstack(&stack, nil)
        }
        for signal in fatal {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, info, context in
                if crashResetLength > 0 {
                    withUnsafeBytes(of: &crashReset) { _ = write(STDOUT_FILENO, $0.baseAddress, crashResetLength) }
                }
                if crashSavedModesValid { tcsetattr(STDIN_FILENO, TCSAFLUSH, &crashSavedModes) }
                // Then whoever handled it before, or the default: death by this signal.
                var previous = crashPreviousActions[Int(number)]
                if previous.sa_flags & SA_SIGINFO != 0, let handler = previous.__sigaction_handler.sa_sigaction {
                    handler(number, info, context)
                } else if let handler = previous.__sigaction_handler.sa_handler,
                    unsafeBitCast(handler, to: Int.self) > 1
                {  // neither SIG_DFL (0) nor SIG_IGN (1)
                    handler(number)
                }
                previous = sigaction()
                sigaction(number, &previous, nil)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER
            sigaction(signal, &action, &crashPreviousActions[Int(signal)])
        }
    }
}

nonisolated(unsafe) private var crashSavedModes = termios()
nonisolated(unsafe) private var crashSavedModesValid = false
/// The reset sequence, in fixed storage the handler can read without allocating.
nonisolated(unsafe) private var crashReset:
    (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
nonisolated(unsafe) private var crashResetLength = 0
nonisolated(unsafe) private var crashPreviousActions = Array(repeating: sigaction(), count: 65)
