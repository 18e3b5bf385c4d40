//! Whole numbers as people write them in specs and on the command line: `1000`, `1_000`,
//! `10^18`, `1e6`, `2^20`.
//!
//! ```text
//! number := digits ('_' digits)* (('^' | 'e' | 'E') digits)?
//! ```
//!
//! `a^b` is `a` to the power `b`; `aeb` is `a · 10^b`. Underscores go only between digits.
//! No sign, no spaces, no fraction: `1.5e3` is refused rather than rounded.
//!
//! ```
//! use grundy::number::parse_number;
//! assert_eq!(parse_number("10^18"), Ok(1_000_000_000_000_000_000));
//! assert_eq!(parse_number("1e6"), Ok(1_000_000));
//! assert_eq!(parse_number("2_000_000"), Ok(2_000_000));
//! assert!(parse_number("1.5e3").is_err());
//! ```

use thiserror::Error;

/// `n` and the noun that fits it: `count(1, "move", "moves")` is `1 move`, any other count
/// takes the plural (`0 moves`, `2 moves`).
#[must_use]
pub fn count(n: u128, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// `2.5e23`-style rendering of any count.
pub(crate) fn sci_float(x: u128) -> String {
    format!("{:.1e}", x as f64)
}

/// The indefinite article of a word or a number as it is read aloud: `an 8-gon`, `a
/// 5-gon`, `an 11-gon`, `an octal game`, `a unit`.
#[must_use]
pub fn article(word: &str) -> &'static str {
    let lower = word.to_ascii_lowercase();
    // Numbers read aloud: 8, 11, 18, 80..89, 800.. begin with a vowel sound.
    let digits: String = lower.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        // "eleven", "eighteen", "eleven thousand": two digits in the leading group.
        let vowel = digits.starts_with('8')
            || (digits.len() % 3 == 2 && (digits.starts_with("11") || digits.starts_with("18")));
        return if vowel { "an" } else { "a" };
    }
    if lower.starts_with(['a', 'e', 'i', 'o'])
        || (lower.starts_with('u') && !lower.starts_with("uni"))
    {
        "an"
    } else {
        "a"
    }
}

/// Why a text is not a number of the grammar above, or too large.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NumberError {
    /// Not of the grammar; `column` is the 1-based character where it goes wrong.
    #[error("`{text}` is not a whole number (column {column}: {reason}); write e.g. 1000, 1_000, 10^18 or 1e6")]
    Syntax {
        /// The text, cut short if long.
        text: String,
        /// The 1-based character column where it goes wrong.
        column: usize,
        /// What was expected there.
        reason: &'static str,
    },
    /// The value is larger than `max`.
    #[error("`{text}` is larger than the maximum {max}")]
    TooLarge {
        /// The text, cut short if long.
        text: String,
        /// The largest value allowed.
        max: u128,
    },
}

/// The longest text an error quotes.
const SHOWN: usize = 40;

fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(SHOWN)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if text.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

/// Parses a whole number of the grammar in the [module docs](self), up to `u128::MAX`.
///
/// # Errors
/// [`NumberError::Syntax`] for text outside the grammar, [`NumberError::TooLarge`] past
/// `u128::MAX`.
pub fn parse_number(text: &str) -> Result<u128, NumberError> {
    parse_number_max(text, u128::MAX)
}

/// [`parse_number`] with a maximum (for example `u64::MAX.into()`).
///
/// # Errors
/// As [`parse_number`], and [`NumberError::TooLarge`] past `max`.
pub fn parse_number_max(text: &str, max: u128) -> Result<u128, NumberError> {
    let chars: Vec<char> = text.chars().collect();
    let syntax = |at: usize, reason: &'static str| NumberError::Syntax {
        text: shown(text),
        column: at + 1,
        reason,
    };
    let too_large = || NumberError::TooLarge {
        text: shown(text),
        max,
    };
    // digits ('_' digits)*, from `at`; the value and where it stops.
    let digits = |mut at: usize| -> Result<(u128, usize), NumberError> {
        if !chars.get(at).is_some_and(char::is_ascii_digit) {
            return Err(syntax(at, "expected a digit"));
        }
        let mut value: u128 = 0;
        while let Some(&c) = chars.get(at) {
            if c == '_' {
                if !chars.get(at + 1).is_some_and(char::is_ascii_digit) {
                    return Err(syntax(at + 1, "expected a digit after `_`"));
                }
            } else if let Some(d) = c.to_digit(10) {
                value = value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(u128::from(d)))
                    .ok_or_else(too_large)?;
            } else {
                break;
            }
            at += 1;
        }
        Ok((value, at))
    };
    let (mantissa, at) = digits(0)?;
    let value = match chars.get(at) {
        None => mantissa,
        Some(&op @ ('^' | 'e' | 'E')) => {
            let (exponent, end) = digits(at + 1)?;
            if end < chars.len() {
                return Err(syntax(end, "expected the end of the number"));
            }
            let exponent = u32::try_from(exponent).map_err(|_| too_large())?;
            if op == '^' {
                mantissa.checked_pow(exponent)
            } else {
                10u128
                    .checked_pow(exponent)
                    .and_then(|p| mantissa.checked_mul(p))
            }
            .ok_or_else(too_large)?
        }
        Some(_) => {
            return Err(syntax(
                at,
                "expected a digit, `_`, `^` or `e` (no signs, spaces or fractions)",
            ))
        }
    };
    if value > max {
        return Err(too_large());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count(1, "move", "moves"), "1 move");
        assert_eq!(count(0, "move", "moves"), "0 moves");
        assert_eq!(count(2, "vertex", "vertices"), "2 vertices");
    }

    #[test]
    fn forms() {
        assert_eq!(parse_number("0"), Ok(0));
        assert_eq!(parse_number("1_000"), Ok(1000));
        assert_eq!(parse_number("10^18"), Ok(10u128.pow(18)));
        assert_eq!(parse_number("2^20"), Ok(1 << 20));
        assert_eq!(parse_number("1e6"), Ok(1_000_000));
        assert_eq!(parse_number("3E2"), Ok(300));
        assert_eq!(parse_number("0^0"), Ok(1));
        assert_eq!(parse_number("1_0e1_0"), Ok(10u128.pow(11)));
        assert_eq!(
            parse_number("340282366920938463463374607431768211455"),
            Ok(u128::MAX)
        );
    }

    #[test]
    fn refusals() {
        for (text, column) in [
            ("", 1),
            ("-1", 1),
            ("+1", 1),
            ("1.5e3", 2),
            ("1__0", 3),
            ("1_", 3),
            ("_1", 1),
            ("1e", 3),
            ("10^", 4),
            ("1e6x", 4),
            (" 1", 1),
            ("1 ", 2),
            ("0x10", 2),
        ] {
            match parse_number(text) {
                Err(NumberError::Syntax { column: c, .. }) => assert_eq!(c, column, "{text}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert!(matches!(
            parse_number("340282366920938463463374607431768211456"),
            Err(NumberError::TooLarge { .. })
        ));
        assert!(matches!(
            parse_number("10^39"),
            Err(NumberError::TooLarge { .. })
        ));
        assert!(matches!(
            parse_number("2^4294967296"),
            Err(NumberError::TooLarge { .. })
        ));
        assert_eq!(parse_number_max("2^64", u64::MAX.into()).ok(), None);
        assert_eq!(
            parse_number_max("2^64", u128::from(u64::MAX)),
            Err(NumberError::TooLarge {
                text: "2^64".into(),
                max: u64::MAX.into()
            })
        );
        let long = "9".repeat(100_000) + "x";
        let e = parse_number(&long).unwrap_err().to_string();
        assert!(e.len() < 300, "{}", e.len());
        let e = parse_number("1\u{0}").unwrap_err().to_string();
        assert!(!e.contains('\u{0}'), "{e:?}");
    }
    #[test]
    fn articles_agree_with_their_sound() {
        for (word, a) in [
            ("5-gon", "a"),
            ("8-gon", "an"),
            ("11-gon", "an"),
            ("18-gon", "an"),
            ("110-gon", "a"),
            ("80-gon", "an"),
            ("1100-gon", "a"),
            ("11000-gon", "an"),
            ("octal", "an"),
            ("unit", "a"),
            ("up", "an"),
            ("heap", "a"),
        ] {
            assert_eq!(super::article(word), a, "{word}");
        }
    }
}
