import ArgumentParser
import Foundation
import GrowthBook
import GrowthBookNetwork
import Laboratory

/// The `--json` shape of `lab check`.
struct CheckDocument: Encodable {
    struct Item: Encodable {
        var file: String
        var line: Int?
        var column: Int?
        var severity: String
        var message: String

        init(_ diagnostic: Diagnostic) {
            file = diagnostic.file
            line = diagnostic.position?.line
            column = diagnostic.position?.column
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
        }
    }

    var files: Int
    var errors: Int
    var warnings: Int
    var diagnostics: [Item]
}
