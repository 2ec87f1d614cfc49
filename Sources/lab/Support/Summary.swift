import ArgumentParser
import Foundation
import Laboratory
import LaboratoryRemote

/// Counting words for summaries.
enum Summary {
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
