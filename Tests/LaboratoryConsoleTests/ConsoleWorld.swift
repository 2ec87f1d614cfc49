import Foundation
import Laboratory
import LaboratoryRuntime
import LaboratoryTesting

@testable import LaboratoryConsole

/// A console over an in-memory framework: keys go in, screens come out.
final class ConsoleWorld {
    let store = InMemoryStateStore()
    let events = InMemoryEventSink()
    let manager: AssignmentsManager
    let debug: DebugSource
    let environment: LiveConsoleEnvironment
    var state: ConsoleState
    /// Effects the reducer asked for and the test has not performed yet.
    var pending: [ConsoleEffect] = []
    /// The experiments whose decision steps the console asked for, in order.
    var explanationsAsked: [String] = []

    init(
        _ catalogs: [Catalog],
        token: Double = 0.3,
        size: TerminalSize = TerminalSize(columns: 100, rows: 30),
        growthBook payload: String? = nil,
        server: (@Sendable () -> ConsoleData.ServerInfo?)? = nil,
        schedules: (@Sendable () -> [String: FetchSchedule])? = nil
    ) throws {
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(token)))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let store = self.store
        var sources: [any ExperimentSource] = catalogs.map {
            LocalSource(catalog: $0, store: store, device: device, random: FixedRandomSource(0), clock: clock)
        }
        if let payload {
            let growthBook = GrowthBookSource(
                store: store,
                device: device,
                fetcher: PlainPayloadFetcher(InMemoryFetcher()),
                clock: clock
            )
            try growthBook.accept(Data(payload.utf8))
            sources.append(growthBook)
        }
        debug = DebugSource(sources: sources, store: store)
        manager = AssignmentsManager(sources: [debug], store: store, events: events, device: device, clock: clock)
        environment = LiveConsoleEnvironment(
            manager: manager,
            debug: debug,
            store: store,
            log: events,
            files: .disk,
            server: server,
            schedules: schedules
        )
        state = ConsoleState(size: size, data: try environment.load(), timeZone: .utc)
    }

    static func demo(
        token: Double = 0.3,
        size: TerminalSize = TerminalSize(columns: 100, rows: 30),
        server: (@Sendable () -> ConsoleData.ServerInfo?)? = nil,
        schedules: (@Sendable () -> [String: FetchSchedule])? = nil
    ) throws -> ConsoleWorld {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let catalog = try CatalogDecoder().decode(
            contentsOf: root.appendingPathComponent("share/laboratory/demo.json").path
        )
        return try ConsoleWorld([catalog], token: token, size: size, server: server, schedules: schedules)
    }

    /// Sends keys through the reducer, collecting the effects it asks for.
    func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Types text as character keys.
    func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    func send(_ input: TerminalInput) {
        absorb(ConsoleReducer.reduce(&state, .input(input)))
    }

    /// Keeps effects for ``settle()``; answers requests for decision steps at
    /// once, as the runner does in the background.
    private func absorb(_ effects: [ConsoleEffect]) {
        for effect in effects {
            guard case .explain(let source, let experiment, let generation) = effect else {
                pending.append(effect)
                continue
            }
            explanationsAsked.append(experiment)
            let steps = (try? environment.decisionSteps(source: source, experiment: experiment)) ?? []
            let answer = ConsoleAction.explained(
                source: source,
                experiment: experiment,
                steps: steps,
                generation: generation
            )
            absorb(ConsoleReducer.reduce(&state, answer))
        }
    }

    /// Performs the pending effects as the runner would, then reloads.
    func settle() async throws {
        let effects = pending
        pending = []
        for effect in effects {
            let message = try await environment.perform(effect)
            absorb(ConsoleReducer.reduce(&state, .effectFinished(message, isError: false)))
        }
        absorb(ConsoleReducer.reduce(&state, .dataLoaded(try environment.load())))
    }

    /// Reloads after something changed outside the console.
    func reload() throws {
        absorb(ConsoleReducer.reduce(&state, .dataLoaded(try environment.load())))
    }

    var screen: ScreenBuffer { ConsoleRenderer.render(state) }
    var lines: [String] { screen.lines }
    var text: String { lines.joined(separator: "\n") }

    /// The detail pane's text with its wrapping undone, for checks on content.
    var pane: String {
        lines.compactMap { line -> String? in
            guard let divider = line.firstIndex(of: "│") else { return nil }
            return line[line.index(after: divider)...].trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// What the highlighted row is called: an experiment's or variant's full
    /// name (the list may show it shortened), else its first text column.
    var highlighted: String? {
        let rows = state.rows
        guard rows.indices.contains(state.frame.cursor) else { return nil }
        let row = rows[state.frame.cursor]
        return row.target.name ?? row.columns.first { $0.count > 1 }
    }
}

extension Catalog {
    /// A one-source catalog built from (experiment, variants) pairs with one key each.
    static func simple(
        source: String = "Local",
        _ experiments: [(String, [String])],
        key: (String) -> String = { "\($0.prefix(1).lowercased())\($0.dropFirst())Key" }
    ) -> Catalog {
        Catalog(
            source: source,
            experiments: experiments.map { name, variants in
                Experiment(
                    name: name,
                    keys: [key(name)],
                    variants: variants.map { Variant(name: $0, assignments: [key(name): .string($0.lowercased())]) },
                    baseline: variants[0]
                )
            }
        )
    }
}
