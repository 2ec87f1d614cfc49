import Crypto
import Foundation
import _CryptoExtras

/// Decrypts GrowthBook's `encryptedFeatures`: `"<iv base64>.<ciphertext base64>"`,
/// AES-CBC with PKCS#7 padding under the client's base64 decryption key (128
/// bits in practice; the key's length picks AES-128, -192 or -256, as WebCrypto does).
public enum PayloadDecryption {
    /// Why a payload could not be decrypted.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The text is not `<iv base64>.<ciphertext base64>`, or the key is not base64; says which.
        case malformed(String)
        /// The padding did not check out: the key is not this payload's, or the ciphertext is damaged.
        case wrongKeyOrCorrupt

        public var description: String {
            switch self {
            case .malformed(let what): return "cannot decrypt the payload: \(what)"
            case .wrongKeyOrCorrupt: return "cannot decrypt the payload: wrong decryption key, or corrupt data"
            }
        }
    }

    /// Decryption with `key`, in the shape a payload decoder takes; `nil` without a key.
    public static func decrypter(key: String?) -> (@Sendable (String) throws -> String)? {
        guard let key else { return nil }
        return { (encrypted: String) throws -> String in try decrypt(encrypted, key: key) }
    }

    /// Decrypts GrowthBook's `encryptedFeatures` (`<iv>.<ciphertext>`, AES-CBC, base64) with the SDK connection's key.
    public static func decrypt(_ encrypted: String, key: String) throws(Failure) -> String {
        let parts = encrypted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed("expected \"<iv>.<ciphertext>\"") }
        guard let keyBytes = Data(base64Encoded: key) else { throw .malformed("the decryption key is not base64") }
        guard [16, 24, 32].contains(keyBytes.count) else {
            throw .malformed("the decryption key has \(keyBytes.count) bytes, not 16, 24 or 32")
        }
        guard let ivBytes = Data(base64Encoded: String(parts[0])) else { throw .malformed("the iv is not base64") }
        guard let ciphertext = Data(base64Encoded: String(parts[1])) else {
            throw .malformed("the ciphertext is not base64")
        }
        let iv: AES._CBC.IV
        do {
            iv = try AES._CBC.IV(ivBytes: ivBytes)
        } catch {
            throw .malformed("the iv has \(ivBytes.count) bytes, not 16")
        }
        do {
            let plaintext = try AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: keyBytes), iv: iv)
            return String(decoding: plaintext, as: UTF8.self)
        } catch {
            throw .wrongKeyOrCorrupt
        }
    }
}
