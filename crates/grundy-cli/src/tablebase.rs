//! `--tablebase DIR`: a board's tiers solved on every core and kept on disk, then every
//! answer read from them. Progress bars per tier on a terminal; a summary line on
//! standard error.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use grundy::explore::Control;
use grundy::games::Spec;
use grundy::tier::{self, Event};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

// Where a board's solved tiers are kept.
// (Not a doc comment: see `Command`'s `defer`.)
#[derive(Args, Clone, Debug, Default)]
pub struct StoreArgs {
    /// Keep the board's solved tiers in DIR (one checksummed file per tier, see
    /// docs/tablebase-format.md): what is missing is solved on every core, what is there
    /// is reused, and answers are read from it.
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
    /// Worker threads for solving tiers (0: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::args::u32_arg)]
    pub threads: u32,
    /// Most memory the tier solver may hold, in MiB (with --workers or --processes: each
    /// worker).
    #[arg(long, value_name = "MIB", default_value_t = 16384, value_parser = crate::args::u64_arg)]
    pub max_tier_memory: u64,
    /// Solve on timely dataflow (grundy-dist) with W worker threads in this process (and
    /// as many in every other process of --processes); the tablebase is the same, byte
    /// for byte.
    #[arg(long, value_name = "W", value_parser = crate::args::u32_arg)]
    pub workers: Option<u32>,
    /// Run process --process of N (timely's conventions), connected to the others at the
    /// addresses of --hosts; each writes the tier files whose tier is its index modulo N,
    /// into its own --tablebase DIR or into one they all share (a shared file system).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::args::u32_arg)]
    pub processes: u32,
    /// This process, 0 to N - 1 (process 0 reports the progress and the start's value).
    #[arg(long, value_name = "I", default_value_t = 0, value_parser = crate::args::u32_arg)]
    pub process: u32,
    /// A text file of one host:port a line, one line a process (blank lines and # comments
    /// skipped).
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<PathBuf>,
    /// Seconds to wait for the other processes to connect, and for a round of messages
    /// during the run, before stopping with an error.
    #[arg(long, value_name = "S", default_value_t = 60, value_parser = crate::args::u64_arg)]
    pub peer_timeout: u64,
}

impl StoreArgs {
    /// Whether the solve runs on grundy-dist.
    pub fn distributed(&self) -> bool {
        self.workers.is_some() || self.processes > 1
    }

    fn dist_config(&self) -> Result<grundy_dist::Config> {
        let processes = self.processes as usize;
        let process = self.process as usize;
        let mut cluster = if processes > 1 {
            let Some(hosts) = &self.hosts else {
                bail!("--processes {processes} needs --hosts FILE (one host:port a line)");
            };
            let text = grundy_io::read_text(hosts)
                .with_context(|| format!("cannot read the hosts file {}", hosts.display()))?;
            grundy_dist::Cluster::from_hosts(&text, processes, process)
                .map_err(|e| anyhow::anyhow!("{}: {e}", hosts.display()))?
        } else {
            if process != 0 {
                bail!("--process {process} is not below --processes 1");
            }
            grundy_dist::Cluster::default()
        };
        cluster.connect_timeout = std::time::Duration::from_secs(self.peer_timeout.max(1));
        Ok(grundy_dist::Config {
            workers: self.workers.unwrap_or(1).max(1) as usize,
            cluster,
            max_bytes: self.max_tier_memory.saturating_mul(1 << 20),
            round_timeout: std::time::Duration::from_secs(self.peer_timeout.max(1)),
            ..grundy_dist::Config::default()
        })
    }
}

/// What a record of `spec`'s board says, for the player to move: `win in 7`, `draw`, or
/// a score game's `margin +3`.
pub fn record_text(spec: &Spec, record: u16) -> String {
    let scored = spec
        .single()
        .and_then(|p| p.family.tiers().map(|t| t.game().scored()))
        .unwrap_or(false);
    if scored {
        grundy::tier::record::margin(record).map_or("unreached".into(), |m| format!("margin {m:+}"))
    } else {
        grundy::tier::record::value(record).map_or("unreached".into(), |v| v.to_string())
    }
}

/// Sets the allocator up for solving by tiers: each tier's tables (1 MiB and up) go back to
/// the system when freed, rather than staying in a heap the next tier's tables, of other
/// sizes, fit badly (peak memory 0.68× on quixo 4×4, for about 2% more CPU: the README's
/// "Memory" figures).
fn tiers_allocator() {
    grundy_alloc::return_freed(grundy_alloc::TABLES_FROM);
}

/// Solves `spec`'s board on grundy-dist into `dir` (this process's share of the tier
/// files); process 0 prints a line a tier and the summary on standard error. Returns the
/// solve.
pub fn solve_distributed(spec: &Spec, dir: &Path, args: &StoreArgs) -> Result<grundy_dist::Solved> {
    let Some(part) = spec.single() else {
        bail!("--tablebase is for one board, not a sum of games");
    };
    if part.family.tiers().is_none() {
        bail!(
            "`{}` is not split into tiers, so it has no tablebase",
            part.family.name()
        );
    }
    let config = args.dist_config()?;
    tiers_allocator();
    let started = Instant::now();
    let first = args.process == 0;
    let listen = move |e: &Event| {
        if let Event::Done {
            summary,
            loaded: false,
        } = e
        {
            if first {
                eprintln!(
                    "tier {} solved: {} positions ({} won, {} lost, {} drawn) at {:.1} s",
                    summary.tier,
                    summary.positions,
                    summary.outcomes[0],
                    summary.outcomes[1],
                    summary.outcomes[2],
                    started.elapsed().as_secs_f64()
                );
            }
        }
    };
    let family = std::sync::Arc::clone(&part.family);
    let id = part
        .family
        .tiers()
        .map(|t| t.game().id())
        .unwrap_or_default();
    let solved = grundy_dist::solve(
        std::sync::Arc::new(family),
        dir,
        &config,
        std::sync::Arc::new(listen),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))
    .with_context(|| format!("cannot solve the tiers of {id}"))?;
    let traffic = solved.traffic();
    let fresh = solved.tiers.len();
    let positions = solved.solved.positions();
    let solving = traffic.bytes - solved.reach.bytes;
    eprintln!(
        "tablebase {}: {} tiers of {id} ({fresh} solved now in {:.1} s by {} workers in {} processes, {} read), {positions} positions, {} moves",
        dir.display(),
        solved.solved.tiers.len(),
        started.elapsed().as_secs_f64(),
        solved.workers,
        args.processes,
        solved.solved.tiers.len() - fresh,
        solved.edges,
    );
    eprintln!(
        "messages: {} in {} rounds, {} ({} between processes): reaching {} ({:.2} bytes a move), solving {} ({:.2} bytes a move); {:.2} bytes a position",
        traffic.messages,
        traffic.rounds,
        grundy::human_bytes(traffic.bytes),
        grundy::human_bytes(traffic.remote_bytes),
        grundy::human_bytes(solved.reach.bytes),
        solved.reach.bytes as f64 / solved.edges.max(1) as f64,
        grundy::human_bytes(solving),
        solving as f64 / solved.edges.max(1) as f64,
        traffic.bytes as f64 / positions.max(1) as f64,
    );
    Ok(solved)
}

/// Opens the tablebase of `spec`'s board in `dir`; with `build`, solves the tiers it is
/// missing first.
pub fn open(
    spec: &Spec,
    dir: &Path,
    args: &StoreArgs,
    build: bool,
    control: &Control<'_>,
) -> Result<grundy::report::Tablebase> {
    let started = Instant::now();
    if build {
        tiers_allocator();
    }
    let bars = Bars::new();
    let options = tier::Options {
        threads: args.threads as usize,
        max_bytes: args.max_tier_memory.saturating_mul(1 << 20),
    };
    // On timely workers, the tiers are solved first; the files are then only read here.
    let distributed = build && args.distributed();
    if distributed {
        solve_distributed(spec, dir, args)?;
    }
    let opened = grundy_tablebase::open_spec(
        spec,
        dir,
        (build && !distributed).then_some(&options),
        &|e| bars.event(e),
        control,
    );
    bars.clear();
    let (tablebase, built) = opened.map_err(|e| match e {
        grundy_tablebase::OpenError::Sum => {
            anyhow::anyhow!("--tablebase is for one board, not a sum of games")
        }
        other => anyhow::Error::new(other),
    })?;
    if built.is_none() && build {
        if let Some(depth) = book_depth(spec, dir) {
            eprintln!(
                "book {}: tiers 0 to {depth} of {}, read (`grundy book` deepens it)",
                dir.display(),
                tablebase.game()
            );
        }
    }
    if let Some(b) = built {
        let title = format!(
            "tablebase {}: {} tiers of {}",
            dir.display(),
            b.tiers,
            tablebase.game()
        );
        eprintln!("{}", built_line(&title, "solved", &b, started));
    }
    Ok(tablebase)
}

/// Builds (or deepens) the book of `spec`'s board in `dir` to `depth` with the tier
/// `options` (threads, memory), each position of the last tier searched within `limits`;
/// a bar per tier on a terminal, a line per tier and a summary on standard error.
pub fn build_book(
    spec: &Spec,
    dir: &Path,
    depth: u32,
    options: &tier::Options,
    limits: &grundy::report::Limits<'_>,
) -> Result<grundy::report::Tablebase> {
    let started = Instant::now();
    let bars = Bars::new();
    let listen = |e: &Event| {
        bars.event(e);
        if let Event::Done {
            summary,
            loaded: false,
        } = e
        {
            bars.println(format!(
                "tier {} of the book: {} ({} won, {} lost, {} drawn) at {:.1} s",
                summary.tier,
                grundy::number::count(summary.positions.into(), "position", "positions"),
                summary.outcomes[0],
                summary.outcomes[1],
                summary.outcomes[2],
                started.elapsed().as_secs_f64()
            ));
        }
    };
    let built = grundy_tablebase::open_book(spec, dir, depth, options, limits, &listen);
    bars.clear();
    let (book, b) = built?;
    let title = format!(
        "book {}: tiers 0 to {depth} of {}",
        dir.display(),
        book.game()
    );
    eprintln!("{}", built_line(&title, "built", &b, started));
    Ok(book)
}

/// Builds (or deepens, or resumes) the book of `spec`'s lines of play in `dir` to `depth`
/// with the tier `options` (threads, memory), a position whose moves cost more than
/// `hard` nodes held with them, for the games of `sides`; a line every ten seconds or so
/// and a summary on standard error.
pub fn build_lines(
    spec: &Spec,
    dir: &Path,
    depth: u32,
    (hard, sides): (u64, grundy::report::book::Sides),
    options: &tier::Options,
    limits: &grundy::report::Limits<'_>,
) -> Result<grundy::report::Tablebase> {
    let started = Instant::now();
    let said = std::sync::Mutex::new(Instant::now());
    let progress = |w: &grundy::report::book::Walked| {
        let mut said = said.lock().unwrap_or_else(|p| p.into_inner());
        if said.elapsed().as_secs() >= 10 {
            *said = Instant::now();
            eprintln!(
                "{} searched with every move ({} held, {} by a fresh table's count), {} nodes, at {:.0} s",
                grundy::number::count(w.analysed.into(), "position", "positions"),
                w.hard,
                w.cold,
                w.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let listen = |_: &Event| {};
    let (book, b, w) = grundy_tablebase::open_lines(
        spec, dir, depth, hard, sides, options, limits, &progress, &listen,
    )?;
    let title = format!(
        "book {}: the lines of play of {} to tier {depth}",
        dir.display(),
        book.game()
    );
    eprintln!(
        "{}; {} searched with every move now ({} held with their moves, {} of them hard only for a fresh table), {} nodes",
        built_line(&title, "built", &b, started),
        grundy::number::count(w.analysed.into(), "position", "positions"),
        w.hard,
        w.cold,
        w.nodes
    );
    Ok(book)
}

/// The line that ends a tablebase's or a book's build: `title`, then the tiers `done`
/// now (solved, built) in the time since `started` and those read, the positions, and
/// the bytes on disk.
fn built_line(
    title: &str,
    done: &str,
    b: &grundy_tablebase::Built,
    started: std::time::Instant,
) -> String {
    format!(
        "{title} ({} {done} now in {:.1} s, {} read), {} positions, {} on disk ({:.2} bytes a position)",
        b.fresh,
        started.elapsed().as_secs_f64(),
        b.tiers - b.fresh,
        b.positions,
        grundy::human_bytes(b.disk_bytes),
        b.disk_bytes as f64 / b.positions.max(1) as f64
    )
}

/// The depth of the book in `dir` if it holds one of `spec`'s board (none if it cannot be
/// told: the error is the reader's to give).
pub fn book_depth(spec: &Spec, dir: &Path) -> Option<u32> {
    let tiers = spec.single()?.family.tiers()?;
    grundy_tablebase::Tablebase::open(dir, tiers.game())
        .ok()?
        .book_depth()
        .ok()?
}

/// The game a tablebase directory's tier files say they hold: the first header that
/// can be read (a damaged one is named by the check, not here).
fn game_of_dir(dir: &Path) -> Result<Spec> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the tablebase directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(grundy_tablebase::tier_of_file_name)
                .is_some()
        })
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{} holds no tier file (tier-NNNNN.gtb)", dir.display());
    }
    let (first, header) = files
        .iter()
        .find_map(|f| grundy_tablebase::file::read_header(f).ok().map(|h| (f, h)))
        .with_context(|| {
            format!(
                "{}: no tier file's header can be read ({} files, every one damaged)",
                dir.display(),
                files.len()
            )
        })?;
    header.game.parse().map_err(|e| {
        anyhow::anyhow!(
            "{}: written for `{}`, which is not a game this grundy knows: {e}",
            first.display(),
            header.game
        )
    })
}

/// Opens a tablebase directory for the game its tier files say, without solving.
pub fn open_dir(dir: &Path) -> Result<grundy::report::Tablebase> {
    let spec = game_of_dir(dir)?;
    open(
        &spec,
        dir,
        &StoreArgs::default(),
        false,
        &Control::default(),
    )
}

/// `grundy check DIR`: every block of every tier file of a tablebase read and checked;
/// exit 0 if all are whole and undamaged, 1 if any is not (each named), as `check FILE`
/// does for a sequence file.
pub fn check_dir(dir: &Path, as_json: bool) -> Result<u8> {
    let spec = game_of_dir(dir)?;
    let part = spec.single().context("a tablebase holds one board")?;
    let tiers = part.family.tiers().with_context(|| {
        format!(
            "{}: written for `{spec}`, which this grundy does not split into tiers",
            dir.display()
        )
    })?;
    let game = tiers.game();
    let store = grundy_tablebase::Tablebase::open(dir, game)?;
    let checked = store.check()?;
    let book = store.book_depth()?;
    let damaged: Vec<&grundy_tablebase::TierCheck> = checked
        .tiers
        .iter()
        .filter(|t| t.problem.is_some())
        .collect();
    let positions: u64 = checked
        .tiers
        .iter()
        .filter_map(|t| t.summary.map(|s| s.positions))
        .sum();
    let whole = checked.tiers.len() - damaged.len();
    if as_json {
        let tiers: Vec<serde_json::Value> = checked
            .tiers
            .iter()
            .map(|t| {
                serde_json::json!({
                    "tier": t.tier,
                    "file": t.path.display().to_string(),
                    "sound": t.problem.is_none(),
                    "positions": t.summary.map(|s| s.positions),
                    "outcomes": t.summary.map(|s| s.outcomes),
                    "partial": t.summary.map(|s| s.partial),
                    "problem": t.problem.as_ref().map(ToString::to_string),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({
                "dir": dir.display().to_string(),
                "game": game.id(),
                "game_tiers": game.tier_count(),
                "book_depth": book,
                "sound": checked.sound(),
                "tiers": tiers,
                "unfinished": checked.unfinished.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "writing": checked.writing,
                "found": checked.found.iter().map(|(tier, f)| match f {
                    Ok(n) => serde_json::json!({"tier": tier, "positions": n}),
                    Err(e) => serde_json::json!({"tier": tier, "error": e.to_string()}),
                }).collect::<Vec<_>>(),
            })
        );
    } else {
        for t in &damaged {
            if let Some(problem) = &t.problem {
                outln!("tier {}: damaged: {problem}", t.tier);
            }
        }
        for p in &checked.unfinished {
            let why = if checked.writing {
                "being written now"
            } else {
                "left by a writer that stopped; no reader reads it, and the next solve with --tablebase here removes it"
            };
            outln!("{}: unfinished ({why})", p.display());
        }
        for (tier, found) in &checked.found {
            match found {
                Ok(n) => outln!(
                    "tier {tier}: {} searched by a `grundy book` that stopped before the tier was whole (the next build of the book resumes with them)",
                    grundy::number::count(*n as u128, "position", "positions")
                ),
                Err(e) => outln!("tier {tier}: positions found before the tier was whole, unreadable: {e}"),
            }
        }
        let present = format!(
            "{} of its {}{}",
            checked.tiers.len(),
            grundy::number::count(game.tier_count().into(), "tier", "tiers"),
            book.map_or_else(String::new, |d| {
                let lines = checked
                    .tiers
                    .iter()
                    .any(|t| t.summary.is_some_and(|s| s.partial));
                let what = if lines {
                    "a book of play's lines"
                } else {
                    "a book"
                };
                format!(" ({what}: tiers 0 to {d})")
            })
        );
        if damaged.is_empty() {
            outln!(
                "{}: sound: `{}`, {present}, every block checked, {}",
                dir.display(),
                game.id(),
                grundy::number::count(positions.into(), "position", "positions")
            );
        } else {
            let names: Vec<String> = damaged.iter().map(|t| t.tier.to_string()).collect();
            outln!(
                "{}: damaged: `{}`, {present}, {whole} whole, {} damaged ({} {}); remove a damaged file and solve with --tablebase {} again to write it anew",
                dir.display(),
                game.id(),
                damaged.len(),
                if names.len() == 1 { "tier" } else { "tiers" },
                names.join(", "),
                dir.display()
            );
        }
    }
    Ok(u8::from(!checked.sound()))
}

/// One progress bar per tier being worked on, shown on a terminal only.
struct Bars {
    multi: Option<MultiProgress>,
    bars: Mutex<BTreeMap<(bool, u32), ProgressBar>>,
}

impl Bars {
    fn new() -> Bars {
        Bars {
            multi: std::io::stderr()
                .is_terminal()
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            bars: Mutex::new(BTreeMap::new()),
        }
    }

    fn event(&self, event: &Event) {
        let (solving, tier, done, total) = match *event {
            Event::Reach { tier, done, total } => (false, tier, done, total),
            Event::Solve { tier, done, total } => (true, tier, done, total),
            Event::Done { summary, .. } => {
                if let Some(bar) = self
                    .bars
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&(true, summary.tier))
                {
                    bar.finish_and_clear();
                }
                return;
            }
        };
        let Some(multi) = &self.multi else {
            return;
        };
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let bar = bars.entry((solving, tier)).or_insert_with(|| {
            let bar = multi.add(ProgressBar::new(total));
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>14} [{bar:30}] {human_pos}/{human_len} ranks, {per_sec}, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(format!(
                "{} tier {tier}",
                if solving { "solve" } else { "reach" }
            ));
            bar
        });
        bar.set_position(done);
        if !solving && done >= total {
            bar.finish_and_clear();
        }
    }

    /// A line above the bars (on a terminal), or on standard error.
    fn println(&self, line: String) {
        match &self.multi {
            Some(multi) => {
                let _ = multi.println(line);
            }
            None => eprintln!("{line}"),
        }
    }

    fn clear(&self) {
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (_, bar) in std::mem::take(&mut *bars) {
            bar.finish_and_clear();
        }
    }
}
