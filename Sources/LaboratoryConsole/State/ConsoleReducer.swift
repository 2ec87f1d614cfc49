import Laboratory

/// The console's logic: state + action → new state and the effects to run.
package enum ConsoleReducer {
    package static func reduce(_ state: inout ConsoleState, _ action: ConsoleAction) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        switch action {
        case .input(let input):
            effects = handle(input, &state)
        case .dataLoaded(let data):
            state.replaceData(data)
        case .effectFinished(let text, let isError):
            state.pendingEffects = max(0, state.pendingEffects - 1)
            state.message = StatusMessage(text, isError: isError)
        case .loadFailed(let reason):
            state.message = StatusMessage(reason, isError: true)
        case .catalogProblem(let problem):
            var message = StatusMessage(problem, isError: true)
            message.isCatalogProblem = true
            state.message = message
        case .catalogsRepaired:
            if state.message?.isCatalogProblem == true {
                state.message = StatusMessage("The edited catalog loads again.")
            }
        case .explained(let source, let experiment, let steps, let generation):
            state.takeDecisionSteps(steps, source: source, experiment: experiment, generation: generation)
        }
        state.pendingEffects += effects.count
        // Only new data can take the highlighted thing away; a filter merely hides it.
        normalize(&state, reportingLoss: action.bringsData)
        if let request = explanationRequest(&state) { effects.append(request) }
        return effects
    }

    /// Asks for the steps of the experiment the detail pane shows, once per
    /// experiment and data, when the data came without them.
    private static func explanationRequest(_ state: inout ConsoleState) -> ConsoleEffect? {
        guard let shown = state.experimentInPane, state.data.stepsOnRequest.contains(shown.source),
            state.data.decisionSteps[shown.source]?[shown.experiment] == nil
        else { return nil }
        let request = ConsoleEffect.explain(
            source: shown.source,
            experiment: shown.experiment,
            generation: state.dataGeneration
        )
        guard state.explanationRequested != request else { return nil }
        state.explanationRequested = request
        return request
    }

    // MARK: - Input

    private static func handle(_ input: TerminalInput, _ state: inout ConsoleState) -> [ConsoleEffect] {
        switch input {
        case .terminate, .key(.interrupt):
            state.shouldQuit = true
            return []
        case .resize(let size):
            state.size = size
            return []
        case .click(let row, let column):
            guard state.size.isBigEnough, !state.showsHelp, state.confirmation == nil, state.prompt == nil else {
                return []
            }
            return click(row: row, column: column, &state)
        case .wheel(let lines):
            guard state.size.isBigEnough, !state.showsHelp, state.confirmation == nil, state.prompt == nil else {
                return []
            }
            move(by: lines, &state)
            return []
        case .key(let key):
            guard state.size.isBigEnough else {
                if key == .character("q") { state.shouldQuit = true }
                return []
            }
            if state.showsHelp {
                state.showsHelp = false
                return []
            }
            if state.prompt != nil { return editPrompt(key, &state) }
            if let confirmation = state.confirmation {
                switch key {
                case .character("y"), .character("Y"), .enter:
                    state.confirmation = nil
                    state.message = nil
                    return [confirmation.effect]
                case .character("n"), .character("N"), .escape, .character("q"):
                    state.confirmation = nil
                    state.message = StatusMessage("Cancelled.")
                default:
                    break
                }
                return []
            }
            if state.isEditingFilter, let effects = editFilter(key, &state) { return effects }
            return command(key, &state)
        }
    }

    /// Keys while a prompt is open: type, Enter to go, Esc to cancel.
    private static func editPrompt(_ key: Key, _ state: inout ConsoleState) -> [ConsoleEffect] {
        guard var prompt = state.prompt else { return [] }
        switch key {
        case .character(let character):
            prompt.text.append(character)
            state.message = nil
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            state.message = nil
        case .clearLine:
            prompt.text = ""
            state.message = nil
        case .escape:
            state.prompt = nil
            state.message = StatusMessage("Cancelled.")
            return []
        case .enter:
            switch prompt.outcome {
            case .refused(let reason) where prompt.isInPlace:
                // Typed in place, the text stays to be mended.
                state.message = StatusMessage(reason, isError: true)
            case .refused(let reason):
                state.prompt = nil
                state.message = StatusMessage(reason, isError: true)
                return []
            case .effect(let effect):
                state.prompt = nil
                switch prompt.purpose {
                case .exportOverrides: state.message = StatusMessage("Exporting…")
                case .importOverrides: state.message = StatusMessage("Importing…")
                case .attributeValue(let name): state.message = StatusMessage("Setting \(name)…")
                case .newAttribute: state.message = StatusMessage("Adding the attribute…")
                }
                return [effect]
            }
        default: break
        }
        state.prompt = prompt
        return []
    }

    /// Keys while the filter is being typed; `nil` lets navigation keys through.
    private static func editFilter(_ key: Key, _ state: inout ConsoleState) -> [ConsoleEffect]? {
        switch key {
        case .character(let character):
            state.frame.filter.append(character)
            // The first match, unless the highlighted row still matches.
            state.frame.cursor = 0
            state.frame.scroll = 0
        case .backspace:
            if state.frame.filter.isEmpty {
                state.isEditingFilter = false
            } else {
                state.frame.filter.removeLast()
            }
        case .clearLine:
            state.frame.filter = ""
        case .enter:
            state.isEditingFilter = false
        case .escape:
            state.isEditingFilter = false
            state.frame.filter = ""
        default:
            return nil
        }
        return []
    }

    private static func command(_ key: Key, _ state: inout ConsoleState) -> [ConsoleEffect] {
        state.message = nil
        if state.isPaneFocused, scrollPane(key, &state) { return [] }
        switch key {
        case .shiftUp: scrollPane(by: -1, &state)
        case .shiftDown: scrollPane(by: 1, &state)
        case .tab:
            guard state.layout.showsDetail(state.route) else {
                state.message = StatusMessage(
                    Layout.hasDetail(state.route)
                        ? "The detail pane is hidden (p: show it)." : "This screen has no detail pane."
                )
                break
            }
            state.isPaneFocused = true
            state.message = StatusMessage("Detail pane: ↑↓ PgUp PgDn scroll it; Tab or Esc back to the list.")
        case .up, .character("k"): move(by: -1, &state)
        case .down, .character("j"): move(by: 1, &state)
        case .pageUp: move(by: -state.layout.listHeight, &state)
        case .pageDown: move(by: state.layout.listHeight, &state)
        case .home, .character("g"): moveTo(first: true, &state)
        case .end, .character("G"): moveTo(first: false, &state)
        case .enter, .right, .character("l"): return open(&state)
        case .escape:
            if !state.frame.filter.isEmpty {
                state.frame.filter = ""
            } else {
                back(&state)
            }
        case .left, .character("h"), .backspace: back(&state)
        case .character("/"):
            state.isEditingFilter = true
        case .character("?"):
            state.showsHelp = true
        case .character("q"):
            state.shouldQuit = true
        case .character("u"):
            state.message = StatusMessage("Updating…")
            return [.update]
        case .character("r"):
            askToReset(&state)
        case .character("d"):
            return state.route == .attributes ? removeAttribute(&state) : unforce(&state)
        case .character("n") where state.route == .attributes:
            state.prompt = Prompt(purpose: .newAttribute, title: "New attribute", text: "")
        case .character("f"):
            cycleReason(&state)
        case .character("p"):
            guard Layout.hasDetail(state.route) else {
                state.message = StatusMessage("This screen has no detail pane.")
                break
            }
            state.pane = state.pane.next
            if state.pane == .hidden { state.isPaneFocused = false }
            state.paneScroll = 0
            state.message = StatusMessage(state.pane.description)
        default:
            break
        }
        return []
    }

    // MARK: - The detail pane

    /// Keys while the pane has the focus: scrolling keys scroll it, Tab and
    /// Esc give the list its keys back; `false` lets other keys through.
    private static func scrollPane(_ key: Key, _ state: inout ConsoleState) -> Bool {
        let page = max(1, state.layout.paneHeight - 2)
        switch key {
        case .up, .character("k"), .shiftUp: scrollPane(by: -1, &state)
        case .down, .character("j"), .shiftDown: scrollPane(by: 1, &state)
        case .pageUp: scrollPane(by: -page, &state)
        case .pageDown: scrollPane(by: page, &state)
        case .home, .character("g"): state.paneScroll = 0
        case .end, .character("G"): scrollPane(by: Int.max / 2, &state)
        case .tab, .escape, .left, .character("h"):
            state.isPaneFocused = false
            state.message = StatusMessage("Back to the list.")
        default: return false
        }
        return true
    }

    /// Scrolls the pane, no further than its last line.
    private static func scrollPane(by lines: Int, _ state: inout ConsoleState) {
        let layout = state.layout
        guard layout.showsDetail(state.route) else { return }
        let count = DetailPane.wrappedLines(for: state).count
        let limit = DetailPane.maximumScroll(lineCount: count, height: layout.paneHeight)
        state.paneScroll = min(max(0, state.paneScroll + lines), limit)
    }

    // MARK: - Moving

    private static func move(by delta: Int, _ state: inout ConsoleState) {
        let rows = state.rows
        guard !rows.isEmpty else { return }
        let step = delta < 0 ? -1 : 1
        var index = min(max(state.frame.cursor + delta, 0), rows.count - 1)
        // Skip section headers in the direction of travel, else back the other way.
        while index >= 0 && index < rows.count && !rows[index].isSelectable { index += step }
        if index < 0 || index >= rows.count {
            index = min(max(state.frame.cursor, 0), rows.count - 1)
            while index >= 0 && index < rows.count && !rows[index].isSelectable { index -= step }
        }
        if index >= 0 && index < rows.count { select(index, &state) }
    }

    private static func moveTo(first: Bool, _ state: inout ConsoleState) {
        let rows = state.rows
        let index = first ? rows.firstIndex(where: \.isSelectable) : rows.lastIndex(where: \.isSelectable)
        if let index { select(index, &state) }
    }

    /// Highlights row `index`, remembering what it is.
    private static func select(_ index: Int, _ state: inout ConsoleState) {
        if state.frame.selection != state.rows[index].target { state.paneScroll = 0 }
        state.frame.cursor = index
        state.frame.selection = state.rows[index].target
    }

    private static func back(_ state: inout ConsoleState) {
        if state.stack.count > 1 {
            state.stack.removeLast()
            state.isEditingFilter = false
            state.isPaneFocused = false
            state.paneScroll = 0
            state.refreshRows()
        }
    }

    private static func push(_ route: Route, _ state: inout ConsoleState) {
        state.isEditingFilter = false
        state.isPaneFocused = false
        state.paneScroll = 0
        var frame = Frame(route: route)
        frame.filter = state.filters[route] ?? ""
        state.stack.append(frame)
        state.refreshRows()
        moveTo(first: true, &state)
    }

    // MARK: - Choosing

    private static func selected(_ state: ConsoleState) -> ListRow? {
        let rows = state.rows
        guard state.frame.cursor >= 0, state.frame.cursor < rows.count else { return nil }
        let row = rows[state.frame.cursor]
        return row.isSelectable ? row : nil
    }

    private static func open(_ state: inout ConsoleState) -> [ConsoleEffect] {
        guard let row = selected(state) else { return [] }
        switch row.target {
        case .attribute(let name):
            // Edited in its row, starting from the value the device uses now.
            let value = state.data.attributes.first { $0.name == name }?.value ?? ""
            state.prompt = Prompt(purpose: .attributeValue(name: name), title: name, text: value)
            return []
        case .event:
            // Opening an event shows every field of it beside the table.
            if state.pane == .hidden {
                state.pane = .normal
                state.message = StatusMessage("Every field of the event beside the table (p: wider, then hidden).")
            }
            return []
        case .header, .status, .server, .app:
            return []
        case .category(let route):
            push(route, &state)
        case .resetAll:
            askToReset(&state)
        case .experiment(let source, let name), .forcedVariant(let source, let name, _):
            openVariants(source: source, experiment: name, &state)
        case .assignment(let key):
            if let assignment = state.data.snapshot.assignment(for: key) {
                openVariants(source: assignment.source, experiment: assignment.experiment, &state)
            }
        case .choice(let variant):
            guard case .variants(let source, let experiment) = state.route else { return [] }
            back(&state)
            state.message = StatusMessage("Forcing \(experiment)…")
            return [.force(source: source, experiment: experiment, variant: variant)]
        case .update:
            state.message = StatusMessage("Updating…")
            return [.update]
        case .reset(let source):
            askToReset(source: source, &state)
        case .exportOverrides:
            state.prompt = Prompt(
                purpose: .exportOverrides,
                title: "Export forced variants to",
                text: Prompt.defaultFile
            )
        case .importOverrides:
            state.prompt = Prompt(
                purpose: .importOverrides,
                title: "Import forced variants from",
                text: Prompt.defaultFile
            )
        }
        return []
    }

    private static func openVariants(source: String, experiment: String, _ state: inout ConsoleState) {
        push(.variants(source: source, experiment: experiment), &state)
        // Start on the variant the device runs now, as the Tweaks picker does.
        let current = state.data.entry(source: source, experiment: experiment)?.effective?.variant.name
        if let index = state.rows.firstIndex(where: { $0.target == .choice(current) }) {
            select(index, &state)
        }
    }

    private static func unforce(_ state: inout ConsoleState) -> [ConsoleEffect] {
        let target: (String, String)?
        switch (state.route, selected(state)?.target) {
        case (.variants(let source, let experiment), _): target = (source, experiment)
        case (_, .experiment(let source, let name)?): target = (source, name)
        default: target = nil
        }
        guard let (source, experiment) = target else { return [] }
        guard state.data.entry(source: source, experiment: experiment)?.forcedVariant != nil else {
            state.message = StatusMessage("\(experiment) is not forced.")
            return []
        }
        return [.unforce(source: source, experiment: experiment)]
    }

    /// `d` on Attributes: removes the highlighted attribute where QA set it
    /// (the state file, this run); the app's own and unset ones stay.
    private static func removeAttribute(_ state: inout ConsoleState) -> [ConsoleEffect] {
        guard case .attribute(let name)? = selected(state)?.target,
            let attribute = state.data.attributes.first(where: { $0.name == name })
        else { return [] }
        switch attribute.origin {
        case .stored, .run:
            state.message = StatusMessage("Removing \(name)…")
            return [.setAttribute(name: name, value: nil)]
        case .app, .source:
            state.message = StatusMessage(
                "\(name) is the \(attribute.origin == .app ? "app's" : "default"); ⏎ sets a value over it."
            )
        case .unset:
            state.message = StatusMessage("\(name) is not set.")
        }
        return []
    }

    /// `r`: on Settings, the highlighted source; elsewhere, everything.
    private static func askToReset(_ state: inout ConsoleState) {
        if state.route == .settings {
            switch selected(state)?.target {
            case .update(let source)?, .status(let source)?, .reset(let source)?:
                return askToReset(source: source, &state)
            default:
                break
            }
        }
        askToReset(source: nil, &state)
    }

    private static func askToReset(source: String?, _ state: inout ConsoleState) {
        let forced = state.data.entries.filter { $0.forcedVariant != nil && (source == nil || $0.source == source) }
            .count
        guard forced > 0 else {
            state.message = StatusMessage(source.map { "\($0) has no forced variants." } ?? "No forced variants.")
            return
        }
        let what = CategorySummary.plural(forced, "forced variant")
        state.confirmation = Confirmation(
            question: source.map { "Drop the \(what) of \($0)?" }
                ?? (forced == 1 ? "Drop the \(what)?" : "Drop all \(what)?"),
            effect: .reset(source: source)
        )
    }

    private static func cycleReason(_ state: inout ConsoleState) {
        guard state.route == .events else { return }
        var reasons = [EventReason.activated, .deactivated, .displayed, .initiated].map(\.rawValue)
        for event in state.data.events where !reasons.contains(event.event.reason.rawValue) {
            reasons.append(event.event.reason.rawValue)
        }
        let choices: [String?] = [nil] + reasons
        let index = choices.firstIndex(of: state.eventReason) ?? 0
        state.eventReason = choices[(index + 1) % choices.count]
        state.frame.cursor = 0
        state.frame.selection = nil
        state.frame.scroll = 0
        state.message = StatusMessage("Showing \(state.eventReason.map { "\($0) events" } ?? "all events").")
    }

    private static func click(row: Int, column: Int, _ state: inout ConsoleState) -> [ConsoleEffect] {
        let layout = state.layout
        guard row >= layout.listTop, row < layout.listTop + layout.listHeight,
            column < layout.listWidth(for: state.route)
        else { return [] }
        let index = state.frame.scroll + row - layout.listTop
        let rows = state.rows
        guard index < rows.count, rows[index].isSelectable else { return [] }
        if state.frame.cursor == index { return open(&state) }
        select(index, &state)
        return []
    }

    // MARK: - Keeping things in range

    /// Keeps the cursor on the highlighted thing (found again by identity
    /// when rows moved), on a row and in view, after any change. When new
    /// data took the highlighted thing away, the row that took its place is
    /// highlighted and, with `reportingLoss`, the status line says so.
    static func normalize(_ state: inout ConsoleState, reportingLoss: Bool = false) {
        // A variants screen whose experiment went away goes back.
        while case .variants(let source, let experiment) = state.route,
            state.data.entry(source: source, experiment: experiment) == nil, state.stack.count > 1
        {
            state.stack.removeLast()
        }
        state.refreshRows()
        let height = state.layout.listHeight
        let rows = state.rows
        var frame = state.frame
        var lost: ListRow.Target?
        if let selection = frame.selection, !rows.isEmpty {
            // Most changes leave the row where it was: look there first.
            if frame.cursor < 0 || frame.cursor >= rows.count || rows[frame.cursor].target != selection {
                if let index = rows.firstIndex(where: { $0.target == selection }) {
                    frame.cursor = index
                } else {
                    lost = selection
                }
            }
        }
        if rows.isEmpty {
            frame.cursor = 0
        } else {
            frame.cursor = min(max(frame.cursor, 0), rows.count - 1)
            if !rows[frame.cursor].isSelectable {
                frame.cursor =
                    rows[frame.cursor...].firstIndex(where: \.isSelectable)
                    ?? rows[..<frame.cursor].lastIndex(where: \.isSelectable) ?? frame.cursor
            }
        }
        if frame.cursor < frame.scroll { frame.scroll = frame.cursor }
        if frame.cursor >= frame.scroll + height { frame.scroll = frame.cursor - height + 1 }
        // Show a section's header when its first row is at the top.
        if frame.scroll > 0, frame.cursor == frame.scroll, !rows[frame.scroll - 1].isSelectable {
            frame.scroll -= 1
        }
        frame.scroll = max(0, min(frame.scroll, max(0, rows.count - height)))
        let now = rows.indices.contains(frame.cursor) && rows[frame.cursor].isSelectable ? rows[frame.cursor] : nil
        if reportingLoss, let lost, let name = lost.name {
            state.message = StatusMessage(
                "\(name) is gone" + (now?.columns.first.map { "; the highlight moved to \($0)." } ?? ".")
            )
        }
        frame.selection = now?.target
        state.frame = frame
        state.filters[frame.route] = frame.filter.isEmpty ? nil : frame.filter
    }
}
