//! Cutcake (*Winning Ways*, ch. 2): pieces of cake scored into unit squares; a move cuts
//! one piece along a score line into two. **Left cuts vertically** (along a line between
//! two columns, so both halves keep the piece's rows), **Right horizontally** (between two
//! rows) — the convention of *Winning Ways* and CGSuite — and who cannot cut loses.
//! Partizan.
//!
//! A position is a multiset of pieces `rows x columns` and who is to move:
//! `cutcake(3x4,2x2)`, `cutcake(3x4,right)`; `cutcake[3x4]` is the one piece 3 × 4 with
//! Left to move. Unit squares, which neither player can cut, are left out of positions
//! (their value is 0 and they have no moves), so a cake cut to crumbs is `cutcake()`.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of its pieces' values, each
//! rectangle valued once per context (its options are the sums of the two halves of each
//! cut), memoised; every value is an integer.

use super::family::{Bound, Drawing, Figure, GameRules, Look, Picture, Pos};
use super::partizan::{self, no_extras, RIGHT};
use super::spec::{Args, Built, Entry, Options, Param, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// Cutcake: the pieces are the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cutcake;

/// The longest side a piece may have. The value of an `h × w` piece is built from every
/// rectangle up to it, `h · w` of them with `h + w` cuts each.
pub const MAX_SIDE: u64 = 256;

/// The most pieces a position may list.
pub const MAX_PIECES: usize = 256;

/// The memo's tag for Cutcake rectangles (the first word of each key).
const TAG: u64 = u64::from_le_bytes(*b"cutcake.");

/// A piece as a word: rows in the high half, columns in the low.
fn piece(rows: u64, columns: u64) -> u64 {
    rows << 32 | columns
}

/// A piece's `(rows, columns)`.
fn dims(word: u64) -> (u64, u64) {
    (word >> 32, word & 0xffff_ffff)
}

/// A position: `mover`, then `pieces` sorted, unit squares left out.
fn position(mover: u64, pieces: impl IntoIterator<Item = u64>) -> Pos {
    let mut words: Pos = pieces.into_iter().filter(|&p| p != piece(1, 1)).collect();
    words.sort_unstable();
    words.insert(0, mover);
    words
}

/// The two halves of each cut `mover` may make in a `rows × columns` piece, one per
/// distinct result (a cut at `k` and at `side − k` leave the same two pieces).
fn cuts(rows: u64, columns: u64, right: bool) -> impl Iterator<Item = (u64, u64)> {
    let side = if right { rows } else { columns };
    (1..=side / 2).map(move |k| {
        if right {
            (piece(k, columns), piece(rows - k, columns))
        } else {
            (piece(rows, k), piece(rows, columns - k))
        }
    })
}

impl Cutcake {
    /// The value of the pieces `pieces` (any mover): the sum of each rectangle's value.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows; [`Error::Overflow`] past the
    /// table's numbers (never within `MAX_SIDE`: a value's size is below a side's).
    ///
    /// # Complexity
    /// `O(h · w · (h + w))` forms built for the largest piece `h × w`, once per context.
    pub fn value(&self, pieces: &[u64], context: &mut Context) -> Result<GameId, Error> {
        let mut total = context.table.zero();
        for &p in pieces {
            let (rows, columns) = dims(p);
            let value = rectangle_value(rows, columns, context)?;
            total = context.table.sum(total, value)?;
        }
        Ok(total)
    }
}

/// The value of one `rows × columns` piece, built bottom-up over the rectangles it
/// contains that the memo lacks (no recursion, so no deep stack on long pieces).
fn rectangle_value(rows: u64, columns: u64, context: &mut Context) -> Result<GameId, Error> {
    let key = |h: u64, w: u64| [TAG, piece(h, w)];
    if let Some(value) = context.recall(&key(rows, columns)) {
        return Ok(value);
    }
    let mut left = Vec::new();
    let mut right = Vec::new();
    for h in 1..=rows {
        for w in 1..=columns {
            if context.recall(&key(h, w)).is_some() {
                continue;
            }
            left.clear();
            right.clear();
            for (is_right, side) in [(false, &mut left), (true, &mut right)] {
                for (a, b) in cuts(h, w, is_right) {
                    let (a, b) = (dims(a), dims(b));
                    // Both halves are smaller in one side and no larger in the other:
                    // valued already in this order.
                    let a = context.recall(&key(a.0, a.1)).expect("a smaller piece");
                    let b = context.recall(&key(b.0, b.1)).expect("a smaller piece");
                    side.push(context.table.sum(a, b)?);
                }
            }
            let value = context.table.game(&left, &right);
            context.remember(&key(h, w), value);
            context.check()?;
        }
    }
    Ok(context
        .recall(&key(rows, columns))
        .expect("valued just now"))
}

impl GameRules for Cutcake {
    fn name(&self) -> String {
        "cutcake".into()
    }

    partizan::mover_at!(0);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let mut first = true;
        for &p in &pos[1..] {
            if !first {
                out.push(',');
            }
            first = false;
            let (rows, columns) = dims(p);
            out.push_str(&format!("{rows}x{columns}"));
        }
        if pos[0] == RIGHT {
            out.push_str(if first { "right" } else { ",right" });
        }
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let mover = pos[0];
        let pieces = &pos[1..];
        for (i, &p) in pieces.iter().enumerate() {
            // Equal pieces cut alike: the first of them stands for all.
            if i > 0 && pieces[i - 1] == p {
                continue;
            }
            let (rows, columns) = dims(p);
            for (a, b) in cuts(rows, columns, mover == RIGHT) {
                let rest = pieces
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &q)| q);
                out.push(position(1 - mover, rest.chain([a, b])));
            }
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let area: u64 = pos[1..].iter().map(|&p| dims(p).0 * dims(p).1).sum::<u64>();
        Bound {
            // A position is a multiset of pieces of total area at most `area`: at most
            // 2^(area − 1) compositions of the area times at most 2^a shapes of a part of
            // area a, and either mover.
            positions: 4u128.saturating_pow(u32::try_from(area).unwrap_or(u32::MAX)),
            // One cut a piece per score line, at most one per unit square.
            moves: u128::from(area),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(&pos[1..], context))
    }
}

/// The cut `from` → `to`: the piece cut and its two halves.
fn the_cut(from: &Pos, to: &Pos) -> Option<(u64, u64, u64)> {
    // The multiset difference both ways (unit squares are left out of `to`).
    let mut gone = from[1..].to_vec();
    let mut new = Vec::new();
    for &p in &to[1..] {
        match gone.iter().position(|&q| q == p) {
            Some(i) => {
                gone.remove(i);
            }
            None => new.push(p),
        }
    }
    let [cut] = gone[..] else { return None };
    let (rows, columns) = dims(cut);
    let mut halves = new.clone();
    while halves.len() < 2 {
        halves.push(piece(1, 1));
    }
    let [a, b] = halves[..] else { return None };
    let (a, b) = (a.min(b), a.max(b));
    let fits = |a: u64, b: u64| {
        let ((ra, ca), (rb, cb)) = (dims(a), dims(b));
        (ra == rows && rb == rows && ca + cb == columns)
            || (ca == columns && cb == columns && ra + rb == rows)
    };
    fits(a, b).then_some((cut, a, b))
}

/// Where each piece starts in the picture: one empty column between pieces.
fn starts(pieces: &[u64]) -> Vec<u64> {
    let mut at = 0;
    pieces
        .iter()
        .map(|&p| {
            let start = at;
            at += dims(p).1 + 1;
            start
        })
        .collect()
}

/// The widest and tallest picture or text drawing, in cells.
const MAX_DRAWN: u64 = 64;

impl Drawing for Cutcake {
    /// `cut 3x4 into 3x1 + 3x3` (Left's cuts keep the rows, Right's the columns).
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let show = |p: u64| {
            let (r, c) = dims(p);
            format!("{r}x{c}")
        };
        match the_cut(from, to) {
            Some((cut, a, b)) => format!("cut {} into {} + {}", show(cut), show(a), show(b)),
            None => "no move".into(),
        }
    }

    /// The pieces side by side, tops aligned, one empty column between them, `#` on each
    /// square of cake; none past `MAX_DRAWN` cells a side: the text drawing's grid. The
    /// web page draws the [`Drawing::figure`] instead, the cake with its score lines.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let pieces = &pos[1..];
        let width = pieces.iter().map(|&p| dims(p).1 + 1).sum::<u64>().max(2) - 1;
        let height = pieces.iter().map(|&p| dims(p).0).max().unwrap_or(1);
        if width > MAX_DRAWN || height > MAX_DRAWN {
            return None;
        }
        let mut cells = vec![String::new(); (width * height) as usize];
        for (&p, start) in pieces.iter().zip(starts(pieces)) {
            let (rows, columns) = dims(p);
            for r in 0..rows {
                for c in start..start + columns {
                    cells[(r * width + c) as usize] = "#".into();
                }
            }
        }
        Some(Picture::new(
            height as u32,
            width as u32,
            cells,
            Look::Marks,
        ))
    }

    /// A cut is clicked at the square just past it: Left's on the piece's top row,
    /// Right's in its first column (the first of equal pieces).
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let (cut, a, _) = the_cut(from, to)?;
        let pieces = &from[1..];
        let i = pieces.iter().position(|&p| p == cut)?;
        let start = starts(pieces)[i];
        let (rows, columns) = dims(cut);
        let (ra, ca) = dims(a);
        let cell = if ra == rows && ca < columns {
            (0, start + ca)
        } else {
            (ra, start)
        };
        Some((cell.0 as u32, cell.1 as u32))
    }

    /// The pieces ([`Figure::Cake`]), each scored into its squares: a cut is clicked on
    /// its score line. None past `MAX_DRAWN` pieces, or squares a side.
    fn figure(&self, pos: &Pos) -> Option<Figure> {
        let pieces = &pos[1..];
        if pieces.len() as u64 > MAX_DRAWN
            || pieces.iter().any(|&p| {
                let (r, c) = dims(p);
                r > MAX_DRAWN || c > MAX_DRAWN
            })
        {
            return None;
        }
        Some(Figure::Cake {
            pieces: pieces
                .iter()
                .map(|&p| {
                    let (r, c) = dims(p);
                    [r as u32, c as u32]
                })
                .collect(),
        })
    }

    /// The score line of the cut in the first piece it may be made in, nearer the piece's
    /// left or top side (a cut `k` from one side and `k` from the other are one move).
    fn move_part(&self, from: &Pos, to: &Pos) -> Option<u32> {
        self.move_parts(from, to).first().copied()
    }

    /// Every score line that makes the cut: in each piece of the size cut, `k` squares
    /// from either side.
    fn move_parts(&self, from: &Pos, to: &Pos) -> Vec<u32> {
        let Some((cut, a, _)) = the_cut(from, to) else {
            return Vec::new();
        };
        let (rows, columns) = dims(cut);
        let (ra, ca) = dims(a);
        let mut parts = Vec::new();
        let mut first = 0;
        for &p in &from[1..] {
            let (r, c) = dims(p);
            if p == cut {
                // Left's lines are the piece's first `c − 1` parts, Right's the next `r − 1`.
                let (base, k, side) = if ra == rows && ca < columns {
                    (first, ca, columns)
                } else {
                    (first + c - 1, ra, rows)
                };
                parts.push((base + k - 1) as u32);
                if side - k != k {
                    parts.push((base + side - k - 1) as u32);
                }
            }
            first += r + c - 2;
        }
        parts
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = String::new();
        match self.picture(pos) {
            Some(p) if pos.len() > 1 => {
                for r in 0..p.rows {
                    let row: String = (0..p.columns)
                        .map(|c| {
                            if p.cells[(r * p.columns + c) as usize].is_empty() {
                                ' '
                            } else {
                                '#'
                            }
                        })
                        .collect();
                    s.push_str(row.trim_end());
                    s.push('\n');
                }
            }
            _ => {
                let list: Vec<String> = pos[1..]
                    .iter()
                    .map(|&p| format!("{}x{}", dims(p).0, dims(p).1))
                    .collect();
                s.push_str(&if list.is_empty() {
                    "(no piece left to cut)".to_string()
                } else {
                    list.join(" + ")
                });
                s.push('\n');
            }
        }
        s.push_str(if pos[0] == RIGHT {
            "Right (horizontal cuts) to move\n"
        } else {
            "Left (vertical cuts) to move\n"
        });
        Some(s)
    }
}

no_extras!(Cutcake);

/// A piece `rows x columns` as written at `at`.
fn read_piece(args: &Args<'_>, a: u64, b: u64, at: usize) -> Result<u64, SpecError> {
    if a == 0 || b == 0 || a > MAX_SIDE || b > MAX_SIDE {
        return Err(args.error_at(
            at,
            format!("a piece has 1 to {MAX_SIDE} rows and columns, as in `3x4`"),
        ));
    }
    Ok(piece(a, b))
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let example = "cutcake(3x4,2x2,right)";
    let from_params = match args.params() {
        None => None,
        Some(_) => {
            let param = args.one_param("cutcake[3x4]")?;
            let Param::Dims { a, b, at } = *param else {
                return Err(args.error_at(
                    param.at(),
                    "expected the piece's size, as in `cutcake[3x4]`",
                ));
            };
            Some(read_piece(args, a, b, at)?)
        }
    };
    let Some(items) = args.position() else {
        return match from_params {
            Some(p) => Ok(Built::new(Cutcake, Some(position(0, [p])))),
            None => Ok(Built::new(Cutcake, None)),
        };
    };
    if let Some(p) = args.params().and_then(|p| p.first()) {
        return Err(args.error_at(
            p.at(),
            format!("either `cutcake[3x4]` (one piece) or the pieces, as in `{example}`"),
        ));
    }
    if items.len() > MAX_PIECES + 1 {
        return Err(args.error_at(
            items[MAX_PIECES + 1].at(),
            format!("at most {MAX_PIECES} pieces"),
        ));
    }
    let mut pieces = Vec::with_capacity(items.len());
    let mut mover = 0;
    for (i, item) in items.iter().enumerate() {
        match item {
            Param::Dims { a, b, at } => pieces.push(read_piece(args, *a, *b, *at)?),
            Param::Word { text, at } if i + 1 == items.len() => {
                mover = match text.to_ascii_lowercase().as_str() {
                    "left" => 0,
                    "right" => RIGHT,
                    _ => {
                        return Err(args.error_at(
                            *at,
                            format!("expected a piece such as `3x4`, or `left` or `right` last (who is to move), as in `{example}`"),
                        ))
                    }
                };
            }
            other => {
                return Err(args.error_at(
                    other.at(),
                    format!("expected a piece `rows x columns`, as in `{example}`"),
                ))
            }
        }
    }
    Ok(Built::new(Cutcake, Some(position(mover, pieces))))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "cutcake",
    examples: &["cutcake[3x4]", "cutcake(2x3,1x4,right)"],
    small: &["cutcake[3x4]", "cutcake(2x3,1x4,right)", "cutcake(4x4)"],
    shape: "cutcake(pieces…,right): cut a piece in two; Left vertically, Right horizontally (`cutcake[3x4]`: one 3 × 4 piece; `cutcake(3x4,2x2)`: several; `right`: Right to move)",
    build,
    options: Options {
        template: "cutcake[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 12, "3"),
            Setting::range("columns", 1, 12, "4"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgt::Class;
    use crate::game::Player;
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, named_moves,
        part_of as part, prints_as, refuses_a_small_memory_bound,
    };

    /// The number of binary digits of `n` (`|1| = 1`, `|2| = |3| = 2`, …).
    fn bits(n: i64) -> u32 {
        64 - n.leading_zeros()
    }

    /// Winning Ways' table of Cutcake values (*Winning Ways*, 2nd ed., vol. 1, ch. 2, the
    /// table of Cutcake values; Left cuts vertically, Right horizontally), in the closed
    /// form given for it in the answer to "Breaking chocolate bars game"
    /// (math.stackexchange.com, question 874668): for a piece `h × w` (rows × columns)
    /// with `w ≥ h`, the value is `⌊w / 2^(|h| − 1)⌋ − 1`, `|h|` the number of binary
    /// digits of `h`; with `h > w`, the negative of the turned piece's. So `1 × n` is
    /// `n − 1` for Left, `2 × 2` and `3 × 3` are 0, `2 × 4` is 1, `4 × 16` is 3. Every
    /// piece up to 16 × 16 is checked, and each value is an integer.
    #[test]
    fn the_published_table() {
        let mut c = context();
        let table = |h: i64, w: i64| -> i64 {
            if w >= h {
                (w >> (bits(h) - 1)) - 1
            } else {
                -((h >> (bits(w) - 1)) - 1)
            }
        };
        for h in 1..=16 {
            for w in 1..=16 {
                let (g, text) = value(&format!("cutcake[{h}x{w}]"), &mut c);
                let want = c.table.integer(table(h, w)).unwrap();
                assert_eq!(g, want, "{h}x{w}: {text}");
            }
        }
        // Cells of the table as printed.
        for (spec, text) in [
            ("cutcake[1x2]", "1"),
            ("cutcake[2x1]", "-1"),
            ("cutcake[1x16]", "15"),
            ("cutcake[2x2]", "0"),
            ("cutcake[2x4]", "1"),
            ("cutcake[3x12]", "5"),
            ("cutcake[4x16]", "3"),
            ("cutcake[8x16]", "1"),
            ("cutcake[16x9]", "-1"),
        ] {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
    }

    /// Pieces add: `2 × 4` (1) and `4 × 2` (−1) sum to 0, a second-player win; the
    /// mover does not change the value.
    #[test]
    fn pieces_add() {
        let mut c = context();
        let (g, text) = value("cutcake(2x4,4x2)", &mut c);
        assert_eq!(text, "0");
        assert_eq!(c.table.class(g), Class::P);
        let (h, _) = value("cutcake(2x4,4x2,right)", &mut c);
        assert_eq!(g, h);
        let (g, text) = value("cutcake(1x3,1x3,3x1,1x1)", &mut c);
        assert_eq!(text, "2");
        assert_eq!(c.table.class(g), Class::L);
    }

    /// The value is the sum of each rectangle's, valued once: the same as the plain
    /// recursion over the family's own moves (no pieces apart, no memo of rectangles).
    #[test]
    fn the_pieces_value_as_the_whole_does() {
        for spec in ["cutcake[3x4]", "cutcake(2x3,3x2,1x3)", "cutcake[4x4]"] {
            checked_value(spec);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// The outcome class from the value is who wins by plain minimax on the family's
        /// moves, Left first and Right first, on random small sets of pieces (and the value
        /// is the plain recursion's).
        #[test]
        fn the_class_is_who_wins(
            pieces in proptest::collection::vec((1u64..5, 1u64..5), 1..4),
        ) {
            let list: Vec<String> = pieces.iter().map(|(h, w)| format!("{h}x{w}")).collect();
            checked_value(&format!("cutcake({})", list.join(",")));
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("cutcake( 2x2 , 3x4, 1x1, right )", "cutcake(2x2,3x4,right)");
        prints_as("cutcake[3x4]", "cutcake(3x4)");
        prints_as("cutcake(1x1)", "cutcake()");
        all_refused(&[
            "cutcake[0x3]",
            "cutcake[300x2]",
            "cutcake",
            "cutcake[3]",
            "cutcake(3)",
            "cutcake(3x4,up)",
            "cutcake(right,3x4)",
            "cutcake[2x2](2x2)",
            "cutcake(3x)",
        ]);
    }

    /// Moves are named by the piece and its halves, and clicked where the cut is.
    #[test]
    fn moves_are_named_and_drawn() {
        let (family, pos, mut children, names) = named_moves("cutcake(2x3,2x3)");
        assert_eq!(names, ["cut 2x3 into 2x1 + 2x2"]);
        assert_eq!(family.move_cell(&pos, &children[0]), Some((0, 1)));
        assert_eq!(
            family.draw(&pos).unwrap(),
            "### ###\n### ###\nLeft (vertical cuts) to move\n"
        );
        let right = family.with_mover(&pos, Player::Second).unwrap();
        children.clear();
        family.moves(&right, &mut children);
        assert_eq!(
            family.move_name(&right, &children[0]),
            "cut 2x3 into 1x3 + 1x3"
        );
        assert_eq!(family.move_cell(&right, &children[0]), Some((1, 0)));
    }

    /// The figure is the pieces; each cut is clicked on its score line, at either end of
    /// the piece and in either of two equal pieces, Left's lines vertical, Right's
    /// horizontal.
    #[test]
    fn cuts_are_clicked_on_their_score_lines() {
        let (family, pos) = part("cutcake(2x3,1x4,2x3)");
        // Sorted as the position keeps them: 1x4, 2x3, 2x3.
        assert_eq!(
            family.figure(&pos),
            Some(Figure::Cake {
                pieces: vec![[1, 4], [2, 3], [2, 3]]
            })
        );
        let figure = family.figure(&pos).unwrap();
        // 1x4: 3 vertical lines (parts 0-2), none across; each 2x3: 2 vertical, 1 across.
        assert_eq!(figure.parts(), 3 + 3 + 3);
        let parts = |pos: &Pos| -> Vec<(String, u32, Vec<u32>)> {
            let mut children = Vec::new();
            family.moves(pos, &mut children);
            children
                .iter()
                .map(|to| {
                    (
                        family.move_name(pos, to),
                        family.move_part(pos, to).unwrap(),
                        family.move_parts(pos, to),
                    )
                })
                .collect()
        };
        assert_eq!(
            parts(&pos),
            [
                ("cut 1x4 into 1x1 + 1x3".to_string(), 0, vec![0, 2]),
                ("cut 1x4 into 1x2 + 1x2".to_string(), 1, vec![1]),
                ("cut 2x3 into 2x1 + 2x2".to_string(), 3, vec![3, 4, 6, 7]),
            ]
        );
        let right = family.with_mover(&pos, Player::Second).unwrap();
        assert_eq!(
            parts(&right),
            [("cut 2x3 into 1x3 + 1x3".to_string(), 5, vec![5, 8])]
        );
        // Past the drawn size, no figure (the page lists the moves).
        let (_, big) = part("cutcake(65x2)");
        assert_eq!(family.figure(&big), None);
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("cutcake[200x200]");
    }
}
