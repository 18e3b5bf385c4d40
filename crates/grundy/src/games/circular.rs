//! Circular take-and-break games: the tokens of a heap stand in a circle, and the first
//! move on a circle opens it into a row; from then on the row is a heap of the octal game
//! of the same code (`octal[CODE]`), played by the heap family's own rules.
//!
//! A move on a circle of `n` removes `k` adjacent tokens. What is left is one row of
//! `n − k`, allowed where the code lets `k` tokens be taken leaving one heap (digit `d_k`
//! has bit 2), or nothing, where `k = n` and `d_k` has bit 1. One cut cannot leave two
//! rows, so bit 4 does not apply to a circle. `circular[0.77](n)` is the round table of
//! the lecture notes' symmetry argument: take one coin or two adjacent ones, who takes
//! the last wins. The second player wins every circle of `n ≥ 3`: the first move leaves
//! one row, and the reply takes its middle one or two coins so that two equal rows are
//! left, after which every move in one row is copied in the other.
//!
//! A position is a list of circles and rows, written `circular[0.77](12)` for a circle of
//! 12 and `circular[0.77](row5,row3)` for two rows. The Grundy value of a circle is the
//! mex of its options, which are rows: heaps of `octal[CODE]`.

use super::code::Code;
use super::family::{
    Bound, Cost, Discovery, Drawing, GameRules, Grundy, GrundySource, Indexing, Kind, Look,
    PatternSource, Patterns, Picture, Pos, ProvedRule, Scores, Searching, Values,
};
use super::heap::{HeapFamily, Heaps};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::explore::Control;
use crate::impartial::mex;
use crate::Error;

/// The mark of a circle among the words of a position (rows are plain sizes).
const CIRCLE: u64 = 1 << 63;

/// A circular take-and-break game of an octal code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circular {
    code: Code,
    rows: Heaps,
}

impl Circular {
    /// The game of `code` (an octal code).
    #[must_use]
    pub fn new(code: Code) -> Circular {
        Circular {
            rows: Heaps(HeapFamily::Octal(code.clone())),
            code,
        }
    }

    /// A circle of `n` tokens, as one word of a position.
    #[must_use]
    pub fn circle(n: u64) -> u64 {
        n | CIRCLE
    }

    /// Appends the rows a circle of `n` can be opened into (`0`: nothing left), each once.
    fn openings(&self, n: u64, out: &mut Vec<u64>) {
        for k in 1..=self.code.max_removal().min(n) {
            let d = self.code.digit(k);
            if k == n && d & 1 != 0 {
                out.push(0);
            }
            if k < n && d & 2 != 0 {
                out.push(n - k);
            }
        }
    }

    /// Whether the second player wins a circle of `n` by symmetry: no first move takes the
    /// whole circle, and every row a first move leaves can be taken whole or split into
    /// two equal rows by one move of the code — then each later move is copied in the
    /// twin row (the sum of two equal games is a loss for the player to move).
    #[must_use]
    pub fn mirror_wins(&self, n: u64) -> bool {
        let mut rows = Vec::new();
        self.openings(n, &mut rows);
        !rows.is_empty()
            && rows
                .iter()
                .all(|&m| m != 0 && self.mirror_reply(m).is_some())
    }

    /// The second player's reply in the mirror strategy to a row of `m`: the tokens to
    /// take, leaving nothing or two equal rows.
    #[must_use]
    pub fn mirror_reply(&self, m: u64) -> Option<u64> {
        if m <= self.code.max_removal() && self.code.digit(m) & 1 != 0 {
            return Some(m);
        }
        (0..=self.code.max_removal().min(m))
            .find(|&k| self.code.digit(k) & 4 != 0 && (m - k).is_multiple_of(2) && m - k >= 2)
    }

    /// Whether the mirror argument decides every circle of 3 or more tokens (then such a
    /// circle is always lost for the player to move).
    fn mirror_decides_large_circles(&self) -> bool {
        // Past t + 1 tokens whether a row can be split into equal halves depends only on
        // its parity, so circles up to a few removals past t settle it for all sizes.
        let t = self.code.max_removal();
        (3..=2 * t + 6).all(|n| self.mirror_wins(n))
    }
}

fn is_circle(w: u64) -> bool {
    w & CIRCLE != 0
}

fn size(w: u64) -> u64 {
    w & !CIRCLE
}

/// Sorted, empty rows and circles dropped.
fn tidy(words: impl IntoIterator<Item = u64>) -> Pos {
    let mut p: Pos = words.into_iter().filter(|&w| size(w) > 0).collect();
    p.sort_unstable();
    p
}

/// The most tokens a circle or row may have, and the most circles and rows a position may
/// have, to be pictured: more would not be told apart on a page.
const MAX_DRAWN: u64 = 64;

/// What the move `from` → `to` does: the circle or row it changes (its place in `from`),
/// how many tokens it takes, and the tokens left of them (on a circle 0: the tokens are
/// counted clockwise from the top; on a row, the smaller of the two rows a split leaves,
/// 0 when one row or none is left).
fn the_change(from: &Pos, to: &Pos) -> Option<(usize, u64, u64)> {
    let mut added: Vec<u64> = to.to_vec();
    let mut removed = Vec::new();
    for &w in from {
        match added.iter().position(|&x| x == w) {
            Some(i) => {
                added.swap_remove(i);
            }
            None => removed.push(w),
        }
    }
    let [w] = removed[..] else {
        return None;
    };
    if added.iter().any(|&x| is_circle(x)) || added.len() > 2 {
        return None;
    }
    let left: u64 = added.iter().sum();
    let taken = size(w).checked_sub(left).filter(|&k| k > 0)?;
    // The place of the word that went: where `to` first differs, if it is that word.
    let by_place = (0..from.len()).find(|&j| to.get(j) != Some(&from[j]));
    let j = match by_place {
        Some(j) if from[j] == w => j,
        _ => from.iter().position(|&x| x == w)?,
    };
    let before = match added[..] {
        [a, b] if !is_circle(w) => a.min(b),
        _ => 0,
    };
    Some((j, taken, before))
}

/// The values of rows (the octal game's) and of circles, up to a size.
struct CircularValues {
    rows: Vec<u32>,
    circles: Vec<u32>,
}

impl Values for CircularValues {
    fn value(&self, component: &Pos) -> u64 {
        component.iter().fold(0, |acc, &w| {
            let n = size(w) as usize;
            let table = if is_circle(w) {
                &self.circles
            } else {
                &self.rows
            };
            acc ^ u64::from(table.get(n).copied().unwrap_or(0))
        })
    }
}

impl GameRules for Circular {
    fn name(&self) -> String {
        format!("circular[{}]", self.code)
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let items: Vec<String> = pos
            .iter()
            .map(|&w| {
                if is_circle(w) {
                    size(w).to_string()
                } else {
                    format!("row{w}")
                }
            })
            .collect();
        out.push_str(&items.join(","));
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let mut leaves = Vec::new();
        let mut rows = Vec::new();
        for (j, &w) in pos.iter().enumerate() {
            let rest = pos[..j].iter().chain(&pos[j + 1..]).copied();
            if is_circle(w) {
                rows.clear();
                self.openings(size(w), &mut rows);
                for &m in &rows {
                    let mut next: Pos = rest.clone().collect();
                    if m > 0 {
                        next.insert(j.min(next.len()), m);
                    }
                    out.push(next);
                }
            } else {
                // A row is a heap of the octal game: its own moves.
                leaves.clear();
                self.rows.0.moves(w, &mut leaves);
                for &(a, b) in &leaves {
                    let mut next: Pos = pos[..j].iter().copied().collect();
                    next.extend([a, b].into_iter().filter(|&x| x > 0));
                    next.extend_from_slice(&pos[j + 1..]);
                    out.push(next);
                }
            }
        }
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        tidy(pos.iter().copied())
    }

    fn bound(&self, pos: &Pos) -> Bound {
        // A circle of n reaches itself and what a row of n − 1 reaches at most.
        let as_rows: Pos = pos.iter().map(|&w| size(w)).collect();
        let b = self.rows.bound(&as_rows);
        Bound {
            positions: b.positions.saturating_mul(2),
            moves: b.moves.saturating_add(pos.len() as u128 * 16),
        }
    }
}

impl Drawing for Circular {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let (before, after) = (tidy(from.iter().copied()), tidy(to.iter().copied()));
        let circles = |p: &Pos| p.iter().filter(|&&w| is_circle(w)).count();
        if circles(&before) > circles(&after) {
            // A circle opened: the one there is one fewer of (two equal circles: one of
            // them is still there), and the row it left.
            let count = |p: &Pos, w: u64| p.iter().filter(|&&x| x == w).count();
            let gone = before
                .iter()
                .copied()
                .find(|&w| is_circle(w) && count(&after, w) < count(&before, w))
                .unwrap_or(0);
            let rows =
                |p: &Pos| -> Vec<u64> { p.iter().copied().filter(|&w| !is_circle(w)).collect() };
            let mut left = rows(&after);
            for r in rows(&before) {
                if let Some(i) = left.iter().position(|&x| x == r) {
                    left.remove(i);
                }
            }
            let n = size(gone);
            return match left.first() {
                Some(&m) => format!(
                    "take {} from the circle of {n}, leaving a row of {m}",
                    n.saturating_sub(m)
                ),
                None => format!("take the whole circle of {n}"),
            };
        }
        let rows = |p: &Pos| -> Pos { p.iter().copied().filter(|&w| !is_circle(w)).collect() };
        self.rows
            .move_name(&rows(from), &rows(to))
            .replace("heap", "row")
    }

    /// One grid row a circle (`"c"` its tokens) or a row (`"o"`), in the position's order;
    /// none past `MAX_DRAWN` tokens in one, or circles and rows.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let columns = pos.iter().map(|&w| size(w)).max().unwrap_or(0).max(1);
        if columns > MAX_DRAWN || pos.len() as u64 > MAX_DRAWN {
            return None;
        }
        let mut cells = Vec::with_capacity(pos.len() * columns as usize);
        for &w in pos {
            let token = if is_circle(w) { "c" } else { "o" };
            cells.extend((0..columns).map(|i| {
                if i < size(w) {
                    token.to_string()
                } else {
                    String::new()
                }
            }));
        }
        Some(Picture {
            rows: pos.len().max(1) as u32,
            columns: columns as u32,
            cells: if pos.is_empty() {
                vec![String::new(); columns as usize]
            } else {
                cells
            },
            look: Look::Rings,
        })
    }

    /// A move is clicked at a token it takes: on a circle, the last of the `k` it takes
    /// clockwise from the top (token `k − 1`: each count of tokens is one token to click);
    /// on a row, the first it takes from the left (the left end, or past the smaller row
    /// a split leaves).
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let (j, taken, before) = the_change(from, to)?;
        let column = if is_circle(from[j]) {
            taken - 1
        } else {
            before
        };
        Some((j as u32, column as u32))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let parts: Vec<String> = pos
            .iter()
            .map(|&w| {
                let n = size(w) as usize;
                if is_circle(w) && self.mirror_wins(n as u64) {
                    format!(
                        "circle of {n}: lost for the player to move, by the mirror strategy — the row the first move leaves is split into two equal rows, and each move is copied in the twin row"
                    )
                } else if is_circle(w) {
                    format!("circle of {n}")
                } else {
                    format!("row {}", "o".repeat(n.min(60)))
                }
            })
            .collect();
        Some(parts.join("\n"))
    }
}

impl Scores for Circular {}

impl Indexing for Circular {}

impl Searching for Circular {}

impl Patterns for Circular {
    fn member(&self, n: u64) -> Option<Pos> {
        (n < CIRCLE).then(|| Pos::from_slice(&[Circular::circle(n)]))
    }

    fn pattern(&self) -> PatternSource {
        if !self.mirror_decides_large_circles() {
            return PatternSource::None;
        }
        // The claim is checked against the general method's values (the rows' table and
        // the mex of each circle's openings) on every circle up to CHECKED.
        const CHECKED: u64 = 1000;
        let Ok(values) = self.grundy_table(CHECKED, &Control::default()) else {
            return PatternSource::None;
        };
        let lost: Vec<u64> = (0..=CHECKED)
            .filter(|&n| values.value(&Pos::from_slice(&[Circular::circle(n)])) == 0)
            .collect();
        if !(3..=CHECKED).all(|n| lost.contains(&n)) {
            return PatternSource::None;
        }
        let small: Vec<String> = (1..3)
            .filter(|n| !lost.contains(n))
            .map(|n| n.to_string())
            .collect();
        PatternSource::Known(Discovery {
            family: self.name(),
            kind: "mirror",
            period: None,
            p_positions: lost.iter().copied().take(50).collect(),
            p_pairs: Vec::new(),
            rule: format!(
                "a circle of n ≥ 3 is lost for the player to move: the first move leaves one row, the reply takes it whole or splits it into two equal rows, and every later move is copied in the twin row{}",
                if small.is_empty() {
                    String::new()
                } else {
                    format!(" (circles won: {})", small.join(", "))
                }
            ),
            proved: true,
            theorem: Some(
                "the mirror strategy: the sum of two equal games is a loss for the player to move (G + G = 0)"
                    .into(),
            ),
            checked_up_to: CHECKED,
        })
    }

    /// The mirror rule where [`Patterns::pattern`] proves it: circles of 3 and more are
    /// lost, so a position of such circles only is lost at any size (the sum of losses).
    fn rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        match self.pattern() {
            PatternSource::Known(d) if d.proved => Some(Box::new(Mirror(d.rule))),
            _ => None,
        }
    }

    fn features(&self, pos: &Pos) -> Vec<(String, u64)> {
        // The rules speak of one circle: its size.
        match pos.as_slice() {
            [w] if is_circle(*w) => vec![("n".into(), size(*w))],
            _ => Vec::new(),
        }
    }
}

/// The mirror rule of a circular game whose large circles it decides: the player to move
/// at circles of 3 and more (only) loses.
struct Mirror(String);

impl ProvedRule for Mirror {
    fn theorem(&self) -> String {
        self.0.clone()
    }

    fn applies(&self, pos: &Pos) -> bool {
        !pos.is_empty() && pos.iter().all(|&w| is_circle(w) && size(w) >= 3)
    }

    fn is_loss(&self, _pos: &Pos) -> bool {
        true
    }

    fn winning_moves(&self, _pos: &Pos) -> Vec<Pos> {
        Vec::new()
    }
}

impl Grundy for Circular {
    fn components(&self, pos: &Pos) -> Vec<Pos> {
        pos.iter().map(|&w| Pos::from_slice(&[w])).collect()
    }

    fn grundy(&self) -> GrundySource {
        GrundySource::Table
    }

    fn grundy_size(&self, component: &Pos) -> u64 {
        component.iter().map(|&w| size(w)).max().unwrap_or(0)
    }

    fn grundy_cost(&self, size: u64) -> Cost {
        Cost {
            bytes: (u128::from(size) + 1).saturating_mul(8),
            work: self.rows.0.table_work(size),
        }
    }

    fn grundy_table(&self, size: u64, control: &Control<'_>) -> Result<Box<dyn Values>, Error> {
        // The rows by the heap family's own table; each circle by the mex of its
        // openings, which are rows.
        let rows = self.rows.0.table(size, control)?;
        let mut seen = Vec::new();
        let mut openings = Vec::new();
        let circles = (0..=size)
            .map(|n| {
                if n == 0 {
                    return 0;
                }
                openings.clear();
                self.openings(n, &mut openings);
                mex(openings.iter().map(|&m| rows[m as usize]), &mut seen)
            })
            .collect();
        Ok(Box::new(CircularValues { rows, circles }))
    }
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("circular[0.77](12)")?;
    let text = match param {
        Param::Code { text, .. } => text.clone(),
        other => return Err(args.error_at(other.at(), "expected an octal code such as 0.77")),
    };
    let code: Code = text
        .parse()
        .map_err(|e: super::code::CodeError| args.error_at(param.at(), e.message))?;
    if !code.is_octal() || code.digit(0) != 0 {
        return Err(args.error_at(
            param.at(),
            format!("`{text}` is not an octal code 0.d1d2… (digits 0 to 7)"),
        ));
    }
    let position = match args.position() {
        None => None,
        Some(items) => {
            let mut words = Pos::new();
            for p in items {
                let w = match p {
                    Param::Word { text, at } => {
                        let n = text
                            .strip_prefix("row")
                            .and_then(|d| d.parse::<u64>().ok())
                            .ok_or_else(|| {
                                args.error_at(*at, format!("expected a circle's size such as 12 or a row such as row5, found `{text}`"))
                            })?;
                        if n >= CIRCLE {
                            return Err(args.error_at(*at, "a row of at most 2^63 - 1"));
                        }
                        n
                    }
                    _ => {
                        let n = args.natural(p, "a circle")?;
                        if n >= CIRCLE {
                            return Err(args.error_at(p.at(), "a circle of at most 2^63 - 1"));
                        }
                        Circular::circle(n)
                    }
                };
                words.push(w);
            }
            Some(words)
        }
    };
    Ok(Built::new(Circular::new(code), position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "circular",
    examples: &["circular[0.77](12)"],
    small: &["circular[0.77](7,3)"],
    shape: "circular[0.d1d2…](n,…): an octal game on circles of n tokens; the first move opens a circle into a row (0.77: the round table)",
    build,
    options: Options {
        template: "circular[{code}]({tokens})",
        settings: &[
            Setting {
                name: "code",
                label: "rules",
                values: Offered::List(&[
                    ("0.77", "Kayles: 1 or 2 adjacent"),
                    ("0.07", "Dawson's Kayles: 2 adjacent"),
                    ("0.137", "Dawson's chess"),
                ]),
                default: "0.77",
            },
            Setting {
                name: "tokens",
                label: "tokens on the circle",
                values: Offered::Range(1, 40),
                default: "12",
            },
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circle_opens_into_one_row() {
        let game = Circular::new("0.77".parse().unwrap());
        let mut out = Vec::new();
        game.moves(&Pos::from_slice(&[Circular::circle(5)]), &mut out);
        assert_eq!(out, vec![Pos::from_slice(&[4]), Pos::from_slice(&[3])]);
        assert!(game.mirror_wins(3) && game.mirror_wins(40));
        assert!(!game.mirror_wins(2));
        assert!(game.mirror_decides_large_circles());
    }

    /// A move's name and the cell it is clicked at.
    type Clicked = (String, (u32, u32));

    /// The picture of `spec` and each move's name with its cell.
    fn drawn(spec: &str) -> (Picture, Vec<Clicked>) {
        let spec: crate::games::Spec = spec.parse().unwrap();
        let part = spec.single().unwrap();
        let (family, pos) = (&part.family, &part.position);
        let mut moves = Vec::new();
        family.moves(pos, &mut moves);
        let cells = moves
            .iter()
            .map(|to| {
                let cell = family.move_cell(pos, to).expect("every move has its cell");
                (family.move_name(pos, to), cell)
            })
            .collect();
        (family.picture(pos).unwrap(), cells)
    }

    #[test]
    fn a_circle_is_a_ring_of_tokens_clicked_at_the_last_it_takes() {
        let (picture, cells) = drawn("circular[0.77](5)");
        assert_eq!((picture.rows, picture.columns), (1, 5));
        assert_eq!(picture.look, Look::Rings);
        assert_eq!(picture.cells, vec!["c"; 5]);
        // Take 1 at the top token, take 2 at the second clockwise.
        assert_eq!(
            cells,
            vec![
                (
                    "take 1 from the circle of 5, leaving a row of 4".to_string(),
                    (0, 0)
                ),
                (
                    "take 2 from the circle of 5, leaving a row of 3".to_string(),
                    (0, 1)
                ),
            ]
        );
        // Dawson's chess: 3 taken, clicked at the third token.
        let (_, cells) = drawn("circular[0.137](6)");
        assert!(cells
            .iter()
            .all(|(name, (r, c))| *r == 0 && name.starts_with(&format!("take {} ", c + 1))));
    }

    #[test]
    fn an_opened_circle_is_a_row_clicked_at_the_first_token_it_takes() {
        // A circle of 3 beside a row of 4 (the row a first move left).
        let (picture, cells) = drawn("circular[0.77](3,row4)");
        assert_eq!((picture.rows, picture.columns), (2, 4));
        assert_eq!(picture.cells, vec!["c", "c", "c", "", "o", "o", "o", "o"]);
        let row: Vec<(&str, (u32, u32))> = cells
            .iter()
            .filter(|(_, (r, _))| *r == 1)
            .map(|(name, cell)| (name.as_str(), *cell))
            .collect();
        assert_eq!(
            row,
            vec![
                ("take 1", (1, 0)),
                ("take 1, leaving 1 and 2", (1, 1)),
                ("take 2", (1, 0)),
                ("take 2, leaving 1 and 1", (1, 1)),
            ]
        );
        // The circle's moves keep their ring's row.
        assert_eq!(cells.iter().filter(|(_, (r, _))| *r == 0).count(), 2);
        // Past the drawn size, no picture (the page lists the moves).
        let big: crate::games::Spec = "circular[0.77](65)".parse().unwrap();
        let part = big.single().unwrap();
        assert!(part.family.picture(&part.position).is_none());
    }
}
