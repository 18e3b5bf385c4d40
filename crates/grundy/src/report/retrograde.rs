//! The general method: explore every reachable position and label it won, lost or drawn
//! with its remoteness (the one retrograde engine; right on cycles). Ranked families are
//! explored by rank, with no position stored and no forward graph kept; the others
//! through a hash map of positions.

use super::{Analysis, Context, Limits, Method, Move, Play, Report, MAX_LISTED_MOVES};
use crate::engine::Word;
use crate::explore::{explore, explore_ranked, EDGES_PER_POSITION};
use crate::game::{Best, Game, Outcome, Value};
use crate::games::{GrundySource, Kind, Spec};
use crate::misere::Misere;
use crate::solve::{label_by_degree, label_explored, value_of, word_of};
use crate::{Error, Limit};

pub(super) struct Retrograde;

/// How much looser than the position budget a family's bound may be before exploring is
/// not even tried (bounds are upper bounds, often far above what is reached).
pub(super) const BOUND_SLACK: u128 = 64;

/// What exploring a spec whole may take at most, from its families' bounds, before any
/// of it is taken.
#[derive(Debug, Clone, Copy)]
pub(super) struct Estimate {
    /// Positions reachable (an upper bound).
    pub(super) positions: u128,
    /// Moves from the root.
    pub(super) root_moves: u128,
    /// Moves from all positions together (an upper bound).
    pub(super) edges: u128,
    /// Bytes an exploration through a hash map keeps, within the position and move budget:
    /// each position twice (the list and the map's key), the moves forward and reversed,
    /// and the children of the root listed at once.
    pub(super) bytes: u128,
}

impl Estimate {
    pub(super) fn of(spec: &Spec, limits: &Limits<'_>) -> Estimate {
        let positions = spec
            .parts
            .iter()
            .map(|p| p.family.bound(&p.position).positions)
            .fold(1u128, u128::saturating_mul);
        // A move of a sum changes one part: the moves of a position add up over the parts.
        let moves = spec
            .parts
            .iter()
            .map(|p| p.family.bound(&p.position).moves)
            .fold(0u128, u128::saturating_add);
        let root_moves = spec
            .parts
            .iter()
            .map(|p| p.family.move_count(&p.position))
            .fold(0u128, u128::saturating_add);
        let edges = positions.saturating_mul(moves);
        // A position of the sum is a `Vec` of parts (24 bytes) on the heap, each part a `Pos`
        // (inline up to 4 words, else on the heap too; no reachable position is longer
        // than the root in the families whose positions are long: a row of numbers, a
        // board). It is kept twice, in the list of positions (which may have doubled past
        // what it holds) and as the hash map's key (with the id and a control byte, in a
        // table up to twice as large as its entries); then 32 bytes a position of offsets,
        // degrees and labels. Measured on `subtraction[1,2](1900000)`: 516 MB, estimated
        // 505 MB.
        const MALLOC: u128 = 16;
        let heap: u128 = MALLOC
            + spec
                .parts
                .iter()
                .map(|p| {
                    let inline = std::mem::size_of::<crate::games::Pos>() as u128;
                    if p.position.len() > p.position.inline_size() {
                        inline + MALLOC + 8 * p.position.len() as u128
                    } else {
                        inline
                    }
                })
                .sum::<u128>();
        let list = 24 + heap + 24;
        let map = heap + 2 * (24 + 4 + 1);
        let per_position = list + map + 32;
        let cap = u128::from(limits.control.max_positions);
        let kept = positions.min(cap);
        let kept_edges = kept
            .saturating_mul(moves)
            .min(cap.saturating_mul(u128::from(EDGES_PER_POSITION)));
        Estimate {
            positions,
            root_moves,
            edges,
            bytes: kept
                .saturating_mul(per_position)
                .saturating_add(kept_edges.saturating_mul(8))
                .saturating_add(root_moves.saturating_mul(per_position)),
        }
    }

    /// Refuses, with the figures, what no exploration within `limits` can hold: more
    /// moves from the root than the move budget, or (`hashed`: explored through a hash
    /// map of positions) more memory than the limit.
    pub(super) fn check(&self, limits: &Limits<'_>, hashed: bool) -> Result<(), Error> {
        let max_moves = limits
            .control
            .max_positions
            .saturating_mul(EDGES_PER_POSITION);
        if self.root_moves > u128::from(max_moves) {
            return Err(Error::over(
                Limit::Positions,
                format!(
                    "{} from this position alone, past the {} an exploration may keep",
                    crate::number::count(self.root_moves, "move", "moves"),
                    crate::number::count(max_moves.into(), "move", "moves"),
                ),
                None,
                Some(self.root_moves.div_ceil(u128::from(EDGES_PER_POSITION))),
            ));
        }
        if hashed && self.bytes > u128::from(limits.max_memory) {
            return Err(Error::over(
                Limit::Memory,
                format!(
                    "exploring keeps up to {} in memory, past the limit of {}",
                    crate::number::count(
                        self.positions.min(limits.control.max_positions.into()),
                        "position",
                        "positions"
                    ),
                    crate::human_bytes(limits.max_memory)
                ),
                Some(self.bytes),
                Some(self.bytes),
            ));
        }
        Ok(())
    }
}

/// Whether `spec` is answered without exploring it — by a proved rule, or by the Grundy
/// values of its parts from a formula, the sequence engine or a table within the limits
/// (none of them explores) — so that exploring it is only worth it when surely within the
/// budget (it then adds the remoteness).
fn answered_without_exploring(spec: &Spec, play: Play, limits: &Limits<'_>) -> bool {
    if play == Play::Misere {
        // Misère play has no Grundy values: only a proved misère rule answers.
        return spec
            .single()
            .is_some_and(|p| p.family.misere_rule().is_some());
    }
    if spec.single().is_some_and(|p| p.family.rule().is_some()) {
        return true;
    }
    if !spec.is_impartial() {
        return false;
    }
    let (mut bytes, mut work) = (0u128, 0u128);
    for part in &spec.parts {
        if matches!(part.family.grundy(), GrundySource::None) {
            return false;
        }
        let components = part.family.components(&part.position);
        let Some(cost) = crate::values::cost(&*part.family, &components, limits.max_proof_heaps)
        else {
            return false;
        };
        bytes = bytes.saturating_add(cost.bytes);
        work = work.saturating_add(cost.work);
    }
    bytes <= u128::from(limits.max_memory) && work <= limits.max_work
}

impl Analysis for Retrograde {
    fn name(&self) -> &'static str {
        "retrograde"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        if ctx
            .spec
            .parts
            .iter()
            .any(|p| p.family.kind() == Kind::Score)
        {
            return Ok(None);
        }
        let cap = u128::from(ctx.limits.control.max_positions);
        let estimate = Estimate::of(ctx.spec, ctx.limits);
        let bound = estimate.positions;
        let max_moves = cap.saturating_mul(u128::from(EDGES_PER_POSITION));
        // A ranked family keeps no position and no forward move (its rank table is bounded
        // up front): only an exploration through a hash map keeps them all.
        // Misère play explores through a hash map (the ranked passes are normal play's).
        let ranked = ctx.play == Play::Normal
            && ctx
                .spec
                .single()
                .is_some_and(|p| p.family.ranking(&p.position).is_some());
        if !ranked
            && (bound > cap || estimate.edges > max_moves)
            && answered_without_exploring(ctx.spec, ctx.play, ctx.limits)
        {
            return Err(super::over_positions(
                format!(
                    "up to {} positions and {} moves to explore (limits {cap} and {max_moves})",
                    super::sci(bound),
                    super::sci(estimate.edges)
                ),
                bound.max(estimate.edges.div_ceil(u128::from(EDGES_PER_POSITION))),
                None,
            ));
        }
        if bound > cap.saturating_mul(BOUND_SLACK) {
            return Err(super::over_positions(
                format!(
                    "up to {} positions to explore (limit {cap}): an upper bound, more than are reached",
                    super::sci(bound)
                ),
                bound,
                None,
            ));
        }
        estimate.check(ctx.limits, !ranked)?;
        let labelled = label(ctx)?;
        report(ctx, labelled, Method::Retrograde).map(Some)
    }
}

/// The report of a labelled position: its value and its children's, in move order.
pub(super) fn report(
    ctx: &mut Context<'_, '_>,
    labelled: Labelled,
    method: Method,
) -> Result<Report, Error> {
    {
        let value = labelled.root;
        // Grundy values, where the oracles can be had (impartial games).
        // (Grundy values are normal play's: none under misère play.)
        let (grundy, components, oracles) = if ctx.spec.is_impartial() && ctx.play == Play::Normal {
            match ctx.components() {
                Ok((components, total)) => (Some(total), components, Some(ctx.oracles()?)),
                Err(e) if e.is_too_large() || matches!(e, Error::Unsupported(_)) => {
                    (None, Vec::new(), None)
                }
                Err(e) => return Err(e),
            }
        } else {
            (None, Vec::new(), None)
        };
        if let Some(g) = grundy {
            debug_assert_eq!(
                value.outcome() == Outcome::Win,
                g != 0,
                "Sprague–Grundy and retrograde analysis disagree on {}",
                ctx.spec
            );
        }
        let mut children = Vec::new();
        if ctx.game.terminal(&ctx.root).is_none() {
            ctx.game.moves(&ctx.root, &mut children);
        }
        let mut moves: Vec<Move> = Vec::new();
        let mut winning_moves = Vec::new();
        for (i, child) in children.iter().enumerate() {
            let child_value = labelled.children[i];
            let again = ctx.game.keeps_turn(&ctx.root, child);
            let mine = child_value.through(again);
            if mine.outcome() == Outcome::Win {
                winning_moves.push(ctx.game.spec(child).to_string());
            }
            if moves.len() < MAX_LISTED_MOVES {
                moves.push(Move {
                    outcome: mine.outcome(),
                    remoteness: mine.remoteness(),
                    grundy: oracles
                        .as_ref()
                        .map(|o| Context::value_of(o, &ctx.game, child)),
                    ..ctx.typed_move(child)
                });
            }
        }
        Ok(Report {
            remoteness: value.remoteness(),
            winning_moves,
            grundy,
            components: if components.len() > 1 {
                components
            } else {
                Vec::new()
            },
            moves_truncated: children.len() > moves.len(),
            moves,
            positions: Some(labelled.positions),
            up_to_symmetry: labelled.symmetric,
            ..Report::new(ctx.spec.to_string(), value.outcome(), method)
        })
    }
}

/// The values of every rank a descending pass reached from a root, one word a rank:
/// what [`label_ranked`] returns, for a caller that plays from many positions of one
/// game (the contest mode) without solving again.
#[derive(Debug, Clone)]
pub struct RankValues {
    /// The engine's words: [`Word::EXCLUDED`] where the pass did not reach, decided where
    /// it valued the position.
    words: Vec<Word>,
    reached: u64,
}

impl RankValues {
    /// The value of a rank for the player to move there; `None` if the pass did not
    /// reach it from the root.
    #[must_use]
    pub fn value(&self, rank: u64) -> Option<Value> {
        let w = *self.words.get(usize::try_from(rank).ok()?)?;
        w.is_decided().then(|| value_of(w))
    }

    /// The positions reached.
    #[must_use]
    pub fn reached(&self) -> u64 {
        self.reached
    }
}

/// The general method on a ranked game whose every move lowers the rank: one pass down
/// from the root's rank marks what is reachable, one pass up values each reached
/// position from its children, which are all valued before it. No graph is kept: 4
/// bytes per rank up to the root's (and one more per rank for the mover when moves may
/// keep the turn), and the moves generated twice.
///
/// `Ok(None)` if some move does not lower the rank after all, or a draw is declared
/// (the general path then answers).
///
/// # Errors
/// [`Error::TooLarge`] past the position budget or for a remoteness past 2^30;
/// [`Error::Cancelled`].
pub fn label_ranked(
    family: &dyn crate::games::Family,
    ranked: &dyn crate::games::Ranked,
    root: &crate::games::Pos,
    control: &crate::explore::Control<'_>,
) -> Result<Option<RankValues>, Error> {
    const CHECK_EVERY: u64 = 1 << 16;
    let limit = control.max_positions;
    let top = ranked.rank(root);
    if top >= limit.saturating_mul(16) || usize::try_from(top).is_err() {
        let ranks = u128::from(top) + 1;
        return Err(super::over_positions(
            format!("a rank table of {ranks} entries"),
            ranks.div_ceil(16),
            Some(ranks * 4),
        ));
    }
    let keeps_turn = family.keeps_turn();
    // Unreached ranks are outside the game; reached ones open until valued.
    let mut word = crate::memory::filled(top as usize + 1, Word::EXCLUDED, "a rank table")?;
    // The player to move at each reached rank, when moves may keep the turn.
    let mut mover: Vec<u8> = if keeps_turn {
        crate::memory::filled(top as usize + 1, 0, "a rank table")?
    } else {
        Vec::new()
    };
    word[top as usize] = Word::UNCOUNTED;
    let mut children = Vec::new();
    let mut reached = 0u64;
    for r in (0..=top).rev() {
        if r % CHECK_EVERY == 0 {
            control.check()?;
            control.report("explore", reached);
        }
        if word[r as usize] != Word::UNCOUNTED {
            continue;
        }
        reached += 1;
        if reached > limit {
            return Err(Error::over(
                Limit::Positions,
                format!("more than {limit} positions"),
                None,
                None,
            ));
        }
        if keeps_turn {
            mover[r as usize] = family.to_move(&ranked.unrank(r)).index() as u8;
        }
        if !ranked.moves_below(r, &mut children) {
            return Ok(None);
        }
        for &c in &children {
            word[c as usize] = Word::UNCOUNTED;
        }
    }
    for r in 0..=top {
        if r % CHECK_EVERY == 0 {
            control.check()?;
            control.report("label", r);
        }
        if word[r as usize] != Word::UNCOUNTED {
            continue;
        }
        let value = match ranked.terminal(r) {
            Some(crate::game::Outcome::Win) => Value::Win(0),
            Some(crate::game::Outcome::Loss) => Value::Loss(0),
            // A declared draw does not fit this pass.
            Some(crate::game::Outcome::Draw) => return Ok(None),
            None => {
                children.clear();
                ranked.moves(r, &mut children);
                // The best move as the mover here sees it, the turn kept where a child's
                // mover is the same.
                let mut best = Best::new();
                for &c in &children {
                    let same = keeps_turn && mover[c as usize] == mover[r as usize];
                    let mine = value_of(word[c as usize]).through(same);
                    best.offer(mine.preference(), mine);
                }
                best.get().map_or(Value::Loss(0), |(_, v)| v)
            }
        };
        // No draws in an acyclic game: every reached position is decided.
        word[r as usize] =
            word_of(value)?.ok_or(Error::Unsupported("a draw in a descending pass".into()))?;
    }
    Ok(Some(RankValues {
        words: word,
        reached,
    }))
}

fn label_descending(
    family: &dyn crate::games::Family,
    ranked: &dyn crate::games::Ranked,
    root: &crate::games::Pos,
    ctx: &Context<'_, '_>,
) -> Result<Option<Labelled>, Error> {
    let Some(values) = label_ranked(family, ranked, root, &ctx.limits.control)? else {
        return Ok(None);
    };
    let top = ranked.rank(root);
    let mut root_children = Vec::new();
    if family.terminal(root).is_none() {
        family.moves(root, &mut root_children);
    }
    let value = |r: u64| {
        values
            .value(r)
            .expect("every child of the root was reached")
    };
    Ok(Some(Labelled {
        root: value(top),
        children: root_children
            .iter()
            .map(|c| value(ranked.rank(c)))
            .collect(),
        positions: values.reached,
        symmetric: ranked.symmetric(),
    }))
}

/// The root's value, the value of each of its children in move order, and the count.
pub(super) struct Labelled {
    pub(super) root: Value,
    pub(super) children: Vec<Value>,
    pub(super) positions: u64,
    /// Whether `positions` counts them up to symmetry ([`crate::games::Ranked::symmetric`]).
    pub(super) symmetric: bool,
}

fn label(ctx: &Context<'_, '_>) -> Result<Labelled, Error> {
    let control = &ctx.limits.control;
    if ctx.play == Play::Misere {
        // The one rule of misère play: a position without moves is won.
        let game = Misere(ctx.game.clone());
        let explored = explore(&game, &ctx.root, control)?;
        let positions = explored.len() as u64;
        let solution = label_explored(&game, explored, control)?;
        let children = solution.moves(0).map(|(_, v)| v).collect();
        return Ok(Labelled {
            root: solution.root_value(),
            children,
            positions,
            symmetric: false,
        });
    }
    if let Some(part) = ctx.spec.single() {
        if let Some(ranked) = part.family.ranking(&part.position) {
            if ranked.descending() {
                if let Some(done) = label_descending(&*part.family, &*ranked, &part.position, ctx)?
                {
                    return Ok(done);
                }
            }
            let family = &part.family;
            let root = ranked.rank(&part.position);
            let explored = explore_ranked(
                ranked.size(),
                root,
                |r, out| ranked.moves(r, out),
                |r| ranked.terminal(r).is_some(),
                control,
            )?;
            let mover: Option<Vec<u8>> = family.keeps_turn().then(|| {
                explored
                    .ranks
                    .iter()
                    .map(|&r| family.to_move(&ranked.unrank(r)).index() as u8)
                    .collect()
            });
            let labels = label_by_degree(
                |v| u64::from(explored.degrees[v as usize]),
                &explored.reverse,
                |v| ranked.terminal(explored.ranks[v as usize]),
                mover.as_deref(),
                control,
            )?;
            let mut children = Vec::new();
            if family.terminal(&part.position).is_none() {
                family.moves(&part.position, &mut children);
            }
            let values = children
                .iter()
                .map(|c| {
                    let id = explored
                        .id(ranked.rank(c))
                        .expect("every child of the root was explored");
                    labels.value(id)
                })
                .collect();
            return Ok(Labelled {
                root: labels.value(0),
                children: values,
                positions: explored.len() as u64,
                symmetric: ranked.symmetric(),
            });
        }
    }
    let explored = explore(&ctx.game, &ctx.root, control)?;
    let positions = explored.len() as u64;
    let solution = label_explored(&ctx.game, explored, control)?;
    let children = solution.moves(0).map(|(_, v)| v).collect();
    Ok(Labelled {
        root: solution.root_value(),
        children,
        positions,
        symmetric: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Control;
    use crate::games::SumGame;

    /// The descending pass values every position as the retrograde engine values the
    /// explored game: the same outcome and remoteness, on families whose ranks fall.
    #[test]
    fn the_descending_pass_agrees_with_the_engine() {
        for text in [
            "chomp[3x4]",
            "chomp[4x4]",
            "multiple[2](21)",
            "multiple[3](17)",
        ] {
            let spec: Spec = text.parse().unwrap();
            let part = spec.single().unwrap();
            let ranked = part.family.ranking(&part.position).unwrap();
            assert!(ranked.descending(), "{text}");
            let control = Control::default();
            let values = label_ranked(&*part.family, &*ranked, &part.position, &control)
                .unwrap()
                .expect("every move lowers the rank");
            let (game, root) = SumGame::new(&spec).unwrap();
            let solution = crate::solve::solve(&game, &root, &control).unwrap();
            assert!(solution.labels.value(0).remoteness().unwrap() > 1, "{text}");
            for (v, pos) in solution.explored.positions.iter().enumerate() {
                let rank = ranked.rank(&pos[0]);
                let want = solution.labels.value(v as u32);
                assert_eq!(values.value(rank), Some(want), "{text}: {pos:?}");
            }
        }
    }
}
