/// A split test whose groups are a Swift enum, as client-side split-testing
/// libraries declare them.
///
/// ```swift
/// enum ButtonColorTest: SplitTest {
///     enum Group: String, CaseIterable, Sendable { case control, controlCheck = "control_check", blue }
///     static let experiment = "ButtonColor"
///     static let baseline = Group.control
/// }
/// let test = manager.splitTest(ButtonColorTest.self)
/// switch test.group { case .blue: … default: … }
/// try test.hit()   // when the user really sees the button; recorded once
/// ```
///
/// Each case's raw value is a variant name of the catalog experiment.
/// An inactive, unknown or retired experiment, or a variant the enum does not
/// know, gives the baseline: an old client keeps working when the catalog moves on.
/// The A/A pair `control` / `control_check` (equal twins) shows the noise level.
public protocol SplitTest {
    /// The groups; raw values are the experiment's variant names.
    associatedtype Group: RawRepresentable & CaseIterable & Sendable where Group.RawValue == String

    /// The experiment's name in the catalog.
    static var experiment: String { get }

    /// The group of a device where the test is not active.
    static var baseline: Group { get }
}

/// The group a split test gives this device, and how to report meeting it.
public struct SplitTestAssignment<Test: SplitTest>: Sendable {
    /// The group to use.
    public let group: Test.Group
    /// Whether the test is active here (`false`: ``group`` is the baseline).
    public let isActive: Bool
    /// The assignments of the active variant, for reporting.
    let assignment: Assignment?
    let manager: AssignmentsManager

    /// Reports that the user really met the test. Recorded once per device
    /// and group, however often it is called.
    /// - Returns: whether this call recorded the exposure.
    @discardableResult
    public func hit() throws -> Bool {
        guard let assignment else { return false }
        return try manager.report(assignment, reason: .displayed)
    }
}

extension AssignmentsManager {
    /// The group of `test` on this device.
    public func splitTest<Test: SplitTest>(_ test: Test.Type) -> SplitTestAssignment<Test> {
        let active = snapshot.active.first { $0.experiment.name == Test.experiment }
        guard let active, let group = Test.Group(rawValue: active.variant.name) else {
            return SplitTestAssignment(group: Test.baseline, isActive: false, assignment: nil, manager: self)
        }
        return SplitTestAssignment(
            group: group,
            isActive: true,
            assignment: active.assignments.first,
            manager: self
        )
    }

    /// The implementation for the variant `experiment` runs here, or `fallback`
    /// (the baseline's) when it is not active or runs a variant not listed.
    ///
    /// Per-variant behaviour is chosen once, here, instead of `if` checks
    /// through the code; concluding the experiment means deleting a strategy.
    public func strategy<Strategy>(
        for experiment: String,
        _ strategies: [String: Strategy],
        default fallback: Strategy
    ) -> Strategy {
        let variant = snapshot.active.first { $0.experiment.name == experiment }?.variant.name
        return variant.flatMap { strategies[$0] } ?? fallback
    }

    /// The implementation for the group of a typed split test, or `fallback`.
    public func strategy<Test: SplitTest, Strategy>(
        for test: Test.Type,
        _ strategies: [Test.Group: Strategy],
        default fallback: Strategy
    ) -> Strategy where Test.Group: Hashable {
        let assignment = splitTest(test)
        return assignment.isActive ? strategies[assignment.group] ?? fallback : fallback
    }
}
