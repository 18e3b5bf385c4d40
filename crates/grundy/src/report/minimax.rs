//! Score games: every position explored, then minimax on the two totals (negamax on the
//! margin), with moves that keep the turn counted for the same player.

use super::{too_large, Analysis, Context, Method, Move, Report};
use crate::explore::explore;
use crate::game::{Game, Outcome, ScoreGame};
use crate::games::{Kind, Pos};
use crate::solve::minimax;
use crate::Error;

pub(super) struct Minimax;

impl Analysis for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        let Some(part) = ctx.spec.single() else {
            return Ok(None);
        };
        if part.family.kind() != Kind::Score {
            return Ok(None);
        }
        let bound = part.family.bound(&part.position);
        let cap = ctx.limits.control.max_positions;
        if bound.positions > u128::from(cap) {
            return Err(too_large(
                format!(
                    "`{}` has up to {} positions (limit {cap})",
                    part.family.name(),
                    bound.positions
                ),
                bound.positions.saturating_mul(48),
            ));
        }
        super::retrograde::Estimate::of(ctx.spec, ctx.limits).check(ctx.limits, true)?;
        let game = &ctx.game;
        let explored = explore(game, &ctx.root, &ctx.limits.control)?;
        let graph = &explored.graph;
        let margins = minimax(game, &explored)?;
        let positions = &explored.positions;
        // The points both players take from vertex `v` on, along its first best move,
        // then that child's, to the end.
        let taken = |mut v: usize| -> i128 {
            let mut taken = 0i128;
            loop {
                let pos = &positions[v];
                let successors = graph.successors(v as u32);
                if successors.is_empty() || game.terminal(pos).is_some() {
                    return taken + i128::from(game.final_gain(pos));
                }
                let (c, child) = successors
                    .iter()
                    .map(|&c| (c as usize, &positions[c as usize]))
                    .find(|&(c, child)| {
                        game.step(pos, child).value(margins.margin[c]) == margins.margin[v]
                    })
                    .expect("the first best move reaches the margin");
                taken += i128::from(game.gain(pos, child)) + i128::from(game.gift(pos, child));
                v = c;
            }
        };
        // The totals [mover, other] of a margin and the points both players take.
        let totals = |margin: i128, taken: i128| [(taken + margin) / 2, (taken - margin) / 2];
        let mut children = Vec::new();
        game.moves(&ctx.root, &mut children);
        let moves = children
            .iter()
            .zip(graph.successors(0))
            .map(|(child, &c)| {
                let c = c as usize;
                let after = &positions[c];
                let margin = game.step(&ctx.root, after).value(margins.margin[c]);
                let points = i128::from(game.gain(&ctx.root, after))
                    + i128::from(game.gift(&ctx.root, after));
                (
                    child.clone(),
                    totals(margin, points + taken(c)),
                    Some(margins.depth[c] + 1),
                )
            })
            .collect();
        scored_report(
            ctx,
            totals(margins.margin[0], taken(0)),
            Some(margins.depth[0]),
            moves,
            explored.len() as u64,
            Method::Minimax,
        )
        .map(Some)
    }
}

/// The report of a score game's position from its final totals `[mover, other]` from
/// here on under best play, and each move's (with moves to the end, where known): one
/// builder for every method that values score games (minimax, tablebase reads).
pub(super) fn scored_report(
    ctx: &Context<'_, '_>,
    root: [i128; 2],
    remoteness: Option<u32>,
    children: Vec<(Vec<Pos>, [i128; 2], Option<u32>)>,
    positions: u64,
    method: Method,
) -> Result<Report, Error> {
    let fit = |s: [i128; 2]| -> Result<[i64; 2], Error> {
        Ok([
            i64::try_from(s[0]).map_err(|_| Error::Overflow)?,
            i64::try_from(s[1]).map_err(|_| Error::Overflow)?,
        ])
    };
    let best = root[0] - root[1];
    let outcome = Outcome::of_margin(best);
    let mut moves = Vec::new();
    for (child, t, depth) in &children {
        let margin = t[0] - t[1];
        moves.push(Move {
            outcome: Outcome::of_margin(margin),
            remoteness: *depth,
            scores: Some(fit(*t)?),
            worse_by: Some(i64::try_from(best - margin).map_err(|_| Error::Overflow)?),
            ..ctx.typed_move(child)
        });
    }
    let winning_moves = if outcome == Outcome::Win {
        moves
            .iter()
            .filter(|m| m.worse_by == Some(0))
            .map(|m| m.spec.clone())
            .collect()
    } else {
        Vec::new()
    };
    Ok(Report {
        weak: false,
        spec: ctx.spec.to_string(),
        outcome,
        remoteness,
        winning_moves,
        grundy: None,
        components: Vec::new(),
        scores: Some(fit(root)?),
        moves,
        moves_truncated: false,
        method,
        positions: Some(positions),
        nodes: None,
        rule: None,
        winning_moves_truncated: false,
    })
}
