//! The error of the graph formats' parsers: where the input went wrong and what was wrong.
//! It sits below both the tokenisers ([`lex`](super::lex)) and the parsers
//! ([`format`](mod@super::format), which re-exports it), so imports go one way: `format` uses
//! `lex`, and both use this module.

use std::fmt::Write as _;

use thiserror::Error;

/// A parse failure: where (1-based line and column, the column counted in characters) and what.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong with the input. Ids in messages are the file's ids.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input stopped where more was needed.
    #[error("unexpected end of input: expected {expected}")]
    UnexpectedEnd {
        /// What was needed.
        expected: String,
    },
    /// A token of the wrong kind.
    #[error("expected {expected}, found `{found}`")]
    Expected {
        /// What was needed.
        expected: String,
        /// What was there (cut short if long).
        found: String,
    },
    /// A number too large for its place.
    #[error("{what} is `{found}`, larger than the maximum {max}")]
    Overflow {
        /// What the number is.
        what: String,
        /// The digits (cut short if long).
        found: String,
        /// The largest value allowed there.
        max: u64,
    },
    /// A negative number where only non-negative ones are allowed.
    #[error("{what} is `{found}`, but it cannot be negative")]
    Negative {
        /// What the number is.
        what: String,
        /// The token.
        found: String,
    },
    /// A character that cannot start a token.
    #[error("unexpected character `{}`", printable_char(*found))]
    UnexpectedChar {
        /// The character.
        found: char,
    },
    /// A `"` with no closing `"`.
    #[error("unterminated string")]
    UnterminatedString,
    /// A green-game colour other than 0 (white) or 1 (green).
    #[error("the colour of field {field} is {found}; it must be 0 (white) or 1 (green)")]
    BadColour {
        /// The field (1-based).
        field: u64,
        /// The colour found.
        found: u64,
    },
    /// An owner other than 0 or 1.
    #[error("the owner of vertex {vertex} is {found}; it must be 0 or 1")]
    BadOwner {
        /// The vertex.
        vertex: u64,
        /// The owner found.
        found: u64,
    },
    /// A winner other than 0 or 1 in a solution.
    #[error("the winner of vertex {vertex} is {found}; it must be 0 or 1")]
    BadWinner {
        /// The vertex.
        vertex: u64,
        /// The winner found.
        found: u64,
    },
    /// A vertex without successors in a format that forbids dead ends.
    #[error("vertex {vertex} has no successors; every position needs at least one move")]
    NoSuccessors {
        /// The vertex.
        vertex: u64,
    },
    /// A number outside its range (a field or vertex number).
    #[error("{what} is {value}, but must be {}", range_text(*lo, *end))]
    OutOfRange {
        /// What the number is.
        what: String,
        /// The number.
        value: u64,
        /// The smallest allowed value.
        lo: u64,
        /// One past the largest allowed value.
        end: u64,
    },
    /// A PGSolver vertex id, or a solution line, given twice.
    #[error("vertex {id} is given twice")]
    DuplicateId {
        /// The id.
        id: u64,
    },
    /// A reference to a vertex that the file does not declare.
    #[error("{what} refers to vertex {id}, which is not declared")]
    Undeclared {
        /// What refers to it.
        what: String,
        /// The id.
        id: u64,
    },
    /// A statement without its closing `;`.
    #[error("missing `;` after {after}")]
    MissingSemicolon {
        /// The statement.
        after: String,
    },
    /// Input left after the last item the format allows.
    #[error("unexpected `{found}` after {after}")]
    TrailingGarbage {
        /// The last item read.
        after: String,
        /// The extra token.
        found: String,
    },
    /// A PGSolver vertex id larger than the header's `N`.
    #[error("vertex id {id} exceeds the bound {bound} given by the header")]
    IdAboveHeader {
        /// The id.
        id: u64,
        /// The header's N.
        bound: u64,
    },
    /// A list of field numbers that is not strictly ascending.
    #[error("field {found} does not come after field {previous}; the list must be ascending")]
    NotAscending {
        /// The previous number.
        previous: u64,
        /// This number.
        found: u64,
    },
    /// A count in a header that the body does not bear out: a file cut short, or a header
    /// asking for far more than the file holds. Reported at the count.
    #[error("the header claims {claimed}, but {found}")]
    HeaderClaim {
        /// What the header claims, for example "268435456 vertices".
        claimed: String,
        /// What the body holds instead.
        found: String,
    },
    /// A game too large for `u32` ids or offsets.
    #[error("too large: {what}")]
    TooLarge {
        /// What overflowed.
        what: String,
    },
}

fn range_text(lo: u64, end: u64) -> String {
    if end <= lo {
        "in an empty range (there are no vertices)".to_string()
    } else {
        format!("in {lo}..={}", end - 1)
    }
}

/// Writes `c` as an error message may show it: control characters (NUL, escape, …) and
/// whitespace other than a space are escaped (`\0`, `\u{1b}`), so that binary input never
/// reaches a terminal raw.
pub(crate) fn push_printable(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if c.is_control() || (c.is_whitespace() && c != ' ') || c == '\u{feff}' => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// `c` as [`push_printable`] shows it.
pub(crate) fn printable_char(c: char) -> String {
    let mut out = String::new();
    push_printable(&mut out, c);
    out
}
