import Foundation
import Laboratory

/// Draws a ``ConsoleState`` into a ``ScreenBuffer``: state → screen, nothing else.
package enum ConsoleRenderer {
    package static func render(_ state: ConsoleState) -> ScreenBuffer {
        var screen = ScreenBuffer(width: state.size.columns, height: state.size.rows)
        guard state.size.isBigEnough else {
            drawTooSmall(state.size, &screen)
            return screen
        }
        let layout = state.layout
        drawTitle(state, &screen)
        drawList(state, layout, &screen)
        if layout.showsDetail(state.route) {
            let left = layout.listWidth(for: state.route)
            for row in 1..<layout.statusRow { screen.write("│", row: row, column: left, style: .muted) }
            let (paneLeft, paneWidth) = layout.paneColumns(for: state.route)
            let lines = DetailPane.window(
                DetailPane.wrappedLines(for: state),
                scroll: state.paneScroll,
                height: layout.paneHeight,
                focused: state.isPaneFocused
            )
            for (index, line) in lines.enumerated() {
                screen.write(line.text, row: 1 + index, column: paneLeft, maxWidth: paneWidth, style: line.style)
            }
        }
        drawStatus(state, layout, &screen)
        drawKeyBar(state, layout, &screen)
        if let prompt = state.prompt, !prompt.isInPlace {
            Overlay.draw(
                title: prompt.title,
                lines: [prompt.text + "▏", "", "Enter  go      Esc  cancel      (path from the folder lab runs in)"],
                on: &screen
            )
        } else if let confirmation = state.confirmation {
            Overlay.draw(
                title: "Confirm",
                lines: [confirmation.question, "", "Enter/y  yes, drop them    Esc/n  no, keep them"],
                on: &screen
            )
        } else if state.showsHelp {
            Overlay.draw(title: HelpText.title, lines: HelpText.lines, on: &screen)
        }
        return screen
    }

    private static func drawTooSmall(_ size: TerminalSize, _ screen: inout ScreenBuffer) {
        let lines = [
            "terminal too small (needs \(TerminalSize.minimum))", "now \(size)",
            "enlarge the window, or press q to quit",
        ]
        let top = max(0, size.rows / 2 - 1)
        for (index, line) in lines.enumerated() where top + index < size.rows {
            let column = max(0, (size.columns - TextWidth.of(line)) / 2)
            screen.write(line, row: top + index, column: column, style: index == 0 ? .header : .plain)
        }
    }

    private static func drawTitle(_ state: ConsoleState, _ screen: inout ScreenBuffer) {
        screen.fill(row: 0, style: .title)
        let path = state.stack.map(\.route.title).joined(separator: " › ")
        // What the console works on, most telling last; the first pieces go when room runs out.
        var pieces: [String] = []
        if !state.data.origin.isEmpty { pieces.append(Self.shortPath(state.data.origin)) }
        pieces.append("device " + String(state.data.device.id.prefix(8)))
        if state.data.sources.contains(where: { $0.stabilizedAt != nil }) { pieces.append("stabilized") }
        pieces.append(String(format: "token %.4f", state.data.token.value))
        switch state.data.connection {
        case .connecting?: pieces.append("connecting…")
        case .lost?: pieces.append("offline")
        case .live?, nil: break
        }
        // Whom forcing here reaches: kept longest, as forcing for the wrong users is the costly mistake.
        if !state.data.scope.isEveryone { pieces.append("as \(state.data.scope)") }
        if state.pendingEffects > 0 || state.data.sources.contains(where: { $0.status == .updating }) {
            pieces.insert("working…", at: pieces.count - 1)
        }
        var right = pieces.joined(separator: " · ")
        let leftRoom = min(TextWidth.of(path) + 2, 36)
        while pieces.count > 1, TextWidth.of(right) > state.size.columns - leftRoom - 2 {
            pieces.removeFirst()
            right = pieces.joined(separator: " · ")
        }
        let rightWidth = TextWidth.of(right)
        screen.write(" " + path, row: 0, column: 0, maxWidth: state.size.columns - rightWidth - 2, style: .title)
        screen.write(right, row: 0, column: state.size.columns - rightWidth - 1, style: .title)
    }

    /// A state file's path as the title bar shows it: home as `~`, and only
    /// its last two parts when it is long.
    static func shortPath(_ path: String) -> String {
        var shown = path
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty, home != "/",
            shown.hasPrefix(home + "/")
        {
            shown = "~" + shown.dropFirst(home.count)
        }
        let parts = shown.split(separator: "/", omittingEmptySubsequences: false)
        guard TextWidth.of(shown) > 32, parts.count > 2 else { return shown }
        return "…/" + parts.suffix(2).joined(separator: "/")
    }

    private static func drawList(_ state: ConsoleState, _ layout: Layout, _ screen: inout ScreenBuffer) {
        let width = layout.listWidth(for: state.route)
        let columns = ListColumns.widths(for: state.route, width: width, needs: state.columnNeeds, pane: state.pane)
        var x = 1
        for (index, heading) in ListColumns.headings(for: state.route).enumerated()
        where index < columns.count && columns[index] > 0 {
            screen.write(
                heading,
                row: 1,
                column: x,
                maxWidth: columns[index],
                style: CellStyle(role: .muted, bold: true)
            )
            x += columns[index] + 1
        }
        let rows = state.rows
        if rows.isEmpty {
            let text =
                state.frame.filter.isEmpty
                ? ListColumns.emptyText(for: state.route) : "nothing matches \"\(state.frame.filter)\""
            screen.write(text, row: layout.listTop, column: 2, maxWidth: width - 2, style: .muted)
            return
        }
        let visible = rows.dropFirst(state.frame.scroll).prefix(layout.listHeight)
        // Names cut alike would look like one: each name column is cut so the rows on screen stay apart.
        var cutNames: [Int: [String]] = [:]
        for index in ListColumns.nameColumns(for: state.route) where index < columns.count && columns[index] > 0 {
            cutNames[index] = DisplayText.distinctCuts(
                visible.map { index < $0.columns.count ? DisplayText.sanitize($0.columns[index]) : "" },
                to: columns[index]
            )
        }
        for (offset, row) in zip(visible.indices, visible) {
            let y = layout.listTop + offset - state.frame.scroll
            let isCursor = offset == state.frame.cursor
            var style = CellStyle(role: row.role, bold: !row.isSelectable)
            if isCursor { style.reverse = true }
            if isCursor { screen.fill(row: y, column: 0, count: width, style: style) }
            let filter = state.frame.filter
            var x = 1
            for (index, column) in row.columns.enumerated() where index < columns.count && columns[index] > 0 {
                if index == 1, let typed = typedValue(state, row: row) {
                    // The value being typed, in its cell; its end shows when it is longer than the cell.
                    var editing = style
                    editing.bold = true
                    screen.write(
                        DisplayText.tail(typed + "▏", width: columns[index]),
                        row: y,
                        column: x,
                        maxWidth: columns[index],
                        style: editing
                    )
                    x += columns[index] + 1
                    continue
                }
                let text = row.isSelectable ? cutNames[index]?[offset - state.frame.scroll] ?? column : column
                let used = screen.write(text, row: y, column: x, maxWidth: columns[index], style: style)
                if !filter.isEmpty && row.isSelectable {
                    FilterMatch.mark(filter, in: text, width: columns[index], row: y, column: x, on: &screen)
                }
                // A row the filter kept for a name it does not show says which, where the first column has room.
                if index == 0, let reason = FilterMatch.hiddenReason(row, filter: filter), columns[0] - used > 6 {
                    var muted = style
                    muted.role = .muted
                    screen.write(
                        "(\(reason))",
                        row: y,
                        column: x + used + 1,
                        maxWidth: columns[0] - used - 1,
                        style: muted
                    )
                }
                x += columns[index] + 1
            }
        }
    }

    /// The value typed for the attribute of `row`, while it is being edited.
    private static func typedValue(_ state: ConsoleState, row: ListRow) -> String? {
        guard let prompt = state.prompt, case .attributeValue(let name) = prompt.purpose,
            row.target == .attribute(name: name)
        else { return nil }
        return prompt.text
    }

    /// Which items the list shows, when it does not show them all: `35–59 of
    /// 60`, counting experiments, variants or events, not section headers.
    /// It goes at the right of the status line, where it covers no row.
    static func scrollIndicator(_ state: ConsoleState, _ layout: Layout) -> String? {
        let rows = state.rows
        guard rows.count > layout.listHeight else { return nil }
        let end = min(rows.count, state.frame.scroll + layout.listHeight)
        let before = rows.selectableCount(in: 0..<state.frame.scroll)
        let shown = rows.selectableCount(in: state.frame.scroll..<end)
        let total = before + shown + rows.selectableCount(in: end..<rows.count)
        guard shown > 0 else { return nil }
        return "\(before + 1)–\(before + shown) of \(total)"
    }

    private static func drawStatus(_ state: ConsoleState, _ layout: Layout, _ screen: inout ScreenBuffer) {
        let row = layout.statusRow
        // What the status line says ends before the scroll indicator, if any.
        var end = state.size.columns
        if let indicator = scrollIndicator(state, layout) {
            end = max(1, state.size.columns - TextWidth.of(indicator) - 1)
            screen.write(indicator, row: row, column: end, style: .muted)
            end -= 1
        }
        drawStatusText(state, row: row, end: end, &screen)
    }

    /// The status line's text, in columns before `end`.
    private static func drawStatusText(_ state: ConsoleState, row: Int, end: Int, _ screen: inout ScreenBuffer) {
        func write(_ text: String, column: Int, style: CellStyle) {
            screen.write(text, row: row, column: column, maxWidth: max(0, end - column), style: style)
        }
        if let prompt = state.prompt, prompt.isInPlace {
            let hint = state.message?.text
            switch prompt.purpose {
            case .newAttribute:
                let typed = "new attribute: " + prompt.text + "▏"
                write(typed, column: 1, style: CellStyle(role: .accent, bold: true))
                write(
                    hint ?? "name=value · Enter adds · Esc cancels · Ctrl-U clears",
                    column: max(36, TextWidth.of(typed) + 3),
                    style: hint == nil ? .muted : CellStyle(role: .error, bold: true)
                )
            case .attributeValue(let name):
                write(
                    hint ?? "editing \(name): Enter saves · Esc cancels · Ctrl-U clears · empty removes it",
                    column: 1,
                    style: hint == nil ? CellStyle(role: .accent, bold: true) : CellStyle(role: .error, bold: true)
                )
            case .exportOverrides, .importOverrides:
                break
            }
            return
        }
        if state.isEditingFilter {
            write("/" + state.frame.filter + "▏", column: 1, style: CellStyle(role: .accent, bold: true))
            write(
                "type to filter · Enter keeps · Esc clears",
                column: max(30, TextWidth.of(state.frame.filter) + 6),
                style: .muted
            )
            return
        }
        if case .lost(let reason, let retryAt)? = state.data.connection {
            let seconds = max(0, Int(retryAt.timeIntervalSinceNow.rounded(.up)))
            write(
                "connection lost: \(reason) · retrying" + (seconds > 0 ? " in \(seconds) s" : "") + " by itself",
                column: 1,
                style: CellStyle(role: .error, bold: true)
            )
            return
        }
        if let message = state.message {
            write(
                message.text,
                column: 1,
                style: CellStyle(role: message.isError ? .error : .ok, bold: message.isError)
            )
            return
        }
        var notes: [String] = []
        if !state.frame.filter.isEmpty {
            notes.append(
                "filter \"\(state.frame.filter)\": \(state.rows.selectableCount(in: state.rows.indices)) shown · Esc clears"
            )
            if state.rows.indices.contains(state.frame.cursor),
                let reason = FilterMatch.hiddenReason(state.rows[state.frame.cursor], filter: state.frame.filter)
            {
                notes.append("highlighted: matched \(reason)")
            }
        }
        if state.route == .events {
            notes.append(state.eventReason.map { "reason: \($0) (f: next)" } ?? "all reasons (f: filter by reason)")
        }
        let conflicts = state.data.snapshot.conflicts
        if let conflict = conflicts.first {
            notes.append("conflict: \(conflict)" + (conflicts.count > 1 ? " (+\(conflicts.count - 1) more)" : ""))
        }
        if !state.data.staleForcedVariants.isEmpty {
            notes.append(
                CategorySummary.plural(state.data.staleForcedVariants.count, "stale forced variant") + " ignored"
            )
        }
        let role: CellStyle.Role = conflicts.isEmpty && state.data.staleForcedVariants.isEmpty ? .muted : .conflict
        write(notes.joined(separator: " · "), column: 1, style: CellStyle(role: role))
    }

    private static func drawKeyBar(_ state: ConsoleState, _ layout: Layout, _ screen: inout ScreenBuffer) {
        screen.fill(row: layout.keyBarRow, style: CellStyle(role: .title, reverse: true))
        screen.write(
            " " + HelpText.keyBar(for: state, width: state.size.columns - 2),
            row: layout.keyBarRow,
            column: 0,
            style: CellStyle(role: .title, reverse: true)
        )
    }
}
