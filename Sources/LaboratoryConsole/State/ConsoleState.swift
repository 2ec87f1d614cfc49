import Foundation

/// Everything the console shows, in one value: the reducer changes it, the
/// renderer draws it.
public struct ConsoleState: Sendable, Equatable {
    public var size: TerminalSize
    public var data: ConsoleData
    /// The navigation stack; the last frame is on screen.
    public var stack: [Frame] = [Frame(route: .main)]
    /// Whether keys go to the filter of the current screen.
    public var isEditingFilter = false
    public var showsHelp = false
    public var confirmation: Confirmation?
    public var message: StatusMessage?
    /// The Events screen shows only this reason, when set.
    public var eventReason: String?
    /// Effects started and not finished yet.
    public var pendingEffects = 0
    public var shouldQuit = false
    /// Time zone for times on screen (tests pin it).
    public var timeZone: TimeZone

    public init(size: TerminalSize, data: ConsoleData = ConsoleData(), timeZone: TimeZone = .current) {
        self.size = size
        self.data = data
        self.timeZone = timeZone
    }

    /// The frame on screen.
    public var frame: Frame {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    public var route: Route { frame.route }

    /// The rows of the screen on top, as built from the data and its filter.
    public var rows: [ListRow] { RowBuilder.rows(for: frame, state: self) }
}
