extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place when the string
    /// keeps them contiguous (every native string does), otherwise copied
    /// once (a bridged one). Names, keys and seeds are read through here, so
    /// each reader neither repeats the fallback nor misses it.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}

extension String {
    /// Whether the string is `name`, byte for byte (as JavaScript compares
    /// property names): where `==` of two different strings took Swift's
    /// slow comparison, for every member name a decode compared.
    @inline(__always)
    func isName(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard utf8.count == count else { return false }
        return withUTF8Bytes { bytes in
            for offset in 0..<count where bytes[offset] != name.utf8Start[offset] { return false }
            return true
        }
    }
}
