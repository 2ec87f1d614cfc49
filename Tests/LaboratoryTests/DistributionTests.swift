import LaboratoryTesting
import Testing

@testable import Laboratory

/// Many fresh devices over the demo catalog, with a seeded generator so the
/// outcome is exact and the test never flakes.
@Suite struct DistributionTests {
    @Test func subscriptionPromptImageIsActiveOnAFifthOfDevicesAndSplits50_25_25() throws {
        let catalog = try Fixtures.demoCatalog()
        let random = SeededRandomSource(seed: 20_261_122)
        let devices = 2_000
        var counts: [String: Int] = [:]
        for index in 0..<devices {
            let store = InMemoryStateStore()
            let device = try store.device(
                candidate: Device(id: "d\(index)", token: .draw(using: random))
            )
            let source = LocalSource(catalog: catalog, store: store, device: device, random: random)
            if let active = try source.activeVariants().first(where: { $0.experiment.name == "SubscriptionPromptImage" }
            ) {
                counts[active.variant.name, default: 0] += 1
            }
        }
        let active = counts.values.reduce(0, +)
        // About 20 % (the range [0.2, 0.4)): within ±3 points.
        #expect(abs(Double(active) / Double(devices) - 0.2) < 0.03, "active on \(active) of \(devices)")

        let expected = [
            "SubscriptionPromptImageMountains": 0.5, "SubscriptionPromptImageBeach": 0.25,
            "SubscriptionPromptImageCity": 0.25,
        ]
        let chiSquare = expected.reduce(0.0) { sum, pair in
            let wanted = pair.value * Double(active)
            let seen = Double(counts[pair.key] ?? 0)
            return sum + (seen - wanted) * (seen - wanted) / wanted
        }
        // The chi-square critical value for 2 degrees of freedom at p = 0.001.
        #expect(chiSquare < 13.816, "chi-square \(chiSquare) for \(counts)")
    }
}
