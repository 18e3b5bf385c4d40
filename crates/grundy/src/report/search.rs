//! The searches where the general method refuses for size: the value of a board and of
//! each of its moves. A family that offers the exact search ([`crate::games::Exact`])
//! is answered by it, with remoteness (unless the limits ask for a weak answer), a score
//! game (dots and boxes) with the two totals from its margin; any other win/loss/draw
//! board by the proof search ([`crate::search`]), without remoteness — a weak solution.
//! Impartial games too large to explore
//! are judged by their Grundy values or a proved rule, whose refusals say what they would
//! need.

use super::{Analysis, Context, Method, Move, Report, MAX_LISTED_MOVES};
use crate::game::{Game, Outcome};
use crate::games::{Exact as Exact_, Kind, Part, Pos};
use crate::search::{exact, search, Options};
use crate::{Error, Limit};

pub(super) struct Search;

/// The exact search, tried before exploring: it answers a board whose family offers it
/// when the bound on the positions passes what an exploration may make (a board that fits
/// is left to the general method, which counts its positions).
pub(super) struct Exact;

impl Analysis for Exact {
    fn name(&self) -> &'static str {
        "exact search"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        let Some((part, _)) = two_player_board(ctx) else {
            return Ok(None);
        };
        if ctx.limits.max_exact_nodes == 0 {
            return Ok(None);
        }
        let bound = part.family.bound(&part.position).positions;
        if bound <= u128::from(ctx.limits.control.max_positions) {
            return Ok(None);
        }
        match part.family.exact() {
            Some(exact) => by_exact(ctx, &*exact).map(Some),
            None => Ok(None),
        }
    }
}

/// The spec's one board and its kind, where the searches play it: a partizan or score
/// game.
fn two_player_board<'s>(ctx: &Context<'s, '_>) -> Option<(&'s Part, Kind)> {
    let part = ctx.spec.single()?;
    let kind = part.family.kind();
    matches!(kind, Kind::Partizan | Kind::Score).then_some((part, kind))
}

/// The value of a one-part spec's position alone by its family's exact search, when it
/// offers one (a tablebase of the limits that holds it answers first: [`super::evaluate`]).
pub(super) fn exact_value(
    spec: &crate::games::Spec,
    limits: &super::Limits<'_>,
) -> Result<Option<super::Evaluation>, Error> {
    let Some(part) = spec.single() else {
        return Ok(None);
    };
    if limits.max_exact_nodes == 0 {
        return Ok(None);
    }
    let Some(exact) = part.family.exact() else {
        return Ok(None);
    };
    let table = table_for(limits, &part.family.name(), &*exact)?;
    let (found, nodes) = exact.solve(
        &part.position,
        &table,
        &exact_options(limits),
        &limits.control,
    )?;
    Ok(Some(super::Evaluation {
        outcome: found.outcome(),
        remoteness: found.remoteness(),
        method: Method::Search,
        nodes: Some(nodes),
    }))
}

/// The most entries of an exact search's table within `limits` (8 bytes each).
pub(super) fn table_entries(limits: &super::Limits<'_>) -> u64 {
    limits.exact_table / 8
}

/// The table of a game's exact search: the caller's, kept in its cache, or a fresh one.
pub(super) fn table_for(
    limits: &super::Limits<'_>,
    game: &str,
    exact: &dyn Exact_,
) -> Result<std::sync::Arc<exact::Table>, Error> {
    let make = || exact.table(table_entries(limits));
    match limits.search_cache {
        Some(cache) => cache.table(game, make),
        None => make().map(std::sync::Arc::new),
    }
}

pub(super) fn exact_options(limits: &super::Limits<'_>) -> exact::Options {
    exact::Options {
        max_nodes: limits.max_exact_nodes,
        table_entries: 0,
        threads: limits.search_threads,
        weak: limits.weak,
        ..exact::Options::default()
    }
}

impl Analysis for Search {
    fn name(&self) -> &'static str {
        "search"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        let Some((part, kind)) = two_player_board(ctx) else {
            return Ok(None);
        };
        if ctx.limits.max_exact_nodes > 0 {
            if let Some(exact) = part.family.exact() {
                return by_exact(ctx, &*exact).map(Some);
            }
        }
        // The proof search knows won, drawn and lost, not margins.
        if kind == Kind::Score || ctx.limits.max_search_nodes == 0 {
            return Ok(None);
        }
        let options = Options {
            max_nodes: ctx.limits.max_search_nodes,
            memory: ctx.limits.search_memory,
            ..Options::default()
        };
        let searched = match search(&ctx.game, &ctx.root, &options, &ctx.limits.control) {
            Ok(s) => s,
            Err(e) => return Err(after_refusal(ctx, e, Limit::SearchNodes)),
        };
        let mut children = Vec::new();
        if ctx.game.terminal(&ctx.root).is_none() {
            ctx.game.moves(&ctx.root, &mut children);
        }
        let mut moves = Vec::new();
        let mut winning_moves = Vec::new();
        for (child, &outcome) in children.iter().zip(&searched.moves) {
            if outcome == Outcome::Win {
                winning_moves.push(ctx.game.spec(child).to_string());
            }
            if moves.len() < MAX_LISTED_MOVES {
                moves.push(Move {
                    outcome,
                    ..ctx.typed_move(child)
                });
            }
        }
        Ok(Some(Report {
            weak: true,
            winning_moves,
            moves_truncated: children.len() > moves.len(),
            moves,
            ..search_report(ctx, searched.outcome, None, searched.nodes)
        }))
    }
}

/// A search's report of the board: its value and the nodes visited, no moves yet; method
/// `search`, no count of positions.
fn search_report(
    ctx: &Context<'_, '_>,
    outcome: Outcome,
    remoteness: Option<u32>,
    nodes: u64,
) -> Report {
    Report {
        remoteness,
        nodes: Some(nodes),
        ..Report::new(ctx.spec.to_string(), outcome, Method::Search)
    }
}

/// A search's error, after what the exhaustive method would have needed; a refusal for
/// size is past `limit`, the search's budget of nodes (what a caller raises to let it
/// run longer).
fn after_refusal(ctx: &Context<'_, '_>, e: Error, limit: Limit) -> Error {
    match e {
        Error::TooLarge { what, need } | Error::OverLimit { what, need, .. } => Error::OverLimit {
            limit,
            what: match &ctx.refused {
                Some(before) => format!("{before}; {what}"),
                None => what,
            },
            need,
            wanted: None,
        },
        e => e,
    }
}

/// The board and each of its moves valued by the family's exact search.
fn by_exact(ctx: &mut Context<'_, '_>, exact: &dyn Exact_) -> Result<Report, Error> {
    let limits = ctx.limits;
    let name = ctx.spec.parts[0].family.name();
    let table = table_for(limits, &name, exact)?;
    let options = exact_options(limits);
    let mut children = Vec::new();
    if ctx.game.terminal(&ctx.root).is_none() {
        ctx.game.moves(&ctx.root, &mut children);
    }
    let boards: Vec<Pos> = children.iter().map(|c| c[0].clone()).collect();
    let analysis = exact
        .analyse(&ctx.root[0], &boards, &table, &options, &limits.control)
        .map_err(|e| after_refusal(ctx, e, Limit::ExactNodes))?;
    let family = &ctx.spec.parts[0].family;
    if family.kind() == Kind::Score && !options.weak {
        if let Some(left) = family.points_left(&ctx.root[0]) {
            return scored(ctx, left, &children, &analysis);
        }
    }
    let mut moves = Vec::new();
    let mut winning_moves = Vec::new();
    for (child, found) in children.iter().zip(&analysis.moves) {
        if found.outcome() == Outcome::Win {
            winning_moves.push(ctx.game.spec(child).to_string());
        }
        if moves.len() < MAX_LISTED_MOVES {
            moves.push(Move {
                outcome: found.outcome(),
                remoteness: found.remoteness(),
                ..ctx.typed_move(child)
            });
        }
    }
    Ok(Report {
        weak: options.weak,
        winning_moves,
        moves_truncated: children.len() > moves.len(),
        moves,
        ..search_report(
            ctx,
            analysis.root.outcome(),
            analysis.root.remoteness(),
            analysis.nodes,
        )
    })
}

/// A score game's report from the exact search's margins: each split into the two totals
/// from here on by the points left (`(left ± margin) / 2`: every point is taken by
/// someone), as the minimax and the tablebase report them.
fn scored(
    ctx: &Context<'_, '_>,
    left: i64,
    children: &[Vec<Pos>],
    analysis: &exact::Analysis,
) -> Result<Report, Error> {
    let split = |margin: i32| -> [i128; 2] {
        let (left, margin) = (i128::from(left), i128::from(margin));
        [(left + margin) / 2, (left - margin) / 2]
    };
    let moves = children
        .iter()
        .zip(&analysis.moves)
        .map(|(child, found)| (child.clone(), split(found.score), found.remoteness()))
        .collect();
    let mut report = super::minimax::scored_report(
        ctx,
        split(analysis.root.score),
        analysis.root.remoteness(),
        moves,
        0,
        Method::Search,
    )?;
    report.positions = None;
    report.nodes = Some(analysis.nodes);
    Ok(report)
}
