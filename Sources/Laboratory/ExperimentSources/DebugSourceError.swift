/// Why the debug source refused to force a variant.
public enum DebugSourceError: Error, Equatable, CustomStringConvertible {
    /// No source has this name; the known ones, and the names close to it.
    case unknownSource(String, known: [String], suggestions: [String] = [])
    /// No experiment has this name (in `source`, or in any); the names close to it.
    case unknownExperiment(String, source: String?, suggestions: [String] = [])
    /// The experiment has no such variant; its variants, and the names close to it.
    case unknownVariant(String, experiment: String, known: [String], suggestions: [String] = [])
    /// Several sources have an experiment of this name: the caller must say which.
    case ambiguous(experiment: String, sources: [String])
    /// Nothing forced for the experiment in that scope; `otherScopes` are the scopes it is forced for.
    case noRequest(experiment: String, source: String?, scope: Scope = .everyone, otherScopes: [Scope] = [])

    public var description: String {
        switch self {
        case .unknownSource(let name, let known, let suggestions):
            return "no source named \"\(name)\" (sources: \(known.joined(separator: ", ")))"
                + NameMatch.hint(suggestions)
        case .unknownExperiment(let name, let source, let suggestions):
            return "no experiment named \"\(name)\"" + (source.map { " in source \"\($0)\"" } ?? "")
                + NameMatch.hint(suggestions)
        case .unknownVariant(let name, let experiment, let known, let suggestions):
            return "experiment \"\(experiment)\" has no variant \"\(name)\" (choices: \(known.joined(separator: ", ")))"
                + NameMatch.hint(suggestions)
        case .ambiguous(let experiment, let sources):
            return
                "experiment \"\(experiment)\" is in several sources (\(sources.joined(separator: ", "))); name one with --source"
        case .noRequest(let experiment, let source, let scope, let otherScopes):
            let base =
                "no forced variant for \"\(experiment)\"" + (source.map { " in source \"\($0)\"" } ?? "")
                + (scope.isEveryone ? "" : " for \(scope)")
            guard !otherScopes.isEmpty else { return base }
            let scopes = otherScopes.map { $0.isEveryone ? "everyone" : "--for \($0)" }
            return base + "; it is forced for " + scopes.joined(separator: ", ")
        }
    }
}
