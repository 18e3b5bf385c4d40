//! `POST /api/graph`: a game on a graph from an uploaded or pasted file — the POI green game
//! (Büchi), a PGSolver arena (parity; or reachability, safety, Büchi, co-Büchi on its even
//! priorities), a plain digraph (token game) — solved, with the arena for drawing when it is
//! small and the solution file to download.

use std::str::FromStr as _;

use axum::http::StatusCode;
use grundy::explore::Control;
use grundy::game::Outcome;
use grundy::graph::answer::{self, Answer, AnswerError, Goal, Options, Regions};
use grundy::graph::objectives::{Objective, Solution};
use grundy::graph::token::Loopy;
use grundy::graph::{self as g, Arena, Format};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::input::{bad_file, decode, file_name, GraphQuery};
use crate::Config;

/// Solves the uploaded game; see the README for the JSON.
pub fn solve(
    q: &GraphQuery,
    bytes: Vec<u8>,
    control: &Control<'_>,
    config: &Config,
) -> Result<Value, ApiError> {
    let name = file_name(q.name.as_deref());
    let text = decode(bytes, &name, config)?;
    if text.trim().is_empty() {
        return Err(bad_file(format!("{name} is empty: give a game file")));
    }
    let format = match q.format.as_deref().map(str::trim) {
        None | Some("") | Some("auto") => g::detect(&text),
        Some(f) => Format::from_str(f).map_err(|e| ApiError::bad_request(e.to_string()))?,
    };
    let options = Options {
        algorithm: match q.algorithm.as_deref().map(str::trim) {
            None | Some("") => Options::default().algorithm,
            Some(a) => a
                .parse()
                .map_err(|e: g::UnknownAlgorithm| ApiError::bad_request(e.to_string()))?,
        },
        ..Options::default()
    };
    if format == Format::Digraph {
        // A digraph's header alone can ask for 2^28 vertices: refuse before allocating.
        if let Some(n) = text
            .split_ascii_whitespace()
            .next()
            .and_then(|t| t.parse::<u64>().ok())
        {
            if n > config.max_positions {
                return Err(ApiError::too_large(format!(
                    "too large: {name} declares {n} vertices; the limit here is {}; {}",
                    config.max_positions,
                    crate::error::limit_hint(grundy::Limit::Positions, Some(n.into()))
                )));
            }
        }
    }
    let arena = g::parse(&text, format).map_err(|e| {
        let mut err = bad_file(format!(
            "{name}, line {}, column {}: {} (read as {format})",
            e.line, e.column, e.kind
        ));
        err.at = Some((e.line, e.column));
        err
    })?;
    let goal = match q.objective.as_deref().map(str::trim) {
        None | Some("") => Goal::of_format(format),
        Some(o) => o
            .parse::<Goal>()
            .map_err(|e| ApiError::bad_request(e.to_string()))?,
    };
    let mut out = json!({
        "name": name,
        "format": format.name(),
        "objective": goal.name(),
        "vertices": arena.len(),
        "edges": arena.edge_count(),
        "players": if format == Format::Poi { ["Ann", "Billy"] } else { ["player 0", "player 1"] },
    });
    let drawable = arena.len() <= config.max_drawn && arena.edge_count() <= 8 * config.max_drawn;
    if !drawable {
        out["not_drawn"] = json!(format!(
            "{} vertices and {} edges: too many to draw here (at most {} vertices); the counts and the solution file tell all",
            arena.len(),
            arena.edge_count(),
            config.max_drawn
        ));
    }
    let answer = answer::solve(&arena, format, goal, &options, control).map_err(|e| match e {
        AnswerError::Question(q) => ApiError::bad_request(q.to_string()),
        AnswerError::Solve(e) => ApiError::solve(e, &name, config.timeout),
    })?;
    match answer {
        Answer::Token(values) => {
            let outcome: Vec<&str> = values.outcome.iter().map(|o| o.as_str()).collect();
            let count = |o: Outcome| values.outcome.iter().filter(|&&x| x == o).count();
            let grundy: Vec<Value> = values.grundy.iter().map(loopy_json).collect();
            // The three per-vertex arrays, as `grundy graph --json` gives them, and the
            // vertices' ids in the file, which they are indexed along.
            out["file_ids"] = json!(arena
                .vertices()
                .map(|v| arena.file_id(v))
                .collect::<Vec<_>>());
            out["outcome"] = json!(outcome);
            out["remoteness"] = json!(values.remoteness);
            out["grundy"] = json!(grundy);
            out["counts"] = json!({
                "win": count(Outcome::Win),
                "loss": count(Outcome::Loss),
                "draw": count(Outcome::Draw),
            });
            let mut table = String::from("vertex outcome remoteness grundy\n");
            for v in arena.vertices() {
                let i = v as usize;
                let rem = values.remoteness[i].map_or("-".to_string(), |r| r.to_string());
                table.push_str(&format!(
                    "{} {} {rem} {}\n",
                    arena.file_id(v),
                    values.outcome[i],
                    values.grundy[i]
                ));
            }
            out["solution"] = json!(table);
            out["solution_name"] = json!(format!("{name}.values.txt"));
            if drawable {
                out["arena"] = drawing(
                    &arena,
                    |v| {
                        json!({
                            "outcome": outcome[v as usize],
                            "remoteness": values.remoteness[v as usize],
                            "grundy": grundy[v as usize],
                        })
                    },
                    |_, _| false,
                );
            }
        }
        Answer::Regions(solution) => {
            // The accepting ring marks F: the even priorities (green in a POI file), which
            // for parity are those player 0 likes.
            let accepting = answer::accepting(&arena, &options.accepting);
            regions_json(
                &mut out, &arena, format, goal, &solution, &accepting, drawable,
            )?;
            out["solution_name"] = json!(format!("{name}.sol"));
        }
    }
    Ok(out)
}

fn regions_json(
    out: &mut Value,
    arena: &Arena,
    format: Format,
    goal: Goal,
    solution: &Solution,
    accepting: &[bool],
    drawable: bool,
) -> Result<(), ApiError> {
    let winner = &solution.winner;
    // The strategy shown is the winner's own: a move at each vertex its owner wins.
    let chosen = answer::winners_moves(arena, solution);
    let regions = Regions::new(arena, solution, true);
    out["counts"] = json!([regions.won_by_0.len(), regions.won_by_1.len()]);
    out["won_by_0"] = json!(regions.won_by_0);
    out["won_by_1"] = json!(regions.won_by_1);
    out["strategy"] = json!(regions.strategy);
    // Parity solutions (the green game is one) are re-checked by the library's independent
    // checker before they are shown.
    if goal == Goal::Parity || (format == Format::Poi && goal == Goal::Objective(Objective::Buchi))
    {
        g::verify_parity(arena, winner, &solution.strategy).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the solution failed the independent check (a bug; please report it): {e}"),
            )
        })?;
        out["verified"] = json!(true);
    }
    out["solution"] = json!(match format {
        Format::Poi => g::write_poi_solution(arena, winner, &chosen),
        _ => g::write_pgsolver_solution(arena, winner, &chosen).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("cannot write the solution: {e}"),
            )
        })?,
    });
    if drawable {
        out["arena"] = drawing(
            arena,
            |v| {
                json!({
                    "owner": arena.owner(v),
                    "priority": arena.priority(v),
                    "accepting": accepting[v as usize],
                    "winner": winner[v as usize],
                })
            },
            |v, w| chosen[v as usize] == Some(w),
        );
    }
    Ok(())
}

/// The arena for the page to draw: vertices (their `file_id`, name, and what `extra` adds)
/// and edges, marked where a winner's strategy takes them. An edge's ends and the start are
/// the arena's dense indices (`from_index`, `to_index`, `start_index`: places in
/// `vertices`), never file ids; every file id in the answer says so or is one of the
/// library's [`FileId`](g::FileId) lists (`won_by_0`, `won_by_1`, `strategy`).
fn drawing(
    arena: &Arena,
    extra: impl Fn(u32) -> Value,
    strategy: impl Fn(u32, u32) -> bool,
) -> Value {
    let vertices: Vec<Value> = arena
        .vertices()
        .map(|v| {
            let mut o = extra(v);
            o["file_id"] = json!(arena.file_id(v));
            if let Some(name) = arena.name(v) {
                o["name"] = json!(name);
            }
            o
        })
        .collect();
    let mut edges = Vec::new();
    for v in arena.vertices() {
        for &w in arena.successors(v) {
            edges.push(json!({"from_index": v, "to_index": w, "strategy": strategy(v, w)}));
        }
    }
    json!({"vertices": vertices, "edges": edges, "start_index": arena.start()})
}

fn loopy_json(v: &Loopy) -> Value {
    match v {
        Loopy::Finite(g) => json!(g),
        Loopy::Infinite(_) => json!(v.to_string()),
    }
}
