/// Work the console asks for; the runner performs it off the key loop.
package enum ConsoleEffect: Sendable, Hashable {
    /// Force a variant, or force the experiment inactive when `variant` is `nil`.
    case force(source: String, experiment: String, variant: String?)
    /// Drop the forced variant of one experiment.
    case unforce(source: String, experiment: String)
    /// Drop every forced variant, or those of one source.
    case reset(source: String?)
    /// Fetch every source again.
    case update
    /// Write the forced variants and attributes to a file.
    case exportOverrides(path: String)
    /// Apply an overrides file (all or nothing).
    case importOverrides(path: String)
    /// Store one of the device's attributes in the state file, or remove it with `nil`.
    case setAttribute(name: String, value: String?)
    /// Reads how `source` decides `experiment`, for the detail pane of the
    /// data of `generation`; answered with ``ConsoleAction/explained(source:experiment:steps:generation:)``,
    /// not performed: it changes nothing and shows no progress.
    case explain(source: String, experiment: String, generation: Int)
}
