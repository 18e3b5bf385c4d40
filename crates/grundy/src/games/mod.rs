//! The catalog: pure rules of every game family, each in one file implementing
//! [`Family`], the registry that lists them, and the spec language that names a
//! position of any of them, or a sum.
//!
//! A spec is `family[params](position)`, parts joined by `+`: `nim(3,3,1)`,
//! `octal[0.77](12) + multiple[2](10)`, `chomp[3x4]`, `tictactoe(x.o/.x./...)`. [`Spec`]
//! parses (`str::parse`) and prints (`Display`) that language; the printed form parses
//! back to the same spec.
//!
//! Adding a family is one new file (a type implementing [`Family`] and its registry
//! [`Entry`]) plus one line in [`registry::FAMILIES`]; see `docs/ARCHITECTURE.md`.

mod amazons;
pub mod board;
pub mod code;
pub mod combin;
pub mod family;
pub mod partizan;
pub mod spec;

mod chomp;
mod circular;
mod clobber;
pub mod colouring;
#[cfg(test)]
mod conformance_tests;
mod connect4;
mod cutcake;
mod domineering;
mod dots;
mod ends;
mod hackenbush;
mod heap;
mod hex;
pub mod ioiwari;
mod kalah;
mod mnk;
mod multiple;
pub mod polygon;
mod quixo;
pub mod score;
mod sum;
mod toads;
mod words;
mod wythoff;

pub use amazons::Amazons;
pub use chomp::Chomp;
pub use circular::Circular;
pub use clobber::Clobber;
pub use colouring::{Col, Colouring, Snort};
pub use connect4::Connect4;
pub use cutcake::Cutcake;
pub use domineering::Domineering;
pub use dots::Dots;
pub use ends::{Ends, EndsFamily, Intervals};
pub use family::{
    is_move, Boards, Bound, Cost, Discovery, Drawing, Exact, Family, Figure, GameRules, Grundy,
    GrundySource, Indexing, Kind, Look, Part, PatternSource, Patterns, Picture, Pos, ProvedRule,
    Ranked, RuleSearch, Scores, Searching, Spec, Stroke, Tiers, Values,
};
pub use hackenbush::Hackenbush;
pub use heap::{HeapFamily, Heaps, MAX_LISTED_SPLITS};
pub use hex::Hex;
pub use ioiwari::Ioiwari;
pub use kalah::Kalah;
pub use mnk::Mnk;
pub use multiple::{Multiple, MultipleRule, NO_WINNING_TAKE};
pub use quixo::Quixo;
pub use spec::{
    cut_echoes, parse_family, Args, Built, Entry, Offered, Options, Param, Setting, SpecError,
};
pub use sum::SumGame;
pub use toads::Toads;
pub use wythoff::{Wythoff, WythoffRule};

/// The families the spec language knows.
pub mod registry {
    use super::spec::Entry;

    /// Every family, one line each: the entries of its file.
    pub static FAMILIES: &[&[Entry]] = &[
        super::heap::ENTRIES,
        super::multiple::ENTRIES,
        super::wythoff::ENTRIES,
        super::ends::ENTRIES,
        super::chomp::ENTRIES,
        super::mnk::ENTRIES,
        super::connect4::ENTRIES,
        super::ioiwari::ENTRIES,
        super::circular::ENTRIES,
        super::polygon::ENTRIES,
        super::quixo::ENTRIES,
        super::hex::ENTRIES,
        super::dots::ENTRIES,
        super::kalah::ENTRIES,
        super::domineering::ENTRIES,
        super::hackenbush::ENTRIES,
        super::cutcake::ENTRIES,
        super::toads::ENTRIES,
        super::clobber::ENTRIES,
        super::colouring::ENTRIES,
        super::amazons::ENTRIES,
    ];

    /// Every entry, in registry order.
    pub fn entries() -> impl Iterator<Item = &'static Entry> {
        FAMILIES.iter().flat_map(|entries| entries.iter())
    }

    /// The entry of a name (lowercase).
    #[must_use]
    pub fn find(name: &str) -> Option<&'static Entry> {
        entries().find(|e| e.name == name)
    }
}

impl std::str::FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        spec::parse(text)
    }
}

/// Positions worth showing: each family's examples, and a sum of unlike parts.
pub fn examples() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = registry::entries()
        .flat_map(|e| e.examples.iter().copied())
        .collect();
    all.insert(3, "nim(3) + octal[0.77](12) + multiple[2](10)");
    all
}

/// The families with their shapes, for help texts: `(name, shape)`.
pub fn families() -> impl Iterator<Item = (&'static str, &'static str)> {
    registry::entries().map(|e| (e.name, e.shape))
}

/// A member of each registered family with its shape, for help texts that list only the
/// families a command takes (what a family offers is asked of the member): `(shape,
/// family)`, the member built from the family part of the entry's first example (else of
/// its first small spec), so that a family added to the registry is listed with no change
/// in any front end.
pub fn samples() -> impl Iterator<Item = (&'static str, std::sync::Arc<dyn Family>)> {
    registry::entries().filter_map(|e| {
        let spec = e.examples.first().or(e.small.first())?;
        let family = spec.split('(').next().unwrap_or(spec);
        Some((e.shape, parse_family(family).ok()?))
    })
}

/// What the board families' tests share.
#[cfg(test)]
pub(crate) mod testing {
    use std::sync::Arc;

    use super::{Family, Part, Pos, Spec};
    use crate::cgt::{write, Context, GameId, Spelling};
    use crate::report::{self, Limits};
    use crate::tier::{record, MemoryStore, Node, Solved, TierGame};

    /// A context for the partizan families' value tests: 256 MiB.
    pub(crate) fn cgt_context() -> Context<'static> {
        Context::new(1 << 28)
    }

    /// The family and position of a spec of one part.
    pub(crate) fn part_of(spec: &str) -> (Arc<dyn Family>, Pos) {
        let spec: Spec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
        let part = spec.single().unwrap();
        (Arc::clone(&part.family), part.position.clone())
    }

    /// The value of a spec of one part (its family's `cgt_value`), and as CGSuite prints it.
    pub(crate) fn cgt_value_of(spec: &str, context: &mut Context) -> (GameId, String) {
        let (family, pos) = part_of(spec);
        let g = family.cgt_value(&pos, context).unwrap().unwrap();
        (g, write(&mut context.table, g, Spelling::Unicode))
    }

    /// Asserts that each spec is refused with a message.
    pub(crate) fn all_refused(bad: &[&str]) {
        for bad in bad {
            let err = bad.parse::<Spec>().unwrap_err();
            assert!(!err.message.is_empty(), "{bad}");
        }
    }

    /// Asserts that a spec as written prints as `printed`.
    pub(crate) fn prints_as(written: &str, printed: &str) {
        let spec: Spec = written.parse().unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(spec.to_string(), printed, "{written}");
    }

    /// The family and position of a spec of one part, its moves, and their names.
    pub(crate) fn named_moves(spec: &str) -> (Arc<dyn Family>, Pos, Vec<Pos>, Vec<String>) {
        let (family, pos) = part_of(spec);
        let mut children = Vec::new();
        family.moves(&pos, &mut children);
        let names = children
            .iter()
            .map(|to| family.move_name(&pos, to))
            .collect();
        (family, pos, children, names)
    }

    /// The value of a spec of one part (its family's `cgt_value`, by regions), asserted
    /// equal to [`plain_value`]'s and its outcome class to who wins by
    /// [`wins_moving_first`]; with the context that holds it.
    pub(crate) fn checked_value(spec: &str) -> (Context<'static>, GameId) {
        let (family, pos) = part_of(spec);
        let mut c = cgt_context();
        let g = family.cgt_value(&pos, &mut c).unwrap().unwrap();
        // The plain recursion keeps its own memo of positions, and builds its forms in the
        // same table, where equal canonical forms are one id (the printed order of
        // options is the table's).
        let p = plain_value(family.as_ref(), &pos, &mut c);
        assert!(
            p == g,
            "{spec}: by regions {}, plainly {}",
            write(&mut c.table, g, Spelling::Unicode),
            write(&mut c.table, p, Spelling::Unicode)
        );
        let [left, right] = wins_moving_first(family.as_ref(), &pos);
        assert_eq!(
            c.table.class(g),
            crate::cgt::Class::from_winners(left, right),
            "{spec}: the class and plain minimax"
        );
        (c, g)
    }

    /// A grid board as a spec writes it, `rows × columns` cells from `cells` (row by row),
    /// each the mark `marks[cell]`: the random boards of the grid families' property tests.
    pub(crate) fn grid_board(cells: &[u8], rows: usize, columns: usize, marks: &[char]) -> String {
        (0..rows)
            .map(|r| {
                (0..columns)
                    .map(|c| marks[usize::from(cells[r * columns + c])])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Asserts that valuing a spec of one part within a memory bound too small for it is a
    /// refusal for size, not an unbounded allocation.
    pub(crate) fn refuses_a_small_memory_bound(spec: &str) {
        let (family, pos) = part_of(spec);
        let mut c = Context::new(10_000);
        let err = family.cgt_value(&pos, &mut c).unwrap().unwrap_err();
        assert!(err.is_too_large(), "{spec}: {err}");
    }

    /// The positions reachable from the root through `visit`, tier by tier (a tier is
    /// walked again until it reaches nothing new: moves may stay in their tier), each
    /// child in its own tier or one of `child_tiers`.
    pub(crate) fn reachable(game: &dyn TierGame) -> u64 {
        let mut reached: Vec<Vec<bool>> = (0..game.tier_count())
            .map(|t| vec![false; game.tier_size(t) as usize])
            .collect();
        let (t0, r0) = game.root();
        reached[t0 as usize][r0 as usize] = true;
        for t in 0..game.tier_count() {
            loop {
                let here = reached[t as usize].clone();
                let mut found = Vec::new();
                game.visit(
                    t,
                    0..game.tier_size(t),
                    &|r| here[r as usize],
                    &mut |_, node| {
                        if let Node::Moves(children) = node {
                            found.extend(children.iter().map(|c| (c.tier, c.rank)));
                        }
                    },
                );
                let mut grew = false;
                for (ct, cr) in found {
                    assert!(ct == t || game.child_tiers(t).contains(&ct));
                    let slot = &mut reached[ct as usize][cr as usize];
                    grew |= ct == t && !*slot;
                    *slot = true;
                }
                if !grew {
                    break;
                }
            }
        }
        reached.iter().flatten().filter(|&&b| b).count() as u64
    }

    /// Whether the player to move wins a partizan position by plain minimax on the
    /// family's own moves (no values): `[Left moving first, Right moving first]`, the
    /// mover set by [`super::GameRules::with_mover`]. The reference the families' values
    /// are held to.
    pub(crate) fn wins_moving_first(family: &dyn Family, pos: &super::Pos) -> [bool; 2] {
        fn wins(
            family: &dyn Family,
            pos: &super::Pos,
            memo: &mut std::collections::HashMap<super::Pos, bool>,
        ) -> bool {
            if let Some(&w) = memo.get(pos) {
                return w;
            }
            let mut children = Vec::new();
            family.moves(pos, &mut children);
            let w = children.iter().any(|child| !wins(family, child, memo));
            memo.insert(pos.clone(), w);
            w
        }
        let mut memo = std::collections::HashMap::new();
        [crate::game::Player::First, crate::game::Player::Second].map(|mover| {
            let here = family.with_mover(pos, mover).expect("a partizan family");
            wins(family, &here, &mut memo)
        })
    }

    /// The value of a partizan position by the plain recursion of the definition,
    /// `{ Left's moves | Right's moves }` straight from the family's moves: no regions, no
    /// family memo (positions met again are looked up by the whole position only).
    pub(crate) fn plain_value(
        family: &dyn Family,
        pos: &super::Pos,
        context: &mut crate::cgt::Context,
    ) -> crate::cgt::GameId {
        use crate::cgt::GameId;
        use crate::game::Player;
        fn value(
            family: &dyn Family,
            pos: &super::Pos,
            context: &mut crate::cgt::Context,
            memo: &mut std::collections::HashMap<super::Pos, GameId>,
        ) -> GameId {
            let key = family.with_mover(pos, Player::First).expect("partizan");
            if let Some(&g) = memo.get(&key) {
                return g;
            }
            let mut sides = [Vec::new(), Vec::new()];
            for (mover, side) in [Player::First, Player::Second].into_iter().zip(&mut sides) {
                let here = family.with_mover(pos, mover).expect("partizan");
                let mut children = Vec::new();
                family.moves(&here, &mut children);
                for child in children {
                    side.push(value(family, &child, context, memo));
                }
            }
            let g = context.table.game(&sides[0], &sides[1]);
            memo.insert(key, g);
            g
        }
        value(family, pos, context, &mut std::collections::HashMap::new())
    }

    /// Every tier of `game` solved in memory, on the default options.
    pub(crate) fn tier_solve(game: &dyn TierGame) -> (Solved, MemoryStore) {
        use crate::explore::Control;
        use crate::tier::{solve, Options};
        let mut store = MemoryStore::default();
        let solved = solve(
            game,
            &mut store,
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .expect("a small game solves");
        (solved, store)
    }

    /// Every `step`-th reached record of `store`: `(tier, rank, record, the spec of the
    /// board at that rank)`, a board of `family` (whose tiers `store` holds).
    fn reached<'a>(
        family: &'a Arc<dyn Family>,
        store: &'a MemoryStore,
        step: usize,
    ) -> impl Iterator<Item = (u32, u64, u16, Spec)> + 'a {
        let tiers: Arc<dyn super::Tiers> = family.tiers().expect("a tiered family").into();
        store.tiers.iter().flat_map(move |(&t, (records, _))| {
            let tiers = Arc::clone(&tiers);
            records
                .iter()
                .enumerate()
                .step_by(step)
                .filter(|&(_, &rec)| rec != record::UNREACHED)
                .map(move |(rank, &rec)| {
                    let spec = Spec {
                        parts: vec![Part {
                            family: Arc::clone(family),
                            position: tiers.position(t, rank as u64),
                        }],
                    };
                    (t, rank as u64, rec, spec)
                })
        })
    }

    /// Checks every `step`-th record that `store` (the tiers of `family`, solved) holds
    /// against the analyzer on the same board: the outcome and remoteness, or a score
    /// game's margin (the difference of the two totals). With `locate`, each board must
    /// also locate back to its tier and rank. Returns how many records were checked.
    pub(crate) fn records_equal_the_search(
        family: impl Family + 'static,
        store: &MemoryStore,
        step: usize,
        locate: bool,
    ) -> usize {
        records_equal_the_labelling(&(Arc::new(family) as Arc<dyn Family>), store, step, locate)
    }

    /// [`records_equal_the_search`] on a family as the registry hands it out.
    pub(crate) fn records_equal_the_labelling(
        family: &Arc<dyn Family>,
        store: &MemoryStore,
        step: usize,
        locate: bool,
    ) -> usize {
        let tiers = family.tiers().expect("a tiered family");
        let scored = tiers.game().scored();
        let limits = Limits::default();
        let mut checked = 0;
        for (t, rank, rec, spec) in reached(family, store, step) {
            if locate {
                assert_eq!(tiers.locate(&spec.parts[0].position), Some((t, rank)));
            }
            let searched = report::solve(&spec, &limits).unwrap();
            if scored {
                let [a, b] = searched.scores.expect("a score game");
                assert_eq!(record::margin(rec), Some(a - b), "{spec}");
            } else {
                let value = record::value(rec).expect("a reached record");
                assert_eq!(
                    (value.outcome(), value.remoteness()),
                    (searched.outcome, searched.remoteness),
                    "{spec}"
                );
            }
            checked += 1;
        }
        checked
    }

    /// Checks the exact search ([`super::Searching::exact`]) against solved tiers: at every
    /// `step`-th record `store` holds (the tiers of `family`), the search's value equals
    /// the record — with its remoteness, or a score game's margin — strong, and its
    /// outcome weak, one table kept for all; at every `moves_step`-th, each move's value
    /// too (a score game's: the points it takes plus the child's margin, negated when the
    /// turn passes), on two threads. Returns how many positions were checked.
    pub(crate) fn exact_equals_the_records(
        family: impl Family + 'static,
        store: &MemoryStore,
        step: usize,
        moves_step: usize,
    ) -> usize {
        exact_equals_the_tiers(
            &(Arc::new(family) as Arc<dyn Family>),
            store,
            step,
            moves_step,
        )
    }

    /// [`exact_equals_the_records`] on a family as the registry hands it out.
    pub(crate) fn exact_equals_the_tiers(
        family: &Arc<dyn Family>,
        store: &MemoryStore,
        step: usize,
        moves_step: usize,
    ) -> usize {
        use crate::explore::Control;
        use crate::search::exact::Options;
        let tiers = family.tiers().expect("a tiered family");
        let scored = tiers.game().scored();
        let exact = family.exact().expect("an exact search");
        let table = exact.table(1 << 16).unwrap();
        let record_of = |position: &super::Pos| {
            let (t, r) = tiers.locate(position).expect("a position of the game");
            store.tiers[&t].0[r as usize]
        };
        // The record's value for the player to move: its score (a margin), or its
        // outcome with remoteness.
        let margin = |rec: u16| record::margin(rec).expect("a reached margin") as i32;
        let value = |rec: u16| record::value(rec).expect("a reached record");
        let control = Control::default();
        let mut checked = 0;
        for (_, _, rec, spec) in reached(family, store, step) {
            let position = &spec.parts[0].position;
            for weak in [false, true] {
                let options = Options {
                    weak,
                    ..Options::default()
                };
                let (found, _) = exact.solve(position, &table, &options, &control).unwrap();
                if scored {
                    let want = margin(rec);
                    assert_eq!(found.score.signum(), want.signum(), "weak {weak}: {spec}");
                    if !weak {
                        assert_eq!(found.score, want, "{spec}");
                    }
                } else {
                    let want = value(rec);
                    assert_eq!(found.outcome(), want.outcome(), "weak {weak}: {spec}");
                    if !weak {
                        assert_eq!(found.value, want, "{spec}");
                    }
                }
            }
            if checked % moves_step == 0 && family.terminal(position).is_none() {
                let mut children = Vec::new();
                family.moves(position, &mut children);
                let options = Options {
                    threads: 2,
                    ..Options::default()
                };
                let got = exact
                    .analyse(position, &children, &table, &options, &control)
                    .unwrap();
                for (found, child) in got.moves.iter().zip(&children) {
                    let child_rec = record_of(child);
                    if scored {
                        let gain = family.gain(position, child) as i32;
                        let keeps = family.to_move(child) == family.to_move(position);
                        let after = margin(child_rec);
                        let want = gain + if keeps { after } else { -after };
                        assert_eq!(found.score, want, "{spec}");
                    } else {
                        assert_eq!(found.value, value(child_rec).parent(), "{spec}");
                    }
                }
                if scored {
                    assert_eq!(got.root.score, margin(rec), "{spec}");
                } else {
                    assert_eq!(got.root.value, value(rec), "{spec}");
                }
            }
            checked += 1;
        }
        checked
    }

    /// Checks the proof search ([`crate::search`]) against solved tiers: at every
    /// `step`-th record `store` holds (the tiers of `family`, a win/loss/draw game), the
    /// search's value of the position and of each of its moves equal the records'.
    /// Returns how many positions were checked.
    pub(crate) fn searches_equal_the_records(
        family: impl Family + 'static,
        store: &MemoryStore,
        step: usize,
    ) -> usize {
        searches_equal_the_tiers(&(Arc::new(family) as Arc<dyn Family>), store, step)
    }

    /// [`searches_equal_the_records`] on a family as the registry hands it out.
    pub(crate) fn searches_equal_the_tiers(
        family: &Arc<dyn Family>,
        store: &MemoryStore,
        step: usize,
    ) -> usize {
        use crate::explore::Control;
        use crate::game::Game;
        use crate::search::{search, Method, Options};
        let tiers = family.tiers().expect("a tiered family");
        let record_of = |position: &super::Pos| {
            let (t, r) = tiers.locate(position).expect("a position of the game");
            record::value(store.tiers[&t].0[r as usize]).expect("a reached record")
        };
        let options = |method| Options {
            max_nodes: u64::MAX,
            memory: 1 << 20,
            method,
        };
        let mut checked = 0;
        for (_, _, rec, spec) in reached(family, store, step) {
            let (game, root) = super::SumGame::new(&spec).unwrap();
            let mut children = Vec::new();
            if game.terminal(&root).is_none() {
                game.moves(&root, &mut children);
            }
            let want = record::value(rec).expect("a reached record");
            for method in [Method::ProofNumber, Method::AlphaBeta] {
                let got = search(&game, &root, &options(method), &Control::default()).unwrap();
                assert_eq!(got.outcome, want.outcome(), "{method:?} {spec}");
                assert_eq!(got.moves.len(), children.len(), "{spec}");
                for (got, child) in got.moves.iter().zip(&children) {
                    let again = game.keeps_turn(&root, child);
                    let want = record_of(&child[0]).through(again).outcome();
                    assert_eq!(*got, want, "{method:?} {spec} → {}", game.spec(child));
                }
            }
            checked += 1;
        }
        checked
    }
}

#[cfg(test)]
mod options_tests {
    use super::registry;
    use super::{Offered, Spec};

    /// Every family's options make specs the family reads: the defaults, and each value of
    /// each setting with the others at their defaults; a value not offered is refused.
    #[test]
    fn every_option_makes_a_spec_of_its_family() {
        let mut with_options = 0;
        for e in registry::entries() {
            let o = &e.options;
            if o.settings.is_empty() {
                assert!(o.template.is_empty(), "{}", e.name);
                continue;
            }
            with_options += 1;
            let default = o.spec(&[]).unwrap();
            assert!(o.template.starts_with(e.name), "{}: {}", e.name, o.template);
            let spec: Spec = default
                .parse()
                .unwrap_or_else(|err| panic!("{default}: {err}"));
            assert!(spec.single().is_some(), "{default}");
            for s in o.settings {
                assert!(s.values.offers(s.default), "{}: {}", e.name, s.name);
                assert!(
                    o.template.contains(&format!("{{{}}}", s.name)),
                    "{}",
                    s.name
                );
                for (value, _) in s.values.choices() {
                    let text = o.spec(&[(s.name, &value)]).unwrap();
                    // A combination the family refuses is refused with its reason; one
                    // value at a time with the defaults is always a game.
                    text.parse::<Spec>()
                        .unwrap_or_else(|err| panic!("{}: {text}: {err}", e.name));
                }
                assert!(
                    o.spec(&[(s.name, "99999")]).is_err()
                        || matches!(s.values, Offered::Range(_, max) if max >= 99_999)
                );
            }
            assert!(o.spec(&[("no-such", "1")]).is_err());
        }
        assert!(with_options >= 15, "{with_options} families with options");
    }
}
