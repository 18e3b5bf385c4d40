//! `POST /api/play`: the engine's reply. The browser keeps the history (undo is a step back
//! in it); each request carries the position, the player's move from it if any, and the
//! points taken so far in a score game. The library's [`Match`] checks the move, plays the
//! perfect reply and says why; this file only turns that into JSON.

use grundy::play::Match;
use grundy::report::Limits;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::input::parse_spec;
use crate::Config;

/// The body of `POST /api/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The position before the player's move (or where the engine moves first).
    pub spec: String,
    /// The player's move from `spec`: its number, its name or the position it leads to;
    /// absent when the engine is to move at `spec`.
    #[serde(rename = "move")]
    pub to: Option<String>,
    /// Points taken so far in a score game, `[you, grundy]`.
    pub taken: Option<[i64; 2]>,
}

/// The reply, as JSON:
///
/// ```text
/// {"position": spec where the engine is to move (or you, after a move that keeps the turn),
///  "your_move": {"spec", "name", "outcome", "remoteness", "judgement"} | absent,
///  "report": the report of `position` (the engine's view),
///  "best_move": the engine's move (spec) | null, "best_move_name", "explanation": one line | null,
///  "next": the report you move from (your moves, each with its value) | null,
///  "taken": [you, grundy] (score games),
///  "over": bool, "winner": "you" | "grundy" | "draw" | null, "message": line | null}
/// ```
///
/// In a score game the reports count what is already taken: `scores` are the final
/// totals `[mover, other]` under best play, and each move's outcome follows them.
pub fn reply(req: &PlayRequest, limits: &Limits<'_>, config: &Config) -> Result<Value, ApiError> {
    let from = parse_spec(&req.spec)?;
    let solve_error = |e, spec: &str| ApiError::solve(e, spec, config.timeout);
    let taken = req.taken.unwrap_or([0, 0]);
    let mut game = Match::resume(from.clone(), taken, req.to.is_some(), limits)
        .map_err(|e| solve_error(e, &req.spec))?;
    let mut out = json!({
        "best_move": null,
        "best_move_name": null,
        "explanation": null,
        "next": null,
        "over": false,
        "winner": null,
        "message": null,
    });
    if let Some(text) = &req.to {
        let mv = game.choose(text).map_err(|why| {
            // A position that does not parse keeps its line and column.
            match text.parse::<grundy::games::Spec>() {
                Err(e) if text.contains('(') => {
                    let mut err = ApiError::spec(&e);
                    err.kind = "bad-move";
                    err.message = format!("not a move: {}", err.message);
                    err
                }
                _ => ApiError::new(axum::http::StatusCode::BAD_REQUEST, "bad-move", why),
            }
        })?;
        let judgement = game.judge(&mv);
        let view = game.view();
        let valued = view
            .moves
            .iter()
            .find(|m| m.to == mv.to)
            .cloned()
            .unwrap_or_else(|| mv.clone());
        game.play(&mv, limits)
            .map_err(|e| solve_error(e, &mv.spec))?;
        out["your_move"] = json!({
            "spec": mv.spec,
            "name": mv.name,
            "outcome": valued.outcome,
            "remoteness": valued.remoteness,
            "scores": valued.scores,
            "judgement": judgement,
        });
    }
    out["position"] = json!(game.position().to_string());
    out["report"] = json!(game.view());
    if let Some(played) = game
        .engine_move(limits)
        .map_err(|e| solve_error(e, &game.position().to_string()))?
    {
        out["best_move"] = json!(played.mv.spec);
        out["best_move_name"] = json!(played.mv.name);
        out["explanation"] = json!(played.explanation);
    }
    if game.human_to_move() && game.verdict().is_none() {
        out["next"] = json!(game.view());
    }
    if let Some(verdict) = game.verdict() {
        out["over"] = json!(true);
        out["winner"] = json!(verdict.winner);
        out["message"] = json!(verdict.message);
        if out["next"].is_null() && game.human_to_move() {
            out["next"] = json!(game.view());
        }
    }
    if let Some(t) = game.taken() {
        out["taken"] = json!(t);
    }
    Ok(out)
}
