//! Random small tiered games (cycles inside tiers for win/loss games, gains and moves that
//! keep the turn for score games): the distributed solver on 1 to 4 workers in one
//! process, with slices of 64 ranks so that every tier is shared, writes the tablebase
//! the single-machine solver writes, byte for byte, and returns the same summaries.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use grundy::explore::Control;
use grundy::game::Outcome;
use grundy::tier::{Child, Node, TierGame};
use grundy_dist::{solve, Config};
use grundy_tablebase::{tier_file_name, Tablebase};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Random {
    scored: bool,
    /// `nodes[t][r]`: `Err(x)` an end (outcome `x mod 3`, or `x` points), else the moves.
    nodes: Vec<Vec<Result<Vec<Child>, i32>>>,
}

impl TierGame for Random {
    fn id(&self) -> String {
        format!("random[{}]", self.nodes.len())
    }
    fn ranking_version(&self) -> u32 {
        1
    }
    fn scored(&self) -> bool {
        self.scored
    }
    fn tier_count(&self) -> u32 {
        self.nodes.len() as u32
    }
    fn tier_size(&self, tier: u32) -> u64 {
        self.nodes[tier as usize].len() as u64
    }
    fn root(&self) -> (u32, u64) {
        (0, 0)
    }
    fn visit(
        &self,
        tier: u32,
        ranks: Range<u64>,
        want: &(dyn Fn(u64) -> bool + Sync),
        each: &mut dyn FnMut(u64, Node<'_>),
    ) {
        for r in ranks.filter(|&r| want(r)) {
            match &self.nodes[tier as usize][r as usize] {
                Ok(moves) => each(r, Node::Moves(moves)),
                Err(x) if self.scored => each(r, Node::Final(*x)),
                Err(x) => each(
                    r,
                    Node::Over(
                        [Outcome::Loss, Outcome::Win, Outcome::Draw][x.rem_euclid(3) as usize],
                    ),
                ),
            }
        }
    }
}

/// Up to 4 tiers of up to 300 ranks, each position an end (one in six) or up to 4 moves,
/// mostly to a nearby rank so that the start reaches many.
fn random(scored: bool) -> impl Strategy<Value = Random> {
    (
        1usize..5,
        proptest::collection::vec(1usize..300, 4),
        any::<u64>(),
    )
        .prop_map(move |(tiers, sizes, seed)| {
            let mut x = seed | 1;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let sizes = &sizes[..tiers];
            let mut nodes = Vec::new();
            for (t, &size) in sizes.iter().enumerate() {
                let mut tier = Vec::new();
                for r in 0..size {
                    if next() % 6 == 0 {
                        tier.push(Err((next() % 7) as i32 - 3));
                        continue;
                    }
                    let mut moves = Vec::new();
                    for _ in 0..next() % 5 {
                        let ct = (t + (next() % 3) as usize).min(tiers - 1);
                        let cr = if ct == t {
                            (r + 1 + (next() % 40) as usize) % size
                        } else {
                            (next() % sizes[ct] as u64) as usize
                        };
                        if scored && ct == t && cr <= r {
                            continue;
                        }
                        moves.push(Child {
                            tier: ct as u32,
                            rank: cr as u64,
                            gain: if scored { (next() % 7) as i32 - 3 } else { 0 },
                            again: scored && next() % 3 == 0,
                        });
                    }
                    tier.push(Ok(moves));
                }
                nodes.push(tier);
            }
            Random { scored, nodes }
        })
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The moves of the positions the start reaches, by a plain search of the game's lists.
fn reached_moves(game: &Random) -> u64 {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(0u32, 0u64)];
    let mut moves = 0;
    while let Some((t, r)) = stack.pop() {
        if !seen.insert((t, r)) {
            continue;
        }
        if let Ok(children) = &game.nodes[t as usize][r as usize] {
            moves += children.len() as u64;
            stack.extend(children.iter().map(|c| (c.tier, c.rank)));
        }
    }
    moves
}

fn check(game: Random) -> Result<(), TestCaseError> {
    let moves = reached_moves(&game);
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("single");
    let mut store = Tablebase::open(&one, &game)
        .unwrap()
        .with_block_records(64)
        .unwrap();
    let expected = grundy::tier::solve(
        &game,
        &mut store,
        &grundy::tier::Options {
            threads: 1,
            ..Default::default()
        },
        &|_| {},
        &Control::default(),
    );
    let game = Arc::new(game);
    // Workers sharing their arrays in place, and (every rank of another worker a
    // message, as between processes) not, the child tiers' records abroad told whole or
    // asked for.
    for (workers, share, told) in
        (1..=4).flat_map(|w| [(w, true, true), (w, false, true), (w, false, false)])
    {
        if workers == 1 && !share {
            continue;
        }
        let dir = tmp.path().join(format!("w{workers}-{share}-{told}"));
        let config = Config {
            workers,
            slice: 64,
            batch_slices: 1 + workers % 2,
            // Rounds that stop within a slice (after 8 ranks), as on quixo[4].
            kept_moves: 1 << (2 * workers),
            told_bytes: if told { u64::MAX } else { 0 },
            share,
            ..Config::default()
        };
        let got = solve(Arc::new(Arc::clone(&game)), &dir, &config, Arc::new(|_| {}));
        match (&expected, got) {
            (Ok(e), Ok(g)) => {
                prop_assert_eq!(
                    e,
                    &g.solved,
                    "{} workers, sharing {}, told {}",
                    workers,
                    share,
                    told
                );
                prop_assert_eq!(
                    g.edges,
                    moves,
                    "{} workers, sharing {}, told {}: moves",
                    workers,
                    share,
                    told
                );
                prop_assert!(
                    files(&one) == files(&dir),
                    "{} workers, sharing {}, told {}: the files differ",
                    workers,
                    share,
                    told
                );
            }
            (Err(_), Err(_)) => {}
            (e, g) => prop_assert!(
                false,
                "{} workers, sharing {}, told {}: single {:?}, distributed {:?}",
                workers,
                share,
                told,
                e,
                g.map(|g| g.solved)
            ),
        }
    }
    // Resumed from the single machine's tablebase without the start's tier: the tiers it
    // moves into are handed out by their writers a round of blocks at a time, and the
    // tier solved again is the same file.
    if expected.is_ok() {
        for (workers, share) in [(3, true), (2, false)] {
            let dir = tmp.path().join(format!("resume-{workers}-{share}"));
            std::fs::create_dir(&dir).unwrap();
            for (name, bytes) in files(&one) {
                if name != tier_file_name(0) {
                    std::fs::write(dir.join(&name), bytes).unwrap();
                }
            }
            let config = Config {
                workers,
                slice: 64,
                batch_slices: 1,
                share,
                ..Config::default()
            };
            let got = solve(Arc::new(Arc::clone(&game)), &dir, &config, Arc::new(|_| {}));
            prop_assert!(
                got.is_ok(),
                "resumed on {} workers: {:?}",
                workers,
                got.err()
            );
            prop_assert!(
                files(&one) == files(&dir),
                "resumed on {} workers, sharing {}: the files differ",
                workers,
                share
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn win_loss_games_equal_the_single_machine(game in random(false)) {
        check(game)?;
    }

    #[test]
    fn score_games_equal_the_single_machine(game in random(true)) {
        check(game)?;
    }
}
