//! What a request brings, read and checked before any handler uses it: specs and the
//! graph endpoint's query. Below the handlers (`api`, `graph`, `play`), so that they all
//! import it and none imports another.

use grundy::games::Spec;
use serde::Deserialize;

use crate::error::ApiError;

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
}
