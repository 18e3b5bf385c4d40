//! The API's one error shape: a status, a kind, a message in words, and where a parsed input
//! went wrong. Always JSON, never HTML: a spec or a file name in a message stays text.

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grundy::games::SpecError;
use serde_json::json;

/// A refused request: `{"error": message, "kind": kind, "line"?, "column"?}` with a 4xx
/// status (a 500 only for a bug: a panic in a computation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable word: `bad-spec`, `bad-request`, `bad-move`, `bad-file`, `bad-host`,
    /// `bad-method`, `too-large`, `unsupported`, `timeout`, `not-found`, `internal`.
    pub kind: &'static str,
    /// What was wrong, in words.
    pub message: String,
    /// Where, for parsed input (1-based line and column, in characters).
    pub at: Option<(usize, usize)>,
}

impl ApiError {
    /// A refusal with no position.
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            // A long input is echoed cut.
            message: grundy::games::cut_echoes(&message.into()),
            at: None,
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 400: a spec that does not parse, with its line and column.
    pub fn spec(e: &SpecError) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            kind: "bad-spec",
            message: format!(
                "bad spec at line {}, column {}: {}",
                e.line, e.column, e.message
            ),
            at: Some((e.line, e.column)),
        }
    }

    /// 503: every permit to compute was held for the whole of the request's time.
    pub fn busy(limit: Duration) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!(
                "the server is busy: as many requests as it computes at once were computing, and none ended within the time limit of {} s; try again in a moment",
                limit.as_secs_f64()
            ),
        )
    }

    /// 422: a computation past a limit.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "too-large", message)
    }

    /// 500, `internal`: a computation that panicked (a bug) or was lost, with what it said;
    /// the other requests are not affected.
    pub fn internal(join: &tokio::task::JoinError) -> ApiError {
        let what = if join.is_panic() {
            "the computation panicked"
        } else {
            "the computation was stopped"
        };
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("internal error (a bug; please report it): {what}: {join}"),
        )
    }

    /// 422: stopped after the time limit.
    pub fn timeout(limit: Duration) -> ApiError {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "timeout",
            format!(
                "too large: stopped after the time limit of {} s per request (`grundy serve --timeout SECONDS` raises it); try a smaller position",
                limit.as_secs_f64()
            ),
        )
    }

    /// The library's refusals, for a computation about `what`, by their kind
    /// ([`grundy::Error::kind`]): a limit or a method that does not apply is the
    /// request's (422), a stop is the time limit's, and a tablebase that cannot be read
    /// is the server's store (503, kind `store`, saying which file), never a 500.
    ///
    /// A refusal past a limit ([`grundy::Error::limit`]) says which knob lifts it
    /// (`limit_hint`).
    pub fn solve(e: grundy::Error, what: &str, limit: Duration) -> ApiError {
        let status = match e {
            grundy::Error::Cancelled => return ApiError::timeout(limit),
            grundy::Error::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        let hint = e
            .limit()
            .map(|(over, wanted)| format!("; {}", limit_hint(over, wanted)))
            .unwrap_or_default();
        ApiError::new(
            status,
            e.kind(),
            format!("cannot solve `{what}`: {e}{hint}"),
        )
    }
}

/// What lifts `limit` on this server: the limits `grundy serve` takes as flags
/// (`--max-positions`, `--max-memory`), or, for the limits a server fixes per request
/// ([`crate::Config`]), the command line's flag that lifts it there. `wanted`: the value that would let the
/// request through, where known.
pub fn limit_hint(limit: grundy::Limit, wanted: Option<u128>) -> String {
    use grundy::Limit;
    let at_least = |unit: &str| {
        wanted.map_or(String::new(), |w| match limit {
            Limit::Memory | Limit::TierMemory => format!(" (at least {} MiB)", w.div_ceil(1 << 20)),
            _ => format!(" (at least {w} {unit})"),
        })
    };
    let what = match limit {
        Limit::Positions => {
            return format!(
                "this server explores at most its --max-positions a request: `grundy serve --max-positions N` raises it{}",
                at_least("positions")
            )
        }
        Limit::Memory => {
            return format!(
                "this server lets a request take at most its --max-memory: `grundy serve --max-memory MIB` raises it{}",
                at_least("")
            )
        }
        Limit::Work => "steps a request",
        Limit::ProofHeaps => "heaps of a period proof",
        Limit::SearchNodes => "nodes of the proof search",
        Limit::ExactNodes => "nodes of the exact search",
        Limit::TierMemory => "memory of the tier solver",
        Limit::UpTo => "sizes a study goes to",
    };
    format!(
        "this server fixes the {what}; on the command line, `grundy` takes --{} to change it{}",
        limit.knob(),
        at_least(limit.unit())
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"error": self.message, "kind": self.kind});
        if let Some((line, column)) = self.at {
            body["line"] = json!(line);
            body["column"] = json!(column);
        }
        (self.status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_refusals_are_typed_and_none_is_a_500() {
        let limit = Duration::from_secs(5);
        let cases = [
            (
                grundy::Error::TooLarge {
                    what: "x".into(),
                    need: Some(1 << 30),
                },
                StatusCode::UNPROCESSABLE_ENTITY,
                "too-large",
            ),
            (
                grundy::Error::Cancelled,
                StatusCode::UNPROCESSABLE_ENTITY,
                "timeout",
            ),
            (
                grundy::Error::Overflow,
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported",
            ),
            (
                grundy::Error::Store("tier-00003.gtb: block 2 fails its checksum".into()),
                StatusCode::SERVICE_UNAVAILABLE,
                "store",
            ),
        ];
        for (e, status, kind) in cases.into_iter().chain([(
            grundy::Error::over(grundy::Limit::Positions, "x".into(), None, Some(7_000_000)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "too-large",
        )]) {
            let api = ApiError::solve(e, "nim(3)", limit);
            assert_eq!((api.status, api.kind), (status, kind), "{}", api.message);
            assert!(
                kind == "timeout" || api.message.contains("nim(3)"),
                "{}",
                api.message
            );
        }
    }

    #[test]
    fn a_refusal_past_a_limit_names_the_knob_that_lifts_it() {
        let limit = Duration::from_secs(5);
        let past = |over, wanted| {
            ApiError::solve(
                grundy::Error::over(over, "x".into(), None, wanted),
                "kalah[4,3]",
                limit,
            )
            .message
        };
        let positions = past(grundy::Limit::Positions, Some(21_036_600));
        assert!(
            positions.contains("grundy serve --max-positions N")
                && positions.contains("at least 21036600 positions"),
            "{positions}"
        );
        let memory = past(grundy::Limit::Memory, Some(3 << 30));
        assert!(
            memory.contains("grundy serve --max-memory MIB")
                && memory.contains("at least 3072 MiB"),
            "{memory}"
        );
        for (over, flag) in [
            (grundy::Limit::Work, "--max-work"),
            (grundy::Limit::ProofHeaps, "--max-proof-heaps"),
            (grundy::Limit::SearchNodes, "--max-nodes"),
            (grundy::Limit::ExactNodes, "--max-exact-nodes"),
            (grundy::Limit::TierMemory, "--max-tier-memory"),
            (grundy::Limit::UpTo, "--up-to"),
        ] {
            let message = past(over, None);
            assert!(message.contains(flag), "{message}");
        }
        // A fixed ceiling names no knob.
        let ceiling = ApiError::solve(
            grundy::Error::TooLarge {
                what: "a remoteness past 2^30".into(),
                need: None,
            },
            "x",
            limit,
        );
        assert!(!ceiling.message.contains("--"), "{}", ceiling.message);
    }
}
