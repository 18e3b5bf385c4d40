//! Tokenisers shared by the graph formats: byte offsets while scanning, line and column only
//! when an error is reported (so the happy path never counts lines).

pub(crate) use super::parse_error::push_printable;
use super::parse_error::{ParseError, ParseErrorKind};

/// The longest excerpt of offending input an error message quotes.
const EXCERPT: usize = 24;

/// Cuts `s` to at most [`EXCERPT`] characters for an error message, escaping what is not
/// printable (see [`push_printable`]).
pub(crate) fn excerpt(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(EXCERPT) {
        push_printable(&mut out, c);
    }
    if s.chars().nth(EXCERPT).is_some() {
        out.push('…');
    }
    out
}

/// Turns a byte offset into a 1-based line and a 1-based column counted in characters.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Builds the error for `kind` at byte `offset` of `text`.
pub(crate) fn error_at(text: &str, offset: usize, kind: ParseErrorKind) -> ParseError {
    let (line, column) = line_col(text, offset);
    ParseError { line, column, kind }
}

/// What a numeric token turned out to be.
pub(crate) enum Num {
    /// A non-negative number that fits `u64`.
    Value(u64),
    /// Digits preceded by `-`.
    Negative,
    /// Digits whose value does not fit `u64`.
    Overflow,
    /// Not a number at all.
    NotANumber,
}

/// Classifies a token as a number (decimal digits, optionally after a `-`).
pub(crate) fn classify_number(tok: &str) -> Num {
    let (neg, digits) = match tok.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, tok),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Num::NotANumber;
    }
    if neg {
        return Num::Negative;
    }
    let mut value: u64 = 0;
    for b in digits.bytes() {
        match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
        {
            Some(v) => value = v,
            None => return Num::Overflow,
        }
    }
    Num::Value(value)
}

/// Checks a number token against `max` and turns it into a value or the matching error kind.
/// `what` describes the expected item for messages, for example "the colour of field 3".
pub(crate) fn number_value(
    tok: &str,
    max: u64,
    what: &dyn Fn() -> String,
) -> Result<u64, ParseErrorKind> {
    match classify_number(tok) {
        Num::Value(v) if v <= max => Ok(v),
        Num::Value(_) | Num::Overflow => Err(ParseErrorKind::Overflow {
            what: what(),
            found: excerpt(tok),
            max,
        }),
        Num::Negative => Err(ParseErrorKind::Negative {
            what: what(),
            found: excerpt(tok),
        }),
        Num::NotANumber => Err(ParseErrorKind::Expected {
            expected: what(),
            found: excerpt(tok),
        }),
    }
}

/// A stream of whitespace-separated tokens (the POI and plain-digraph formats), with the byte
/// offset of each.
pub(crate) struct Words<'a> {
    text: &'a str,
    pos: usize,
    /// The byte just past the last token returned: where "unexpected end" errors point, so
    /// that they name the line that is short rather than the empty line after it.
    last_end: usize,
}

impl<'a> Words<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Words {
            text,
            pos: 0,
            last_end: 0,
        }
    }

    /// The next token and its byte offset.
    pub(crate) fn next_word(&mut self) -> Option<(usize, &'a str)> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if self.pos == bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.last_end = self.pos;
        // ASCII whitespace bytes are always char boundaries, so this slice is valid UTF-8.
        Some((start, &self.text[start..self.pos]))
    }

    /// Reads a number no larger than `max`; `what` describes it for error messages.
    pub(crate) fn number(
        &mut self,
        max: u64,
        what: &dyn Fn() -> String,
    ) -> Result<(usize, u64), ParseError> {
        match self.next_word() {
            None => Err(error_at(
                self.text,
                self.last_end,
                ParseErrorKind::UnexpectedEnd { expected: what() },
            )),
            Some((at, tok)) => number_value(tok, max, what)
                .map(|v| (at, v))
                .map_err(|k| error_at(self.text, at, k)),
        }
    }

    /// Fails on any token left after the last expected one.
    pub(crate) fn finish(&mut self, after: &str) -> Result<(), ParseError> {
        match self.next_word() {
            None => Ok(()),
            Some((at, tok)) => Err(error_at(
                self.text,
                at,
                ParseErrorKind::TrailingGarbage {
                    after: after.to_string(),
                    found: excerpt(tok),
                },
            )),
        }
    }
}

/// A token of PGSolver's game and solution formats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// Digits, possibly after a `-` (the sign is rejected by the caller with a precise error).
    Num(&'a str),
    /// A keyword such as `parity`, `start`, `paritysol`.
    Word(&'a str),
    /// `,`
    Comma,
    /// `;`
    Semi,
    /// A double-quoted string, unescaped.
    Str(String),
    /// End of input.
    End,
}

impl Tok<'_> {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Num(s) | Tok::Word(s) => excerpt(s),
            Tok::Comma => ",".into(),
            Tok::Semi => ";".into(),
            Tok::Str(s) => format!("\"{}\"", excerpt(s)),
            Tok::End => "end of input".into(),
        }
    }
}

/// The PGSolver tokeniser: numbers, keywords, `,`, `;`, quoted names; whitespace is free.
pub(crate) struct PgLexer<'a> {
    text: &'a str,
    pos: usize,
    /// The byte just past the last token (other than the end) returned by [`next`](Self::next):
    /// where "missing `;`" and "unexpected end" errors point.
    pub(crate) prev_end: usize,
    peeked: Option<(usize, usize, Tok<'a>)>,
}

impl<'a> PgLexer<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        PgLexer {
            text,
            pos: 0,
            prev_end: 0,
            peeked: None,
        }
    }

    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// The next token with its start offset, without consuming it.
    pub(crate) fn peek(&mut self) -> Result<(usize, &Tok<'a>), ParseError> {
        if self.peeked.is_none() {
            let t = self.scan()?;
            self.peeked = Some(t);
        }
        let (start, _, tok) = self.peeked.as_ref().expect("just filled");
        Ok((*start, tok))
    }

    /// Consumes and returns the next token with its start offset.
    pub(crate) fn next(&mut self) -> Result<(usize, Tok<'a>), ParseError> {
        let (start, end, tok) = match self.peeked.take() {
            Some(t) => t,
            None => self.scan()?,
        };
        if tok != Tok::End {
            self.prev_end = end;
        }
        Ok((start, tok))
    }

    fn scan(&mut self) -> Result<(usize, usize, Tok<'a>), ParseError> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        let Some(&b) = bytes.get(start) else {
            return Ok((start, start, Tok::End));
        };
        let tok = match b {
            b',' => {
                self.pos += 1;
                Tok::Comma
            }
            b';' => {
                self.pos += 1;
                Tok::Semi
            }
            b'"' => return self.string(start),
            b'0'..=b'9' | b'-' => {
                self.pos += 1;
                while self.pos < bytes.len() && bytes[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                if b == b'-' && self.pos == start + 1 {
                    return Err(error_at(
                        self.text,
                        start,
                        ParseErrorKind::UnexpectedChar { found: '-' },
                    ));
                }
                Tok::Num(&self.text[start..self.pos])
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                while self.pos < bytes.len()
                    && (bytes[self.pos].is_ascii_alphanumeric() || bytes[self.pos] == b'_')
                {
                    self.pos += 1;
                }
                Tok::Word(&self.text[start..self.pos])
            }
            _ => {
                let c = self.text[start..].chars().next().unwrap_or('?');
                return Err(error_at(
                    self.text,
                    start,
                    ParseErrorKind::UnexpectedChar { found: c },
                ));
            }
        };
        Ok((start, self.pos, tok))
    }

    /// A double-quoted name. Escapes `\"`, `\\`, `\n`, `\t`, `\r` are decoded; any other
    /// backslash is kept literally.
    fn string(&mut self, start: usize) -> Result<(usize, usize, Tok<'a>), ParseError> {
        let mut out = String::new();
        let mut chars = self.text[start + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos = start + 1 + i + 1;
                    return Ok((start, self.pos, Tok::Str(out)));
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => out.push('"'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, other)) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err(error_at(
            self.text,
            start,
            ParseErrorKind::UnterminatedString,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let t = "ab\ncdé\nx";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 2), (1, 3));
        assert_eq!(line_col(t, 3), (2, 1));
        // 'é' is two bytes; the column counts characters.
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(line_col(t, 8), (3, 1));
        assert_eq!(line_col(t, 100), (3, 2));
        // Inside a multi-byte character: rounds down to its start.
        assert_eq!(line_col(t, 6), (2, 3));
    }

    #[test]
    fn numbers() {
        assert!(matches!(classify_number("0"), Num::Value(0)));
        assert!(matches!(
            classify_number("18446744073709551615"),
            Num::Value(u64::MAX)
        ));
        assert!(matches!(
            classify_number("18446744073709551616"),
            Num::Overflow
        ));
        assert!(matches!(classify_number("-3"), Num::Negative));
        assert!(matches!(classify_number("-"), Num::NotANumber));
        assert!(matches!(classify_number("+3"), Num::NotANumber));
        assert!(matches!(classify_number("3a"), Num::NotANumber));
        assert!(matches!(classify_number(""), Num::NotANumber));
    }

    #[test]
    fn pg_tokens() {
        let mut l = PgLexer::new("parity 3;\n0 1 0 1,2 \"a\\\"b\";");
        let mut toks = Vec::new();
        loop {
            let (at, t) = l.next().unwrap();
            if t == Tok::End {
                break;
            }
            toks.push((at, t));
        }
        assert_eq!(toks[0], (0, Tok::Word("parity")));
        assert_eq!(toks[2], (8, Tok::Semi));
        assert_eq!(toks[7], (17, Tok::Comma));
        assert_eq!(toks[9].1, Tok::Str("a\"b".into()));
        assert!(PgLexer::new("\"abc").next().is_err());
        assert!(PgLexer::new("- 3").next().is_err());
        assert!(PgLexer::new("@").next().is_err());
    }
}
