import ArgumentParser
import Foundation

/// Writes to standard output and error with `write(2)`, so that a full disk
/// (`> /dev/full`) or a reader that went away (`| head -1`) ends the command
/// with a message and status 74 instead of a trap or a silent SIGPIPE death.
enum StandardStreams {
    /// SIGPIPE is ignored once, before the first write: a closed pipe then
    /// shows up as EPIPE, which is reported.
    private static let ignoresBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func write(_ text: String, to descriptor: Int32) {
        write(Data(text.utf8), to: descriptor)
    }

    static func write(_ data: Data, to descriptor: Int32) {
        _ = ignoresBrokenPipes
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        guard let failure else { return }
        if descriptor != STDERR_FILENO {
            let name = descriptor == STDOUT_FILENO ? "standard output" : "descriptor \(descriptor)"
            let message = "lab: cannot write to \(name): \(String(cString: strerror(failure)))\n"
            _ = message.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
        // Nothing more can be said: leave at once, as ArgumentParser's exit does.
        exit(ExitStatus.ioError)
    }
}
