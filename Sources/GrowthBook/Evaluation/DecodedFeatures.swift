/// A payload's features decoded, in payload order (a repeated key's too),
/// with the positions of those the payload checks must read
/// (``GrowthBookFeature/needsChecks``).
///
/// The positions are found where each batch is decoded
/// (`FeatureStreamDecoder`), while its features are in that core's cache:
/// read from the parsing thread afterwards, the flags of the features
/// another core decoded took the checks 16 µs of a decode of 1,000 features.
struct DecodedFeatures {
    /// The features, in payload order.
    var features: [GrowthBookFeature]
    /// The positions in ``features`` of those the checks must read, in order.
    var needingChecks: [Int]
}
