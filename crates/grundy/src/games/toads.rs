//! Toads and Frogs (Richard Guy; *Winning Ways*, ch. 1) on a strip of cells: **Left's
//! toads** move right, one step into an empty cell or a jump over one frog into the empty
//! cell beyond; **Right's frogs** move left alike. Who cannot move loses. Partizan.
//!
//! A position is the strip, `T` a toad, `F` a frog, `.` an empty cell, read left to right,
//! then `right` when Right is to move: `toads(TT..FF)`, `toads(T.F,right)`;
//! `toads[3,1,2]` is the start `TTT.FF` (toads, empty cells, frogs). At most 64 cells.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of its regions' values, cut
//! only where no piece can ever act across the cut (Erickson's simplification rules, "New
//! Toads and Frogs results", 1996, kept to those that are plainly sound): toads in a run
//! at the right end and frogs in a run at the left end never move and nothing jumps them,
//! so they are the strip's end; and in `TTFF` no piece of the four can ever move first
//! (each waits on another of them), nothing jumps a piece of its own side, so the strip
//! splits between the toads and the frogs. Each region is valued once per context,
//! memoised.

use super::family::{Bound, Drawing, GameRules, Look, Picture, Pos};
use super::partizan::{self, no_extras, RIGHT};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// Toads and Frogs: the strip is the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toads;

/// The most cells a strip may have (one 64-bit mask a side).
pub const MAX_CELLS: u32 = 64;

/// The most moves a strip's play may still last for it to be valued: the values are found
/// depth first, one stack frame a move, and a strip allowing more moves than this has far
/// too many positions to value anyway.
pub const MAX_PLAY: u64 = 400;

/// The memo's tag for Toads and Frogs regions (the first word of each key).
const TAG: u64 = u64::from_le_bytes(*b"toadfrog");

/// The position's words: toads, frogs, cells, mover.
fn position(toads: u64, frogs: u64, cells: u32, mover: u64) -> Pos {
    Pos::from_slice(&[toads, frogs, u64::from(cells), mover])
}

fn mask(cells: u32) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

/// The toads (`right` false) or frogs that can step, and those that can jump, on a strip
/// of `cells` cells (cell `i` is bit `i`, left to right).
fn movers(toads: u64, frogs: u64, cells: u32, right: bool) -> (u64, u64) {
    let empty = mask(cells) & !(toads | frogs);
    if right {
        (frogs & empty << 1, frogs & toads << 1 & empty << 2)
    } else {
        (toads & empty >> 1, toads & frogs >> 1 & empty >> 2)
    }
}

/// Each move of the mover: `(from, to)` cells.
fn each_move(toads: u64, frogs: u64, cells: u32, right: bool) -> Vec<(u32, u32)> {
    let (steps, jumps) = movers(toads, frogs, cells, right);
    let mut out = Vec::new();
    for (mut set, len) in [(steps, 1), (jumps, 2)] {
        while set != 0 {
            let from = set.trailing_zeros();
            set &= set - 1;
            out.push((from, if right { from - len } else { from + len }));
        }
    }
    out.sort_unstable();
    out
}

/// The strip after the move `from` → `to`.
fn moved(toads: u64, frogs: u64, right: bool, (from, to): (u32, u32)) -> (u64, u64) {
    let shift = |set: u64| set & !(1u64 << from) | 1u64 << to;
    if right {
        (toads, shift(frogs))
    } else {
        (shift(toads), frogs)
    }
}

/// An upper bound on the moves left: each move takes a piece one or two cells on, and a
/// toad ends by the right end, a frog by the left.
fn play_left(toads: u64, frogs: u64, cells: u32) -> u64 {
    let mut total = 0;
    for (mut set, toward_right) in [(toads, true), (frogs, false)] {
        while set != 0 {
            let i = set.trailing_zeros();
            set &= set - 1;
            total += u64::from(if toward_right { cells - 1 - i } else { i });
        }
    }
    total
}

/// The regions of a strip that play apart (see the module's notes): each `(toads, frogs,
/// cells)` moved to start at cell 0, dead pieces at the ends taken off, regions where
/// neither side can ever move left out.
fn regions(toads: u64, frogs: u64, cells: u32) -> Vec<(u64, u64, u32)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..=cells {
        // A wall `TTFF` at cells i − 2 .. i + 1: cut before cell i.
        let wall = i >= 2
            && i + 2 <= cells
            && toads >> (i - 2) & 0b11 == 0b11
            && frogs >> i & 0b11 == 0b11;
        if i == cells || wall {
            let (mut lo, mut hi) = (start, i);
            // Frogs at the left end and toads at the right end are ends of the strip.
            while lo < hi && frogs >> lo & 1 == 1 {
                lo += 1;
            }
            while hi > lo && toads >> (hi - 1) & 1 == 1 {
                hi -= 1;
            }
            let width = hi - lo;
            let part = mask(width);
            let (t, f) = (toads >> lo & part, frogs >> lo & part);
            let lively = t != 0 || f != 0;
            if lively && (t | f) != part {
                out.push((t, f, width));
            }
            start = i;
        }
    }
    out
}

impl Toads {
    /// The value of a strip (any mover), as the sum of its regions' values.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows; [`Error::TooLarge`] for a
    /// strip whose play may last more than `MAX_PLAY` moves.
    ///
    /// # Complexity
    /// Exponential in the pieces and empty cells of the largest region in the worst
    /// case; each region is valued once per context.
    pub fn value(
        &self,
        toads: u64,
        frogs: u64,
        cells: u32,
        context: &mut Context,
    ) -> Result<GameId, Error> {
        let play = play_left(toads, frogs, cells);
        if play > MAX_PLAY {
            return Err(Error::TooLarge {
                what: format!(
                    "a strip whose play may last {play} moves (values are found for at most {MAX_PLAY})"
                ),
                need: None,
            });
        }
        strip_value(toads, frogs, cells, context)
    }
}

fn strip_value(toads: u64, frogs: u64, cells: u32, context: &mut Context) -> Result<GameId, Error> {
    let mut total = context.table.zero();
    for (t, f, width) in regions(toads, frogs, cells) {
        let value = region_value(t, f, width, context)?;
        total = context.table.sum(total, value)?;
    }
    Ok(total)
}

/// The value of one region: `{ toads' moves | frogs' moves }`, each option the value of
/// the strip it leaves, memoised.
fn region_value(
    toads: u64,
    frogs: u64,
    cells: u32,
    context: &mut Context,
) -> Result<GameId, Error> {
    let key = [TAG, toads, frogs, u64::from(cells)];
    partizan::memoised(&key, context, |right, context, side| {
        for m in each_move(toads, frogs, cells, right) {
            let (t, f) = moved(toads, frogs, right, m);
            side.push(strip_value(t, f, cells, context)?);
        }
        Ok(())
    })
}

/// The strip as written: `T`, `F`, `.`.
fn strip(toads: u64, frogs: u64, cells: u32) -> String {
    (0..cells)
        .map(|i| {
            if toads >> i & 1 == 1 {
                'T'
            } else if frogs >> i & 1 == 1 {
                'F'
            } else {
                '.'
            }
        })
        .collect()
}

fn cells_of(pos: &Pos) -> u32 {
    pos[2] as u32
}

impl GameRules for Toads {
    fn name(&self) -> String {
        "toads".into()
    }

    partizan::mover_at!(3);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        out.push_str(&strip(pos[0], pos[1], cells_of(pos)));
        partizan::write_mover(pos[3], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let (toads, frogs, cells, mover) = (pos[0], pos[1], cells_of(pos), pos[3]);
        let right = mover == RIGHT;
        for m in each_move(toads, frogs, cells, right) {
            let (t, f) = moved(toads, frogs, right, m);
            out.push(position(t, f, cells, 1 - mover));
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let pieces = (pos[0] | pos[1]).count_ones();
        Bound {
            // Each piece on one of the cells, either mover.
            positions: 2u128.saturating_mul(u128::from(cells_of(pos)).saturating_pow(pieces)),
            // One move a piece at most.
            moves: u128::from(pieces),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(pos[0], pos[1], cells_of(pos), context))
    }
}

/// The move `from` → `to`: the piece's cells, and whether a toad moved.
fn the_move(from: &Pos, to: &Pos) -> Option<(u32, u32, bool)> {
    let toad = from[0] != to[0];
    let (a, b) = if toad {
        (from[0], to[0])
    } else {
        (from[1], to[1])
    };
    let (gone, come) = (a & !b, b & !a);
    (gone.count_ones() == 1 && come.count_ones() == 1)
        .then(|| (gone.trailing_zeros(), come.trailing_zeros(), toad))
}

impl Drawing for Toads {
    /// `toad 1-2`, `frog 5-3` (a jump): the cells, numbered from 1 at the left.
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match the_move(from, to) {
            Some((a, b, toad)) => {
                let who = if toad { "toad" } else { "frog" };
                format!("{who} {}-{}", a + 1, b + 1)
            }
            None => "no move".into(),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        partizan::names_with_or_without_kind(&self.move_name(from, to), text)
    }

    /// The strip ([`Look::Strip`]): `T` a toad, `F` a frog, `""` empty.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let cells = strip(pos[0], pos[1], cells_of(pos))
            .chars()
            .map(|c| {
                if c == '.' {
                    String::new()
                } else {
                    c.to_string()
                }
            })
            .collect();
        Some(Picture::new(1, cells_of(pos), cells, Look::Strip))
    }

    /// A move is clicked at its piece, and ends where the piece lands.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        the_move(from, to).map(|(a, _, _)| (0, a))
    }

    fn move_end(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        the_move(from, to).map(|(_, b, _)| (0, b))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = strip(pos[0], pos[1], cells_of(pos));
        s.push('\n');
        s.push_str(if pos[3] == RIGHT {
            "Right (frogs, leftwards) to move\n"
        } else {
            "Left (toads, rightwards) to move\n"
        });
        Some(s)
    }
}

no_extras!(Toads);

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let example = "toads(TT..FF,right)";
    if let Some(params) = args.params() {
        if args.position().is_some() {
            return Err(args.error_at(
                params.first().map_or(args.open_at(), Param::at),
                format!("either the start `toads[3,1,2]` or a strip, as in `{example}`"),
            ));
        }
        let start = "toads[3,1,2]: toads, empty cells, frogs";
        let params = args.some_params(start)?;
        args.arity(params, &[3], start)?;
        let mut counts = [0u32; 3];
        for (count, p) in counts.iter_mut().zip(params) {
            let n = args.natural(p, "a count")?;
            *count = u32::try_from(n).unwrap_or(u32::MAX).min(MAX_CELLS + 1);
        }
        let [t, e, f] = counts;
        if t + e + f > MAX_CELLS || t + e + f == 0 {
            return Err(args.error_at(params[0].at(), format!("a strip of 1 to {MAX_CELLS} cells")));
        }
        let cells = t + e + f;
        let toads = mask(t);
        let frogs = mask(f) << (t + e);
        return Ok(Built::new(Toads, Some(position(toads, frogs, cells, 0))));
    }
    let Some(items) = args.position() else {
        return Ok(Built::new(Toads, None));
    };
    let not_a_strip = format!("expected a strip of `T`, `F` and `.`, as in `{example}`");
    let (text, at, mover) =
        partizan::board_and_mover(args, items, "a strip", example, &not_a_strip)?;
    let (mut toads, mut frogs, mut cells) = (0u64, 0u64, 0u32);
    for (i, c) in text.chars().enumerate() {
        if cells == MAX_CELLS {
            return Err(args.error_at(at + i, format!("a strip of at most {MAX_CELLS} cells")));
        }
        match c {
            'T' | 't' => toads |= 1 << cells,
            'F' | 'f' => frogs |= 1 << cells,
            '.' => {}
            other => {
                return Err(args.error_at(
                    at + i,
                    format!("a cell is `T` (a toad), `F` (a frog) or `.` (empty), found `{other}`"),
                ))
            }
        }
        cells += 1;
    }
    Ok(Built::new(
        Toads,
        Some(position(toads, frogs, cells, mover)),
    ))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "toads",
    examples: &["toads(TTT..FF)", "toads(T.TF.F,right)"],
    small: &["toads(TT..FF)", "toads(T.F.TF.,right)", "toads[3,2,2]"],
    shape: "toads(strip,right): Toads and Frogs; Left's toads (`T`) move right, Right's frogs (`F`) left, a step into an empty cell (`.`) or a jump over one opponent (`toads[3,1,2]`: the start TTT.FF; `right`: Right to move)",
    build,
    options: Options {
        template: "toads[{toads},{empty},{frogs}]",
        settings: &[
            Setting::range("toads", 1, 6, "2"),
            Setting {
                name: "empty",
                label: "empty cells",
                values: Offered::Range(1, 4),
                default: "1",
            },
            Setting::range("frogs", 1, 6, "2"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgt::Class;
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, named_moves,
        part_of as part, prints_as,
    };
    use crate::games::Spec;

    /// Small strips with published values. Erickson's toads program's help (Jeff
    /// Erickson, "HELP_TOADS", with "New Toads and Frogs results", Games of No Chance,
    /// 1996): `T.F` = `*`, `.TF` = 0, `FT.` = 1, `T.TF` = 1/2. Winning Ways' worked
    /// examples (ch. 1, as retold on combinatorialgames.wordpress.com, "Toads and
    /// Frogs"): `TFTF.` = 0, `TF.TF` = 0, `TFT.F` = `*`, `T.TFF` = `{0|*}` = `^`. Erickson's
    /// opening game `TT.FF`, which Left moving first wins (as his paper plays it), and so
    /// does Right by the mirror: a first-player win.
    #[test]
    fn published_small_values() {
        let mut c = context();
        for (strip, text) in [
            ("T.F", "*"),
            (".TF", "0"),
            ("FT.", "1"),
            ("T.TF", "1/2"),
            ("TFTF.", "0"),
            ("TF.TF", "0"),
            ("TFT.F", "*"),
            ("T.TFF", "^"),
        ] {
            assert_eq!(value(&format!("toads({strip})"), &mut c).1, text, "{strip}");
        }
        let (g, _) = value("toads(TT.FF)", &mut c);
        assert_eq!(c.table.class(g), Class::N);
    }

    /// Erickson's conjectures on starting positions ("New Toads and Frogs results", Games
    /// of No Chance, 1996), as Thanatipanonda lists them ("Further hopping with Toads
    /// and Frogs", Electron. J. Combin. 18, 2011, §1): E1, `T^a..F^b = {{a − 3 | a − b} |
    /// {* | 3 − b}}` for `a > b ≥ 2` (two empty cells), and E3, `T^a...FFF = a − 7/2` for
    /// `a ≥ 5` (three). Checked for `a` to 7 and 8.
    #[test]
    fn ericksons_starting_positions() {
        let mut c = context();
        for a in 3..=7i64 {
            for b in 2..a {
                let spec = format!("toads[{a},2,{b}]");
                let (g, text) = value(&spec, &mut c);
                let t = &mut c.table;
                let (x, y, z) = (
                    t.integer(a - 3).unwrap(),
                    t.integer(a - b).unwrap(),
                    t.integer(3 - b).unwrap(),
                );
                let star = t.star();
                let l = t.game(&[x], &[y]);
                let r = t.game(&[star], &[z]);
                let want = t.game(&[l], &[r]);
                assert_eq!(g, want, "E1 {spec}: {text}");
            }
        }
        for a in 5..=8i64 {
            let spec = format!("toads[{a},3,3]");
            let (g, text) = value(&spec, &mut c);
            let want = c
                .table
                .number(crate::cgt::Dyadic::new(i128::from(2 * a - 7), 1).unwrap());
            assert_eq!(g, want, "E3 {spec}: {text}");
        }
        // With one empty cell the start is `*` (the first player wins), `TT.FF` as
        // Winning Ways plays it: Left's move to `T.TFF` (`^`) is reversed through `*`.
        for (a, b) in [(2, 2), (3, 2), (4, 3)] {
            assert_eq!(value(&format!("toads[{a},1,{b}]"), &mut c).1, "*");
        }
    }

    /// A strip is the sum of its regions: the walls and dead ends cut it as the plain
    /// recursion over the family's own moves (no regions, no memo of regions) values it.
    #[test]
    fn regions_are_cut_where_nothing_crosses() {
        assert_eq!(regions(0b1111, 0, 4), []);
        // `FF.T` + wall: `T.TTFF.F` cuts into `T.` (the toads of the wall are its end) and
        // `.F`.
        let t = 0b0000_1101;
        let f = 0b1011_0000;
        assert_eq!(regions(t, f, 8), [(0b01, 0, 2), (0, 0b10, 2)]);
        for spec in ["toads(T.TTFF.F)", "toads(TT.TTFF.FF)", "toads(FFT..TFFT.T)"] {
            checked_value(spec);
        }
    }

    fn strip_of(cells: &[u8]) -> String {
        cells.iter().map(|&c| ['.', 'T', 'F'][c as usize]).collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// On random strips of up to 9 cells: the value by regions equals the plain
        /// recursion's, and its outcome class is who wins by plain minimax, Left first and
        /// Right first.
        #[test]
        fn values_are_right_on_random_strips(
            cells in proptest::collection::vec(0u8..3, 1..10),
        ) {
            checked_value(&format!("toads({})", strip_of(&cells)));
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("toads(tt..ff , right)", "toads(TT..FF,right)");
        prints_as("toads[3,1,2]", "toads(TTT.FF)");
        all_refused(&[
            "toads",
            "toads(TX.F)",
            "toads(TT..FF,up)",
            "toads(3)",
            "toads[3,1]",
            "toads[40,40,1]",
            "toads[0,0,0]",
            "toads[1,1,1](T.F)",
            "toads(T.F,right,left)",
        ]);
        let long = format!("toads({})", ".".repeat(65));
        let err = long.parse::<Spec>().unwrap_err();
        assert!(err.message.contains("64"), "{err}");
    }

    #[test]
    fn moves_are_named_and_drawn() {
        let (family, pos, children, names) = named_moves("toads(TF.T.)");
        assert_eq!(names, ["toad 1-3", "toad 4-5"]);
        assert!(family.names_move(&pos, &children[0], "1-3"));
        assert_eq!(family.move_cell(&pos, &children[0]), Some((0, 0)));
        assert_eq!(family.move_end(&pos, &children[0]), Some((0, 2)));
        assert_eq!(
            family.draw(&pos).unwrap(),
            "TF.T.\nLeft (toads, rightwards) to move\n"
        );
    }

    /// The strip is a row of cells with its pieces where they stand; each move is clicked
    /// at the piece that moves and ends where it lands, for either mover.
    #[test]
    fn the_strip_is_drawn_and_clicked_at_the_piece_that_moves() {
        let (family, pos) = part("toads(T.TF.F,right)");
        let picture = family.picture(&pos).unwrap();
        assert_eq!((picture.rows, picture.columns), (1, 6));
        assert_eq!(picture.look, Look::Strip);
        assert_eq!(picture.cells, ["T", "", "T", "F", "", "F"]);
        let mut children = Vec::new();
        family.moves(&pos, &mut children);
        // Each move's name, the cell it is clicked at and the cell it ends at.
        type Clicked = (String, (u32, u32), (u32, u32));
        let clicked: Vec<Clicked> = children
            .iter()
            .map(|to| {
                (
                    family.move_name(&pos, to),
                    family.move_cell(&pos, to).unwrap(),
                    family.move_end(&pos, to).unwrap(),
                )
            })
            .collect();
        // Frogs move left: the one at cell 4 jumps the toad at 3 into 2, the one at 6
        // steps into 5.
        assert_eq!(
            clicked,
            [
                ("frog 4-2".to_string(), (0, 3), (0, 1)),
                ("frog 6-5".to_string(), (0, 5), (0, 4))
            ]
        );
        let (family, pos) = part("toads(T.TF.F)");
        children.clear();
        family.moves(&pos, &mut children);
        let cells: Vec<(u32, u32)> = children
            .iter()
            .map(|to| family.move_cell(&pos, to).unwrap())
            .collect();
        // Toads: the one at cell 1 steps, the one at cell 3 jumps the frog at 4.
        assert_eq!(cells, [(0, 0), (0, 2)]);
        assert_eq!(family.move_end(&pos, &children[1]), Some((0, 4)));
    }

    /// A memory bound too small, or a strip whose play is too long to walk depth first,
    /// is a refusal.
    #[test]
    fn too_large_is_refused() {
        let (family, pos) = part("toads[6,4,6]");
        let mut c = Context::new(10_000);
        let err = family.cgt_value(&pos, &mut c).unwrap().unwrap_err();
        assert!(err.is_too_large(), "{err}");
        // Play near the bound is walked depth first on a test thread's stack and stopped
        // by the memory bound, not by the stack.
        let (family, pos) = part("toads[4,50,3]");
        assert!(play_left(pos[0], pos[1], pos[2] as u32) > 350);
        let mut c = Context::new(100_000);
        let err = family.cgt_value(&pos, &mut c).unwrap().unwrap_err();
        assert!(err.is_too_large(), "{err}");
        let (family, pos) = part("toads[20,20,20]");
        let err = family.cgt_value(&pos, &mut context()).unwrap().unwrap_err();
        assert!(err.to_string().contains("moves"), "{err}");
    }
}
