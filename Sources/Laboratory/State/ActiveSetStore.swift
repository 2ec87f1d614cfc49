/// What an app publishes for the tools that open its state file: the
/// assignments last seen active, and how the app is wired. The manager
/// records the first; the console and `lab serve` read the second.
public protocol ActiveSetStore: WatchableStore {
    /// Replaces the set of assignments last seen active (`assignments` holds at
    /// most one per source, experiment and key) and returns what entered and
    /// what left it, so that only one process reports a change. A swap that
    /// changes the set raises the revision by exactly one, so the manager
    /// knows whether anything else was committed meanwhile.
    func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange

    /// How each app that opened the file is wired, sorted by app.
    func appWirings() throws -> [AppWiring]

    /// Records how an app is wired, replacing what that app recorded before.
    func recordAppWiring(_ wiring: AppWiring) throws
}
