//! The spec parser: text → [`Spec`], with errors that point at a line and column and say
//! what was expected.
//!
//! ```text
//! spec    := part ('+' part)*
//! part    := name ('[' param (',' param)* ']')? '(' (number (',' number)*)? ')'
//! param   := number | octal code such as 0.77 or 4.07
//! number  := '-'? digits ('_' digits)* ('^' digits | 'e' digits)?     e.g. 10^12, 1e6
//! ```

use super::heap::{HeapFamily, Octal};
use super::{Part, Spec};

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

/// The families the spec language knows, with their shape, for help texts and errors.
pub const FAMILIES: &[(&str, &str)] = &[
    ("nim", "nim(h1,h2,…): take any number from one heap"),
    (
        "bounded-nim",
        "bounded-nim[m](h1,…): take 1..m from one heap",
    ),
    (
        "subtraction",
        "subtraction[s1,s2,…](h1,…): take an amount in the set from one heap",
    ),
    (
        "octal",
        "octal[0.d1d2…](h1,…): octal game by its code (0.77 Kayles, 0.07 Dawson's Kayles)",
    ),
    (
        "multiple",
        "multiple[k](n) or multiple[k](n,limit): take 1..k·(last take); first move 1..n-1",
    ),
    (
        "wythoff",
        "wythoff(a,b): take from one pile, or the same from both",
    ),
    (
        "ends",
        "ends(a1,…): take a number from either end; score = sum taken (IOI 1996)",
    ),
    ("kayles", "kayles(h1,…): octal[0.77]"),
    ("dawson", "dawson(h1,…): Dawson's Kayles, octal[0.07]"),
    ("fibonacci", "fibonacci(n): Fibonacci Nim, multiple[2](n)"),
];

/// A number as written, with where it starts.
#[derive(Debug, Clone, Copy)]
struct Number {
    value: i128,
    at: usize,
}

/// A bracketed parameter: a number, or an octal code (kept as text).
#[derive(Debug, Clone)]
enum Param {
    Number(Number),
    Code { text: String, at: usize },
}

impl Param {
    fn at(&self) -> usize {
        match self {
            Param::Number(n) => n.at,
            Param::Code { at, .. } => *at,
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
}

/// Parses a spec.
pub(super) fn parse(text: &str) -> Result<Spec, SpecError> {
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

    fn expect(&mut self, want: char) -> Result<(), SpecError> {
        self.skip_space();
        if self.peek() == Some(want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error_here(format!("expected `{want}`, {}", self.found())))
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
        let too_big = |p: &Self| p.error_at(at, "number too large (at most 2^64 - 1)");
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

    fn list(&mut self, close: char, code: bool) -> Result<Vec<Param>, SpecError> {
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(items);
        }
        loop {
            items.push(self.number_or_code(code)?);
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

    fn part(&mut self) -> Result<Part, SpecError> {
        let (name, name_at) = self.name()?;
        self.skip_space();
        let params = if self.peek() == Some('[') {
            self.pos += 1;
            Some((self.list(']', true)?, self.pos))
        } else {
            None
        };
        let open_at = {
            self.skip_space();
            self.pos
        };
        self.expect('(').map_err(|e| SpecError {
            message: format!("{} (the position, as in `{name}(…)`)", e.message),
            ..e
        })?;
        let args = self.list(')', false)?;
        self.build(&name, name_at, params, args, open_at)
    }

    fn build(
        &self,
        name: &str,
        name_at: usize,
        params: Option<(Vec<Param>, usize)>,
        args: Vec<Param>,
        open_at: usize,
    ) -> Result<Part, SpecError> {
        let numbers = |items: &[Param]| -> Result<Vec<Number>, SpecError> {
            items
                .iter()
                .map(|p| match p {
                    Param::Number(n) => Ok(*n),
                    Param::Code { at, .. } => Err(self.error_at(*at, "expected a whole number")),
                })
                .collect()
        };
        let naturals = |items: &[Param], what: &str| -> Result<Vec<u64>, SpecError> {
            numbers(items)?
                .into_iter()
                .map(|n| {
                    u64::try_from(n.value)
                        .map_err(|_| self.error_at(n.at, format!("{what} must not be negative")))
                })
                .collect()
        };
        let no_params = |what: &str| -> Result<(), SpecError> {
            match &params {
                None => Ok(()),
                Some((items, _)) => Err(self.error_at(
                    items.first().map_or(name_at, Param::at),
                    format!("`{what}` takes no parameters in brackets"),
                )),
            }
        };
        let one_param = |what: &str, example: &str| -> Result<&Param, SpecError> {
            match &params {
                Some((items, _)) if items.len() == 1 => Ok(&items[0]),
                Some((items, end)) => Err(self.error_at(
                    items.get(1).map_or(end.saturating_sub(1), Param::at),
                    format!("`{what}` takes one parameter, as in `{example}`"),
                )),
                None => Err(self.error_at(
                    open_at,
                    format!("expected `[`: `{what}` needs a parameter, as in `{example}`"),
                )),
            }
        };
        let heaps = |family: HeapFamily| -> Result<Part, SpecError> {
            Ok(Part::Heaps {
                family,
                heaps: naturals(&args, "a heap")?,
            })
        };
        let positive = |p: &Param, what: &str| -> Result<u64, SpecError> {
            let v = naturals(std::slice::from_ref(p), what)?[0];
            if v == 0 {
                return Err(self.error_at(p.at(), format!("{what} must be at least 1")));
            }
            Ok(v)
        };
        let arity = |want: &[usize], example: &str| -> Result<(), SpecError> {
            if want.contains(&args.len()) {
                Ok(())
            } else {
                let at = args.get(*want.last().unwrap()).map_or(open_at, Param::at);
                Err(self.error_at(at, format!("expected a position such as `{example}`")))
            }
        };
        match name {
            "nim" => {
                no_params("nim")?;
                heaps(HeapFamily::Nim)
            }
            "bounded-nim" => {
                let m = positive(one_param("bounded-nim", "bounded-nim[3](10)")?, "m")?;
                heaps(HeapFamily::BoundedNim(m))
            }
            "subtraction" => {
                let Some((items, end)) = &params else {
                    return Err(self.error_at(
                        open_at,
                        "expected `[`: `subtraction` needs its set, as in `subtraction[1,2,3](10)`",
                    ));
                };
                if items.is_empty() {
                    return Err(self.error_at(end - 1, "the subtraction set must not be empty"));
                }
                let mut set = Vec::new();
                for item in items {
                    set.push(positive(item, "an amount to subtract")?);
                }
                set.sort_unstable();
                set.dedup();
                heaps(HeapFamily::Subtraction(set))
            }
            "octal" => {
                let param = one_param("octal", "octal[0.77](10)")?;
                let text = match param {
                    Param::Code { text, .. } => text.clone(),
                    Param::Number(n) => n.value.to_string(),
                };
                let code: Octal = text
                    .parse()
                    .map_err(|message: String| self.error_at(param.at(), message))?;
                heaps(HeapFamily::Octal(code))
            }
            "kayles" | "dawson" => {
                no_params(name)?;
                let code = if name == "kayles" { "0.77" } else { "0.07" };
                heaps(HeapFamily::Octal(code.parse().expect("a valid code")))
            }
            "multiple" | "fibonacci" => {
                let k = if name == "multiple" {
                    positive(one_param("multiple", "multiple[2](20)")?, "k")?
                } else {
                    no_params(name)?;
                    2
                };
                arity(&[1, 2], &format!("{name}(20) or {name}(20,5)"))?;
                let v = naturals(&args, "a count")?;
                let n = v[0];
                let limit = match v.get(1) {
                    Some(&l) if l > n => {
                        return Err(self.error_at(
                            args[1].at(),
                            format!("the limit {l} exceeds the {n} stones left"),
                        ))
                    }
                    Some(&l) => l,
                    None => n.saturating_sub(1),
                };
                Ok(Part::Multiple { k, n, limit })
            }
            "wythoff" => {
                no_params("wythoff")?;
                arity(&[2], "wythoff(3,5)")?;
                let v = naturals(&args, "a pile")?;
                Ok(Part::Wythoff { a: v[0], b: v[1] })
            }
            "ends" => {
                no_params("ends")?;
                let row = numbers(&args)?
                    .into_iter()
                    .map(|n| {
                        i64::try_from(n.value)
                            .map_err(|_| self.error_at(n.at, "number does not fit in 64 bits"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Part::Ends { row })
            }
            other => {
                let known: Vec<&str> = FAMILIES.iter().map(|(n, _)| *n).collect();
                let hint = known
                    .iter()
                    .map(|k| (edit_distance(other, k), *k))
                    .min()
                    .filter(|&(d, _)| d <= 2)
                    .map(|(_, k)| format!("did you mean `{k}`? "))
                    .unwrap_or_default();
                Err(self.error_at(
                    name_at,
                    format!(
                        "unknown game family `{other}`; {hint}known: {}",
                        known.join(", ")
                    ),
                ))
            }
        }
    }
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
