//! `grundy`: solve, tabulate and play two-player games from the command line.

mod graph;
mod output;
mod play;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
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
#[command(name = "grundy", version, about, long_about = None)]
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
        /// The position.
        spec: String,
        #[command(flatten)]
        common: Common,
    },
    /// Outcome and Grundy value of every heap size 0..=N of a one-heap family.
    Table {
        /// The family: nim, bounded-nim[m], subtraction[s,…], octal[0.d…], multiple[k].
        family: String,
        /// The largest heap size.
        #[arg(long, value_name = "N")]
        up_to: u64,
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
    },
    /// Games on graphs: the POI green game (Büchi), PGSolver parity games, reachability,
    /// safety, co-Büchi; token games on plain digraphs. `grundy graph verify GAME
    /// SOLUTION` checks a claimed solution.
    Graph(graph::GraphArgs),
    /// The special method: find the pattern of a family (losing positions, a rule that
    /// plays in O(log n)), check it against the general method, prove it where a
    /// theorem applies. Families: nim, bounded-nim[m], multiple[k], wythoff.
    Pattern {
        /// The family.
        family: String,
        /// Check the rule against the general method up to this size.
        #[arg(long, value_name = "N", default_value_t = 2000)]
        up_to: u64,
        #[command(flatten)]
        common: Common,
    },
    /// A tour of the lecture notes' results, computed now.
    Tour {
        #[command(flatten)]
        common: Common,
    },
}

#[derive(Args, Clone, Copy)]
struct Common {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Most positions to explore (a larger sum is judged by Grundy values alone).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_positions: u64,
    /// Most memory a Grundy table may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    max_memory: u64,
    /// Most elementary steps a Grundy table may take.
    #[arg(long, value_name = "STEPS", default_value_t = 20_000_000_000)]
    max_work: u128,
}

static CANCEL: AtomicBool = AtomicBool::new(false);
static PROGRESS: OnceLock<(Instant, ProgressBar)> = OnceLock::new();

/// Shows a spinner once a computation has run for a second; silent before.
fn progress(stage: &str, done: u64) {
    let (start, bar) = PROGRESS.get_or_init(|| {
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
        bar.set_message(format!("{stage}: {done}"));
        bar.tick();
    }
}

fn finish_progress() {
    if let Some((_, bar)) = PROGRESS.get() {
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
        }
    }
}

fn parse_spec(text: &str) -> Result<Spec> {
    text.parse::<Spec>()
        .map_err(|e| anyhow::anyhow!("{}", output::spec_error(text, &e)))
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve { spec, common } => {
            let spec = parse_spec(&spec)?;
            let report = report::solve(&spec, &common.limits());
            finish_progress();
            let report = report.with_context(|| format!("cannot solve `{spec}`"))?;
            if common.json {
                println!("{}", output::report_json(&report));
            } else {
                print!("{}", output::report_text(&report));
            }
        }
        Command::Table {
            family,
            up_to,
            common,
        } => {
            let table = report::table(&family, up_to, &common.limits());
            finish_progress();
            let table = table.map_err(|e| match e {
                report::TableError::Spec(e) => {
                    anyhow::anyhow!("{}", output::spec_error(&family, &e))
                }
                report::TableError::Solve(e) => anyhow::anyhow!("cannot tabulate `{family}`: {e}"),
            })?;
            if common.json {
                println!("{}", output::table_json(&table));
            } else {
                print!("{}", output::table_text(&table));
            }
        }
        Command::Play {
            spec,
            engine_first,
            common,
        } => {
            let spec = parse_spec(&spec)?;
            let stdin = std::io::stdin();
            play::play(
                spec,
                engine_first,
                &common.limits(),
                &mut stdin.lock(),
                &mut std::io::stdout(),
            )?;
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
            common,
        } => {
            let found = grundy::pattern::discover(&family, up_to, &common.limits().control);
            finish_progress();
            let found = found.with_context(|| format!("no pattern for `{family}`"))?;
            if common.json {
                println!("{}", serde_json::to_value(&found)?);
            } else {
                print!("{}", output::pattern_text(&found));
            }
        }
        Command::Tour { common } => {
            let tour = output::tour(&common.limits());
            finish_progress();
            let tour = tour?;
            if common.json {
                println!("{}", tour.1);
            } else {
                print!("{}", tour.0);
            }
        }
    }
    Ok(0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A first Ctrl-C asks the computation to stop cleanly; it is checked often.
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            finish_progress();
            if CANCEL.load(Ordering::SeqCst) {
                eprintln!("grundy: stopped");
                return ExitCode::from(130);
            }
            eprintln!("grundy: {e:#}");
            ExitCode::from(2)
        }
    }
}
