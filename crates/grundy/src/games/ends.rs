//! IOI 1996 "A Game": a row of numbers; players alternately take the number at either
//! end; each player's score is the sum of what they took. A score game: the analyzer
//! finds the final margin under best play (minimax).

use super::family::{
    Bound, Drawing, GameRules, Grundy, Indexing, Kind, Patterns, Pos, Ranked, Scores, Searching,
};
use super::heap::write_list;
use super::spec::{Args, Built, Entry, Offered, Options, Setting, SpecError};
use crate::game::{Game, ScoreGame};

/// The end-taking game on a fixed row; a position is the half-open range `(left, right)`
/// still on the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ends {
    /// The numbers, left to right.
    pub row: Vec<i64>,
}

impl Ends {
    /// The starting position: the whole row.
    #[must_use]
    pub fn start(&self) -> (usize, usize) {
        (0, self.row.len())
    }
}

impl Game for Ends {
    type Position = (usize, usize);

    fn moves(&self, &(l, r): &(usize, usize), out: &mut Vec<(usize, usize)>) {
        if l < r {
            out.push((l + 1, r));
            if r - l > 1 {
                out.push((l, r - 1));
            }
        }
    }
}

impl ScoreGame for Ends {
    fn gain(&self, &(l, r): &(usize, usize), to: &(usize, usize)) -> i64 {
        if to.0 == l + 1 {
            self.row[l]
        } else {
            self.row[r - 1]
        }
    }
}

/// The family: a position is the row still on the table (numbers stored as words).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EndsFamily;

fn numbers(pos: &Pos) -> impl Iterator<Item = i64> + '_ {
    pos.iter().map(|&w| w as i64)
}

impl GameRules for EndsFamily {
    fn name(&self) -> String {
        "ends".into()
    }

    fn kind(&self) -> Kind {
        Kind::Score
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        write_list(&numbers(pos).collect::<Vec<_>>(), out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        if !pos.is_empty() {
            out.push(Pos::from_slice(&pos[1..]));
            if pos.len() > 1 {
                out.push(Pos::from_slice(&pos[..pos.len() - 1]));
            }
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let n = pos.len() as u128;
        Bound {
            positions: (n + 1) * (n + 2) / 2,
            moves: 2,
        }
    }

    fn is_move(&self, from: &Pos, to: &Pos) -> bool {
        !from.is_empty() && (to[..] == from[1..] || to[..] == from[..from.len() - 1])
    }
}

impl Drawing for EndsFamily {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        if from.is_empty() {
            "no move".into()
        } else if to[..] == from[1..] {
            format!("take the left {}", from[0] as i64)
        } else {
            format!("take the right {}", from[from.len() - 1] as i64)
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        let left = !from.is_empty() && to[..] == from[1..];
        let right = !from.is_empty() && to[..] == from[..from.len() - 1];
        (left && matches!(said.as_str(), "left" | "l"))
            || (right && matches!(said.as_str(), "right" | "r"))
            || said == super::family::squash(&self.move_name(from, to))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let cells: Vec<String> = numbers(pos).map(|x| x.to_string()).collect();
        Some(format!("[ {} ]", cells.join(" ")))
    }

    /// The row, one number a cell.
    fn picture(&self, pos: &Pos) -> Option<super::family::Picture> {
        (!pos.is_empty()).then(|| super::family::Picture {
            rows: 1,
            columns: pos.len() as u32,
            cells: numbers(pos).map(|x| x.to_string()).collect(),
            look: super::family::Look::Numbers,
        })
    }

    /// The number taken: the left or the right end of the row.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        if from.is_empty() || to.len() + 1 != from.len() {
            None
        } else if to[..] == from[1..] {
            Some((0, 0))
        } else {
            Some((0, from.len() as u32 - 1))
        }
    }
}

impl Scores for EndsFamily {
    fn gain(&self, from: &Pos, to: &Pos) -> i64 {
        if from.is_empty() {
            0
        } else if to[..] == from[1..] {
            from[0] as i64
        } else {
            from[from.len() - 1] as i64
        }
    }
}

impl Indexing for EndsFamily {
    /// The intervals of the root's row ([`Intervals`]): minimax then holds O(1) a position
    /// instead of the row left.
    fn ranking(&self, root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        Some(Box::new(Intervals::new(numbers(root).collect())))
    }
}

/// The positions reachable from one row, ranked as intervals of it: the interval of `len`
/// numbers from `left` has rank `offset(len) + left`, where `offset(len)` counts the
/// intervals shorter than `len`. Every move shortens the interval by one, so the ranks
/// descend; a rank's numbers are never built (an interval's moves and points are read off
/// the row), so minimax on a row of n numbers takes O(n²) time and memory, not O(n³) as
/// positions holding their rows do.
///
/// A row with a repeated stretch (`1,1,1`) has equal positions at different places: the
/// rank of a position is its first place, while the moves by rank keep the place they came
/// from. Both places are valued alike.
#[derive(Debug, Clone)]
pub struct Intervals {
    row: Vec<i64>,
}

impl Intervals {
    /// The intervals of `row`.
    #[must_use]
    pub fn new(row: Vec<i64>) -> Intervals {
        Intervals { row }
    }

    /// The ranks of intervals shorter than `len`: `Σ_{l < len} (n − l + 1)`.
    fn offset(&self, len: u64) -> u64 {
        let n = self.row.len() as u64;
        // len (n + 1) − len (len − 1) / 2, computed without going below zero.
        len * (n + 1) - len * len.saturating_sub(1) / 2
    }

    /// The rank of the interval `left..right` of the row (every empty one is rank 0: the
    /// same position, the game over).
    #[must_use]
    pub fn rank_of(&self, left: usize, right: usize) -> u64 {
        if left == right {
            return 0;
        }
        self.offset((right - left) as u64) + left as u64
    }

    /// The interval `(left, right)` of a rank.
    #[must_use]
    pub fn interval(&self, rank: u64) -> (usize, usize) {
        // The longest len whose offset is at most rank.
        let n = self.row.len() as u64;
        let (mut lo, mut hi) = (0u64, n);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.offset(mid) <= rank {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let left = (rank - self.offset(lo)) as usize;
        (left, left + lo as usize)
    }
}

impl Ranked for Intervals {
    fn size(&self) -> u64 {
        self.offset(self.row.len() as u64 + 1)
    }

    fn rank(&self, pos: &Pos) -> u64 {
        let len = pos.len();
        let left = self
            .row
            .windows(len.max(1))
            .position(|w| len == 0 || w.iter().zip(pos.iter()).all(|(&a, &b)| a as u64 == b))
            .unwrap_or(0);
        self.rank_of(left, left + len)
    }

    fn unrank(&self, rank: u64) -> Pos {
        let (left, right) = self.interval(rank);
        self.row[left..right].iter().map(|&x| x as u64).collect()
    }

    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let (left, right) = self.interval(rank);
        if left < right {
            out.push(self.rank_of(left + 1, right));
            if right - left > 1 {
                out.push(self.rank_of(left, right - 1));
            }
        }
    }

    fn descending(&self) -> bool {
        true
    }

    fn points(&self, from: u64, to: u64) -> Option<[i64; 2]> {
        let (left, right) = self.interval(from);
        let (after, _) = self.interval(to);
        let taken = if after == left + 1 {
            self.row[left]
        } else {
            self.row[right - 1]
        };
        Some([taken, 0])
    }
}

impl Searching for EndsFamily {}

impl Patterns for EndsFamily {}

impl Grundy for EndsFamily {}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    let position = match args.position() {
        None => None,
        Some(items) => {
            let mut row = Pos::new();
            for p in items {
                let v = args.integer(p)?;
                let v = i64::try_from(v)
                    .map_err(|_| args.error_at(p.at(), "number does not fit in 64 bits"))?;
                row.push(v as u64);
            }
            Some(row)
        }
    };
    Ok(Built::new(EndsFamily, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "ends",
    examples: &["ends(4,7,2,9,5,2)"],
    small: &["ends(4,7,2,9,5)"],
    shape: "ends(a1,…): take a number from either end; score = sum taken (IOI 1996)",
    build,
    options: Options {
        template: "ends({row})",
        settings: &[Setting {
            name: "row",
            label: "the row of numbers",
            values: Offered::List(&[
                ("4,7,2,9,5,2", ""),
                ("1,2,3,4", ""),
                ("3,9,1,2,8,4,7,5", ""),
                ("5,1,1,5,9,2,6,5,3,5", ""),
            ]),
            default: "4,7,2,9,5,2",
        }],
    },
}];
