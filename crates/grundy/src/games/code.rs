//! Take-and-break codes: octal (digits 0–7) and hexadecimal (digits 0–f) games, and the
//! finite rules of heap games ([`Rules`]: a code or a subtraction set) — the one type the
//! catalog, the Grundy engines and the period proofs share.

use std::fmt;

use std::str::FromStr;

use crate::Error;

/// A take-and-break code `d0.d1d2d3…`, octal or hexadecimal: digit `d_k` says what may be
/// left after removing `k` tokens from one heap — bit 1: nothing (the heap was exactly
/// `k`), bit 2: one non-empty heap, bit 4: two non-empty heaps, bit 8: three non-empty
/// heaps (hexadecimal digits 8–f). `d0` may be 0, 4, 8 or c: split a heap without
/// removing anything.
///
/// Octal codes are the codes without bit 8.
///
/// ```
/// use grundy::games::code::Code;
/// let kayles: Code = "0.77".parse().unwrap();
/// assert_eq!((kayles.max_removal(), kayles.max_parts()), (2, 2));
/// let hex: Code = "0.8".parse().unwrap(); // remove 1, leave three heaps
/// assert_eq!(hex.max_parts(), 3);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Code {
    digits: Vec<u8>,
}

/// Why a code does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct CodeError {
    /// 1-based column of the offending character.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl Code {
    /// A code from its digits `d0, d1, …` (trailing zeros are dropped).
    ///
    /// # Errors
    /// If a digit exceeds 15, `d0` has bit 1 or 2, or no move is allowed.
    pub fn from_digits(digits: &[u8]) -> Result<Code, CodeError> {
        let mut digits = digits.to_vec();
        if digits.is_empty() {
            digits.push(0);
        }
        if let Some(i) = digits.iter().position(|&d| d > 15) {
            return Err(CodeError {
                column: i + 1,
                message: format!("digit {} exceeds 15", digits[i]),
            });
        }
        if digits[0] & 3 != 0 {
            return Err(CodeError {
                column: 1,
                message: "the digit before the point must be 0, 4, 8 or c (a move must remove tokens or split)".into(),
            });
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() == 1 && digits[0] == 0 {
            return Err(CodeError {
                column: 1,
                message: "the code allows no move".into(),
            });
        }
        Ok(Code { digits })
    }

    /// The digit for removing `k` tokens (0 past the code's end).
    #[must_use]
    pub fn digit(&self, k: u64) -> u8 {
        usize::try_from(k)
            .ok()
            .and_then(|k| self.digits.get(k))
            .copied()
            .unwrap_or(0)
    }

    /// The digits `d0, d1, …, dt`.
    #[must_use]
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// `t`, the largest number of tokens a move removes.
    #[must_use]
    pub fn max_removal(&self) -> u64 {
        self.digits.len() as u64 - 1
    }

    /// The most heaps a move leaves: 1, 2 or 3 (0 if moves only remove whole heaps).
    #[must_use]
    pub fn max_parts(&self) -> u32 {
        let all = self.digits.iter().fold(0, |a, &d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else if all & 2 != 0 {
            1
        } else {
            0
        }
    }

    /// Whether every digit is octal (no three-heap splits).
    #[must_use]
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8)
    }

    /// The removals `k` whose digit has `bit`.
    pub(crate) fn removals(&self, bit: u8) -> impl Iterator<Item = usize> + '_ {
        self.digits
            .iter()
            .enumerate()
            .filter(move |(_, &d)| d & bit != 0)
            .map(|(k, _)| k)
    }

    /// Appends every option of a heap of `n` as the heaps it leaves, sorted, without the
    /// empty ones (so `[]` is the move that takes the whole heap). Each distinct option
    /// once. The reference for tests; O(n²) for three-heap codes.
    pub fn options(&self, n: u64, out: &mut Vec<Vec<u64>>) {
        let mut seen = std::collections::BTreeSet::new();
        for k in 0..=self.max_removal().min(n) {
            let d = self.digit(k);
            let m = n - k;
            if d & 1 != 0 && m == 0 {
                seen.insert(vec![]);
            }
            if d & 2 != 0 && m >= 1 && k >= 1 {
                seen.insert(vec![m]);
            }
            if d & 4 != 0 {
                for a in 1..=m / 2 {
                    seen.insert(vec![a, m - a]);
                }
            }
            if d & 8 != 0 {
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        seen.insert(vec![a, b, m - a - b]);
                    }
                }
            }
        }
        out.extend(seen);
    }
}

impl std::str::FromStr for Code {
    type Err = CodeError;

    /// `0.77`, `.77`, `4.07`, `0.8f` (hexadecimal digits in either case); `_` separates
    /// digits for reading.
    fn from_str(text: &str) -> Result<Code, CodeError> {
        let text = text.trim();
        let (whole, frac) = text.split_once('.').ok_or_else(|| CodeError {
            column: 1,
            message: format!("expected a code such as 0.77, found `{text}`"),
        })?;
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            "8" => 8,
            "c" | "C" => 12,
            _ => {
                return Err(CodeError {
                    column: 1,
                    message: format!(
                        "the digit before the point must be 0, 4, 8 or c, found `{whole}`"
                    ),
                })
            }
        };
        let mut digits = vec![d0];
        for (i, c) in frac.chars().enumerate() {
            if c == '_' {
                continue;
            }
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(CodeError {
                        column: whole.chars().count() + 2 + i,
                        message: format!("digits are 0 to 9 and a to f, found `{c}`"),
                    })
                }
            }
        }
        Code::from_digits(&digits)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:x}.", self.digits[0])?;
        if self.digits.len() == 1 {
            f.write_str("0")?;
        }
        for d in &self.digits[1..] {
            write!(f, "{d:x}")?;
        }
        Ok(())
    }
}

/// The rules of a heap game with a finite description: the games whose periods can be
/// proved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rules {
    /// An octal or hexadecimal code.
    Code(Code),
    /// Take an amount in the set (positive, sorted, distinct) from one heap.
    Subtraction(Vec<u64>),
}

impl Rules {
    /// A subtraction game; the set is sorted and deduplicated.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the set is empty or holds 0.
    pub fn subtraction(set: &[u64]) -> Result<Rules, Error> {
        let mut set = set.to_vec();
        set.sort_unstable();
        set.dedup();
        if set.first().is_none_or(|&s| s == 0) {
            return Err(Error::Unsupported(
                "a subtraction set needs positive amounts".into(),
            ));
        }
        Ok(Rules::Subtraction(set))
    }

    /// `t`: the most tokens a move removes.
    #[must_use]
    pub fn max_removal(&self) -> u64 {
        match self {
            Rules::Code(code) => code.max_removal(),
            Rules::Subtraction(set) => set.last().copied().unwrap_or(0),
        }
    }
}

impl FromStr for Rules {
    type Err = CodeError;

    /// A code (`0.77`, `4.07`, `0.f`) or a subtraction set (`{1,2,5}` or `S(1,2,5)`).
    fn from_str(text: &str) -> Result<Rules, CodeError> {
        let t = text.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .or_else(|| t.strip_prefix("S(").and_then(|r| r.strip_suffix(')')));
        match inner {
            Some(list) => {
                let set: Result<Vec<u64>, _> =
                    list.split(',').map(|x| x.trim().parse::<u64>()).collect();
                let set = set.map_err(|e| CodeError {
                    column: 1,
                    message: format!("a subtraction set is a list of numbers: {e}"),
                })?;
                Rules::subtraction(&set).map_err(|e| CodeError {
                    column: 1,
                    message: e.to_string(),
                })
            }
            None => Ok(Rules::Code(t.parse()?)),
        }
    }
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rules::Code(code) => write!(f, "{code}"),
            Rules::Subtraction(set) => {
                let items: Vec<String> = set.iter().map(ToString::to_string).collect();
                write!(f, "{{{}}}", items.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for text in [
            "0.77", "0.07", "4.07", "0.137", "0.6", "0.8", "4.0", "0.f7", "c.1",
        ] {
            assert_eq!(text.parse::<Code>().unwrap().to_string(), text);
        }
        assert_eq!(".77".parse::<Code>().unwrap().to_string(), "0.77");
        assert_eq!("0.F_70".parse::<Code>().unwrap().to_string(), "0.f7");
        assert_eq!("0.7g".parse::<Code>().unwrap_err().column, 4);
        assert!("1.7".parse::<Code>().is_err());
        assert!("0.0".parse::<Code>().is_err());
        assert!("077".parse::<Code>().is_err());
        assert!(!"0.9".parse::<Code>().unwrap().is_octal());
    }

    #[test]
    fn options_of_small_heaps() {
        let code: Code = "0.8".parse().unwrap();
        let mut out = Vec::new();
        code.options(6, &mut out);
        assert_eq!(out, vec![vec![1, 1, 3], vec![1, 2, 2]]);
    }
}
