//! Published combinatorial game values, each valued here by its family and compared with
//! the value its source gives (read in CGSuite's notation). Sources: CGSuite's test suites
//! (github.com/aaron-siegel/cgsuite, `lib/core/src/test/scala/org/cgsuite/lang/`), which
//! also cite *Winning Ways* for the Hackenbush pictures, and *Winning Ways* itself; for
//! Amazons, the value cgt-tools' tests (github.com/t4ccer/cgt-tools,
//! `cgt/short/partizan/games/amazons.rs`) give as confirmed with CGSuite.

use grundy::cgt::{self, Context, GameId};
use grundy::games::Spec;
use grundy::report::{value::valuation, Limits};

/// The value of `spec` by its family, in `context`'s table.
fn valued(context: &mut Context, spec: &str) -> GameId {
    let parsed: Spec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e:?}"));
    valuation(&parsed, &Limits::default(), context)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .total
}

fn form(context: &mut Context, text: &str) -> GameId {
    cgt::read(&mut context.table, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// CGSuite's `±{A, B, …}`: `{A, B, … | −A, −B, …}`.
fn plus_minus(context: &mut Context, options: &[&str]) -> GameId {
    let left: Vec<GameId> = options.iter().map(|o| form(context, o)).collect();
    let right: Vec<GameId> = left.iter().map(|&g| context.table.neg(g)).collect();
    context.table.game(&left, &right)
}

fn context() -> Context<'static> {
    Context::new(1 << 30)
}

/// `GameGridTest.scala`: `game.grid.Domineering(Grid.Empty(4,4)).CanonicalForm` is
/// `+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}` (`Tiny(2) = {0||0|-2}`, `Miny(2) = {2|0||0}`,
/// `2Tiny(2)` is 2 + Tiny(2) = `{2||2|0}`).
#[test]
fn domineering_four_by_four() {
    let mut c = context();
    let want = plus_minus(&mut c, &["0", "{{2|0},{2||2|0}|{2|0},{2|0||0}}"]);
    assert_eq!(valued(&mut c, "domineering[4x4]"), want);
    // Both its stops are 0 (Left's 0 and X's Right stop, through Miny(2)): it is an
    // infinitesimal, so its reduced canonical form is 0.
    assert!(cgt::is_infinitesimal(&c.table, want));
    assert_eq!(
        cgt::reduced_canonical_form(&mut c.table, want).unwrap(),
        c.table.zero()
    );
}

/// `GameGridTest.scala`: `game.grid.Clobber("xox|ox.").CanonicalForm` is `{^^*|*,v}`
/// (x is Left's stone, o Right's, as here).
#[test]
fn clobber_two_by_three() {
    let mut c = context();
    let want = form(&mut c, "{^^*|*,v}");
    let g = valued(&mut c, "clobber[2x3](xox/ox.)");
    assert_eq!(g, want);
    // All-small, so it has an atomic weight: {2 − 2 | 0 + 2, −1 + 2} = {0 | 1} = 1/2.
    let half = form(&mut c, "1/2");
    assert_eq!(cgt::atomic_weight(&mut c.table, g).unwrap(), half);
}

/// cgt-tools' `amazons.rs` test, "confirmed with cgsuite": the 3 × 4 board `x..#|....|.#.o`
/// (x Left's amazon, o Right's, # burnt, as here) is this long form.
#[test]
fn amazons_three_by_four() {
    let mut c = context();
    let want = form(
        &mut c,
        "{{6|{3|1, {3|0, {1/2|0}}}}, {6|{4*|-3, {3, {3|0, {1/2|0}}|-4}}}|-3, \
         {0, {0|-2}, {1|-3}|-5}, {0, {0, *|0, {0, {1/2, {1|0}|v}|v}}|-5}, \
         {{2, {2|0}|0, {0, {2|0, {2|0}}|0}}, {2, {3|0}|0, {0, {0, ^*|0}|-1}}, \
         {{2|0}, {2|{1|1/4}, {2|0}}|v*, {1/2|{{0|-1}, {*|-1}|-1}}, {{0, ^*|0}|-1}}, \
         {{3|0}, {3|1, {2|0}}, {3, {3|1}|1, {1|0, *}}|-1/16, {0|-1}, {*|-1}}|-5, \
         {v, v*, {0, {0, ^*|0}|-1}|-5}, {{1/2|{-1/4, {0|-1}, {*|-1}|-1}}, \
         {{1|1/4}|{-1/4|-1}}, {{1|{1|0}, {1|*}}|-1/2}|-5}}}",
    );
    let g = valued(&mut c, "amazons[3x4](x..#/..../.#.o)");
    assert_eq!(g, want);
    // Transposed with the colours swapped, it is the negative.
    let turned = valued(&mut c, "amazons[4x3](o../..#/.../#.x)");
    assert_eq!(c.table.neg(g), turned);
}

/// `GameStripTest.scala`: `game.strip.ToadsAndFrogs("ttttt..fffff").CanonicalForm` is
/// `+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}`
/// (`v<2> = -{0|v*} = {^*|0}`, `Miny(1/32) = {1/32|0||0}`).
#[test]
fn toads_and_frogs_five_two_five() {
    let mut c = context();
    let want = plus_minus(
        &mut c,
        &[
            "{2|*}",
            "{5/2||2|{0||||{0||{^*|0}|-1},{0||||0||{1/32|0||0}|-2|||-1/2*}|||{^*|0}|-1/2||-1*}|||0}",
        ],
    );
    assert_eq!(valued(&mut c, "toads[5,2,5]"), want);
}

/// `GameGraphTest.scala`'s Hackenbush cases (`l` blue, `r` red, `e` green; a name after
/// `:` joins two edges at one vertex): a stalk `lrlrrllr` is 77/128, the tree
/// `l(l;rl)` 3/2, a green stalk of 7 *7, the stalk `lrlerrr` `3/4v[3]*` (`v[3]` is
/// `-{0|*||*|||*}`), the green tree `e(ee(e;e);e(eee;ee);e(ee;e))` *5, and *Winning Ways*'
/// green girl (chapter 7, figure 3) *2.
#[test]
fn hackenbush_pictures() {
    let mut c = context();
    let cases = [
        ("hackenbush(BRBRRBBR)", "77/128"),
        ("hackenbush(0-1:B,1-2:B,1-3:R,3-4:B)", "3/2"),
        ("hackenbush(GGGGGGG)", "*7"),
        ("hackenbush(BRBGRRR)", "3/4 - {0|*||*|||*} + *"),
        (
            "hackenbush(0-1:G,1-2:G,2-3:G,3-4:G,3-5:G,1-6:G,6-7:G,7-8:G,8-9:G,6-10:G,10-11:G,\
             1-12:G,12-13:G,13-14:G,12-15:G)",
            "*5",
        ),
        (
            "hackenbush(0-1:G,1-2:G,2-3:G,1-4:G,4-3:G,3-5:G,5-6:G,6-7:G,5-8:G,8-9:G,8-9:G,9-10:G)",
            "*2",
        ),
    ];
    for (spec, value) in cases {
        let want = form(&mut c, value);
        assert_eq!(valued(&mut c, spec), want, "{spec}");
    }
}
