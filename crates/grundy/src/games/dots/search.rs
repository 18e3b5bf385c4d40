//! Dots and boxes for the exact search ([`crate::search::exact`]): the margin still to be
//! won, searched on the line mask alone.
//!
//! A board is the lines drawn and the boxes they complete. Its score is the margin of
//! boxes the player to move will take from here on over the opponent's under best play;
//! it depends on the lines alone (the boxes already taken are behind both players), so
//! the key is the line mask, merged under the board's symmetries. A line that completes a
//! box takes it and keeps the turn ([`Step`]: the child's margin added); any other passes
//! it (negated).
//!
//! What the search is told:
//! - bounds: the margin lies within the boxes still open, either way;
//! - order: lines that take a box first, then lines that hand the opponent no box (no
//!   box left with three sides), then the sacrifices;
//! - the chain rules ([`Search::captures`], [`Search::half_hearted`]): a safe capture is
//!   the board's only move; otherwise, with a box to take, only the captures and the
//!   declines (all-but-two, all-but-four); a pair is handed out by its middle line only;
//! - the value: the sign of the margin, with every line left to draw as the moves to
//!   the end (in dots and boxes every line is drawn, whoever draws it).

use super::Dots;
use crate::game::Value;
use crate::games::family::{Boards, Exact, Pos};
use crate::search::exact::{Node, Searchable, Step};

/// The lines drawn, and how many boxes they complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// A bit a line, as the family's positions hold them.
    lines: u64,
    /// The boxes complete.
    taken: u32,
}

/// What the boxes with three sides leave worth trying ([`Search::captures`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Captures {
    /// No box has three sides.
    None,
    /// A capture that loses nothing: the one move worth trying.
    Safe(u32),
    /// The captures, and the lines that decline them: the moves worth trying.
    Choose { take: u64, decline: u64 },
}

/// The exact search of a dots-and-boxes board.
pub(super) struct Search<'a> {
    dots: &'a Dots,
}

/// The exact search of `dots` (every board fits: at most 64 lines and so at most 24
/// boxes, 49 scores).
pub(super) fn exact(dots: &Dots) -> Option<Box<dyn Exact + '_>> {
    Some(Box::new(Search { dots }))
}

impl Search<'_> {
    fn boxes(&self) -> i32 {
        self.dots.boxes.len() as i32
    }

    /// What the boxes with three sides of `lines` leave worth trying. A capture is worth
    /// declining only at the end of a chain: the last two boxes of a chain open at its far
    /// end, or the last four of one closed by a box the mover may also take, left to the
    /// opponent to keep control (Berlekamp's all-but-two and all-but-four tricks). So a box
    /// with three sides is taken at once ([`Captures::Safe`]) when its neighbour across the
    /// open side is none, has fewer than two sides or three (both taken), or begins a
    /// chain long enough that its last boxes can still be declined later: three boxes or
    /// more with an open end; closed, three (taking the first leaves a pair that one line
    /// takes, still declinable) or five or more, not four (declined whole, as two pairs).
    /// Otherwise the mover takes or declines (Barker and Korf, "Solving Dots-And-Boxes",
    /// 2012): each capture, and each decline — the far side of the neighbour, which
    /// leaves the pair to the opponent ([`Captures::Choose`]); any other line is no better.
    /// Checked against a brute force on every board up to 2 × 3 and 3 × 2, and (ignored
    /// test) 3 × 3 and 2 × 4.
    fn captures(&self, lines: u64) -> Captures {
        let dots = self.dots;
        let (mut take, mut decline) = (0u64, 0u64);
        for &square in &dots.boxes {
            let open = square & !lines;
            if open.count_ones() != 1 {
                continue;
            }
            let line = open.trailing_zeros();
            // Walk the chain from the box: its length, whether a box with three sides
            // closes it, and the far side of the box next to it.
            let (mut at, mut through, mut length, mut far) = (square, line, 1, None);
            let closed = loop {
                let Some(next) = self.across(through, at) else {
                    break false;
                };
                match (lines & next).count_ones() {
                    2 => {
                        length += 1;
                        through = (next & !lines & !(1u64 << through)).trailing_zeros();
                        far = far.or(Some(through));
                        at = next;
                    }
                    3 => {
                        length += 1;
                        break true;
                    }
                    _ => break false,
                }
            };
            let safe = match (length, closed) {
                (1, _) | (2, true) => true,
                (n, false) => n >= 3,
                (n, true) => n == 3 || n >= 5,
            };
            if safe {
                return Captures::Safe(line);
            }
            take |= 1 << line;
            if let Some(far) = far {
                decline |= 1 << far;
            }
        }
        if take == 0 {
            Captures::None
        } else {
            Captures::Choose { take, decline }
        }
    }

    /// The half-hearted handouts of `lines`: the end sides of each chain of exactly two
    /// boxes (two sides each, the boxes past their ends with at most one, or none). Giving
    /// the pair away by its middle line is never worse (the hard-hearted handout): taking
    /// both then draws the same three lines, and the receiver cannot decline them.
    /// Checked with [`Search::captures`].
    fn half_hearted(&self, lines: u64) -> u64 {
        let dots = self.dots;
        let loose = |line: u32, own: u64| {
            self.across(line, own)
                .is_none_or(|b| (lines & b).count_ones() <= 1)
        };
        let mut ends = 0u64;
        for &square in &dots.boxes {
            if (lines & square).count_ones() != 2 {
                continue;
            }
            let open = square & !lines;
            let mut sides = open;
            while sides != 0 {
                let middle = sides.trailing_zeros();
                sides &= sides - 1;
                let Some(pair) = self.across(middle, square) else {
                    continue;
                };
                if (lines & pair).count_ones() != 2 {
                    continue;
                }
                let near = (open & !(1u64 << middle)).trailing_zeros();
                let far = (pair & !lines & !(1u64 << middle)).trailing_zeros();
                if loose(near, square) && loose(far, pair) {
                    ends |= 1 << near | 1 << far;
                }
            }
        }
        ends
    }

    /// The box on the other side of `line` from `square` (none on the board's edge).
    fn across(&self, line: u32, square: u64) -> Option<u64> {
        self.dots.borders[line as usize]
            .iter()
            .copied()
            .find(|&b| b != square)
    }

    /// How many boxes of `lines` have exactly three sides drawn.
    fn three_sided(&self, lines: u64) -> usize {
        self.dots
            .boxes
            .iter()
            .filter(|&&b| (lines & b).count_ones() == 3)
            .count()
    }
}

impl Searchable for Search<'_> {
    type Board = Board;
    type Hint = u64;

    fn key_bits(&self) -> u32 {
        self.dots.lines.max(1)
    }

    fn key(&self, b: &Board) -> u64 {
        self.dots.least(b.lines)
    }

    fn score_range(&self) -> (i32, i32) {
        (-self.boxes(), self.boxes())
    }

    fn settled(&self, b: &Board) -> Option<i32> {
        (b.lines == self.dots.full).then_some(0)
    }

    fn expand(&self, b: &Board) -> Node {
        if b.lines == self.dots.full {
            return Node::Exact(0);
        }
        let open = self.boxes() - b.taken as i32;
        Node::Open {
            lo: -open,
            hi: open,
            hint: !b.lines & self.dots.full,
        }
    }

    fn children(&self, b: &Board, free: u64, out: &mut Vec<Board>) {
        let after = |line: u32| Board {
            lines: b.lines | 1 << line,
            taken: b.taken + self.dots.completed(b.lines, line) as u32,
        };
        match self.captures(b.lines) {
            Captures::Safe(line) => {
                out.push(after(line));
                return;
            }
            Captures::Choose { take, decline } => {
                for lines in [take, decline & !take] {
                    let mut lines = lines;
                    while lines != 0 {
                        out.push(after(lines.trailing_zeros()));
                        lines &= lines - 1;
                    }
                }
                return;
            }
            Captures::None => {}
        }
        // No box has three sides, so no line takes one: the lines that leave no box with
        // three sides first, then the sacrifices (the half-hearted handouts left out),
        // kept as lines and made last (no list allocated a node).
        let mut sacrifices = 0u64;
        let mut lines = free & !self.half_hearted(b.lines);
        while lines != 0 {
            let line = lines.trailing_zeros();
            lines &= lines - 1;
            let child = Board {
                lines: b.lines | 1 << line,
                taken: b.taken,
            };
            if self.three_sided(child.lines) == 0 {
                out.push(child);
            } else {
                sacrifices |= 1 << line;
            }
        }
        while sacrifices != 0 {
            let line = sacrifices.trailing_zeros();
            sacrifices &= sacrifices - 1;
            out.push(Board {
                lines: b.lines | 1 << line,
                taken: b.taken,
            });
        }
    }

    fn value(&self, b: &Board, score: i32) -> Value {
        let left = (!b.lines & self.dots.full).count_ones();
        match score.signum() {
            0 => Value::Draw,
            1 => Value::Win(left),
            _ => Value::Loss(left),
        }
    }

    #[inline]
    fn step(&self, b: &Board, child: &Board) -> Step {
        // Counted, not read off one line: a child may be another image of the board.
        let gain = child.taken as i32 - b.taken as i32;
        Step {
            keeps: gain > 0,
            gain,
        }
    }
}

impl Boards for Search<'_> {
    fn board(&self, pos: &Pos) -> Board {
        Board {
            lines: pos[0],
            taken: self.dots.taken(pos[0]) as u32,
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{Dots, DotsTiers};
    use super::{Board, Search};
    use crate::search::exact::Searchable;

    use crate::games::Spec;
    use crate::report::{self, Limits, Method};
    use crate::tier::MemoryStore;

    fn tier_solve(dots: &Dots) -> MemoryStore {
        crate::games::testing::tier_solve(&DotsTiers(dots)).1
    }

    /// The exact search's margin of every position of 1 × 2, 2 × 2 and 2 × 3 (strong, and
    /// its sign weak), and of every move of many, equals the tier solver's records.
    #[test]
    fn the_exact_search_equals_the_tiers() {
        for (r, c, step, moves_step) in [(1, 2, 1, 1), (2, 2, 1, 7), (2, 3, 5, 61)] {
            let dots = Dots::new(r, c);
            let store = tier_solve(&dots);
            let checked =
                crate::games::testing::exact_equals_the_records(dots, &store, step, moves_step);
            assert!(checked > 40, "{r}x{c}: {checked}");
        }
    }

    /// The final margin for the player to move of every line mask of `dots`, by brute
    /// force over all masks (a drawn line only adds bits, so larger masks come first).
    pub(super) fn brute_margins(dots: &Dots) -> Vec<i8> {
        let size = 1usize << dots.lines;
        let mut margin = vec![0i8; size];
        for mask in (0..size as u64).rev() {
            let mut best = i8::MIN;
            let mut free = !mask & dots.full;
            while free != 0 {
                let line = free.trailing_zeros();
                free &= free - 1;
                let child = margin[(mask | 1 << line) as usize];
                let gain = dots.completed(mask, line) as i8;
                best = best.max(if gain > 0 { gain + child } else { -child });
            }
            margin[mask as usize] = if best == i8::MIN { 0 } else { best };
        }
        margin
    }

    /// On every board of `r` × `c` with a line left, the best of the moves the search
    /// lists has the board's brute-force margin (the moves left out are no better), and
    /// each listed move draws one free line; returns how many boards left moves out.
    fn the_listed_moves_hold_the_best(r: u32, c: u32) -> usize {
        let dots = Dots::new(r, c);
        let margin = brute_margins(&dots);
        let search = Search { dots: &dots };
        let mut pruned = 0;
        let mut wrong = Vec::new();
        let mut listed = Vec::new();
        for mask in 0..dots.full {
            let board = Board {
                lines: mask,
                taken: dots.taken(mask) as u32,
            };
            let free = !mask & dots.full;
            listed.clear();
            search.children(&board, free, &mut listed);
            let mut best = i8::MIN;
            for child in &listed {
                let line = child.lines & !mask;
                assert!(
                    line.count_ones() == 1 && line & free == line,
                    "{r}x{c} {mask:#x}: not a move"
                );
                let gain = child.taken as i8 - board.taken as i8;
                assert_eq!(gain, dots.completed(mask, line.trailing_zeros()) as i8);
                let after = margin[child.lines as usize];
                best = best.max(if gain > 0 { gain + after } else { -after });
            }
            if best != margin[mask as usize] {
                wrong.push(mask);
            }
            pruned += usize::from(listed.len() < free.count_ones() as usize);
        }
        assert!(
            wrong.is_empty(),
            "{r}x{c}: {} boards where the moves listed miss the best, e.g. {:#x?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
        pruned
    }

    /// The chain rules against a brute force on every board of the small boards; and the
    /// capture they refuse to force is needed: on some board of 2 × 3, declining the last
    /// two boxes of a chain is strictly better than taking the first (the rule is not
    /// simply "always capture").
    #[test]
    fn the_chain_rules_lose_nothing() {
        // (1 × 1 has nothing to leave out: its one free line is the capture.)
        assert_eq!(the_listed_moves_hold_the_best(1, 1), 0);
        for (r, c) in [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2)] {
            assert!(the_listed_moves_hold_the_best(r, c) > 0, "{r}x{c}");
        }
        let dots = Dots::new(2, 3);
        let margin = brute_margins(&dots);
        let declined = (0..=dots.full).any(|mask| {
            let mut free = !mask & dots.full;
            let mut take = i8::MIN;
            let mut other = i8::MIN;
            while free != 0 {
                let line = free.trailing_zeros();
                free &= free - 1;
                let child = margin[(mask | 1 << line) as usize];
                let gain = dots.completed(mask, line) as i8;
                if gain > 0 {
                    take = take.max(gain + child);
                } else {
                    other = other.max(-child);
                }
            }
            take != i8::MIN && other > take
        });
        assert!(
            declined,
            "no board of 2x3 where declining a capture is best"
        );
    }

    /// As above on every board of 3 × 3 and 2 × 4 (2^24 and 2^22; seconds in release
    /// mode): `cargo test -p grundy --release --lib -- --ignored chain_rules_on_larger`.
    #[test]
    #[ignore = "2^24 boards: run in release mode"]
    fn the_chain_rules_on_larger_boards() {
        assert!(the_listed_moves_hold_the_best(3, 3) > 0);
        assert!(the_listed_moves_hold_the_best(2, 4) > 0);
    }

    /// A board past the exploring budget is answered by the exact search with both totals:
    /// 3 × 3 is won 6–3 by the second player (Berlekamp), so the first player's best is
    /// 3–6 and every move is valued.
    #[test]
    fn three_by_three_is_searched_exactly_with_its_totals() {
        let spec: Spec = "dots[3x3]".parse().unwrap();
        let mut limits = Limits::default();
        limits.control.max_positions = 1000;
        let report = report::solve(&spec, &limits).unwrap();
        assert_eq!(report.method, Method::Search);
        assert_eq!(report.scores, Some([3, 6]));
        assert_eq!(report.moves.len(), 24);
        assert!(report.moves.iter().all(|m| m.scores.is_some()));
        assert!(report.nodes.is_some_and(|n| n > 0));
    }
}
