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
                "too large: stopped after the time limit of {} s per request; try a smaller position",
                limit.as_secs_f64()
            ),
        )
    }

    /// The library's refusals, for a computation about `what`, by their kind
    /// ([`grundy::Error::kind`]): a limit or a method that does not apply is the
    /// request's (422), a stop is the time limit's, and a tablebase that cannot be read
    /// is the server's store (503, kind `store`, saying which file), never a 500.
    pub fn solve(e: grundy::Error, what: &str, limit: Duration) -> ApiError {
        let status = match e {
            grundy::Error::Cancelled => return ApiError::timeout(limit),
            grundy::Error::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        ApiError::new(status, e.kind(), format!("cannot solve `{what}`: {e}"))
    }
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
        for (e, status, kind) in cases {
            let api = ApiError::solve(e, "nim(3)", limit);
            assert_eq!((api.status, api.kind), (status, kind), "{}", api.message);
            assert!(
                kind == "timeout" || api.message.contains("nim(3)"),
                "{}",
                api.message
            );
        }
    }
}
