/// A source that fetches its experiments from elsewhere (a payload file, a
/// server): what it watches, and how the fetching is going.
public protocol FetchingSource: ExperimentSource {
    /// A file on this machine the source reads its experiments from besides
    /// the wiring's catalogs (a GrowthBook payload file): a running console
    /// or `lab serve` calls ``ExperimentSource/update()`` when it is edited,
    /// as it reloads catalogs.
    var watchedFile: String? { get }

    /// A line on how the source is doing beyond its fetch status (a
    /// payload's age, counts and warnings), for Settings and `lab update`.
    var statusDetail: String? { get }
}

extension FetchingSource {
    public var fetching: (any FetchingSource)? { self }

    public var watchedFile: String? { nil }

    public var statusDetail: String? { nil }
}
