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
mod cli;
mod commands;
mod graph;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod mathlib;
mod olympiad;
mod output;
mod play;
mod progress;
mod seq;
mod tablebase;

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::Result;
use cli::{Cli, Command};
use progress::{finish_progress, CANCEL};

/// The command's module does the work; a command's exit code is 0 unless it says otherwise.
fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve {
            spec,
            positions,
            solving,
        } => commands::solve::run(&spec, positions.as_deref(), &solving),
        Command::Value {
            spec,
            ascii,
            thermograph,
            form,
            cool,
            heat,
            common,
        } => commands::value::run(
            &spec,
            &commands::value::Asked {
                ascii,
                thermograph: thermograph.as_deref(),
                form,
                cool: cool.as_deref(),
                heat: heat.as_deref(),
            },
            &common,
        ),
        Command::Book {
            spec,
            depth,
            dir,
            threads,
            lines,
            hard_nodes,
            engine,
            max_tier_memory,
            common,
        } => commands::book::run(
            &spec,
            depth,
            &dir,
            (threads, max_tier_memory),
            lines.then_some((hard_nodes, engine.into())),
            &common,
        ),
        Command::Query {
            spec,
            tablebase,
            also,
            json,
        } => commands::query::run(&spec, &tablebase, &also, json),
        Command::Table {
            family,
            up_to,
            write,
            common,
        } => commands::table::run(&family, up_to, write.as_deref(), &common),
        Command::Play {
            spec,
            engine_first,
            solving,
        } => commands::play::run(&spec, engine_first, &solving),
        Command::Graph(args) => commands::graph::run(args),
        Command::Pattern {
            family,
            up_to,
            features,
            check,
            misere,
            common,
        } => {
            if misere {
                commands::pattern::misere(&family, up_to, &common)
            } else {
                commands::pattern::run(&family, up_to, features, &check, &common)
            }
        }
        Command::Plot {
            family,
            up_to,
            output,
            common,
        } => commands::plot::run(&family, up_to, &output, &common),
        Command::Serve {
            port,
            max_positions,
            max_memory,
            timeout,
            max_running,
            tablebase,
        } => commands::serve::run(
            port,
            &commands::serve::Budget {
                max_positions,
                max_memory,
                timeout,
                max_running,
            },
            &tablebase,
        ),
        Command::Check { file, json } => commands::check::run(&file, json),
        Command::Olympiad { name, solve } => commands::olympiad::run(&name, solve),
        Command::Help { command } => commands::help::run(command),
        Command::Tour { common } => commands::tour::run(&common),
    }
}

/// Whether the command asked for JSON (and so its errors are JSON too).
fn wants_json(cli: &Cli) -> bool {
    match &cli.command {
        Command::Solve { solving, .. } | Command::Play { solving, .. } => solving.common.json,
        Command::Table { common, .. }
        | Command::Pattern { common, .. }
        | Command::Plot { common, .. }
        | Command::Book { common, .. }
        | Command::Value { common, .. }
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
    let cli = Cli::parse_from_args(std::env::args_os()).unwrap_or_else(|e| e.exit());
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
            let e = output::with_limit_hint(e);
            if json {
                eprintln!("{}", output::error_json(&e));
            } else {
                eprintln!("grundy: {}", output::error_chain(&e));
            }
            ExitCode::from(2)
        }
    }
}
