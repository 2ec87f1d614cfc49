import Foundation
import Laboratory
import LaboratoryRuntime

/// The demo's web page, `share/laboratory/web/demo.html`, found beside the
/// demo catalog wherever that is (installed, or in the package).
enum DemoPage {
    static func contents() -> Data? {
        guard let catalog = DemoCatalog.locate() else { return nil }
        let page = URL(fileURLWithPath: catalog).deletingLastPathComponent().appendingPathComponent("web/demo.html")
        return try? Data(contentsOf: page)
    }
}
