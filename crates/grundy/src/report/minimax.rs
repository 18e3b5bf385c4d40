//! Score games: every position explored, then minimax on the two totals (negamax on the
//! margin), with moves that keep the turn counted for the same player.

use super::{Analysis, Context, Method, Move, Report};
use crate::explore::{explore, Control};
use crate::game::{Best, Game, Outcome, ScoreGame, Step};
use crate::games::{Family, Kind, Pos, Ranked};
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
        // A family's bound is an upper bound, often far above what is reached: only
        // past the slack the retrograde method also allows is exploring not even tried
        // (the exploration itself stops at the budget of positions).
        let bound = part.family.bound(&part.position);
        let cap = ctx.limits.control.max_positions;
        if bound.positions > u128::from(cap).saturating_mul(super::retrograde::BOUND_SLACK) {
            return Err(super::over_positions(
                format!(
                    "`{}` has up to {} positions (limit {cap}): an upper bound, more than are reached",
                    part.family.name(),
                    bound.positions
                ),
                bound.positions,
                Some(bound.positions.saturating_mul(48)),
            ));
        }
        if let Some(ranked) = part.family.ranking(&part.position) {
            if let Some(margins) =
                minimax_ranked(&*part.family, &*ranked, &part.position, ctx.limits)?
            {
                return ranked_report(ctx, &*ranked, &margins).map(Some);
            }
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

/// Minimax values by rank, as [`minimax_ranked`] computes them: for each rank reached from
/// the root, the margin of the player to move there and the moves to the end along the
/// first best move; kept by a caller that plays from many positions of one game (the
/// contest mode) without solving again.
#[derive(Debug, Clone)]
pub struct RankMargins {
    margin: Vec<i128>,
    /// Moves to the end along the first best move; `u32::MAX` where the pass did not reach.
    depth: Vec<u32>,
    reached: u64,
}

impl RankMargins {
    /// The margin of the player to move at `rank` (what they get more than the opponent
    /// from there on) and the moves to the end; `None` if the pass did not reach it.
    #[must_use]
    pub fn value(&self, rank: u64) -> Option<(i128, u32)> {
        let r = usize::try_from(rank).ok()?;
        let depth = *self.depth.get(r)?;
        (depth != u32::MAX).then(|| (self.margin[r], depth))
    }

    /// The positions reached.
    #[must_use]
    pub fn reached(&self) -> u64 {
        self.reached
    }

    /// The first best move from `rank` (its place in [`Ranked::moves`], its rank and the
    /// points `[gain, gift]` it takes), `None` where the game ends or the rank was not
    /// reached.
    #[must_use]
    pub fn best(&self, ranked: &dyn Ranked, rank: u64) -> Option<(usize, u64, [i64; 2])> {
        let (margin, _) = self.value(rank)?;
        let mut children = Vec::new();
        ranked.moves(rank, &mut children);
        children.iter().enumerate().find_map(|(i, &c)| {
            let points = ranked.points(rank, c)?;
            let (after, _) = self.value(c)?;
            (step(points).value(after) == margin).then_some((i, c, points))
        })
    }
}

/// The negamax step of a move taking `[gain, gift]` (the turn passes).
fn step([gain, gift]: [i64; 2]) -> Step<i128> {
    Step {
        keeps: false,
        gain: i128::from(gain) - i128::from(gift),
    }
}

/// Minimax on a score game's ranks, with no position built: one pass down from the root's
/// rank marks what is reachable, one pass up values each reached rank from its children
/// (each move through [`Step`], the best by [`Best`], as [`crate::solve::minimax`]). 20
/// bytes a rank up to the root's; O(1) a position where the family's ranking reads moves
/// and points off the ranks ([`Ranked::points`]), as `ends`' intervals do.
///
/// `Ok(None)` where it does not apply: the ranking offers no points or does not descend,
/// a move does not lower the rank, or moves may keep the turn (the general path then
/// answers).
///
/// # Errors
/// [`Error::TooLarge`] past `limits`' positions or memory, or when the table cannot be
/// had; [`Error::Cancelled`] when the control's flag is raised; [`Error::Overflow`].
pub fn minimax_ranked(
    family: &dyn Family,
    ranked: &dyn Ranked,
    root: &Pos,
    limits: &super::Limits<'_>,
) -> Result<Option<RankMargins>, Error> {
    const CHECK_EVERY: u64 = 1 << 16;
    const BYTES: u64 = 20;
    let control: &Control<'_> = &limits.control;
    if family.keeps_turn() || !ranked.descending() {
        return Ok(None);
    }
    let top = ranked.rank(root);
    let mut children = Vec::new();
    ranked.moves(top, &mut children);
    if children
        .first()
        .is_some_and(|&c| ranked.points(top, c).is_none())
    {
        return Ok(None);
    }
    let ranks = top.saturating_add(1);
    let limit = control.max_positions;
    if ranks > limit || usize::try_from(ranks).is_err() {
        return Err(super::over_positions(
            format!("up to {ranks} positions (limit {limit})"),
            ranks.into(),
            Some(u128::from(ranks) * u128::from(BYTES)),
        ));
    }
    if ranks.saturating_mul(BYTES) > limits.max_memory {
        let bytes = u128::from(ranks) * u128::from(BYTES);
        return Err(Error::over(
            crate::Limit::Memory,
            format!(
                "a table of {ranks} positions past the memory limit of {} MiB",
                limits.max_memory >> 20
            ),
            Some(bytes),
            Some(bytes),
        ));
    }
    let len = ranks as usize;
    let mut depth = crate::memory::filled(len, u32::MAX, "a rank table")?;
    let mut margin = crate::memory::filled(len, 0i128, "a rank table")?;
    // Down: mark what the root reaches (depth 0 until valued).
    depth[top as usize] = 0;
    let mut reached = 0u64;
    for r in (0..=top).rev() {
        if r % CHECK_EVERY == 0 {
            control.check()?;
            control.report("explore", reached);
        }
        if depth[r as usize] == u32::MAX {
            continue;
        }
        reached += 1;
        if !ranked.moves_below(r, &mut children) {
            return Ok(None);
        }
        for &c in &children {
            depth[c as usize] = 0;
        }
    }
    // Up: every child is valued before its parent.
    for r in 0..=top {
        if r % CHECK_EVERY == 0 {
            control.check()?;
            control.report("label", r);
        }
        let ri = r as usize;
        if depth[ri] == u32::MAX {
            continue;
        }
        // Every move goes down: checked on the way down.
        ranked.moves_below(r, &mut children);
        if children.is_empty() {
            margin[ri] = i128::from(family.final_gain(&ranked.unrank(r)));
            continue;
        }
        let mut best = Best::new();
        for &c in &children {
            let Some(points) = ranked.points(r, c) else {
                return Ok(None);
            };
            let ci = c as usize;
            let here = step(points)
                .checked_value(margin[ci])
                .ok_or(Error::Overflow)?;
            best.offer(here, depth[ci].saturating_add(1));
        }
        let (m, d) = best.get().expect("a rank with moves");
        margin[ri] = m;
        depth[ri] = d;
    }
    Ok(Some(RankMargins {
        margin,
        depth,
        reached,
    }))
}

/// The report of a root solved by [`minimax_ranked`]: its moves in the family's order,
/// the totals read along the first best moves.
fn ranked_report(
    ctx: &Context<'_, '_>,
    ranked: &dyn Ranked,
    margins: &RankMargins,
) -> Result<Report, Error> {
    let part = ctx.spec.single().expect("one part");
    let top = ranked.rank(&part.position);
    // The points both players take from `r` on, along the first best moves, to the end.
    let taken = |mut r: u64| -> i128 {
        let mut taken = 0i128;
        while let Some((_, c, [gain, gift])) = margins.best(ranked, r) {
            taken += i128::from(gain) + i128::from(gift);
            r = c;
        }
        taken + i128::from(part.family.final_gain(&ranked.unrank(r)))
    };
    let totals = |margin: i128, taken: i128| [(taken + margin) / 2, (taken - margin) / 2];
    let mut children = Vec::new();
    ctx.game.moves(&ctx.root, &mut children);
    let mut ranks = Vec::new();
    if part.family.terminal(&part.position).is_none() {
        ranked.moves(top, &mut ranks);
    }
    let reached = |r: u64| {
        margins
            .value(r)
            .ok_or_else(|| Error::Unsupported("a move the pass did not reach".into()))
    };
    let mut moves = Vec::new();
    for (child, &c) in children.iter().zip(&ranks) {
        let (after, depth) = reached(c)?;
        let points = ranked
            .points(top, c)
            .ok_or_else(|| Error::Unsupported("a move without points".into()))?;
        let margin = step(points).value(after);
        let both = i128::from(points[0]) + i128::from(points[1]);
        moves.push((
            child.clone(),
            totals(margin, both + taken(c)),
            Some(depth + 1),
        ));
    }
    let (margin, depth) = reached(top)?;
    scored_report(
        ctx,
        totals(margin, taken(top)),
        Some(depth),
        moves,
        margins.reached,
        Method::Minimax,
    )
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
        remoteness,
        winning_moves,
        scores: Some(fit(root)?),
        moves,
        positions: Some(positions),
        ..Report::new(ctx.spec.to_string(), outcome, method)
    })
}
