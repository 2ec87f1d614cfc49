import Foundation

/// Writes a file only its owner can read (0600), whole or not at all: the
/// data goes to a temporary file created 0600 beside it, which then replaces it.
/// Overrides files and exports hold user ids: `lab overrides export` and the
/// console's export both write through this.
public enum PrivateFile {
    /// Why a private file could not be written, in the system's words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `data` to `path`, readable by its owner alone (0600), replacing the file whole or not at all.
    public static func write(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.lab-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // mode 0600
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Failure(description: String(cString: strerror(failure)))
        }
    }
}
