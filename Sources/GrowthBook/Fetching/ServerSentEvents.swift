import Foundation

/// One server-sent event: its type (`message` unless named) and data.
package struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field, `message` when the event named none.
    package var type: String
    /// The `data:` lines, joined by newlines.
    package var data: String

    /// An event.
    package init(type: String, data: String) {
        self.type = type
        self.data = data
    }
}

/// Turns a `text/event-stream` body into events as bytes arrive (WHATWG rules:
/// `event:` and `data:` fields, comments after `:`, a blank line dispatches;
/// lines end in LF, CRLF or CR).
///
/// Linear in the bytes fed, however they are split into chunks: each byte is
/// looked at once. A line or an event's data longer than ``maximumLineBytes``
/// is refused with ``LineTooLong`` rather than kept growing, so a stream that
/// never sends a newline cannot fill memory; the caller drops the connection.
package struct ServerSentEventParser: Sendable {
    /// The longest line and the most data one event may carry: a GrowthBook
    /// `features` event holds a whole payload, whose fetch is capped at 8 MiB.
    package static let defaultMaximumLineBytes = 8 << 20

    /// Thrown once a line or an event's data passes the cap.
    package struct LineTooLong: Error, CustomStringConvertible, Sendable {
        /// The cap passed, in bytes.
        package var limit: Int
        package var description: String { "the event stream sent a line or event longer than \(limit >> 20) MiB" }
    }

    /// The longest line and the most data one event may carry.
    package let maximumLineBytes: Int
    /// Bytes of the line being read (the part before its end has arrived).
    private var line: [UInt8] = []
    /// The previous chunk ended in CR: a LF that starts this one belongs to it.
    private var afterCarriageReturn = false
    private var type = ""
    private var data: [String] = []
    private var dataBytes = 0

    /// A parser with a cap on lines and events.
    package init(maximumLineBytes: Int = Self.defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Feeds bytes; returns the events they completed.
    package mutating func feed(_ bytes: Data) throws(LineTooLong) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var refused: LineTooLong?
        // Read in place: indexing `Data` byte by byte is several times slower,
        // and the stream inside an app must be parsed as fast as it arrives.
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            do throws(LineTooLong) {
                try feed(raw, into: &events)
            } catch {
                refused = error
            }
        }
        if let refused { throw refused }
        return events
    }

    /// Feeds bytes read in place (a network buffer); returns the events they completed.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(LineTooLong) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try feed(bytes, into: &events)
        return events
    }

    private mutating func feed(
        _ bytes: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(LineTooLong) {
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A, afterCarriageReturn, index == start, line.isEmpty {
                // The LF of a CRLF split across chunks, or right after its CR.
                afterCarriageReturn = false
                index += 1
                start = index
                continue
            }
            afterCarriageReturn = false
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            line.append(contentsOf: bytes[start..<index])
            try checkLength()
            if let event = try take(line) { events.append(event) }
            line.removeAll(keepingCapacity: true)
            afterCarriageReturn = byte == 0x0D
            index += 1
            start = index
        }
        line.append(contentsOf: bytes[start..<bytes.count])
        try checkLength()
    }

    private func checkLength() throws(LineTooLong) {
        if line.count > maximumLineBytes { throw LineTooLong(limit: maximumLineBytes) }
    }

    private mutating func take(_ line: [UInt8]) throws(LineTooLong) -> ServerSentEvent? {
        if line.isEmpty {
            defer {
                type = ""
                data = []
                dataBytes = 0
            }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"))
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event": type = value
        case "data":
            dataBytes += line.count - valueStart + 1
            if dataBytes > maximumLineBytes { throw LineTooLong(limit: maximumLineBytes) }
            data.append(value)
        default: break
        }
        return nil
    }
}
