/// Picks a variant by weight: weights 2:1:1 give 50/25/25 %.
public enum WeightedDraw {
    /// The variant whose slice of the cumulative weights holds `unit` (in [0, 1)).
    public static func variant(of experiment: Experiment, at unit: Double) -> Variant? {
        let total = experiment.variants.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        let target = unit * total
        var cumulative = 0.0
        for variant in experiment.variants {
            cumulative += variant.weight
            if target < cumulative { return variant }
        }
        // Rounding can leave `target` a hair past the last slice.
        return experiment.variants.last
    }

    /// Draws a variant with fresh randomness.
    public static func draw(_ experiment: Experiment, using random: any RandomSource) -> Variant? {
        variant(of: experiment, at: random.nextUnit())
    }
}
