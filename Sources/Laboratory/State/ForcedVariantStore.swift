/// What a person set to steer this device: the forced variants, and the
/// attributes an overrides file brought. The debug source and the steering
/// service need it; an app without a debug source never does.
public protocol ForcedVariantStore: WatchableStore {
    /// The forced variants, sorted by source, experiment and scope (everyone first).
    func forcedVariants() throws -> [ForcedVariant]

    /// Forces a variant, replacing the one forced for its experiment and
    /// scope; the same choice again (``ForcedVariant/isSameChoice(as:)``) changes nothing.
    func setForcedVariant(_ forcedVariant: ForcedVariant) throws

    /// Unforces one experiment for one scope.
    func removeForcedVariant(source: String, experiment: String, scope: Scope) throws

    /// Drops forced variants: every one, those of one source, of one scope, or of both.
    func removeForcedVariants(source: String?, scope: Scope?) throws

    /// Sets many forced variants in one step (an overrides file); with `replacing`,
    /// every other forced variant is dropped first.
    func applyForcedVariants(_ forcedVariants: [ForcedVariant], replacing: Bool) throws

    /// Attributes (such as `userId`) stored by an overrides import, used where
    /// the command line gives none.
    func storedAttributes() throws -> [String: String]

    /// Replaces the stored attribute overrides.
    func setStoredAttributes(_ attributes: [String: String]) throws
}
