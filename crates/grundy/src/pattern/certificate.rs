//! Strategies as certificates: a proposed strategy — a decision function from positions
//! to moves — checked by the general method on the tree it allows: the strategy's player
//! makes the one move it names, the opponent every legal move, and every play must end
//! as claimed. What was checked is reported (the positions of that tree).
//!
//! - [`certify_win`]: an impartial game in normal play, won by the strategy's player
//!   against every reply (the mirror strategy of the round table, a rule's decision
//!   function).
//! - [`mirror`]: the symmetry strategy of the lecture notes, for any impartial family
//!   with components: restore a position whose components pair off.
//! - [`parity`]: IOI 1996 "A Game": the first player of an even row takes every number at
//!   odd places or every number at even places, whichever sum is larger; the total that
//!   guarantees against every reply, next to the optimum.

use rustc_hash::FxHashMap;

use crate::explore::Control;
use crate::games::{Family, Pos};
use crate::Error;

/// What a strategy's check covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Certificate {
    /// Positions of the tree the strategy allows, each checked once.
    pub positions: u64,
}

/// Checks that `strategy` wins `family` from `root` in normal play against every reply:
/// the strategy's player moves first if `strategy_first`, and at each of its turns makes
/// the move `strategy` names (which must be legal); a play the opponent cannot continue
/// is won.
///
/// # Errors
/// [`Error::Unsupported`] naming the first position where the strategy fails (no move,
/// an illegal move, or a play it loses); [`Error::TooLarge`] past the position budget.
pub fn certify_win(
    family: &dyn Family,
    root: &Pos,
    strategy_first: bool,
    strategy: &dyn Fn(&Pos) -> Option<Pos>,
    control: &Control<'_>,
) -> Result<Certificate, Error> {
    let mut seen: FxHashMap<(Pos, bool), ()> = FxHashMap::default();
    let mut stack = vec![(root.clone(), strategy_first)];
    let mut children = Vec::new();
    let write = |p: &Pos| {
        let mut s = String::new();
        family.write_position(p, &mut s);
        format!("{}({s})", family.name())
    };
    while let Some((pos, mine)) = stack.pop() {
        if seen.insert((family.canonical(&pos), mine), ()).is_some() {
            continue;
        }
        if seen.len() as u64 > control.max_positions {
            return Err(Error::over(
                crate::Limit::Positions,
                format!(
                    "the strategy's tree has more than {} positions",
                    control.max_positions
                ),
                None,
                None,
            ));
        }
        children.clear();
        family.moves(&pos, &mut children);
        if mine {
            if children.is_empty() {
                return Err(Error::Unsupported(format!(
                    "the strategy's player is left without a move at {}",
                    write(&pos)
                )));
            }
            let Some(next) = strategy(&pos) else {
                return Err(Error::Unsupported(format!(
                    "the strategy names no move at {}",
                    write(&pos)
                )));
            };
            if !family.is_move(&pos, &next) {
                return Err(Error::Unsupported(format!(
                    "the strategy's move from {} to {} is not legal",
                    write(&pos),
                    write(&next)
                )));
            }
            stack.push((next, false));
        } else {
            stack.extend(children.drain(..).map(|c| (c, true)));
        }
    }
    Ok(Certificate {
        positions: seen.len() as u64,
    })
}

/// The symmetry strategy: the first move (in the family's order) after which every
/// component appears an even number of times (two equal games cancel), or `None`.
pub fn mirror(family: &dyn Family) -> impl Fn(&Pos) -> Option<Pos> + '_ {
    move |pos: &Pos| {
        let mut children = Vec::new();
        family.moves(pos, &mut children);
        children.into_iter().find(|c| {
            let mut parts: Vec<Pos> = family
                .components(c)
                .iter()
                .map(|p| family.canonical(p))
                .filter(|p| !p.is_empty())
                .collect();
            parts.sort();
            parts
                .chunks(2)
                .all(|pair| pair.len() == 2 && pair[0] == pair[1])
        })
    }
}

/// The parity strategy of IOI 1996 "A Game", checked: the class of places it takes, the
/// total it guarantees against every reply, and the optimum by interval minimax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parity {
    /// `"odd"` or `"even"`: the places (1-based) the first player takes.
    pub places: &'static str,
    /// The least total the strategy ends with, over every reply (the sum of its class).
    pub guarantee: i64,
    /// The most the opponent can end with against it.
    pub opponent: i64,
    /// The first player's total under best play by both (interval minimax).
    pub optimum: i64,
    /// Positions of the tree the strategy allows (row ranges), checked.
    pub positions: u64,
}

/// The parity strategy on an even row: `None` for an odd or empty row (where it does not
/// apply).
#[must_use]
pub fn parity(row: &[i64]) -> Option<Parity> {
    let n = row.len();
    if n == 0 || n % 2 == 1 {
        return None;
    }
    let odd: i64 = row.iter().step_by(2).sum();
    let even: i64 = row.iter().skip(1).step_by(2).sum();
    // 0-based index parity of the places taken: odd places are indices 0, 2, …
    let (places, want) = if odd >= even { ("odd", 0) } else { ("even", 1) };
    // The least the strategy's player ends with over every reply, on the tree it
    // allows: its turn at ranges of even length, the opponent's at odd ones.
    let mut least: FxHashMap<(usize, usize), (i64, i64)> = FxHashMap::default();
    fn walk(
        row: &[i64],
        want: usize,
        l: usize,
        r: usize,
        memo: &mut FxHashMap<(usize, usize), (i64, i64)>,
    ) -> (i64, i64) {
        if l == r {
            return (0, 0);
        }
        if let Some(&v) = memo.get(&(l, r)) {
            return v;
        }
        let v = if (r - l).is_multiple_of(2) {
            // The ends differ in parity: take the one of the chosen class.
            if l % 2 == want {
                let (a, b) = walk(row, want, l + 1, r, memo);
                (a + row[l], b)
            } else {
                let (a, b) = walk(row, want, l, r - 1, memo);
                (a + row[r - 1], b)
            }
        } else {
            let (a1, b1) = walk(row, want, l + 1, r, memo);
            let (a2, b2) = walk(row, want, l, r - 1, memo);
            let left = (a1, b1 + row[l]);
            let right = (a2, b2 + row[r - 1]);
            // The worst for the strategy: its least total, then the opponent's most.
            if (left.0, -left.1) <= (right.0, -right.1) {
                left
            } else {
                right
            }
        };
        memo.insert((l, r), v);
        v
    }
    let (guarantee, opponent) = walk(row, want, 0, n, &mut least);
    // The optimum, by interval minimax on margins.
    let mut best = vec![vec![0i64; n + 1]; n + 1];
    for len in 1..=n {
        for l in 0..=n - len {
            let r = l + len;
            best[l][r] = (row[l] - best[l + 1][r]).max(row[r - 1] - best[l][r - 1]);
        }
    }
    let total: i64 = row.iter().sum();
    let optimum = (total + best[0][n]) / 2;
    Some(Parity {
        places,
        guarantee,
        opponent,
        optimum,
        positions: least.len() as u64,
    })
}

impl Parity {
    /// The comparison in words.
    #[must_use]
    pub fn explain(&self) -> String {
        format!(
            "the parity strategy: taking every number at {} places guarantees {} to {} against every reply (checked on {} positions of the tree it allows); best play gets {}{}",
            self.places,
            self.guarantee,
            self.opponent,
            self.positions,
            self.optimum,
            if self.optimum > self.guarantee {
                format!(", {} more: the optimum also takes numbers of the other places when the opponent's replies allow", self.optimum - self.guarantee)
            } else {
                " — the same".into()
            }
        )
    }
}
