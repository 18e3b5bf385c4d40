//! Whole-program timing of the octal engines: CPU time and peak memory of one task per
//! run, so that runs can be compared side by side with other programs under the same
//! conditions (`/usr/bin/time` style figures, read from `/proc/self` on Linux).
//!
//! ```text
//! cargo run --release -p grundy --example octal -- prove 0.354       # prove the period
//! cargo run --release -p grundy --example octal -- seq 0.77 10000000 # values to 10^7
//! cargo run --release -p grundy --example octal -- seq 0.1777 10000000 --no-shortcut
//! cargo run --release -p grundy --example octal -- suite             # the issue's table
//! ```
//!
//! Each line printed is `task game heaps cpu_s peak_MiB result`; every task asserts
//! the published answer it is expected to reproduce.

/// The allocator of the `grundy` binary, so that figures match what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use std::time::Instant;

use grundy::explore::Control;
use grundy::octal::{Rules, Solver};

/// CPU seconds (user + system) used by this process so far.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name, which is in parentheses.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// Peak resident memory in MiB.
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Published periods: (code, pre-period, period). Winning Ways ch. 4; Gangolli &
/// Plambeck 1989 (.16, .56, .127, .376); Flammenkamp's tables (.354).
const PUBLISHED: [(&str, u64, u64); 8] = [
    ("0.77", 71, 12),
    ("0.07", 53, 34),
    ("0.137", 52, 34),
    ("0.16", 105_351, 149_459),
    ("0.56", 326_640, 144),
    ("0.127", 46_578, 4),
    ("0.376", 2_268_248, 4),
    ("0.354", 10_061_916, 1_180),
];

fn prove(code: &str) {
    let rules: Rules = code.parse().expect("a code");
    let control = Control {
        max_positions: 1 << 30,
        ..Control::default()
    };
    let (cpu0, wall) = (cpu_seconds(), Instant::now());
    let mut solver = Solver::new(&rules);
    let period = solver.prove(1 << 30, &control).expect("a period");
    let cpu = cpu_seconds() - cpu0;
    let stats = solver.stats();
    println!(
        "prove {code} {} {cpu:.2} {:.1} pre-period {} period {} (wall {:.2}s; rare {:?}; searches {} full {} options {} search-options {})",
        solver.len(),
        peak_mib(),
        period.preperiod,
        period.period,
        wall.elapsed().as_secs_f64(),
        stats.classes,
        stats.sparse.searches,
        stats.sparse.full_searches,
        stats.sparse.rare_options,
        stats.sparse.search_options,
    );
    if let Some(&(_, s, p)) = PUBLISHED.iter().find(|(c, _, _)| *c == code) {
        assert_eq!(
            (period.preperiod, period.period),
            (s, p),
            "published period of {code}"
        );
    }
}

fn seq(code: &str, len: u64, shortcut: bool) {
    let rules: Rules = code.parse().expect("a code");
    let (cpu0, wall) = (cpu_seconds(), Instant::now());
    let mut solver = Solver::new(&rules).with_shortcut(shortcut);
    solver.extend_to(len, &Control::default()).expect("values");
    let cpu = cpu_seconds() - cpu0;
    let stats = solver.stats();
    let checksum = (0..solver.len() as usize).fold(0u64, |h, i| {
        h.wrapping_mul(0x100_0000_01b3)
            .wrapping_add(u64::from(solver.get(i)))
    });
    println!(
        "seq {code} {len} {cpu:.2} {:.1} G({})={} checksum {checksum:016x} (wall {:.2}s; computed {} copied {}; rare {:?}; searches {} full {} options {} search-options {})",
        peak_mib(),
        len - 1,
        solver.get(len as usize - 1),
        wall.elapsed().as_secs_f64(),
        stats.computed,
        stats.copied,
        stats.classes,
        stats.sparse.searches,
        stats.sparse.full_searches,
        stats.sparse.rare_options,
        stats.sparse.search_options,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shortcut = !args.iter().any(|a| a == "--no-shortcut");
    let args: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    match args.as_slice() {
        ["prove", codes @ ..] => codes.iter().for_each(|c| prove(c)),
        ["seq", code, len] => seq(code, len.parse().expect("a heap count"), shortcut),
        ["suite"] => {
            for (code, _, _) in PUBLISHED {
                prove(code);
            }
            seq("0.77", 10_000_000, true);
            seq("0.1777", 10_000_000, true);
        }
        _ => {
            eprintln!("usage: octal prove CODE… | seq CODE HEAPS [--no-shortcut] | suite");
            std::process::exit(2);
        }
    }
}
