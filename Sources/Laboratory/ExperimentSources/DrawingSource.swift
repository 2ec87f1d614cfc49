/// A source that draws a variant for this device (or its logged-in user)
/// and keeps the draw: the core explains its decisions from the draws,
/// tokens and hashes, so it needs no ``ExplainingSource``.
public protocol DrawingSource: ExperimentSource {
    /// The draws the source made on this device, by experiment.
    func draws() throws -> [String: Draw]

    /// The logged-in user the source assigns for, if it has one.
    var userID: String? { get }
}

extension DrawingSource {
    public var drawing: (any DrawingSource)? { self }
}
