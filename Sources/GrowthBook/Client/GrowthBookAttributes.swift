import Foundation

/// The attributes of one user, what GrowthBook's conditions and hashing
/// read: written as a Swift literal, or encoded from any `Encodable` value.
///
/// ```swift
/// let user: GrowthBookAttributes = ["id": "u1", "country": "NZ", "age": 31, "beta": true, "tags": ["qa"]]
/// let same = try GrowthBookAttributes(encoding: profile)   // any Encodable with those properties
/// ```
public struct GrowthBookAttributes: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The attributes as a JSON object.
    public private(set) var json: JSONValue

    /// Attributes written as a literal: `["id": "u1", "age": 31]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        json = .object(elements.map { JSONValue.Member($0.0, $0.1) })
    }

    /// Attributes from a JSON object; anything else is no attributes.
    public init(_ json: JSONValue) {
        if case .object = json { self.json = json } else { self.json = .object([]) }
    }

    /// Attributes from an `Encodable` value whose properties are the attributes.
    /// - Throws: ``GrowthBookError/attributesNotAnObject(_:)`` when it does not encode as an object.
    public init(encoding value: some Encodable) throws(GrowthBookError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .attributesNotAnObject("\(error)")
        }
        guard let json = try? JSONValueParser.parse(data), case .object = json else {
            throw .attributesNotAnObject("it encodes as \(String(decoding: data.prefix(40), as: UTF8.self))")
        }
        self.json = json
    }

    /// One attribute's value; `nil` when it is not set.
    public subscript(name: String) -> JSONValue? {
        get { JavaScriptSemantics.property(name, of: json) }
        set {
            var members = json.members ?? []
            members.removeAll { JavaScriptSemantics.sameName($0.key, name) }
            if let newValue { members.append(.init(name, newValue)) }
            json = .object(members)
        }
    }

    /// These attributes with `other`'s set over them.
    public func merging(_ other: GrowthBookAttributes) -> GrowthBookAttributes {
        // A client's attributes are often none, and a user's often name each
        // attribute once: then the merge is one of them as it is, where
        // setting each attribute in turn copied the list each time (9,200
        // instructions of the 32,700 a front-door user of five attributes took).
        let (mine, theirs) = (json.members ?? [], other.json.members ?? [])
        if theirs.isEmpty { return self }
        if mine.isEmpty, !JavaScriptSemantics.repeatsAName(theirs) { return other }
        var merged = self
        for member in theirs { merged[member.key] = member.value }
        return merged
    }
}

// Literals for attributes and forced values (`["id": "u1", "age": 31]`). Not
// `nil`: an optional `JSONValue` would then read `nil` as `.null`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}
