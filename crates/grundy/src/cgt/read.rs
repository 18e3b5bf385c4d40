//! Reading a canonical form as CGSuite writes it: `{2||1|0}`, `1/2`, `*3`, `^^*`, `v3`,
//! `±1` (or `+-1`), `6^*`, `73/16v9*8`, sums and differences (`^ + *2 - 1/4`, with
//! parentheses: `{1|0} - (^ + *)`), options
//! separated by commas and sides by runs of bars (the longest run splits first:
//! `{0||0|v*}` is `{0 || {0 | v*}}`). What [`super::write`] prints reads back to the same
//! value. CGSuite's uptimal shorthands (`^[4]`, `^<2>`) and named games (`Tiny(x)`) are
//! not read.

use std::fmt;

use super::number::Dyadic;
use super::value::{GameId, Table, MAX_NIMBER};

/// The largest integer a form may name: `n` is built as `n` forms, so a typed number
/// must not set the size. Nimbers and counts of ups stop at [`MAX_NIMBER`].
pub const MOST: u32 = 1 << 16;

/// Why a text is not a canonical form: the column (1-based, in characters) and what is
/// wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormError {
    /// Where, counting characters from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for FormError {}

/// The value `text` writes, made in `table`.
///
/// # Errors
/// A [`FormError`] at the first place that is not CGSuite's notation, or past the range
/// of the table's numbers.
pub fn read(table: &mut Table, text: &str) -> Result<GameId, FormError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        table,
        depth: 0,
    };
    reader.blank();
    if reader.at == reader.chars.len() {
        return Err(reader.error("expected a game, found nothing"));
    }
    let g = reader.expr()?;
    reader.blank();
    if reader.at < reader.chars.len() {
        return Err(reader.error(&format!("unexpected `{}`", reader.chars[reader.at])));
    }
    Ok(g)
}

/// Braces nested deeper than this are refused (each level is a frame of recursion).
const MOST_DEPTH: usize = 200;

struct Reader<'t> {
    chars: Vec<char>,
    at: usize,
    table: &'t mut Table,
    depth: usize,
}

/// What the inside of braces holds, in order.
enum Item {
    Option(GameId),
    Bars(usize, usize),
}

impl Reader<'_> {
    fn error(&self, message: &str) -> FormError {
        FormError {
            column: self.at + 1,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn blank(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn overflow(&self) -> FormError {
        self.error("past the range of the numbers of games (n / 2^k, |n| and k up to 2^62)")
    }

    fn sum(&mut self, a: GameId, b: GameId) -> Result<GameId, FormError> {
        self.table.sum(a, b).map_err(|_| self.overflow())
    }

    /// `term (('+' | '-') term)*`, a leading `-` allowed.
    fn expr(&mut self) -> Result<GameId, FormError> {
        self.blank();
        let mut total = self.signed()?;
        loop {
            self.blank();
            match self.peek() {
                Some('+') if self.chars.get(self.at + 1) != Some(&'-') => {
                    self.at += 1;
                    let t = self.signed()?;
                    total = self.sum(total, t)?;
                }
                Some('-') => {
                    self.at += 1;
                    let t = self.signed()?;
                    let t = self.table.neg(t);
                    total = self.sum(total, t)?;
                }
                _ => return Ok(total),
            }
        }
    }

    /// A term with a sign of its own: `-x`, `±x`, `+-x`. A `-` right before a number is
    /// the number's sign alone, as the printer writes `-1 + ^` (`-1^`, not `-(1^)`).
    fn signed(&mut self) -> Result<GameId, FormError> {
        self.blank();
        match self.peek() {
            Some('-')
                if self
                    .chars
                    .get(self.at + 1)
                    .is_some_and(|c| c.is_ascii_digit()) =>
            {
                self.at += 1;
                self.term_of(true)
            }
            Some('-') => {
                self.at += 1;
                let t = self.signed()?;
                Ok(self.table.neg(t))
            }
            Some('±') => {
                self.at += 1;
                self.switch()
            }
            Some('+') if self.chars.get(self.at + 1) == Some(&'-') => {
                self.at += 2;
                self.switch()
            }
            _ => self.term(),
        }
    }

    /// `±x = {x | −x}`.
    fn switch(&mut self) -> Result<GameId, FormError> {
        let x = self.signed()?;
        let minus = self.table.neg(x);
        Ok(self.table.game(&[x], &[minus]))
    }

    /// `{…}`, or a number-up-star: `[number][ups][star]`, at least one of them.
    fn term(&mut self) -> Result<GameId, FormError> {
        self.term_of(false)
    }

    /// [`Reader::term`], its number negated when `negative` (after a `-` sign).
    fn term_of(&mut self, negative: bool) -> Result<GameId, FormError> {
        self.blank();
        if self.peek() == Some('{') {
            return self.braces();
        }
        if self.peek() == Some('(') {
            return self.parenthesized();
        }
        let start = self.at;
        let mut total = self.table.zero();
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let x = self.number()?;
            total = self.table.number(if negative { x.negate() } else { x });
        }
        if let Some(c @ ('^' | 'v' | '↑' | '↓')) = self.peek() {
            let up = matches!(c, '^' | '↑');
            self.at += 1;
            let digits = self.at;
            let mut count = 1;
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                count = self.count("ups")?;
            } else {
                while self.peek() == Some(c) {
                    self.at += 1;
                    count += 1;
                }
            }
            if count > MAX_NIMBER {
                return Err(FormError {
                    column: digits + 1,
                    message: format!("more than {MAX_NIMBER} ups"),
                });
            }
            let one = if up {
                self.table.up()
            } else {
                self.table.down()
            };
            for _ in 0..count {
                total = self.sum(total, one)?;
            }
        }
        if self.peek() == Some('*') {
            self.at += 1;
            let digits = self.at;
            let n = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.count("a nimber")?
            } else {
                1
            };
            if n > MAX_NIMBER {
                return Err(FormError {
                    column: digits + 1,
                    message: format!("a nimber above *{MAX_NIMBER}"),
                });
            }
            let star = self.table.nimber(n);
            total = self.sum(total, star)?;
        }
        if self.at == start {
            return Err(match self.peek() {
                Some(c) => self.error(&format!(
                    "expected a game (`{{…|…}}`, a number, `*`, `^` or `v`), found `{c}`"
                )),
                None => self.error("expected a game, found the end"),
            });
        }
        Ok(total)
    }

    /// `(expr)`: a sum or difference as one term (`{1|0} - (^ + *)`), as CGSuite reads it.
    fn parenthesized(&mut self) -> Result<GameId, FormError> {
        let open = self.at;
        self.at += 1;
        self.depth += 1;
        if self.depth > MOST_DEPTH {
            return Err(self.error(&format!(
                "braces and parentheses nested more than {MOST_DEPTH} deep"
            )));
        }
        let g = self.expr()?;
        self.blank();
        if self.peek() != Some(')') {
            return Err(match self.peek() {
                None => FormError {
                    column: open + 1,
                    message: "this `(` is never closed".into(),
                },
                Some(c) => self.error(&format!("expected `)`, found `{c}`")),
            });
        }
        self.at += 1;
        self.depth -= 1;
        Ok(g)
    }

    /// Decimal digits as a count (`*12`, `^3`).
    fn count(&mut self, what: &str) -> Result<u32, FormError> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits.parse::<u32>().map_err(|_| FormError {
            column: start + 1,
            message: format!("{what} too large: {digits}"),
        })
    }

    /// `n` or `n/2^k`, unsigned.
    fn number(&mut self) -> Result<Dyadic, FormError> {
        let start = self.at;
        let whole = self.count("a number")?;
        if whole > MOST {
            return Err(FormError {
                column: start + 1,
                message: format!("an integer above {MOST}"),
            });
        }
        if self.peek() != Some('/') {
            return Dyadic::integer(i64::from(whole)).ok_or_else(|| self.overflow());
        }
        self.at += 1;
        let below = self.at;
        let denominator = self.count("a denominator")?;
        if denominator == 0 || !denominator.is_power_of_two() {
            return Err(FormError {
                column: below + 1,
                message: format!(
                    "a denominator must be a power of two (a dyadic rational), not {denominator}"
                ),
            });
        }
        Dyadic::new(i128::from(whole), denominator.trailing_zeros()).ok_or_else(|| self.overflow())
    }

    /// `{` items `}`.
    fn braces(&mut self) -> Result<GameId, FormError> {
        let open = self.at;
        self.at += 1;
        self.depth += 1;
        if self.depth > MOST_DEPTH {
            return Err(self.error(&format!("braces nested more than {MOST_DEPTH} deep")));
        }
        let mut items = Vec::new();
        let mut after_option = false;
        let mut after_comma = false;
        loop {
            self.blank();
            if after_comma && matches!(self.peek(), Some('|' | '}')) {
                return Err(self.error("expected an option after the comma"));
            }
            after_comma = false;
            match self.peek() {
                None => {
                    return Err(FormError {
                        column: open + 1,
                        message: "this `{` is never closed".into(),
                    })
                }
                Some('}') => {
                    self.at += 1;
                    break;
                }
                Some('|') => {
                    let start = self.at;
                    while self.peek() == Some('|') {
                        self.at += 1;
                    }
                    items.push(Item::Bars(self.at - start, start));
                    after_option = false;
                }
                Some(',') if after_option => {
                    self.at += 1;
                    after_option = false;
                    after_comma = true;
                }
                Some(',') => return Err(self.error("a comma with no option before it")),
                Some(_) if after_option => {
                    return Err(self.error("expected `,`, `|` or `}` after an option"))
                }
                Some(_) => {
                    let g = self.expr()?;
                    items.push(Item::Option(g));
                    after_option = true;
                }
            }
        }
        self.depth -= 1;
        self.build(&items, open)
    }

    /// The game of a run of items, split at its longest run of bars.
    fn build(&mut self, items: &[Item], open: usize) -> Result<GameId, FormError> {
        let mut split: Option<(usize, usize)> = None;
        let mut tie = None;
        for (i, item) in items.iter().enumerate() {
            if let Item::Bars(n, at) = *item {
                match split {
                    Some((_, most)) if n < most => {}
                    Some((_, most)) if n == most => tie = Some(at),
                    _ => {
                        split = Some((i, n));
                        tie = None;
                    }
                }
            }
        }
        let Some((i, _)) = split else {
            return Err(FormError {
                column: open + 1,
                message: "a game needs a `|` between Left's options and Right's".into(),
            });
        };
        if let Some(at) = tie {
            return Err(FormError {
                column: at + 1,
                message: "two runs of bars of the same length at one level: which splits first is unclear"
                    .into(),
            });
        }
        let left = self.side(&items[..i], open)?;
        let right = self.side(&items[i + 1..], open)?;
        Ok(self.table.game(&left, &right))
    }

    /// One side's options: a list, or a game of its own when it holds bars.
    fn side(&mut self, items: &[Item], open: usize) -> Result<Vec<GameId>, FormError> {
        if items.iter().any(|item| matches!(item, Item::Bars(..))) {
            return Ok(vec![self.build(items, open)?]);
        }
        Ok(items
            .iter()
            .filter_map(|item| match *item {
                Item::Option(g) => Some(g),
                Item::Bars(..) => None,
            })
            .collect())
    }
}
