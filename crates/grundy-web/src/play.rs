//! `POST /api/play`: the engine's reply. The browser keeps the history (undo is a step back
//! in it); each request carries the position, the player's move from it if any, and the
//! points taken so far in a score game. The library's [`Match`] checks the move, plays the
//! perfect reply and says why; this file only turns that into JSON.

use grundy::game::{ByPlayer, Outcome, Player};
use grundy::games::Spec;
use grundy::play::{Match, Winner};
use grundy::report::{Limits, Move, Report};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::board::{
    figure_json, move_cell, move_claims, move_part, report_json, report_taken_json,
};
use crate::error::ApiError;
use crate::input::{parse_spec, read_game, GameFile};
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
    /// The contest task's input the game was built from (an IOI 2001 "Score" board, a POI
    /// 1999 "Polygons" triangulation), when it is one: `spec` is then a position of that
    /// game, as the replies write it, read back against the board.
    pub board: Option<GameFile>,
    /// The page's word for this request, to ask `/api/progress` how far it has got.
    pub ticket: Option<String>,
}

/// The reply, as JSON:
///
/// ```text
/// {"position": spec where the engine is to move (or you, after a move that keeps the turn),
///  "your_move": {"spec", "name", "outcome", "remoteness", "judgement"} | absent,
///  "report": the report of `position` (the engine's view),
///  "best_move": the engine's move (spec) | null, "best_move_name", "explanation": one line | null,
///  "next": the report you move from (your moves, each with its value) | null,
///  "played": [each move made in this request, yours then the engine's:
///             {"by": "you" | "grundy", "spec", "name", "outcome" and "remoteness" (its
///              value for whoever made it), "scores"?, "winning": "you" | "grundy" | null,
///              "cell"?: [row, column], "board"?: the part of a sum,
///              "claims"?: [[row, column], …] the cells it takes for its mover (boxes)}],
///  "taken": [you, grundy] (score games),
///  "over": bool, "winner": "you" | "grundy" | "draw" | null, "message": line | null}
/// ```
///
/// Reports of a board (`report`, `next`) carry its `picture` and each move's `cell`
/// ([`crate::board`]), the points taken shown where the board keeps them (Kalah's
/// stores); a sum's, each part's `boards` and each move's `board` (the part it
/// changes) with its `cell` there. `played` is the game's value history, one entry a move: the page
/// appends it to what it keeps.
///
/// In a score game the reports count what is already taken: `scores` are the final
/// totals `[mover, other]` under best play, and each move's outcome follows them.
pub fn reply(req: &PlayRequest, limits: &Limits<'_>, config: &Config) -> Result<Value, ApiError> {
    let from = match &req.board {
        None => parse_spec(&req.spec)?,
        Some(file) => {
            let task = crate::input::task(&file.task)?;
            let start = read_game(task, &file.text, "the board", config)?;
            if req.spec.len() > config.max_body {
                return Err(ApiError::bad_request("the position is too long"));
            }
            start.at(&req.spec).map_err(|e| ApiError::spec(&e))?
        }
    };
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
    let mut played = Vec::new();
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
        let view = game.view();
        let listed = view.moves.iter().any(|v| v.to == mv.to);
        let mut valued = valued(&view, &mv);
        let mut judgement = game.judge(&mv);
        // Unlisted: judged once its position is solved, by the match as it was before.
        let before = (!listed).then(|| game.clone());
        let from = game.position().clone();
        game.play(&mv, limits)
            .map_err(|e| solve_error(e, &mv.spec))?;
        if let Some(before) = before {
            valued = value_from_child(valued, game.report());
            judgement = before.judge(&valued);
        }
        played.push(entry(Winner::You, &from, &valued));
        out["your_move"] = json!({
            "spec": mv.spec,
            "name": mv.name,
            "outcome": valued.outcome,
            "remoteness": valued.remoteness,
            "scores": valued.scores,
            "judgement": judgement,
        });
    }
    let position = game.position().clone();
    let view = game.view();
    out["position"] = json!(position.to_string());
    out["report"] = report_taken_json(&position, &view, config.max_drawn, taken_by_player(&game));
    if let Some(done) = game
        .engine_move(limits)
        .map_err(|e| solve_error(e, &position.to_string()))?
    {
        played.push(entry(Winner::Grundy, &position, &valued(&view, &done.mv)));
        out["best_move"] = json!(done.mv.spec);
        out["best_move_name"] = json!(done.mv.name);
        out["explanation"] = json!(done.explanation);
    }
    if game.human_to_move() && game.verdict().is_none() {
        out["next"] = report_taken_json(
            game.position(),
            &game.view(),
            config.max_drawn,
            taken_by_player(&game),
        );
    }
    if let Some(verdict) = game.verdict() {
        out["over"] = json!(true);
        out["winner"] = json!(verdict.winner);
        out["message"] = json!(verdict.message);
        if out["next"].is_null() && game.human_to_move() {
            out["next"] = report_taken_json(
                game.position(),
                &game.view(),
                config.max_drawn,
                taken_by_player(&game),
            );
        }
    }
    out["played"] = Value::Array(played);
    if let Some(t) = game.taken() {
        out["taken"] = json!(t);
    }
    Ok(out)
}

/// The points each player has taken so far, by player, in a score game of one part:
/// the match keeps them as `[you, grundy]`, and you are the player to move when it is
/// your turn.
fn taken_by_player(game: &Match) -> Option<ByPlayer<i64>> {
    let [you, grundy] = game.taken()?;
    let part = game.position().single()?;
    let mover = part.family.to_move(&part.position);
    let yours = if game.human_to_move() {
        mover
    } else {
        mover.other()
    };
    Some(match yours {
        Player::First => ByPlayer {
            first: you,
            second: grundy,
        },
        Player::Second => ByPlayer {
            first: grundy,
            second: you,
        },
    })
}

/// Move `m` as `view` (the match's view of the position it is made from) values it: for a
/// score game, with what is already taken.
fn valued(view: &Report, m: &Move) -> Move {
    view.moves
        .iter()
        .find(|v| v.to == m.to)
        .cloned()
        .unwrap_or_else(|| m.clone())
}

/// A move the report did not list (a position with more moves than it lists), valued by
/// the position it led to once played: its outcome for the mover, and one more move to the
/// end. A score game's unlisted move keeps no value.
fn value_from_child(mut m: Move, child: &Report) -> Move {
    if child.scores.is_none() {
        m.outcome = if m.again {
            child.outcome
        } else {
            child.outcome.negate()
        };
        m.remoteness = child.remoteness.map(|r| r.saturating_add(1));
    }
    m
}

/// One entry of the value history: move `m` made `by` one side from `from`, its value
/// for that side, and who is winning after it.
fn entry(by: Winner, from: &Spec, m: &Move) -> Value {
    let other = if by == Winner::You {
        Winner::Grundy
    } else {
        Winner::You
    };
    let winning = match m.outcome {
        Outcome::Win => Some(by),
        Outcome::Loss => Some(other),
        Outcome::Draw => None,
    };
    let mut e = json!({
        "by": by,
        "spec": m.spec,
        "name": m.name,
        "outcome": m.outcome,
        "remoteness": m.remoteness,
        "winning": winning,
    });
    if let Some(s) = m.scores {
        e["scores"] = json!(s);
    }
    if let Some((cell, board)) = move_cell(from, m) {
        e["cell"] = cell;
        if let Some(k) = board {
            e["board"] = json!(k);
        }
    }
    if let Some(part) = move_part(from, m) {
        e["part"] = part;
    }
    if let Some(claims) = move_claims(from, m) {
        e["claims"] = claims;
    }
    e
}

/// `POST /api/olympiad`: a contest task's input, read by the library's reader of the task,
/// as a game: `{"task", "name", "input": the text read (gunzipped: what `/api/play` takes
/// back as `"board": {"task", "text"}`), "spec": the start,
/// "report": its report with the figure | null, "not_solved": why | null, "rule": the
/// special method's line | null}`. A start too large for the general method within the
/// limits still gets its rule (POI 1999 "Polygons" at any size), `not_solved`, and its
/// `figure` (or `not_drawn`) with no moves.
pub fn olympiad(
    task: grundy::contest::Task,
    text: &str,
    name: &str,
    limits: &Limits<'_>,
    config: &Config,
) -> Result<Value, ApiError> {
    let start = read_game(task, text, name, config)?;
    let rule = task.rule(text).ok().flatten();
    let mut out = json!({
        "task": task.name(),
        "name": name,
        "input": text,
        "spec": start.to_string(),
        "report": null,
        "not_solved": null,
        "rule": rule,
    });
    match grundy::report::solve(&start, limits) {
        Ok(report) => out["report"] = report_json(&start, &report, config.max_drawn),
        Err(e) if e.is_too_large() && out["rule"].is_string() => {
            out["not_solved"] = json!(format!("not solved by the general method: {e}"));
            // Drawn all the same, with no moves.
            if let Value::Object(drawn) = figure_json(&start, config.max_drawn) {
                for (k, v) in drawn {
                    out[k] = v;
                }
            }
        }
        Err(e) => return Err(ApiError::solve(e, name, config.timeout)),
    }
    Ok(out)
}
