/// GrowthBook's bucketing arithmetic: variation ranges from weights and
/// coverage, choosing a variation for a hash, and namespaces.
package enum BucketMath {
    /// `n` equal weights summing to 1.
    package static func equalWeights(_ count: Int) -> [Double] {
        count <= 0 ? [] : Array(repeating: 1 / Double(count), count: count)
    }

    /// The [start, end) range of each variation: weights laid end to end, each
    /// range covering `coverage` of its weight. Weights that are missing, of
    /// the wrong count or not summing to about 1 become equal weights.
    package static func bucketRanges(count: Int, coverage: Double = 1, weights: [Double]? = nil) -> [HalfOpenRange] {
        let coverage = min(max(coverage, 0), 1)
        var weights = weights ?? equalWeights(count)
        if weights.count != count { weights = equalWeights(count) }
        let total = weights.reduce(0, +)
        if total < 0.99 || total > 1.01 { weights = equalWeights(count) }
        var cumulative = 0.0
        return weights.map { weight in
            let start = cumulative
            cumulative += weight
            return HalfOpenRange(lower: start, upper: start + coverage * weight)
        }
    }

    /// The variation whose range holds `hash`, or `nil` (not in the experiment).
    package static func chooseVariation(_ hash: Double, ranges: [HalfOpenRange]) -> Int? {
        ranges.firstIndex { $0.contains(hash) }
    }

    /// Whether an id falls in a namespace's [start, end) slice.
    package static func inNamespace(_ id: String, namespace: Namespace) -> Bool {
        inNamespace(GrowthBookHash.HashedText(id), namespace: namespace)
    }

    /// Whether an id, as hashing reads it, falls in a namespace's [start, end) slice.
    @inline(__always)
    static func inNamespace(_ id: GrowthBookHash.HashedText, namespace: Namespace) -> Bool {
        namespace.buckets.contains(GrowthBookHash.bucket(seed: namespace.hashSeed, value: id))
    }

    /// A mutually exclusive slice of the id space: `[id, start, end]`.
    package struct Namespace: Sendable, Hashable {
        package let id: String
        package let start: Double
        package let end: Double
        /// What ids are hashed with: `__<id>`, built once.
        let seed: String
        /// ``seed`` as hashing reads it.
        let hashSeed: GrowthBookHash.Seed
        /// The version 1 buckets (a hash is `bucket / 1000`) inside
        /// [``start``, ``end``): comparing the bucket, an integer, leaves the
        /// conversion to a `Double` and the division, where `perf` found half
        /// of the check's time, off its path, and answers exactly as
        /// comparing the hash does.
        let buckets: Range<UInt32>

        package init(id: String, start: Double, end: Double) {
            self.id = id
            self.start = start
            self.end = end
            seed = "__" + id
            hashSeed = GrowthBookHash.Seed(seed)
            // `bucket / 1000` grows with the bucket, so `hash >= start` holds
            // from one bucket on and `hash < end` up to one (neither, for NaN).
            let lower = Self.firstBucket { GrowthBookHash.hash(bucket: $0) >= start }
            let upper = Self.firstBucket { !(GrowthBookHash.hash(bucket: $0) < end) }
            buckets = lower..<max(lower, upper)
        }

        /// The first of the buckets 0..<1000 for which `holds`, which holds
        /// from some bucket on; 1000 when it holds for none.
        private static func firstBucket(where holds: (UInt32) -> Bool) -> UInt32 {
            var (low, high): (UInt32, UInt32) = (0, GrowthBookHash.bucketsOfVersion1)
            while low < high {
                let middle = (low + high) / 2
                if holds(middle) { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }
}
