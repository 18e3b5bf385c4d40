//! Values modulo infinitesimals: recognising a number plus ups plus a nimber
//! (`x + n·↑ + *m`, CGSuite's "number-up-star"), and the reduced canonical form
//! (Calistrat; Grossman and Siegel, *Reductions of partizan games*, 2009; Siegel,
//! *Combinatorial Game Theory*, II.6; CGSuite's `ReducedCanonicalForm`).

use rustc_hash::FxHashMap;

use super::number::Dyadic;
use super::temper::{copies, heat};
use super::value::{GameId, Table};
use crate::Error;

/// `g` as `x + n·↑ + *m` (a number, a count of ups, negative for downs, and a nimber), if
/// it is one.
///
/// Both stops of such a game are `x`; what is left, `h = g − x`, is `n·↑ + *m` exactly
/// when `h − n·↑` is a nimber. `h − k·↑` is positive for `k ≤ n − 2` and not for
/// `k ≥ n` (`↑* || 0`, `*m || 0`), so `n` is one or two above the greatest `k` with
/// `h > k·↑`, found by bisection; the two candidates are then checked exactly.
///
/// # Complexity
/// O(log b) comparisons with multiples of `↑` (b the birthday), two subtractions.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers.
pub(crate) fn number_up_star(
    table: &mut Table,
    g: GameId,
) -> Result<Option<(Dyadic, i64, u32)>, Error> {
    if let Some(x) = table.number_of(g) {
        return Ok(Some((x, 0, 0)));
    }
    let x = table.left_stop(g);
    if table.right_stop(g) != x {
        return Ok(None);
    }
    let h = if x == Dyadic::ZERO {
        g
    } else {
        let xid = table.number(x);
        table.sub(g, xid)?
    };
    if let Some(m) = table.nimber_of(h) {
        return Ok(Some((x, 0, m)));
    }
    // n·↑ + *m is born on day |n| or later (each of Right's moves takes at most one ↑
    // off), so |n| ≤ birthday: the bisection runs on [−b − 2, b + 2].
    let bound = i64::from(table.birthday(h)) + 2;
    let up = table.up();
    let (mut lo, mut hi) = (-bound, bound);
    // Invariant: h > lo·↑ holds, h > hi·↑ does not (checked at the ends first).
    let below = copies(table, lo, up)?;
    if !table.less(below, h) {
        return Ok(None);
    }
    let above = copies(table, hi, up)?;
    if table.less(above, h) {
        return Ok(None);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let ups = copies(table, mid, up)?;
        if table.less(ups, h) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    for n in [lo + 1, lo + 2] {
        let ups = copies(table, n, up)?;
        let rest = table.sub(h, ups)?;
        if let Some(m) = table.nimber_of(rest) {
            return Ok(Some((x, n, m)));
        }
    }
    Ok(None)
}

/// The reduced canonical form of `g` (CGSuite's `G.ReducedCanonicalForm`): the simplest
/// game infinitesimally close to `g`.
///
/// Two games are *infinitesimally close*, `G ≡ H (mod Inf)`, when `G − H` is an
/// infinitesimal (both its stops are 0: `−x < G − H < x` for every positive number `x`).
/// Each class of this relation holds one *reduced* game, whose options are neither
/// dominated nor reversible modulo infinitesimals, and it is born no later than any other
/// game of the class (Calistrat; Grossman and Siegel, *Reductions of partizan games*,
/// 2009). So `rcf(G) = rcf(H)` exactly when `G ≡ H`; a number is its own, and every
/// infinitesimal (`↑`, `*`, `↑*`, tiny) reduces to 0.
///
/// Computed as CGSuite computes it: `x + n·↑ + *m` reduces to `x`; any other game to the
/// star projection of `g` heated by `*` (`∫^* G`, every follower `x*` then replaced by
/// `x`).
///
/// # Complexity
/// One heating and one projection, each visiting every follower once.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers.
pub fn reduced_canonical_form(table: &mut Table, g: GameId) -> Result<GameId, Error> {
    if let Some((x, _, _)) = number_up_star(table, g)? {
        return Ok(table.number(x));
    }
    let star = table.star();
    let heated = heat(table, g, star)?;
    Ok(star_projection(table, heated, &mut FxHashMap::default()))
}

/// `g` with every follower `x*` (canonically `{x | x}`) replaced by the number `x`.
fn star_projection(table: &mut Table, g: GameId, memo: &mut FxHashMap<GameId, GameId>) -> GameId {
    if table.number_of(g).is_some() {
        return g;
    }
    if let Some(&done) = memo.get(&g) {
        return done;
    }
    let (left, right) = (table.left(g).to_vec(), table.right(g).to_vec());
    let projected = match (left.as_slice(), right.as_slice()) {
        ([l], [r]) if l == r && table.number_of(*l).is_some() => *l,
        _ => {
            let l: Vec<GameId> = left
                .into_iter()
                .map(|o| star_projection(table, o, memo))
                .collect();
            let r: Vec<GameId> = right
                .into_iter()
                .map(|o| star_projection(table, o, memo))
                .collect();
            table.game(&l, &r)
        }
    };
    memo.insert(g, projected);
    projected
}

/// Whether `g` is infinitesimal: both its stops are 0 (0 itself among them).
#[must_use]
pub fn is_infinitesimal(table: &Table, g: GameId) -> bool {
    table.left_stop(g) == Dyadic::ZERO && table.right_stop(g) == Dyadic::ZERO
}
