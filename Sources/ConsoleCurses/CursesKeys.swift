import CNcursesw
import LaboratoryConsole

/// Maps what `get_wch` returns to console keys.
enum CursesKeys {
    /// A plain character (`get_wch` returned OK).
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 3: return .interrupt
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 9: return .tab
        case 21: return .clearLine
        case 0..<32: return nil
        default: return Unicode.Scalar(value).map { .character(Character($0)) }
        }
    }

    /// A function key (`get_wch` returned KEY_CODE_YES).
    static func function(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_SR: return .shiftUp
        case KEY_SF: return .shiftDown
        default: return nil
        }
    }
}
