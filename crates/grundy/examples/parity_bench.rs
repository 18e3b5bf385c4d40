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
//!     [--winners]
//! cargo run --release -p grundy --example parity_bench -- compare PATH... [--runs R]
//!     [--oink OINK] [--alg A] [--no-check] [--whole GRUNDY]
//! ```
//!
//! `compare` is the fair comparison: every run is a fresh process that parses one file and
//! solves it once (the median of R runs is reported), which is how Oink is run. Runs inside
//! one process (`--reps`) reuse memory the allocator already holds and so flatter large games,
//! where the kernel's zeroing of fresh pages is a good part of the cost. With `--oink` (the
//! path of an Oink binary built outside the repository) each file is also solved by Oink with
//! the same algorithm (`--zlk`, `--tl`, `--fpj`), its "total solving time" is read, and the
//! ratio printed. Before the timed runs, each file's winners are checked against Oink's
//! (`file --winners` against the solution Oink writes, untimed; `--no-check` skips it): a
//! file where they differ stops the comparison (Oink numbers vertices by their place in the
//! file, which is their id in the files measured here: ids 0 to n - 1). A PATH that is a folder stands for every file below it.
//!
//! With `--whole GRUNDY` (the path of a `grundy` binary) `compare` times whole processes
//! instead, wall clock, as a user waits for them: `GRUNDY graph FILE --algorithm A` (its
//! solution written to standard output, here discarded) against `OINK FLAG FILE SOL` (Oink
//! writes its solution to a file); parsing and start-up count on both sides.
//!
//! DIR defaults to the shared benchmark folder (`../../../shared/benchmarks/parity` from the
//! crate); every file below it is read (gzip or plain, any format `parse_detect` knows).

/// The allocator of the `grundy` binary, so that figures match what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use grundy::explore::Control;
use grundy::graph::parity::generate;
use grundy::graph::{
    parse_detect, solve_parity_with, verify_parity, write_pgsolver, Arena, ParityAlgorithm,
    ParityOptions,
};

#[path = "../benches/support/files.rs"]
mod files;
use files::{files_under, BENCH};

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
    runs: usize,
    oink: Option<PathBuf>,
    whole: Option<PathBuf>,
    winners: bool,
    check: bool,
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
        runs: 5,
        oink: None,
        whole: None,
        winners: false,
        check: true,
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
            "--runs" => args.runs = value("--runs")?.parse().map_err(|e| format!("{e}"))?,
            "--oink" => args.oink = Some(PathBuf::from(value("--oink")?)),
            "--whole" => args.whole = Some(PathBuf::from(value("--whole")?)),
            "--dry" => args.dry = true,
            "--winners" => args.winners = true,
            "--no-check" => args.check = false,
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
    let dir = args
        .positional
        .get(1)
        .map_or_else(|| PathBuf::from(BENCH), PathBuf::from);
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
        let text = grundy_io::read_text(path).map_err(|e| e.to_string())?;
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

/// The wall time of a whole process in ms, its output discarded; `None` if it failed.
fn wall_of(command: &mut std::process::Command) -> Option<f64> {
    use std::process::Stdio;
    let start = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    status.success().then_some(ms)
}

/// One time from a fresh process: `command`'s output read by `read`.
fn time_of(command: &mut std::process::Command, read: impl Fn(&str) -> Option<f64>) -> Option<f64> {
    let out = command.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    read(&text)
}

/// The median of `times`.
fn median(mut times: Vec<f64>) -> Option<f64> {
    times.sort_by(f64::total_cmp);
    times.get(times.len().checked_sub(1)? / 2).copied()
}

/// Oink's name for an algorithm.
fn oink_flag(algorithm: ParityAlgorithm) -> &'static str {
    match algorithm {
        ParityAlgorithm::Zielonka => "--zlk",
        ParityAlgorithm::Tangle => "--tl",
        ParityAlgorithm::Fpj => "--fpj",
    }
}

/// Our solve time in a `file` run's output: `..., ALG: 12.345 ms (...)`.
fn our_time(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.contains(" ms (player 0 wins"))?;
    let (head, _) = line.rsplit_once(" ms (")?;
    head.rsplit(' ').next()?.parse().ok()
}

/// Oink's time: `total solving time: 0.012345 sec.`
fn oink_time(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.contains("total solving time:"))?;
    let rest = line.split("total solving time:").nth(1)?.trim();
    let secs: f64 = rest.split_whitespace().next()?.parse().ok()?;
    Some(secs * 1e3)
}

/// The vertices (file ids) player 0 wins by our `file --winners` run and by Oink's
/// solution, compared: an error names the first few where they differ.
fn check_winners(
    me: &std::path::Path,
    oink: &std::path::Path,
    path: &std::path::Path,
    alg: ParityAlgorithm,
) -> Result<(), String> {
    let run = |c: &mut std::process::Command| -> Result<String, String> {
        let out = c.output().map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let ours = run(std::process::Command::new(me).arg("file").arg(path).args([
        "--alg",
        alg.name(),
        "--winners",
    ]))?;
    let theirs = run(std::process::Command::new(oink)
        .arg(oink_flag(alg))
        .arg(path)
        .arg("/dev/stdout"))?;
    let ours: std::collections::BTreeSet<u64> = ours
        .lines()
        .find_map(|l| l.strip_prefix("won by player 0:"))
        .ok_or_else(|| format!("{}: {alg}: no winners from grundy", path.display()))?
        .split_whitespace()
        .map(|t| t.parse::<u64>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    // Oink's solution (`paritysol N;` then `v winner [move];` a line, v its index of the
    // vertex, which is the file's id when ids run 0..n) written to its standard output
    // among its log lines.
    if !theirs.contains("total solving time") {
        return Err(format!("{}: {alg}: oink gave no solution", path.display()));
    }
    let mut theirs_set = std::collections::BTreeSet::new();
    let mut solved = false;
    for line in theirs.lines() {
        if line.starts_with("paritysol") {
            solved = true;
            continue;
        }
        let Some(body) = line.strip_suffix(';') else {
            continue;
        };
        let mut it = body.split_whitespace();
        let (Some(v), Some(w)) = (it.next(), it.next()) else {
            continue;
        };
        if let (Ok(v), "0") = (v.parse::<u64>(), w) {
            theirs_set.insert(v);
        }
    }
    if !solved {
        return Err(format!("{}: {alg}: no solution from oink", path.display()));
    }
    let theirs = theirs_set;
    if ours != theirs {
        let differ: Vec<String> = ours
            .symmetric_difference(&theirs)
            .take(5)
            .map(u64::to_string)
            .collect();
        return Err(format!(
            "{}: {alg}: winners differ from Oink's at vertices {}",
            path.display(),
            differ.join(", ")
        ));
    }
    Ok(())
}

fn compare(args: &Args) -> Result<(), String> {
    let mut files = Vec::new();
    for p in &args.positional[1..] {
        let p = PathBuf::from(p);
        if p.is_dir() {
            files_under(&p, &mut files);
        } else {
            files.push(p);
        }
    }
    if files.is_empty() {
        return Err("compare needs files or folders".into());
    }
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut option_flags: Vec<&str> = Vec::new();
    let o = args.options;
    for (on, flag) in [
        (o.self_loops, "--no-loops"),
        (o.cycles, "--no-cycles"),
        (o.scc, "--no-scc"),
        (o.compress, "--no-compress"),
    ] {
        if !on {
            option_flags.push(flag);
        }
    }
    if args.whole.is_some() && !option_flags.is_empty() {
        return Err(format!(
            "--whole times `grundy graph`, which has no {}",
            option_flags.join(" ")
        ));
    }
    // Where Oink writes its solution when whole processes are timed.
    let solution = std::env::temp_dir().join(format!("parity_bench-{}.sol", std::process::id()));
    println!(
        "median of {} fresh-process runs per file and algorithm (ms{}){}",
        args.runs,
        if args.whole.is_some() {
            ", whole processes, wall"
        } else {
            ""
        },
        if option_flags.is_empty() {
            String::new()
        } else {
            format!(", grundy options {}", option_flags.join(" "))
        }
    );
    let show = files.len() <= 20;
    let mut totals = vec![(0.0f64, 0.0f64, 0usize); args.algorithms.len()];
    // Each file's ratio to Oink's time, per algorithm.
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); args.algorithms.len()];
    // (excess over Oink, file, algorithm, ours, Oink's) for the files where we lose most.
    let mut worst: Vec<(f64, String, String, f64, f64)> = Vec::new();
    for path in &files {
        for (i, &alg) in args.algorithms.iter().enumerate() {
            if let (Some(oink), true) = (&args.oink, args.check) {
                check_winners(&me, oink, path, alg)?;
            }
            // Ours and Oink's alternate, so that a change in the machine's load falls on
            // both alike.
            let mut mine = Vec::with_capacity(args.runs);
            let mut oinks = Vec::with_capacity(args.runs);
            for _ in 0..args.runs.max(1) {
                let ours = if let Some(grundy) = &args.whole {
                    let mut c = std::process::Command::new(grundy);
                    c.arg("graph").arg(path).args(["--algorithm", alg.name()]);
                    wall_of(&mut c)
                } else {
                    let mut c = std::process::Command::new(&me);
                    c.arg("file").arg(path).arg("--alg").arg(alg.to_string());
                    c.args(["--reps", "1"]).args(&option_flags);
                    time_of(&mut c, our_time)
                };
                mine.push(ours.ok_or_else(|| format!("{}: {alg}: no time", path.display()))?);
                if let Some(oink) = &args.oink {
                    let mut c = std::process::Command::new(oink);
                    c.arg(oink_flag(alg)).arg(path);
                    oinks.extend(if args.whole.is_some() {
                        wall_of(c.arg(&solution))
                    } else {
                        time_of(&mut c, oink_time)
                    });
                }
            }
            let ours = median(mine).expect("at least one run");
            // Oink's time only if every run gave one.
            let theirs = (oinks.len() == args.runs.max(1))
                .then(|| median(oinks))
                .flatten();
            let t = &mut totals[i];
            t.0 += ours;
            if let Some(x) = theirs {
                t.1 += x;
                t.2 += 1;
                ratios[i].push(ours / x);
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                worst.push((ours - x, name.into_owned(), alg.to_string(), ours, x));
            }
            if show {
                match theirs {
                    Some(x) => println!(
                        "{:<40} {:>9} {ours:>10.3} oink {x:>10.3} ratio {:.2}",
                        path.file_name().unwrap_or_default().to_string_lossy(),
                        alg.to_string(),
                        ours / x
                    ),
                    None => println!(
                        "{:<40} {:>9} {ours:>10.3}",
                        path.file_name().unwrap_or_default().to_string_lossy(),
                        alg.to_string()
                    ),
                }
            }
        }
    }
    if !show && !worst.is_empty() {
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!("files where grundy is furthest behind (ms):");
        for (_, name, alg, ours, x) in worst.iter().take(args.top) {
            println!("  {name:<40} {alg:>9} {ours:>10.3} oink {x:>10.3}");
        }
    }
    for (i, alg) in args.algorithms.iter().enumerate() {
        let (ours, theirs, counted) = totals[i];
        if args.oink.is_some() {
            println!(
                "{:>9}: total {ours:>10.3} ms, oink {theirs:>10.3} ms ({counted} of {} files), ratio {:.2}",
                alg.to_string(),
                files.len(),
                ours / theirs
            );
            let behind = ratios[i].iter().filter(|&&r| r > 1.0).count();
            if let Some(typical) = median(std::mem::take(&mut ratios[i])) {
                println!(
                    "{:>9}  per file: median ratio {typical:.3}, {behind} of {counted} files slower than oink",
                    ""
                );
            }
        } else {
            println!(
                "{:>9}: total {ours:>10.3} ms over {} files",
                alg.to_string(),
                files.len()
            );
        }
    }
    let _ = std::fs::remove_file(&solution);
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
        if args.winners {
            // The vertices player 0 wins, by the ids the file gave them, printed after
            // the timing.
            let mut line = String::from("won by player 0:");
            for v in arena.vertices().filter(|&v| w[v as usize] == 0) {
                line.push(' ');
                line.push_str(&arena.file_id(v).to_string());
            }
            println!("{line}");
        }
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
        Some("compare") => compare(&args),
        Some("file") => {
            let path = args.positional.get(1).ok_or("file needs PATH")?;
            // The text is dropped before the solve, as `grundy graph` drops it: its memory
            // then serves the solver's tables, as it does for users.
            let arena = {
                let text = grundy_io::read_text(path).map_err(|e| e.to_string())?;
                parse_detect(&text).map_err(|e| e.to_string())?.1
            };
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
