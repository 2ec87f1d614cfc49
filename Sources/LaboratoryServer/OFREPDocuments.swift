import Laboratory

/// OFREP's answers (OpenAPI 0.3.0: `serverEvaluationSuccess`,
/// `bulkEvaluationSuccess`, `evaluationFailure`), as they go on the wire.
enum OFREPDocuments {
    struct Evaluation: Encodable {
        var key: String
        var value: AssignmentValue
        var reason: ServedFlag.Reason
        var variant: String
        var metadata: Metadata

        init(_ flag: ServedFlag) {
            key = flag.key
            value = flag.value
            reason = flag.reason
            variant = flag.variant
            metadata = Metadata(experiment: flag.experiment, source: flag.source, forced: flag.forced)
        }
    }

    /// Where the answer comes from: Laboratory's experiment and source, and whether QA forced it.
    struct Metadata: Encodable {
        var experiment: String?
        var source: String
        var forced: Bool
    }

    struct Bulk: Encodable {
        var flags: [Evaluation]
        /// Where the provider hears of changes instead of polling.
        var eventStreams: [EventStream]
    }

    /// An event stream connection; `endpoint` keeps the provider's own origin.
    struct EventStream: Encodable {
        var type: String
        var endpoint: Endpoint

        struct Endpoint: Encodable {
            var requestUri: String
        }
    }

    struct Failure: Encodable {
        /// OFREP's codes: `PARSE_ERROR`, `INVALID_CONTEXT`, `FLAG_NOT_FOUND`, `GENERAL`.
        var errorCode: String
        var errorDetails: String
        var key: String?
    }
}
