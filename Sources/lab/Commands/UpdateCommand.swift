import ArgumentParser
import Foundation
import Laboratory

/// `lab update`: fetch the sources again.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Fetch the sources again and show how each fetch went."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON document with each source's status.") var json = false

    func run() async throws {
        let session = try LabSession.open(global)
        let statuses = await session.manager.update()
        let names = statuses.keys.sorted()
        if json {
            try JSONOutput.print(UpdateDocument(sources: names.map { .init(name: $0, status: statuses[$0]!) }))
        } else {
            for name in names {
                let detail = session.debug.sources.first { $0.name == name }?.fetching?.statusDetail
                printLine("\(name): \(statuses[name]!.summary)" + (detail.map { " · " + $0 } ?? ""))
            }
        }
        if statuses.values.contains(where: { if case .error = $0 { true } else { false } }) { throw ExitCode.failure }
    }
}
