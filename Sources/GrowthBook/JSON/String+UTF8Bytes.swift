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
