import Laboratory

/// One line of a list: what it leads to and the text of its columns.
package struct ListRow: Sendable, Equatable {
    /// What choosing the row does.
    package enum Target: Sendable, Hashable {
        /// A section title (a Tweaks collection); not selectable.
        case header
        case category(Route)
        case resetAll
        case experiment(source: String, name: String)
        /// A variant of the experiment on screen, or `nil` for `Inactive`.
        case choice(String?)
        case assignment(key: String)
        case event(id: Int64)
        /// One of the device's attributes, or one targeting reads.
        case attribute(name: String)
        case update(source: String)
        case status(source: String)
        case reset(source: String)
        case exportOverrides
        case importOverrides
        /// A line about `--serve`'s server; nothing to open.
        case server
        /// An app that opened the state file, and whether forcing reaches it; nothing to open.
        case app(String)
        /// A forced variant in Settings' list: opens its experiment's variants.
        case forcedVariant(source: String, experiment: String, scope: Scope)
    }

    /// A name the filter searches that the row's columns do not show in full.
    package struct HiddenName: Sendable, Equatable {
        /// What it is: `variant`, `key`.
        package var kind: String
        package var text: String

        package init(_ kind: String, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// Where a row's hidden names come from.
    private enum HiddenNameSource: Sendable, Equatable {
        case listed([HiddenName])
        /// An experiment's title, variants and keys, named only when a filter
        /// asks why a row matched: the Experiments screen has a row for each
        /// of thousands of experiments, and the experiment is one reference.
        case experiment(Experiment)
    }

    package var target: Target
    package var columns: [String]
    package var role: CellStyle.Role
    private var hiddenNameSource: HiddenNameSource

    package init(
        _ target: Target,
        _ columns: [String],
        role: CellStyle.Role = .plain,
        hiddenNames: [HiddenName] = []
    ) {
        self.target = target
        self.columns = columns
        self.role = role
        hiddenNameSource = .listed(hiddenNames)
    }

    /// A row whose hidden names are `experiment`'s title, variants and keys.
    package init(_ target: Target, _ columns: [String], role: CellStyle.Role, namesOf experiment: Experiment) {
        self.target = target
        self.columns = columns
        self.role = role
        hiddenNameSource = .experiment(experiment)
    }

    /// Names the filter finds here besides the columns, so a match can say why.
    package var hiddenNames: [HiddenName] {
        switch hiddenNameSource {
        case .listed(let names): return names
        case .experiment(let experiment):
            return (experiment.title.map { [HiddenName("name", $0)] } ?? [])
                + experiment.variants.map { HiddenName("variant", $0.name) }
                + experiment.keys.map { HiddenName("key", $0) }
        }
    }

    package var isSelectable: Bool { target != .header }
}

extension ListRow.Target {
    /// What a person calls the thing, for "… is gone"; `nil` for rows that do not go away.
    var name: String? {
        switch self {
        case .experiment(_, let name): return name
        case .choice(let variant): return variant ?? DebugSource.inactiveChoice
        case .assignment(let key): return key
        case .event(let id): return "Event \(id)"
        case .attribute(let name): return name
        case .update(let source), .status(let source), .reset(let source): return source
        case .app(let name): return name
        case .forcedVariant(_, let experiment, let scope): return experiment + Steering.phrase(scope)
        case .header, .category, .resetAll, .exportOverrides, .importOverrides, .server: return nil
        }
    }
}
