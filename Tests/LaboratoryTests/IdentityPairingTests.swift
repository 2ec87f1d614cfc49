import LaboratoryTesting
import Testing

@testable import Laboratory

/// Pairing two lists by identity: every identity both have is paired as
/// many times as both have it, and what only one side has is left over,
/// whatever moved, came or went.
@Suite struct IdentityPairingTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func everyIdentityIsPairedAsOftenAsBothSidesHaveIt(seed: UInt64) {
        let random = SeededRandomSource(seed: seed)
        func pick(_ count: Int) -> Int { min(count - 1, Int(random.nextUnit() * Double(count))) }
        let old = (0..<(20 + pick(40))).map { _ in pick(30) }
        var new = old
        for _ in 0..<pick(6) {
            switch pick(4) {
            case 0: new.insert(100 + pick(10), at: pick(new.count + 1))  // came
            case 1 where !new.isEmpty: new.remove(at: pick(new.count))  // went
            case 2 where !new.isEmpty: new.insert(new.remove(at: pick(new.count)), at: 0)  // moved ahead
            default: new.swapAt(pick(new.count), pick(new.count))
            }
        }
        let result = IdentityPairing.pair(oldCount: old.count, newCount: new.count, old: { old[$0] }, new: { new[$0] })
        #expect(result.pairs.allSatisfy { old[$0.old] == new[$0.new] })
        // Each position at most once, and every position somewhere.
        #expect((result.pairs.map(\.old) + result.oldOnly).sorted() == Array(old.indices))
        #expect((result.pairs.map(\.new) + result.newOnly).sorted() == Array(new.indices))
        // Left over on both sides: never the same identity (it would have been paired).
        #expect(Set(result.oldOnly.map { old[$0] }).isDisjoint(with: result.newOnly.map { new[$0] }))
    }

    @Test func aListThatDidNotChangeIsPairedPlaceByPlace() {
        let list = Array(0..<1_000)
        let result = IdentityPairing.pair(oldCount: 1_000, newCount: 1_000, old: { list[$0] }, new: { list[$0] })
        #expect(result.pairs.allSatisfy { $0.old == $0.new } && result.pairs.count == 1_000)
        #expect(result.oldOnly.isEmpty && result.newOnly.isEmpty)
    }
}
