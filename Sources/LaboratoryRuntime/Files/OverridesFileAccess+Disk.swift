import Laboratory

extension OverridesFileAccess {
    /// Files on disk: read with plain-words errors, written 0600 whole or not at all.
    public static let disk = OverridesFileAccess(
        read: { path in try FileContents.read(path) },
        writePrivate: { data, path in try PrivateFile.write(data, to: path) }
    )
}
