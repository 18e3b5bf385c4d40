//! `POST /api/play`: the engine's reply. The browser keeps the history (undo is a step back
//! in it); each request carries the position, the player's move from it if any, and the
//! points taken so far in a score game. The server checks the move, plays the perfect
//! reply — a win as fast as possible, a loss as slowly as possible — and says why.

use grundy::games::{is_move, Part, Spec};
use grundy::report::{self, Limits, Report};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::parse_spec;
use crate::error::ApiError;
use crate::Config;

/// The body of `POST /api/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The position before the player's move (or where the engine moves first).
    pub spec: String,
    /// The position the player moves to; absent when the engine is to move at `spec`.
    #[serde(rename = "move")]
    pub to: Option<String>,
    /// Points taken so far in a score game, `[you, grundy]`.
    pub taken: Option<[i64; 2]>,
}

/// Points the mover takes by moving `from` → `to` in a score game (`None` elsewhere).
fn gain(from: &Spec, to: &Spec) -> Option<i64> {
    match (from.parts.as_slice(), to.parts.as_slice()) {
        ([Part::Ends { row }], [Part::Ends { row: next }]) if !row.is_empty() => {
            Some(if next[..] == row[1..] {
                row[0]
            } else {
                row[row.len() - 1]
            })
        }
        _ => None,
    }
}

fn add(taken: &mut [i64; 2], who: usize, from: &Spec, to: &Spec) -> Result<(), ApiError> {
    if let Some(g) = gain(from, to) {
        taken[who] = taken[who].checked_add(g).ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported",
                "the scores do not fit in 64 bits",
            )
        })?;
    }
    Ok(())
}

/// Who won a finished game, and the line that says so. `stuck_is_you`: the player who
/// cannot move is the human.
fn verdict(score_game: bool, taken: [i64; 2], stuck_is_you: bool) -> (&'static str, String) {
    if score_game {
        let [you, engine] = taken;
        let winner = match you.cmp(&engine) {
            std::cmp::Ordering::Greater => "you",
            std::cmp::Ordering::Less => "grundy",
            std::cmp::Ordering::Equal => "draw",
        };
        let words = match winner {
            "you" => "you win",
            "grundy" => "grundy wins",
            _ => "a draw",
        };
        (
            winner,
            format!("final scores: you {you}, grundy {engine}: {words}."),
        )
    } else if stuck_is_you {
        (
            "grundy",
            "you cannot move and lose: grundy wins.".to_string(),
        )
    } else {
        ("you", "grundy cannot move and loses: you win.".to_string())
    }
}

fn solve(spec: &Spec, limits: &Limits<'_>, config: &Config) -> Result<Report, ApiError> {
    report::solve(spec, limits).map_err(|e| ApiError::solve(e, &spec.to_string(), config.timeout))
}

/// The reply, as JSON:
///
/// ```text
/// {"position": spec where the engine is to move,
///  "your_move": {"spec", "outcome", "remoteness"} | absent (the move's value to you),
///  "report": the report of `position` (the engine's view),
///  "best_move": the engine's move | null, "explanation": one line | null,
///  "next": the report after it (your view: your moves, each with its value) | null,
///  "taken": [you, grundy] (score games),
///  "over": bool, "winner": "you" | "grundy" | "draw" | null, "message": line | null}
/// ```
pub fn reply(req: &PlayRequest, limits: &Limits<'_>, config: &Config) -> Result<Value, ApiError> {
    let from = parse_spec(&req.spec)?;
    let score_game = !from.is_impartial();
    let mut taken = req.taken.unwrap_or([0, 0]);
    let position = match &req.to {
        Some(text) => {
            let to = parse_spec(text).map_err(|mut e| {
                e.kind = "bad-move";
                e.message = format!("not a move: {}", e.message);
                e
            })?;
            if !is_move(&from, &to) {
                return Err(ApiError::new(
                    axum::http::StatusCode::BAD_REQUEST,
                    "bad-move",
                    format!("`{to}` is not one move from `{from}`"),
                ));
            }
            add(&mut taken, 0, &from, &to)?;
            to
        }
        None => from,
    };
    let report = solve(&position, limits, config)?;
    let mut out = json!({
        "position": position.to_string(),
        "report": report,
        "best_move": null,
        "explanation": null,
        "next": null,
        "over": false,
        "winner": null,
        "message": null,
    });
    if req.to.is_some() {
        out["your_move"] = json!({
            "spec": position.to_string(),
            "outcome": report.outcome.negate(),
            "remoteness": report.remoteness.map(|r| r + 1),
        });
    }
    let finished = if let Some(best) = report.best_move() {
        let next_spec = parse_spec(&best.spec)?;
        add(&mut taken, 1, &position, &next_spec)?;
        let next = solve(&next_spec, limits, config)?;
        out["best_move"] = json!(best.spec);
        out["explanation"] = json!(report.explain(best));
        let done = next.moves.is_empty();
        out["next"] = json!(next);
        done.then_some(true)
    } else {
        Some(false)
    };
    if let Some(stuck_is_you) = finished {
        let (winner, message) = verdict(score_game, taken, stuck_is_you);
        out["over"] = json!(true);
        out["winner"] = json!(winner);
        out["message"] = json!(message);
    }
    if score_game {
        out["taken"] = json!(taken);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_of_the_end_game() {
        let a: Spec = "ends(4,7,2)".parse().unwrap();
        let b: Spec = "ends(7,2)".parse().unwrap();
        let c: Spec = "ends(4,7)".parse().unwrap();
        assert_eq!(gain(&a, &b), Some(4));
        assert_eq!(gain(&a, &c), Some(2));
        let n: Spec = "nim(3)".parse().unwrap();
        assert_eq!(gain(&n, &n), None);
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict(false, [0, 0], true).0, "grundy");
        assert_eq!(verdict(false, [0, 0], false).0, "you");
        assert_eq!(verdict(true, [5, 3], true).0, "you");
        assert_eq!(verdict(true, [3, 3], true).0, "draw");
    }
}
