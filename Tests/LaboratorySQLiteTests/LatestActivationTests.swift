import Foundation
import Laboratory
import LaboratorySQLite
import Testing

/// The newest activation of an assignment is found through the events'
/// index, and is the one a look at every recorded event finds: the same
/// source, experiment, key and variant, on the same device.
struct LatestActivationTests {
    @Test func theNewestActivationOfExactlyThatAssignmentOnThatDevice() throws {
        let folder = NSTemporaryDirectory() + "latest-activation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStateStore(path: folder + "/state.sqlite")
        var random = SystemRandomNumberGenerator()
        let devices = ["d1", "d2"]
        let experiments = ["ButtonColor", "Onboarding", "Search"]
        let variants = ["A", "B"]
        let keys = ["first", "second"]
        let sources = ["Local", "Remote"]
        let reasons: [EventReason] = [.activated, .deactivated, .displayed]
        var recorded: [Event] = []
        for round in 0..<600 {
            let event = Event(
                time: Date(timeIntervalSince1970: 1_790_000_000 + Double(round)),
                device: devices.randomElement(using: &random)!,
                source: sources.randomElement(using: &random)!,
                experiment: experiments.randomElement(using: &random)!,
                variant: variants.randomElement(using: &random)!,
                key: keys.randomElement(using: &random)!,
                value: .number(Double(round)),
                reason: reasons.randomElement(using: &random)!,
                forced: Bool.random(using: &random),
                tester: Bool.random(using: &random) ? "ana" : nil
            )
            recorded.append(event)
        }
        try store.record(recorded)
        for device in devices {
            for source in sources {
                for experiment in experiments {
                    for variant in variants {
                        for key in keys {
                            let assignment = Assignment(
                                key: key,
                                value: .number(0),
                                experiment: experiment,
                                variant: variant,
                                source: source
                            )
                            let expected = recorded.last {
                                $0.reason == .activated && $0.device == device && $0.source == source
                                    && $0.experiment == experiment && $0.variant == variant && $0.key == key
                            }
                            let found = try store.latestActivation(of: assignment, device: device)
                            #expect(found == expected, "\(device) \(source)/\(experiment) \(variant) \(key)")
                        }
                    }
                }
            }
        }
    }
}
