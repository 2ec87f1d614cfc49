/// A source whose experiments any user can be evaluated against (a
/// GrowthBook payload): `lab serve` passes its features through to every
/// SDK, targeting kept, instead of serving this device's values.
public protocol SharingSource: ExperimentSource {
    /// The source's experiments as GrowthBook features that SDKs evaluate for
    /// any user, with `forced` (this source's forced variants) written in.
    func sharedFeatures(forcing forced: [ForcedVariant]) -> SharedFeatures?
}

extension SharingSource {
    public var sharing: (any SharingSource)? { self }
}
