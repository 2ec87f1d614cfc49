import Foundation

/// What the filter matched in a row: the text to mark in its columns, or,
/// when no column shows it, the hidden name (a variant, a key) that did.
enum FilterMatch {
    /// Marks (underlined, bold) the first place `filter` occurs in `text` as
    /// ``ScreenBuffer/write(_:row:column:maxWidth:style:)`` drew it there in `width` columns.
    static func mark(
        _ filter: String,
        in text: String,
        width: Int,
        row: Int,
        column: Int,
        on screen: inout ScreenBuffer
    ) {
        let shown = DisplayText.truncate(DisplayText.sanitize(text), to: width)
        guard !filter.isEmpty, let range = shown.range(of: filter, options: .caseInsensitive) else { return }
        let offset = TextWidth.of(String(shown[..<range.lowerBound]))
        let count = TextWidth.of(String(shown[range]))
        screen.restyle(row: row, column: column + offset, count: min(count, max(0, width - offset))) {
            $0.underline = true
            $0.bold = true
        }
    }

    /// Why `row` matched `filter` when none of its columns shows the match:
    /// `variant ButtonColorRed`, `key subscribeButtonColor`; `nil` otherwise.
    static func hiddenReason(_ row: ListRow, filter: String) -> String? {
        guard !filter.isEmpty, row.isSelectable else { return nil }
        let needle = filter.lowercased()
        guard !row.columns.contains(where: { $0.lowercased().contains(needle) }) else { return nil }
        return row.hiddenNames.first { $0.text.lowercased().contains(needle) }.map { "\($0.kind) \($0.text)" }
    }
}
