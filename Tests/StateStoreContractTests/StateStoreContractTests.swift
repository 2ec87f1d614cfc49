import Foundation
import LabTestSupport
import Laboratory
import LaboratorySQLite
import LaboratoryTesting
import Testing

/// The contract of ``StateStore`` (``StateStoreContract``, which any store's
/// tests can run) on both stores here: the in-memory twin an app's tests use
/// and the SQLite state file an app ships with. A store that passes can
/// stand in for the other.
@Suite struct StateStoreContractTests {
    /// A way to open a store twice on the same storage, as two processes
    /// (the app and the console) open the same state file; a store on disk
    /// keeps its files in the test's folder.
    struct Kind: Sendable, CustomTestStringConvertible {
        var name: String
        var open: @Sendable (TemporaryFolder) -> StateStoreContract.Open
        var testDescription: String { name }
    }

    static let kinds = [
        Kind(name: "in-memory") { _ in
            {
                let store = InMemoryStateStore()
                return (store, store)
            }
        },
        Kind(name: "SQLite") { folder in
            {
                let path = folder.file("contract-\(UUID().uuidString).sqlite")
                return (try SQLiteStateStore(path: path), try SQLiteStateStore(path: path))
            }
        },
    ]

    @Test(arguments: kinds, StateStoreContract.rules)
    func theStoreKeepsTheRule(_ kind: Kind, _ rule: StateStoreContract.Rule) async throws {
        let folder = try TemporaryFolder("contract")
        let broken = await rule.check(kind.open(folder))
        #expect(broken.isEmpty, "\(kind.name) breaks \(rule.name): \(broken)")
    }

    @Test func theContractHasEveryRule() {
        #expect(StateStoreContract.rules.count == 15)
        #expect(Set(StateStoreContract.rules.map(\.name)).count == StateStoreContract.rules.count)
    }

    /// Both stores here keep the device's part apart: a force leaves its
    /// revision, so local sources do not settle their draws again after one.
    @Test(arguments: kinds)
    func aForceLeavesTheDeviceRevision(_ kind: Kind) throws {
        let folder = try TemporaryFolder("contract")
        let (store, other) = try kind.open(folder)()
        _ = try store.settleDraws(source: "S", experiments: ["A"], at: Date()) { _, _ in .choose("A1") }
        let (revision, device) = (try other.revision(), try other.deviceRevision())
        try store.setForcedVariant(ForcedVariant(source: "S", experiment: "A", variant: "A2"))
        #expect(try other.revision() != revision)
        #expect(try other.deviceRevision() == device)
    }

    /// Two handles that do not share their storage (as two state files
    /// would not) break the contract, and it says where: it is not a suite
    /// that cannot fail.
    @Test func handlesThatDoNotShareTheirStorageBreakTheContract() async throws {
        let rule = try #require(StateStoreContract.rules.first { $0.name.hasPrefix("forcedVariantsAreKeptSorted") })
        let broken = await rule.check { (InMemoryStateStore(), InMemoryStateStore()) }
        #expect(!broken.isEmpty)
        #expect(broken.allSatisfy { $0.description.hasPrefix("StateStoreContract.swift:") })
    }
}
