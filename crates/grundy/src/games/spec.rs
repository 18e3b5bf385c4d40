//! The spec parser: text → [`Spec`], with errors that point at a line and column and say
//! what was expected. The parser knows the syntax; each family's registry entry
//! ([`Entry`]) turns the parameters and the position into rules and a position.
//!
//! ```text
//! spec    := part ('+' part)*
//! part    := name ('[' param (',' param)* ']')? ('(' (arg (',' arg)*)? ')')?
//! param   := number | code such as 0.77 or 4.07 | dims such as 3x4
//! arg     := number | dims such as 3x4 | board such as x.o/.x./... | edge such as 0-1:B
//! number  := '-'? digits ('_' digits)* ('^' digits | 'e' digits)?     e.g. 10^12, 1e6
//! ```
//!
//! The position may be left out for families with a natural start (`tictactoe`,
//! `chomp[3x4]`).

use std::sync::Arc;

use super::family::{Family, Part, Pos, Spec};
use super::registry;

/// A spec that could not be read: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SpecError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was wrong, and what was expected.
    pub message: String,
}

impl SpecError {
    /// The error as every front end shows it: where it is, what was wrong, then the
    /// offending line of `text` (the spec that was parsed) with a caret under the column.
    /// A long line is shown as a window around the column, and a long `quoted` echo in the
    /// message is cut, so that a 100 000-character spec is not repeated whole; control
    /// characters are shown as one replacement character each, so the caret stays under
    /// its column.
    ///
    /// ```
    /// let e = "nim(3,x)".parse::<grundy::games::Spec>().unwrap_err();
    /// assert_eq!(
    ///     e.render("nim(3,x)").lines().nth(2),
    ///     Some("        ^")
    /// );
    /// ```
    #[must_use]
    pub fn render(&self, text: &str) -> String {
        let line: Vec<char> = text
            .lines()
            .nth(self.line.saturating_sub(1))
            .unwrap_or("")
            .chars()
            .collect();
        let col = self.column.saturating_sub(1).min(line.len());
        let end = (col + WINDOW / 2).max(WINDOW).min(line.len());
        let start = end.saturating_sub(WINDOW).min(col);
        let mut shown: String = if start > 0 {
            "…".into()
        } else {
            String::new()
        };
        shown.extend(
            line[start..end]
                .iter()
                .map(|&c| if c.is_control() { '\u{fffd}' } else { c }),
        );
        if end < line.len() {
            shown.push('…');
        }
        let caret = col - start + usize::from(start > 0);
        format!(
            "bad spec at line {}, column {}: {}\n  {shown}\n  {}^",
            self.line,
            self.column,
            cut_echoes(&self.message),
            " ".repeat(caret)
        )
    }
}

/// The most characters of a spec line an error shows.
const WINDOW: usize = 72;
/// The most characters of a `quoted` echo an error shows.
const ECHO: usize = 40;

/// Cuts every `backquoted` span of `message` longer than 40 characters, and replaces
/// control characters, so that no message repeats a huge or binary input: what every
/// front end does to a message before it shows it (a refusal of a 40 KB spec echoes 40
/// characters of it).
pub fn cut_echoes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Line breaks are kept outside the echoes (a message of several lines).
        let echo = i % 2 == 1;
        let clean = part.chars().map(move |c| {
            if c.is_control() && (echo || c != '\n') {
                '\u{fffd}'
            } else {
                c
            }
        });
        if echo && part.chars().nth(ECHO).is_some() {
            out.extend(clean.take(ECHO - 1));
            out.push('…');
        } else {
            out.extend(clean);
        }
    }
    out
}

/// What a number too large for a spec is told.
const TOO_LARGE: &str = "number too large (at most 2^64 - 1)";

/// A number as written, with where it starts.
#[derive(Debug, Clone, Copy)]
pub struct Number {
    /// The value (specs hold numbers up to 2^64 − 1, and their negatives).
    pub value: i128,
    /// Character index where it starts.
    pub at: usize,
}

/// One item of a bracketed parameter list or of a position.
#[derive(Debug, Clone)]
pub enum Param {
    /// A number.
    Number(Number),
    /// A code `d.ddd`, as written.
    Code {
        /// The text.
        text: String,
        /// Where it starts.
        at: usize,
    },
    /// Dimensions `a x b`.
    Dims {
        /// The first dimension.
        a: u64,
        /// The second.
        b: u64,
        /// Where it starts.
        at: usize,
    },
    /// A run of digits too long for a number (a position item only): a list of moves,
    /// one digit each, as connect four's columns played. Read as a number, it is too
    /// large.
    Digits {
        /// The digits.
        text: String,
        /// Where they start.
        at: usize,
    },
    /// A word of letters, dots and slashes: a board; or digits then `-` or `:` and
    /// more (letters, digits, `-`, `:`): an edge such as `0-1:B`.
    Word {
        /// The text.
        text: String,
        /// Where it starts.
        at: usize,
    },
}

impl Param {
    /// Where the item starts (character index).
    #[must_use]
    pub fn at(&self) -> usize {
        match self {
            Param::Number(n) => n.at,
            Param::Code { at, .. }
            | Param::Dims { at, .. }
            | Param::Digits { at, .. }
            | Param::Word { at, .. } => *at,
        }
    }
}

/// A family's entry in the registry: its name, its shape for help texts, and how it
/// builds rules and a position from what was written.
pub struct Entry {
    /// The name as written in a spec.
    pub name: &'static str,
    /// The shape, for help texts: `nim(h1,h2,…): take any number from one heap`.
    pub shape: &'static str,
    /// Positions worth showing, for example lists.
    pub examples: &'static [&'static str],
    /// Specs small enough to solve whole in a moment (a few thousand positions), of the
    /// family's own kind: the registry's conformance test checks the family on every
    /// position they reach. Required: an entry without one fails that test.
    pub small: &'static [&'static str],
    /// Builds the family and, when given or implied, the position.
    pub build: fn(&Args<'_>) -> Result<Built, SpecError>,
    /// The family's variants as a front end offers them (the web page's options panel):
    /// its parameters' choices and the spec they make; [`Options::NONE`] when it has one
    /// form only.
    pub options: Options,
}

/// A family's options: each [`Setting`]'s choices, and the spec a choice of each makes
/// ([`Options::spec`]). What is offered is the family's to say, so that a front end shows
/// the panel with no knowledge of any game.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The spec, with `{name}` where the value of the setting `name` goes:
    /// `connect4[{columns}x{rows}]`.
    pub template: &'static str,
    /// The settings, in the order they are shown.
    pub settings: &'static [Setting],
}

/// One setting of a family's [`Options`]: a parameter of its spec, or of its start.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// Its key in the template.
    pub name: &'static str,
    /// What a person calls it: `columns`, `seeds a pit`.
    pub label: &'static str,
    /// The values offered.
    pub values: Offered,
    /// The value chosen at first (one of the values).
    pub default: &'static str,
}

impl Setting {
    /// A setting offering the whole numbers `min..=max`, named as the template names it.
    #[must_use]
    pub const fn range(name: &'static str, min: u32, max: u32, default: &'static str) -> Setting {
        Setting {
            name,
            label: name,
            values: Offered::Range(min, max),
            default,
        }
    }
}

/// The values a [`Setting`] offers.
#[derive(Debug, Clone, Copy)]
pub enum Offered {
    /// The whole numbers `min..=max`.
    Range(u32, u32),
    /// These values as written in the spec, each with its words (empty: the value says it).
    List(&'static [(&'static str, &'static str)]),
}

impl Offered {
    /// Every value offered, with its words: `(value, words)`.
    #[must_use]
    pub fn choices(&self) -> Vec<(String, &'static str)> {
        match *self {
            Offered::Range(min, max) => (min..=max).map(|v| (v.to_string(), "")).collect(),
            Offered::List(list) => list.iter().map(|&(v, w)| (v.to_string(), w)).collect(),
        }
    }

    /// Whether `value` is one of them.
    #[must_use]
    pub fn offers(&self, value: &str) -> bool {
        match *self {
            Offered::Range(min, max) => value
                .parse::<u32>()
                .is_ok_and(|v| (min..=max).contains(&v) && v.to_string() == value),
            Offered::List(list) => list.iter().any(|&(v, _)| v == value),
        }
    }
}

impl Options {
    /// A family with one form: no settings.
    pub const NONE: Options = Options {
        template: "",
        settings: &[],
    };

    /// The spec the values `chosen` gives each setting make (a setting it gives none
    /// keeps its default), not yet parsed.
    ///
    /// # Errors
    /// A family with no options, a value not offered, or a name that is no setting.
    pub fn spec<'a>(&self, chosen: &[(&'a str, &'a str)]) -> Result<String, String> {
        if self.settings.is_empty() {
            return Err("this family has no options".to_string());
        }
        if let Some((name, _)) = chosen
            .iter()
            .find(|(name, _)| !self.settings.iter().any(|s| s.name == *name))
        {
            let names: Vec<&str> = self.settings.iter().map(|s| s.name).collect();
            return Err(format!(
                "no option `{name}`: the options are {}",
                names.join(", ")
            ));
        }
        let mut spec = self.template.to_string();
        for s in self.settings {
            let value = chosen
                .iter()
                .rev()
                .find(|(name, _)| *name == s.name)
                .map_or(s.default, |&(_, v)| v);
            if !s.values.offers(value) {
                let offered: Vec<String> = s.values.choices().into_iter().map(|(v, _)| v).collect();
                return Err(format!(
                    "`{value}` is not a choice of {}: {}",
                    s.label,
                    offered.join(", ")
                ));
            }
            spec = spec.replace(&format!("{{{}}}", s.name), value);
        }
        Ok(spec)
    }
}

/// What an [`Entry`] builds: the rules, and the position when one was written or the
/// family has a natural start.
pub struct Built {
    /// The rules with their parameters.
    pub family: Arc<dyn Family>,
    /// The position, if any.
    pub position: Option<Pos>,
}

impl Built {
    /// A family with a position.
    pub fn new(family: impl Family + 'static, position: Option<Pos>) -> Built {
        Built {
            family: Arc::new(family),
            position,
        }
    }
}

/// What was written for one part, handed to its [`Entry`], with helpers that read it and
/// point errors at the right column.
pub struct Args<'a> {
    parser: &'a Parser<'a>,
    /// The name as written (lowercase).
    pub name: &'a str,
    name_at: usize,
    params: Option<(Vec<Param>, usize)>,
    position: Option<Vec<Param>>,
    open_at: usize,
}

impl Args<'_> {
    /// An error at character index `at`.
    #[must_use]
    pub fn error_at(&self, at: usize, message: impl Into<String>) -> SpecError {
        self.parser.error_at(at, message)
    }

    /// An error at the family's name.
    #[must_use]
    pub fn error_at_name(&self, message: impl Into<String>) -> SpecError {
        self.parser.error_at(self.name_at, message)
    }

    /// The position's items, if a position was written.
    #[must_use]
    pub fn position(&self) -> Option<&[Param]> {
        self.position.as_deref()
    }

    /// The bracketed parameters, if any.
    #[must_use]
    pub fn params(&self) -> Option<&[Param]> {
        self.params.as_ref().map(|(p, _)| p.as_slice())
    }

    /// Refuses bracketed parameters.
    ///
    /// # Errors
    /// If there are some.
    pub fn no_params(&self) -> Result<(), SpecError> {
        match &self.params {
            None => Ok(()),
            Some((items, _)) => Err(self.error_at(
                items.first().map_or(self.name_at, Param::at),
                format!("`{}` takes no parameters in brackets", self.name),
            )),
        }
    }

    /// The one bracketed parameter.
    ///
    /// # Errors
    /// If there is none or more than one.
    pub fn one_param(&self, example: &str) -> Result<&Param, SpecError> {
        match &self.params {
            Some((items, _)) if items.len() == 1 => Ok(&items[0]),
            Some((items, end)) => Err(self.error_at(
                items.get(1).map_or(end.saturating_sub(1), Param::at),
                format!("`{}` takes one parameter, as in `{example}`", self.name),
            )),
            None => Err(self.error_at(
                self.open_at,
                format!(
                    "expected `[`: `{}` needs a parameter, as in `{example}`",
                    self.name
                ),
            )),
        }
    }

    /// The bracketed parameters, required and non-empty.
    ///
    /// # Errors
    /// If absent or empty.
    pub fn some_params(&self, example: &str) -> Result<&[Param], SpecError> {
        match &self.params {
            Some((items, end)) if items.is_empty() => Err(self.error_at(
                end.saturating_sub(1),
                format!("`{}` needs parameters, as in `{example}`", self.name),
            )),
            Some((items, _)) => Ok(items),
            None => Err(self.error_at(
                self.open_at,
                format!(
                    "expected `[`: `{}` needs parameters, as in `{example}`",
                    self.name
                ),
            )),
        }
    }

    /// A whole number, possibly negative.
    ///
    /// # Errors
    /// If `p` is not a number.
    pub fn integer(&self, p: &Param) -> Result<i128, SpecError> {
        match p {
            Param::Number(n) => Ok(n.value),
            Param::Digits { at, .. } => Err(self.error_at(*at, TOO_LARGE)),
            other => Err(self.error_at(other.at(), "expected a whole number")),
        }
    }

    /// A number ≥ 0 (`what` names it in the error).
    ///
    /// # Errors
    /// If negative or not a number.
    pub fn natural(&self, p: &Param, what: &str) -> Result<u64, SpecError> {
        u64::try_from(self.integer(p)?)
            .map_err(|_| self.error_at(p.at(), format!("{what} must not be negative")))
    }

    /// A number ≥ 1.
    ///
    /// # Errors
    /// If below 1 or not a number.
    pub fn positive(&self, p: &Param, what: &str) -> Result<u64, SpecError> {
        let v = self.natural(p, what)?;
        if v == 0 {
            return Err(self.error_at(p.at(), format!("{what} must be at least 1")));
        }
        Ok(v)
    }

    /// Every item of `items` as a number ≥ 0.
    ///
    /// # Errors
    /// As [`Args::natural`].
    pub fn naturals(&self, items: &[Param], what: &str) -> Result<Pos, SpecError> {
        items.iter().map(|p| self.natural(p, what)).collect()
    }

    /// The position as numbers ≥ 0, or `None` if no position was written.
    ///
    /// # Errors
    /// As [`Args::natural`].
    pub fn position_naturals(&self, what: &str) -> Result<Option<Pos>, SpecError> {
        self.position
            .as_deref()
            .map(|items| self.naturals(items, what))
            .transpose()
    }

    /// Checks that the position has one of the lengths in `want`.
    ///
    /// # Errors
    /// Pointing at the first item too many, or at the parenthesis.
    pub fn arity(&self, items: &[Param], want: &[usize], example: &str) -> Result<(), SpecError> {
        if want.contains(&items.len()) {
            Ok(())
        } else {
            let at = want
                .last()
                .and_then(|&w| items.get(w))
                .map_or(self.open_at, Param::at);
            Err(self.error_at(at, format!("expected a position such as `{example}`")))
        }
    }

    /// Where the position's `(` is (or would be).
    #[must_use]
    pub fn open_at(&self) -> usize {
        self.open_at
    }
}

/// The syntax of specs; families are looked up in the registry.
pub struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
}

/// Parses a spec.
pub(super) fn parse(text: &str) -> Result<Spec, SpecError> {
    check_length(text)?;
    let mut p = Parser {
        text,
        chars: text.char_indices().collect(),
        pos: 0,
    };
    let mut parts = Vec::new();
    loop {
        p.skip_space();
        parts.push(p.part()?);
        p.skip_space();
        match p.peek() {
            None => break,
            Some('+') => p.pos += 1,
            Some(c) => return Err(p.error_here(format!("expected `+` or the end, found `{c}`"))),
        }
    }
    Ok(Spec { parts })
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// The error at character index `at`.
    fn error_at(&self, at: usize, message: impl Into<String>) -> SpecError {
        let mut line = 1;
        let mut column = 1;
        for &(_, c) in self.chars.iter().take(at) {
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        SpecError {
            line,
            column,
            message: message.into(),
        }
    }

    fn error_here(&self, message: impl Into<String>) -> SpecError {
        self.error_at(self.pos, message)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("found `{c}`"),
            None => "found the end".into(),
        }
    }

    fn slice(&self, from: usize, to: usize) -> &str {
        let start = self.chars.get(from).map_or(self.text.len(), |&(b, _)| b);
        let end = self.chars.get(to).map_or(self.text.len(), |&(b, _)| b);
        &self.text[start..end]
    }

    fn name(&mut self) -> Result<(String, usize), SpecError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            self.pos += 1;
        }
        if start == self.pos || !self.chars[start].1.is_ascii_alphabetic() {
            self.pos = start;
            return Err(self.error_here(format!(
                "expected a game family such as `nim`, {}",
                self.found()
            )));
        }
        Ok((self.slice(start, self.pos).to_ascii_lowercase(), start))
    }

    /// `digits ('_' digits)*`: a run of digits, underscores only between digits.
    fn digits(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            let next_is_digit = self
                .chars
                .get(self.pos + 1)
                .is_some_and(|&(_, c)| c.is_ascii_digit());
            if self.peek() == Some('_') && next_is_digit {
                self.pos += 1;
            }
        }
        (self.pos > start).then_some((start, self.pos))
    }

    /// A number, or (when `code` is allowed) an octal code `d.ddd`.
    fn number_or_code(&mut self, code: bool) -> Result<Param, SpecError> {
        self.skip_space();
        let at = self.pos;
        let negative = self.peek() == Some('-');
        if negative {
            self.pos += 1;
        }
        let Some((start, end)) = self.digits() else {
            return Err(self.error_here(format!("expected a number, {}", self.found())));
        };
        if code && !negative && self.peek() == Some('.') {
            self.pos += 1;
            let frac = self.digits().map_or("", |(s, e)| self.slice(s, e));
            let text = format!("{}.{frac}", self.slice(start, end));
            return Ok(Param::Code { text, at });
        }
        let mantissa_text: String = self
            .slice(start, end)
            .chars()
            .filter(|&c| c != '_')
            .collect();
        let too_big = |p: &Self| p.error_at(at, TOO_LARGE);
        let mut value: i128 = mantissa_text.parse().map_err(|_| too_big(self))?;
        if matches!(self.peek(), Some('^' | 'e' | 'E')) {
            let base_is_ten = self.peek() != Some('^');
            self.pos += 1;
            let Some((s, e)) = self.digits() else {
                return Err(self.error_here(format!("expected an exponent, {}", self.found())));
            };
            let exponent: u32 = self
                .slice(s, e)
                .chars()
                .filter(|&c| c != '_')
                .collect::<String>()
                .parse()
                .map_err(|_| too_big(self))?;
            let base = if base_is_ten { 10 } else { value };
            let factor = if base_is_ten { value } else { 1 };
            let power = base.checked_pow(exponent).ok_or_else(|| too_big(self))?;
            value = factor.checked_mul(power).ok_or_else(|| too_big(self))?;
        }
        if value > i128::from(u64::MAX) {
            return Err(too_big(self));
        }
        Ok(Param::Number(Number {
            value: if negative { -value } else { value },
            at,
        }))
    }

    /// A position item: a number, or a word (a board; `#` a hole in it, as CGSuite's grids
    /// write a cell that is not there).
    fn arg(&mut self) -> Result<Param, SpecError> {
        self.skip_space();
        let at = self.pos;
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '.' | '/' | '#'))
        {
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '#'))
            {
                self.pos += 1;
            }
            return Ok(Param::Word {
                text: self.slice(at, self.pos).to_string(),
                at,
            });
        }
        let run = self.chars[at..]
            .iter()
            .take_while(|(_, c)| c.is_ascii_digit())
            .count();
        // Digits then `-` or `:`: an edge such as `0-1:B` (a number never continues so).
        if run > 0
            && self
                .chars
                .get(at + run)
                .is_some_and(|&(_, c)| c == '-' || c == ':')
        {
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':'))
            {
                self.pos += 1;
            }
            return Ok(Param::Word {
                text: self.slice(at, self.pos).to_string(),
                at,
            });
        }
        // Digits past a number's width, the whole item: moves, one a digit.
        if run >= 20
            && self.slice(at, at + run).parse::<u64>().is_err()
            // Only a whole item: anything else after the digits (an exponent, a stray
            // letter) is a number's error, at the number.
            && self
                .chars
                .get(at + run)
                .is_none_or(|&(_, c)| c == ')' || c == ',' || c.is_whitespace())
        {
            self.pos = at + run;
            return Ok(Param::Digits {
                text: self.slice(at, self.pos).to_string(),
                at,
            });
        }
        // Dimensions `3x4` (a piece of cake): digits, then `x` and a digit.
        let after: Vec<char> = self.chars[at + run..]
            .iter()
            .take(2)
            .map(|&(_, c)| c)
            .collect();
        if run > 0 && matches!(after[..], ['x' | 'X', d] if d.is_ascii_digit()) {
            return self.param();
        }
        self.number_or_code(false)
    }

    /// A bracketed parameter: a number, a code, or dimensions `a x b`.
    fn param(&mut self) -> Result<Param, SpecError> {
        let first = self.number_or_code(true)?;
        let Param::Number(a) = first else {
            return Ok(first);
        };
        self.skip_space();
        if !matches!(self.peek(), Some('x' | 'X' | '×' | '*')) {
            return Ok(Param::Number(a));
        }
        self.pos += 1;
        let second = self.number_or_code(false)?;
        let Param::Number(b) = second else {
            return Err(self.error_at(second.at(), "expected a dimension"));
        };
        let dim = |n: Number| {
            u64::try_from(n.value)
                .map_err(|_| self.error_at(n.at, "a dimension must not be negative"))
        };
        Ok(Param::Dims {
            a: dim(a)?,
            b: dim(b)?,
            at: a.at,
        })
    }

    fn items(&mut self, close: char, param: bool) -> Result<Vec<Param>, SpecError> {
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(items);
        }
        loop {
            items.push(if param { self.param()? } else { self.arg()? });
            self.skip_space();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(items);
                }
                _ => {
                    return Err(
                        self.error_here(format!("expected `,` or `{close}`, {}", self.found()))
                    )
                }
            }
        }
    }

    /// `name [params]? (position)?`, built by the family's entry.
    fn built(&mut self) -> Result<(Built, Args<'_>), SpecError> {
        let (name, name_at) = self.name()?;
        self.skip_space();
        let params = if self.peek() == Some('[') {
            self.pos += 1;
            Some((self.items(']', true)?, self.pos))
        } else {
            None
        };
        self.skip_space();
        let open_at = self.pos;
        let position = if self.peek() == Some('(') {
            self.pos += 1;
            Some(self.items(')', false)?)
        } else {
            None
        };
        let entry = registry::find(&name).ok_or_else(|| unknown(self, &name, name_at))?;
        let args = Args {
            parser: self,
            name: entry.name,
            name_at,
            params,
            position,
            open_at,
        };
        let built = (entry.build)(&args)?;
        Ok((built, args))
    }

    fn part(&mut self) -> Result<Part, SpecError> {
        let (built, args) = self.built()?;
        let position = match built.position {
            Some(p) => p,
            None => {
                return Err(args.error_at(
                    args.open_at,
                    format!(
                        "expected `(` (the position, as in `{}(…)`), {}",
                        args.name,
                        args.parser.found_at(args.open_at)
                    ),
                ))
            }
        };
        Ok(Part {
            family: built.family,
            position,
        })
    }

    fn found_at(&self, at: usize) -> String {
        match self.chars.get(at) {
            Some((_, c)) => format!("found `{c}`"),
            None => "found the end".into(),
        }
    }
}

/// The longest spec read, in bytes (error messages echo at most a window of it).
pub const MAX_SPEC_BYTES: usize = 1 << 20;

fn check_length(text: &str) -> Result<(), SpecError> {
    if text.len() > MAX_SPEC_BYTES {
        return Err(SpecError {
            line: 1,
            column: 1,
            message: format!(
                "the spec is {} bytes long; at most {MAX_SPEC_BYTES} are read",
                text.len()
            ),
        });
    }
    Ok(())
}

/// Parses a family without a position (`octal[0.77]`, `multiple[2]`), for tables and
/// patterns.
///
/// # Errors
/// A [`SpecError`] pointing at what is wrong; a position is refused.
pub fn parse_family(text: &str) -> Result<Arc<dyn Family>, SpecError> {
    check_length(text)?;
    let mut p = Parser {
        text,
        chars: text.char_indices().collect(),
        pos: 0,
    };
    p.skip_space();
    let family = {
        let (built, args) = p.built()?;
        if args.position.is_some() {
            return Err(args.error_at(
                args.open_at,
                "give the family without a position, as in `octal[0.77]`",
            ));
        }
        built.family
    };
    p.skip_space();
    if let Some(c) = p.peek() {
        return Err(p.error_here(format!("expected the end of the family, found `{c}`")));
    }
    Ok(family)
}

fn unknown(p: &Parser<'_>, other: &str, name_at: usize) -> SpecError {
    let known: Vec<&str> = registry::entries().map(|e| e.name).collect();
    let hint = known
        .iter()
        .map(|k| (edit_distance(other, k), *k))
        .min()
        .filter(|&(d, _)| d <= 2)
        .map(|(_, k)| format!("did you mean `{k}`? "))
        .unwrap_or_default();
    // A long name is cut in the message: it is the user's text, echoed.
    let shown: String = if other.chars().count() > 40 {
        other.chars().take(40).chain("…".chars()).collect()
    } else {
        other.to_string()
    };
    p.error_at(
        name_at,
        format!(
            "unknown game family `{shown}`; {hint}known: {}",
            known.join(", ")
        ),
    )
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {

    #[test]
    fn echoes_are_cut() {
        let long = format!("found `{}` here", "x".repeat(1000));
        let cut = cut_echoes(&long);
        assert!(cut.len() < 80, "{cut}");
        assert!(cut.ends_with("…` here"), "{cut}");
        assert_eq!(
            cut_echoes("found `x` and `\u{0}`"),
            "found `x` and `\u{fffd}`"
        );
    }

    #[test]
    fn errors_render_with_a_caret() {
        let text = "nim(3)\n + octal[0.7q](1)";
        let e = text.parse::<Spec>().unwrap_err();
        let shown = e.render(text);
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].starts_with(&format!("bad spec at line 2, column {}", e.column)));
        assert_eq!(lines[1], "   + octal[0.7q](1)");
        assert_eq!(lines[2].len(), 2 + e.column);
        // A long line is shown as a window around the column.
        let long = format!("nim({}x)", "1,".repeat(50_000));
        let e = long.parse::<Spec>().unwrap_err();
        let shown = e.render(&long);
        assert!(shown.len() < 400, "{shown}");
        assert!(shown.lines().nth(1).unwrap().contains("1,x)"), "{shown}");
    }
    use super::*;

    fn err(text: &str) -> SpecError {
        parse(text).expect_err(text)
    }

    #[test]
    fn parses_and_prints_back() {
        for text in [
            "nim(3,3,1)",
            "bounded-nim[3](10,4)",
            "subtraction[1,2,3](10)",
            "octal[0.77](12)",
            "octal[0.07](5,6)",
            "multiple[2](10)",
            "multiple[3](10,4)",
            "wythoff(3,5)",
            "ends(4,7,2,9,5,2)",
            "nim(3) + octal[0.77](12) + multiple[2](20)",
            "nim()",
        ] {
            let spec = parse(text).unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            parse(" kayles( 4 ) +fibonacci(1e3)").unwrap().to_string(),
            "octal[0.77](4) + multiple[2](1000)"
        );
        assert_eq!(
            parse("nim(10^18, 1_000)").unwrap().to_string(),
            "nim(1000000000000000000,1000)"
        );
        assert_eq!(
            parse("subtraction[3,1,3](2)").unwrap().to_string(),
            "subtraction[1,3](2)"
        );
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = err("nim(3,,1)");
        assert_eq!((e.line, e.column), (1, 7));
        assert!(e.message.contains("expected a number"), "{e}");

        let e = err("nimm(3)");
        assert_eq!(e.column, 1);
        assert!(e.message.contains("did you mean `nim`"), "{e}");

        let e = err("nim(3) + octal[0.78](4)");
        assert_eq!(e.column, 16);
        assert!(e.message.contains('8'), "{e}");

        let e = err("nim(99999999999999999999)");
        assert_eq!(e.column, 5);
        assert!(e.message.contains("too large"), "{e}");

        let e = err("nim(10^20)");
        assert!(e.message.contains("too large"), "{e}");

        let e = err("nim(3");
        assert_eq!(e.column, 6);
        assert!(e.message.contains("expected `,` or `)`"), "{e}");

        let e = err("nim(3) nim(4)");
        assert_eq!(e.column, 8);

        let e = err("nim(-3)");
        assert!(e.message.contains("negative"), "{e}");

        let e = err("bounded-nim(3)");
        assert!(e.message.contains("needs a parameter"), "{e}");

        let e = err("multiple[2](5,6)");
        assert_eq!(e.column, 15);

        let e = err("wythoff(1)");
        assert!(e.message.contains("wythoff(3,5)"), "{e}");

        let e = err("subtraction[0](4)");
        assert!(e.message.contains("at least 1"), "{e}");

        let e = err("");
        assert!(e.message.contains("expected a game family"), "{e}");

        let e = err("nim(1)\n+ nim(x)");
        assert_eq!((e.line, e.column), (2, 7));
    }
}
