import ArgumentParser
import Foundation
import Laboratory

/// The `--json` shape of `lab events`.
struct EventsDocument: Encodable {
    var events: [EventReport]
}
