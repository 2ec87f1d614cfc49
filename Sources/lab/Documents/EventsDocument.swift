import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// The `--json` shape of `lab events`.
struct EventsDocument: Encodable {
    var events: [EventReport]
}
