//! Moves that keep the turn, in the model: a child's value counts for the parent
//! unnegated when the same player moves again. Retrograde labelling (right on cycles)
//! and minimax (score games) against brute force on random small games.

use grundy::explore::{explore, Control};
use grundy::game::{Game, Outcome, Player, ScoreGame, Value};
use grundy::search::{self, Key, Keyed};
use grundy::solve::{label_explored, minimax};
use proptest::prelude::*;

/// A random game: vertex v belongs to `owner[v]`; its moves go to `moves[v]`; a move to a
/// vertex of the same owner keeps the turn.
#[derive(Debug, Clone)]
struct Random {
    owner: Vec<Player>,
    moves: Vec<Vec<u32>>,
    gain: Vec<Vec<i64>>,
}

impl Game for Random {
    type Position = u32;
    fn moves(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend(&self.moves[*p as usize]);
    }
    fn to_move(&self, p: &u32) -> Player {
        self.owner[*p as usize]
    }
    fn alternates(&self) -> bool {
        false
    }
}

impl Keyed for Random {
    fn key(&self, p: &u32) -> Key {
        Key::from_slice(&[u64::from(*p)])
    }
}

impl ScoreGame for Random {
    fn gain(&self, from: &u32, to: &u32) -> i64 {
        let i = self.moves[*from as usize]
            .iter()
            .position(|t| t == to)
            .unwrap();
        self.gain[*from as usize][i]
    }
}

/// Who wins from each vertex, by the textbook fixpoint on the whole graph: the first
/// player's attractor to the vertices where the second is stuck, and the reverse;
/// everything else is drawn. With the outcome for the player to move there.
fn brute(g: &Random) -> Vec<Outcome> {
    let n = g.owner.len();
    let mut winner: Vec<Option<Player>> = vec![None; n];
    loop {
        let mut changed = false;
        for v in 0..n {
            if winner[v].is_some() {
                continue;
            }
            let me = g.owner[v];
            let succ = &g.moves[v];
            let w = if succ.is_empty() {
                Some(me.other())
            } else if succ.iter().any(|&c| winner[c as usize] == Some(me)) {
                Some(me)
            } else if succ.iter().all(|&c| winner[c as usize] == Some(me.other())) {
                Some(me.other())
            } else {
                None
            };
            if w.is_some() {
                winner[v] = w;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|v| match winner[v] {
            None => Outcome::Draw,
            Some(p) if p == g.owner[v] => Outcome::Win,
            Some(_) => Outcome::Loss,
        })
        .collect()
}

fn game(acyclic: bool) -> impl Strategy<Value = Random> {
    (2usize..9).prop_flat_map(move |n| {
        (
            prop::collection::vec(any::<bool>(), n),
            prop::collection::vec(prop::collection::vec((0u32..n as u32, -5i64..6), 0..4), n),
        )
            .prop_map(move |(owners, edges)| {
                let owner = owners
                    .into_iter()
                    .map(|b| if b { Player::First } else { Player::Second })
                    .collect();
                let mut moves = Vec::new();
                let mut gain = Vec::new();
                for (v, list) in edges.into_iter().enumerate() {
                    let mut m: Vec<u32> = Vec::new();
                    let mut g = Vec::new();
                    for (t, x) in list {
                        // Acyclic: only moves to larger vertices.
                        if (!acyclic || t as usize > v) && !m.contains(&t) {
                            m.push(t);
                            g.push(x);
                        }
                    }
                    moves.push(m);
                    gain.push(g);
                }
                Random { owner, moves, gain }
            })
    })
}

/// Best total margin for the player to move at v, by plain recursion (acyclic games).
fn margin(g: &Random, v: u32) -> i64 {
    let succ = &g.moves[v as usize];
    if succ.is_empty() {
        return 0;
    }
    succ.iter()
        .zip(&g.gain[v as usize])
        .map(|(&c, &x)| {
            let rest = margin(g, c);
            if g.owner[c as usize] == g.owner[v as usize] {
                x + rest
            } else {
                x - rest
            }
        })
        .max()
        .unwrap()
}

proptest! {
    #[test]
    fn labelling_with_turns_kept_matches_brute_force(g in game(false)) {
        let want = brute(&g);
        for root in 0..g.owner.len() as u32 {
            let explored = explore(&g, &root, &Control::default()).unwrap();
            let positions = explored.positions.clone();
            let solution = label_explored(&g, explored, &Control::default()).unwrap();
            for (id, &p) in positions.iter().enumerate() {
                prop_assert_eq!(
                    solution.labels.value(id as u32).outcome(),
                    want[p as usize],
                    "root {} vertex {}: {:?}", root, p, g
                );
            }
            // A won root has at least one move to make (remoteness 0 is a position without
            // moves, which is lost).
            if let Value::Win(r) = solution.root_value() {
                prop_assert!(r >= 1);
            }
        }
    }

    /// The proof search on games whose moves may keep the turn, with cycles: the root's
    /// value and each move's (for the player who makes it) as the fixpoint says.
    #[test]
    fn the_proof_search_with_turns_kept_matches_brute_force(g in game(false)) {
        let want = brute(&g);
        for (root, method) in (0..g.owner.len() as u32)
            .flat_map(|r| [(r, search::Method::ProofNumber), (r, search::Method::AlphaBeta)])
        {
            let options = search::Options { max_nodes: 10_000_000, memory: 1 << 12, method };
            let got = search::search(&g, &root, &options, &Control::default()).unwrap();
            prop_assert_eq!(got.outcome, want[root as usize], "{:?} root {}: {:?}", method, root, g);
            let moves = &g.moves[root as usize];
            prop_assert_eq!(got.moves.len(), moves.len());
            for (m, &c) in got.moves.iter().zip(moves) {
                let same = g.owner[c as usize] == g.owner[root as usize];
                let mine = if same { want[c as usize] } else { want[c as usize].negate() };
                prop_assert_eq!(*m, mine, "root {} move to {}: {:?}", root, c, g);
            }
        }
    }

    #[test]
    fn minimax_with_turns_kept_matches_recursion(g in game(true)) {
        let explored = explore(&g, &0, &Control::default()).unwrap();
        let values = minimax(&g, &explored).unwrap().margin;
        for (id, &p) in explored.positions.iter().enumerate() {
            prop_assert_eq!(values[id], i128::from(margin(&g, p)), "vertex {}: {:?}", p, g);
        }
    }
}
