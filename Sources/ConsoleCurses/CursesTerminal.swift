import CNcursesw
import Foundation
import LaboratoryConsole

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal, through ncursesw: draws screen buffers, reads keys,
/// clicks and resizes, and always gives the terminal back.
///
/// Keys are read with `get_wch` after `poll()` says standard input (or the
/// self-pipe that background work and signal handlers write to) is ready,
/// so a background result or SIGTERM wakes the loop at once.
package final class CursesTerminal: Terminal {
    private var screen: OpaquePointer?
    private let pipe = SignalPipe()
    private let palette: CursesPalette
    private let input: UnsafeMutablePointer<FILE>?
    private let output: UnsafeMutablePointer<FILE>?
    private let ownsFiles: Bool
    private var isOpen = true
    /// Whether the console asked the terminal for SGR mouse reports itself.
    private var asksForSGRMouseReports = false
    /// The signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT) that ended the console, if one did;
    /// the caller exits with 128 + its number once the terminal is given back.
    package private(set) var endingSignal: Int32?

    /// Takes over the process's terminal.
    ///
    /// - Parameter colors: `false` draws with bold and reverse only (for `NO_COLOR`).
    package convenience init(colors: Bool) throws(CursesError) {
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        guard let type = ProcessInfo.processInfo.environment["TERM"], !type.isEmpty else { throw .noTerminalType }
        CrashGuard.saveModes()
        try self.init(type: type, input: lab_stdin(), output: lab_stdout(), ownsFiles: false, colors: colors)
        // Before the first draw, whose screen clear wipes what the probe wrote.
        if let rules = TerminalProbe.clusterRules() { TextWidth.terminalRules = rules }
        pipe.catchSignals()
        CrashGuard.install()
    }

    /// A terminal with no screen behind it, for tests: ncurses draws into
    /// /dev/null and tests read its virtual screen back.
    package static func headless(size: TerminalSize, colors: Bool = false) throws(CursesError) -> CursesTerminal {
        let terminal = try CursesTerminal(
            type: "xterm-256color",
            input: fopen("/dev/null", "r"),
            output: fopen("/dev/null", "w"),
            ownsFiles: true,
            colors: colors
        )
        resizeterm(Int32(size.rows), Int32(size.columns))
        return terminal
    }

    private init(
        type: String,
        input: UnsafeMutablePointer<FILE>?,
        output: UnsafeMutablePointer<FILE>?,
        ownsFiles: Bool,
        colors: Bool
    ) throws(CursesError) {
        Self.useUTF8Locale()
        self.input = input
        self.output = output
        self.ownsFiles = ownsFiles
        guard let screen = newterm(type, output, input) else {
            if ownsFiles {
                if let input { fclose(input) }
                if let output { fclose(output) }
            }
            throw .unknownTerminal(type)
        }
        self.screen = screen
        set_term(screen)
        // A terminal without cursor addressing would get a screenful of garbage.
        guard let cup = tigetstr("cup"), Int(bitPattern: cup) != -1 else {
            endwin()
            delscreen(screen)
            self.screen = nil
            if ownsFiles {
                if let input { fclose(input) }
                if let output { fclose(output) }
            }
            throw .cannotAddressCursor(type)
        }
        Self.applyModes()
        palette = CursesPalette(colors: colors && has_colors())
        asksForSGRMouseReports = askForSGRMouseReports()
    }

    /// The terminal modes the console runs in, set at start and after `fg`.
    private static func applyModes() {
        raw()  // Ctrl-C arrives as a key, so quitting always goes through cleanup.
        noecho()
        nonl()
        keypad(lab_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        mousemask(lab_click_mask(), nil)
        mouseinterval(0)
    }

    /// Where the terminal description announces X10 mouse reports only
    /// (`kmous` is `ESC [ M`: tmux's and screen's), ncurses does not ask for
    /// SGR reports (1006), whose columns go past 223: the console does, once
    /// at start, and ncurses hands back their `ESC [ <` as one key code. The
    /// mode only changes how reports are written; ncurses still turns reports
    /// on and off (at Ctrl-Z, at exit), so the mode is taken back at exit only.
    /// - Returns: whether it asked.
    private func askForSGRMouseReports() -> Bool {
        guard let capability = tigetstr("kmous"), Int(bitPattern: capability) != -1,
            String(cString: capability) == "\u{1B}[M", let output
        else { return false }
        define_key(Self.sgrMousePrefix, Self.sgrMouseKey)
        // Straight to the terminal: a mode switch has no place in ncurses' screen updates.
        Self.write("\u{1B}[?1006h", to: fileno(output))
        return true
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    private static let sgrMousePrefix = "\u{1B}[<"
    /// The key code ncurses gives `ESC [ <`: one past ncurses' own.
    private static let sgrMouseKey = KEY_MAX + 1

    /// Wide characters print nothing unless the locale's codeset is UTF-8.
    private static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    deinit { close() }

    /// Gives the terminal back: the modes from before start, the cursor, the screen.
    package func close() {
        guard isOpen else { return }
        isOpen = false
        // The terminal gets its modes back even from the background (a job
        // ended while stopped): blocked, SIGTTOU cannot stop the process mid-way.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        endwin()
        // The shell's programs may expect X10 reports, as the terminal description says.
        if asksForSGRMouseReports, let output { Self.write("\u{1B}[?1006l", to: fileno(output)) }
        if let screen { delscreen(screen) }
        screen = nil
        pipe.restoreSignals()
        if ownsFiles {
            if let input { fclose(input) }
            if let output { fclose(output) }
        }
    }

    package var size: TerminalSize {
        TerminalSize(columns: Int(lab_max_x()), rows: Int(lab_max_y()))
    }

    package var waker: any TerminalWaker { PipeWaker(pipe: pipe) }

    // MARK: - Drawing

    package func draw(_ buffer: ScreenBuffer) {
        let rows = min(buffer.height, Int(lab_max_y()))
        let columns = min(buffer.width, Int(lab_max_x()))
        var current: CellStyle?
        var clusters: [ClusterOverlay] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = buffer[row, column]
                if cell.isContinuation { continue }
                if cell.style != current {
                    current = cell.style
                    attrset(Int32(bitPattern: palette.attributes(for: cell.style)))
                }
                var width = 1
                while column + width < columns && buffer[row, column + width].isContinuation { width += 1 }
                if ClusterOverlay.isNeeded(for: cell.text, width: width) {
                    // ncurses would split it: blanks of its width now, the cluster itself after refresh.
                    _ = mvaddstr(Int32(row), Int32(column), String(repeating: " ", count: width))
                    clusters.append(ClusterOverlay(row: row, column: column, text: cell.text, style: cell.style))
                    continue
                }
                var characters = cell.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
                _ = mvaddwstr(Int32(row), Int32(column), &characters)
            }
        }
        attrset(Int32(bitPattern: lab_a_normal()))
        refresh()
        if !clusters.isEmpty, let output {
            let bytes = ClusterOverlay.bytes(for: clusters, palette: palette)
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, output) }
            fflush(output)
        }
    }

    /// The text ncurses holds for one row of its screen, for tests.
    package func text(ofRow row: Int) -> String {
        var characters = [wchar_t](repeating: 0, count: Int(lab_max_x()) + 1)
        let count = mvinnwstr(Int32(row), 0, &characters, Int32(characters.count - 1))
        guard count > 0 else { return "" }
        let scalars = characters.prefix(Int(count)).compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
        var text = String(String.UnicodeScalarView(scalars))
        while text.last == " " { text.removeLast() }
        return text
    }

    // MARK: - Input

    package func nextInput(timeout: Duration) -> TerminalInput? {
        // ncurses may already hold bytes it read ahead (the rest of an escape sequence).
        if let input = readInput() { return input }
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        )
        let ready = poll(&fds, 2, milliseconds)
        if fds[1].revents & Int16(POLLIN) != 0, let signal = pipe.drain() {
            endingSignal = signal
            return .terminate
        }
        if ready < 0 {
            // Interrupted, most likely by SIGWINCH: ncurses queues KEY_RESIZE.
            return readInput()
        }
        if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { return .terminate }
        if fds[0].revents & Int16(POLLIN) != 0 { return readInput() }
        return nil
    }

    private func readInput() -> TerminalInput? {
        nodelay(lab_stdscr(), true)
        var character: wint_t = 0
        let result = get_wch(&character)
        if result == KEY_CODE_YES { return keyCode(Int32(character)) }
        guard result == OK else { return nil }
        if character == 0x1A { return suspend() }
        if character == 0x1B, skipCursorReport() { return nil }
        return CursesKeys.character(UInt32(character)).map { .key($0) }
    }

    /// The rest of an SGR mouse report (`0;250;5M`), read as it arrives: its
    /// bytes may come a moment after its `ESC [ <`.
    private func readSGRMouseReport() -> TerminalInput? {
        wtimeout(lab_stdscr(), 50)
        defer { nodelay(lab_stdscr(), true) }
        var report = ""
        var character: wint_t = 0
        while report.count < 20, get_wch(&character) == OK, let scalar = Unicode.Scalar(UInt32(character)) {
            report.unicodeScalars.append(scalar)
            if scalar == "M" || scalar == "m" { break }
        }
        return SGRMouseReport.input(from: report)
    }

    /// After an Escape: drops the rest of a cursor position report
    /// (`[12;5R`), the terminal's late answer to the start-up probe, so it
    /// does not arrive as keys; anything else is put back, in order.
    private func skipCursorReport() -> Bool {
        var ahead: [wint_t] = []
        var character: wint_t = 0
        var result = get_wch(&character)
        // Only characters can make a report; a key (an arrow) goes back as it came.
        while result == OK {
            ahead.append(character)
            let isReportCharacter =
                (ahead.count == 1 && character == wint_t(UInt8(ascii: "[")))
                || (ahead.count > 1
                    && (character == wint_t(UInt8(ascii: ";"))
                        || (wint_t(UInt8(ascii: "0"))...wint_t(UInt8(ascii: "9"))).contains(character)))
            if ahead.count > 3 && character == wint_t(UInt8(ascii: "R")) {
                let text = String(decoding: ahead.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
                if TerminalProbe.column(in: Array(("\u{1B}" + text).utf8)) != nil { return true }
                break
            }
            guard isReportCharacter, ahead.count < 12 else { break }
            result = get_wch(&character)
        }
        if result == KEY_CODE_YES { ungetch(Int32(character)) }
        for pushed in ahead.reversed() { unget_wch(wchar_t(bitPattern: UInt32(pushed))) }
        return false
    }

    /// Ctrl-Z, which raw mode delivers as a key: give the terminal back, stop
    /// as the shell expects, and take the terminal again and redraw on `fg`.
    private func suspend() -> TerminalInput {
        endwin()
        // SIGSTOP, which nothing can catch or block: ncurses' SIGTSTP handler
        // and the threads' signal masks cannot keep the process from stopping.
        kill(getpid(), SIGSTOP)
        // Continued in the background (`kill -TERM %1` continues a stopped
        // job so that it can end, before any `fg`): a signal that ends the
        // program ends it now, without taking the terminal back; anything else
        // waits stopped for `fg`. Touching the terminal from the background
        // stopped the process again (SIGTTOU), and the shell's `fg` said so.
        while !isInForeground {
            var waiting = pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)
            if poll(&waiting, 1, 100) > 0, let signal = pipe.drain() {
                endingSignal = signal
                return .terminate
            }
            if isInForeground { break }
            kill(getpid(), SIGSTOP)
        }
        // Resumed: the shell had the terminal; take back our modes, then
        // redraw. The first refresh after `endwin` enters the alternate
        // screen again through ncurses' own output, so the `endwin` of any
        // later exit leaves it in order. (Writing `smcup` ourselves went
        // through stdio's buffer, which reached the terminal at exit, after
        // ncurses' `rmcup`: the shell's prompt sat on a blank alternate screen.)
        reset_prog_mode()
        Self.applyModes()
        refresh()
        clearok(lab_stdscr(), true)
        return .resize(size)
    }

    /// Whether this process's group has the terminal (the shell's `fg`).
    private var isInForeground: Bool {
        guard let output else { return true }
        let group = tcgetpgrp(fileno(output))
        return group < 0 || group == getpgrp()
    }

    private func keyCode(_ code: Int32) -> TerminalInput? {
        switch code {
        case KEY_RESIZE: return .resize(size)
        case Self.sgrMouseKey: return readSGRMouseReport()
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            // A wheel notch moves three rows, as terminals scroll.
            if event.bstate & lab_wheel_up() != 0 { return .wheel(lines: -3) }
            if event.bstate & lab_wheel_down() != 0 { return .wheel(lines: 3) }
            guard event.bstate & (lab_button1_clicked() | lab_button1_pressed()) != 0 else { return nil }
            return .click(row: Int(event.y), column: Int(event.x))
        default:
            return CursesKeys.function(code).map { .key($0) }
        }
    }
}
