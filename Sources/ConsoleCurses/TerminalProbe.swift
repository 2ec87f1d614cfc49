import Foundation
import LaboratoryConsole

#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal how wide it draws the emoji clusters terminals disagree
/// on, with cursor position reports (`ESC [ 6 n`), so the layout matches
/// what is on screen: tmux 3.3 draws `👍🏽` in four columns, kitty in two.
enum TerminalProbe {
    /// How long to wait for an answer before taking Unicode's widths (a
    /// busy machine answers late; a late answer is dropped by the key reader).
    static let patience: Int32 = 500  // milliseconds

    /// The terminal's rules, or `nil` when it does not answer in time.
    static func clusterRules(input: Int32 = 0, output: Int32 = 1) -> TextWidth.ClusterRules? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer {
            send("\r\u{1B}[K", to: output)
            tcsetattr(input, TCSANOW, &saved)
        }
        guard let modifier = width(of: "👍🏽", input: input, output: output),
            let joiner = width(of: "👨‍👩‍👧", input: input, output: output),
            let selector = width(of: "❤️", input: input, output: output)
        else { return nil }
        return TextWidth.ClusterRules(
            modifiersJoin: modifier == 2,
            joinersJoin: joiner == 2,
            selectorWidens: selector == 2
        )
    }

    /// Writes `text` at the start of the line and reads back the column the cursor reached.
    private static func width(of text: String, input: Int32, output: Int32) -> Int? {
        send("\r\u{1B}[K" + text + "\u{1B}[6n", to: output)
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(Double(patience) / 1000)
        while Date() < deadline {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, patience) > 0 else { return nil }
            var byte: UInt8 = 0
            guard read(input, &byte, 1) == 1 else { return nil }
            answer.append(byte)
            if byte == UInt8(ascii: "R") { return column(in: answer).map { $0 - 1 } }
        }
        return nil
    }

    /// The column of a report `ESC [ row ; column R` at the end of `bytes` (keys typed before it are skipped).
    static func column(in bytes: [UInt8]) -> Int? {
        guard let start = bytes.lastIndex(of: 0x1B) else { return nil }
        let report = String(decoding: bytes[start...], as: UTF8.self)
        guard report.hasPrefix("\u{1B}["), report.hasSuffix("R") else { return nil }
        let fields = report.dropFirst(2).dropLast().split(separator: ";")
        guard fields.count == 2, let column = Int(fields[1]), column >= 1 else { return nil }
        return column
    }

    private static func send(_ text: String, to output: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}
