import Foundation
import HTTPTypes

/// The key or token a request carries, as OFREP says to send one:
/// `Authorization: Bearer …`, else `X-API-Key`. OFREP's client keys and the
/// steering API's tokens are read the same way.
enum RequestCredential {
    static func of(_ headers: HTTPFields) -> String? {
        if let value = headers[.authorization] {
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return headers[.apiKey]
    }
}
