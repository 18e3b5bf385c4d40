//! Col (Colin Vout; *Winning Ways*) on a grid board: a move colours an empty cell, **Left
//! blue (`x`), Right red (`o`)**, never next to a cell of one's own colour (two cells side
//! by side are never of the same colour); who cannot move loses. Partizan.
//!
//! `col[3x3]` is the empty 3 × 3 board with Left to move; `col[2x3](x../.#o,right)` a
//! board with a blue cell, a red one and a hole `#` (a square that is not part of the
//! board), Right to move. The rules, the position and the value by regions are the
//! colouring games' ([`super::colouring`]); this file is the rule that sets Col apart and
//! its entry. Every value of Col is a number or a number plus `*` (*Winning Ways*), as the
//! tests check on random boards.

use super::colouring::{build, Colouring, Rule};
use super::spec::{Entry, Options, Setting};

/// Col's rule: a player may not colour a cell next to their own colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColRule;

impl Rule for ColRule {
    const NAME: &'static str = "col";
    const TAG: u64 = u64::from_le_bytes(*b"col.....");
    const SHUNS_OWN: bool = true;
}

/// `col[rows x columns]`.
pub type Col = Colouring<ColRule>;

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "col",
    examples: &["col[3x3]", "col[2x4](x.../..#o,right)"],
    small: &["col[2x3]", "col[1x5](x..#.,right)", "col[3x3](.#./.../o.x)"],
    shape: "col[m x n](board,right): colour an empty cell, never next to one's own colour; Left blue `x`, Right red `o` (rows from the top, `.` empty, `#` a hole; `right`: Right to move; no position: the empty board, Left to move)",
    build: build::<ColRule>,
    options: Options {
        template: "col[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 4, "3"),
            Setting::range("columns", 1, 4, "3"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use crate::cgt::{Context, GameId};
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, grid_board,
        named_moves, prints_as, refuses_a_small_memory_bound,
    };

    /// Values worked by hand from the rules: one cell is `{0|0}` = `*`; two cells side by
    /// side are `{-1|1}` = 0 (after Left colours one, only Right may colour the other, and
    /// the other way round); a cell next to blue is Right's alone, -1, next to red Left's,
    /// 1, next to both dead, 0. A row of three: Left in the middle leaves two cells of
    /// Right's (-2); at an end, a cell of Right's beside a free one, `{-1|0,1}` = -1/2; so
    /// the row is `{-1/2|1/2}` = 0.
    #[test]
    fn small_boards() {
        let mut c = context();
        for (spec, text) in [
            ("col[1x1]", "*"),
            ("col[1x2]", "0"),
            ("col[1x2](x.)", "-1"),
            ("col[2x1](o/.)", "1"),
            ("col[1x3](x.o)", "0"),
            ("col[1x3](x.x)", "-1"),
            ("col[1x3]", "0"),
            ("col[1x5](.#.#.)", "*"),
        ] {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
    }

    /// Whether `g` is a number or a number plus `*`: its stops agree, and it is that
    /// number or that number plus `*`.
    fn number_or_number_star(c: &mut Context, g: GameId) -> bool {
        let stop = c.table.left_stop(g);
        if stop != c.table.right_stop(g) {
            return false;
        }
        let x = c.table.number(stop);
        let star = c.table.star();
        let x_star = c.table.sum(x, star).unwrap();
        g == x || g == x_star
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// On random boards of up to 3 × 3: the value by regions equals the plain
        /// recursion's over the family's own moves, its class is who wins by plain minimax,
        /// Left first and Right first, and it is a number or a number plus `*` (*Winning
        /// Ways*: every Col position is).
        #[test]
        fn values_are_right_on_random_boards(
            rows in 1usize..4, columns in 1usize..4,
            cells in proptest::collection::vec(0u8..5, 9),
        ) {
            let spec = format!("col[{rows}x{columns}]({})", grid_board(&cells, rows, columns, &['.', '.', 'x', 'o', '#']));
            let (mut c, g) = checked_value(&spec);
            proptest::prop_assert!(number_or_number_star(&mut c, g), "{}", spec);
        }
    }

    /// Larger boards are numbers or numbers plus `*` too, and turned boards are equal.
    #[test]
    fn boards_are_numbers_or_numbers_star() {
        let mut c = context();
        for spec in [
            "col[3x3]",
            "col[3x4]",
            "col[4x4](..../.#../..o./x...)",
            "col[2x6]",
        ] {
            let (g, text) = value(spec, &mut c);
            assert!(number_or_number_star(&mut c, g), "{spec}: {text}");
        }
        let (a, _) = value("col[2x3](x../#..)", &mut c);
        let (b, _) = value("col[3x2](x#/../..)", &mut c);
        assert_eq!(a, b);
        for spec in ["col[2x3]", "col[3x3]", "col[2x4](x.../..#o)"] {
            checked_value(spec);
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("col[2x2]", "col[2x2](../..)");
        prints_as("col[1x4](X#O., right)", "col[1x4](x#o.,right)");
        all_refused(&[
            "col",
            "col[9x9]",
            "col[1x3](x.)",
            "col[1x3](x.q)",
            "col[1x3](x..,up)",
        ]);
    }

    #[test]
    fn moves_are_named_and_drawn() {
        // Left may not colour b1, next to blue; neither colours the hole.
        let (family, pos, _, names) = named_moves("col[2x2](x./#.)");
        assert_eq!(names, ["b2"]);
        assert_eq!(
            family.draw(&pos).unwrap(),
            "   a b Left (x, blue) to move\n 1 X .\n 2 # .\n"
        );
        let (_, _, _, names) = named_moves("col[2x2](x./#.,right)");
        assert_eq!(names, ["b1", "b2"]);
    }

    /// A board of even sides, its holes symmetric through the centre, is 0: the second
    /// player answers each move by the cell opposite it through the centre in their own
    /// colour, which is always allowed (on even sides no cell is next to its opposite, and
    /// the board stays symmetric with the colours swapped).
    #[test]
    fn even_boards_are_second_player_wins() {
        let mut c = context();
        for spec in [
            "col[2x2]",
            "col[2x4]",
            "col[4x4]",
            "col[2x6](....#./.#....)",
        ] {
            assert_eq!(value(spec, &mut c).1, "0", "{spec}");
        }
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("col[4x4]");
    }
}
