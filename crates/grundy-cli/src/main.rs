//! `grundy`: solve, tabulate and play two-player games from the command line.

/// `print!` to standard output that returns an error instead of panicking when the
/// reader has gone (`grundy … | head`); `main` then exits quietly.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)?
    }};
}

/// `println!` likewise.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

/// Large tables on transparent huge pages: fresh memory is a good part of a large solve.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

mod args;
mod graph;
mod olympiad;
mod output;
mod play;
mod seq;
mod tablebase;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use grundy::explore::Control;
use grundy::games::Spec;
use grundy::report::{self, Limits};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Solve two-player games of perfect information: outcomes, remoteness, winning moves,
/// Sprague–Grundy values, sums.
#[derive(Parser)]
#[command(name = "grundy", version, about, long_about = None, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a position: outcome, remoteness, every winning move, Grundy values, scores.
    ///
    /// SPEC is `family[params](position)`, parts joined by `+`: nim(3,3,1),
    /// bounded-nim[3](10), subtraction[1,2,3](10), octal[0.77](12), multiple[2](20),
    /// multiple[2](20,5), wythoff(3,5), ends(4,7,2,9,5,2), nim(3) + octal[0.77](12).
    Solve {
        /// The position (with --positions: the game, and FILE its positions).
        spec: String,
        /// Solve each line of FILE (`-`: standard input) as a position of the game SPEC,
        /// written as inside a spec's parentheses (connect four: the columns played; any
        /// words after the first are ignored, so Pons' test sets are read as they are),
        /// with one search table kept for all: a line each, `position outcome remoteness`
        /// (`-` for none), or with --json an object a line.
        #[arg(long, value_name = "FILE")]
        positions: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        store: tablebase::StoreArgs,
    },
    /// Read a board's value and every move's from a tablebase built by `solve
    /// --tablebase`, with no search (for scripts: `--json`). Refused if the tablebase does
    /// not hold the position's tiers.
    Query {
        /// The position.
        spec: String,
        /// The tablebase directory.
        #[arg(long, value_name = "DIR")]
        tablebase: PathBuf,
        /// Read the tier files of DIR too (repeatable): the directories the other processes
        /// of a distributed solve wrote, queried as one tablebase without copying them.
        #[arg(long, value_name = "DIR")]
        also: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Outcome and Grundy value of every heap size 0..=N of a one-heap family.
    Table {
        /// The family: nim, bounded-nim[m], subtraction[s,…], octal[0.d…], multiple[k].
        family: String,
        /// The largest heap size.
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: u64,
        /// Octal and subtraction games: stream the Grundy values to FILE (grundy's
        /// chunked binary format, docs/seq-format.md) instead of printing them; the
        /// part past a proved period is written without being held in memory.
        #[arg(long, value_name = "FILE")]
        write: Option<std::path::PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Play against perfect strategy in the terminal.
    Play {
        /// The starting position.
        spec: String,
        /// Let grundy move first.
        #[arg(long)]
        engine_first: bool,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        store: tablebase::StoreArgs,
    },
    /// Games on graphs: the POI green game (Büchi), PGSolver parity games, reachability,
    /// safety, co-Büchi; token games on plain digraphs. `grundy graph verify GAME
    /// SOLUTION` checks a claimed solution.
    Graph(graph::GraphArgs),
    /// The special method: find the pattern of a family (losing positions, a rule that
    /// plays in O(log n)), check it against the general method, prove it where a
    /// theorem applies. Families: nim, bounded-nim[m], subtraction[…], octal[…], multiple[k],
    /// wythoff.
    Pattern {
        /// The family.
        family: String,
        /// How far to look: the general method's check for multiple[k] (default 2000)
        /// and wythoff (1000); the heaps a period proof may compute for octal and
        /// subtraction games (2^26).
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: Option<u64>,
        /// Search a rule over the family's position features (heaps, a circle's size, a
        /// polygon's triangles): FAMILY is then a family with members (searched on 1..=N/2,
        /// checked to N; N defaults to 24) or a position (searched on what it reaches).
        #[arg(long)]
        features: bool,
        /// With --features and a position: also check the rule on what this position
        /// reaches (repeatable).
        #[arg(long, value_name = "SPEC")]
        check: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Draw the Grundy sequence of a one-heap family (SVG, or PNG with a system font).
    Plot {
        /// The family: nim, bounded-nim[m], subtraction[…], octal[…], multiple[k].
        family: String,
        /// The largest heap size.
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: u64,
        /// The output file, `.svg` or `.png`.
        #[arg(short, long, value_name = "FILE")]
        output: std::path::PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// Serve the web page on 127.0.0.1: explore, play, graph games; JSON under /api/.
    Serve {
        /// The port (0: one the system picks); the address is printed when it listens.
        #[arg(long, default_value_t = 8080, value_parser = args::u16_arg)]
        port: u16,
        /// Most positions one request may explore (a larger sum is judged by Grundy values).
        #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = args::u64_arg)]
        max_positions: u64,
        /// Answer a board game from the tablebase in DIR (built by `solve --tablebase`);
        /// repeat for several games.
        #[arg(long, value_name = "DIR")]
        tablebase: Vec<PathBuf>,
    },
    /// Check a file written by `table --write` (whether it is complete, and what family and
    /// heaps it holds) or a tablebase directory (every block of every tier file read and
    /// checked, each damaged file named): exit 0 if sound, 1 if not.
    Check {
        /// The file, or the tablebase's directory.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the help of grundy, or of a command (`grundy help graph verify`).
    Help {
        /// The command.
        command: Vec<String>,
    },
    /// Contest mode: an olympiad task of the seeds played as a contestant's program
    /// is run — the task's input on standard input, then one move a line against the
    /// judge: ioi1996-game, ioi2001-ioiwari, ioi2001-score, poi1999-polygon.
    Olympiad {
        /// The task.
        name: String,
        /// Print the analysis of the task's start (read from standard input) instead of
        /// playing.
        #[arg(long)]
        solve: bool,
    },
    /// A tour of the lecture notes' results, computed now.
    Tour {
        #[command(flatten)]
        common: Common,
    },
}

#[derive(Args, Clone, Copy)]
struct Common {
    /// Print JSON instead of text: for solve, table, pattern and tour. Accepted but without
    /// effect for play, plot and table --write (they print no result to parse); serve takes
    /// no --json.
    #[arg(long)]
    json: bool,
    /// Most positions to explore (a larger sum is judged by Grundy values alone).
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = args::u64_arg)]
    max_positions: u64,
    /// Most memory a Grundy table, or the positions an exploration keeps, may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 4096, value_parser = args::u64_arg)]
    max_memory: u64,
    /// Most elementary steps a Grundy table may take.
    #[arg(long, value_name = "STEPS", default_value_t = 20_000_000_000, value_parser = args::u128_arg)]
    max_work: u128,
    /// Most heaps computed to prove a heap game's period when a heap is too large to
    /// tabulate.
    #[arg(long, value_name = "HEAPS", default_value_t = 1 << 20, value_parser = args::u64_arg)]
    max_proof_heaps: u64,
    /// Most positions the proof search may visit on a board too large to explore, before
    /// it gives up (0: no proof search).
    #[arg(long, value_name = "N", default_value_t = grundy::search::Options::default().max_nodes, value_parser = args::u64_arg)]
    max_nodes: u64,
    /// Most memory of the proof search's transposition table, in MiB (it starts small and
    /// doubles up to this).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = args::u64_arg)]
    search_memory: u64,
    /// Most memory of the exact search's table, in MiB (it starts at 512 KiB and doubles
    /// as the search needs, up to this).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = args::u64_arg)]
    search_table: u64,
    /// Most positions the exact search may visit (every thread together), on a board whose
    /// family offers it (connect four, hex, m,n,k-games, dots and boxes), before it gives
    /// up (0: no exact search).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_exact_nodes, value_parser = args::u64_arg)]
    max_exact_nodes: u64,
    /// The exact search proves only win, draw or loss, not how far the end is (a weak
    /// solution: faster).
    #[arg(long)]
    weak: bool,
}

static CANCEL: AtomicBool = AtomicBool::new(false);
/// The progress line of the computation running now: when it started, and its spinner.
static PROGRESS: Mutex<Option<(Instant, ProgressBar)>> = Mutex::new(None);

/// Shows a spinner once a computation has run for a second; silent before. Each
/// computation's clock starts at its first report (after [`finish_progress`]).
fn progress(stage: &str, done: u64) {
    let mut slot = PROGRESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (start, bar) = slot.get_or_insert_with(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("a valid template"),
        );
        (Instant::now(), bar)
    });
    if start.elapsed().as_secs_f64() >= 1.0 && std::io::stderr().is_terminal() {
        if bar.is_hidden() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        // The count and its pace (positions explored, nodes searched, heaps computed).
        let pace = done as f64 / start.elapsed().as_secs_f64();
        let pace = if pace >= 1e6 {
            format!("{:.1} M", pace / 1e6)
        } else {
            format!("{pace:.0}")
        };
        bar.set_message(format!("{stage}: {done}, {pace} a second"));
        bar.tick();
    }
}

/// Clears the progress line, if one is shown, and ends the computation's clock.
fn finish_progress() {
    let taken = PROGRESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some((_, bar)) = taken {
        bar.finish_and_clear();
    }
}

impl Common {
    fn limits(&self) -> Limits<'static> {
        Limits {
            control: Control {
                max_positions: self.max_positions,
                cancel: Some(&CANCEL),
                progress: Some(&progress),
            },
            max_memory: self.max_memory.saturating_mul(1 << 20),
            max_work: self.max_work,
            max_proof_heaps: self.max_proof_heaps,
            tablebases: &[],
            max_search_nodes: self.max_nodes,
            search_memory: self.search_memory.saturating_mul(1 << 20),
            max_exact_nodes: self.max_exact_nodes,
            exact_table: self.search_table.saturating_mul(1 << 20),
            weak: self.weak,
            ..Limits::default()
        }
    }
}

/// `grundy solve GAME --positions FILE`: the value of each line's position, one table kept
/// for every line.
fn solve_lines(
    game: &str,
    file: &std::path::Path,
    common: &Common,
    store: &tablebase::StoreArgs,
) -> Result<u8> {
    use std::io::BufRead;
    let family =
        grundy::games::parse_family(game).map_err(|e| anyhow::anyhow!("{}", e.render(game)))?;
    let name = family.name();
    let cache = report::SearchCache::new();
    let mut limits = common.limits();
    limits.search_threads = store.threads as usize;
    limits.search_cache = Some(&cache);
    let input: Box<dyn BufRead> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?,
        ))
    };
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", file.display()))?;
        let position = line.split_whitespace().next().unwrap_or("");
        let text = format!("{name}({position})");
        let spec = parse_spec(&text).with_context(|| format!("line {}", i + 1))?;
        let value = report::evaluate(&spec, &limits);
        finish_progress();
        let value = value.with_context(|| format!("line {}: cannot solve `{spec}`", i + 1))?;
        if common.json {
            outln!(
                "{}",
                serde_json::json!({
                    "position": position,
                    "outcome": value.outcome.as_str(),
                    "remoteness": value.remoteness,
                    "method": value.method.as_str(),
                    "nodes": value.nodes,
                })
            );
        } else {
            outln!(
                "{position} {} {}",
                value.outcome.as_str(),
                value
                    .remoteness
                    .map_or_else(|| "-".to_string(), |r| r.to_string())
            );
        }
    }
    Ok(0)
}

fn parse_spec(text: &str) -> Result<Spec> {
    text.parse::<Spec>()
        .map_err(|e| anyhow::Error::new(output::BadSpec::new(&e, text)))
}

fn table_error(family: &str, e: report::TableError) -> anyhow::Error {
    match e {
        report::TableError::Spec(e) => anyhow::Error::new(output::BadSpec::new(&e, family)),
        report::TableError::Solve(e) => anyhow::anyhow!("cannot tabulate `{family}`: {e}"),
    }
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve {
            spec,
            positions: Some(file),
            common,
            store,
        } => return solve_lines(&spec, &file, &common, &store),
        Command::Solve {
            spec,
            positions: None,
            common,
            store,
        } => {
            let spec = parse_spec(&spec)?;
            let mut limits = common.limits();
            limits.search_threads = store.threads as usize;
            if store.processes > 1 {
                // This process holds only its share of the tier files: it answers the
                // start alone, from the solve.
                let Some(dir) = &store.tablebase else {
                    anyhow::bail!("--processes needs --tablebase DIR");
                };
                let solved = tablebase::solve_distributed(&spec, dir, &store)?;
                if store.process == 0 {
                    let value = tablebase::record_text(&spec, solved.solved.root);
                    if common.json {
                        outln!(
                            "{}",
                            serde_json::json!({
                                "spec": spec.to_string(),
                                "value": value,
                                "record": solved.solved.root,
                                "positions": solved.solved.positions(),
                                "tiers": solved.solved.tiers.len(),
                            })
                        );
                    } else {
                        outln!("{spec}: {value} ({} positions)", solved.solved.positions());
                    }
                }
                return Ok(0);
            }
            if store.workers.is_some() && store.tablebase.is_none() {
                anyhow::bail!("--workers solves into a tablebase: give --tablebase DIR");
            }
            let tablebases: Vec<grundy::report::Tablebase> = match &store.tablebase {
                Some(dir) => vec![tablebase::open(&spec, dir, &store, true, &limits.control)?],
                None => Vec::new(),
            };
            limits.tablebases = &tablebases;
            let report = report::solve(&spec, &limits);
            finish_progress();
            let report = report.with_context(|| format!("cannot solve `{spec}`"))?;
            if common.json {
                outln!("{}", output::report_json(&report));
            } else {
                out!("{}", output::report_text(&report));
            }
        }
        Command::Table {
            family,
            up_to,
            write: Some(path),
            common,
        } => {
            let parsed = grundy::games::parse_family(&family)
                .map_err(|e| anyhow::anyhow!("{}", e.render(&family)))?;
            let grundy::games::GrundySource::Heaps(rules) = parsed.grundy() else {
                anyhow::bail!("--write is for octal and subtraction games");
            };
            let written = seq::write(
                &rules,
                up_to.saturating_add(1),
                &path,
                &common.limits().control,
            );
            finish_progress();
            let written = written?;
            outln!(
                "wrote heaps 0..={} of {family} to {} (largest value {}{})",
                written.len.saturating_sub(1),
                path.display(),
                written.max,
                written.period.map_or(String::new(), |p| format!(
                    "; period {} from heap {} proved, the rest copied",
                    p.period, p.preperiod
                ))
            );
        }
        Command::Table {
            family,
            up_to,
            write: None,
            common,
        } => {
            let table = report::table(&family, up_to, &common.limits());
            finish_progress();
            let table = table.map_err(|e| table_error(&family, e))?;
            if common.json {
                outln!("{}", output::table_json(&table));
            } else {
                out!("{}", output::table_text(&table));
            }
        }
        Command::Query {
            spec,
            tablebase: dir,
            also,
            json,
        } => {
            let spec = parse_spec(&spec)?;
            let Some(tiers) = spec.single().and_then(|p| p.family.tiers()) else {
                anyhow::bail!(
                    "`{spec}` is not one board split into tiers, so no tablebase holds it"
                );
            };
            let mut store =
                grundy_tablebase::Tablebase::open(&dir, tiers.game())?.reading_also(&also)?;
            let report = report::lookup(&spec, &Limits::default(), &mut store)
                .with_context(|| format!("cannot read `{spec}` from {}", dir.display()))?
                .with_context(|| {
                    format!(
                        "the tablebase in {} does not hold `{spec}` yet: `grundy solve '{spec}' --tablebase {}` builds it (the directories of a distributed solve's other processes are read with --also DIR)",
                        dir.display(),
                        dir.display()
                    )
                })?;
            if json {
                outln!("{}", output::report_json(&report));
            } else {
                out!("{}", output::report_text(&report));
            }
        }
        Command::Play {
            spec,
            engine_first,
            common,
            store,
        } => {
            let spec = parse_spec(&spec)?;
            let mut limits = common.limits();
            let tablebases: Vec<grundy::report::Tablebase> = match &store.tablebase {
                Some(dir) => vec![tablebase::open(&spec, dir, &store, true, &limits.control)?],
                None => Vec::new(),
            };
            limits.tablebases = &tablebases;
            // The exact search's table outlives each move: what one reply proved, the
            // next reads.
            let cache = report::SearchCache::new();
            limits.search_cache = Some(&cache);
            limits.search_threads = store.threads as usize;
            let game = grundy::play::Match::new(spec.clone(), !engine_first, &limits);
            finish_progress();
            let game = game.with_context(|| format!("cannot solve `{spec}`"))?;
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut input = play::Input::terminal().unwrap_or(play::Input::Lines(&mut lock));
            let ending = play::play(
                game,
                &limits,
                &mut input,
                &mut std::io::stdout(),
                &finish_progress,
            )?;
            if ending == play::Ending::Interrupted {
                return Ok(130);
            }
        }
        Command::Graph(args) => {
            let control = Control {
                max_positions: u64::MAX,
                cancel: Some(&CANCEL),
                progress: Some(&progress),
            };
            let code = graph::run(args, &control);
            finish_progress();
            return Ok(u8::try_from(code?).unwrap_or(1));
        }
        Command::Pattern {
            family,
            up_to,
            features: true,
            check,
            common,
        } => {
            let found = grundy::pattern::features::discover_text(
                &family,
                up_to.unwrap_or(24),
                &check,
                &common.limits().control,
            );
            finish_progress();
            let found = found.with_context(|| format!("no rule over features for `{family}`"))?;
            outln!(
                "{family}: {}
found on {} positions by the general method, checked on {} more",
                found.rule.text,
                found.found_on,
                found.checked_on
            );
        }
        Command::Pattern {
            family,
            up_to,
            features: false,
            common,
            ..
        } => {
            let up_to = up_to.unwrap_or_else(|| grundy::pattern::default_up_to(&family));
            let found = grundy::pattern::discover(&family, up_to, &common.limits().control);
            finish_progress();
            let found = found.with_context(|| format!("no pattern for `{family}`"))?;
            if common.json {
                outln!("{}", serde_json::to_value(&found)?);
            } else {
                out!("{}", output::pattern_text(&found));
            }
        }
        Command::Plot {
            family,
            up_to,
            output: out,
            common,
        } => {
            let table = report::table(&family, up_to, &common.limits());
            finish_progress();
            let table = table.map_err(|e| table_error(&family, e))?;
            let marked = grundy_plot::marked(&family, &common.limits().control);
            grundy_plot::write(&table, marked, &out)?;
            outln!("wrote {}", out.display());
        }
        Command::Serve {
            port,
            max_positions,
            tablebase: dirs,
        } => {
            let tablebases = dirs
                .iter()
                .map(|d| tablebase::open_dir(d))
                .collect::<Result<Vec<_>>>()?;
            let config = grundy_web::Config {
                max_positions,
                tablebases,
                ..grundy_web::Config::default()
            };
            grundy_web::serve(port, config, Some(&CANCEL), |addr| {
                println!("grundy: serving on http://{addr}/ (Ctrl-C stops)");
            })
            .with_context(|| format!("cannot serve on 127.0.0.1:{port} (--port picks another)"))?;
        }
        Command::Check { file, json } => {
            return if file.is_dir() {
                tablebase::check_dir(&file, json)
            } else {
                seq::check(&file, json)
            };
        }
        Command::Olympiad { name, solve } => {
            let task = olympiad::task(&name)?;
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            if solve {
                let text = olympiad::read_input(task, &mut input)?;
                let analysis = grundy::contest::analyze(task, &text);
                finish_progress();
                let analysis = analysis?;
                if let Some(report) = &analysis.report {
                    out!("{}", output::report_text(report));
                }
                if let Some(rule) = &analysis.rule {
                    outln!("{rule}");
                }
            } else {
                olympiad::play(task, &mut input, &mut std::io::stdout())?;
            }
        }
        Command::Help { command } => {
            let args = std::iter::once("grundy".to_string())
                .chain(command)
                .chain(std::iter::once("--help".to_string()));
            return match Cli::try_parse_from(args) {
                Err(e) => {
                    e.print()?;
                    Ok(if e.use_stderr() { 2 } else { 0 })
                }
                Ok(_) => Ok(0),
            };
        }
        Command::Tour { common } => {
            let tour = output::tour(&common.limits());
            finish_progress();
            let tour = tour?;
            if common.json {
                outln!("{}", tour.1);
            } else {
                out!("{}", tour.0);
            }
        }
    }
    Ok(0)
}

/// Whether the command asked for JSON (and so its errors are JSON too).
fn wants_json(cli: &Cli) -> bool {
    match &cli.command {
        Command::Solve { common, .. }
        | Command::Table { common, .. }
        | Command::Play { common, .. }
        | Command::Pattern { common, .. }
        | Command::Plot { common, .. }
        | Command::Tour { common } => common.json,
        Command::Query { json, .. } | Command::Check { json, .. } => *json,
        Command::Graph(g) => match &g.action {
            Some(graph::GraphAction::Verify { json, .. }) => *json,
            None => g.solve.json,
        },
        Command::Serve { .. } | Command::Help { .. } | Command::Olympiad { .. } => false,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = wants_json(&cli);
    // A first Ctrl-C asks the computation to stop cleanly; it is checked often.
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            finish_progress();
            if CANCEL.load(Ordering::SeqCst) {
                if json {
                    eprintln!(
                        "{}",
                        serde_json::json!({"error": "stopped", "kind": "cancelled"})
                    );
                } else {
                    eprintln!("grundy: stopped");
                }
                return ExitCode::from(130);
            }
            if json {
                eprintln!("{}", output::error_json(&e));
            } else {
                eprintln!("grundy: {}", output::error_chain(&e));
            }
            ExitCode::from(2)
        }
    }
}
