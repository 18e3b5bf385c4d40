//! The 16-bit record of one position in a tier.
//!
//! Win/loss/draw games:
//!
//! | record | meaning |
//! | --- | --- |
//! | `0` | not a position reached from the start (or an unused rank) |
//! | `1` | a draw |
//! | `2 + 2·r` | a loss for the player to move, in `r` moves |
//! | `3 + 2·r` | a win for the player to move, in `r` moves |
//!
//! so remoteness runs to [`MAX_REMOTENESS`]. Score games: `0` is unreached, and any other
//! record is the final margin `m` for the player to move (own points minus the
//! opponent's from here on, both playing their best) stored as `m + 32768`, so margins
//! run from −32767 to 32767.

use crate::game::Value;

/// A rank that is not a reached position.
pub const UNREACHED: u16 = 0;
/// A draw.
pub const DRAW: u16 = 1;
/// The largest remoteness a record holds.
pub const MAX_REMOTENESS: u32 = (u16::MAX as u32 - 3) / 2;
/// The largest margin (in absolute value) a score record holds.
pub const MAX_MARGIN: i32 = i16::MAX as i32;

/// The record of a value; `None` if its remoteness exceeds [`MAX_REMOTENESS`].
#[must_use]
pub fn of_value(value: Value) -> Option<u16> {
    match value {
        Value::Draw => Some(DRAW),
        Value::Loss(r) if r <= MAX_REMOTENESS => Some((2 + 2 * r) as u16),
        Value::Win(r) if r <= MAX_REMOTENESS => Some((3 + 2 * r) as u16),
        _ => None,
    }
}

/// The value a win/loss/draw record holds; `None` for [`UNREACHED`].
#[must_use]
pub fn value(record: u16) -> Option<Value> {
    match record {
        UNREACHED => None,
        DRAW => Some(Value::Draw),
        r => {
            let remoteness = u32::from(r - 2) / 2;
            Some(if r % 2 == 1 {
                Value::Win(remoteness)
            } else {
                Value::Loss(remoteness)
            })
        }
    }
}

/// The record of a score game's margin; `None` past [`MAX_MARGIN`].
#[must_use]
pub fn of_margin(margin: i64) -> Option<u16> {
    (margin.abs() <= i64::from(MAX_MARGIN)).then(|| (margin + 32768) as u16)
}

/// The margin a score record holds; `None` for [`UNREACHED`].
#[must_use]
pub fn margin(record: u16) -> Option<i64> {
    (record != UNREACHED).then(|| i64::from(record) - 32768)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        for v in [
            Value::Draw,
            Value::Win(0),
            Value::Loss(0),
            Value::Win(7),
            Value::Loss(MAX_REMOTENESS),
            Value::Win(MAX_REMOTENESS),
        ] {
            assert_eq!(value(of_value(v).unwrap()), Some(v));
        }
        assert_eq!(of_value(Value::Win(MAX_REMOTENESS + 1)), None);
        assert_eq!(value(UNREACHED), None);
        for m in [-32767, -1, 0, 1, 32767] {
            assert_eq!(margin(of_margin(m).unwrap()), Some(m));
        }
        assert_eq!(of_margin(32768), None);
        assert_eq!(of_margin(-32768), None);
    }
}
