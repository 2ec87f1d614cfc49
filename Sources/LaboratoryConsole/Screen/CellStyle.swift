/// How a cell looks: a colour role and a few attributes. Roles, not colours,
/// so the terminal decides the palette and `NO_COLOR` can drop colour alone.
package struct CellStyle: Sendable, Hashable {
    /// What a coloured cell means.
    package enum Role: Sendable, Hashable, CaseIterable {
        case plain
        case title
        case header
        case accent
        case forced
        case inactive
        case conflict
        case error
        case ok
        case muted
    }

    package var role: Role
    package var bold: Bool
    package var reverse: Bool
    /// Marks the text a filter matched.
    package var underline: Bool

    package init(role: Role = .plain, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    package static let plain = CellStyle()
    package static let title = CellStyle(role: .title, bold: true, reverse: true)
    package static let header = CellStyle(role: .header, bold: true)
    package static let selected = CellStyle(role: .accent, reverse: true)
    package static let muted = CellStyle(role: .muted)
}
