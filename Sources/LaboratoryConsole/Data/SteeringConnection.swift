import Foundation
import Laboratory

/// What a console connected to `lab serve` asks of it, through the
/// steering API; calls block, as the console makes them off its key loop.
package protocol SteeringConnection: Sendable {
    /// The server's address, as the title bar shows it.
    var address: String { get }
    /// Everything the console shows, forced variants matched for `scope`.
    func snapshot(scope: Scope, events: Int) throws -> SteeringSnapshot
    /// Forces a variant (or Inactive); returns what the server did and said.
    func force(_ variant: String, of experiment: String, in source: String?, scope: Scope) throws -> Steering.Outcome
    func unforce(_ experiment: String, in source: String?, scope: Scope) throws -> Steering.Outcome
    /// Drops forced variants: all, of a source, of a scope, or both.
    func reset(source: String?, scope: Scope?) throws -> Steering.Outcome
    /// Stores one of the device's attributes on the server, or removes it with `nil`.
    func setAttribute(_ name: String, to value: String?) throws -> Steering.Outcome
    func exportOverrides() throws -> OverridesFile
    /// Applies an overrides file's bytes, checked by the server.
    func importOverrides(_ data: Data, replacing: Bool) throws -> Steering.Outcome
}
