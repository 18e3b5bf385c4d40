//! Known values and identities (each checked by comparison in the table), printing, and
//! property tests against brute force on unsimplified game trees: simplification keeps
//! the value and is idempotent; the outcome class of a sum from canonical forms is the
//! outcome of minimax on the whole sum.

use proptest::prelude::*;
use rustc_hash::FxHashMap;

use super::*;

fn d(num: i128, exp: u32) -> Dyadic {
    Dyadic::new(num, exp).unwrap()
}

fn show(t: &mut Table, g: GameId) -> String {
    write(t, g, Spelling::Unicode)
}

#[test]
fn numbers_nimbers_and_ups_are_their_canonical_forms() {
    let mut t = Table::new();
    let zero = t.zero();
    // {|} = 0, {0|} = 1, {|0} = -1, {0|1} = 1/2, {1/2|1} = 3/4.
    assert_eq!(t.game(&[], &[]), zero);
    let one = t.game(&[zero], &[]);
    assert_eq!(t.number_of(one), Some(d(1, 0)));
    let minus_one = t.game(&[], &[zero]);
    assert_eq!(t.number_of(minus_one), Some(d(-1, 0)));
    let half = t.game(&[zero], &[one]);
    assert_eq!(t.number_of(half), Some(d(1, 1)));
    let three_quarters = t.game(&[half], &[one]);
    assert_eq!(t.number_of(three_quarters), Some(d(3, 2)));
    // A dominated option goes: {0, 1/2 | 1} = {1/2 | 1}.
    assert_eq!(t.game(&[zero, half], &[one]), three_quarters);
    // {-1 | 3} = 0, {1 | 4} = 2 (simplest number between).
    let three = t.integer(3).unwrap();
    let four = t.integer(4).unwrap();
    assert_eq!(t.game(&[minus_one], &[three]), zero);
    let two = t.game(&[one], &[four]);
    assert_eq!(t.number_of(two), Some(d(2, 0)));
    // {0|0} = *, {0,*|0,*} = *2.
    let star = t.game(&[zero], &[zero]);
    assert_eq!(star, t.star());
    assert_eq!(t.nimber_of(star), Some(1));
    let star2 = t.game(&[zero, star], &[zero, star]);
    assert_eq!(t.nimber_of(star2), Some(2));
    // {0|*} = ^, {*|0} = v.
    let up = t.game(&[zero], &[star]);
    assert_eq!(up, t.up());
    let down = t.game(&[star], &[zero]);
    assert_eq!(down, t.down());
    assert_eq!(t.neg(up), down);
}

#[test]
fn reversible_options_are_bypassed() {
    let mut t = Table::new();
    let (zero, star) = (t.zero(), t.star());
    let up = t.up();
    // {0, ^ | 0}: ^ reverses through * (* ≤ G, since 0 ≥ G fails and 0 ≤ * fails), so it
    // is replaced by *'s Left options, {0}: G = {0 | 0} = *.
    let g = t.game(&[zero, up], &[zero]);
    assert_eq!(g, star);
    // ^* = {0, * | 0}: there * does not reverse (0 ≤ G fails, as G's Right option is 0).
    let up_star = t.sum(up, star).unwrap();
    assert_eq!(t.left(up_star), {
        let mut v = vec![zero, star];
        v.sort();
        v
    });
    assert_eq!(t.right(up_star), [zero]);
    // {1 | *} stays as it is; {* | 1}: Left's * reverses through 0 ≤ G? G = {*|1} is 0
    // (every option of * is 0 and Right's 1 is a number above): the simplest form is 0.
    let one = t.integer(1).unwrap();
    let g = t.game(&[star], &[one]);
    assert_eq!(g, zero);
}

#[test]
fn arithmetic_identities() {
    let mut t = Table::new();
    let (zero, star) = (t.zero(), t.star());
    let (up, down) = (t.up(), t.down());
    let half = t.number(d(1, 1));
    let one = t.integer(1).unwrap();
    let minus_one = t.integer(-1).unwrap();
    // * + * = 0.
    assert_eq!(t.sum(star, star).unwrap(), zero);
    // ^ + v = 0; ^ + * = {0,*|0} = ^*.
    assert_eq!(t.sum(up, down).unwrap(), zero);
    let up_star = t.sum(up, star).unwrap();
    let zero_star_zero = t.game(&[zero, star], &[zero]);
    assert_eq!(up_star, zero_star_zero);
    // ^ + ^* = ^^* and ^^ = {0 | ^*} (Siegel, Combinatorial Game Theory, II.4).
    let double_up = t.sum(up, up).unwrap();
    assert_eq!(t.game(&[zero], &[up_star]), double_up);
    let a = t.sum(up, up_star).unwrap();
    let b = t.sum(double_up, star).unwrap();
    assert_eq!(a, b);
    assert!(t.less(zero, a) || t.confused(zero, a));
    // ^^* > 0 (while ^* || 0).
    assert!(t.less(zero, a));
    assert!(t.confused(up_star, zero));
    // 1/2 + 1/2 = 1.
    assert_eq!(t.sum(half, half).unwrap(), one);
    // {1|0} + {1|0} = 1: {1|0} = 1/2 ± 1/2 and ±x + ±x = 0.
    let hot = t.game(&[one], &[zero]);
    assert_eq!(t.sum(hot, hot).unwrap(), one);
    // ±1 + ±1 = 0; ±1 is confused with 0 and with every number between −1 and 1.
    let pm_one = t.game(&[one], &[minus_one]);
    assert_eq!(t.sum(pm_one, pm_one).unwrap(), zero);
    assert!(t.confused(pm_one, half));
    assert_eq!(t.class(pm_one), Class::N);
    // *2 + *3 = *1 (nim addition).
    let star2 = t.nimber(2);
    let star3 = t.nimber(3);
    assert_eq!(t.sum(star2, star3).unwrap(), star);
    // ^ is positive, less than every positive number, and confused with *.
    let tiny = t.number(d(1, 10));
    assert!(t.less(zero, up) && t.less(up, tiny));
    assert!(t.confused(up, star));
    // G − G = 0 for a value with many forms.
    let g = t.game(&[hot, up_star], &[minus_one, star2]);
    assert_eq!(t.sub(g, g).unwrap(), zero);
    // Classes.
    assert_eq!(t.class(zero), Class::P);
    assert_eq!(t.class(up), Class::L);
    assert_eq!(t.class(down), Class::R);
    assert_eq!(t.class(star), Class::N);
    assert_eq!(t.class(up_star), Class::N);
}

#[test]
fn printed_as_cgsuite_prints() {
    let mut t = Table::new();
    let (zero, star) = (t.zero(), t.star());
    let (up, down) = (t.up(), t.down());
    let one = t.integer(1).unwrap();
    let two = t.integer(2).unwrap();
    let minus_one = t.integer(-1).unwrap();
    let minus_two = t.integer(-2).unwrap();
    let half = t.number(d(1, 1));
    let three_quarters = t.number(d(3, 2));
    let star2 = t.nimber(2);
    let up_star = t.sum(up, star).unwrap();
    let down_star = t.sum(down, star).unwrap();
    let double_up = t.sum(up, up).unwrap();
    let triple_down = t.sum(double_up, up).map(|g| t.neg(g)).unwrap();
    let one_star = t.sum(one, star).unwrap();
    let half_up = t.sum(half, up).unwrap();
    let pm_one = t.game(&[one], &[minus_one]);
    let hot = t.game(&[one], &[zero]);
    let two_minus_one = t.game(&[two], &[minus_one]);
    let one_star_switch = t.game(&[one], &[star]);
    let nested = t.game(&[two], &[hot]);
    let cases = [
        (zero, "0"),
        (one, "1"),
        (minus_two, "-2"),
        (half, "1/2"),
        (three_quarters, "3/4"),
        (star, "*"),
        (star2, "*2"),
        (up, "^"),
        (down, "v"),
        (up_star, "^*"),
        (down_star, "v*"),
        (double_up, "^^"),
        (triple_down, "v3"),
        (one_star, "1*"),
        (half_up, "1/2^"),
        (pm_one, "±1"),
        (hot, "{1|0}"),
        (two_minus_one, "{2|-1}"),
        (one_star_switch, "{1|*}"),
        (nested, "{2||1|0}"),
    ];
    for (g, text) in cases {
        assert_eq!(show(&mut t, g), text);
    }
    assert_eq!(write(&mut t, pm_one, Spelling::Ascii), "+-1");
}

/// A game tree as it was built, not simplified: node `i`'s options are earlier nodes.
#[derive(Debug, Clone, Default)]
struct Arena {
    left: Vec<Vec<usize>>,
    right: Vec<Vec<usize>>,
}

impl Arena {
    fn push(&mut self, left: Vec<usize>, right: Vec<usize>) -> usize {
        self.left.push(left);
        self.right.push(right);
        self.left.len() - 1
    }

    /// A random tree of depth ≤ `depth` from a stream of choices: each node takes 0 to 2
    /// options a side.
    fn random(&mut self, choices: &mut impl Iterator<Item = u8>, depth: u32) -> usize {
        let c = choices.next().unwrap_or(0);
        let (nl, nr) = if depth == 0 {
            (0, 0)
        } else {
            (usize::from(c % 3), usize::from((c / 3) % 3))
        };
        let left = (0..nl).map(|_| self.random(choices, depth - 1)).collect();
        let right = (0..nr).map(|_| self.random(choices, depth - 1)).collect();
        self.push(left, right)
    }

    /// `g ≤ h` by the definition, on the trees as built (no simplification, no table).
    fn leq(&self, g: usize, h: usize, memo: &mut FxHashMap<(usize, usize), bool>) -> bool {
        if let Some(&known) = memo.get(&(g, h)) {
            return known;
        }
        let answer = !self.left[g].iter().any(|&gl| self.leq(h, gl, memo))
            && !self.right[h].iter().any(|&hr| self.leq(hr, g, memo));
        memo.insert((g, h), answer);
        answer
    }

    /// Whether the player to move (`left`) wins the sum of `parts` by minimax: a move is
    /// a move in one part, who cannot move loses.
    fn wins(
        &self,
        parts: &mut Vec<usize>,
        left: bool,
        memo: &mut FxHashMap<(Vec<usize>, bool), bool>,
    ) -> bool {
        let mut key = parts.clone();
        key.sort_unstable();
        if let Some(&known) = memo.get(&(key.clone(), left)) {
            return known;
        }
        let mut win = false;
        'parts: for i in 0..parts.len() {
            let options = if left {
                self.left[parts[i]].clone()
            } else {
                self.right[parts[i]].clone()
            };
            for o in options {
                let before = parts[i];
                parts[i] = o;
                let opponent_wins = self.wins(parts, !left, memo);
                parts[i] = before;
                if !opponent_wins {
                    win = true;
                    break 'parts;
                }
            }
        }
        memo.insert((key, left), win);
        win
    }

    /// The canonical form of node `g`, built bottom-up through the table.
    fn canonical(&self, g: usize, table: &mut Table) -> GameId {
        let left: Vec<GameId> = self.left[g]
            .iter()
            .map(|&o| self.canonical(o, table))
            .collect();
        let right: Vec<GameId> = self.right[g]
            .iter()
            .map(|&o| self.canonical(o, table))
            .collect();
        table.game(&left, &right)
    }

    /// A canonical form written out as a tree in this arena.
    fn expand(&mut self, table: &Table, g: GameId) -> usize {
        let left = table
            .left(g)
            .iter()
            .map(|&o| self.expand(table, o))
            .collect();
        let right = table
            .right(g)
            .iter()
            .map(|&o| self.expand(table, o))
            .collect();
        self.push(left, right)
    }

    /// `−g` as a tree.
    fn negate(&mut self, g: usize) -> usize {
        let left = self.right[g]
            .clone()
            .into_iter()
            .map(|o| self.negate(o))
            .collect();
        let right = self.left[g]
            .clone()
            .into_iter()
            .map(|o| self.negate(o))
            .collect();
        self.push(left, right)
    }
}

fn arena_of(choices: &[u8], count: usize, depth: u32) -> (Arena, Vec<usize>) {
    let mut arena = Arena::default();
    let mut stream = choices.iter().copied();
    let roots = (0..count)
        .map(|_| arena.random(&mut stream, depth))
        .collect();
    (arena, roots)
}

#[test]
fn brute_force_sees_the_known_classes() {
    // The brute force itself must be able to tell the classes apart.
    let mut a = Arena::default();
    let zero = a.push(vec![], vec![]);
    let star = a.push(vec![zero], vec![zero]);
    let one = a.push(vec![zero], vec![]);
    let up = a.push(vec![zero], vec![star]);
    let mut memo = FxHashMap::default();
    let mut class = |parts: &[usize]| {
        let l = a.wins(&mut parts.to_vec(), true, &mut memo);
        let r = a.wins(&mut parts.to_vec(), false, &mut memo);
        Class::from_winners(l, r)
    };
    assert_eq!(class(&[zero]), Class::P);
    assert_eq!(class(&[star]), Class::N);
    assert_eq!(class(&[star, star]), Class::P);
    assert_eq!(class(&[one]), Class::L);
    assert_eq!(class(&[up, star]), Class::N);
    assert_eq!(class(&[up]), Class::L);
}

fn mean_and_temperature(t: &Table, g: GameId) -> (String, String) {
    let th = thermograph(t, g, &mut FxHashMap::default()).unwrap();
    (th.mean.to_string(), th.temperature.to_string())
}

/// Means and temperatures (Siegel, Combinatorial Game Theory, II.5; CGSuite's `Mean`
/// and `Temperature`): `{x|y}` with x > y numbers has mean (x+y)/2 and temperature
/// (x−y)/2; infinitesimals have temperature 0; an integer −1, `m/2^k` −1/2^k.
#[test]
fn means_and_temperatures() {
    let mut t = Table::new();
    let (zero, star, up) = (t.zero(), t.star(), t.up());
    let one = t.integer(1).unwrap();
    let two = t.integer(2).unwrap();
    let minus_one = t.integer(-1).unwrap();
    let half = t.number(d(1, 1));
    let minus_half = t.number(d(-1, 1));
    let pm_one = t.game(&[one], &[minus_one]);
    let hot = t.game(&[one], &[zero]);
    let two_minus_half = t.game(&[two], &[minus_half]);
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(mean_and_temperature(&t, pm_one), s("0", "1"));
    assert_eq!(mean_and_temperature(&t, hot), s("1/2", "1/2"));
    // Domineering 2 × 3 (Left vertical) = {2|-1/2}: mean 3/4, temperature 5/4; its
    // negative {1/2|-2} = -3/4 ± 5/4 as Berlekamp's 2×N Domineering notes write it.
    assert_eq!(mean_and_temperature(&t, two_minus_half), s("3/4", "5/4"));
    assert_eq!(mean_and_temperature(&t, star), s("0", "0"));
    assert_eq!(mean_and_temperature(&t, up), s("0", "0"));
    assert_eq!(mean_and_temperature(&t, one), s("1", "-1"));
    assert_eq!(mean_and_temperature(&t, half), s("1/2", "-1/2"));
    // {2 | {1|0}}: {1|0}'s walls 1 − t and t meet at 1/2; G's left wall 2 − t meets its
    // right wall (1 up to t = 1/2, then 1/2 + t) at t = 3/4, mean 5/4.
    let nested = t.game(&[two], &[hot]);
    assert_eq!(mean_and_temperature(&t, nested), s("5/4", "3/4"));
    // The walls of ±1: 1 − t and −1 + t, then the mast at 0 from t = 1.
    let th = thermograph(&t, pm_one, &mut FxHashMap::default()).unwrap();
    assert_eq!(th.left.at(d(1, 1)).unwrap(), d(1, 1));
    assert_eq!(th.right.at(d(1, 1)).unwrap(), d(-1, 1));
    assert_eq!(th.left.at(d(3, 0)).unwrap(), Dyadic::ZERO);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The mean is additive, and a sum is no hotter than its hottest part (Siegel, II.5).
    #[test]
    fn means_add_and_sums_are_no_hotter(
        choices in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let (arena, roots) = arena_of(&choices, 2, 3);
        let mut table = Table::new();
        let a = arena.canonical(roots[0], &mut table);
        let b = arena.canonical(roots[1], &mut table);
        let sum = table.sum(a, b).unwrap();
        let mut memo = FxHashMap::default();
        let (ta, tb, ts) = (
            thermograph(&table, a, &mut memo).unwrap(),
            thermograph(&table, b, &mut memo).unwrap(),
            thermograph(&table, sum, &mut memo).unwrap(),
        );
        prop_assert_eq!(ta.mean.checked_add(tb.mean).unwrap(), ts.mean);
        prop_assert!(ts.temperature <= ta.temperature.max(tb.temperature).max(Dyadic::ZERO));
    }

    /// G − canonical(G) = 0 by the definition of ≤ on the unsimplified trees, and
    /// simplifying a canonical form again gives the same form.
    #[test]
    fn simplification_keeps_the_value_and_is_idempotent(
        choices in prop::collection::vec(any::<u8>(), 0..48)
    ) {
        let (mut arena, roots) = arena_of(&choices, 1, 4);
        let g = roots[0];
        let mut table = Table::new();
        let c = arena.canonical(g, &mut table);
        // Idempotent: the canonical form's options rebuilt give the same id, and the
        // expanded form built again does too.
        let (l, r) = (table.left(c).to_vec(), table.right(c).to_vec());
        let again = table.game(&l, &r);
        prop_assert_eq!(again, c);
        let tree = arena.expand(&table, c);
        prop_assert_eq!(arena.canonical(tree, &mut table), c);
        // Value-preserving: G ≤ C and C ≤ G on the trees, i.e. G − C = 0.
        let mut memo = FxHashMap::default();
        prop_assert!(arena.leq(g, tree, &mut memo));
        prop_assert!(arena.leq(tree, g, &mut memo));
        // And G + (−C) is a second-player win played out as a tree.
        let minus = arena.negate(tree);
        let mut wins = FxHashMap::default();
        prop_assert!(!arena.wins(&mut vec![g, minus], true, &mut wins));
        prop_assert!(!arena.wins(&mut vec![g, minus], false, &mut wins));
        // The canonical form is no bigger than the tree.
        prop_assert!(table.birthday(c) <= 4);
    }

    /// A game plus a number (summed by translation, with no simplification) and a nimber
    /// plus a nimber (by XOR): the sum is the sum played out — `(G + H) − G − H` is a
    /// second-player win on the trees, Left first and Right first — and it is the form
    /// the general simplification gives from the sum's options.
    #[test]
    fn translated_and_nim_sums_are_the_sums_played_out(
        choices in prop::collection::vec(any::<u8>(), 0..32),
        num in -4i128..=4,
        exp in 0u32..2,
        nimbers in (0u32..6, 0u32..6),
    ) {
        let (mut arena, roots) = arena_of(&choices, 1, 3);
        let mut table = Table::new();
        let g = arena.canonical(roots[0], &mut table);
        let x = table.number(Dyadic::new(num, exp).unwrap());
        let (a, b) = (table.nimber(nimbers.0), table.nimber(nimbers.1));
        for (p, q) in [(g, x), (x, g), (a, b), (a, x), (g, a)] {
            let sum = table.sum(p, q).unwrap();
            let mut memo = FxHashMap::default();
            let (tp, tq, ts) = (
                arena.expand(&table, p),
                arena.expand(&table, q),
                arena.expand(&table, sum),
            );
            let minus = arena.negate(ts);
            for left in [true, false] {
                prop_assert!(!arena.wins(&mut vec![tp, tq, minus], left, &mut memo));
            }
            // The general way: every option of the sum, simplified together.
            let mut left = Vec::new();
            let mut right = Vec::new();
            for (side, out) in [(true, &mut left), (false, &mut right)] {
                for (mover, other) in [(p, q), (q, p)] {
                    let options: Vec<GameId> = if side {
                        table.left(mover).to_vec()
                    } else {
                        table.right(mover).to_vec()
                    };
                    for o in options {
                        out.push(table.sum(o, other).unwrap());
                    }
                }
            }
            prop_assert_eq!(table.game(&left, &right), sum);
        }
    }

    /// The outcome class of a sum from the parts' canonical forms is minimax on the
    /// whole sum played as a game tree (Left first, Right first).
    #[test]
    fn the_class_of_a_sum_is_minimax_of_the_whole(
        choices in prop::collection::vec(any::<u8>(), 0..64),
        count in 1usize..=3,
    ) {
        let depth = if count == 3 { 3 } else { 4 };
        let (arena, roots) = arena_of(&choices, count, depth);
        let mut table = Table::new();
        let parts: Vec<GameId> = roots.iter().map(|&r| arena.canonical(r, &mut table)).collect();
        let total = table.sum_all(&parts).unwrap();
        let mut memo = FxHashMap::default();
        let left_first = arena.wins(&mut roots.clone(), true, &mut memo);
        let right_first = arena.wins(&mut roots.clone(), false, &mut memo);
        prop_assert_eq!(table.class(total), Class::from_winners(left_first, right_first));
        // Comparison agrees with the definition on the trees too.
        if count >= 2 {
            let (a, b) = (roots[0], roots[1]);
            let mut memo = FxHashMap::default();
            prop_assert_eq!(table.leq(parts[0], parts[1]), arena.leq(a, b, &mut memo));
        }
    }
}

/// CGSuite's own test cases (`lib/core/src/test/scala/org/cgsuite/lang/
/// CanonicalShortGameTestCase.scala` in its repository, github.com/aaron-siegel/cgsuite):
/// the text each game is entered as, how CGSuite prints it, its atomic weight (`None`:
/// CGSuite says "That game is not atomic"), its freeze (cooled by its temperature) and
/// its reduced canonical form.
const CGSUITE_CASES: &[(&str, &str, Option<&str>, &str, &str)] = &[
    ("0", "0", Some("0"), "0", "0"),
    ("5", "5", None, "5", "5"),
    ("-1/2", "-1/2", None, "-1/2", "-1/2"),
    ("25/16", "25/16", None, "25/16", "25/16"),
    ("*8", "*8", Some("0"), "*8", "0"),
    ("9/8+*", "9/8*", None, "9/8*", "9/8"),
    ("^", "^", Some("1"), "^", "0"),
    ("v*", "v*", Some("-1"), "v*", "0"),
    ("6+^*", "6^*", None, "6^*", "6"),
    ("^*6", "^*6", Some("1"), "^*6", "0"),
    // CGSuite prints `73/16v9*8`; grundy writes nine downs beside a nimber out in full.
    ("73/16+v9*8", "", None, "", "73/16"),
    ("{0|*||*|||*||||*}", "^[4]", Some("1"), "^[4]", "0"),
    ("{0||0|v*}", "{0|^<2>}", Some("1"), "{0|^<2>}", "0"),
    (
        "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
        "",
        Some("0"),
        "",
        "0",
    ),
    (
        "{0,*,*2,*3,{0,*,*2,*3,*4||*4,v*5|vv*4}||{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}},{0,*,*2,*3,*4||*4,v*5|vv*4}|{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}||||vv*4}}",
        "",
        Some("0"),
        "",
        "0",
    ),
    ("{0||0|vvv}", "{0||0|v3}", Some("0"), "{0||0|v3}", "0"),
    ("{^^^|vv}", "{^3|vv}", Some("{1|0}"), "{^3|vv}", "0"),
    ("{0||0|-3/2}", "Tiny(3/2)", Some("0"), "Tiny(3/2)", "0"),
    ("{0|||0||-1|-3}", "Tiny({3|1})", Some("0"), "Tiny({3|1})", "0"),
    ("{5||3|1|||0||||0}", "Miny({5||3|1})", Some("0"), "Miny({5||3|1})", "0"),
    ("{1|^^||^}", "{1|^^||^}", Some("2"), "{1|^^||^}", "0"),
    ("{1|^^^||^}", "{1|^3||^}", None, "{1|^3||^}", "0"),
    ("{3||2+*|1+*}", "{3||2*|1*}", None, "9/4*", "{3||2|1}"),
    (
        "{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}",
        "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
        None,
        "-5/16*",
        "{3/2|1/2||{0|-3},{-1/2|-1||-5/2}}",
    ),
];

/// A printed form CGSuite writes in its uptimal or named shorthand, which grundy does
/// not: compared as values instead.
fn shorthand(printed: &str) -> bool {
    printed.is_empty() || printed.contains('[') || printed.contains('<') || printed.contains('(')
}

/// A negative number with ups prints as `-1^` (-1 + ^) and reads back as it: the sign is
/// the number's alone, not the whole term's.
#[test]
fn negative_numbers_with_ups_read_back_as_printed() {
    let mut t = Table::new();
    for (entered, printed) in [
        ("-1 + ^", "-1^"),
        ("-1/2 + v*", "-1/2v*"),
        ("-2 + ^^", "-2^^"),
        ("-1 - ^", "-1v"),
        ("-^", "v"),
    ] {
        let g = read(&mut t, entered).unwrap_or_else(|e| panic!("{entered}: {e}"));
        let ours = show(&mut t, g).replace('↑', "^").replace('↓', "v");
        assert_eq!(ours, printed, "{entered}");
        assert_eq!(read(&mut t, &ours).unwrap(), g, "{entered} printed {ours}");
    }
}

#[test]
fn cgsuite_forms_read_print_and_weigh_as_cgsuite_says() {
    let mut t = Table::new();
    for &(entered, printed, weight, frozen_as, reduced) in CGSUITE_CASES {
        let g = read(&mut t, entered).unwrap_or_else(|e| panic!("{entered}: {e}"));
        let ours = show(&mut t, g);
        // What grundy prints reads back to the same value.
        assert_eq!(read(&mut t, &ours).unwrap(), g, "{entered} printed {ours}");
        if !shorthand(printed) {
            assert_eq!(
                ours.replace('↑', "^").replace('↓', "v"),
                printed,
                "{entered}"
            );
        }
        match weight {
            Some(w) => {
                let want = read(&mut t, w).unwrap();
                assert_eq!(atomic_weight(&mut t, g).unwrap(), want, "{entered}");
            }
            None => assert!(atomic_weight(&mut t, g).is_err(), "{entered} is not atomic"),
        }
        let want = read(&mut t, reduced).unwrap();
        assert_eq!(
            reduced_canonical_form(&mut t, g).unwrap(),
            want,
            "reduced canonical form of {entered}"
        );
        let frozen = freeze(&mut t, g).unwrap();
        if !shorthand(frozen_as) {
            assert_eq!(
                frozen,
                read(&mut t, frozen_as).unwrap(),
                "freeze of {entered}"
            );
        }
    }
}

#[test]
fn cooling_and_heating_as_the_books_do() {
    let mut t = Table::new();
    let r = |text: &str, t: &mut Table| read(t, text).unwrap();
    let (pm_one, star, one) = (r("±1", &mut t), r("*", &mut t), r("1", &mut t));
    // ±1 cooled by 1 is *; by 1/2, ±1/2; by 2 (past its temperature), its mean 0.
    assert_eq!(cool(&mut t, pm_one, d(1, 0)).unwrap(), star);
    assert_eq!(cool(&mut t, pm_one, d(1, 1)).unwrap(), r("+-1/2", &mut t));
    assert_eq!(cool(&mut t, pm_one, d(2, 0)).unwrap(), t.zero());
    // * heated by 1 is ±1 (Winning Ways, chapter 6: heating undoes chilling).
    assert_eq!(heat(&mut t, star, one).unwrap(), pm_one);
    // ^ heated by 1 = {1 | {1|-1}... }: {0|*} → {1 | ±1 − 1} = {1 | {0|-2}}.
    let up = t.up();
    assert_eq!(heat(&mut t, up, one).unwrap(), r("{1||0|-2}", &mut t));
    // Numbers do not heat; integers do not cool.
    let half = r("1/2", &mut t);
    assert_eq!(heat(&mut t, half, one).unwrap(), half);
    let five = r("5", &mut t);
    assert_eq!(cool(&mut t, five, d(3, 0)).unwrap(), five);
    // Overheating from 1 to 1: an integer n is n copies of 1, so 2 stays 2 and * becomes
    // {1 | -1}; from * to 1, the integer 1 becomes *.
    let two = r("2", &mut t);
    assert_eq!(overheat(&mut t, two, one, one).unwrap(), two);
    assert_eq!(overheat(&mut t, one, star, one).unwrap(), star);
    assert_eq!(overheat(&mut t, star, one, one).unwrap(), pm_one);
    // Cooling below -1 is refused, as CGSuite refuses it.
    assert!(cool(&mut t, pm_one, d(-1, 0)).is_err());
}

/// CGSuite's benchmark heats nimbers by 1 (`*14 Heat 1`, `*12 Heat 1`): every heated
/// nimber cools back to itself, has mean 0, and is 0 only at `*0`. (Up to `*12` here;
/// `*14` is `grundy value --form '*14' --heat 1`, half a second in a release build.)
#[test]
fn heated_nimbers_cool_back_to_themselves() {
    let mut t = Table::new();
    let one = t.integer(1).unwrap();
    for n in 0..=12 {
        let star = t.nimber(n);
        let hot = heat(&mut t, star, one).unwrap();
        assert_eq!(cool(&mut t, hot, d(1, 0)).unwrap(), star, "*{n}");
        assert_eq!(mean_and_temperature(&t, hot).0, "0", "*{n}");
        assert_eq!(hot == t.zero(), n == 0, "*{n}");
    }
}

#[test]
fn bad_forms_are_refused_with_their_column() {
    let mut t = Table::new();
    for (text, column) in [
        ("", 1),
        ("{1|0", 1),
        ("{1 0}", 4),
        ("{1,|0}", 4),
        ("{1|0|2}", 5),
        ("1/3", 3),
        ("*99999999999", 2),
        ("^70000", 2),
        ("*1025", 2),
        ("99999", 1),
        ("1 2", 3),
        ("{,1|}", 2),
        ("{1}", 1),
        ("#", 1),
        ("(1 + ^", 1),
        ("(1 ^)", 4),
        ("()", 2),
        ("(1))", 4),
    ] {
        let e = read(&mut t, text).unwrap_err();
        assert_eq!(e.column, column, "{text:?}: {e}");
    }
    let deep = "{".repeat(300) + &"|}".repeat(300);
    assert!(read(&mut t, &deep).is_err());
    let deep = "(".repeat(300) + "0" + &")".repeat(300);
    assert!(read(&mut t, &deep).is_err());
}

#[test]
fn parentheses_group_a_sum_as_one_term() {
    let mut t = Table::new();
    for (text, same_as) in [
        ("{1|0} - (^ + *)", "{1|0} - ^ - *"),
        ("-(1/2 - ^)", "-1/2 + ^"),
        ("((*2))", "*2"),
        ("{(1 + 1)|-(1/2)}", "{2|-1/2}"),
        ("2 - (1 - (1/4 + ^))", "5/4 + ^"),
    ] {
        let g = read(&mut t, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g, read(&mut t, same_as).unwrap(), "{text}");
    }
    // A difference of a value and itself, as one compares printed forms, is 0.
    let form =
        "{0, {{2|0}, {2|{2|0}}|{2|0}, {{2|0}|0}}|0, {{0|-2}, {0|{0|-2}}|{0|-2}, {{0|-2}|-2}}}";
    let difference = read(&mut t, &format!("{form} - ({form})")).unwrap();
    assert_eq!(difference, t.zero());
}

/// A random dicotic tree (both players have a move, or neither, at every node): an
/// all-small game.
fn dicotic(arena: &mut Arena, choices: &mut impl Iterator<Item = u8>, depth: u32) -> usize {
    let c = choices.next().unwrap_or(0);
    let (nl, nr) = if depth == 0 || c.is_multiple_of(4) {
        (0, 0)
    } else {
        (usize::from(1 + (c / 4) % 2), usize::from(1 + (c / 8) % 2))
    };
    let left = (0..nl)
        .map(|_| dicotic(arena, choices, depth - 1))
        .collect();
    let right = (0..nr)
        .map(|_| dicotic(arena, choices, depth - 1))
        .collect();
    arena.push(left, right)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Cooling is linear, keeps the mean, and takes `t` off a temperature above `t`
    /// (Siegel, II.5).
    #[test]
    fn cooling_is_linear_and_lowers_the_temperature(
        choices in prop::collection::vec(any::<u8>(), 0..64),
        halves in 0i128..4,
    ) {
        let (arena, roots) = arena_of(&choices, 2, 3);
        let mut table = Table::new();
        let a = arena.canonical(roots[0], &mut table);
        let b = arena.canonical(roots[1], &mut table);
        let t = d(halves, 1);
        let sum = table.sum(a, b).unwrap();
        let (ca, cb) = (cool(&mut table, a, t).unwrap(), cool(&mut table, b, t).unwrap());
        let parts = table.sum(ca, cb).unwrap();
        prop_assert_eq!(cool(&mut table, sum, t).unwrap(), parts);
        let mut memo = FxHashMap::default();
        let before = thermograph(&table, a, &mut memo).unwrap();
        let after = thermograph(&table, ca, &mut memo).unwrap();
        prop_assert_eq!(before.mean, after.mean);
        if before.temperature > t && table.number_of(a).is_none() {
            prop_assert_eq!(after.temperature, before.temperature.checked_sub(t).unwrap());
        }
    }

    /// Atomic weights add (Winning Ways, chapter 8) and negate, and a game of atomic
    /// weight 2 or more is a win for Left (the two-ahead rule).
    #[test]
    fn atomic_weights_add_and_two_ahead_wins(
        choices in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut arena = Arena::default();
        let mut stream = choices.iter().copied();
        let roots = [dicotic(&mut arena, &mut stream, 3), dicotic(&mut arena, &mut stream, 3)];
        let mut table = Table::new();
        let a = arena.canonical(roots[0], &mut table);
        let b = arena.canonical(roots[1], &mut table);
        prop_assert!(is_all_small(&table, a));
        let (wa, wb) = (atomic_weight(&mut table, a).unwrap(), atomic_weight(&mut table, b).unwrap());
        let sum = table.sum(a, b).unwrap();
        let ws = atomic_weight(&mut table, sum).unwrap();
        prop_assert_eq!(ws, table.sum(wa, wb).unwrap());
        let minus = table.neg(a);
        prop_assert_eq!(atomic_weight(&mut table, minus).unwrap(), table.neg(wa));
        let two = table.integer(2).unwrap();
        if table.leq(two, wa) {
            prop_assert!(table.less(table.zero(), a));
        }
    }
}

/// Every `x + n·↑ + *m` is recognised as itself; hot games, tinies and other
/// infinitesimals are not.
#[test]
fn numbers_ups_and_nimbers_are_recognised() {
    let mut t = Table::new();
    let up = t.up();
    for x in [d(0, 0), d(1, 0), d(-3, 1), d(73, 4)] {
        for n in -6i64..=6 {
            for m in 0..9 {
                let xid = t.number(x);
                let ups = super::temper::copies(&mut t, n, up).unwrap();
                let star = t.nimber(m);
                let g = t.sum_all(&[xid, ups, star]).unwrap();
                assert_eq!(
                    super::reduce::number_up_star(&mut t, g).unwrap(),
                    Some((x, n, m)),
                    "{x} + {n}.^ + *{m}"
                );
            }
        }
    }
    for text in [
        "+-1",
        "{1|^^||^}",
        "{0||0|-3/2}",
        "{0||0|v*}",
        "{^^^|vv}",
        "1 + ^[4]",
    ] {
        let g = read(&mut t, text.replace("^[4]", "{0|*||*|||*||||*}").as_str()).unwrap();
        assert_eq!(
            super::reduce::number_up_star(&mut t, g).unwrap(),
            None,
            "{text}"
        );
    }
}

/// The reduced canonical forms the definition gives at once: a number is its own,
/// `↑`, `*`, `↑*` and every other infinitesimal reduce to 0, and `±1 + ↑` to `±1`.
#[test]
fn reduced_canonical_forms_of_known_games() {
    let mut t = Table::new();
    for text in ["^", "*", "^*", "v*3", "{0||0|-3/2}", "^^^ + *7"] {
        let g = read(&mut t, text).unwrap();
        assert_eq!(
            reduced_canonical_form(&mut t, g).unwrap(),
            t.zero(),
            "{text}"
        );
    }
    for text in ["7/8", "-3", "0"] {
        let g = read(&mut t, text).unwrap();
        assert_eq!(reduced_canonical_form(&mut t, g).unwrap(), g, "{text}");
    }
    let pm = read(&mut t, "+-1").unwrap();
    let pm_up = read(&mut t, "+-1 + ^ + *2").unwrap();
    assert_eq!(reduced_canonical_form(&mut t, pm_up).unwrap(), pm);
    // {1* | -1*} is born a day after ±1 and infinitesimally close to it.
    let starred = read(&mut t, "{1*|-1*}").unwrap();
    assert_eq!(reduced_canonical_form(&mut t, starred).unwrap(), pm);
}

/// Every canonical form born by day 2 (there are 22).
fn day_two(t: &mut Table) -> Vec<GameId> {
    let day_one = [
        t.zero(),
        t.star(),
        t.integer(1).unwrap(),
        t.integer(-1).unwrap(),
    ];
    let mut all = Vec::new();
    for lmask in 0u32..16 {
        for rmask in 0u32..16 {
            let pick = |mask: u32| -> Vec<GameId> {
                (0..4)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| day_one[i])
                    .collect()
            };
            all.push(t.game(&pick(lmask), &pick(rmask)));
        }
    }
    all.sort_unstable();
    all.dedup();
    all
}

/// Brute force on the games born by day 2 and their sums: the reduced form of `G` is
/// born no later than any game infinitesimally close to `G`, and games infinitesimally
/// close share their reduced form.
#[test]
fn reduced_forms_are_the_simplest_of_their_class() {
    let mut t = Table::new();
    let games = day_two(&mut t);
    assert_eq!(games.len(), 22);
    for &a in &games {
        for &b in &games {
            let g = t.sum(a, b).unwrap();
            let r = reduced_canonical_form(&mut t, g).unwrap();
            for &h in &games {
                let diff = t.sub(g, h).unwrap();
                if is_infinitesimal(&t, diff) {
                    assert!(t.birthday(r) <= t.birthday(h));
                    assert_eq!(reduced_canonical_form(&mut t, h).unwrap(), r);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The reduced canonical form is idempotent, infinitesimally close to the game, born
    /// no later, the same for the game plus any infinitesimal, and additive modulo
    /// infinitesimals.
    #[test]
    fn reduced_forms_are_the_game_modulo_infinitesimals(
        choices in prop::collection::vec(any::<u8>(), 0..96),
    ) {
        let (mut arena, roots) = arena_of(&choices, 2, 3);
        let mut stream = choices.iter().rev().copied();
        let small = dicotic(&mut arena, &mut stream, 3);
        let mut table = Table::new();
        let a = arena.canonical(roots[0], &mut table);
        let b = arena.canonical(roots[1], &mut table);
        let eps = arena.canonical(small, &mut table);
        let r = reduced_canonical_form(&mut table, a).unwrap();
        prop_assert_eq!(reduced_canonical_form(&mut table, r).unwrap(), r);
        let diff = table.sub(a, r).unwrap();
        prop_assert!(is_infinitesimal(&table, diff));
        prop_assert!(table.birthday(r) <= table.birthday(a));
        if table.number_of(a).is_some() {
            prop_assert_eq!(r, a);
        }
        let nudged = table.sum(a, eps).unwrap();
        prop_assert_eq!(reduced_canonical_form(&mut table, nudged).unwrap(), r);
        let rb = reduced_canonical_form(&mut table, b).unwrap();
        let sum = table.sum(a, b).unwrap();
        let parts = table.sum(r, rb).unwrap();
        prop_assert_eq!(
            reduced_canonical_form(&mut table, sum).unwrap(),
            reduced_canonical_form(&mut table, parts).unwrap()
        );
    }

    /// Infinitesimals that need not be all-small (`G − rcf(G)`): where a weight `W` is
    /// given, `G` plays as `W·↑` beside a remote star (the definition: `o(G + X + *m) =
    /// o(W·↑ + X + *m)`), for `X` among 0, `↑`, `↓`, `*` and a random all-small game;
    /// where none is given, the game is not all-small.
    #[test]
    fn atomic_weights_beyond_all_small_play_as_ups(
        choices in prop::collection::vec(any::<u8>(), 0..128),
    ) {
        let (mut arena, roots) = arena_of(&choices, 2, 3);
        let mut stream = choices.iter().rev().copied();
        let small = dicotic(&mut arena, &mut stream, 3);
        let mut table = Table::new();
        let (a, b) = (arena.canonical(roots[0], &mut table), arena.canonical(roots[1], &mut table));
        let a = table.sum(a, b).unwrap();
        let r = reduced_canonical_form(&mut table, a).unwrap();
        let g = table.sub(a, r).unwrap();
        prop_assert!(is_infinitesimal(&table, g));
        let x = arena.canonical(small, &mut table);
        match atomic_weight(&mut table, g) {
            Err(_) => prop_assert!(!is_all_small(&table, g)),
            Ok(w) => {
                let up = table.up();
                let wu = super::atomic::norton_product(&mut table, w, up, &mut FxHashMap::default()).unwrap();
                // A nimber past every nimber among the followers, doubled for margin.
                let mut seen = FxHashMap::default();
                let far = [g, wu, x]
                    .iter()
                    .map(|&h| super::atomic::remote_star(&table, h, &mut seen))
                    .max()
                    .unwrap_or(1);
                let remote = table.nimber(2 * far.next_power_of_two());
                let (star, down) = (table.star(), table.down());
                for extra in [table.zero(), up, down, star, x] {
                    let lhs = table.sum_all(&[g, extra, remote]).unwrap();
                    let rhs = table.sum_all(&[wu, extra, remote]).unwrap();
                    prop_assert_eq!(table.class(lhs), table.class(rhs));
                }
            }
        }
    }
}
