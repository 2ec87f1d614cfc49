import Foundation
import NIOCore

/// Why a server could not listen, in the system's plain words ("address
/// already in use"), where NIO says `bind(descriptor:ptr:bytes:): … (errno: 98)`.
package enum ListenFailure {
    package static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        return String(describing: error)
    }
}
