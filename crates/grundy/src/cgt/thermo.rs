//! Thermography of canonical forms: the left and right walls of a game's thermograph as
//! exact piecewise-linear functions of the temperature `t ≥ 0`, its mean (where the mast
//! stands) and its temperature (where the walls meet). Numbers have no walls to meet:
//! their mean is themselves and their temperature is CGSuite's, `-1` for an integer and
//! `-1/2^k` for `m/2^k`.
//!
//! For `G` not a number (Siegel, *Combinatorial Game Theory*, II.5):
//! `Λ_t(G) = max_L (ρ_t(G^L) − t)`, `ρ_t(G) = min_R (Λ_t(G^R) + t)` below the temperature
//! `τ` where they first meet, and both the mean `m = Λ_τ = ρ_τ` above it. A left wall's
//! slopes are 0 or −1, a right wall's 0 or +1, so every breakpoint is a dyadic rational.

use rustc_hash::FxHashMap;

use super::number::Dyadic;
use super::value::{GameId, Table};
use crate::Error;

/// A piecewise-linear function of `t ≥ 0`: through `points` (the first at `t = 0`,
/// increasing `t`), then on with slope `tail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wall {
    /// `(t, value)` breakpoints.
    pub points: Vec<(Dyadic, Dyadic)>,
    /// The slope past the last point.
    pub tail: i64,
}

/// A game's thermograph, mean and temperature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thermograph {
    /// The left wall, up to the temperature, then the mast.
    pub left: Wall,
    /// The right wall, likewise.
    pub right: Wall,
    /// The mean value (where the mast stands).
    pub mean: Dyadic,
    /// The temperature (negative for numbers, as CGSuite gives it).
    pub temperature: Dyadic,
}

fn overflow() -> Error {
    Error::Overflow
}

/// `k · x` for a small integer `k`.
fn times(x: Dyadic, k: i64) -> Result<Dyadic, Error> {
    let mut total = Dyadic::ZERO;
    let step = if k < 0 { x.negate() } else { x };
    for _ in 0..k.unsigned_abs() {
        total = total.checked_add(step).ok_or_else(overflow)?;
    }
    Ok(total)
}

impl Wall {
    /// The constant `v`.
    fn constant(v: Dyadic) -> Wall {
        Wall {
            points: vec![(Dyadic::ZERO, v)],
            tail: 0,
        }
    }

    /// The value at `t ≥ 0`.
    ///
    /// # Errors
    /// [`Error::Overflow`] past the range of [`Dyadic`].
    pub fn at(&self, t: Dyadic) -> Result<Dyadic, Error> {
        let i = self.points.partition_point(|&(x, _)| x <= t) - 1;
        let (t0, v0) = self.points[i];
        let slope = match self.points.get(i + 1) {
            Some(&(t1, v1)) => slope(t0, v0, t1, v1)?,
            None => self.tail,
        };
        v0.checked_add(times(t.checked_sub(t0).ok_or_else(overflow)?, slope)?)
            .ok_or_else(overflow)
    }

    /// `self + k·t`.
    fn tilt(&self, k: i64) -> Result<Wall, Error> {
        let points = self
            .points
            .iter()
            .map(|&(t, v)| Ok((t, v.checked_add(times(t, k)?).ok_or_else(overflow)?)))
            .collect::<Result<_, Error>>()?;
        Ok(Wall {
            points,
            tail: self.tail + k,
        })
    }

    /// The pointwise maximum (`max`) or minimum of two walls.
    fn extreme(&self, other: &Wall, max: bool) -> Result<Wall, Error> {
        let ts = breakpoints(self, other)?;
        let mut points = Vec::with_capacity(ts.len());
        for &t in &ts {
            let (a, b) = (self.at(t)?, other.at(t)?);
            points.push((t, if (a >= b) == max { a } else { b }));
        }
        // Past the last breakpoint the two do not cross: the one ahead there stays ahead
        // (on a tie, the one whose slope keeps it ahead).
        let last = *ts.last().unwrap_or(&Dyadic::ZERO);
        let (a, b) = (self.at(last)?, other.at(last)?);
        let tail = if a != b {
            if (a > b) == max {
                self.tail
            } else {
                other.tail
            }
        } else if max {
            self.tail.max(other.tail)
        } else {
            self.tail.min(other.tail)
        };
        Ok(simplify(Wall { points, tail }))
    }
}

/// The slope between two points of a wall (an integer in −2..=2).
fn slope(t0: Dyadic, v0: Dyadic, t1: Dyadic, v1: Dyadic) -> Result<i64, Error> {
    let (dt, dv) = (
        t1.checked_sub(t0).ok_or_else(overflow)?,
        v1.checked_sub(v0).ok_or_else(overflow)?,
    );
    for k in -2..=2 {
        if times(dt, k)? == dv {
            return Ok(k);
        }
    }
    Err(Error::Unsupported(
        "a thermograph wall of a slope other than 0 or ±1".into(),
    ))
}

/// Every `t` where either wall bends or the two cross, sorted, from 0.
fn breakpoints(a: &Wall, b: &Wall) -> Result<Vec<Dyadic>, Error> {
    let mut ts: Vec<Dyadic> = a.points.iter().chain(&b.points).map(|&(t, _)| t).collect();
    ts.sort_unstable();
    ts.dedup();
    let mut crossings = Vec::new();
    for i in 0..ts.len() {
        let t0 = ts[i];
        let d0 = a.at(t0)?.checked_sub(b.at(t0)?).ok_or_else(overflow)?;
        // The difference's slope just after t0 (constant up to the next breakpoint).
        let next = ts.get(i + 1).copied();
        let probe = match next {
            Some(t1) => t1,
            None => t0
                .checked_add(Dyadic::integer(1).ok_or_else(overflow)?)
                .ok_or_else(overflow)?,
        };
        let d1 = a
            .at(probe)?
            .checked_sub(b.at(probe)?)
            .ok_or_else(overflow)?;
        let s = slope(t0, d0, probe, d1)?;
        if s == 0 || d0 == Dyadic::ZERO {
            continue;
        }
        // d0 + s·(t − t0) = 0 at t = t0 − d0 / s, s in {±1, ±2}.
        let mut step = d0;
        if s.abs() == 2 {
            step = step.half().ok_or_else(overflow)?;
        }
        let t = if s > 0 {
            t0.checked_sub(step)
        } else {
            t0.checked_add(step)
        }
        .ok_or_else(overflow)?;
        if t > t0 && next.is_none_or(|t1| t < t1) {
            crossings.push(t);
        }
    }
    ts.extend(crossings);
    ts.sort_unstable();
    ts.dedup();
    Ok(ts)
}

/// Drops breakpoints where the slope does not change.
fn simplify(wall: Wall) -> Wall {
    let mut points: Vec<(Dyadic, Dyadic)> = Vec::with_capacity(wall.points.len());
    for &p in &wall.points {
        while points.len() >= 2 {
            let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
            match (slope(a.0, a.1, b.0, b.1), slope(b.0, b.1, p.0, p.1)) {
                (Ok(s), Ok(u)) if s == u => {
                    points.pop();
                }
                _ => break,
            }
        }
        points.push(p);
    }
    // A last point the tail continues straight is dropped too.
    while points.len() >= 2 {
        let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
        if slope(a.0, a.1, b.0, b.1).is_ok_and(|s| s == wall.tail) {
            points.pop();
        } else {
            break;
        }
    }
    Wall {
        points,
        tail: wall.tail,
    }
}

/// The thermograph of `g`, memoised in `memo` (per table).
///
/// # Errors
/// [`Error::Overflow`] past the range of [`Dyadic`].
///
/// # Complexity
/// Each form of `g`'s tree once; each wall's breakpoints at most those of its options'
/// walls together, plus their crossings.
pub fn thermograph(
    table: &Table,
    g: GameId,
    memo: &mut FxHashMap<GameId, Thermograph>,
) -> Result<Thermograph, Error> {
    if let Some(t) = memo.get(&g) {
        return Ok(t.clone());
    }
    let found = if let Some(x) = table.number_of(g) {
        let temperature = Dyadic::new(-1, x.exponent()).ok_or_else(overflow)?;
        Thermograph {
            left: Wall::constant(x),
            right: Wall::constant(x),
            mean: x,
            temperature,
        }
    } else {
        let mut left: Option<Wall> = None;
        for &gl in table.left(g) {
            let wall = thermograph(table, gl, memo)?.right.tilt(-1)?;
            left = Some(match left {
                None => wall,
                Some(w) => w.extreme(&wall, true)?,
            });
        }
        let mut right: Option<Wall> = None;
        for &gr in table.right(g) {
            let wall = thermograph(table, gr, memo)?.left.tilt(1)?;
            right = Some(match right {
                None => wall,
                Some(w) => w.extreme(&wall, false)?,
            });
        }
        // A canonical form with an empty side is an integer, handled above.
        let (Some(left), Some(right)) = (left, right) else {
            return Err(Error::Unsupported("a non-number with an empty side".into()));
        };
        mast(&left, &right)?
    };
    memo.insert(g, found.clone());
    Ok(found)
}

/// Where the raw walls first meet (`Λ ≤ ρ`), and the walls cut there with the mast above.
fn mast(left: &Wall, right: &Wall) -> Result<Thermograph, Error> {
    let ts = breakpoints(left, right)?;
    let mut tau = None;
    for &t in &ts {
        if left.at(t)? <= right.at(t)? {
            tau = Some(t);
            break;
        }
    }
    let tau = match tau {
        Some(t) => t,
        None => {
            // Past the last breakpoint: Λ − ρ falls with slope left.tail − right.tail.
            let last = *ts.last().unwrap_or(&Dyadic::ZERO);
            let gap = left
                .at(last)?
                .checked_sub(right.at(last)?)
                .ok_or_else(overflow)?;
            match right.tail - left.tail {
                1 => last.checked_add(gap),
                2 => last.checked_add(gap.half().ok_or_else(overflow)?),
                _ => None,
            }
            .ok_or_else(overflow)?
        }
    };
    let mean = left.at(tau)?;
    let cut = |wall: &Wall| -> Wall {
        let mut points: Vec<(Dyadic, Dyadic)> = wall
            .points
            .iter()
            .copied()
            .filter(|&(t, _)| t < tau)
            .collect();
        points.push((tau, mean));
        simplify(Wall { points, tail: 0 })
    };
    Ok(Thermograph {
        left: cut(left),
        right: cut(right),
        mean,
        temperature: tau,
    })
}
