//! POI 1999 "Polygons" ("Gra w wielokąty"): a convex n-gon, vertices 0..n−1 clockwise, cut
//! into n − 2 triangles by non-crossing diagonals, one of them black. Players alternately
//! cut off one triangle along a diagonal — a triangle with at most one neighbour among
//! those left — and whoever cuts off the black triangle wins.
//!
//! What is left is always a polygon of the triangles that remain, so a position is the
//! set of remaining triangles (a bit per triangle). Cutting the black triangle leaves
//! nothing, a position without moves: normal play then says the cutter won. The general
//! method solves small triangulations; the special method's rule is [`Triangulation::rule`]:
//! the player to move wins iff the black triangle can be cut at once or the number of
//! triangles is even. (Why: while the black triangle has two neighbours or more, a move
//! that leaves it cuttable loses at once, and such a move is forced only when the black
//! triangle and its two leaf neighbours are all that is left — three triangles; every
//! other position has a safe cut, so play goes down one triangle a move to three, and
//! parity decides.)

use super::family::{
    Bound, Drawing, Figure, GameRules, Grundy, Indexing, Kind, Patterns, Pos, Scores, Searching,
};
use super::spec::{Args, Built, Entry, Options, SpecError};
use super::words::{Misread, Words};
use std::collections::HashMap;

/// The largest polygon read.
pub const MAX_VERTICES: usize = 1 << 20;

/// Why a triangulation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct PolygonError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong.
    pub message: String,
}

/// A triangulated convex polygon with its black triangle (triangle 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Triangulation {
    n: usize,
    triangles: Vec<[u32; 3]>,
    /// The neighbours of each triangle across its diagonals (at most 3).
    neighbours: Vec<Vec<u32>>,
}

impl Triangulation {
    /// A triangulation of an `n`-gon from its triangles, the black one first.
    ///
    /// # Errors
    /// A message if the triangles do not triangulate the polygon (wrong count, a vertex
    /// out of range, crossing or missing diagonals).
    pub fn new(n: usize, triangles: Vec<[u32; 3]>) -> Result<Triangulation, String> {
        if n < 3 {
            return Err(format!("a polygon has at least 3 vertices, not {n}"));
        }
        if triangles.len() != n - 2 {
            return Err(format!(
                "{} {n}-gon is cut into {}, not {}",
                crate::number::article(&n.to_string()),
                crate::number::count(n as u128 - 2, "triangle", "triangles"),
                triangles.len()
            ));
        }
        let key = |a: u32, b: u32| if a < b { (a, b) } else { (b, a) };
        let mut by_edge: HashMap<(u32, u32), Vec<u32>> = HashMap::with_capacity(3 * n);
        for (i, t) in triangles.iter().enumerate() {
            if t.iter().any(|&v| v as usize >= n) {
                return Err(format!("triangle {} has a vertex past {}", i + 1, n - 1));
            }
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                return Err(format!("triangle {} repeats a vertex", i + 1));
            }
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
                by_edge.entry(key(a, b)).or_default().push(i as u32);
            }
        }
        let boundary = |(a, b): (u32, u32)| b - a == 1 || (a == 0 && b as usize == n - 1);
        let mut neighbours = vec![Vec::new(); triangles.len()];
        for (&edge, ts) in &by_edge {
            let want = if boundary(edge) { 1 } else { 2 };
            if ts.len() != want {
                return Err(format!(
                    "side {}–{} belongs to {}, not {want}",
                    edge.0,
                    edge.1,
                    crate::number::count(ts.len() as u128, "triangle", "triangles")
                ));
            }
            if want == 2 {
                neighbours[ts[0] as usize].push(ts[1]);
                neighbours[ts[1] as usize].push(ts[0]);
            }
        }
        // Every side of the polygon once, every diagonal twice: then cutting ears must
        // take every triangle (crossing diagonals would leave some that are never ears).
        let mut degree: Vec<usize> = neighbours.iter().map(Vec::len).collect();
        let mut ears: Vec<u32> = (0..triangles.len() as u32)
            .filter(|&t| degree[t as usize] <= 1)
            .collect();
        let mut cut = vec![false; triangles.len()];
        let mut count = 0;
        while let Some(t) = ears.pop() {
            if cut[t as usize] {
                continue;
            }
            cut[t as usize] = true;
            count += 1;
            for &u in &neighbours[t as usize] {
                if !cut[u as usize] {
                    degree[u as usize] -= 1;
                    if degree[u as usize] <= 1 {
                        ears.push(u);
                    }
                }
            }
        }
        if count != triangles.len() || by_edge.len() != 2 * n - 3 {
            return Err("the triangles do not cut the polygon along non-crossing diagonals".into());
        }
        Ok(Triangulation {
            n,
            triangles,
            neighbours,
        })
    }

    /// Reads the task's input: n, then n − 2 triangles as three vertex numbers each, the
    /// black one first, separated by whitespace.
    ///
    /// # Errors
    /// A [`PolygonError`] at the line and column of what is wrong.
    pub fn parse(text: &str) -> Result<Triangulation, PolygonError> {
        let mut words = Words::new(text);
        let (n, l, c) = words.number("the number of vertices n", MAX_VERTICES as u64)?;
        let n = n as usize;
        if n < 4 {
            return Err(PolygonError {
                line: l,
                column: c,
                message: format!("n is at least 4, found {n}"),
            });
        }
        let mut triangles = Vec::with_capacity(n - 2);
        for _ in 0..n - 2 {
            let mut t = [0u32; 3];
            for v in &mut t {
                *v = words.number("a vertex", n as u64 - 1)?.0 as u32;
            }
            triangles.push(t);
        }
        words.end("the triangles")?;
        Triangulation::new(n, triangles).map_err(|message| PolygonError {
            line: 1,
            column: 1,
            message,
        })
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.n
    }

    /// The triangles, the black one first.
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// How many sides of the black triangle lie on the polygon's boundary (0, 1 or 2; 2
    /// means it can be cut at once).
    #[must_use]
    pub fn black_boundary_sides(&self) -> usize {
        3 - self.neighbours[0].len()
    }

    /// The special method's rule on the whole polygon: whether the first player wins.
    #[must_use]
    pub fn rule(&self) -> bool {
        self.black_boundary_sides() >= 2 || self.triangles.len().is_multiple_of(2)
    }

    /// The whole polygon as a position of [`Polygon`]: every triangle's bit set.
    #[must_use]
    pub fn start(&self) -> Pos {
        let k = self.triangles.len();
        let mut words = Pos::from_elem(0, k.div_ceil(64));
        for t in 0..k {
            words[t / 64] |= 1 << (t % 64);
        }
        words
    }
}

impl From<Misread> for PolygonError {
    fn from(e: Misread) -> Self {
        PolygonError {
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

/// The family of one triangulation; a position is the set of remaining triangles, one
/// bit each (triangle 0, the black one, is bit 0 of word 0).
#[derive(Debug, Clone)]
pub struct Polygon {
    shape: Triangulation,
}

impl Polygon {
    /// The game of a triangulation.
    #[must_use]
    pub fn new(shape: Triangulation) -> Polygon {
        Polygon { shape }
    }

    /// The triangulation.
    #[must_use]
    pub fn shape(&self) -> &Triangulation {
        &self.shape
    }

    /// The special method's rule on any position: whether the player to move wins.
    #[must_use]
    pub fn rule_wins(&self, pos: &Pos) -> bool {
        if !has(pos, 0) {
            return false;
        }
        let left = (0..self.shape.triangles.len())
            .filter(|&t| has(pos, t))
            .count();
        self.ear(pos, 0) || left % 2 == 0
    }

    /// A position as [`GameRules::write_position`] writes it: the numbers (from 1) of the
    /// triangles left, which play keeps one polygon holding the black triangle — or
    /// none, once it is cut.
    fn read(&self, text: &str) -> Result<Pos, String> {
        let k = self.shape.triangles.len();
        let mut pos = Pos::from_elem(0, k.div_ceil(64));
        if text.trim().is_empty() {
            return Ok(pos);
        }
        for word in text.split(',').map(str::trim) {
            let t = word
                .parse::<usize>()
                .ok()
                .filter(|t| (1..=k).contains(t))
                .ok_or_else(|| {
                    let cut: String = word.chars().take(20).collect();
                    format!("triangles are 1 to {k}, found `{}`", cut.escape_debug())
                })?
                - 1;
            pos[t / 64] |= 1 << (t % 64);
        }
        if !has(&pos, 0) {
            return Err(
                "the triangles left hold the black one (triangle 1) until it is cut".into(),
            );
        }
        // What play leaves is one polygon: the triangles left are connected.
        let mut seen = vec![false; k];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(t) = stack.pop() {
            for &u in &self.shape.neighbours[t] {
                let u = u as usize;
                if has(&pos, u) && !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        if let Some(t) = (0..k).find(|&t| has(&pos, t) && !seen[t]) {
            return Err(format!(
                "triangle {} is cut off from the black one: the triangles left are one polygon",
                t + 1
            ));
        }
        Ok(pos)
    }

    /// Whether triangle `t` can be cut: it remains, with at most one remaining neighbour.
    fn ear(&self, pos: &Pos, t: usize) -> bool {
        has(pos, t)
            && self.shape.neighbours[t]
                .iter()
                .filter(|&&u| has(pos, u as usize))
                .count()
                <= 1
    }
}

fn has(pos: &Pos, t: usize) -> bool {
    pos.get(t / 64).is_some_and(|w| w >> (t % 64) & 1 == 1)
}

impl GameRules for Polygon {
    fn name(&self) -> String {
        let mut name = format!("polygon[{}", self.shape.n);
        for t in &self.shape.triangles {
            for v in t {
                name.push_str(&format!(",{v}"));
            }
        }
        name.push(']');
        name
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let left: Vec<String> = (0..self.shape.triangles.len())
            .filter(|&t| has(pos, t))
            .map(|t| (t + 1).to_string())
            .collect();
        out.push_str(&left.join(","));
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        if !has(pos, 0) {
            return;
        }
        for t in 0..self.shape.triangles.len() {
            if self.ear(pos, t) {
                if t == 0 {
                    // The black triangle is cut: the game is over, won by the cutter.
                    out.push(Pos::from_elem(0, pos.len()));
                } else {
                    let mut next = pos.clone();
                    next[t / 64] &= !(1 << (t % 64));
                    out.push(next);
                }
            }
        }
    }

    fn bound(&self, _pos: &Pos) -> Bound {
        let k = self.shape.triangles.len() as u32;
        Bound {
            positions: 1u128.checked_shl(k).unwrap_or(u128::MAX),
            moves: u128::from(k),
        }
    }

    fn read_position(&self, text: &str) -> Option<Result<Pos, String>> {
        Some(self.read(text))
    }
}

impl Drawing for Polygon {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match (0..self.shape.triangles.len()).find(|&t| has(from, t) && !has(to, t) && t != 0) {
            _ if !has(to, 0) => "cut the black triangle".into(),
            Some(t) => {
                let [a, b, c] = self.shape.triangles[t];
                format!("cut triangle {} ({a} {b} {c})", t + 1)
            }
            None => "no move".into(),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        let t = (0..self.shape.triangles.len()).find(|&t| has(from, t) && !has(to, t));
        t.is_some_and(|t| said == (t + 1).to_string())
            || said == super::family::squash(&self.move_name(from, to))
    }

    fn figure(&self, pos: &Pos) -> Option<Figure> {
        let k = self.shape.triangles.len();
        Some(Figure::Polygon {
            vertices: self.shape.n as u32,
            triangles: self.shape.triangles.clone(),
            left: (0..k).map(|t| has(pos, t)).collect(),
        })
    }

    fn move_part(&self, from: &Pos, to: &Pos) -> Option<u32> {
        // The triangle cut off: the black one when nothing is left, else the one gone.
        if has(from, 0) && !has(to, 0) {
            return Some(0);
        }
        (1..self.shape.triangles.len())
            .find(|&t| has(from, t) && !has(to, t))
            .map(|t| t as u32)
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let lines: Vec<String> = (0..self.shape.triangles.len())
            .filter(|&t| has(pos, t))
            .map(|t| {
                let [a, b, c] = self.shape.triangles[t];
                format!(
                    "{:>4}. {a} {b} {c}{}",
                    t + 1,
                    if t == 0 { "  (black)" } else { "" }
                )
            })
            .collect();
        Some(format!(
            "{}-gon, triangles left:\n{}",
            self.shape.n,
            lines.join("\n")
        ))
    }
}

impl Scores for Polygon {}

impl Indexing for Polygon {}

impl Searching for Polygon {}

impl Patterns for Polygon {
    fn features(&self, pos: &Pos) -> Vec<(String, u64)> {
        // The polygon left: its triangles, and the black triangle's sides on its
        // boundary; nothing once the black triangle is cut.
        if !has(pos, 0) {
            return Vec::new();
        }
        let left = (0..self.shape.triangles.len())
            .filter(|&t| has(pos, t))
            .count();
        let neighbours = self.shape.neighbours[0]
            .iter()
            .filter(|&&u| has(pos, u as usize))
            .count();
        vec![
            ("triangles".into(), left as u64),
            ("black_sides".into(), 3 - neighbours as u64),
        ]
    }
}

impl Grundy for Polygon {}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    // polygon[n,a,b,c,a,b,c,…](t1,t2,…): n, the triangles' vertices with the black one
    // first; the position is the triangles left, by number (all when left out).
    let example = "polygon[5,0,1,2,0,2,3,0,3,4]";
    let params = args.some_params(example)?;
    let n = args.positive(&params[0], "n")?;
    if n > 66 {
        return Err(args.error_at(
            params[0].at(),
            "a spec holds polygons of at most 66 vertices; larger ones are read from a file (grundy olympiad poi1999-polygon)",
        ));
    }
    let vertices = &params[1..];
    if vertices.len() % 3 != 0 {
        return Err(args.error_at(
            params[params.len() - 1].at(),
            format!("expected three vertices for each triangle, as in `{example}`"),
        ));
    }
    let mut triangles = Vec::new();
    for chunk in vertices.chunks(3) {
        let mut t = [0u32; 3];
        for (v, p) in t.iter_mut().zip(chunk) {
            let x = args.natural(p, "a vertex")?;
            if x >= n {
                return Err(args.error_at(p.at(), format!("vertices are 0 to {}", n - 1)));
            }
            *v = x as u32;
        }
        triangles.push(t);
    }
    let shape =
        Triangulation::new(n as usize, triangles).map_err(|m| args.error_at(params[0].at(), m))?;
    let k = shape.triangles.len();
    let position = match args.position() {
        None => shape.start(),
        Some(items) => {
            let mut words = Pos::from_elem(0, k.div_ceil(64));
            for p in items {
                let t = args.positive(p, "a triangle's number")?;
                if t as usize > k {
                    return Err(args.error_at(p.at(), format!("triangles are 1 to {k}")));
                }
                let t = t as usize - 1;
                words[t / 64] |= 1 << (t % 64);
            }
            words
        }
    };
    Ok(Built::new(Polygon::new(shape), Some(position)))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "polygon",
    examples: &["polygon[6,0,2,4,0,1,2,2,3,4,4,5,0]"],
    small: &["polygon[6,0,2,4,0,1,2,2,3,4,4,5,0]"],
    shape: "polygon[n,a,b,c,…](t,…): POI 1999, an n-gon cut into triangles (the black one first); cut off a triangle, who cuts the black one wins; the position is the triangles left",
    build,
    options: Options::NONE,
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_checks_a_triangulation() {
        let t = Triangulation::parse("6\n0 2 4\n0 1 2\n2 3 4\n4 5 0\n").unwrap();
        assert_eq!(t.black_boundary_sides(), 0);
        assert!(t.rule()); // four triangles: even
        let e = Triangulation::parse("5\n0 1 2\n0 2 x\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        assert!(Triangulation::new(4, vec![[0, 1, 2], [1, 2, 3]]).is_err());
        assert!(Triangulation::new(4, vec![[0, 1, 3], [1, 2, 3]]).is_ok());
        // Articles and plurals as they are read: "an 8-gon", "1 triangle".
        let e = Triangulation::new(8, vec![[0, 1, 2]]).unwrap_err();
        assert_eq!(e, "an 8-gon is cut into 6 triangles, not 1");
        let e = Triangulation::new(3, vec![[0, 1, 2], [0, 1, 2]]).unwrap_err();
        assert_eq!(e, "a 3-gon is cut into 1 triangle, not 2");
    }
}
