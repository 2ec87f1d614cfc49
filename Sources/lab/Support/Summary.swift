import ArgumentParser
import Foundation
import GrowthBookNetwork
import Laboratory

/// Counting words for summaries.
enum Summary {
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
