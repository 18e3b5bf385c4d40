//! Property tests: the fast engines against brute-force references written here.
//!
//! - retrograde labelling (win / loss / draw with remoteness) on random small digraphs with
//!   cycles, self-loops and declared terminal outcomes, against a round-by-round fixpoint;
//! - Grundy values on random DAGs against a memoised mex; cycles must be refused;
//! - random sums of every impartial family, parsed from text, against brute-forced
//!   component values (Sprague–Grundy) *and* a brute force of the whole sum (outcome,
//!   remoteness, winning moves) — both through exploration and through the Grundy path;
//! - the spec language: print → parse round trips, and no input panics the parser.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::AtomicBool;

use grundy::explore::{explore, explore_indexed, Control, Csr, Explored};
use grundy::game::{Game, IndexedGame, Outcome, Value};
use grundy::games::{HeapFamily, Spec};
use grundy::impartial::grundy_values;
use grundy::report::{self, Limits, Method, Report};
use grundy::search::{self, Key, Keyed};
use grundy::solve::{label, label_explored, reverse_topological_order, Solution};
use grundy::Error;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Random digraphs

/// A small digraph with declared terminal outcomes.
#[derive(Debug, Clone)]
struct Arena {
    n: usize,
    edges: Vec<(u32, u32)>,
    terminal: Vec<Option<Outcome>>,
}

impl Arena {
    fn successors(&self) -> Vec<Vec<usize>> {
        let mut succ = vec![Vec::new(); self.n];
        for &(u, v) in &self.edges {
            succ[u as usize].push(v as usize);
        }
        succ
    }
}

fn arena(max_n: usize, terminals: bool) -> impl Strategy<Value = Arena> {
    (1..=max_n)
        .prop_flat_map(move |n| {
            let vertex = 0..n as u32;
            let terminal = if terminals {
                prop_oneof![
                    6 => Just(None),
                    1 => Just(Some(Outcome::Win)),
                    1 => Just(Some(Outcome::Loss)),
                    1 => Just(Some(Outcome::Draw)),
                ]
                .boxed()
            } else {
                Just(None).boxed()
            };
            (
                Just(n),
                prop::collection::vec((vertex.clone(), vertex), 0..=3 * n),
                prop::collection::vec(terminal, n),
            )
        })
        .prop_map(|(n, edges, terminal)| Arena { n, edges, terminal })
}

/// Arenas with long chains: mostly edges from u down to u − 1..3, a few arbitrary edges
/// (cycles, self-loops), and few declared terminals — so remoteness runs up to ~n.
fn deep_arena(max_n: usize) -> impl Strategy<Value = Arena> {
    (2..=max_n)
        .prop_flat_map(|n| {
            let vertex = 0..n as u32;
            let terminal = prop_oneof![
                20 => Just(None),
                1 => Just(Some(Outcome::Win)),
                1 => Just(Some(Outcome::Loss)),
                1 => Just(Some(Outcome::Draw)),
            ];
            (
                Just(n),
                prop::collection::vec((vertex.clone(), 1u32..=3), n..=2 * n),
                prop::collection::vec((vertex.clone(), vertex), 0..=2),
                prop::collection::vec(terminal, n),
            )
        })
        .prop_map(|(n, down, extra, terminal)| {
            let mut edges: Vec<(u32, u32)> = down
                .into_iter()
                .filter(|&(u, d)| u >= d)
                .map(|(u, d)| (u, u - d))
                .collect();
            edges.extend(extra);
            Arena { n, edges, terminal }
        })
}

/// The reference labelling, by synchronous rounds: in round t, an undecided vertex with a
/// child lost before round t is won in t moves; one whose children are all won before
/// round t is lost in t moves. So a win's remoteness is 1 + the least remoteness of a lost
/// child, a loss's 1 + the greatest of its (won) children. What no round decides is a draw.
/// Declared terminals are settled at round 0 (a declared draw stays a draw) and never
/// expanded; a vertex without moves is lost at round 0.
fn reference_labels(a: &Arena) -> Vec<Value> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Open,
        Won(u32),
        Lost(u32),
        Drawn,
    }
    let succ = a.successors();
    let mut s: Vec<S> = (0..a.n)
        .map(|v| match a.terminal[v] {
            Some(Outcome::Win) => S::Won(0),
            Some(Outcome::Loss) => S::Lost(0),
            Some(Outcome::Draw) => S::Drawn,
            None if succ[v].is_empty() => S::Lost(0),
            None => S::Open,
        })
        .collect();
    for round in 1u32.. {
        let before = s.clone();
        let mut changed = false;
        for v in 0..a.n {
            if before[v] != S::Open {
                continue;
            }
            if succ[v].iter().any(|&c| matches!(before[c], S::Lost(_))) {
                s[v] = S::Won(round);
                changed = true;
            } else if succ[v].iter().all(|&c| matches!(before[c], S::Won(_))) {
                s[v] = S::Lost(round);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    s.into_iter()
        .map(|x| match x {
            S::Won(r) => Value::Win(r),
            S::Lost(r) => Value::Loss(r),
            S::Open | S::Drawn => Value::Draw,
        })
        .collect()
}

/// The value a player gets by choosing the best child, written out: a lost child → win in
/// 1 + the least such remoteness; else a drawn child → draw; else loss in 1 + the greatest.
fn best_over_children(children: &[Value]) -> Value {
    let lost: Vec<u32> = children
        .iter()
        .filter_map(|v| match v {
            Value::Loss(r) => Some(*r),
            _ => None,
        })
        .collect();
    if let Some(&r) = lost.iter().min() {
        return Value::Win(r + 1);
    }
    if children.contains(&Value::Draw) {
        return Value::Draw;
    }
    let r = children
        .iter()
        .map(|v| v.remoteness().unwrap())
        .max()
        .unwrap();
    Value::Loss(r + 1)
}

/// Transitive closure (paths of length ≥ 1), Floyd–Warshall style.
fn reach(a: &Arena) -> Vec<Vec<bool>> {
    let mut r = vec![vec![false; a.n]; a.n];
    for &(u, v) in &a.edges {
        r[u as usize][v as usize] = true;
    }
    for k in 0..a.n {
        let through_k = r[k].clone();
        for row in r.iter_mut() {
            if row[k] {
                for (to, &via) in row.iter_mut().zip(&through_k) {
                    *to |= via;
                }
            }
        }
    }
    r
}

/// A random DAG: edges between distinct vertices, oriented from the higher to the lower
/// rank of a random permutation.
fn dag(max_n: usize) -> impl Strategy<Value = Arena> {
    (1..=max_n)
        .prop_flat_map(|n| {
            let vertex = 0..n as u32;
            (
                Just(n),
                prop::collection::vec((vertex.clone(), vertex), 0..=4 * n),
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
            )
        })
        .prop_map(|(n, raw, rank)| {
            let edges = raw
                .into_iter()
                .filter(|&(i, j)| i != j)
                .map(|(i, j)| (rank[i.max(j) as usize], rank[i.min(j) as usize]))
                .collect();
            Arena {
                n,
                edges,
                terminal: vec![None; n],
            }
        })
}

fn brute_grundy(v: usize, succ: &[Vec<usize>], memo: &mut Vec<Option<u32>>) -> u32 {
    if let Some(g) = memo[v] {
        return g;
    }
    let seen: Vec<u32> = succ[v]
        .iter()
        .map(|&c| brute_grundy(c, succ, memo))
        .collect();
    let g = (0u32..).find(|g| !seen.contains(g)).unwrap();
    memo[v] = Some(g);
    g
}

// ---------------------------------------------------------------------------------------
// Random sums of impartial games, with a brute force of their own

/// The rules of a heap family, as this file understands them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Fam {
    Nim,
    Bounded(u64),
    Sub(Vec<u64>),
    /// Digits d0, d1, …: d_k bit 1 removes k and leaves nothing, bit 2 leaves one heap,
    /// bit 4 leaves two non-empty heaps.
    Octal(Vec<u8>),
}

/// One component of a sum.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Atom {
    Heap(Fam, u64),
    Multiple { k: u64, n: u64, limit: u64 },
    Wythoff(u64, u64),
}

/// Each option of an atom: what it is replaced by.
fn options(atom: &Atom) -> Vec<Vec<Atom>> {
    let mut out = Vec::new();
    match atom {
        Atom::Heap(fam, h) => {
            let h = *h;
            let heap = |x: u64| Atom::Heap(fam.clone(), x);
            match fam {
                Fam::Nim => out.extend((0..h).map(|x| vec![heap(x)])),
                Fam::Bounded(m) => out.extend((1..=h.min(*m)).map(|t| vec![heap(h - t)])),
                Fam::Sub(set) => {
                    out.extend(set.iter().filter(|&&s| s <= h).map(|&s| vec![heap(h - s)]))
                }
                Fam::Octal(digits) => {
                    for (k, &d) in digits.iter().enumerate() {
                        let k = k as u64;
                        if k > h {
                            break;
                        }
                        let rest = h - k;
                        if k >= 1 && d & 1 != 0 && rest == 0 {
                            out.push(vec![]);
                        }
                        if k >= 1 && d & 2 != 0 && rest >= 1 {
                            out.push(vec![heap(rest)]);
                        }
                        if d & 4 != 0 {
                            for a in 1..=rest / 2 {
                                out.push(vec![heap(a), heap(rest - a)]);
                            }
                        }
                    }
                }
            }
        }
        &Atom::Multiple { k, n, limit } => {
            for t in 1..=limit.min(n) {
                out.push(vec![Atom::Multiple {
                    k,
                    n: n - t,
                    limit: (n - t).min(k * t),
                }]);
            }
        }
        &Atom::Wythoff(a, b) => {
            out.extend((1..=a).map(|t| vec![Atom::Wythoff(a - t, b)]));
            out.extend((1..=b).map(|t| vec![Atom::Wythoff(a, b - t)]));
            out.extend((1..=a.min(b)).map(|t| vec![Atom::Wythoff(a - t, b - t)]));
        }
    }
    out
}

/// A sum in canonical form: empty heaps dropped, Wythoff piles ordered, atoms sorted.
fn canonical(mut atoms: Vec<Atom>) -> Vec<Atom> {
    atoms.retain(|a| !matches!(a, Atom::Heap(_, 0)));
    for a in &mut atoms {
        if let Atom::Wythoff(x, y) = a {
            if x > y {
                std::mem::swap(x, y);
            }
        }
    }
    atoms.sort();
    atoms
}

/// Every move of a sum: the canonical position after it.
fn sum_moves(atoms: &[Atom]) -> Vec<Vec<Atom>> {
    let mut out = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        for replacement in options(atom) {
            let mut child: Vec<Atom> = atoms[..i].to_vec();
            child.extend(replacement);
            child.extend_from_slice(&atoms[i + 1..]);
            out.push(canonical(child));
        }
    }
    out
}

#[derive(Default)]
struct Brute {
    atom_grundy: HashMap<Atom, u64>,
    sum_value: HashMap<Vec<Atom>, Value>,
}

impl Brute {
    fn grundy(&mut self, atom: &Atom) -> u64 {
        if let Some(&g) = self.atom_grundy.get(atom) {
            return g;
        }
        let seen: Vec<u64> = options(atom)
            .iter()
            .map(|o| o.iter().fold(0, |acc, a| acc ^ self.grundy(a)))
            .collect();
        let g = (0u64..).find(|g| !seen.contains(g)).unwrap();
        self.atom_grundy.insert(atom.clone(), g);
        g
    }

    fn xor(&mut self, atoms: &[Atom]) -> u64 {
        atoms.iter().fold(0, |acc, a| acc ^ self.grundy(a))
    }

    /// Win/loss with remoteness of a whole (canonical) sum, by plain recursion: no
    /// Sprague–Grundy theory involved.
    fn value(&mut self, atoms: &[Atom]) -> Value {
        if let Some(&v) = self.sum_value.get(atoms) {
            return v;
        }
        let children: Vec<Value> = sum_moves(atoms).iter().map(|c| self.value(c)).collect();
        let v = if children.is_empty() {
            Value::Loss(0)
        } else {
            best_over_children(&children)
        };
        self.sum_value.insert(atoms.to_vec(), v);
        v
    }
}

/// How a part is written, and what it is.
#[derive(Debug, Clone)]
enum PartGen {
    Heaps {
        fam: Fam,
        /// The subtraction set as written (unsorted, repeats allowed).
        written: Vec<u64>,
        /// Write `kayles(…)` / `dawson(…)` for 0.77 / 0.07.
        alias: bool,
        heaps: Vec<u64>,
    },
    Multiple {
        k: u64,
        n: u64,
        limit: u64,
        fibonacci_alias: bool,
    },
    Wythoff(u64, u64),
}

impl PartGen {
    fn text(&self) -> String {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        match self {
            PartGen::Heaps {
                fam,
                written,
                alias,
                heaps,
            } => {
                let family = match fam {
                    Fam::Nim => "nim".to_string(),
                    Fam::Bounded(m) => format!("bounded-nim[{m}]"),
                    Fam::Sub(_) => format!("subtraction[{}]", list(written)),
                    Fam::Octal(d) if *alias && d[..] == [0, 7, 7] => "kayles".into(),
                    Fam::Octal(d) if *alias && d[..] == [0, 0, 7] => "dawson".into(),
                    Fam::Octal(d) => {
                        let frac: String = d[1..].iter().map(u8::to_string).collect();
                        format!("octal[{}.{frac}]", d[0])
                    }
                };
                format!("{family}({})", list(heaps))
            }
            &PartGen::Multiple {
                k,
                n,
                limit,
                fibonacci_alias,
            } => {
                let family = if k == 2 && fibonacci_alias {
                    "fibonacci".to_string()
                } else {
                    format!("multiple[{k}]")
                };
                if limit == n.saturating_sub(1) {
                    format!("{family}({n})")
                } else {
                    format!("{family}({n},{limit})")
                }
            }
            PartGen::Wythoff(a, b) => format!("wythoff({a},{b})"),
        }
    }

    fn atoms(&self) -> Vec<Atom> {
        match self {
            PartGen::Heaps { fam, heaps, .. } => {
                heaps.iter().map(|&h| Atom::Heap(fam.clone(), h)).collect()
            }
            &PartGen::Multiple { k, n, limit, .. } => vec![Atom::Multiple { k, n, limit }],
            &PartGen::Wythoff(a, b) => vec![Atom::Wythoff(a, b)],
        }
    }

    /// A generous bound on the positions of this part, to keep sums small.
    fn size(&self) -> u64 {
        // multisets of positive integers with sum ≤ h, h = 0..=7
        const SPLIT: [u64; 8] = [1, 2, 4, 7, 12, 19, 30, 45];
        match self {
            PartGen::Heaps {
                fam: Fam::Octal(d),
                heaps,
                ..
            } if d.iter().any(|x| x & 4 != 0) => heaps.iter().map(|&h| SPLIT[h as usize]).product(),
            PartGen::Heaps { heaps, .. } => heaps.iter().map(|&h| h + 1).product(),
            PartGen::Multiple { n, .. } => (n + 1) * (n + 2) / 2,
            PartGen::Wythoff(a, b) => (a + 1) * (b + 1),
        }
    }
}

fn heaps(max: u64) -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        1 => Just(Vec::new()),
        8 => prop::collection::vec(0..=max, 1..=2),
    ]
}

fn octal_digits() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop_oneof![
            Just(vec![0, 7, 7]),
            Just(vec![0, 0, 7]),
            Just(vec![0, 1, 3, 7]),
            Just(vec![0, 1, 6]),
            Just(vec![4, 7, 7, 7]),
        ],
        7 => (
            prop_oneof![3 => Just(0u8), 1 => Just(4u8)],
            prop::collection::vec(0u8..8, 1..=3),
        )
            .prop_map(|(d0, mut rest)| {
                rest.insert(0, d0);
                rest
            }),
    ]
    .prop_filter("the code allows a move", |d| {
        d[0] == 4 || d[1..].iter().any(|&x| x != 0)
    })
}

fn part_gen() -> impl Strategy<Value = PartGen> {
    let heap_part = |fam: Fam, written: Vec<u64>, alias: bool, hs: Vec<u64>| PartGen::Heaps {
        fam,
        written,
        alias,
        heaps: hs,
    };
    prop_oneof![
        1 => heaps(5).prop_map(move |hs| heap_part(Fam::Nim, vec![], false, hs)),
        1 => (1u64..=4, heaps(8)).prop_map(move |(m, hs)| heap_part(Fam::Bounded(m), vec![], false, hs)),
        1 => (prop::collection::vec(1u64..=5, 1..=4), heaps(9)).prop_map(move |(written, hs)| {
            let mut set = written.clone();
            set.sort_unstable();
            set.dedup();
            heap_part(Fam::Sub(set), written, false, hs)
        }),
        2 => (octal_digits(), any::<bool>(), heaps(7))
            .prop_map(move |(d, alias, hs)| heap_part(Fam::Octal(d), vec![], alias, hs)),
        1 => (1u64..=3, 0u64..=8, any::<bool>(), any::<prop::sample::Index>(), any::<bool>())
            .prop_map(|(k, n, start, i, fibonacci_alias)| PartGen::Multiple {
                k,
                n,
                limit: if start {
                    n.saturating_sub(1)
                } else {
                    i.index(n as usize + 1) as u64
                },
                fibonacci_alias,
            }),
        1 => (0u64..=4, 0u64..=4).prop_map(|(a, b)| PartGen::Wythoff(a, b)),
    ]
}

fn sum_gen() -> impl Strategy<Value = Vec<PartGen>> {
    prop::collection::vec(part_gen(), 1..=3).prop_filter("small enough to brute-force", |parts| {
        parts
            .iter()
            .map(PartGen::size)
            .fold(1u64, u64::saturating_mul)
            <= 3000
    })
}

/// The canonical atoms of a position written by the library: part `i` must keep the root's
/// family (checked against the root's parsed part), and is read with this file's rules.
fn atoms_of(text: &str, root: &Spec, gens: &[PartGen]) -> Vec<Atom> {
    let spec: Spec = text
        .parse()
        .unwrap_or_else(|e| panic!("the library wrote `{text}`, which does not parse: {e}"));
    assert_eq!(spec.parts.len(), gens.len(), "{text}");
    let mut atoms = Vec::new();
    for ((part, root_part), gen) in spec.parts.iter().zip(&root.parts).zip(gens) {
        assert_eq!(
            part.family.name(),
            root_part.family.name(),
            "`{text}` changed the family of a part of `{root}`"
        );
        let p = &part.position;
        match gen {
            PartGen::Heaps { fam, .. } => {
                atoms.extend(p.iter().map(|&h| Atom::Heap(fam.clone(), h)))
            }
            &PartGen::Multiple { k, .. } => atoms.push(Atom::Multiple {
                k,
                n: p[0],
                limit: p[1],
            }),
            PartGen::Wythoff(..) => atoms.push(Atom::Wythoff(p[0], p[1])),
        }
    }
    canonical(atoms)
}

fn tiny_limits() -> Limits<'static> {
    Limits {
        control: Control {
            max_positions: 1,
            ..Control::default()
        },
        ..Limits::default()
    }
}

/// Checks one report of a sum against the brute force. `explored` says whether the report
/// must come from exploring the whole sum (remoteness known).
fn check_sum_report(
    r: &Report,
    root: &Spec,
    gens: &[PartGen],
    brute: &mut Brute,
    explored: bool,
) -> Result<(), TestCaseError> {
    let text = root.to_string();
    let atoms: Vec<Atom> = gens.iter().flat_map(PartGen::atoms).collect();
    let root_atoms = canonical(atoms.clone());
    let g = brute.xor(&atoms);
    let value = brute.value(&root_atoms);
    let children = sum_moves(&root_atoms);

    prop_assert_eq!(&r.spec.parse::<Spec>().unwrap(), root);
    prop_assert_eq!(r.grundy, Some(g), "{}", text);
    prop_assert_eq!(
        r.outcome == Outcome::Win,
        g != 0,
        "{}: Sprague–Grundy",
        text
    );
    prop_assert_eq!(
        r.outcome,
        value.outcome(),
        "{}: whole-sum brute force",
        text
    );

    // components: every heap and part alone, in order, when there are two or more
    if atoms.len() > 1 {
        let got: Vec<u64> = r.components.iter().map(|c| c.grundy).collect();
        let want: Vec<u64> = atoms.iter().map(|a| brute.grundy(a)).collect();
        prop_assert_eq!(got, want, "{}: components", text);
    } else {
        prop_assert!(r.components.is_empty(), "{}", text);
    }

    // winning moves: exactly the moves to a position of XOR 0, as a multiset
    let mut want_winning: Vec<Vec<Atom>> = children
        .iter()
        .filter(|c| brute.xor(c) == 0)
        .cloned()
        .collect();
    want_winning.sort();
    let mut got_winning: Vec<Vec<Atom>> = r
        .winning_moves
        .iter()
        .map(|s| atoms_of(s, root, gens))
        .collect();
    got_winning.sort();
    prop_assert_eq!(&got_winning, &want_winning, "{}: winning moves", text);

    // every move, with its value, as a multiset
    prop_assert!(!r.moves_truncated, "{}", text);
    let mut want_moves: Vec<(Vec<Atom>, Outcome, u64)> = children
        .iter()
        .map(|c| {
            let cg = brute.xor(c);
            let mine = if cg == 0 { Outcome::Win } else { Outcome::Loss };
            (c.clone(), mine, cg)
        })
        .collect();
    want_moves.sort();
    let mut got_moves: Vec<(Vec<Atom>, Outcome, u64)> = r
        .moves
        .iter()
        .map(|m| (atoms_of(&m.spec, root, gens), m.outcome, m.grundy.unwrap()))
        .collect();
    got_moves.sort();
    prop_assert_eq!(&got_moves, &want_moves, "{}: moves", text);

    if explored {
        prop_assert_eq!(r.method, Method::Retrograde, "{}", text);
        prop_assert_eq!(r.remoteness, value.remoteness(), "{}: remoteness", text);
        for m in &r.moves {
            let child = atoms_of(&m.spec, root, gens);
            let mine = brute.value(&child).parent();
            prop_assert_eq!(m.remoteness, mine.remoteness(), "{}: move {}", text, m.spec);
        }
        if let Some(best) = r.best_move() {
            // the winner hurries, the loser delays: the best move realises the remoteness
            prop_assert_eq!(best.remoteness, r.remoteness, "{}: best move", text);
            prop_assert_eq!(best.outcome, r.outcome, "{}: best move", text);
        }
    } else {
        if !children.is_empty() {
            prop_assert_eq!(r.method, Method::SpragueGrundy, "{}", text);
        }
        if r.method == Method::SpragueGrundy {
            prop_assert_eq!(r.remoteness, None, "{}", text);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Specs for the round trip

fn number() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 0u64..30, 1 => any::<u64>()]
}

fn positive() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 1u64..30, 1 => 1..=u64::MAX]
}

fn octal_code() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("0"), Just("4")],
        prop::collection::vec(0u8..8, 0..=6),
    )
        .prop_filter_map("a valid code", |(d0, frac)| {
            let frac: String = frac.iter().map(u8::to_string).collect();
            let code = format!("{d0}.{frac}");
            format!("octal[{code}](1)")
                .parse::<Spec>()
                .ok()
                .map(|_| code)
        })
}

/// Any part, as the text of a spec (the parser builds the parts).
fn any_part() -> impl Strategy<Value = String> {
    let list = |v: Vec<u64>| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let heaps = || prop::collection::vec(number(), 0..=4);
    prop_oneof![
        heaps().prop_map(move |h| format!("nim({})", list(h))),
        (positive(), heaps()).prop_map(move |(m, h)| format!("bounded-nim[{m}]({})", list(h))),
        (prop::collection::btree_set(positive(), 1..=4), heaps()).prop_map(move |(set, h)| {
            format!(
                "subtraction[{}]({})",
                list(set.into_iter().collect()),
                list(h)
            )
        }),
        (octal_code(), heaps()).prop_map(move |(code, h)| format!("octal[{code}]({})", list(h))),
        (positive(), number(), any::<u64>(), any::<bool>()).prop_map(|(k, n, l, start)| {
            let limit = if start {
                n.saturating_sub(1)
            } else {
                l % n.saturating_add(1)
            };
            format!("multiple[{k}]({n},{limit})")
        }),
        (number(), number()).prop_map(|(a, b)| format!("wythoff({a},{b})")),
        prop::collection::vec(prop_oneof![-30i64..30, any::<i64>()], 0..=5).prop_map(|row| {
            format!(
                "ends({})",
                row.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            )
        }),
        (1u64..=4, 1u64..=4).prop_map(|(a, b)| format!("chomp[{a}x{b}]")),
        prop::sample::select(vec![
            "tictactoe",
            "tictactoe(x../.o./...)",
            "mnk[4,4,3]",
            "mnk[2,3,2](x.o/...)"
        ])
        .prop_map(str::to_string),
    ]
}

fn any_spec() -> impl Strategy<Value = Spec> {
    prop::collection::vec(any_part(), 1..=4).prop_map(|parts| {
        parts
            .join(" + ")
            .parse::<Spec>()
            .expect("generated specs parse")
    })
}

/// Whatever the parser does with `text`, it must not panic; an error must point inside the
/// text; a success must print back to text that parses to the same spec.
fn parse_checked(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<Spec>() {
        Ok(spec) => {
            prop_assert!(!spec.parts.is_empty());
            let printed = spec.to_string();
            prop_assert_eq!(
                printed.parse::<Spec>(),
                Ok(spec),
                "{:?} → {:?}",
                text,
                printed
            );
        }
        Err(e) => {
            let lines: Vec<&str> = text.split('\n').collect();
            prop_assert!(e.line >= 1 && e.line <= lines.len(), "{:?}: {:?}", text, e);
            let width = lines[e.line - 1].chars().count();
            prop_assert!(
                e.column >= 1 && e.column <= width + 1,
                "{:?}: {:?}",
                text,
                e
            );
            prop_assert!(!e.message.is_empty());
        }
    }
    Ok(())
}

const ALPHABET: &[char] = &[
    'a', 'b', 'd', 'e', 'f', 'i', 'k', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', 'w', 'y', '0',
    '1', '2', '4', '7', '9', '[', ']', '(', ')', ',', '.', '+', '^', '_', ' ', '-', '\n',
];

fn valid_spec_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any_spec().prop_map(|s| s.to_string()),
        prop::sample::select(vec![
            "nim(3,3,1)",
            "bounded-nim[3](10,4)",
            "subtraction[1,2,3](10)",
            "octal[0.77](12)",
            "octal[4.07](5,6)",
            "multiple[2](10) + nim(1)",
            "multiple[3](10,4)",
            "wythoff(3,5)",
            "ends(4,-7,2,9,5,2)",
            "kayles(4) + dawson(5) + fibonacci(1e3)",
            "nim(10^18, 1_000)",
        ])
        .prop_map(str::to_string),
    ]
}

// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Retrograde labelling = the round-by-round reference, on every vertex.
    #[test]
    fn labelling_matches_the_reference(
        a in prop_oneof![arena(10, true), deep_arena(14)],
    ) {
        let g = Csr::from_edges(a.n, &a.edges);
        let labels = label(&g, &g.reverse(), |v| a.terminal[v as usize], &Control::default())
            .unwrap();
        let want = reference_labels(&a);
        prop_assert_eq!(labels.len(), a.n);
        let got: Vec<Value> = (0..a.n as u32).map(|v| labels.value(v)).collect();
        prop_assert_eq!(&got, &want);

        // The reference is a fixpoint of "value = best over children", as it must be.
        let succ = a.successors();
        for v in 0..a.n {
            if a.terminal[v].is_none() && !succ[v].is_empty() {
                let children: Vec<Value> = succ[v].iter().map(|&c| want[c]).collect();
                prop_assert_eq!(best_over_children(&children), want[v], "vertex {}", v);
            }
        }
        let mut counts = [0u64; 3];
        for v in &want {
            counts[match v.outcome() {
                Outcome::Win => 0,
                Outcome::Loss => 1,
                Outcome::Draw => 2,
            }] += 1;
        }
        prop_assert_eq!(labels.counts(), counts);
    }

    /// Grundy values on DAGs = a memoised mex; a reverse topological order puts every
    /// vertex after its successors.
    #[test]
    fn grundy_values_match_brute_force_on_dags(a in dag(12)) {
        let g = Csr::from_edges(a.n, &a.edges);
        let got = grundy_values(&g).unwrap();
        let succ = a.successors();
        let mut memo = vec![None; a.n];
        let want: Vec<u32> = (0..a.n).map(|v| brute_grundy(v, &succ, &mut memo)).collect();
        prop_assert_eq!(got, want);

        let order = reverse_topological_order(&g, &g.reverse()).unwrap();
        prop_assert_eq!(order.len(), a.n);
        let mut place = vec![usize::MAX; a.n];
        for (i, &v) in order.iter().enumerate() {
            prop_assert_eq!(place[v as usize], usize::MAX, "vertex {} twice", v);
            place[v as usize] = i;
        }
        for &(u, v) in &a.edges {
            prop_assert!(place[v as usize] < place[u as usize], "edge {} → {}", u, v);
        }
    }

    /// On any graph: Grundy values exist exactly when there is no cycle, and a refusal
    /// names a vertex on or leading into a cycle.
    #[test]
    fn grundy_values_refuse_cycles(a in arena(10, false)) {
        let g = Csr::from_edges(a.n, &a.edges);
        let r = reach(&a);
        let on_cycle: Vec<bool> = (0..a.n).map(|v| r[v][v]).collect();
        match grundy_values(&g) {
            Ok(values) => {
                prop_assert!(!on_cycle.iter().any(|&c| c), "a cycle was not noticed");
                let succ = a.successors();
                let mut memo = vec![None; a.n];
                for (v, &value) in values.iter().enumerate() {
                    prop_assert_eq!(value, brute_grundy(v, &succ, &mut memo));
                }
            }
            Err(Error::Cycle { vertex }) => {
                let v = vertex as usize;
                prop_assert!(v < a.n);
                prop_assert!(
                    on_cycle[v] || (0..a.n).any(|w| r[v][w] && on_cycle[w]),
                    "vertex {} neither lies on nor leads into a cycle", v
                );
            }
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A random sum, solved whole and by Sprague–Grundy, against the brute force.
    #[test]
    fn sums_match_brute_force(gens in sum_gen()) {
        let text = gens.iter().map(PartGen::text).collect::<Vec<_>>().join(" + ");
        let root: Spec = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let mut brute = Brute::default();

        let whole = report::solve(&root, &Limits::default())
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        check_sum_report(&whole, &root, &gens, &mut brute, true)?;

        let by_parts = report::solve(&root, &tiny_limits())
            .map_err(|e| TestCaseError::fail(format!("{text} (tiny limits): {e}")))?;
        check_sum_report(&by_parts, &root, &gens, &mut brute, false)?;
        prop_assert_eq!(by_parts.outcome, whole.outcome);
        prop_assert_eq!(by_parts.grundy, whole.grundy);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Printing a spec and parsing it back gives the same spec.
    #[test]
    fn spec_round_trips(spec in any_spec()) {
        let text = spec.to_string();
        prop_assert_eq!(text.parse::<Spec>(), Ok(spec), "{}", text);
    }

    /// Arbitrary text never panics the parser.
    #[test]
    fn parser_survives_any_text(text in ".*") {
        parse_checked(&text)?;
    }

    /// Text from the spec alphabet: more of it gets past the first character.
    #[test]
    fn parser_survives_spec_alphabet(text in "[a-z0-9\\[\\]\\(\\),.+^_ -]{0,30}") {
        parse_checked(&text)?;
    }

    /// Valid specs with a few characters deleted, inserted or replaced.
    #[test]
    fn parser_survives_edited_specs(
        text in valid_spec_text(),
        edits in prop::collection::vec(
            (0u8..3, any::<prop::sample::Index>(), prop::sample::select(ALPHABET)),
            1..=3,
        ),
    ) {
        let mut chars: Vec<char> = text.chars().collect();
        for (kind, at, c) in edits {
            let i = at.index(chars.len() + 1);
            match kind {
                0 if i < chars.len() => {
                    chars.remove(i);
                }
                1 => chars.insert(i, c),
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        let edited: String = chars.into_iter().collect();
        parse_checked(&edited)?;
    }
}

/// A few inputs that are worth pinning down whatever the generators find.
#[test]
fn parser_edge_cases() {
    for text in [
        "",
        " ",
        "+",
        "nim",
        "nim(",
        "nim)",
        "nim(,)",
        "nim(1,)",
        "nim(-)",
        "nim(1^)",
        "nim(1e)",
        "nim(_)",
        "nim(__1)",
        "nim(1__)",
        "octal[.](1)",
        "octal[0.](1)",
        "octal[4.](1)",
        "octal[0.8](1)",
        "octal[](1)",
        "octal[0.7,0.7](1)",
        "multiple[0](3)",
        "multiple[2](3,4)",
        "multiple[2]()",
        "multiple[2](1,2,3)",
        "subtraction[](3)",
        "ends(-9223372036854775808)",
        "ends(-9223372036854775809)",
        "nim(18446744073709551615)",
        "nim(18446744073709551616)",
        "nim(2^64)",
        "nim(2^63)",
        "nim(10^19)",
        "nim(10^20)",
        "nim(0^0)",
        "nim(1e19)",
        "nim(2e19)",
        "wythoff(1,2,3)",
        "nim(1) +",
        "+ nim(1)",
        "nim(1)\n+\nnim(é)",
        "ñim(1)",
        "nim(１)",
        "bounded-nim[0](3)",
        "bounded-nim[-1](3)",
    ] {
        parse_checked(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
    let parsed: Spec = "octal[4.](1)".parse().unwrap();
    assert_eq!(parsed.to_string(), "octal[4.0](1)");
    assert_eq!(
        "nim(2^63)".parse::<Spec>().unwrap().to_string(),
        "nim(9223372036854775808)"
    );
}

/// Both methods on sums too large to brute-force whole still agree with each other.
#[test]
fn larger_sums_agree_between_methods() {
    for text in [
        "octal[0.77](14) + nim(5,6)",
        "octal[0.07](15) + bounded-nim[3](17) + wythoff(5,7)",
        "subtraction[1,3,4](30) + multiple[2](20)",
        "octal[0.137](12) + octal[4.07](7)",
    ] {
        let spec: Spec = text.parse().unwrap();
        let whole = report::solve(&spec, &Limits::default()).unwrap();
        let parts = report::solve(&spec, &tiny_limits()).unwrap();
        assert_eq!(whole.method, Method::Retrograde, "{text}");
        assert_eq!(parts.method, Method::SpragueGrundy, "{text}");
        assert_eq!(whole.grundy, parts.grundy, "{text}");
        assert_eq!(whole.outcome, parts.outcome, "{text}");
        let sorted = |r: &Report| {
            let mut v = r.winning_moves.clone();
            v.sort();
            v
        };
        assert_eq!(sorted(&whole), sorted(&parts), "{text}");
        let by_spec = |r: &Report| -> BTreeMap<String, (Outcome, Option<u64>)> {
            r.moves
                .iter()
                .map(|m| (m.spec.clone(), (m.outcome, m.grundy)))
                .collect()
        };
        assert_eq!(by_spec(&whole), by_spec(&parts), "{text}");
    }
}

// ---------------------------------------------------------------------------------------
// The whole pipeline (explore → label) on a game made from an arena

/// An arena as a [`Game`]: vertices `n..` are copies of earlier ones (same moves, same
/// declared outcome), merged back by [`Game::canonical`]; some moves name a copy.
#[derive(Debug, Clone)]
struct ArenaGame {
    arena: Arena,
    /// The canonical vertex of every vertex, copies included.
    class: Vec<u32>,
    /// The moves of every vertex, copies included, possibly naming copies.
    moves: Vec<Vec<u32>>,
}

impl Game for ArenaGame {
    type Position = u32;

    fn moves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.moves[*pos as usize]);
    }

    fn terminal(&self, pos: &u32) -> Option<Outcome> {
        self.arena.terminal[self.class[*pos as usize] as usize]
    }

    fn canonical(&self, pos: &u32) -> u32 {
        self.class[*pos as usize]
    }
}

/// The proof search's view of an arena game: a vertex's key is its canonical vertex, and
/// a move's priority a scramble of its ends, so that the order tried is not move order.
impl Keyed for ArenaGame {
    fn key(&self, pos: &u32) -> Key {
        Key::from_slice(&[u64::from(self.class[*pos as usize])])
    }

    fn priority(&self, from: &u32, to: &u32) -> i32 {
        ((from * 7 + to * 13) % 5) as i32
    }
}

impl IndexedGame for ArenaGame {
    fn index_bound(&self) -> u64 {
        self.arena.n as u64
    }

    fn index(&self, pos: &u32) -> u64 {
        u64::from(self.class[*pos as usize])
    }
}

fn arena_game() -> impl Strategy<Value = (ArenaGame, u32)> {
    prop_oneof![arena(9, true), deep_arena(12)]
        .prop_flat_map(|a| {
            let n = a.n;
            (
                Just(a),
                prop::collection::vec(0..n as u32, 0..=4),
                prop::collection::vec(any::<bool>(), 40),
                any::<prop::sample::Index>(),
            )
        })
        .prop_map(|(arena, copies, redirect, root)| {
            let n = arena.n;
            let mut class: Vec<u32> = (0..n as u32).collect();
            class.extend(&copies);
            // the copy of each vertex, if it has one
            let copy_of = |v: u32| copies.iter().position(|&c| c == v).map(|i| (n + i) as u32);
            let succ = arena.successors();
            let mut flips = redirect.iter().cycle();
            let mut moves: Vec<Vec<u32>> = Vec::new();
            for v in class.iter().map(|&c| c as usize) {
                moves.push(
                    succ[v]
                        .iter()
                        .map(|&c| {
                            let c = c as u32;
                            match copy_of(c) {
                                Some(copy) if *flips.next().unwrap() => copy,
                                _ => c,
                            }
                        })
                        .collect(),
                );
            }
            let root = root.index(class.len()) as u32;
            (
                ArenaGame {
                    arena,
                    class,
                    moves,
                },
                root,
            )
        })
}

/// The canonical vertices reachable from `root` without expanding declared terminals.
fn reachable(game: &ArenaGame, root: u32) -> BTreeSet<u32> {
    let succ = game.arena.successors();
    let start = game.class[root as usize];
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(v) = stack.pop() {
        if game.arena.terminal[v as usize].is_some() {
            continue;
        }
        for &c in &succ[v as usize] {
            if seen.insert(c as u32) {
                stack.push(c as u32);
            }
        }
    }
    seen
}

fn check_solution(
    game: &ArenaGame,
    root: u32,
    solution: &Solution<u32>,
) -> Result<(), TestCaseError> {
    let want = reference_labels(&game.arena);
    let succ = game.arena.successors();
    let Explored { positions, graph } = &solution.explored;
    prop_assert_eq!(positions[0], game.class[root as usize], "the root is id 0");
    let got: BTreeSet<u32> = positions.iter().copied().collect();
    prop_assert_eq!(got.len(), positions.len(), "a position twice");
    prop_assert_eq!(got, reachable(game, root));
    for (id, &v) in positions.iter().enumerate() {
        let id = id as u32;
        prop_assert_eq!(solution.labels.value(id), want[v as usize], "vertex {}", v);
        let children: Vec<u32> = graph
            .successors(id)
            .iter()
            .map(|&c| positions[c as usize])
            .collect();
        if game.arena.terminal[v as usize].is_some() {
            prop_assert!(children.is_empty(), "terminal {} expanded", v);
        } else {
            let moves: Vec<u32> = succ[v as usize].iter().map(|&c| c as u32).collect();
            prop_assert_eq!(children, moves, "moves of {}", v);
        }
        match solution.best_move(id) {
            None => prop_assert!(graph.successors(id).is_empty()),
            Some(best) => {
                let value = solution.labels.value(id);
                if game.arena.terminal[v as usize].is_none() {
                    prop_assert_eq!(solution.labels.value(best).parent(), value, "best of {}", v);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Exploring (hashed and indexed) then labelling an arena game labels every reachable
    /// position as the reference does, merging copies and leaving terminals unexpanded.
    #[test]
    fn explore_and_label_an_arena_game((game, root) in arena_game()) {
        let control = Control::default();
        let hashed = label_explored(&game, explore(&game, &root, &control).unwrap(), &control)
            .unwrap();
        check_solution(&game, root, &hashed)?;
        let indexed =
            label_explored(&game, explore_indexed(&game, &root, &control).unwrap(), &control)
                .unwrap();
        check_solution(&game, root, &indexed)?;
    }

    /// The proof search values the root and each of its moves as the round-by-round
    /// reference labels the whole arena — cycles, self-loops, declared wins, losses and
    /// draws, copies merged — with a table so small that entries are replaced.
    #[test]
    fn the_proof_search_values_a_root_and_its_moves_as_the_labelling(
        (game, root) in arena_game(),
        memory in 96u64..4096,
    ) {
        let want = reference_labels(&game.arena);
        let value = |v: u32| want[game.class[v as usize] as usize].outcome();
        for method in [search::Method::ProofNumber, search::Method::AlphaBeta] {
            let options = search::Options { max_nodes: 10_000_000, memory, method };
            let got = search::search(&game, &root, &options, &Control::default()).unwrap();
            prop_assert_eq!(got.outcome, value(root), "{:?} root {}", method, root);
            if game.terminal(&root).is_some() {
                prop_assert!(got.moves.is_empty());
            } else {
                let moves = &game.moves[root as usize];
                prop_assert_eq!(got.moves.len(), moves.len());
                for (m, &c) in got.moves.iter().zip(moves) {
                    prop_assert_eq!(*m, value(c).negate(), "{:?} root {} move to {}", method, root, c);
                }
            }
        }
    }

    /// IOI 1996 "A Game" on random rows against a brute force of the best total.
    #[test]
    fn ends_matches_brute_force(row in prop::collection::vec(-20i64..=20, 0..=9)) {
        fn best(row: &[i64]) -> i64 {
            // the most the player to move can collect from `row`
            if row.is_empty() {
                return 0;
            }
            let rest: i64 = row.iter().sum();
            let left = rest - best(&row[1..]);
            let right = rest - best(&row[..row.len() - 1]);
            left.max(right)
        }
        let text = format!(
            "ends({})",
            row.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        );
        let r = report::solve(&text.parse().unwrap(), &Limits::default()).unwrap();
        let total: i64 = row.iter().sum();
        let b = best(&row);
        prop_assert_eq!(r.scores, Some([b, total - b]), "{}", text);
        prop_assert_eq!(r.method, Method::Minimax);
        let outcome = match (2 * b - total).signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        prop_assert_eq!(r.outcome, outcome, "{}", text);
        // each move: the totals after it, under best play from there
        let mut children: Vec<Vec<i64>> = Vec::new();
        if !row.is_empty() {
            children.push(row[1..].to_vec());
            if row.len() > 1 {
                children.push(row[..row.len() - 1].to_vec());
            }
        }
        prop_assert_eq!(r.moves.len(), children.len(), "{}", text);
        let mut winning = Vec::new();
        for (m, child) in r.moves.iter().zip(&children) {
            let parsed: Spec = m.spec.parse().unwrap();
            let want = format!(
                "ends({})",
                child.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            );
            prop_assert_eq!(parsed.to_string(), want);
            let gain = total - child.iter().sum::<i64>();
            let other = best(child);
            let mover = gain + child.iter().sum::<i64>() - other;
            prop_assert_eq!(m.scores, Some([mover, other]), "{}: {}", text, m.spec);
            if outcome == Outcome::Win && mover == b {
                winning.push(m.spec.clone());
            }
        }
        prop_assert_eq!(&r.winning_moves, &winning, "{}", text);
    }
}

// ---------------------------------------------------------------------------------------
// Limits, cancellation, huge positions

/// `max_positions` allows exactly that many positions.
#[test]
fn exploration_budget_is_exact() {
    use grundy::games::Multiple;
    for n in [1u64, 5, 12, 30] {
        let game = Multiple {
            k: 2,
            max_stones: n,
        };
        let root = (n, n - 1);
        let full = explore(&game, &root, &Control::default()).unwrap().len() as u64;
        let with = |max_positions: u64| Control {
            max_positions,
            ..Control::default()
        };
        assert_eq!(
            explore(&game, &root, &with(full)).unwrap().len() as u64,
            full
        );
        assert_eq!(
            explore_indexed(&game, &root, &with(full)).unwrap().len() as u64,
            full
        );
        if full > 1 {
            // Past the budget of positions, which raising lifts.
            assert!(matches!(
                explore(&game, &root, &with(full - 1)),
                Err(Error::OverLimit {
                    limit: grundy::Limit::Positions,
                    ..
                })
            ));
            assert!(matches!(
                explore_indexed(&game, &root, &with(full - 1)),
                Err(Error::OverLimit {
                    limit: grundy::Limit::Positions,
                    ..
                })
            ));
        }
    }
}

#[test]
fn a_cancelled_computation_stops() {
    let stop = AtomicBool::new(true);
    let control = Control::cancelled_by(&stop);
    let game = grundy::games::Multiple {
        k: 2,
        max_stones: 10,
    };
    assert_eq!(
        explore(&game, &(10, 9), &control).err(),
        Some(Error::Cancelled)
    );
    let g = Csr::from_edges(2, &[(0, 1)]);
    assert_eq!(
        label(&g, &g.reverse(), |_| None, &control).err(),
        Some(Error::Cancelled)
    );
    let limits = Limits {
        control,
        ..Limits::default()
    };
    assert_eq!(
        report::solve(&"octal[0.77](9)".parse().unwrap(), &limits).err(),
        Some(Error::Cancelled)
    );
}

#[test]
fn empty_graphs() {
    let g = Csr::from_edges(0, &[]);
    assert!(g.is_empty());
    let labels = label(&g, &g.reverse(), |_| None, &Control::default()).unwrap();
    assert!(labels.is_empty());
    assert_eq!(grundy_values(&g).unwrap(), Vec::<u32>::new());
    assert_eq!(
        reverse_topological_order(&g, &g.reverse()).unwrap(),
        Vec::<u32>::new()
    );
}

/// Heaps far too large to explore are judged by formula: Nim and bounded Nim, with every
/// winning move found by checking each possible take here.
#[test]
fn huge_heaps_are_judged_by_formula() {
    let e18 = 1_000_000_000_000_000_000u64;
    let r = report::solve(&"nim(10^18, 1)".parse().unwrap(), &Limits::default()).unwrap();
    assert_eq!(r.method, Method::SpragueGrundy);
    assert_eq!(r.grundy, Some(e18 ^ 1));
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.winning_moves, ["nim(1,1)"]);
    assert!(r.moves_truncated);

    let r = report::solve(&"nim(10^18, 10^18)".parse().unwrap(), &Limits::default()).unwrap();
    assert_eq!(r.outcome, Outcome::Loss);
    assert!(r.winning_moves.is_empty());
    assert!(r.moves_truncated);
    assert!(!r.moves.is_empty(), "a lost position still shows a move");
    for m in &r.moves {
        assert_eq!(m.outcome, Outcome::Loss, "{}", m.spec);
    }

    for (m, heaps) in [
        (3u64, vec![e18, 5]),
        (7, vec![e18 + 3, 12, 1]),
        (1, vec![e18, e18 + 1]),
        (1000, vec![u64::MAX, 17]),
    ] {
        let list = heaps
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let text = format!("bounded-nim[{m}]({list})");
        let r = report::solve(&text.parse().unwrap(), &Limits::default()).unwrap();
        let g = heaps.iter().fold(0, |acc, h| acc ^ (h % (m + 1)));
        assert_eq!(r.grundy, Some(g), "{text}");
        assert_eq!(r.outcome == Outcome::Win, g != 0, "{text}");
        let mut want = Vec::new();
        for (j, &h) in heaps.iter().enumerate() {
            for t in 1..=m.min(h) {
                let mut after = heaps.clone();
                after[j] = h - t;
                if after.iter().fold(0, |acc, x| acc ^ (x % (m + 1))) == 0 {
                    let list = after
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(",");
                    want.push(format!("bounded-nim[{m}]({list})"));
                }
            }
        }
        let mut got = r.winning_moves.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{text}");
    }

    // Kayles that large is answered by its proved period (12 from heap 71), checked
    // here against the naive table extended by that period.
    let naive = HeapFamily::Octal("0.77".parse().unwrap())
        .table(200, &Control::default())
        .unwrap();
    let n = 10u64.pow(12) + 7;
    let r = report::solve(
        &format!("octal[0.77]({n})").parse().unwrap(),
        &Limits::default(),
    )
    .unwrap();
    let g = u64::from(naive[(71 + (n - 71) % 12) as usize]);
    assert_eq!(r.grundy, Some(g));
    assert_eq!(r.method, Method::SpragueGrundy);
    // A splitting game with no period within the proof budget, too large to tabulate, is
    // refused with an estimate.
    let limits = Limits {
        max_proof_heaps: 5000,
        ..Limits::default()
    };
    let r = report::solve(&"octal[0.6](10^13)".parse().unwrap(), &limits);
    // Past the proof budget of heaps: the heaps that would answer are the figure.
    assert!(
        matches!(
            r,
            Err(Error::OverLimit {
                limit: grundy::Limit::ProofHeaps,
                wanted: Some(10_000_000_000_001),
                ..
            })
        ),
        "{r:?}"
    );
    // A score game cannot be part of a sum.
    let r = report::solve(&"ends(1,2) + nim(1)".parse().unwrap(), &Limits::default());
    assert!(matches!(r, Err(Error::Unsupported(_))), "{r:?}");
}

// ---------------------------------------------------------------------------------------
// Known library bugs, pinned (run with `cargo test -p grundy -- --ignored`)

const MAX: u64 = u64::MAX;

/// With m = 2^64 − 1 every heap can be taken whole, so bounded Nim is Nim: the value of a
/// heap h is h mod (m + 1) = h, also for h = 2^64 − 1.
#[test]
fn bounded_nim_with_the_largest_m_is_nim() {
    assert_eq!(HeapFamily::BoundedNim(MAX).closed_form(MAX), Some(MAX));
    let r = report::solve(
        &format!("bounded-nim[{MAX}]({MAX})").parse().unwrap(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(r.grundy, Some(MAX));
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.winning_moves, [format!("bounded-nim[{MAX}](0)")]);
}

/// The Sprague–Grundy path looks for bounded Nim's winning moves with u64 arithmetic that
/// overflows when m is near 2^64 — even on one-token heaps.
#[test]
fn bounded_nim_with_a_huge_m_on_the_grundy_path() {
    let m = MAX - 1;
    // Explored whole, the answer is right; by Sprague–Grundy it must be the same.
    let spec: Spec = format!("bounded-nim[{m}](5,7)").parse().unwrap();
    let whole = report::solve(&spec, &Limits::default()).unwrap();
    assert_eq!(whole.winning_moves, [format!("bounded-nim[{m}](5,5)")]);
    let parts = report::solve(&spec, &tiny_limits()).unwrap();
    assert_eq!(parts.grundy, Some(5 ^ 7));
    assert_eq!(parts.winning_moves, whole.winning_moves);

    // Too large to explore: m ≥ every heap, so this is Nim.
    let spec: Spec = format!("bounded-nim[{m}](1, 10^13)").parse().unwrap();
    let r = report::solve(&spec, &Limits::default()).unwrap();
    let e13 = 10_000_000_000_000u64;
    assert_eq!(r.grundy, Some(1 ^ e13));
    assert_eq!(r.winning_moves, [format!("bounded-nim[{m}](1,1)")]);
}

/// Requests far past the limits must be refused with an estimate, not crash while
/// estimating.
#[test]
fn huge_requests_are_refused_not_panicked() {
    let e13 = 10_000_000_000_000u64;
    for text in [
        format!("wythoff(0,{e13})"),
        format!("wythoff(3,{e13}) + nim(1)"),
        format!("multiple[2]({MAX})"),
        format!("multiple[{e13}]({MAX})"),
        format!("octal[0.77]({MAX})"),
    ] {
        let spec: Spec = text.parse().unwrap();
        let r = std::panic::catch_unwind(|| report::solve(&spec, &Limits::default()));
        match r {
            Err(_) => panic!("report::solve panicked on `{text}`"),
            Ok(Err(e)) if e.is_too_large() => {}
            Ok(Ok(r)) => assert_eq!(r.outcome == Outcome::Win, r.grundy != Some(0), "{text}"),
            Ok(Err(e)) => panic!("`{text}`: unexpected error {e:?}"),
        }
    }
    for family in ["octal[0.77]", "multiple[2]"] {
        let r = std::panic::catch_unwind(|| report::table(family, MAX, &Limits::default()));
        match r {
            Err(_) => panic!("report::table panicked on `{family}` to 2^64-1"),
            Ok(r) => assert!(
                matches!(&r, Err(report::TableError::Solve(e)) if e.is_too_large()),
                "{family}: {r:?}"
            ),
        }
    }
}

/// An underscore is a digit separator, not a number: the error should say a number (or an
/// exponent) was expected, not that the number is too large.
#[test]
fn an_underscore_is_not_a_number() {
    for text in ["nim(_)", "nim(1^_)", "nim(1e_)", "octal[_](3)"] {
        let e = text.parse::<Spec>().unwrap_err();
        assert!(!e.message.contains("too large"), "{text}: {e}");
        assert!(e.message.contains("expected"), "{text}: {e}");
    }
}
