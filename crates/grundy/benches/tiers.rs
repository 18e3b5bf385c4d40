//! The tier solver: `cargo bench -p grundy --bench tiers -- [WxH | SPEC] [threads]` solves
//! connect four on a W×H board (or any tiered spec: `'quixo[4]'`, `'kalah[4,3]'`) from
//! the start in memory and prints wall time, positions and positions per second (default
//! 5x4 on every core). With `--discard`, solved tiers are
//! dropped once no other tier needs them (for boards whose records do not fit in memory).

use std::time::Instant;

use grundy::explore::Control;
use grundy::games::Spec;
use grundy::tier::{record, solve, MemoryStore, Options, TierStore, TierSummary};

/// Keeps summaries only: the solver holds the tiers it still needs itself.
#[derive(Default)]
struct Discard(Vec<TierSummary>);

impl TierStore for Discard {
    fn summary(&mut self, _: u32) -> Result<Option<TierSummary>, grundy::Error> {
        Ok(None)
    }
    fn load(&mut self, _: u32) -> Result<Option<Vec<u16>>, grundy::Error> {
        Ok(None)
    }
    fn save(&mut self, _: u32, _: &[u16], s: &TierSummary) -> Result<(), grundy::Error> {
        eprintln!("tier {}: {} positions", s.tier, s.positions);
        self.0.push(*s);
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let dims = args.first().map_or("5x4", String::as_str);
    let threads: usize = args.get(1).and_then(|t| t.parse().ok()).unwrap_or(0);
    let text = match dims.split_once('x') {
        Some((w, h)) if w.parse::<u32>().is_ok() && h.parse::<u32>().is_ok() => {
            format!("connect4[{w}x{h}]")
        }
        _ => dims.to_string(),
    };
    let spec: Spec = text.parse().expect("a spec");
    let family = &spec.single().expect("one board").family;
    let tiers = family.tiers().expect("a tiered game");
    let game = tiers.game();
    let discard = std::env::args().any(|a| a == "--discard");
    let mut memory = MemoryStore::default();
    let mut dropped = Discard::default();
    let store: &mut dyn TierStore = if discard { &mut dropped } else { &mut memory };
    let options = Options {
        threads,
        ..Options::default()
    };
    let start = Instant::now();
    let solved = solve(game, store, &options, &|_| {}, &Control::default()).expect("solved");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{text} threads {}: {} positions, start {:?}, {secs:.2} s, {:.0} positions/s",
        if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        },
        solved.positions(),
        record::value(solved.root),
        solved.positions() as f64 / secs
    );
}
