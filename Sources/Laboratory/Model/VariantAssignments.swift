/// A variant's assignments: key → value, kept in key order.
///
/// Reads like a dictionary (`assignments["key"]`, `keys`, `values`, a
/// dictionary literal) but is kept as the keys, sorted, and their values in
/// the same order: up to two values in the variant itself, more in an array.
/// A catalog of 10,000 experiments holds 30,000 variants, and a dictionary of
/// two keys costs 232 bytes where the two values cost 48; the variants of one
/// experiment also share one array of keys. Iterating goes in key order, so
/// what is printed from it is the same on every run.
public struct VariantAssignments: Sendable, Hashable {
    /// The keys, sorted, each once.
    public private(set) var keys: [String]
    private var storage: Storage

    /// The values: most variants assign one or two keys, and those values
    /// are kept inline, with no array to allocate for each variant.
    private enum Storage: Sendable, Hashable {
        case none
        case one(AssignmentValue)
        case two(AssignmentValue, AssignmentValue)
        case many([AssignmentValue])

        init(_ values: [AssignmentValue]) {
            switch values.count {
            case 0: self = .none
            case 1: self = .one(values[0])
            case 2: self = .two(values[0], values[1])
            default: self = .many(values)
            }
        }

        subscript(index: Int) -> AssignmentValue {
            switch self {
            case .none: preconditionFailure("no value at \(index)")
            case .one(let value): return value
            case .two(let first, let second): return index == 0 ? first : second
            case .many(let values): return values[index]
            }
        }

        var values: [AssignmentValue] {
            switch self {
            case .none: return []
            case .one(let value): return [value]
            case .two(let first, let second): return [first, second]
            case .many(let values): return values
            }
        }
    }

    /// The values, in the order of ``keys``.
    public var values: [AssignmentValue] { storage.values }

    /// No assignments.
    public init() {
        keys = []
        storage = .none
    }

    /// The pairs of `dictionary`, in key order.
    public init(_ dictionary: [String: AssignmentValue]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        keys = sorted.map(\.key)
        storage = Storage(sorted.map(\.value))
    }

    /// `values[i]` for `sortedKeys[i]`; the keys must be sorted and unique.
    ///
    /// Passing the same `sortedKeys` array for every variant of an experiment
    /// stores it once.
    package init(sortedKeys: [String], values: [AssignmentValue]) {
        precondition(sortedKeys.count == values.count, "one value per key")
        assert(zip(sortedKeys, sortedKeys.dropFirst()).allSatisfy { $0 < $1 }, "keys sorted and unique")
        keys = sortedKeys
        storage = Storage(values)
    }

    /// The value of `key`, or `nil` when the variant does not assign it;
    /// setting `nil` removes the key.
    public subscript(key: String) -> AssignmentValue? {
        get { Self.index(of: key, inSorted: keys).map { storage[$0] } }
        set {
            let index = position(of: key)
            let present = index < keys.count && keys[index] == key
            var values = storage.values
            switch (newValue, present) {
            case (let value?, true): values[index] = value
            case (let value?, false):
                keys.insert(key, at: index)
                values.insert(value, at: index)
            case (nil, true):
                keys.remove(at: index)
                values.remove(at: index)
            case (nil, false): return
            }
            storage = Storage(values)
        }
    }

    /// The pairs as a dictionary.
    public var dictionary: [String: AssignmentValue] {
        Dictionary(uniqueKeysWithValues: zip(keys, storage.values))
    }

    /// The first index whose key is not below `key`.
    private func position(of key: String) -> Int { Self.position(of: key, inSorted: keys) }

    /// The index of `key` in `sortedKeys`, or `nil` when it is not there.
    package static func index(of key: String, inSorted sortedKeys: [String]) -> Int? {
        let index = position(of: key, inSorted: sortedKeys)
        return index < sortedKeys.count && sortedKeys[index] == key ? index : nil
    }

    /// The first index of `sortedKeys` whose key is not below `key` (a binary search).
    private static func position(of key: String, inSorted sortedKeys: [String]) -> Int {
        var (low, high) = (0, sortedKeys.count)
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension VariantAssignments: RandomAccessCollection {
    /// A key and its value, as a dictionary's elements are.
    public typealias Element = (key: String, value: AssignmentValue)

    /// The position of the first key (zero).
    public var startIndex: Int { 0 }
    /// One past the position of the last key.
    public var endIndex: Int { keys.count }
    /// The key at `position` and its value.
    public subscript(position: Int) -> Element { (keys[position], storage[position]) }
}

extension VariantAssignments: ExpressibleByDictionaryLiteral {
    /// The pairs, in key order; a key written twice keeps its last value.
    public init(dictionaryLiteral elements: (String, AssignmentValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

extension VariantAssignments: Codable {
    /// Written and read as a JSON object, as a dictionary is.
    public init(from decoder: any Decoder) throws {
        self.init(try [String: AssignmentValue](from: decoder))
    }

    /// Writes the pairs as one JSON object.
    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}

extension VariantAssignments: CustomStringConvertible {
    /// `[key: value, …]` in key order.
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
