import Foundation
import LabDrivers

/// GrowthBook's own JavaScript SDK (`../shared/reference/growthbook-js`)
/// and `node` to run it: the reference the differential and remote
/// evaluation tests compare with.
public enum GrowthBookJavaScript {
    /// The SDK's bundle, in `shared/` beside this package's folder.
    public static let sdk = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // the package
        .deletingLastPathComponent()
        .appendingPathComponent("shared/reference/growthbook-js/growthbook-js.cjs").path
    /// `node` on PATH, if there is one.
    public static let node = ExecutableSearch.find("node")
    /// Whether both are there.
    public static var available: Bool { node != nil && FileManager.default.fileExists(atPath: sdk) }
    /// What a suite that needs them says when they are not.
    public static let missing =
        "GrowthBook's JavaScript SDK needs node on PATH and ../shared/reference/growthbook-js/growthbook-js.cjs"
}
