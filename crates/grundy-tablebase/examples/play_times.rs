//! How long the engine takes to answer each move of games played against it, with a
//! book (or a tablebase) read first, as `grundy play SPEC --tablebase DIR` plays:
//! each answer is the person's move solved (every reply valued) and the engine's move
//! then solved, one search table kept through the game.
//!
//! ```text
//! cargo run --release -p grundy-tablebase --example play_times -- SPEC DIR [GAMES] [BEST%] [SEED] [THREADS] [SIDE]
//! ```
//!
//! GAMES games (default 20), the engine first in the even ones and second in the odd ones
//! (SIDE `both`, the default; `first` or `second`: that side in all), on THREADS (default 2);
//! the person plays the best move (as the engine would) with probability BEST% (default
//! 50), else a move drawn at random (seeded by SEED, default 1). DIR `-` plays without a
//! book. Prints each game's slowest answer, then every answer's median, 90th percentile and
//! maximum, and how many took a second or more.

use std::path::Path;
use std::time::Instant;

use grundy::play::Match;
use grundy::report::{Limits, Play, SearchCache};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: play_times SPEC DIR [GAMES] [BEST%] [SEED] [THREADS] [SIDE]");
        std::process::exit(2);
    }
    let spec: grundy::games::Spec = args[0].parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let number = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("not a number: {a}");
                std::process::exit(2)
            })
        })
    };
    let (games, best, mut seed, threads) =
        (number(2, 20), number(3, 50), number(4, 1), number(5, 2));
    let tablebases = if args[1] == "-" {
        Vec::new()
    } else {
        let part = spec.single().expect("one board");
        let tiers = part.family.tiers().expect("a tiered board");
        let store = grundy_tablebase::Tablebase::open(Path::new(&args[1]), tiers.game())
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            });
        vec![grundy::report::Tablebase::new(tiers.game(), store)]
    };
    let mut random = move || {
        // xorshift64
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut all = Vec::new();
    for g in 0..games {
        let cache = SearchCache::new();
        let limits = Limits {
            tablebases: &tablebases,
            search_cache: Some(&cache),
            search_threads: threads as usize,
            ..Limits::default()
        };
        let engine_first = match args.get(6).map(String::as_str) {
            Some("first") => true,
            Some("second") => false,
            _ => g % 2 == 0,
        };
        let started = Instant::now();
        let mut game = Match::new_in(spec.clone(), Play::Normal, !engine_first, &limits)
            .expect("the start is solved");
        let mut times = vec![started.elapsed().as_secs_f64()];
        let mut line = String::new();
        let mut slowest = (0.0, String::new());
        while game.verdict().is_none() {
            let started = Instant::now();
            if game.human_to_move() {
                let moves = &game.report().moves;
                let m = if random() % 100 < best {
                    game.report().best_move().cloned()
                } else {
                    moves.get((random() % moves.len() as u64) as usize).cloned()
                }
                .expect("a move");
                line.push_str(&format!("{} ", m.name));
                game.play(&m, &limits).expect("solved");
            }
            if let Some(played) = game.engine_move(&limits).expect("solved") {
                line.push_str(&format!("[{}] ", played.mv.name));
            }
            let t = started.elapsed().as_secs_f64();
            if t > slowest.0 {
                slowest = (t, line.clone());
            }
            times.push(t);
        }
        println!(
            "game {g} (engine {}): {} answers, slowest {:.3} s after {}",
            if engine_first { "first" } else { "second" },
            times.len(),
            slowest.0,
            slowest.1.trim_end()
        );
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    let at = |q: f64| all[((all.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} answers: median {:.3} s, 90th percentile {:.3} s, max {:.3} s; {} of a second or more, {} of half a second or more",
        all.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        all.iter().filter(|&&t| t >= 1.0).count(),
        all.iter().filter(|&&t| t >= 0.5).count()
    );
}
