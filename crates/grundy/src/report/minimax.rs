//! Score games: every position explored, then minimax on the two totals (negamax on the
//! margin), with moves that keep the turn counted for the same player.

use super::{too_large, Analysis, Context, Method, Move, Report};
use crate::explore::explore;
use crate::game::{Game, Outcome, ScoreGame};
use crate::games::{Kind, Pos};
use crate::solve::reverse_topological_order;
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
        let order = reverse_topological_order(graph, &graph.try_reverse()?)?;
        // Per position: the totals [mover, other] from there on under best play, and the
        // moves left.
        let n = graph.len();
        let mut totals = vec![[0i128; 2]; n];
        let mut depth = vec![0u32; n];
        let after = |from: &Vec<crate::games::Pos>, c: usize, totals: &[[i128; 2]]| -> [i128; 2] {
            let child = &explored.positions[c];
            let gain = i128::from(game.gain(from, child));
            let gift = i128::from(game.gift(from, child));
            let [a, b] = totals[c];
            if game.alternates() || game.to_move(child) != game.to_move(from) {
                [gain + b, gift + a]
            } else {
                [gain + a, gift + b]
            }
        };
        for &v in &order {
            let v = v as usize;
            let pos = &explored.positions[v];
            let successors = graph.successors(v as u32);
            if successors.is_empty() || game.terminal(pos).is_some() {
                totals[v] = [i128::from(game.final_gain(pos)), 0];
                continue;
            }
            let mut best: Option<([i128; 2], u32)> = None;
            for &c in successors {
                let t = after(pos, c as usize, &totals);
                if best.is_none_or(|(b, _)| t[0] - t[1] > b[0] - b[1]) {
                    best = Some((t, depth[c as usize] + 1));
                }
            }
            let (t, d) = best.expect("a position with moves");
            totals[v] = t;
            depth[v] = d;
        }
        let root = totals[0];
        let mut children = Vec::new();
        game.moves(&ctx.root, &mut children);
        let moves = children
            .iter()
            .zip(graph.successors(0))
            .map(|(child, &c)| {
                let c = c as usize;
                (
                    child.clone(),
                    after(&ctx.root, c, &totals),
                    Some(depth[c] + 1),
                )
            })
            .collect();
        scored_report(
            ctx,
            root,
            Some(depth[0]),
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
