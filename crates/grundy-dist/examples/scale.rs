//! The model of a run at scale (README, "Solving on several machines"): for a board, its
//! ranks and the memory the tier solver holds at its largest step (from the game itself),
//! and for 16, 64 and 256 machines the time, memory a machine, bytes on the wire and disk,
//! from costs measured on smaller boards.
//!
//! `cargo run --release -p grundy-dist --example scale -- SPEC POSITIONS CPU_US WIRE_BYTES DISK_BYTES [CORES] [GBIT]`
//!
//! - POSITIONS: the positions the start reaches (not computed here: that is the solve);
//! - CPU_US: measured microseconds of CPU a position (one worker);
//! - WIRE_BYTES: measured bytes a position sent between processes on 2 processes, where
//!   half the children are at home; on M machines a fraction (M − 1)/M is remote, so the
//!   model scales it by 2·(M − 1)/M;
//! - DISK_BYTES: measured bytes a position on disk;
//! - CORES: workers a machine (default 16); GBIT: its network, Gbit/s (default 10).

use grundy::games::Spec;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: scale SPEC POSITIONS CPU_US WIRE_BYTES DISK_BYTES [CORES] [GBIT]");
        std::process::exit(2);
    }
    let number = |i: usize, what: &str| -> f64 {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("{what}: `{}` is not a number", args[i]);
            std::process::exit(2)
        })
    };
    let spec: Spec = args[0].parse().unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(2)
    });
    let positions = number(1, "POSITIONS");
    let cpu = number(2, "CPU_US") * 1e-6;
    let wire = number(3, "WIRE_BYTES");
    let disk = number(4, "DISK_BYTES");
    let cores = if args.len() > 5 {
        number(5, "CORES")
    } else {
        16.0
    };
    let gbit = if args.len() > 6 {
        number(6, "GBIT")
    } else {
        10.0
    };
    let family = &spec.single().expect("one board").family;
    let tiers = family.tiers().expect("a board with tiers");
    let game = tiers.game();
    let ranks: u64 = (0..game.tier_count()).map(|t| game.tier_size(t)).sum();
    let largest = (0..game.tier_count())
        .map(|t| game.tier_size(t))
        .max()
        .unwrap_or(0);
    let memory = grundy::tier::solve::memory_needed(game) as f64;
    println!(
        "{}: {} tiers, {ranks} ranks (largest tier {largest}), {positions:.3e} positions; the solver holds at most {:.1} GB at once",
        game.id(),
        game.tier_count(),
        memory / 1e9
    );
    println!("machines | time (CPU bound) | network time | memory a machine | on the wire, all | disk, all");
    for m in [16.0f64, 64.0, 256.0] {
        let compute = positions * cpu / (m * cores);
        let bytes = positions * wire * 2.0 * (m - 1.0) / m;
        let net = bytes / m / (gbit * 1e9 / 8.0);
        println!(
            "{m:>8} | {:>12.0} s | {:>10.0} s | {:>12.1} GB | {:>10.0} GB | {:>6.0} GB",
            compute,
            net,
            memory / m / 1e9,
            bytes / 1e9,
            positions * disk / 1e9
        );
    }
}
