import Foundation
import Laboratory

extension OverridesFileAccess {
    /// Writes `file` where the console's export prompt said, private to the
    /// user (0600, as `lab overrides export` writes it: it holds user ids).
    /// - Returns: the status line's sentence.
    func export(_ file: OverridesFile, to path: String) throws -> String {
        do {
            try writePrivate(file.encoded(), path)
        } catch {
            throw ConsoleEnvironmentError("\(path): cannot write the file: \(error)")
        }
        let count = file.forcedVariants.count
        return "Exported \(count) forced variant\(count == 1 ? "" : "s") to \(path)."
    }

    /// The overrides file at `path`, and its bytes; a mistake is said with the path, line and column.
    func overrides(at path: String) throws -> (file: OverridesFile, data: Data) {
        do {
            let data = try read(path)
            return (try OverridesFile(decoding: data, file: path), data)
        } catch {
            throw ConsoleEnvironmentError(String(describing: error))
        }
    }
}
