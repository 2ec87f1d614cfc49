import Foundation
import GrowthBook

/// Why a JSON file a person wrote or handed on could not be read (an
/// overrides file, a steering tokens file), with where: `file:line:col: message`.
public struct InvalidFile: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file's name, as the message prints it.
    public var file: String
    /// Where in the file, when known.
    public var position: SourcePosition?
    /// What is wrong.
    public var message: String

    /// A problem in `file`, at `position` when known.
    public init(file: String, position: SourcePosition? = nil, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// The problem at `node` of `file`.
    package init(_ file: String, at node: JSONNode, _ message: String) {
        self.init(file: file, position: node.position, message: message)
    }

    public var description: String {
        "\(file)\(position.map { ":\($0.line):\($0.column)" } ?? ""): \(message)"
    }

    /// The file's JSON, every value with its position; text that is not
    /// UTF-8, or not JSON, is refused with where.
    package static func json(_ data: Data, file: String) throws(InvalidFile) -> JSONNode {
        guard let text = String(data: data, encoding: .utf8) else {
            throw InvalidFile(file: file, message: "not UTF-8 text")
        }
        do {
            return try JSONNodeParser.parse(text)
        } catch {
            throw InvalidFile(file: file, position: error.position, message: error.message)
        }
    }

    /// The members of an object that may hold strings only, in file order.
    /// - Parameters:
    ///   - notAnObject: the message when `node` is not an object, given what it is.
    ///   - notAString: the message when a member is not a string, given its name and what it is.
    package static func strings(
        in node: JSONNode,
        file: String,
        notAnObject: (String) -> String,
        notAString: (_ name: String, _ found: String) -> String
    ) throws(InvalidFile) -> [(name: String, value: String, node: JSONNode)] {
        guard case .object(let members) = node.kind else {
            throw InvalidFile(file, at: node, notAnObject(node.kindName))
        }
        var strings: [(name: String, value: String, node: JSONNode)] = []
        for member in members {
            guard case .string(let value) = member.value.kind else {
                throw InvalidFile(file, at: member.value, notAString(member.name, member.value.kindName))
            }
            strings.append((member.name, value, member.value))
        }
        return strings
    }

    /// An object of strings as a dictionary (a repeated name: the last one), checked as ``strings(in:file:notAnObject:notAString:)`` checks it.
    package static func stringObject(
        in node: JSONNode,
        file: String,
        notAnObject: (String) -> String,
        notAString: (_ name: String, _ found: String) -> String
    ) throws(InvalidFile) -> [String: String] {
        var object: [String: String] = [:]
        for member in try strings(in: node, file: file, notAnObject: notAnObject, notAString: notAString) {
            object[member.name] = member.value
        }
        return object
    }
}
