/// Where a device's whole experiment state lives: the four narrower stores
/// in one, as the state file holds them (``DeviceStore``,
/// ``ForcedVariantStore``, ``PayloadCache``, ``ActiveSetStore``). A type
/// that conforms to all four is a state store; code that needs one part asks
/// for that part, so an app's own store implements only what it uses.
///
/// Every implementation keeps these rules (`StateStoreContract` in
/// LaboratoryTesting checks them for any store, and this package's contract
/// tests run it on each store):
///
/// - **Atomic calls.** Each call is atomic with respect to every other user
///   of the same storage, in this process or another: the SQLite store runs
///   each one in a single immediate transaction. Two users racing to swap in
///   the same active set see the change reported to exactly one of them.
/// - **The revision moves with changes only.** Every call that changes what
///   the store holds raises ``WatchableStore/revision()``; a call that leaves
///   everything as it was (the same forced variant again, the same payload,
///   keeping every draw) does not, and reads never do, so watchers wake for
///   real changes only.
/// - **First come, first kept.** The first device stored and the first
///   stabilization time are kept; later candidates are ignored.
///
/// `InMemoryStateStore` in LaboratoryTesting is the in-memory twin.
public typealias StateStore = ActiveSetStore & DeviceStore & ForcedVariantStore & PayloadCache
