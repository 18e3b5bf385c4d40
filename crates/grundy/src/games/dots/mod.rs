//! Dots and boxes on r × c boxes (`dots[r x c]`, (r + 1) × (c + 1) dots, at most 64
//! lines): a move draws one line between two neighbouring dots; a line that completes one
//! or two boxes scores them for the mover, who then moves again (and must: there is no
//! pass). The game ends when every line is drawn; the larger total wins (Berlekamp's
//! rules, "The Dots-and-Boxes Game", 2000). A score game with moves that keep the turn.
//!
//! Dots are named like board cells: column letter from the left, row number from the
//! top (`a1` the top-left dot). A line is named by its letter and the dot at its top or
//! left end: `h a1` joins `a1` to `b1`, `v b2` joins `b2` to `b3`. Moves may also be
//! typed as the two dots, `a1-b1` or `a1b1`.
//!
//! A position is `[lines, mover]`: a bitmask of the lines drawn (the `(r + 1) · c`
//! horizontal ones first, row by row, then the `r · (c + 1)` vertical ones) and who is to
//! move (0 the first player, 1 the second). The boxes already taken are not part of it:
//! from here on, only the lines matter, and a completed box is a completed box whoever
//! took it, so the final margin from here for the player to move depends on the lines
//! alone (both players have the same moves). In a spec it is written as the lines drawn,
//! then `first` or `second`: `dots[1x1](ha1,va1,second)`.
//!
//! Positions are merged under the board's symmetries (8 on a square board, 4 otherwise).
//! Tiers ([`Indexing::tiers`]): tier k holds the positions with k lines, ranked by the
//! combinatorial number system on the line mask (colex order, so the canonical form, the
//! least image, has the least rank), without the mover; consecutive ranks are walked by
//! Gosper's step.

use std::ops::Range;

mod search;

use super::combin::{each_combination, next_combination, Binomials};
use super::family::{
    squash, Bound, Drawing, Exact, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos,
    Scores, Searching, Tiers,
};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::game::Player;
use crate::tier::{Child, Each, Node, TierGame, Want};

/// The most lines a board may have (one 64-bit mask).
pub const MAX_LINES: u32 = 64;

/// A map of the lines onto themselves, applied a byte of the mask at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Symmetry {
    /// `bytes[i][b]`: the image of byte `b` at byte `i` of the mask.
    bytes: Vec<[u64; 256]>,
}

impl Symmetry {
    fn new(image: &[u32]) -> Symmetry {
        let chunks = image.len().div_ceil(8);
        let mut bytes = vec![[0u64; 256]; chunks];
        for (i, table) in bytes.iter_mut().enumerate() {
            for (b, slot) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let line = i * 8 + bit;
                    if b >> bit & 1 != 0 && line < image.len() {
                        *slot |= 1 << image[line];
                    }
                }
            }
        }
        Symmetry { bytes }
    }

    fn apply(&self, mask: u64) -> u64 {
        self.bytes
            .iter()
            .enumerate()
            .fold(0, |acc, (i, t)| acc | t[(mask >> (8 * i)) as usize & 255])
    }
}

/// `dots[r x c]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dots {
    /// Rows of boxes.
    pub rows: u32,
    /// Columns of boxes.
    pub columns: u32,
    lines: u32,
    full: u64,
    /// Each box's four lines.
    boxes: Vec<u64>,
    /// For each line, the (one or two) boxes it borders.
    borders: Vec<Vec<u64>>,
    /// The symmetries other than the identity.
    symmetries: Vec<Symmetry>,
    /// `binomial[p][i]` = C(p, i).
    binomial: Binomials,
}

impl Dots {
    /// The game on `rows` × `columns` boxes (at most `MAX_LINES` lines).
    #[must_use]
    pub fn new(rows: u32, columns: u32) -> Dots {
        let (r, c) = (rows, columns);
        let lines = (r + 1) * c + r * (c + 1);
        assert!(
            r >= 1 && c >= 1 && lines <= MAX_LINES,
            "dots {r}x{c} out of range"
        );
        let full = if lines == 64 {
            u64::MAX
        } else {
            (1u64 << lines) - 1
        };
        let horizontal = |i: u32, j: u32| i * c + j;
        let vertical = |i: u32, j: u32| (r + 1) * c + i * (c + 1) + j;
        let mut boxes = Vec::new();
        let mut borders = vec![Vec::new(); lines as usize];
        for i in 0..r {
            for j in 0..c {
                let sides = [
                    horizontal(i, j),
                    horizontal(i + 1, j),
                    vertical(i, j),
                    vertical(i, j + 1),
                ];
                let mask = sides.iter().fold(0u64, |acc, &l| acc | 1 << l);
                boxes.push(mask);
                for l in sides {
                    borders[l as usize].push(mask);
                }
            }
        }
        // A line by its two dots (x = column, y = row).
        let ends = |line: u32| -> [(u32, u32); 2] {
            if line < (r + 1) * c {
                let (y, x) = (line / c, line % c);
                [(x, y), (x + 1, y)]
            } else {
                let v = line - (r + 1) * c;
                let (y, x) = (v / (c + 1), v % (c + 1));
                [(x, y), (x, y + 1)]
            }
        };
        let line_of = |a: (u32, u32), b: (u32, u32)| -> u32 {
            let (a, b) = if (a.1, a.0) <= (b.1, b.0) {
                (a, b)
            } else {
                (b, a)
            };
            if a.1 == b.1 {
                horizontal(a.1, a.0)
            } else {
                vertical(a.1, a.0)
            }
        };
        type DotMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;
        let mut maps: Vec<DotMap> = vec![
            Box::new(move |x, y| (c - x, y)),
            Box::new(move |x, y| (x, r - y)),
            Box::new(move |x, y| (c - x, r - y)),
        ];
        if r == c {
            maps.push(Box::new(|x, y| (y, x)));
            maps.push(Box::new(move |x, y| (c - y, x)));
            maps.push(Box::new(move |x, y| (y, r - x)));
            maps.push(Box::new(move |x, y| (c - y, r - x)));
        }
        let symmetries = maps
            .iter()
            .map(|f| {
                let image: Vec<u32> = (0..lines)
                    .map(|l| {
                        let [a, b] = ends(l);
                        line_of(f(a.0, a.1), f(b.0, b.1))
                    })
                    .collect();
                Symmetry::new(&image)
            })
            .collect();
        let binomial = Binomials::new();
        Dots {
            rows,
            columns,
            lines,
            full,
            boxes,
            borders,
            symmetries,
            binomial,
        }
    }

    /// The boxes complete in `mask`.
    fn taken(&self, mask: u64) -> i64 {
        self.boxes.iter().filter(|&&b| mask & b == b).count() as i64
    }

    /// The boxes that drawing `line` completes in `mask` (which lacks it).
    fn completed(&self, mask: u64, line: u32) -> i32 {
        let after = mask | 1 << line;
        self.borders[line as usize]
            .iter()
            .filter(|&&b| after & b == b)
            .count() as i32
    }

    /// The least image of `mask` under the symmetries (the canonical form).
    fn least(&self, mask: u64) -> u64 {
        self.symmetries
            .iter()
            .fold(mask, |best, s| best.min(s.apply(mask)))
    }

    fn dot_name(x: u32, y: u32) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// The line's name: `h a1`, `v b2`.
    fn line_name(&self, line: u32) -> String {
        let (r, c) = (self.rows, self.columns);
        if line < (r + 1) * c {
            format!("h {}", Self::dot_name(line % c, line / c))
        } else {
            let v = line - (r + 1) * c;
            format!("v {}", Self::dot_name(v % (c + 1), v / (c + 1)))
        }
    }

    /// The line's two dots, as `a1b1`.
    fn line_dots(&self, line: u32) -> [String; 2] {
        let (r, c) = (self.rows, self.columns);
        if line < (r + 1) * c {
            let (x, y) = (line % c, line / c);
            [Self::dot_name(x, y), Self::dot_name(x + 1, y)]
        } else {
            let v = line - (r + 1) * c;
            let (x, y) = (v % (c + 1), v / (c + 1));
            [Self::dot_name(x, y), Self::dot_name(x, y + 1)]
        }
    }

    /// The line a name (`ha1`, `h a1`, `a1-b1`, `b1a1`) names, if any.
    fn parse_line(&self, text: &str) -> Option<u32> {
        let said: String = squash(text).chars().filter(|&ch| ch != '-').collect();
        (0..self.lines).find(|&l| {
            let [a, b] = self.line_dots(l);
            said == squash(&self.line_name(l))
                || said == format!("{a}{b}")
                || said == format!("{b}{a}")
        })
    }
}

impl GameRules for Dots {
    fn name(&self) -> String {
        format!("dots[{}x{}]", self.rows, self.columns)
    }

    fn kind(&self) -> Kind {
        Kind::Score
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let mut lines = pos[0];
        while lines != 0 {
            out.push_str(&squash(&self.line_name(lines.trailing_zeros())));
            out.push(',');
            lines &= lines - 1;
        }
        out.push_str(if pos[1] == 0 { "first" } else { "second" });
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let mut free = !pos[0] & self.full;
        while free != 0 {
            let line = free.trailing_zeros();
            free &= free - 1;
            let again = self.completed(pos[0], line) > 0;
            out.push(Pos::from_slice(&[
                pos[0] | 1 << line,
                if again { pos[1] } else { pos[1] ^ 1 },
            ]));
        }
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        Pos::from_slice(&[self.least(pos[0]), pos[1]])
    }

    fn to_move(&self, pos: &Pos) -> Player {
        Player::from_index(pos[1])
    }

    fn keeps_turn(&self) -> bool {
        true
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let free = (!pos[0] & self.full).count_ones();
        Bound {
            positions: 2u128 << free,
            moves: u128::from(free),
        }
    }
}

impl Drawing for Dots {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let added = to[0] & !from[0];
        if added.count_ones() == 1 {
            self.line_name(added.trailing_zeros())
        } else {
            "no single line".into()
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let added = to[0] & !from[0];
        added.count_ones() == 1 && self.parse_line(text) == Some(added.trailing_zeros())
    }

    /// A (2r + 1) × (2c + 1) grid: dots `+` at even rows and columns, lines between
    /// them (`-` or `|` when drawn, empty when not: the cell to click), boxes `#` once
    /// taken.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let (r, c) = (self.rows, self.columns);
        let mut cells = Vec::new();
        for y in 0..=2 * r {
            for x in 0..=2 * c {
                let label = match (y % 2, x % 2) {
                    (0, 0) => "+",
                    (0, _) => {
                        let line = (y / 2) * c + x / 2;
                        if pos[0] >> line & 1 != 0 {
                            "-"
                        } else {
                            ""
                        }
                    }
                    (_, 0) => {
                        let line = (r + 1) * c + (y / 2) * (c + 1) + x / 2;
                        if pos[0] >> line & 1 != 0 {
                            "|"
                        } else {
                            ""
                        }
                    }
                    _ => {
                        let taken = self.boxes[((y / 2) * c + x / 2) as usize];
                        if pos[0] & taken == taken {
                            "#"
                        } else {
                            ""
                        }
                    }
                };
                cells.push(label.to_string());
            }
        }
        Some(Picture::new(2 * r + 1, 2 * c + 1, cells, Look::Lines))
    }

    /// The boxes the line completes, at their cells of the picture.
    fn claimed_cells(&self, from: &Pos, to: &Pos) -> Vec<(u32, u32)> {
        let c = self.columns;
        self.boxes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| from[0] & b != b && to[0] & b == b)
            .map(|(k, _)| (2 * (k as u32 / c) + 1, 2 * (k as u32 % c) + 1))
            .collect()
    }

    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let added = to[0] & !from[0];
        if added.count_ones() != 1 {
            return None;
        }
        let (r, c) = (self.rows, self.columns);
        let line = added.trailing_zeros();
        Some(if line < (r + 1) * c {
            (2 * (line / c), 2 * (line % c) + 1)
        } else {
            let v = line - (r + 1) * c;
            (2 * (v / (c + 1)) + 1, 2 * (v % (c + 1)))
        })
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let (r, c) = (self.rows, self.columns);
        let drawn = |l: u32| pos[0] >> l & 1 != 0;
        let mut s = String::from("   ");
        for x in 0..=c {
            s.push((b'a' + x as u8) as char);
            s.push_str("   ");
        }
        s.push('\n');
        for y in 0..=r {
            s.push_str(&format!("{:>2} +", y + 1));
            for x in 0..c {
                s.push_str(if drawn(y * c + x) { "---+" } else { "   +" });
            }
            s.push('\n');
            if y < r {
                s.push_str("   ");
                for x in 0..=c {
                    s.push(if drawn((r + 1) * c + y * (c + 1) + x) {
                        '|'
                    } else {
                        ' '
                    });
                    if x < c {
                        let taken = self.boxes[(y * c + x) as usize];
                        s.push_str(if pos[0] & taken == taken {
                            " # "
                        } else {
                            "   "
                        });
                    }
                }
                s.push('\n');
            }
        }
        s.push_str(if pos[1] == 0 {
            "the first player to move\n"
        } else {
            "the second player to move\n"
        });
        Some(super::board::trim_lines(&s))
    }
}

impl Scores for Dots {
    fn points_left(&self, pos: &Pos) -> Option<i64> {
        // Every box is completed by someone before the last line is drawn.
        Some(self.boxes.len() as i64 - self.taken(pos[0]))
    }

    fn gain(&self, from: &Pos, to: &Pos) -> i64 {
        // Counted, not read off one line: `to` may be another orientation of the board.
        self.taken(to[0]) - self.taken(from[0])
    }
}

impl Indexing for Dots {
    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        Some(Box::new(DotsTiers(self)))
    }
}

impl Searching for Dots {
    fn exact(&self) -> Option<Box<dyn Exact + '_>> {
        search::exact(self)
    }
}

impl Patterns for Dots {}

impl Grundy for Dots {}

/// The tiers of `dots[r x c]` from the empty board.
struct DotsTiers<'a>(&'a Dots);

impl TierGame for DotsTiers<'_> {
    fn id(&self) -> String {
        self.0.name()
    }

    fn scored(&self) -> bool {
        true
    }

    fn tier_count(&self) -> u32 {
        self.0.lines + 1
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.0.binomial[self.0.lines as usize][tier as usize]
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        super::board::next_tier(tier, self.0.lines)
    }

    fn root(&self) -> (u32, u64) {
        (0, 0)
    }

    fn visit(&self, tier: u32, ranks: Range<u64>, want: Want<'_>, each: Each<'_>) {
        let dots = self.0;
        let Some(ranks) = self.within(tier, ranks) else {
            return;
        };
        let first = dots.binomial.uncolex(ranks.start, tier);
        let mut children = Vec::with_capacity(dots.lines as usize);
        each_combination(ranks, first, next_combination, want, |r, mask| {
            if dots.least(mask) < mask {
                return;
            }
            if tier == dots.lines {
                each(r, Node::Final(0));
                return;
            }
            children.clear();
            let mut free = !mask & dots.full;
            while free != 0 {
                let line = free.trailing_zeros();
                free &= free - 1;
                let gain = dots.completed(mask, line);
                children.push(Child {
                    tier: tier + 1,
                    rank: dots.binomial.colex(dots.least(mask | 1 << line)),
                    gain,
                    again: gain > 0,
                });
            }
            each(r, Node::Moves(&children));
        });
    }
}

impl Tiers for DotsTiers<'_> {
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)> {
        let [lines, mover] = pos[..] else {
            return None;
        };
        if lines & !self.0.full != 0 || mover > 1 {
            return None;
        }
        Some((
            lines.count_ones(),
            self.0.binomial.colex(self.0.least(lines)),
        ))
    }

    fn position(&self, tier: u32, rank: u64) -> Pos {
        Pos::from_slice(&[self.0.binomial.uncolex(rank, tier), 0])
    }
}

fn position(args: &Args<'_>, game: &Dots) -> Result<Pos, SpecError> {
    let Some(items) = args.position() else {
        return Ok(Pos::from_slice(&[0, 0]));
    };
    let (mut lines, mut mover) = (0u64, None);
    for item in items {
        let Param::Word { text, at } = item else {
            return Err(args.error_at(
                item.at(),
                "expected a line such as `ha1` or `vb2`, or `first` or `second`",
            ));
        };
        let word = text.to_ascii_lowercase();
        if word == "first" || word == "second" {
            if mover.is_some() {
                return Err(args.error_at(*at, "who is to move is said once"));
            }
            mover = Some(u64::from(word == "second"));
            continue;
        }
        let Some(line) = game.parse_line(&word) else {
            return Err(args.error_at(
                *at,
                format!(
                    "no line `{text}` on {} × {} boxes: `h` or `v` and its top or left dot, as in `ha1`",
                    game.rows, game.columns
                ),
            ));
        };
        if lines >> line & 1 != 0 {
            return Err(args.error_at(*at, format!("the line `{text}` is listed twice")));
        }
        lines |= 1 << line;
    }
    Ok(Pos::from_slice(&[lines, mover.unwrap_or(0)]))
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("dots[2x3]")?;
    let Param::Dims { a, b, at } = *param else {
        return Err(args.error_at(param.at(), "expected the boxes, as in `dots[2x3]`"));
    };
    let lines = (a.saturating_add(1))
        .saturating_mul(b)
        .saturating_add(a.saturating_mul(b.saturating_add(1)));
    if a == 0 || b == 0 || lines > u64::from(MAX_LINES) {
        return Err(args.error_at(
            at,
            format!("a board of at most {MAX_LINES} lines, as in `dots[2x3]` or `dots[5x5]`"),
        ));
    }
    let game = Dots::new(a as u32, b as u32);
    let position = position(args, &game)?;
    Ok(Built::new(game, Some(position)))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "dots",
    examples: &["dots[2x2]"],
    small: &["dots[1x2]", "dots[2x2](ha1,va1,hb3,first)"],
    shape: "dots[r x c](lines,…,first|second): dots and boxes on r × c boxes; completing a box scores it and moves again; most boxes wins (lines `ha1` from a1 to b1, `va1` from a1 to a2; no position: the empty board, the first player to move)",
    build,
    options: Options {
        template: "dots[{rows}x{columns}]",
        settings: &[
            Setting {
                name: "rows",
                label: "rows of boxes",
                values: Offered::Range(1, 2),
                default: "2",
            },
            Setting {
                name: "columns",
                label: "columns of boxes",
                values: Offered::Range(1, 3),
                default: "2",
            },
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::games::Spec;
    use crate::report::{self, Limits};

    #[test]
    fn a_line_claims_the_boxes_it_completes_at_their_cells() {
        let spec: Spec = "dots[1x2]".parse().unwrap();
        let part = spec.single().unwrap();
        let (family, mut pos) = (&part.family, part.position.clone());
        let mut claimed = Vec::new();
        // Lines in the family's order to the end: each box claimed once, by the line
        // that closed it, at its cell (odd row and column) of the picture.
        loop {
            let mut children = Vec::new();
            family.moves(&pos, &mut children);
            let Some(next) = children.into_iter().next() else {
                break;
            };
            let cells = family.claimed_cells(&pos, &next);
            let picture = family.picture(&next).unwrap();
            for &(r, c) in &cells {
                assert_eq!(picture.cells[(r * picture.columns + c) as usize], "#");
            }
            claimed.extend(cells);
            pos = next;
        }
        claimed.sort_unstable();
        assert_eq!(claimed, [(1, 1), (1, 3)]);
    }
    use std::collections::HashMap;

    fn pos(lines: u64, mover: u64) -> Pos {
        Pos::from_slice(&[lines, mover])
    }

    #[test]
    fn symmetries_map_boxes_to_boxes() {
        for (r, c, count) in [
            (1, 1, 7),
            (1, 2, 3),
            (2, 2, 7),
            (2, 3, 3),
            (3, 3, 7),
            (4, 5, 3),
        ] {
            let dots = Dots::new(r, c);
            assert_eq!(dots.symmetries.len(), count, "{r}x{c}");
            let boxes: std::collections::HashSet<u64> = dots.boxes.iter().copied().collect();
            for s in &dots.symmetries {
                assert_eq!(s.apply(dots.full), dots.full);
                let images: std::collections::HashSet<u64> =
                    dots.boxes.iter().map(|&b| s.apply(b)).collect();
                assert_eq!(images, boxes);
            }
        }
        let dots = Dots::new(2, 3);
        assert_eq!(dots.lines, 17);
        // The top-left corner's two lines go to the bottom-right corner's two.
        let top_left = 1 << 0 | 1 << 9; // h a1, v a1
        let bottom_right = 1 << 8 | 1 << 16; // h c3, v d2
        assert!(dots
            .symmetries
            .iter()
            .any(|s| s.apply(top_left) == bottom_right));
        assert_eq!(dots.least(bottom_right), dots.least(top_left));
    }

    #[test]
    fn ranks_round_trip_and_tiers_are_counted() {
        for (r, c) in [(1, 1), (1, 2), (2, 2)] {
            let dots = Dots::new(r, c);
            let tiers = DotsTiers(&dots);
            let mut counted = vec![0u64; dots.lines as usize + 1];
            for mask in 0..=dots.full {
                let k = mask.count_ones();
                counted[k as usize] += 1;
                let rank = dots.binomial.colex(mask);
                assert!(rank < tiers.tier_size(k));
                assert_eq!(dots.binomial.uncolex(rank, k), mask);
                let (t, canonical) = tiers.locate(&pos(mask, 1)).unwrap();
                assert_eq!(t, k);
                assert_eq!(
                    tiers.locate(&tiers.position(t, canonical)),
                    Some((t, canonical))
                );
                assert_eq!(dots.canonical(&pos(mask, 0)), tiers.position(t, canonical));
            }
            for k in 0..=dots.lines {
                assert_eq!(tiers.tier_size(k), counted[k as usize]);
            }
        }
    }

    #[test]
    fn visit_matches_the_family_moves() {
        for (r, c) in [(1, 1), (1, 2), (2, 2)] {
            let dots = Dots::new(r, c);
            let tiers = DotsTiers(&dots);
            for k in 0..=dots.lines {
                let size = tiers.tier_size(k);
                let mut seen: HashMap<u64, Option<Vec<Child>>> = HashMap::new();
                let from = size / 2;
                tiers.visit(k, from..size, &|_| true, &mut |rank, node| {
                    let v = match node {
                        Node::Final(0) => None,
                        Node::Moves(children) => {
                            let mut c = children.to_vec();
                            c.sort();
                            Some(c)
                        }
                        other => panic!("unexpected {other:?}"),
                    };
                    assert!(seen.insert(rank, v).is_none());
                });
                for rank in from..size {
                    let p = tiers.position(k, rank);
                    if tiers.locate(&p) != Some((k, rank)) {
                        assert!(!seen.contains_key(&rank));
                        continue;
                    }
                    let got = seen.get(&rank).expect("a canonical rank is visited");
                    let mut moves = Vec::new();
                    dots.moves(&p, &mut moves);
                    if moves.is_empty() {
                        assert_eq!(got, &None);
                        continue;
                    }
                    let mut want: Vec<Child> = moves
                        .iter()
                        .map(|m| {
                            let (tier, rank) = tiers.locate(m).unwrap();
                            Child {
                                tier,
                                rank,
                                gain: dots.gain(&p, m) as i32,
                                again: dots.to_move(m) == dots.to_move(&p),
                            }
                        })
                        .collect();
                    want.sort();
                    assert_eq!(got.as_ref(), Some(&want), "{r}x{c} tier {k} rank {rank}");
                }
            }
        }
    }

    fn solve(text: &str) -> report::Report {
        let spec: Spec = text.parse().unwrap();
        report::solve(&spec, &Limits::default()).unwrap()
    }

    #[test]
    fn small_boards_against_published_results() {
        // 1 × 1: four lines; whoever draws the fourth takes the box, and that is the
        // second player: 0–1.
        let r = solve("dots[1x1]");
        assert_eq!((r.outcome, r.scores), (Outcome::Loss, Some([0, 1])));
        // 2 × 2 (nine dots): a first-player win ("Optimal play for 2 by 2 dots and
        // boxes", puzzling.stackexchange.com/q/1728, whose comments point to the case
        // laid out in Berlekamp, Conway and Guy, "Winning Ways"), 3–1 by the brute force
        // below.
        let r = solve("dots[2x2]");
        assert_eq!((r.outcome, r.scores), (Outcome::Win, Some([3, 1])));
    }

    /// The final margin for the player to move from the empty board, by a plain table
    /// over every line mask (no symmetry, no tiers, none of the code above but `boxes`):
    /// masks in decreasing order, so every child is valued before its parent.
    fn brute_force(dots: &Dots) -> i64 {
        let count = |m: u64| dots.boxes.iter().filter(|&&b| m & b == b).count() as i64;
        let mut value = vec![0i8; dots.full as usize + 1];
        for m in (0..dots.full).rev() {
            let best = (0..dots.lines)
                .filter(|&l| m >> l & 1 == 0)
                .map(|l| {
                    let next = m | 1 << l;
                    let gain = count(next) - count(m);
                    let after = i64::from(value[next as usize]);
                    if gain > 0 {
                        gain + after
                    } else {
                        -after
                    }
                })
                .max()
                .unwrap();
            value[m as usize] = best as i8;
        }
        i64::from(value[0])
    }

    #[test]
    fn the_analyzer_agrees_with_a_brute_force() {
        // Measured: 1 × 2 and 1 × 4 are drawn, 1 × 3 is lost by 1, 2 × 3 lost by 2.
        for (r, c, margin) in [
            (1, 2, 0),
            (2, 1, 0),
            (1, 3, -1),
            (2, 2, 2),
            (1, 4, 0),
            (2, 3, -2),
        ] {
            let dots = Dots::new(r, c);
            assert_eq!(brute_force(&dots), margin, "{r}x{c}");
            let report = solve(&format!("dots[{r}x{c}]"));
            let [a, b] = report.scores.unwrap();
            assert_eq!(a - b, margin, "{r}x{c}");
        }
    }

    /// The tier solver on these tiers: the same margin from the empty board as the
    /// analyzer and the brute force, and every record the analyzer's margin of its board.
    #[test]
    fn the_tier_solver_agrees_with_the_analyzer() {
        use crate::tier::record;
        for (r, c, margin) in [(1, 1, -1), (1, 2, 0), (2, 2, 2), (2, 3, -2)] {
            let dots = Dots::new(r, c);
            let tiers = DotsTiers(&dots);
            let (solved, store) = crate::games::testing::tier_solve(&tiers);
            assert_eq!(record::margin(solved.root), Some(margin), "{r}x{c}");
            if r * c > 4 {
                continue;
            }
            crate::games::testing::records_equal_the_search(dots.clone(), &store, 3, false);
        }
    }

    /// 3 × 3 by the tier solver: 3–6, as the brute force and the analyzer say (below).
    #[test]
    fn three_by_three_by_the_tier_solver() {
        use crate::tier::record;
        let dots = Dots::new(3, 3);
        let (solved, _) = crate::games::testing::tier_solve(&DotsTiers(&dots));
        assert_eq!(record::margin(solved.root), Some(-3));
    }

    /// 3 × 3 (sixteen dots): the second player wins 6–3, by the analyzer (2 258 092
    /// positions up to symmetry, the mover included) and by the brute force. About 35 s
    /// in the test profile: `cargo test -p grundy --lib games::dots -- --ignored`
    #[test]
    #[ignore]
    fn three_by_three() {
        let dots = Dots::new(3, 3);
        let margin = brute_force(&dots);
        let spec: Spec = "dots[3x3]".parse().unwrap();
        let mut limits = Limits::default();
        limits.control.max_positions = 40_000_000;
        let report = report::solve(&spec, &limits).unwrap();
        let [a, b] = report.scores.unwrap();
        eprintln!(
            "3x3: margin {margin}, scores {a}-{b}, positions {:?}",
            report.positions
        );
        assert_eq!(a - b, margin);
    }

    #[test]
    fn the_picture_marks_the_cell_of_each_move() {
        let dots = Dots::new(2, 3);
        let from = pos(1 << 0 | 1 << 9, 0);
        let before = dots.picture(&from).unwrap();
        assert_eq!((before.rows, before.columns), (5, 7));
        assert_eq!(&before.cells[..3], ["+", "-", "+"]);
        assert_eq!(before.cells[7], "|");
        let mut moves = Vec::new();
        dots.moves(&from, &mut moves);
        for to in &moves {
            let (r, c) = dots.move_cell(&from, to).unwrap();
            let i = (r * 7 + c) as usize;
            assert_eq!(before.cells[i], "");
            let after = &dots.picture(to).unwrap().cells[i];
            assert_eq!(after, if r % 2 == 0 { "-" } else { "|" });
        }
    }

    #[test]
    fn a_completed_box_keeps_the_turn() {
        // Three sides of the box drawn, the second player to move: the fourth side takes
        // it and the same player moves again (here the game is over).
        let spec: Spec = "dots[1x1](ha1,ha2,va1,second)".parse().unwrap();
        assert_eq!(spec.to_string(), "dots[1x1](ha1,ha2,va1,second)");
        let r = report::solve(&spec, &Limits::default()).unwrap();
        assert_eq!(r.scores, Some([1, 0]));
        let m = &r.moves[0];
        assert_eq!((m.name.as_str(), m.gain, m.again), ("v b1", Some(1), true));
        assert_eq!(m.spec, "dots[1x1](ha1,ha2,va1,vb1,second)");
        let dots = Dots::new(1, 1);
        let from = pos(0b0111, 1);
        let to = pos(0b1111, 1);
        assert!(dots.names_move(&from, &to, "vb1"));
        assert!(dots.names_move(&from, &to, "B2-b1"));
        assert!(!dots.names_move(&from, &to, "va1"));
        assert_eq!(
            dots.draw(&to).unwrap(),
            "   a   b\n 1 +---+\n   | # |\n 2 +---+\nthe second player to move\n"
        );
        assert_eq!(
            dots.draw(&pos(0b0101, 0)).unwrap(),
            "   a   b\n 1 +---+\n   |\n 2 +   +\nthe first player to move\n"
        );
        assert!("dots[1x1](hc1)".parse::<Spec>().is_err());
        assert!("dots[1x1](ha1,ha1)".parse::<Spec>().is_err());
        assert!("dots[6x6]".parse::<Spec>().is_err());
    }
}
