//! Heap games: Nim, bounded Nim, subtraction games and octal games. A position is a list
//! of heaps; a move changes one heap into zero, one or two heaps.

use std::fmt;

use crate::explore::Control;
use crate::impartial::mex;
use crate::Error;

/// An octal game code `d0.d1d2d3…`: digit `d_k` says what may be left after removing `k`
/// tokens from a heap — bit 1: nothing (the whole heap was `k`), bit 2: one heap, bit 4:
/// two non-empty heaps. `d0` may be 0 or 4 (4: split a heap in two without removing).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Octal {
    digits: Vec<u8>,
}

impl Octal {
    /// The digit for removing `k` tokens (0 past the code's end).
    #[must_use]
    pub fn digit(&self, k: u64) -> u8 {
        usize::try_from(k)
            .ok()
            .and_then(|k| self.digits.get(k))
            .copied()
            .unwrap_or(0)
    }

    /// The largest number of tokens a move removes (the code's length after the point).
    #[must_use]
    pub fn max_removal(&self) -> u64 {
        self.digits.len() as u64 - 1
    }

    /// Whether some move leaves two heaps (the naive Grundy table is then quadratic).
    #[must_use]
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }
}

impl std::str::FromStr for Octal {
    type Err = String;

    fn from_str(text: &str) -> Result<Octal, String> {
        let (whole, frac) = text
            .split_once('.')
            .ok_or_else(|| format!("expected an octal code such as 0.77, found `{text}`"))?;
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            _ => {
                return Err(format!(
                    "the digit before the point must be 0 or 4 (4: split without removing), found `{whole}`"
                ))
            }
        };
        let mut digits = vec![d0];
        for c in frac.chars().filter(|&c| c != '_') {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("octal digits are 0 to 7, found `{c}` in `{text}`")),
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() == 1 && d0 == 0 {
            return Err(format!("the code `{text}` allows no move"));
        }
        Ok(Octal { digits })
    }
}

impl fmt::Display for Octal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            f.write_str("0")?;
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The rules of a heap game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapFamily {
    /// Take any positive number from one heap. Grundy value: the heap.
    Nim,
    /// Take 1..=m from one heap. Grundy value: heap mod (m + 1).
    BoundedNim(u64),
    /// Take an amount in the set (sorted, distinct, positive) from one heap.
    Subtraction(Vec<u64>),
    /// An octal game.
    Octal(Octal),
}

impl fmt::Display for HeapFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapFamily::Nim => f.write_str("nim"),
            HeapFamily::BoundedNim(m) => write!(f, "bounded-nim[{m}]"),
            HeapFamily::Subtraction(set) => write!(
                f,
                "subtraction[{}]",
                set.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            HeapFamily::Octal(code) => write!(f, "octal[{code}]"),
        }
    }
}

/// What a move leaves of one heap: up to two heaps (`0` = none).
pub type Leaves = (u64, u64);

impl HeapFamily {
    /// The Grundy value of a heap when a formula gives it (Nim, bounded Nim).
    #[must_use]
    pub fn closed_form(&self, heap: u64) -> Option<u64> {
        match self {
            HeapFamily::Nim => Some(heap),
            HeapFamily::BoundedNim(m) => {
                Some(m.checked_add(1).map_or(heap, |modulus| heap % modulus))
            }
            _ => None,
        }
    }

    /// Appends what each move from a heap of `heap` tokens leaves. Each distinct result
    /// once; splits as `(a, b)` with `a ≤ b`.
    pub fn moves(&self, heap: u64, out: &mut Vec<Leaves>) {
        self.moves_up_to(heap, u64::MAX, out);
    }

    /// [`HeapFamily::moves`], but only the splits whose smaller heap is at most `small`.
    pub fn moves_up_to(&self, heap: u64, small: u64, out: &mut Vec<Leaves>) {
        match self {
            HeapFamily::Nim => out.extend((0..heap).rev().map(|h| (h, 0))),
            HeapFamily::BoundedNim(m) => {
                out.extend((1..=heap.min(*m)).map(|t| (heap - t, 0)));
            }
            HeapFamily::Subtraction(set) => {
                out.extend(
                    set.iter()
                        .take_while(|&&s| s <= heap)
                        .map(|&s| (heap - s, 0)),
                );
            }
            HeapFamily::Octal(code) => {
                for k in 0..=code.max_removal().min(heap) {
                    let d = code.digit(k);
                    let rest = heap - k;
                    if d & 1 != 0 && rest == 0 {
                        out.push((0, 0));
                    }
                    if d & 2 != 0 && rest >= 1 && k >= 1 {
                        out.push((rest, 0));
                    }
                    if d & 4 != 0 {
                        out.extend((1..=(rest / 2).min(small)).map(|a| (a, rest - a)));
                    }
                }
            }
        }
    }

    /// One move from a heap of `heap` tokens, without listing them all (huge Nim heaps):
    /// the first move [`HeapFamily::moves`] would list, or `None` if there is none.
    #[must_use]
    pub fn some_move(&self, heap: u64) -> Option<Leaves> {
        match self {
            HeapFamily::Nim | HeapFamily::BoundedNim(_) => heap.checked_sub(1).map(|h| (h, 0)),
            HeapFamily::Subtraction(set) => {
                set.first().filter(|&&s| s <= heap).map(|&s| (heap - s, 0))
            }
            HeapFamily::Octal(code) => (0..=code.max_removal().min(heap)).find_map(|k| {
                let d = code.digit(k);
                let rest = heap - k;
                if d & 1 != 0 && rest == 0 {
                    Some((0, 0))
                } else if d & 2 != 0 && rest >= 1 && k >= 1 {
                    Some((rest, 0))
                } else if d & 4 != 0 && rest >= 2 {
                    Some((1, rest - 1))
                } else {
                    None
                }
            }),
        }
    }

    /// Whether one move can turn a heap of `heap` tokens into heaps `a` and `b` (0 = no
    /// heap; in either order).
    #[must_use]
    pub fn is_leave(&self, heap: u64, a: u64, b: u64) -> bool {
        let (a, b) = if a == 0 { (b, 0) } else { (a, b) };
        let Some(removed) = heap.checked_sub(a).and_then(|r| r.checked_sub(b)) else {
            return false;
        };
        match self {
            HeapFamily::Nim => b == 0 && removed >= 1,
            HeapFamily::BoundedNim(m) => b == 0 && removed >= 1 && removed <= *m,
            HeapFamily::Subtraction(set) => b == 0 && set.binary_search(&removed).is_ok(),
            HeapFamily::Octal(code) => {
                let d = code.digit(removed);
                match (a, b) {
                    (0, _) => d & 1 != 0,
                    (_, 0) => d & 2 != 0 && removed >= 1,
                    _ => d & 4 != 0,
                }
            }
        }
    }

    /// An estimate of the work (elementary steps) to tabulate Grundy values to `heap`.
    #[must_use]
    pub fn table_work(&self, heap: u64) -> u128 {
        let n = u128::from(heap) + 1;
        match self {
            HeapFamily::Nim | HeapFamily::BoundedNim(_) => 0,
            HeapFamily::Subtraction(set) => n.saturating_mul(set.len() as u128),
            HeapFamily::Octal(code) => {
                let splitting = (0..=code.max_removal())
                    .filter(|&k| code.digit(k) & 4 != 0)
                    .count() as u128;
                (n.saturating_mul(n) / 4)
                    .saturating_mul(splitting)
                    .saturating_add(n.saturating_mul(u128::from(code.max_removal()) + 1))
            }
        }
    }

    /// Grundy values of heaps 0..=`up_to` by the mex of each heap's options.
    ///
    /// # Complexity
    /// Subtraction: O(n·|S|). Octal: O(n·t) for codes that never split, O(n²) otherwise.
    /// 4 bytes per heap.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped.
    pub fn table(&self, up_to: u64, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let n = usize::try_from(up_to).map_err(|_| Error::Overflow)?;
        let mut g: Vec<u32> = Vec::with_capacity(n + 1);
        let mut seen = Vec::new();
        let mut leaves = Vec::new();
        for h in 0..=n {
            if h % 4096 == 0 {
                control.check()?;
                control.report("grundy table", h as u64);
            }
            leaves.clear();
            self.moves(h as u64, &mut leaves);
            let value = mex(
                leaves.iter().map(|&(a, b)| g[a as usize] ^ g[b as usize]),
                &mut seen,
            );
            g.push(value);
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_codes_parse_and_print() {
        for code in ["0.77", "0.07", "4.07", "0.137", "0.6"] {
            assert_eq!(code.parse::<Octal>().unwrap().to_string(), code);
        }
        assert_eq!(".77".parse::<Octal>().unwrap().to_string(), "0.77");
        assert_eq!("0.770".parse::<Octal>().unwrap().to_string(), "0.77");
        assert!("0.78".parse::<Octal>().is_err());
        assert!("1.7".parse::<Octal>().is_err());
        assert!("0.0".parse::<Octal>().is_err());
        assert!("077".parse::<Octal>().is_err());
    }

    #[test]
    fn kayles_moves() {
        let kayles = HeapFamily::Octal("0.77".parse().unwrap());
        let mut out = Vec::new();
        kayles.moves(4, &mut out);
        out.sort_unstable();
        // remove 1: 3, (1,2); remove 2: 2, (1,1)
        assert_eq!(out, vec![(1, 1), (1, 2), (2, 0), (3, 0)]);
    }
}
