//! `POST /api/graph`: a game on a graph from an uploaded or pasted file — the POI green game
//! (Büchi), a PGSolver arena (parity; or reachability, safety, Büchi, co-Büchi on its even
//! priorities), a plain digraph (token game) — solved, with the arena for drawing when it is
//! small and the solution file to download.

use std::str::FromStr as _;

use axum::http::StatusCode;
use grundy::explore::Control;
use grundy::graph::objectives::{self, Objective};
use grundy::graph::parity::{self, ParityAlgorithm};
use grundy::graph::token::{self, Loopy};
use grundy::graph::{self as g, Arena, Format, GREEN};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::input::{bad_file, decode, file_name, GraphQuery};
use crate::Config;

/// What player 0 wants, as the request names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    Objective(Objective),
    Parity,
    Token,
}

impl Goal {
    fn parse(text: &str) -> Result<Goal, ApiError> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "reach" | "reachability" => Goal::Objective(Objective::Reachability),
            "safety" => Goal::Objective(Objective::Safety),
            "buchi" | "büchi" => Goal::Objective(Objective::Buchi),
            "cobuchi" | "co-buchi" | "co-büchi" => Goal::Objective(Objective::CoBuchi),
            "parity" => Goal::Parity,
            "token" => Goal::Token,
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown objective `{other}`: expected buchi, cobuchi, reach, safety, parity or token"
                )))
            }
        })
    }

    fn name(self) -> &'static str {
        match self {
            Goal::Objective(Objective::Reachability) => "reach",
            Goal::Objective(Objective::Safety) => "safety",
            Goal::Objective(Objective::Buchi) => "buchi",
            Goal::Objective(Objective::CoBuchi) => "cobuchi",
            Goal::Parity => "parity",
            Goal::Token => "token",
        }
    }
}

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
    if format == Format::Digraph {
        // A digraph's header alone can ask for 2^28 vertices: refuse before allocating.
        if let Some(n) = text
            .split_ascii_whitespace()
            .next()
            .and_then(|t| t.parse::<u64>().ok())
        {
            if n > config.max_positions {
                return Err(ApiError::too_large(format!(
                    "too large: {name} declares {n} vertices; the limit here is {}",
                    config.max_positions
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
        None | Some("") => match format {
            Format::Poi => Goal::Objective(Objective::Buchi),
            Format::PgSolver => Goal::Parity,
            Format::Digraph => Goal::Token,
        },
        Some(o) => Goal::parse(o)?,
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
    let solve_error = |e: grundy::Error| ApiError::solve(e, &name, config.timeout);
    match goal {
        Goal::Parity => {
            if format == Format::Digraph {
                return Err(ApiError::bad_request(
                    "a plain digraph has no owners or priorities: only the objective token applies",
                ));
            }
            // Max-even parity: player 0 wins where the highest priority seen again and
            // again is even. The accepting ring marks the even priorities.
            let even: Vec<bool> = arena.priorities().iter().map(|&p| p % 2 == 0).collect();
            let solution = parity::solve_parity(&arena, ParityAlgorithm::Zielonka, control)
                .map_err(solve_error)?;
            objective_json(
                &mut out,
                &arena,
                format,
                (&solution.winner, &solution.strategy),
                &even,
                drawable,
            )?;
            out["solution_name"] = json!(format!("{name}.sol"));
            Ok(out)
        }
        Goal::Token => {
            let succ = arena.successor_csr();
            let reverse = arena.reverse();
            let labels = token::outcomes(succ, reverse, control).map_err(solve_error)?;
            let gamma = token::generalized_grundy(succ, reverse, control).map_err(solve_error)?;
            let outcome: Vec<&str> = arena
                .vertices()
                .map(|v| labels.value(v).outcome().as_str())
                .collect();
            let [won, lost, drawn] = labels.counts();
            let remoteness: Vec<Option<u32>> = arena
                .vertices()
                .map(|v| labels.value(v).remoteness())
                .collect();
            let grundy: Vec<Value> = gamma.iter().map(loopy_json).collect();
            // The three per-vertex arrays, as `grundy graph --json` gives them, and the
            // vertices' ids in the file, which they are indexed along.
            out["ids"] = json!(arena
                .vertices()
                .map(|v| arena.file_id(v))
                .collect::<Vec<_>>());
            out["outcome"] = json!(outcome);
            out["remoteness"] = json!(remoteness);
            out["grundy"] = json!(grundy);
            out["counts"] = json!({"win": won, "loss": lost, "draw": drawn});
            let mut table = String::from("vertex outcome remoteness grundy\n");
            for v in arena.vertices() {
                let value = labels.value(v);
                let rem = value
                    .remoteness()
                    .map_or("-".to_string(), |r| r.to_string());
                table.push_str(&format!(
                    "{} {} {rem} {}\n",
                    arena.file_id(v),
                    value.outcome(),
                    gamma[v as usize]
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
                            "remoteness": remoteness[v as usize],
                            "grundy": grundy[v as usize],
                        })
                    },
                    |_, _| false,
                );
            }
            Ok(out)
        }
        Goal::Objective(objective) => {
            if format == Format::Digraph {
                return Err(ApiError::bad_request(
                    "a plain digraph has no owners or colours: only the objective token applies",
                ));
            }
            let accepting: Vec<bool> = arena
                .priorities()
                .iter()
                .map(|&p| {
                    if format == Format::Poi {
                        p == GREEN
                    } else {
                        p % 2 == 0
                    }
                })
                .collect();
            let solution =
                objectives::solve(&arena, objective, &accepting, control).map_err(solve_error)?;
            objective_json(
                &mut out,
                &arena,
                format,
                (&solution.winner, &solution.strategy),
                &accepting,
                drawable,
            )?;
            out["solution_name"] = json!(format!("{name}.sol"));
            Ok(out)
        }
    }
}

fn objective_json(
    out: &mut Value,
    arena: &Arena,
    format: Format,
    (winner, strategy): (&[u8], &[Option<u32>]),
    accepting: &[bool],
    drawable: bool,
) -> Result<(), ApiError> {
    // The strategy shown is the winner's own: a move at each vertex its owner wins.
    let chosen: Vec<Option<u32>> = arena
        .vertices()
        .map(|v| strategy[v as usize].filter(|_| arena.owner(v) == winner[v as usize]))
        .collect();
    let ids = |p: u8| -> Vec<u64> {
        arena
            .vertices()
            .filter(|&v| winner[v as usize] == p)
            .map(|v| arena.file_id(v))
            .collect()
    };
    let (won_0, won_1) = (ids(0), ids(1));
    out["counts"] = json!([won_0.len(), won_1.len()]);
    out["won_by_0"] = json!(won_0);
    out["won_by_1"] = json!(won_1);
    out["strategy"] = chosen
        .iter()
        .enumerate()
        .filter_map(|(v, s)| s.map(|w| json!([arena.file_id(v as u32), arena.file_id(w)])))
        .collect();
    // Parity solutions (the green game is one) are re-checked by the library's independent
    // checker before they are shown.
    if out["objective"] == "parity" || (format == Format::Poi && out["objective"] == "buchi") {
        g::verify_parity(arena, winner, strategy).map_err(|e| {
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

/// The arena for the page to draw: vertices (file id, name, and what `extra` adds) and
/// edges between vertex indices, marked where a winner's strategy takes them.
fn drawing(
    arena: &Arena,
    extra: impl Fn(u32) -> Value,
    strategy: impl Fn(u32, u32) -> bool,
) -> Value {
    let vertices: Vec<Value> = arena
        .vertices()
        .map(|v| {
            let mut o = extra(v);
            o["id"] = json!(arena.file_id(v));
            if let Some(name) = arena.name(v) {
                o["name"] = json!(name);
            }
            o
        })
        .collect();
    let mut edges = Vec::new();
    for v in arena.vertices() {
        for &w in arena.successors(v) {
            edges.push(json!({"from": v, "to": w, "strategy": strategy(v, w)}));
        }
    }
    json!({"vertices": vertices, "edges": edges, "start": arena.start()})
}

fn loopy_json(v: &Loopy) -> Value {
    match v {
        Loopy::Finite(g) => json!(g),
        Loopy::Infinite(_) => json!(v.to_string()),
    }
}
