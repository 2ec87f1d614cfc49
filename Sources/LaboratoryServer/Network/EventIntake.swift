import Foundation
import Hummingbird
import Laboratory
import LaboratorySQLite

/// Takes exposures apps post to `/events/{clientKey}`: only from clients
/// that may write, at a bounded rate per client, stored off the request's
/// thread so a slow write never holds up anything else.
struct EventIntake: Sendable {
    let hub: ServedStateHub
    let access: AccessPolicy
    let limiter: EventRateLimiter
    let writer: StateFileQueue
    let maximumBodyBytes: Int
    /// Gets a line for each write that failed, as the hub's problems do.
    let report: @Sendable (String) -> Void

    func take(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let host = request.head.authority
        guard access.allowsWrite(origin: request.headers[.origin], host: host) else {
            return LabServer.json(
                [
                    "error":
                        "pages from \(request.headers[.origin] ?? "") may not post events; start the server with --allow-origin to let them"
                ],
                status: .forbidden
            )
        }
        guard Self.isJSON(request.headers[.contentType]) else {
            return LabServer.json(
                ["error": "events must be posted as Content-Type: application/json"],
                status: .unsupportedMediaType
            )
        }
        var request = request
        let body = try await LabServer.collect(&request, upTo: maximumBodyBytes)
        let events: [Event]
        let served = hub.current
        do {
            events = try PostedEvent.events(
                in: Data(buffer: body),
                experiments: served.experiments,
                aliases: served.variantAliases,
                forcing: served.forcing,
                device: hub.deviceID,
                at: Date()
            )
        } catch {
            return LabServer.json(["error": error.description], status: .badRequest)
        }
        let key = context.parameters.get("clientKey") ?? ""
        if let wait = limiter.take(events.count, for: context.clientAddress + " " + key, now: Self.now()) {
            guard wait.isFinite else {
                return LabServer.json(
                    ["error": "a request may carry at most \(Int(limiter.burst)) events, not \(events.count)"],
                    status: .contentTooLarge
                )
            }
            return Self.later(
                "too many events from this client: at most \(Self.format(limiter.rate)) a second, \(Int(limiter.burst)) at once",
                status: .tooManyRequests,
                after: wait
            )
        }
        do {
            let recorded = try await writer.perform { [hub] in try hub.record(events) }
            return LabServer.json(["recorded": recorded])
        } catch is StateFileQueue.Full {
            return Self.later(
                "the state file is busy with other writes; try again shortly",
                status: .serviceUnavailable,
                after: 1
            )
        } catch let error as SQLiteStoreError {
            report("cannot record \(events.count) posted events: \(error)")
            let status: HTTPResponse.Status = error.isTransient ? .serviceUnavailable : .internalServerError
            var response = LabServer.json(["error": "the events were not stored: \(error.reason)"], status: status)
            if error.isTransient { response.headers[.retryAfter] = "1" }
            return response
        }
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json"
    }

    private static func later(_ message: String, status: HTTPResponse.Status, after seconds: Double) -> Response {
        var response = LabServer.json(["error": message], status: status)
        response.headers[.retryAfter] = String(max(1, Int(seconds.rounded(.up))))
        return response
    }

    private static func format(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }
}
