import Foundation
import GrowthBook

/// Deterministic bucketing: a subject's variant is a function of its id, so a
/// user gets the same variant on every device and nothing needs storing.
///
/// The hash is `GrowthBookHash` (version 2), so it agrees with GrowthBook's SDKs. Variants are chosen by
/// weighted rendezvous hashing: each variant scores `-ln(u) / weight`, where
/// `u` is the subject's hash for that variant, and the lowest score wins.
/// Each variant then gets its weight's share of subjects at any precision, and
/// ramping moves only the share that must move: raising one variant's weight
/// lowers only its own scores, so its subjects stay and others can only join it.
public enum HashBucketing {
    /// The variant of `experiment` for the subject with this id.
    public static func variant(of experiment: Experiment, subject id: String) -> Variant? {
        var best: (score: Double, variant: Variant)?
        for variant in experiment.variants where variant.weight > 0 {
            // The middle of the hash's bucket, so u is never 0 or 1.
            let u =
                (GrowthBookHash.hash(seed: "\(experiment.name)/\(variant.name)", value: id, version: 2)! * 10000 + 0.5)
                / 10000
            let score = -log(u) / variant.weight
            if best == nil || score < best!.score { best = (score, variant) }
        }
        return best?.variant
    }

    /// A user's stand-in for the device token, so a user-level experiment's
    /// token range selects the same users on every device.
    public static func token(forUser id: String) -> ActiveExperimentsToken {
        ActiveExperimentsToken(GrowthBookHash.hash(seed: "laboratory.token", value: id, version: 2)!)
    }
}
