#if canImport(Glibc)
import Glibc
#endif

/// Sends all of `bytes` on `socket`; `false` once the other end stopped
/// taking them. With `MSG_NOSIGNAL`: a plain `write` to a closed connection
/// raises SIGPIPE, which ends the whole test process.
package func sendAll(_ bytes: UnsafeRawBufferPointer, on socket: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        if written <= 0 { return false }
        offset += written
    }
    return true
}
