//! Release-mode measurements of the parity solvers: sweeps over a folder of games and single
//! runs on generated games (one process per run, so `/usr/bin/time -v` reports the peak memory
//! of that run).
//!
//! ```text
//! cargo run --release -p grundy --example parity_bench -- sweep [DIR] [--alg zielonka,tangle]
//!     [--reps K] [--verify] [--no-scc] [--no-loops] [--no-compress] [--no-cycles]
//!     [--only loops,cycles,scc,compress|none] [--top K]
//! cargo run --release -p grundy --example parity_bench -- gen FAMILY N [--alg A] [--seed S]
//!     [--verify] [--write FILE] [--dry] [--priorities P] [--degree LO,HI] (random games)
//!     FAMILY: random | random-loops | ladder | nested | friedmann | gw
//! cargo run --release -p grundy --example parity_bench -- file PATH [--alg A] [--verify]
//! ```
//!
//! DIR defaults to the shared benchmark folder (`../../../shared/benchmarks/parity` from the
//! crate); every file below it is read (gzip or plain, any format `parse_detect` knows).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use grundy::explore::Control;
use grundy::graph::parity::generate;
use grundy::graph::{
    parse_detect, read_text, solve_parity_with, verify_parity, write_pgsolver, Arena,
    ParityAlgorithm, ParityOptions,
};

struct Args {
    algorithms: Vec<ParityAlgorithm>,
    options: ParityOptions,
    reps: usize,
    verify: bool,
    top: usize,
    seed: u64,
    write: Option<PathBuf>,
    dry: bool,
    priorities: Option<u32>,
    degree: (u32, u32),
    positional: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        algorithms: ParityAlgorithm::ALL.to_vec(),
        options: ParityOptions::default(),
        reps: 1,
        verify: false,
        top: 10,
        seed: 1,
        write: None,
        dry: false,
        priorities: None,
        degree: (2, 5),
        positional: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--alg" => {
                args.algorithms = value("--alg")?
                    .split(',')
                    .map(|s| s.parse().map_err(|e| format!("{e}")))
                    .collect::<Result<_, _>>()?;
            }
            "--reps" => args.reps = value("--reps")?.parse().map_err(|e| format!("{e}"))?,
            "--top" => args.top = value("--top")?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => args.seed = value("--seed")?.parse().map_err(|e| format!("{e}"))?,
            "--write" => args.write = Some(PathBuf::from(value("--write")?)),
            "--verify" => args.verify = true,
            "--dry" => args.dry = true,
            "--priorities" => {
                args.priorities = Some(value("--priorities")?.parse().map_err(|e| format!("{e}"))?);
            }
            "--degree" => {
                let v = value("--degree")?;
                let (lo, hi) = v.split_once(',').ok_or("--degree LO,HI")?;
                args.degree = (
                    lo.parse().map_err(|e| format!("{e}"))?,
                    hi.parse().map_err(|e| format!("{e}"))?,
                );
            }
            "--no-scc" => args.options.scc = false,
            "--no-loops" => args.options.self_loops = false,
            "--no-compress" => args.options.compress = false,
            "--no-cycles" => args.options.cycles = false,
            "--only" => {
                // Exactly these preprocessing steps: a comma list of loops, cycles, scc,
                // compress (or "none").
                let list = value("--only")?;
                let has = |s: &str| list.split(',').any(|x| x == s);
                args.options = ParityOptions {
                    self_loops: has("loops"),
                    cycles: has("cycles"),
                    scc: has("scc"),
                    compress: has("compress"),
                };
            }
            "--bench" => {} // passed by `cargo bench`-style runners; ignored
            _ if a.starts_with("--") => return Err(format!("unknown flag {a}")),
            _ => args.positional.push(a),
        }
    }
    Ok(args)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.file_name().is_some_and(|n| n != "README.md") {
            out.push(p);
        }
    }
}

/// Solves `arena` `reps` times with `algorithm`; the fastest time and the winners.
fn time_solve(
    arena: &Arena,
    algorithm: ParityAlgorithm,
    args: &Args,
) -> Result<(Duration, Vec<u8>), String> {
    let mut best = Duration::MAX;
    let mut winner = Vec::new();
    for _ in 0..args.reps.max(1) {
        let t = Instant::now();
        let s = solve_parity_with(arena, algorithm, &args.options, &Control::default())
            .map_err(|e| e.to_string())?;
        best = best.min(t.elapsed());
        if args.verify {
            verify_parity(arena, &s.winner, &s.strategy)
                .map_err(|e| format!("{algorithm}: verification failed: {e}"))?;
        }
        winner = s.winner;
    }
    Ok((best, winner))
}

fn sweep(args: &Args) -> Result<(), String> {
    let dir = args.positional.get(1).map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/benchmarks/parity"
            ))
        },
        PathBuf::from,
    );
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    if files.is_empty() {
        return Err(format!("no files under {}", dir.display()));
    }
    let k = args.algorithms.len();
    let mut totals = vec![Duration::ZERO; k];
    let mut per_file: Vec<(PathBuf, Vec<Duration>)> = Vec::new();
    let (mut vertices, mut edges) = (0usize, 0usize);
    for path in &files {
        let text = read_text(path).map_err(|e| e.to_string())?;
        let (_, arena) = parse_detect(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        vertices += arena.len();
        edges += arena.edge_count();
        let _ = arena.reverse();
        let mut times = Vec::with_capacity(k);
        let mut first: Option<Vec<u8>> = None;
        for (i, &alg) in args.algorithms.iter().enumerate() {
            let (t, w) =
                time_solve(&arena, alg, args).map_err(|e| format!("{}: {e}", path.display()))?;
            totals[i] += t;
            times.push(t);
            match &first {
                None => first = Some(w),
                Some(f) if *f != w => {
                    return Err(format!(
                        "{}: {alg} disagrees with {}",
                        path.display(),
                        args.algorithms[0]
                    ))
                }
                Some(_) => {}
            }
        }
        per_file.push((path.clone(), times));
    }
    println!(
        "{} files, {vertices} vertices, {edges} edges, options {:?}, best of {}{}",
        files.len(),
        args.options,
        args.reps,
        if args.verify { ", verified" } else { "" }
    );
    for (i, alg) in args.algorithms.iter().enumerate() {
        println!(
            "{alg:>10}: total {:>10.3} ms",
            totals[i].as_secs_f64() * 1e3
        );
        per_file.sort_by_key(|(_, t)| std::cmp::Reverse(t[i]));
        for (p, t) in per_file.iter().take(args.top) {
            println!(
                "            {:>9.3} ms  {}",
                t[i].as_secs_f64() * 1e3,
                p.strip_prefix(&dir).unwrap_or(p).display()
            );
        }
    }
    Ok(())
}

fn generated(args: &Args) -> Result<Arena, String> {
    let family = args.positional.get(1).ok_or("gen needs FAMILY N")?;
    let n: usize = args
        .positional
        .get(2)
        .ok_or("gen needs FAMILY N")?
        .parse()
        .map_err(|e| format!("N: {e}"))?;
    Ok(match family.as_str() {
        "random" | "random-loops" => generate::RandomGame {
            seed: args.seed,
            self_loops: family == "random-loops",
            priorities: args.priorities.unwrap_or(n as u32),
            min_degree: args.degree.0,
            max_degree: args.degree.1,
            ..generate::RandomGame::new(n)
        }
        .build(),
        "ladder" => generate::ladder(n),
        "nested" => generate::nested_cycles(n),
        "friedmann" => generate::friedmann(n),
        "gw" => generate::gazda_willemse(n),
        _ => return Err(format!("unknown family {family}")),
    })
}

fn single(args: &Args, arena: &Arena, label: &str) -> Result<(), String> {
    if let Some(path) = &args.write {
        let text = write_pgsolver(arena).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| e.to_string())?;
    }
    let _ = arena.reverse();
    if args.dry {
        println!(
            "{label}: {} vertices, {} edges, not solved (--dry)",
            arena.len(),
            arena.edge_count()
        );
        return Ok(());
    }
    for &alg in &args.algorithms {
        let (t, w) = time_solve(arena, alg, args)?;
        let won0 = w.iter().filter(|&&x| x == 0).count();
        println!(
            "{label}: {} vertices, {} edges, {alg}: {:.3} ms (player 0 wins {won0})",
            arena.len(),
            arena.edge_count(),
            t.as_secs_f64() * 1e3
        );
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    match args.positional.first().map(String::as_str) {
        Some("sweep") => sweep(&args),
        Some("gen") => {
            let t = Instant::now();
            let arena = generated(&args)?;
            eprintln!("generated in {:.3} s", t.elapsed().as_secs_f64());
            let label = format!("{} {}", args.positional[1], args.positional[2]);
            single(&args, &arena, &label)
        }
        Some("file") => {
            let path = args.positional.get(1).ok_or("file needs PATH")?;
            let text = read_text(path).map_err(|e| e.to_string())?;
            let (_, arena) = parse_detect(&text).map_err(|e| e.to_string())?;
            single(&args, &arena, path)
        }
        _ => Err("usage: parity_bench sweep [DIR] | gen FAMILY N | file PATH  [--alg A,B] [--verify] ...".into()),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
