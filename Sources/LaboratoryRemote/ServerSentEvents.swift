import Foundation

/// One server-sent event: its type (`message` unless named) and data.
public struct ServerSentEvent: Sendable, Equatable {
    public var type: String
    public var data: String

    public init(type: String, data: String) {
        self.type = type
        self.data = data
    }
}

/// Turns a `text/event-stream` body into events as bytes arrive (WHATWG rules:
/// `event:` and `data:` fields, comments after `:`, a blank line dispatches).
public struct ServerSentEventParser: Sendable {
    private var buffer = Data()
    private var type = ""
    private var data: [String] = []

    public init() {}

    /// Feeds bytes; returns the events they completed.
    public mutating func feed(_ bytes: Data) -> [ServerSentEvent] {
        buffer.append(bytes)
        var events: [ServerSentEvent] = []
        while let newline = buffer.firstIndex(of: 0x0A) {
            var line = buffer[buffer.startIndex..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            buffer = Data(buffer[buffer.index(after: newline)...])
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
        }
        return events
    }

    private mutating func take(_ line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer {
                type = ""
                data = []
            }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"))
        }
        if line.hasPrefix(":") { return nil }
        let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        var value = parts.count > 1 ? String(parts[1]) : ""
        if value.hasPrefix(" ") { value.removeFirst() }
        switch parts[0] {
        case "event": type = value
        case "data": data.append(value)
        default: break
        }
        return nil
    }
}
