import Foundation
import Laboratory

/// Finds `share/laboratory/demo.json`, the catalog `lab` and `lab-demo` use
/// when no `--catalog` is given.
public enum DemoCatalog {
    /// Where the demo catalog lies, from the root of a checkout or an installed prefix.
    public static let relativePath = "share/laboratory/demo.json"

    /// Looks beside an installed binary (`bin/../share`), then up from the
    /// binary (so `swift run` from a fresh clone finds the package's `share/`),
    /// then in the current folder.
    public static func locate() -> String? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<6 {
                candidates.append(folder.appendingPathComponent(relativePath))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relativePath)
        )
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }?.path
    }
}
