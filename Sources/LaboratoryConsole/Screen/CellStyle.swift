/// How a cell looks: a colour role and a few attributes. Roles, not colours,
/// so the terminal decides the palette and `NO_COLOR` can drop colour alone.
public struct CellStyle: Sendable, Hashable {
    /// What a coloured cell means.
    public enum Role: Sendable, Hashable, CaseIterable {
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

    public var role: Role
    public var bold: Bool
    public var reverse: Bool
    /// Marks the text a filter matched.
    public var underline: Bool

    public init(role: Role = .plain, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
    public static let title = CellStyle(role: .title, bold: true, reverse: true)
    public static let header = CellStyle(role: .header, bold: true)
    public static let selected = CellStyle(role: .accent, reverse: true)
    public static let muted = CellStyle(role: .muted)
}
