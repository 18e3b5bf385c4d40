//! Text formats for arenas: the POI green game, PGSolver parity games and solutions, plain
//! digraphs; format detection; reading files that may be gzip-compressed.
//!
//! Every parser works on a `&str` it is handed, never panics on bad input, and reports the first
//! problem as a [`ParseError`] with a 1-based line and column (counted in characters) and a
//! [`ParseErrorKind`] saying what was wrong.
//!
//! | format | shape | vertices | notes |
//! | --- | --- | --- | --- |
//! | [`Format::Poi`] | `a b`, then per field `z k s1 … sk` | fields `1..=a+b`; the first `a` are Ann's (player 0) | white → priority [`WHITE`] = 1, green → [`GREEN`] = 2 |
//! | [`Format::PgSolver`] | `parity N;` [`start V;`] then `id prio owner s,s,… ["name"];` | any `u64` ids, sparse, any order | no dead ends |
//! | [`Format::Digraph`] | `n m`, then `m` lines `u v` | `0..n` | dead ends allowed; owner 0, priority 0 |
//!
//! ## The green game as a parity game
//!
//! Ann (player 0) wins a play of the green game iff it visits green fields infinitely often (a
//! Büchi objective). With green as priority 2 and white as priority 1, the highest priority seen
//! infinitely often is even exactly when green is seen infinitely often, so the POI game *is* a
//! max-even parity game with priorities {1, 2} and the parity machinery (solvers,
//! [`verify_parity`](crate::graph::verify::verify_parity)) applies unchanged.
//!
//! ## The plain digraph
//!
//! A token game: a token on a vertex, the player to move slides it along an edge, the player who
//! cannot move loses. The owner is not part of that game (whoever is to move moves), so the
//! parser fills owner 0 and priority 0; solve it as an impartial game, not as a parity game.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use super::arena::{Arena, ArenaBuilder, Csr, FileId, IdMap};
use super::lex::{error_at, excerpt, number_value, PgLexer, Tok, Words};
pub use super::parse_error::{ParseError, ParseErrorKind};

/// The priority of a white field of the green game.
pub const WHITE: u32 = 1;
/// The priority of a green field of the green game (even: good for Ann, player 0).
pub const GREEN: u32 = 2;

/// Why an arena cannot be written in a format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The format forbids vertices without successors.
    #[error("vertex {vertex} has no successors, which this format cannot express")]
    DeadEnd {
        /// The file id of the vertex.
        vertex: FileId,
    },
    /// The green-game format needs Ann's fields first and priorities WHITE/GREEN only.
    #[error("vertex {vertex} cannot be a green-game field: {reason}")]
    NotPoi {
        /// The file id of the vertex.
        vertex: FileId,
        /// Why not.
        reason: &'static str,
    },
    /// A solution table of the wrong length.
    #[error("{what} has {found} entries for {expected} vertices")]
    LengthMismatch {
        /// Which table.
        what: &'static str,
        /// The number of vertices.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A winner other than 0 or 1.
    #[error("vertex {vertex} has winner {found}; winners are 0 or 1")]
    BadWinner {
        /// The file id of the vertex.
        vertex: FileId,
        /// The winner.
        found: u8,
    },
    /// A strategy pointing past the last vertex.
    #[error("vertex {vertex} has strategy {target}, which is not a vertex")]
    BadStrategy {
        /// The file id of the vertex.
        vertex: FileId,
        /// The dense target.
        target: u32,
    },
}

/// The text formats an arena can come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The POI green game ("Gra w zielone", POI VIII).
    Poi,
    /// PGSolver's parity-game format.
    PgSolver,
    /// A plain digraph: `n m` then `m` edges `u v`.
    Digraph,
}

impl Format {
    /// Every format, in the order front ends list them.
    pub const ALL: [Format; 3] = [Format::Poi, Format::PgSolver, Format::Digraph];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Poi => "poi",
            Format::PgSolver => "pgsolver",
            Format::Digraph => "digraph",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not one of `poi`, `pgsolver`, `digraph` (or their aliases).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown format `{0}`: expected poi, pgsolver or digraph")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    /// Accepts `poi`/`green`, `pgsolver`/`pg`/`parity`, `digraph`/`plain` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "poi" | "green" => Ok(Format::Poi),
            "pgsolver" | "pg" | "parity" => Ok(Format::PgSolver),
            "digraph" | "plain" => Ok(Format::Digraph),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

/// How many lines the shape check of [`detect`] looks at.
const DETECT_LINES: usize = 1000;

/// Guesses the format of `text`.
///
/// 1. PGSolver if the first token starts with `parity`.
/// 2. Otherwise the first non-empty line should be two numbers `x y`; if not, digraph (whose
///    parser then reports the error).
/// 3. POI if the non-empty lines after it number `x + y` and each (of the first 1000) has the
///    shape `z k s1 … sk` with `z` in {0, 1} and `k ≥ 1`; digraph if they number `y` and each
///    has two tokens. A POI line has at least three tokens and a digraph line exactly two, so a
///    file that keeps one item per line is never ambiguous.
/// 4. A file that fits neither shape is malformed; guess by the line count (`x + y` → POI,
///    `y` → digraph), then by the token count of the second line (two → digraph), so that the
///    parser's error is the helpful one. Files that wrap lines freely may be misdetected: the
///    command line's `--format` forces a format.
///
/// # Complexity
/// O(size of `text`).
pub fn detect(text: &str) -> Format {
    if Words::new(text)
        .next_word()
        .is_some_and(|(_, w)| w.starts_with("parity"))
    {
        return Format::PgSolver;
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return Format::Digraph;
    };
    let head: Vec<&str> = first.split_ascii_whitespace().collect();
    let (Some(x), Some(y)) = (
        head.first().and_then(|t| t.parse::<u64>().ok()),
        head.get(1).and_then(|t| t.parse::<u64>().ok()),
    ) else {
        return Format::Digraph;
    };
    if head.len() != 2 {
        return Format::Digraph;
    }
    let rest: Vec<&str> = lines.collect();
    let count = rest.len() as u64;
    let poi_count = x.checked_add(y);
    let sample = &rest[..rest.len().min(DETECT_LINES)];
    let poi_shape = sample.iter().all(|l| {
        let t: Vec<&str> = l.split_ascii_whitespace().collect();
        t.len() >= 3 && matches!(t[0], "0" | "1") && t[1].parse::<usize>().ok() == Some(t.len() - 2)
    });
    let digraph_shape = sample
        .iter()
        .all(|l| l.split_ascii_whitespace().count() == 2);
    if count == 0 && y == 0 {
        // `n 0`: a graph without edges (an empty green game would need x = 0 too).
        return Format::Digraph;
    }
    if Some(count) == poi_count && poi_shape {
        return Format::Poi;
    }
    if count == y && digraph_shape {
        return Format::Digraph;
    }
    if Some(count) == poi_count {
        return Format::Poi;
    }
    if count == y {
        return Format::Digraph;
    }
    match rest.first() {
        Some(l) if l.split_ascii_whitespace().count() != 2 => Format::Poi,
        _ => Format::Digraph,
    }
}

/// Parses `text` in the given format.
pub fn parse(text: &str, format: Format) -> Result<Arena, ParseError> {
    match format {
        Format::Poi => parse_poi(text),
        Format::PgSolver => parse_pgsolver(text),
        Format::Digraph => parse_digraph(text),
    }
}

/// Detects the format (see [`detect`]) and parses.
pub fn parse_detect(text: &str) -> Result<(Format, Arena), ParseError> {
    let format = detect(text);
    parse(text, format).map(|a| (format, a))
}

fn too_large(text: &str, what: &str) -> ParseError {
    error_at(
        text,
        text.len(),
        ParseErrorKind::TooLarge {
            what: what.to_string(),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// POI green game
// ---------------------------------------------------------------------------------------------

/// Parses a green game: `a b`, then for each field `i = 1..=a+b`: its colour `z` (0 white,
/// 1 green), its number of successors `k ≥ 1`, and `k` successor fields in `1..=a+b`. The
/// first `a` fields are Ann's (player 0), the rest Billy's (player 1). Tokens may be separated
/// by any whitespace, line breaks included; a repeated successor is kept (it changes nothing).
///
/// The arena has dense id `i - 1` for field `i` ([`IdMap::Offset`]`(1)`), priority [`GREEN`] or
/// [`WHITE`], no names, no start.
///
/// # Complexity
/// O(size of `text`).
pub fn parse_poi(text: &str) -> Result<Arena, ParseError> {
    let mut w = Words::new(text);
    let max = u64::from(u32::MAX);
    let (_, a) = w.number(max, &|| "the number a of Ann's fields".into())?;
    let (b_at, b) = w.number(max, &|| "the number b of Billy's fields".into())?;
    let n = a + b;
    if n > max {
        return Err(error_at(
            text,
            b_at,
            ParseErrorKind::TooLarge {
                what: format!("a + b = {n} fields do not fit u32 ids"),
            },
        ));
    }
    let mut builder = ArenaBuilder::new();
    let mut succ: Vec<u32> = Vec::new();
    for field in 1..=n {
        let (z_at, z) = w.number(max, &|| {
            format!("the colour of field {field} (of the {n} the header claims)")
        })?;
        if z > 1 {
            return Err(error_at(
                text,
                z_at,
                ParseErrorKind::BadColour { field, found: z },
            ));
        }
        let (k_at, k) = w.number(max, &|| {
            format!("the number of successors of field {field}")
        })?;
        if k == 0 {
            return Err(error_at(
                text,
                k_at,
                ParseErrorKind::NoSuccessors { vertex: field },
            ));
        }
        succ.clear();
        for j in 1..=k {
            let what = || format!("successor {j} of field {field}");
            let (s_at, s) = w.number(max, &what)?;
            if s == 0 || s > n {
                return Err(error_at(
                    text,
                    s_at,
                    ParseErrorKind::OutOfRange {
                        what: what(),
                        value: s,
                        lo: 1,
                        end: n + 1,
                    },
                ));
            }
            succ.push((s - 1) as u32);
        }
        let owner = u8::from(field > a);
        let priority = if z == 1 { GREEN } else { WHITE };
        builder.push(owner, priority, succ.iter().copied());
    }
    w.finish(&format!(
        "the {}",
        crate::number::count(n.into(), "field", "fields")
    ))?;
    let arena = builder
        .build()
        .map_err(|_| too_large(text, "more than u32::MAX successor entries"))?;
    arena
        .with_ids(IdMap::Offset(1))
        .map_err(|_| too_large(text, "field numbers"))
}

/// Writes a green game: the arena must list Ann's vertices (owner 0) before Billy's, use only
/// the priorities [`WHITE`] and [`GREEN`], and have no dead ends. Field `i` is dense id `i - 1`.
pub fn write_poi(arena: &Arena) -> Result<String, WriteError> {
    let a = arena.owners().iter().take_while(|&&o| o == 0).count();
    let b = arena.len() - a;
    let mut out = String::new();
    let _ = writeln!(out, "{a} {b}");
    for v in arena.vertices() {
        // The field's number in the file written.
        let vertex = FileId(u64::from(v) + 1);
        if arena.owner(v) == 0 && v as usize >= a {
            return Err(WriteError::NotPoi {
                vertex,
                reason: "Ann's fields must all come before Billy's",
            });
        }
        let z = match arena.priority(v) {
            WHITE => 0,
            GREEN => 1,
            _ => {
                return Err(WriteError::NotPoi {
                    vertex,
                    reason: "its priority is neither WHITE (1) nor GREEN (2)",
                })
            }
        };
        let succ = arena.successors(v);
        if succ.is_empty() {
            return Err(WriteError::DeadEnd { vertex });
        }
        let _ = write!(out, "{z} {}", succ.len());
        for &s in succ {
            let _ = write!(out, " {}", u64::from(s) + 1);
        }
        out.push('\n');
    }
    Ok(out)
}

/// Writes the green game's answer: the number `l` of fields from which Ann (player 0) wins, then
/// those fields (1-based, ascending), one per line. `winner[v]` is the winner at dense id `v`.
pub fn write_poi_answer(winner: &[u8]) -> String {
    let fields: Vec<usize> = (0..winner.len()).filter(|&v| winner[v] == 0).collect();
    let mut out = String::new();
    let _ = writeln!(out, "{}", fields.len());
    for v in fields {
        let _ = writeln!(out, "{}", v + 1);
    }
    out
}

/// Parses a green-game answer for a game of `n` fields into "Ann wins from here" per dense id.
/// The fields must be in `1..=n` and strictly ascending.
pub fn parse_poi_answer(text: &str, n: usize) -> Result<Vec<bool>, ParseError> {
    let mut w = Words::new(text);
    let (_, l) = w.number(n as u64, &|| "the number of Ann's winning fields".into())?;
    let mut ann = vec![false; n];
    let mut previous = 0u64;
    for i in 1..=l {
        let what = || format!("winning field {i}");
        let (at, f) = w.number(u64::MAX, &what)?;
        if f == 0 || f > n as u64 {
            return Err(error_at(
                text,
                at,
                ParseErrorKind::OutOfRange {
                    what: what(),
                    value: f,
                    lo: 1,
                    end: n as u64 + 1,
                },
            ));
        }
        if f <= previous {
            return Err(error_at(
                text,
                at,
                ParseErrorKind::NotAscending { previous, found: f },
            ));
        }
        previous = f;
        ann[f as usize - 1] = true;
    }
    w.finish(&format!(
        "the {}",
        crate::number::count(l.into(), "winning field", "winning fields")
    ))?;
    Ok(ann)
}

/// Writes a green-game solution with strategies: the answer ([`write_poi_answer`]), then
/// one `field -> successor` line (1-based) per field whose owner wins there.
pub fn write_poi_solution(arena: &Arena, winner: &[u8], strategy: &[Option<u32>]) -> String {
    let mut out = write_poi_answer(winner);
    for v in arena.vertices() {
        if let Some(w) = strategy[v as usize] {
            if arena.owner(v) == winner[v as usize] {
                out.push_str(&format!("{} -> {}\n", v + 1, w + 1));
            }
        }
    }
    out
}

/// Parses what [`write_poi_solution`] writes: the answer, then optional `field -> successor`
/// lines. Returns the winner of each field (0 = Ann) and the strategy (dense ids).
pub fn parse_poi_solution(
    text: &str,
    arena: &Arena,
) -> Result<(Vec<u8>, Vec<Option<u32>>), ParseError> {
    let n = arena.len();
    let split = text
        .lines()
        .position(|l| l.contains("->"))
        .unwrap_or(usize::MAX);
    let answer: String = text.lines().take(split).collect::<Vec<_>>().join("\n");
    let ann = parse_poi_answer(&answer, n)?;
    let winner: Vec<u8> = ann.iter().map(|&a| u8::from(!a)).collect();
    let mut strategy = vec![None; n];
    for (i, line) in text.lines().enumerate().skip(split) {
        let error = |column: usize, kind: ParseErrorKind| ParseError {
            line: i + 1,
            column,
            kind,
        };
        if line.trim().is_empty() {
            continue;
        }
        let Some((from, to)) = line.split_once("->") else {
            return Err(error(
                1,
                ParseErrorKind::Expected {
                    expected: "`field -> successor`".into(),
                    found: excerpt(line.trim()),
                },
            ));
        };
        let field = |text: &str, column: usize| -> Result<u32, ParseError> {
            let t = text.trim();
            let column = column + text.len() - text.trim_start().len();
            match t.parse::<u64>() {
                Ok(f) if f >= 1 && f <= n as u64 => Ok(f as u32 - 1),
                Ok(f) => Err(error(
                    column,
                    ParseErrorKind::OutOfRange {
                        what: "a field".into(),
                        value: f,
                        lo: 1,
                        end: n as u64 + 1,
                    },
                )),
                Err(_) => Err(error(
                    column,
                    ParseErrorKind::Expected {
                        expected: "a field number".into(),
                        found: excerpt(t),
                    },
                )),
            }
        };
        let v = field(from, 1)?;
        let w = field(to, from.chars().count() + 3)?;
        strategy[v as usize] = Some(w);
    }
    Ok((winner, strategy))
}

// ---------------------------------------------------------------------------------------------
// Plain digraph
// ---------------------------------------------------------------------------------------------

/// The most vertices [`parse_digraph`] accepts. Vertices without edges cost no text, so a
/// ten-byte file could otherwise ask for tens of gigabytes; 2^28 vertices take about 2.5 GB.
pub const MAX_DIGRAPH_VERTICES: u64 = 1 << 28;

/// How many vertices a digraph may declare that no edge names (see [`digraph_vertex_limit`]).
pub const DIGRAPH_FREE_VERTICES: u64 = 4096;

/// The most vertices a digraph of `m` edges may declare: the at most `2m` its edges can name,
/// plus [`DIGRAPH_FREE_VERTICES`] isolated ones, and at most [`MAX_DIGRAPH_VERTICES`].
/// Isolated vertices cost no text, so without this a header of a few bytes could size
/// gigabytes; with it, vertices are allocated only once the `m` edges have been read, and
/// each edge takes at least four bytes, so the vertices stay within a constant plus half the
/// file's length. The bound depends on the counts alone, not on the layout, so whatever
/// [`write_digraph`] writes parses back.
pub fn digraph_vertex_limit(edges: u64) -> u64 {
    edges
        .saturating_mul(2)
        .saturating_add(DIGRAPH_FREE_VERTICES)
        .min(MAX_DIGRAPH_VERTICES)
}

/// Parses a plain digraph: `n m`, then `m` edges `u v` with `u, v` in `0..n`. Dead ends are
/// allowed (who cannot move loses). Every vertex gets owner 0 and priority 0; each vertex's
/// successors keep file order. `n` is at most [`digraph_vertex_limit`]`(m)` (a header past it
/// is a [`ParseErrorKind::HeaderClaim`] at `n`); nothing is allocated for the vertices before
/// the edges are read, nor for the edges beyond what the text can hold.
///
/// # Complexity
/// O(size of `text` + n).
pub fn parse_digraph(text: &str) -> Result<Arena, ParseError> {
    let mut w = Words::new(text);
    let max = u64::from(u32::MAX);
    let (n_at, n) = w.number(MAX_DIGRAPH_VERTICES, &|| "the number of vertices n".into())?;
    let (_, m) = w.number(max, &|| "the number of edges m".into())?;
    let limit = digraph_vertex_limit(m);
    if n > limit {
        return Err(error_at(
            text,
            n_at,
            ParseErrorKind::HeaderClaim {
                claimed: format!("{n} vertices"),
                found: format!(
                    "{} name at most {} and at most {DIGRAPH_FREE_VERTICES} may be isolated \
                     (the limit is {limit})",
                    crate::number::count(m.into(), "edge", "edges"),
                    m.saturating_mul(2)
                ),
            },
        ));
    }
    // Never trust a count for allocation: each edge needs at least four bytes of text.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity((m as usize).min(text.len() / 4));
    for e in 1..=m {
        let mut end = [0u32; 2];
        for (slot, side) in end.iter_mut().zip(["tail", "head"]) {
            let what = || format!("the {side} of edge {e} (of the {m} the header claims)");
            let (at, x) = w.number(max, &what)?;
            if x >= n {
                return Err(error_at(
                    text,
                    at,
                    ParseErrorKind::OutOfRange {
                        what: what(),
                        value: x,
                        lo: 0,
                        end: n,
                    },
                ));
            }
            *slot = x as u32;
        }
        edges.push((end[0], end[1]));
    }
    w.finish(&format!(
        "the {}",
        crate::number::count(m.into(), "edge", "edges")
    ))?;
    let csr = Csr::try_from_edges(n as usize, &edges)
        .map_err(|_| too_large(text, "more than u32::MAX edges"))?;
    Arena::new(vec![0; n as usize], vec![0; n as usize], csr)
        .map_err(|_| too_large(text, "the graph"))
}

/// Writes a plain digraph (`n m`, then the edges in CSR order), dropping owners and priorities.
pub fn write_digraph(arena: &Arena) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", arena.len(), arena.edge_count());
    for v in arena.vertices() {
        for &s in arena.successors(v) {
            let _ = writeln!(out, "{v} {s}");
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// PGSolver
// ---------------------------------------------------------------------------------------------

/// Reads a number token, or fails with what was expected.
fn pg_number(
    lx: &mut PgLexer<'_>,
    max: u64,
    what: &dyn Fn() -> String,
) -> Result<(usize, u64), ParseError> {
    let text = lx.text();
    let (at, tok) = lx.next()?;
    match tok {
        Tok::Num(s) => number_value(s, max, what)
            .map(|v| (at, v))
            .map_err(|k| error_at(text, at, k)),
        Tok::End => Err(error_at(
            text,
            lx.prev_end,
            ParseErrorKind::UnexpectedEnd { expected: what() },
        )),
        other => Err(error_at(
            text,
            at,
            ParseErrorKind::Expected {
                expected: what(),
                found: other.describe(),
            },
        )),
    }
}

/// The vertex id that starts the next line and its offset, `None` at the end of the text;
/// any other token is the error `otherwise` makes of what was found.
fn pg_line_start(
    lx: &mut PgLexer<'_>,
    otherwise: impl FnOnce(String) -> ParseErrorKind,
) -> Result<Option<(usize, u64)>, ParseError> {
    let text = lx.text();
    let (at, tok) = lx.next()?;
    match tok {
        Tok::End => Ok(None),
        Tok::Num(s) => number_value(s, u64::MAX, &|| "a vertex id".into())
            .map(|id| Some((at, id)))
            .map_err(|k| error_at(text, at, k)),
        other => Err(error_at(text, at, otherwise(other.describe()))),
    }
}

/// Consumes the `;` that ends a statement, or reports it missing just after the last token.
fn pg_semicolon(lx: &mut PgLexer<'_>, after: &dyn Fn() -> String) -> Result<(), ParseError> {
    if let (_, Tok::Semi) = lx.peek()? {
        lx.next()?;
        return Ok(());
    }
    Err(error_at(
        lx.text(),
        lx.prev_end,
        ParseErrorKind::MissingSemicolon { after: after() },
    ))
}

/// Successor ids as read: `u32` while every one fits (the usual case: 4 bytes an edge, and the
/// same vector then takes the dense ids in place), `u64` from the first that does not.
enum RawSucc {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl RawSucc {
    #[inline]
    fn push(&mut self, s: u64) {
        match self {
            RawSucc::Narrow(v) => match u32::try_from(s) {
                Ok(s) => v.push(s),
                Err(_) => {
                    let mut wide = Vec::with_capacity(v.capacity());
                    wide.extend(v.iter().map(|&x| u64::from(x)));
                    wide.push(s);
                    *self = RawSucc::Wide(wide);
                }
            },
            RawSucc::Wide(v) => v.push(s),
        }
    }

    fn len(&self) -> usize {
        match self {
            RawSucc::Narrow(v) => v.len(),
            RawSucc::Wide(v) => v.len(),
        }
    }

    /// The successors as dense ids by `lookup` (in place while narrow; `dense` when the
    /// file's ids are the dense ids already, below `n`), in file order, and the first one
    /// undeclared, if any (its place and id: the earliest in the file), where the mapping
    /// stops.
    fn into_dense(
        self,
        dense: bool,
        n: usize,
        lookup: impl Fn(u64) -> Option<u32>,
    ) -> (Vec<u32>, Option<(usize, u64)>) {
        let mut undeclared = None;
        let targets = match self {
            RawSucc::Narrow(mut t) => {
                if dense {
                    undeclared = t
                        .iter()
                        .position(|&s| s as usize >= n)
                        .map(|k| (k, u64::from(t[k])));
                } else {
                    for (k, s) in t.iter_mut().enumerate() {
                        match lookup(u64::from(*s)) {
                            Some(d) => *s = d,
                            None => {
                                undeclared = Some((k, u64::from(*s)));
                                break;
                            }
                        }
                    }
                }
                t
            }
            RawSucc::Wide(raw) => {
                let mut t = Vec::with_capacity(raw.len());
                for (k, &s) in raw.iter().enumerate() {
                    match lookup(s) {
                        Some(d) => t.push(d),
                        None => {
                            undeclared = Some((k, s));
                            break;
                        }
                    }
                }
                t
            }
        };
        (targets, undeclared)
    }
}

/// The vertex statements as read, in file order, as a structure of arrays. Where each id and
/// each successor was read (`at`) is kept only by the pass that locates an error found after
/// the first: the first pass saves those 8 bytes a vertex and 8 an edge.
struct PgBody {
    ids: Vec<u64>,
    priority: Vec<u32>,
    owner: Vec<u8>,
    /// CSR offsets in file order: 0, then where each vertex's successors end (`u32`, as the
    /// arena keeps them: past `u32::MAX` edges they wrap, and the file is refused by its
    /// count of successors before they are read).
    ends: Vec<u32>,
    succ: RawSucc,
    /// Empty until the first name, then one entry per vertex.
    names: Vec<Option<String>>,
    /// Where each vertex's id and each successor was read, on the locating pass.
    at: Option<(Vec<usize>, Vec<usize>)>,
}

/// The rest of one vertex statement after its id (read at `at`): priority, owner,
/// successors, an optional name, the `;`; the vertex is added to `body`.
fn pg_vertex(
    lx: &mut PgLexer<'_>,
    text: &str,
    (at, id): (usize, u64),
    bound: u64,
    body: &mut PgBody,
) -> Result<(), ParseError> {
    if id > bound {
        return Err(error_at(
            text,
            at,
            ParseErrorKind::IdAboveHeader { id, bound },
        ));
    }
    let (_, priority) = pg_number(lx, u64::from(u32::MAX), &|| {
        format!("the priority of vertex {id}")
    })?;
    let (o_at, owner) = pg_number(lx, u64::MAX, &|| format!("the owner of vertex {id}"))?;
    if owner > 1 {
        return Err(error_at(
            text,
            o_at,
            ParseErrorKind::BadOwner {
                vertex: id,
                found: owner,
            },
        ));
    }
    match lx.peek()? {
        (s_at, Tok::Semi | Tok::Str(_)) => {
            return Err(error_at(
                text,
                s_at,
                ParseErrorKind::NoSuccessors { vertex: id },
            ));
        }
        (_, Tok::End) => {
            return Err(error_at(
                text,
                lx.prev_end,
                ParseErrorKind::NoSuccessors { vertex: id },
            ));
        }
        _ => {}
    }
    loop {
        let what = || format!("a successor of vertex {id}");
        let (s_at, s) = pg_number(lx, u64::MAX, &what)?;
        body.succ.push(s);
        if let Some((_, succ_at)) = &mut body.at {
            succ_at.push(s_at);
        }
        if let (_, Tok::Comma) = lx.peek()? {
            lx.next()?;
        } else {
            break;
        }
    }
    let name = match lx.peek()? {
        (_, Tok::Str(_)) => match lx.next()? {
            (_, Tok::Str(s)) => Some(s),
            _ => None,
        },
        _ => None,
    };
    pg_semicolon(lx, &|| format!("vertex {id}"))?;
    if name.is_some() && body.names.is_empty() {
        body.names.resize(body.ids.len(), None);
    }
    if name.is_some() || !body.names.is_empty() {
        body.names.push(name);
    }
    body.ids.push(id);
    body.priority.push(priority as u32);
    body.owner.push(owner as u8);
    body.ends.push(body.succ.len() as u32);
    if let Some((id_at, _)) = &mut body.at {
        id_at.push(at);
    }
    Ok(())
}

/// Parses a PGSolver parity game.
///
/// Grammar (whitespace, line breaks included, is free between tokens):
/// `parity N ;` [`start V ;`] then per vertex `id priority owner s1,s2,… ["name"] ;`.
/// `N` may be the largest id (PGSolver's convention) or the vertex count (used by many files):
/// both are accepted, and every id must be `≤ N`. Ids may be sparse and in any order (an id
/// below the largest that the file never defines is no vertex, as in PGSolver); dense ids
/// are assigned in increasing id order. The header sizes nothing: vertices are stored as the
/// body defines them, and a header larger than the largest defined id plus one (or than 0
/// for a file without vertices) claims vertices the file does not have and is an error
/// ([`ParseErrorKind::HeaderClaim`], at `N`). Names are double-quoted with `\"`, `\\`, `\n`, `\t`,
/// `\r` escapes.
///
/// Errors: a missing or malformed header, a header claiming more vertices than the file
/// defines, a duplicate id, a successor or start that is not a
/// declared vertex, an owner other than 0/1, a vertex without successors (PGSolver forbids dead
/// ends), numbers that are negative or overflow (`u64` ids, `u32` priorities), a missing `;`,
/// anything after the last statement that does not start a vertex.
///
/// # Complexity
/// O(size of `text`) when ids come in increasing order (the usual case); O(n log n + m log n)
/// otherwise. Memory, for a file of increasing ids below `u32::MAX`: 8 bytes a vertex for the
/// ids (kept only when they are not contiguous), 8 for the offsets, 5 for owner and priority,
/// and 4 an edge: the arena's own tables, written once, with nothing kept beside them. A
/// problem found only after the whole file is read (a duplicate id, an undeclared successor or
/// start) costs a second reading, which notes where each token was.
pub fn parse_pgsolver(text: &str) -> Result<Arena, ParseError> {
    if let Some(arena) = parse_pg(text, false)? {
        return Ok(arena);
    }
    parse_pg(text, true)?.ok_or_else(|| too_large(text, "an error that could not be placed"))
}

/// [`parse_pgsolver`]: `Ok(None)` when a problem was found after the pass and `locate` is
/// off (the caller then reads again with it on, to say where the problem is).
fn parse_pg(text: &str, locate: bool) -> Result<Option<Arena>, ParseError> {
    let mut lx = PgLexer::new(text);
    let ((bound_at, bound), start) = pg_header(&mut lx)?;

    let body = pg_body(&mut lx, text, bound, locate)?;
    let PgBody {
        ids,
        mut priority,
        mut owner,
        mut ends,
        succ,
        mut names,
        at,
    } = body;
    let n = ids.len();
    if n > u32::MAX as usize {
        return Err(too_large(text, "more than u32::MAX vertices"));
    }
    if succ.len() > u32::MAX as usize {
        return Err(too_large(text, "more than u32::MAX edges"));
    }
    let (id_at, succ_at) = match &at {
        Some((i, s)) => (i.as_slice(), s.as_slice()),
        None => (&[][..], &[][..]),
    };
    // Several problems may be found after the pass; report the earliest in the file. The
    // first pass, which has no positions, stops at the first problem it sees.
    let mut first: Option<(usize, ParseErrorKind)> = None;
    let mut note = |at: usize, kind: ParseErrorKind| {
        if first.as_ref().is_none_or(|(f, _)| at < *f) {
            first = Some((at, kind));
        }
    };
    // Dense ids in increasing id order; the second of a duplicate pair is reported.
    let (order, sorted, duplicates) = by_id(ids);
    for (p, q, id) in duplicates {
        if !locate {
            return Ok(None);
        }
        note(id_at[q].max(id_at[p]), ParseErrorKind::DuplicateId { id });
    }
    let contiguous = n == 0 || sorted[n - 1] - sorted[0] == n as u64 - 1;
    let base = sorted.first().copied().unwrap_or(0);
    let lookup = |id: u64| -> Option<u32> {
        if contiguous {
            let d = id.checked_sub(base)?;
            (d < n as u64).then_some(d as u32)
        } else {
            sorted.binary_search(&id).ok().map(|i| i as u32)
        }
    };
    let (mut targets, undeclared) = succ.into_dense(contiguous && base == 0, n, lookup);
    if let Some((k, id)) = undeclared {
        if !locate {
            return Ok(None);
        }
        note(
            succ_at[k],
            ParseErrorKind::Undeclared {
                what: "a successor".into(),
                id,
            },
        );
    }
    let start = match start {
        None => None,
        Some((at, s)) => match lookup(s) {
            Some(d) => Some(d),
            None => {
                // The first pass gets here only without other problems: this one is the
                // earliest.
                note(
                    at,
                    ParseErrorKind::Undeclared {
                        what: "the start".into(),
                        id: s,
                    },
                );
                None
            }
        },
    };
    if let Some((at, kind)) = first {
        return Err(error_at(text, at, kind));
    }
    // The header is the largest id (PGSolver) or the count (Oink and others); ids between
    // that the file never defines are allowed (PGSolver leaves them empty), but a header past
    // the largest defined id plus one claims vertices the file does not have. Checked after
    // the body's own problems, which say more precisely what is wrong.
    let largest = sorted.last().copied();
    if bound > largest.map_or(0, |l| l.saturating_add(1)) {
        return Err(error_at(text, bound_at, header_claim(bound, largest)));
    }
    if let Some(o) = order {
        into_id_order(
            &o,
            (&mut ends, &mut targets),
            &mut owner,
            &mut priority,
            &mut names,
        );
    }
    let ids = if contiguous {
        IdMap::Offset(base)
    } else {
        IdMap::Table(sorted)
    };
    // Every target was looked up among the dense ids above.
    debug_assert!(targets.iter().all(|&t| (t as usize) < n));
    let succ = Csr {
        offsets: ends,
        targets,
    };
    let built = Arena::new(owner, priority, succ)
        .and_then(|a| a.with_names(names))
        .and_then(|a| a.with_start(start))
        .and_then(|a| a.with_ids(ids));
    built.map(Some).map_err(|e| too_large(text, &e.to_string()))
}

/// The vertex statements after the header (`parity bound;`), as read, in file order;
/// where each id and successor was read too when `locate`.
fn pg_body(
    lx: &mut PgLexer<'_>,
    text: &str,
    bound: u64,
    locate: bool,
) -> Result<PgBody, ParseError> {
    // Room for what the file can hold, asked once: a table grown by doubling leaves the
    // room it outgrew with the allocator, which keeps it. At most N + 1 vertices, and at most
    // one a statement's 8 bytes ("0 0 0 0;"); one successor a vertex and one a comma.
    let vertices = usize::try_from(bound.saturating_add(1))
        .unwrap_or(usize::MAX)
        .min(text.len() / 8 + 1);
    let edges = vertices.saturating_add(text.bytes().filter(|&b| b == b',').count());
    let mut body = PgBody {
        ids: Vec::with_capacity(vertices),
        priority: Vec::with_capacity(vertices),
        owner: Vec::with_capacity(vertices),
        ends: Vec::with_capacity(vertices + 1),
        succ: RawSucc::Narrow(Vec::with_capacity(edges)),
        names: Vec::new(),
        at: locate.then(|| (Vec::new(), Vec::new())),
    };
    body.ends.push(0);
    while let Some((at, id)) = pg_line_start(lx, |found| {
        if body.ids.is_empty() {
            ParseErrorKind::Expected {
                expected: "a vertex id".into(),
                found,
            }
        } else {
            ParseErrorKind::TrailingGarbage {
                after: "the last vertex".into(),
                found,
            }
        }
    })? {
        pg_vertex(lx, text, (at, id), bound, &mut body)?;
    }
    Ok(body)
}

/// The ids of the file's vertices (in file order) in increasing order; `order`, where the
/// file's is not, the permutation (`order[k]`: the vertex of the k-th id). A stable sort
/// keeps duplicates in file order: each is listed `(p, q, id)`, `q` the second.
#[allow(clippy::type_complexity)]
fn by_id(ids: Vec<u64>) -> (Option<Vec<u32>>, Vec<u64>, Vec<(usize, usize, u64)>) {
    if ids.windows(2).all(|w| w[0] < w[1]) {
        return (None, ids, Vec::new());
    }
    let mut o: Vec<u32> = (0..ids.len() as u32).collect();
    o.sort_by_key(|&i| ids[i as usize]);
    let duplicates = o
        .windows(2)
        .map(|w| (w[0] as usize, w[1] as usize))
        .filter(|&(p, q)| ids[p] == ids[q])
        .map(|(p, q)| (p, q, ids[q]))
        .collect();
    let sorted = o.iter().map(|&i| ids[i as usize]).collect();
    (Some(o), sorted, duplicates)
}

/// The vertex tables, read in file order, put in increasing id order by `order` (as
/// [`by_id`] gives it): the successors (CSR `ends`, `targets`), owners, priorities, names.
fn into_id_order(
    order: &[u32],
    (ends, targets): (&mut Vec<u32>, &mut Vec<u32>),
    owner: &mut Vec<u8>,
    priority: &mut Vec<u32>,
    names: &mut Vec<Option<String>>,
) {
    let mut dense_ends = Vec::with_capacity(order.len() + 1);
    let mut dense_targets = Vec::with_capacity(targets.len());
    dense_ends.push(0);
    for &i in order {
        let i = i as usize;
        dense_targets.extend_from_slice(&targets[ends[i] as usize..ends[i + 1] as usize]);
        dense_ends.push(dense_targets.len() as u32);
    }
    (*ends, *targets) = (dense_ends, dense_targets);
    *owner = order.iter().map(|&i| owner[i as usize]).collect();
    *priority = order.iter().map(|&i| priority[i as usize]).collect();
    if !names.is_empty() {
        *names = order.iter().map(|&i| names[i as usize].take()).collect();
    }
}

/// A number read, after the offset it was read at.
type AtNumber = (usize, u64);

/// The header `parity N;` and an optional `start V;`: `N` and `V`, each with its offset.
fn pg_header(lx: &mut PgLexer<'_>) -> Result<(AtNumber, Option<AtNumber>), ParseError> {
    let text = lx.text();
    let (at, tok) = lx.next()?;
    if tok != Tok::Word("parity") {
        return Err(error_at(
            text,
            at,
            ParseErrorKind::Expected {
                expected: "the header `parity N;`".into(),
                found: tok.describe(),
            },
        ));
    }
    let bound = pg_number(lx, u64::MAX, &|| "N in the header `parity N;`".into())?;
    pg_semicolon(lx, &|| "the header `parity N`".into())?;
    let mut start = None;
    if let (_, Tok::Word("start")) = lx.peek()? {
        lx.next()?;
        start = Some(pg_number(lx, u64::MAX, &|| "the start vertex".into())?);
        pg_semicolon(lx, &|| "`start V`".into())?;
    }
    Ok((bound, start))
}

/// The error of a header `bound` that claims more than the file defines (`largest`, its
/// largest id, if any).
fn header_claim(bound: u64, largest: Option<u64>) -> ParseErrorKind {
    ParseErrorKind::HeaderClaim {
        claimed: format!("vertex ids up to {bound}"),
        found: match largest {
            None => "the file defines no vertex".into(),
            Some(l) => format!("the largest id the file defines is {l}"),
        },
    }
}

fn push_quoted(out: &mut String, name: &str) {
    out.push('"');
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The header bound PGSolver writes: the largest id (0 for an empty game).
fn max_file_id(arena: &Arena) -> FileId {
    match arena.len() {
        0 => FileId(0),
        n => arena.file_id(n as u32 - 1),
    }
}

/// Writes a PGSolver game with the arena's file ids, in increasing id order: header
/// `parity N;` with `N` the largest id (PGSolver's convention), `start V;` if there is a start,
/// then one line per vertex with its name if it has one. Fails on dead ends, which PGSolver
/// cannot express. [`parse_pgsolver`] reads the output back to an equal arena.
pub fn write_pgsolver(arena: &Arena) -> Result<String, WriteError> {
    if let Some(v) = arena.first_dead_end() {
        return Err(WriteError::DeadEnd {
            vertex: arena.file_id(v),
        });
    }
    let mut out = String::with_capacity(16 * arena.len() + 8 * arena.edge_count());
    // Writing to a String cannot fail; the `fmt::Result`s are ignored for that reason.
    let _ = writeln!(out, "parity {};", max_file_id(arena));
    if let Some(s) = arena.start() {
        let _ = writeln!(out, "start {};", arena.file_id(s));
    }
    for v in arena.vertices() {
        let _ = write!(
            out,
            "{} {} {} ",
            arena.file_id(v),
            arena.priority(v),
            arena.owner(v)
        );
        for (i, &s) in arena.successors(v).iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", arena.file_id(s));
        }
        if let Some(name) = arena.name(v) {
            out.push(' ');
            push_quoted(&mut out, name);
        }
        out.push_str(";\n");
    }
    Ok(out)
}

/// A solution read from a PGSolver solution file, indexed by dense id. Vertices the file does
/// not mention have winner `None` (solutions may be partial).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgSolution {
    /// The claimed winner of each vertex.
    pub winner: Vec<Option<u8>>,
    /// The strategy given for each vertex (dense target), if any.
    pub strategy: Vec<Option<u32>>,
}

impl PgSolution {
    /// The winners if every vertex has one, else the first vertex (dense id) without.
    pub fn complete_winners(&self) -> Result<Vec<u8>, u32> {
        self.winner
            .iter()
            .enumerate()
            .map(|(v, w)| w.ok_or(v as u32))
            .collect()
    }
}

/// Writes a solution in PGSolver's format: `paritysol N;` (`N` the largest id), then
/// `id winner [strategy];` per vertex in increasing id order, the strategy (a successor's id)
/// only where the vertex's owner is its winner — as PGSolver and Oink write it.
pub fn write_pgsolver_solution(
    arena: &Arena,
    winner: &[u8],
    strategy: &[Option<u32>],
) -> Result<String, WriteError> {
    check_solution(arena, winner, Some(strategy))?;
    let mut out = Vec::with_capacity(12 * arena.len() + 16);
    emit_solution(&mut out, arena, winner, Some(strategy))
        .expect("writing to a vector does not fail");
    Ok(String::from_utf8(out).expect("digits, spaces and punctuation are UTF-8"))
}

/// [`write_pgsolver_solution`]'s text written to `out` 8 KiB at a time, so that a large
/// solution is never held whole; `strategy` `None` writes no moves.
///
/// # Errors
/// A table [`write_pgsolver_solution`] refuses is an [`std::io::ErrorKind::InvalidInput`]
/// error holding the [`WriteError`], found before anything is written; else `out`'s own.
///
/// # Complexity
/// O(n), with 8 KiB of memory.
pub fn write_pgsolver_solution_to(
    out: &mut impl std::io::Write,
    arena: &Arena,
    winner: &[u8],
    strategy: Option<&[Option<u32>]>,
) -> std::io::Result<()> {
    check_solution(arena, winner, strategy)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    emit_solution(out, arena, winner, strategy)
}

/// Whether a solution can be written: one winner (0 or 1) and one entry of `strategy` a
/// vertex, each move a vertex; the first vertex with a problem is named.
fn check_solution(
    arena: &Arena,
    winner: &[u8],
    strategy: Option<&[Option<u32>]>,
) -> Result<(), WriteError> {
    let n = arena.len();
    if winner.len() != n {
        return Err(WriteError::LengthMismatch {
            what: "winner",
            expected: n,
            found: winner.len(),
        });
    }
    if let Some(s) = strategy.filter(|s| s.len() != n) {
        return Err(WriteError::LengthMismatch {
            what: "strategy",
            expected: n,
            found: s.len(),
        });
    }
    for v in arena.vertices() {
        let w = winner[v as usize];
        if w > 1 {
            return Err(WriteError::BadWinner {
                vertex: arena.file_id(v),
                found: w,
            });
        }
        if let Some(t) = strategy.and_then(|s| s[v as usize]) {
            if arena.owner(v) == w && t as usize >= n {
                return Err(WriteError::BadStrategy {
                    vertex: arena.file_id(v),
                    target: t,
                });
            }
        }
    }
    Ok(())
}

/// Writes a solution [`check_solution`] passed.
fn emit_solution(
    out: &mut impl std::io::Write,
    arena: &Arena,
    winner: &[u8],
    strategy: Option<&[Option<u32>]>,
) -> std::io::Result<()> {
    const PIECE: usize = 8 << 10;
    let mut buf: Vec<u8> = Vec::with_capacity(PIECE + 64);
    buf.extend_from_slice(b"paritysol ");
    push_decimal(&mut buf, max_file_id(arena).0);
    buf.extend_from_slice(b";\n");
    for v in arena.vertices() {
        let w = winner[v as usize];
        push_decimal(&mut buf, arena.file_id(v).0);
        buf.extend_from_slice(if w == 0 { b" 0" } else { b" 1" });
        if let Some(t) = strategy.and_then(|s| s[v as usize]) {
            if arena.owner(v) == w {
                buf.push(b' ');
                push_decimal(&mut buf, arena.file_id(t).0);
            }
        }
        buf.extend_from_slice(b";\n");
        if buf.len() >= PIECE {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Appends `x` in decimal.
fn push_decimal(buf: &mut Vec<u8>, mut x: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// Parses a PGSolver solution for `arena`: an optional header `paritysol [N];` (the number is
/// ignored: PGSolver writes the largest id, Oink the number of solved vertices, some tools
/// nothing), then `id winner [strategy];` lines. Ids and strategies must be vertices of the
/// arena; a vertex may appear at most once; winners are 0 or 1. Whether a strategy is a legal,
/// winning move is for [`verify`](crate::graph::verify) to judge, not the parser.
///
/// # Complexity
/// O(size of `text` + n), times O(log n) for arenas with sparse ids.
pub fn parse_pgsolver_solution(text: &str, arena: &Arena) -> Result<PgSolution, ParseError> {
    let n = arena.len();
    let mut sol = PgSolution {
        winner: vec![None; n],
        strategy: vec![None; n],
    };
    let mut lx = PgLexer::new(text);
    if let (_, Tok::Word("paritysol")) = lx.peek()? {
        lx.next()?;
        if let (_, Tok::Num(_)) = lx.peek()? {
            pg_number(&mut lx, u64::MAX, &|| "N in `paritysol N;`".into())?;
        }
        pg_semicolon(&mut lx, &|| "the header `paritysol N`".into())?;
    }
    let vertex = |at: usize, id: u64, what: &str| -> Result<u32, ParseError> {
        arena.dense_id(FileId(id)).ok_or_else(|| {
            error_at(
                text,
                at,
                ParseErrorKind::Undeclared {
                    what: what.to_string(),
                    id,
                },
            )
        })
    };
    while let Some((at, id)) = pg_line_start(&mut lx, |found| ParseErrorKind::Expected {
        expected: "a vertex id or the end of input".into(),
        found,
    })? {
        let v = vertex(at, id, "a solution line")?;
        if sol.winner[v as usize].is_some() {
            return Err(error_at(text, at, ParseErrorKind::DuplicateId { id }));
        }
        let (w_at, w) = pg_number(&mut lx, u64::MAX, &|| format!("the winner of vertex {id}"))?;
        if w > 1 {
            return Err(error_at(
                text,
                w_at,
                ParseErrorKind::BadWinner {
                    vertex: id,
                    found: w,
                },
            ));
        }
        sol.winner[v as usize] = Some(w as u8);
        if let (_, Tok::Num(_)) = lx.peek()? {
            let (s_at, s) = pg_number(&mut lx, u64::MAX, &|| {
                format!("the strategy of vertex {id}")
            })?;
            sol.strategy[v as usize] = Some(vertex(s_at, s, "a strategy")?);
        }
        pg_semicolon(&mut lx, &|| format!("the solution of vertex {id}"))?;
    }
    Ok(sol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detect_formats() {
        assert_eq!(detect("parity 1;\n0 0 0 0;"), Format::PgSolver);
        assert_eq!(detect("  parity 1;"), Format::PgSolver);
        assert_eq!(detect("2 1\n0 1 2\n1 1 1\n1 1\n"), Format::Poi);
        assert_eq!(detect("3 2\n0 1\n1 2\n"), Format::Digraph);
        assert_eq!(detect("0 2\n0 1 1\n1 1 2\n"), Format::Poi);
        assert_eq!(detect("0 0\n"), Format::Digraph);
        assert_eq!(detect(""), Format::Digraph);
        // Malformed POI (a line one successor short) is still detected as POI by line count.
        assert_eq!(detect("1 1\n0 2 1\n1 1 1\n"), Format::Poi);
    }

    #[test]
    fn format_names() {
        for f in [Format::Poi, Format::PgSolver, Format::Digraph] {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
        }
        assert_eq!("PG".parse::<Format>(), Ok(Format::PgSolver));
        assert!("dot".parse::<Format>().is_err());
    }

    #[test]
    fn pgsolver_sparse_ids() {
        let a = parse_pgsolver("parity 20;\nstart 20;\n20 3 1 7 \"x\";\n7 2 0 7,20;").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a.file_id(0), FileId(7));
        assert_eq!(a.file_id(1), FileId(20));
        assert_eq!(a.successors(0), &[0, 1]);
        assert_eq!(a.successors(1), &[0]);
        assert_eq!(a.start(), Some(1));
        assert_eq!(a.name(1), Some("x"));
        assert_eq!(a.name(0), None);
        let text = write_pgsolver(&a).unwrap();
        assert_eq!(
            text,
            "parity 20;\nstart 20;\n7 2 0 7,20;\n20 3 1 7 \"x\";\n"
        );
        assert_eq!(parse_pgsolver(&text).unwrap(), a);
    }

    #[test]
    fn pgsolver_wide_ids_and_late_names() {
        // Successor ids past u32::MAX widen the table as read; a name after an unnamed vertex
        // leaves the earlier ones unnamed.
        let big = u64::from(u32::MAX) + 5;
        let text = format!("parity {big};\n3 1 0 {big},3;\n{big} 2 1 3 \"b\";\n");
        let a = parse_pgsolver(&text).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a.file_id(1), FileId(big));
        assert_eq!(a.successors(0), &[1, 0]);
        assert_eq!(a.successors(1), &[0]);
        assert_eq!((a.name(0), a.name(1)), (None, Some("b")));
        // An undeclared wide successor is placed by the second pass.
        let e = parse_pgsolver(&format!("parity 1;\n0 1 0 {big};\n1 1 0 0;\n")).unwrap_err();
        assert_eq!((e.line, e.column), (2, 7));
        assert!(matches!(e.kind, ParseErrorKind::Undeclared { id, .. } if id == big));
    }

    #[test]
    fn streamed_solution_is_the_text() {
        let a = parse_pgsolver("parity 3;\n0 2 0 1,0;\n1 1 1 2;\n2 3 0 2;\n").unwrap();
        let winner = [0, 1, 1];
        let strategy = [Some(0), Some(2), None];
        let mut out = Vec::new();
        write_pgsolver_solution_to(&mut out, &a, &winner, Some(&strategy)).unwrap();
        let text = write_pgsolver_solution(&a, &winner, &strategy).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
        assert_eq!(text, "paritysol 2;\n0 0 0;\n1 1 2;\n2 1;\n");
        let mut out = Vec::new();
        write_pgsolver_solution_to(&mut out, &a, &winner, None).unwrap();
        assert_eq!(out, b"paritysol 2;\n0 0;\n1 1;\n2 1;\n");
        // A bad table writes nothing.
        let mut out = Vec::new();
        let e = write_pgsolver_solution_to(&mut out, &a, &[0, 2, 0], None).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        assert!(out.is_empty());
    }

    #[test]
    fn solution_round_trip() {
        let a = parse_pgsolver("parity 3;\n0 2 0 1,0;\n1 1 1 2;\n2 3 0 2;\n").unwrap();
        let text = write_pgsolver_solution(&a, &[0, 1, 1], &[Some(0), Some(2), Some(2)]).unwrap();
        assert_eq!(text, "paritysol 2;\n0 0 0;\n1 1 2;\n2 1;\n");
        let s = parse_pgsolver_solution(&text, &a).unwrap();
        assert_eq!(s.winner, vec![Some(0), Some(1), Some(1)]);
        assert_eq!(s.strategy, vec![Some(0), Some(2), None]);
        assert_eq!(s.complete_winners(), Ok(vec![0, 1, 1]));
        let partial = parse_pgsolver_solution("paritysol;\n1 1;", &a).unwrap();
        assert_eq!(partial.complete_winners(), Err(0));
        assert!(parse_pgsolver_solution("0 0;\n0 1;", &a).is_err());
    }
}
