import Foundation
import Laboratory

/// Everything the console shows, in one value: the reducer changes it, the
/// renderer draws it.
package struct ConsoleState: Sendable, Equatable {
    package var size: TerminalSize
    package private(set) var data: ConsoleData
    /// The navigation stack; the last frame is on screen.
    package var stack: [Frame] = [Frame(route: .main)]
    /// Whether keys go to the filter of the current screen.
    package var isEditingFilter = false
    package var showsHelp = false
    /// How wide the detail pane of the Experiments and variant screens is.
    package var experimentPane: DetailPaneWidth = .normal
    /// How wide the Events screen's detail pane is: hidden until an event
    /// is opened, as the table needs its columns more than a pane.
    package var eventPane: DetailPaneWidth = .hidden
    /// The first line of the detail pane shown, when it is longer than the screen.
    package var paneScroll = 0
    /// Whether ↑↓ scroll the detail pane (Tab) instead of moving in the list.
    package var isPaneFocused = false
    package var confirmation: Confirmation?
    /// A question waiting for typed text (a file path).
    package var prompt: Prompt?
    package var message: StatusMessage?
    /// The Events screen shows only this reason, when set.
    package var eventReason: String?
    /// Each screen's last filter, given back when the screen is opened again.
    package var filters: [Route: String] = [:]
    /// Effects started and not finished yet.
    package var pendingEffects = 0
    /// The last request for an experiment's decision steps, so that it is asked for once.
    var explanationRequested: ConsoleEffect?
    package var shouldQuit = false
    /// Time zone for times on screen (tests pin it).
    package var timeZone: ClockZone

    package init(size: TerminalSize, data: ConsoleData = ConsoleData(), timeZone: ClockZone = .local) {
        self.size = size
        self.data = data
        self.timeZone = timeZone
        refreshRows()
    }

    /// The frame on screen.
    package var frame: Frame {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    package var route: Route { frame.route }

    /// How wide the detail pane of the screen on top is (`p` switches it).
    package var pane: DetailPaneWidth {
        get { route == .events ? eventPane : experimentPane }
        set {
            if route == .events { eventPane = newValue } else { experimentPane = newValue }
        }
    }

    /// Where things go on screen at this size and pane width.
    package var layout: Layout {
        let shown = ListColumns.visible(for: route, pane: pane).filter { $0 < columnNeeds.count }
        return Layout(size, pane: pane, listNeed: ListColumns.listNeed(shown.map { columnNeeds[$0] }))
    }

    /// The rows of the screen on top, as built from the data and its filter;
    /// kept current by ``refreshRows()`` so moving the cursor costs nothing.
    package private(set) var rows = ShownRows()
    /// The columns each list column's content needs, over every row of the
    /// screen (not only those the filter keeps, so columns hold still as you type).
    package private(set) var columnNeeds: [Int] = []
    /// Counts data loads, so cached sections know when they are stale.
    package private(set) var dataGeneration = 0
    private var sections: [RowSection] = []
    private var sectionsKey: SectionsKey?
    private var rowsFilter: String?

    private struct SectionsKey: Sendable, Equatable {
        var route: Route
        var generation: Int
        var reason: String?
    }

    /// Replaces the data (a load finished).
    package mutating func replaceData(_ data: ConsoleData) {
        self.data = data
        dataGeneration += 1
    }

    /// Adds an experiment's decision steps, read for the data of
    /// `generation`, to the data: rows do not show them, so nothing is
    /// rebuilt. Steps read for older data may be stale and are dropped; the
    /// newer data's own request answers.
    mutating func takeDecisionSteps(
        _ steps: [Explanation.Step],
        source: String,
        experiment: String,
        generation: Int
    ) {
        guard generation == dataGeneration else { return }
        data.decisionSteps[source, default: [:]][experiment] = steps
    }

    /// Rebuilds the sections when the data, the screen or the reason filter
    /// changed, and the rows when the sections or the text filter changed.
    package mutating func refreshRows() {
        let key = SectionsKey(route: route, generation: dataGeneration, reason: eventReason)
        // The old sections and rows go before the new are made: at 10,000
        // experiments each is a megabyte, and two at once raise the peak.
        if key != sectionsKey {
            sections = []
            rows = ShownRows()
            sections = RowBuilder.sections(for: route, state: self)
            columnNeeds = ListColumns.needs(for: route, sections: sections)
            sectionsKey = key
            rowsFilter = nil
        }
        if rowsFilter != frame.filter {
            rows = ShownRows()
            rows = RowSection.rows(of: sections, filter: frame.filter)
            rowsFilter = frame.filter
        }
    }
}

extension ConsoleState {
    /// The experiment the detail pane explains: the highlighted one on
    /// Experiments, the open one on its variants; `nil` elsewhere.
    var experimentInPane: (source: String, experiment: String)? {
        let row = rows.indices.contains(frame.cursor) ? rows[frame.cursor] : nil
        switch (route, row?.target) {
        case (.experiments, .experiment(let source, let name)?): return (source, name)
        case (.variants(let source, let name), .choice?): return (source, name)
        default: return nil
        }
    }
}
