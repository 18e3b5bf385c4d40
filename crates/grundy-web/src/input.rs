//! What a request brings, read and checked before any handler uses it: specs, uploads
//! (gunzipped within the limit, UTF-8 checked), contest boards read by the library, and the
//! graph endpoint's query. Below the handlers (`api`, `graph`, `play`), so that they all
//! import it and none imports another.

use std::path::Path;

use axum::http::StatusCode;
use grundy::contest::Task;
use grundy::games::Spec;
use serde::Deserialize;

use crate::error::ApiError;
use crate::Config;

/// The longest spec or family text accepted, in bytes.
pub const MAX_SPEC: usize = 10_000;

/// Parses a spec, refusing overlong text first.
pub fn parse_spec(text: &str) -> Result<Spec, ApiError> {
    if text.len() > MAX_SPEC {
        return Err(ApiError::bad_request(format!(
            "the spec is {} bytes long; at most {MAX_SPEC} are accepted",
            text.len()
        )));
    }
    if text.trim().is_empty() {
        return Err(ApiError::bad_request(
            "give a spec, e.g. nim(3,4,5) or octal[0.77](20)",
        ));
    }
    text.parse::<Spec>().map_err(|e| ApiError::spec(&e))
}

/// The query of `POST /api/graph`.
#[derive(Deserialize)]
pub struct GraphQuery {
    /// The file's name.
    pub name: Option<String>,
    /// `poi`, `pgsolver` or `digraph`; detected when absent.
    pub format: Option<String>,
    /// The objective; the format's default when absent.
    pub objective: Option<String>,
    /// The parity algorithm; the library's default when absent.
    pub algorithm: Option<String>,
}

/// The longest file name echoed back, in characters.
pub const MAX_NAME: usize = 200;

/// A refused upload: 400, `bad-file`.
pub fn bad_file(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "bad-file", message)
}

/// The name of an upload as echoed back: cut, or `pasted text` when there is none.
pub fn file_name(name: Option<&str>) -> String {
    match name.map(str::trim) {
        Some(n) if !n.is_empty() => n.chars().take(MAX_NAME).collect(),
        _ => "pasted text".to_string(),
    }
}

/// The text of an upload: gunzipped if it is gzip (never past `max_body`), UTF-8 checked —
/// the edge's [`grundy_io::decode_text_limited`], its errors as 4xx.
pub fn decode(bytes: Vec<u8>, name: &str, config: &Config) -> Result<String, ApiError> {
    grundy_io::decode_text_limited(bytes, false, Path::new(name), config.max_body as u64).map_err(
        |e| match e {
            grundy_io::ReadError::TooLarge { .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too-large", e.to_string())
            }
            other => bad_file(other.to_string()),
        },
    )
}

/// A contest task's input as the page keeps it between requests: which task, and the
/// file's text (`POST /api/olympiad` reads it first; `POST /api/play` brings it back).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// The task's name, as `grundy olympiad` takes it: `ioi2001-score`, `poi1999-polygon`.
    pub task: String,
    /// The task's input.
    pub text: String,
}

/// The contest task of a name.
pub fn task(name: &str) -> Result<Task, ApiError> {
    Task::from_name(name.trim()).ok_or_else(|| {
        let names: Vec<&str> = Task::ALL.iter().map(|(n, _)| *n).collect();
        ApiError::bad_request(format!(
            "no contest task `{}`; known: {}",
            name.chars().take(40).collect::<String>().escape_debug(),
            names.join(", ")
        ))
    })
}

/// The start of the game a task's input describes, read by the library's reader of that
/// task (the command line's `grundy olympiad`): refused with the line and column of what
/// is wrong, and past the library's limits ([`grundy::games::score::MAX_POSITIONS`],
/// [`grundy::games::polygon::MAX_VERTICES`]) or the body limit with them.
pub fn read_game(task: Task, text: &str, name: &str, config: &Config) -> Result<Spec, ApiError> {
    if text.len() > config.max_body {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            format!(
                "too large: {name} is over the limit of {}",
                grundy::human_bytes(config.max_body as u64)
            ),
        ));
    }
    if text.trim().is_empty() {
        return Err(bad_file(format!("{name} is empty: give the task's input")));
    }
    task.game(text).map_err(|e| {
        let mut err = bad_file(format!(
            "{name}, line {}, column {}: {}",
            e.line, e.column, e.message
        ));
        err.at = Some((e.line, e.column));
        err
    })
}

/// The query of `POST /api/olympiad`.
#[derive(Deserialize)]
pub struct OlympiadQuery {
    /// The task's name.
    pub task: Option<String>,
    /// The file's name.
    pub name: Option<String>,
}
