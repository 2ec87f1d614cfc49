import Foundation

/// The system's words for a file or network error, in plain language, where
/// Foundation would say `Error Domain=NSCocoaErrorDomain Code=260 …`.
package enum SystemErrorReason {
    /// The words for `error`, without Foundation's wrapping.
    package static func of(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        for candidate in [error as NSError, underlying].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(candidate.code))).lowercased()
        }
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadTooLarge: return "the file is too large"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "the file is not readable text"
            default: break
            }
        }
        return "an input/output error (\((error as NSError).code))"
    }
}
