/// A reference to an object that its holder also keeps strongly, read
/// without counting references.
///
/// Swift retains an object loaded from another object's property before each
/// call it is passed to, and releases it after: two atomic operations, which
/// for a force rule's value and its condition were a tenth of the rule's
/// evaluation. A holder keeps the strong reference and this one beside it,
/// and the walk reads this one only while it holds the holder: the context
/// holds its feature table, the table its features, the feature being
/// evaluated its rules, a rule its value or experiment, a value or an
/// experiment its condition.
///
/// A property's object is kept as one when it is decoded: made from the
/// property as the walk reads it, Swift counted the reference anyway (a force
/// rule took 777 instructions, not 672). An array's element can be made one
/// where it is read, as the walk does with a feature's rules and the table
/// with its features.
struct Unretained<Object: AnyObject & Sendable>: Sendable {
    private let unmanaged: Unmanaged<Object>

    /// A reference to `object`, which the caller keeps alive for as long as this one is read.
    init(_ object: Object) {
        unmanaged = .passUnretained(object)
    }

    /// Calls `body` with the object, counting no reference.
    @inline(__always)
    func with<Result>(_ body: (Object) -> Result) -> Result {
        unmanaged._withUnsafeGuaranteedRef(body)
    }
}
