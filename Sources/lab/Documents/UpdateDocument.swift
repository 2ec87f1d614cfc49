import ArgumentParser
import Foundation
import Laboratory

/// The `--json` shape of `lab update`.
struct UpdateDocument: Encodable {
    struct Source: Encodable {
        var name: String
        /// `ok` or `error` (a source that was fetched is never idle).
        var status: String
        var time: Date?
        var error: String?

        init(name: String, status: SourceStatus) {
            self.name = name
            switch status {
            case .ok(let date): (self.status, time) = ("ok", date)
            case .error(let reason, let date): (self.status, time, error) = ("error", date, reason)
            case .idle: self.status = "idle"
            case .updating: self.status = "updating"
            }
        }
    }

    var sources: [Source]
}
