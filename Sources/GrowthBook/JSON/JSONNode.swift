/// A JSON value with the line and column where it starts in its file.
///
/// Foundation's decoders forget positions once the syntax is parsed, so a
/// catalog mistake such as a variant missing a key could only be reported as
/// a coding path; this tree keeps them so every diagnostic names `file:line:col`.
package struct JSONNode: Sendable, Hashable {
    /// What the value is.
    package enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in file order; a repeated name is kept, so it can be reported.
        case object([Member])
    }

    /// One `"name": value` pair of an object.
    package struct Member: Sendable, Hashable {
        package var name: String
        /// Where the member's name starts.
        package var position: SourcePosition
        package var value: JSONNode
    }

    package var kind: Kind
    /// Where the value starts.
    package var position: SourcePosition

    /// The value of the first member with this name, for an object.
    package subscript(member name: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// A word for the kind of value, used in "expected …, found …" messages.
    package var kindName: String {
        switch kind {
        case .array: return JSONValue.array([]).kindName
        case .object: return JSONValue.object([]).kindName
        default: return JSONValue(self).kindName  // a scalar converts without copying a tree
        }
    }
}

/// A place in a text file: 1-based line and column (columns count characters).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in characters, from 1.
    public var column: Int

    /// A place in a text.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

extension JSONNode {
    /// Where the value at `path` starts, or with `atName` where the name of
    /// its last member does; each step is an array element's index or an
    /// object member's index. `nil` when the path leads nowhere.
    package func position(at path: [Int], atName: Bool = false) -> SourcePosition? {
        var node = self
        var namePosition: SourcePosition?
        for step in path {
            switch node.kind {
            case .array(let elements) where elements.indices.contains(step):
                node = elements[step]
                namePosition = nil
            case .object(let members) where members.indices.contains(step):
                node = members[step].value
                namePosition = members[step].position
            default: return nil
            }
        }
        return atName ? namePosition : node.position
    }
}
