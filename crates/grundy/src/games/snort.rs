//! Snort (Simon Norton; *Winning Ways*) on a grid board: a move colours an empty cell,
//! **Left blue (`x`), Right red (`o`)**, never next to a cell of the other's colour (two
//! cells side by side are never of different colours); who cannot move loses. Partizan.
//!
//! `snort[3x3]` is the empty 3 × 3 board with Left to move; `snort[2x3](x../.#o,right)` a
//! board with a blue cell, a red one and a hole `#` (a square that is not part of the
//! board, so boards need not be rectangles), Right to move. The rules, the position and
//! the value by regions are the colouring games' ([`super::colouring`]); this file is the
//! rule that sets Snort apart and its entry.

use super::colouring::{build, Colouring, Rule};
use super::spec::{Entry, Options, Setting};

/// Snort's rule: a player may not colour a cell next to the other's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnortRule;

impl Rule for SnortRule {
    const NAME: &'static str = "snort";
    const TAG: u64 = u64::from_le_bytes(*b"snort...");
    const SHUNS_OWN: bool = false;
}

/// `snort[rows x columns]`.
pub type Snort = Colouring<SnortRule>;

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "snort",
    examples: &["snort[3x3]", "snort[2x4](x.../..#o,right)"],
    small: &["snort[2x3]", "snort[1x5](x..#.,right)", "snort[3x3](.#./.../o.x)"],
    shape: "snort[m x n](board,right): colour an empty cell, never next to the other's colour; Left blue `x`, Right red `o` (rows from the top, `.` empty, `#` a hole; `right`: Right to move; no position: the empty board, Left to move)",
    build: build::<SnortRule>,
    options: Options {
        template: "snort[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 4, "3"),
            Setting::range("columns", 1, 4, "3"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use crate::cgt::{read, Context};
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, grid_board,
        named_moves, prints_as, refuses_a_small_memory_bound,
    };

    /// The form CGSuite writes, read into `context`'s table.
    fn form(context: &mut Context, text: &str) -> crate::cgt::GameId {
        read(&mut context.table, text).unwrap()
    }

    /// Values worked by hand from the rules: one cell is `{0|0}` = `*`; two cells side by
    /// side are `{1|-1}` = `±1` (after either colours one, only they may colour the
    /// other); a cell next to blue is Left's alone, 1, next to red -1, next to both dead,
    /// 0; two apart add to 0.
    #[test]
    fn small_boards() {
        let mut c = context();
        for (spec, text) in [
            ("snort[1x1]", "*"),
            ("snort[1x2]", "±1"),
            ("snort[1x2](x.)", "1"),
            ("snort[2x1](o/.)", "-1"),
            ("snort[1x3](x.o)", "0"),
            ("snort[1x5](..#..)", "0"),
            ("snort[1x2](xo)", "0"),
        ] {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
    }

    /// CGSuite's own test cases of Snort (its `GameGraphTest`, on graphs), laid on the
    /// grid with holes: `Snort("L-.-.-.-L")`, a path of five vertices whose ends are
    /// tinted Left's (next to a blue vertex), is `{4|0,+-1}`; `Snort(".-.-.(-.;-.)")`, a
    /// path of three with two leaves on its end, is `+-{3|2}`. And cgt-tools' (its
    /// `snort.rs` tests, a cluster of independent vertices): ten cells apart are 0, eleven
    /// `*`.
    #[test]
    fn published_values() {
        let mut c = context();
        let (g, text) = value("snort[1x7](x.....x)", &mut c);
        assert_eq!(g, form(&mut c, "{4|0,{1|-1}}"), "{text}");
        let (g, text) = value("snort[3x3](##./.../##.)", &mut c);
        assert_eq!(g, form(&mut c, "{{3|2}|{-2|-3}}"), "{text}");
        let apart = |n: usize| format!("snort[1x{}]({})", 2 * n - 1, vec!["."; n].join("#"));
        assert_eq!(value(&apart(10), &mut c).1, "0");
        assert_eq!(value(&apart(11), &mut c).1, "*");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// On random boards of up to 3 × 3 (about two cells in five empty): the value by
        /// regions equals the plain recursion's over the family's own moves, and its class
        /// is who wins by plain minimax, Left first and Right first.
        #[test]
        fn values_are_right_on_random_boards(
            rows in 1usize..4, columns in 1usize..4,
            cells in proptest::collection::vec(0u8..5, 9),
        ) {
            checked_value(&format!("snort[{rows}x{columns}]({})", grid_board(&cells, rows, columns, &['.', '.', 'x', 'o', '#'])));
        }
    }

    /// Turned and mirrored regions share one memo entry, and regions apart add.
    #[test]
    fn regions_add_and_turns_agree() {
        let mut c = context();
        let (a, _) = value("snort[2x3](x../#..)", &mut c);
        let memo = c.memo_len();
        let (b, _) = value("snort[3x2](x#/../..)", &mut c);
        assert_eq!(a, b);
        assert_eq!(c.memo_len(), memo, "the turned board is the board's entry");
        let (two, _) = value("snort[2x7](x..#..x/#..#..#)", &mut c);
        let (one, _) = value("snort[2x3](x../#..)", &mut c);
        assert_eq!(c.table.sum(one, one).unwrap(), two);
        for spec in ["snort[2x3]", "snort[3x3]", "snort[2x4](x.../..#o)"] {
            checked_value(spec);
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("snort[2x2]", "snort[2x2](../..)");
        prints_as("snort[1x4](X#O., right)", "snort[1x4](x#o.,right)");
        all_refused(&[
            "snort",
            "snort[9x9]",
            "snort[0x2]",
            "snort[3]",
            "snort[1x3](x.)",
            "snort[1x3](x.q)",
            "snort[1x3](x..,up)",
            "snort[1x3](x..,right,left)",
            "snort[2x2](../../..)",
        ]);
    }

    #[test]
    fn moves_are_named_clicked_and_drawn() {
        // Right may not colour b1, next to blue; neither colours the hole.
        let (family, pos, children, names) = named_moves("snort[2x2](x./#.)");
        assert_eq!(names, ["b1", "b2"]);
        assert_eq!(family.move_cell(&pos, &children[0]), Some((0, 1)));
        assert_eq!(
            family.draw(&pos).unwrap(),
            "   a b Left (x, blue) to move\n 1 X .\n 2 # .\n"
        );
        let picture = family.picture(&pos).unwrap();
        assert_eq!(picture.cells, ["X", "", "#", ""]);
        let (_, _, _, names) = named_moves("snort[2x2](x./#.,right)");
        assert_eq!(names, ["b2"]);
    }

    /// A board of even sides, its holes symmetric through the centre, is 0: the second
    /// player answers each move by the cell opposite it through the centre in their own
    /// colour, which is always allowed (on even sides no cell is next to its opposite, and
    /// the board stays symmetric with the colours swapped).
    #[test]
    fn even_boards_are_second_player_wins() {
        let mut c = context();
        for spec in [
            "snort[2x2]",
            "snort[2x4]",
            "snort[4x4]",
            "snort[2x6](....#./.#....)",
        ] {
            assert_eq!(value(spec, &mut c).1, "0", "{spec}");
        }
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("snort[4x4]");
    }
}
