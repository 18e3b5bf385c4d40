//! Cooling and heating: the operations of thermography on canonical forms (Berlekamp,
//! Conway and Guy, *Winning Ways*, chapter 6; Siegel, *Combinatorial Game Theory*, II.5;
//! CGSuite's `Cool`, `Heat` and `Overheat`); the atomic weight is [`super::atomic`]'s.
//!
//! - **Cooling** by `t` ([`cool`]): an integer stays; a game whose temperature is below
//!   `t` is frozen to its mean; otherwise `G_t = {G^L_t − t | G^R_t + t}`. Cooling by the
//!   temperature freezes a game (`±1` cooled by 1 is `*`).
//! - **Heating** by `t` ([`heat`], `∫^t G`): a number stays; otherwise
//!   `{∫^t G^L + t | ∫^t G^R − t}` (`*` heated by 1 is `±1`).
//! - **Overheating** from `s` to `t` ([`overheat`], `∫_s^t G`): an integer `n` becomes
//!   `n` copies of `s`; otherwise `{∫_s^t G^L + t | ∫_s^t G^R − t}`.
//!
//! Each operation is memoised within a call, so each follower is worked on once.

use rustc_hash::FxHashMap;

use super::number::Dyadic;
use super::thermo::{thermograph, Thermograph};
use super::value::{GameId, Table};
use crate::Error;

/// `g` cooled by `t` (CGSuite's `G.Cool(t)`; `t > −1`).
///
/// # Errors
/// [`Error::Unsupported`] for `t ≤ −1` (cooling there is not defined: CGSuite refuses
/// it too); [`Error::Overflow`] past the range of the table's numbers.
pub fn cool(table: &mut Table, g: GameId, t: Dyadic) -> Result<GameId, Error> {
    if t <= Dyadic::integer(-1).ok_or(Error::Overflow)? {
        return Err(Error::Unsupported(format!(
            "cooling by {t}: the temperature must be above -1"
        )));
    }
    let tid = table.number(t);
    let mut temperatures = FxHashMap::default();
    let mut memo = FxHashMap::default();
    cool_in(table, g, t, tid, &mut temperatures, &mut memo)
}

fn cool_in(
    table: &mut Table,
    g: GameId,
    t: Dyadic,
    tid: GameId,
    temperatures: &mut FxHashMap<GameId, Thermograph>,
    memo: &mut FxHashMap<GameId, GameId>,
) -> Result<GameId, Error> {
    if table.number_of(g).is_some_and(Dyadic::is_integer) {
        return Ok(g);
    }
    if let Some(&done) = memo.get(&g) {
        return Ok(done);
    }
    let drawn = thermograph(table, g, temperatures)?;
    let cooled = if drawn.temperature < t {
        table.number(drawn.mean)
    } else {
        let (left, right) = (table.left(g).to_vec(), table.right(g).to_vec());
        let mut new_left = Vec::with_capacity(left.len());
        for l in left {
            let c = cool_in(table, l, t, tid, temperatures, memo)?;
            new_left.push(table.sub(c, tid)?);
        }
        let mut new_right = Vec::with_capacity(right.len());
        for r in right {
            let c = cool_in(table, r, t, tid, temperatures, memo)?;
            new_right.push(table.sum(c, tid)?);
        }
        table.game(&new_left, &new_right)
    };
    memo.insert(g, cooled);
    Ok(cooled)
}

/// `g` frozen: cooled by its own temperature (CGSuite's `G.Freeze`), a number itself.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers.
pub fn freeze(table: &mut Table, g: GameId) -> Result<GameId, Error> {
    if table.number_of(g).is_some() {
        return Ok(g);
    }
    // A game that is not a number has a temperature of 0 or more: cooled by it directly,
    // with the thermographs already drawn for it.
    let mut temperatures = FxHashMap::default();
    let t = thermograph(table, g, &mut temperatures)?.temperature;
    let tid = table.number(t);
    cool_in(
        table,
        g,
        t,
        tid,
        &mut temperatures,
        &mut FxHashMap::default(),
    )
}

/// `g` heated by `t` (`∫^t G`, CGSuite's `G.Heat(t)`): numbers stay, every other
/// follower's options move by `t` towards their owner.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers.
pub fn heat(table: &mut Table, g: GameId, t: GameId) -> Result<GameId, Error> {
    let mut memo = FxHashMap::default();
    warm(table, g, None, t, &mut memo)
}

/// `g` overheated from `s` to `t` (`∫_s^t G`, CGSuite's `G.Overheat(s, t)`): an integer
/// `n` is `n` copies of `s`, every other follower's options move by `t` towards their
/// owner.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers (an integer of more than
/// 2^20 copies is refused this way too, rather than summed for ever).
pub fn overheat(table: &mut Table, g: GameId, s: GameId, t: GameId) -> Result<GameId, Error> {
    let mut memo = FxHashMap::default();
    warm(table, g, Some(s), t, &mut memo)
}

/// Heating (`from` `None`) or overheating from `from`.
fn warm(
    table: &mut Table,
    g: GameId,
    from: Option<GameId>,
    t: GameId,
    memo: &mut FxHashMap<GameId, GameId>,
) -> Result<GameId, Error> {
    if let Some(x) = table.number_of(g) {
        match from {
            None => return Ok(g),
            Some(s) if x.is_integer() => return copies(table, x.numerator(), s),
            Some(_) => {}
        }
    }
    if let Some(&done) = memo.get(&g) {
        return Ok(done);
    }
    let (left, right) = (table.left(g).to_vec(), table.right(g).to_vec());
    let mut new_left = Vec::with_capacity(left.len());
    for l in left {
        let w = warm(table, l, from, t, memo)?;
        new_left.push(table.sum(w, t)?);
    }
    let mut new_right = Vec::with_capacity(right.len());
    for r in right {
        let w = warm(table, r, from, t, memo)?;
        new_right.push(table.sub(w, t)?);
    }
    let warmed = table.game(&new_left, &new_right);
    memo.insert(g, warmed);
    Ok(warmed)
}

/// `n` copies of `s` (negative: of `−s`), by doubling.
pub(crate) fn copies(table: &mut Table, n: i64, s: GameId) -> Result<GameId, Error> {
    const MOST: u64 = 1 << 20;
    if n.unsigned_abs() > MOST {
        return Err(Error::Overflow);
    }
    let mut base = if n < 0 { table.neg(s) } else { s };
    let mut k = n.unsigned_abs();
    let mut total = table.zero();
    while k > 0 {
        if k & 1 == 1 {
            total = table.sum(total, base)?;
        }
        k >>= 1;
        if k > 0 {
            base = table.sum(base, base)?;
        }
    }
    Ok(total)
}
