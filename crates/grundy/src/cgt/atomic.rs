//! The atomic weight calculus on canonical forms (Berlekamp, Conway and Guy, *Winning
//! Ways*, chapter 8; Siegel, *Combinatorial Game Theory*, II.7; CGSuite's `AtomicWeight`).
//!
//! **Atomic weight** ([`atomic_weight`]), as CGSuite defines it: the `W` with
//! `G ∼ W·↑`, the two alike in every sum with any `X` and a remote star (`o(G + X + *m) =
//! o(W·↑ + X + *m)` for all large `m`). Only infinitesimals can have one. The *naive*
//! weight is `n` for `x + n·↑ + *m`, else `{aw(G^L) − 2 | aw(G^R) + 2}` unless that is
//! an integer; then, against the remote star `☆` (a nimber larger than every nimber
//! among `G`'s followers), the greatest integer `n ⧏ aw(G^R) + 2` for every `G^R` when
//! `G > ☆`, the least `n ⧐ aw(G^L) − 2` for every `G^L` when `G < ☆`, and the integer
//! itself when `G` is confused with `☆` or equal to it. An all-small game (every number
//! among its followers 0) always has its naive weight as its atomic weight (Winning
//! Ways, chapter 8); another infinitesimal has it when `G − W·↑` (Norton's product)
//! lies between `−ε` and `ε`, `ε = ↑* + (*N : −1)`, `N` the least power of two at least
//! the remote star's (CGSuite's test: `{1|^^||^}` has weight 2, `{1|^^^||^}` none).
//!
//! Each operation is memoised within a call, so each follower is worked on once.

use rustc_hash::FxHashMap;

use super::number::Dyadic;
use super::reduce::{is_infinitesimal, number_up_star};
use super::temper::copies;
use super::value::{GameId, Table};
use crate::Error;

/// Whether every number among `g`'s followers (`g` included) is 0: an all-small game
/// (Conway, *On Numbers and Games*, theorem 57).
#[must_use]
pub fn is_all_small(table: &Table, g: GameId) -> bool {
    let mut seen = FxHashMap::default();
    all_small(table, g, &mut seen)
}

fn all_small(table: &Table, g: GameId, seen: &mut FxHashMap<GameId, bool>) -> bool {
    if let Some(&known) = seen.get(&g) {
        return known;
    }
    let ok = match table.number_of(g) {
        Some(x) => x == Dyadic::ZERO,
        None => {
            table.left(g).iter().all(|&l| all_small(table, l, seen))
                && table.right(g).iter().all(|&r| all_small(table, r, seen))
        }
    };
    seen.insert(g, ok);
    ok
}

/// The atomic weight of `g` (CGSuite's `G.AtomicWeight`): of any all-small game, and of
/// the other infinitesimals that are atomic (see the module's notes).
///
/// # Errors
/// [`Error::Unsupported`] when `g` is not infinitesimal (no game with a stop other than
/// 0 has a weight: CGSuite refuses `5`, `6^*`) or is an infinitesimal that is not atomic;
/// [`Error::Overflow`] past the range of the table's numbers.
pub fn atomic_weight(table: &mut Table, g: GameId) -> Result<GameId, Error> {
    if !is_infinitesimal(table, g) {
        return Err(Error::Unsupported(format!(
            "atomic weight: the game is not infinitesimal (its stops are {} and {}): \
             only infinitesimals have one",
            table.left_stop(g),
            table.right_stop(g)
        )));
    }
    let mut memo = FxHashMap::default();
    let mut remote = FxHashMap::default();
    let weight = weigh(table, g, &mut memo, &mut remote)?;
    if !is_all_small(table, g) && !is_atomic(table, g, weight, &mut remote)? {
        return Err(Error::Unsupported(
            "atomic weight: the game is infinitesimal but not atomic (G − W·↑ is not within \
             ↑* + (*N : −1) of 0, W its naive weight)"
                .into(),
        ));
    }
    Ok(weight)
}

/// Whether the infinitesimal `g`, of naive weight `w`, is atomic: `−ε ≤ g − w·↑ ≤ ε`
/// with `ε = ↑* + (*N : −1)`, `N` the least power of two (at least 2) not below the
/// remote star's index (CGSuite's `atomicWeightOpt`).
fn is_atomic(
    table: &mut Table,
    g: GameId,
    w: GameId,
    remote: &mut FxHashMap<GameId, u32>,
) -> Result<bool, Error> {
    let up = table.up();
    let weighted = norton_product(table, w, up, &mut FxHashMap::default())?;
    let difference = table.sub(g, weighted)?;
    let far = remote_star(table, g, remote).max(2).next_power_of_two();
    // The ordinal sum *N : −1 = {0, *, …, *(N−1) | 0, *, …, *(N−1), *N} (−1 = { | 0},
    // and *N : 0 = *N).
    let below: Vec<GameId> = (0..far).map(|k| table.nimber(k)).collect();
    let mut right = below.clone();
    right.push(table.nimber(far));
    let kite = table.game(&below, &right);
    let star = table.star();
    let up_star = table.sum(up, star)?;
    let epsilon = table.sum(up_star, kite)?;
    let minus_epsilon = table.neg(epsilon);
    Ok(table.leq(difference, epsilon) && table.leq(minus_epsilon, difference))
}

/// Norton's product `g.u` of `g` by a positive `u`: `g` copies of `u` for an integer,
/// else `{g^L.u + u + I | g^R.u − u − I}` over `u`'s incentives `I` (Left's `u^L − u` and
/// Right's `u − u^R`, those below another left out) — CGSuite's `NortonMultiply`.
pub(super) fn norton_product(
    table: &mut Table,
    g: GameId,
    u: GameId,
    memo: &mut FxHashMap<GameId, GameId>,
) -> Result<GameId, Error> {
    if let Some(n) = table.number_of(g).filter(|x| x.is_integer()) {
        return copies(table, n.numerator(), u);
    }
    if let Some(&done) = memo.get(&g) {
        return Ok(done);
    }
    let mut incentives = Vec::new();
    for i in 0..table.left(u).len() {
        let ul = table.left(u)[i];
        incentives.push(table.sub(ul, u)?);
    }
    for i in 0..table.right(u).len() {
        let ur = table.right(u)[i];
        incentives.push(table.sub(u, ur)?);
    }
    let all = incentives.clone();
    incentives.retain(|&a| !all.iter().any(|&b| b != a && table.leq(a, b)));
    incentives.sort_unstable();
    incentives.dedup();
    let mut shifts = Vec::with_capacity(incentives.len());
    for i in incentives {
        shifts.push(table.sum(u, i)?);
    }
    let (left, right) = (table.left(g).to_vec(), table.right(g).to_vec());
    let mut new_left = Vec::with_capacity(left.len() * shifts.len());
    for l in left {
        let p = norton_product(table, l, u, memo)?;
        for &s in &shifts {
            new_left.push(table.sum(p, s)?);
        }
    }
    let mut new_right = Vec::with_capacity(right.len() * shifts.len());
    for r in right {
        let p = norton_product(table, r, u, memo)?;
        for &s in &shifts {
            new_right.push(table.sub(p, s)?);
        }
    }
    let product = table.game(&new_left, &new_right);
    memo.insert(g, product);
    Ok(product)
}

/// One more than the largest nimber among `g`'s followers (at least 1): `*` of it is a
/// remote star for `g`.
pub(super) fn remote_star(table: &Table, g: GameId, memo: &mut FxHashMap<GameId, u32>) -> u32 {
    if let Some(n) = table.nimber_of(g) {
        return n + 1;
    }
    if let Some(&known) = memo.get(&g) {
        return known;
    }
    let mut most = 1;
    for &h in table.left(g).iter().chain(table.right(g)) {
        most = most.max(remote_star(table, h, memo));
    }
    memo.insert(g, most);
    most
}

fn weigh(
    table: &mut Table,
    g: GameId,
    memo: &mut FxHashMap<GameId, GameId>,
    remote: &mut FxHashMap<GameId, u32>,
) -> Result<GameId, Error> {
    if let Some(&known) = memo.get(&g) {
        return Ok(known);
    }
    // x + n·↑ + *m weighs n (numbers 0) whatever its form.
    if let Some((_, n, _)) = number_up_star(table, g)? {
        let weight = table.integer(n)?;
        memo.insert(g, weight);
        return Ok(weight);
    }
    let two = table.integer(2)?;
    let (left, right) = (table.left(g).to_vec(), table.right(g).to_vec());
    let mut lower = Vec::with_capacity(left.len());
    for l in left {
        let w = weigh(table, l, memo, remote)?;
        lower.push(table.sub(w, two)?);
    }
    let mut upper = Vec::with_capacity(right.len());
    for r in right {
        let w = weigh(table, r, memo, remote)?;
        upper.push(table.sum(w, two)?);
    }
    let naive = table.game(&lower, &upper);
    let weight = if table.number_of(naive).is_some_and(Dyadic::is_integer) {
        let star = table.nimber(remote_star(table, g, remote));
        let (below, above) = (table.leq(g, star), table.leq(star, g));
        // g > ☆: the greatest integer n with n ⧏ every upper option (not upper ≤ n);
        // g < ☆: the least integer n with n ⧐ every lower option (not n ≤ lower); with no
        // such option, 0.
        let bound = if above && !below {
            let ns = upper.iter().map(|&u| greatest_below(table, u));
            Some(ns.collect::<Result<Vec<_>, _>>()?.into_iter().min())
        } else if below && !above {
            let ns = lower.iter().map(|&l| least_above(table, l));
            Some(ns.collect::<Result<Vec<_>, _>>()?.into_iter().max())
        } else {
            None
        };
        match bound {
            Some(Some(n)) => table.integer(n)?,
            Some(None) => table.zero(),
            None => naive,
        }
    } else {
        naive
    };
    memo.insert(g, weight);
    Ok(weight)
}

/// The greatest integer `n` with `x ≰ n`.
fn greatest_below(table: &mut Table, x: GameId) -> Result<i64, Error> {
    let n = table.left_stop(x).floor();
    let id = table.integer(n)?;
    Ok(if table.leq(x, id) { n - 1 } else { n })
}

/// The least integer `n` with `n ≰ x`.
fn least_above(table: &mut Table, x: GameId) -> Result<i64, Error> {
    let n = table.right_stop(x).ceil();
    let id = table.integer(n)?;
    Ok(if table.leq(id, x) { n + 1 } else { n })
}
