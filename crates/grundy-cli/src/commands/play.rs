//! `grundy play SPEC`: the match set up (its tablebase and search table), then played in
//! the terminal by [`crate::play`].

use anyhow::{Context, Result};
use grundy::report;

use crate::args::spec as parse_spec;
use crate::cli::Solving;
use crate::progress::finish_progress;
use crate::{play, tablebase};

/// The command: 130 when the player stopped it.
pub fn run(spec: &str, engine_first: bool, solving: &Solving) -> Result<u8> {
    let (misere, common, store) = (solving.misere, &solving.common, &solving.store);
    let spec = parse_spec(spec)?;
    let mut limits = common.limits();
    let tablebases: Vec<grundy::report::Tablebase> = match &store.tablebase {
        Some(dir) => vec![tablebase::open(&spec, dir, store, true, &limits.control)?],
        None => Vec::new(),
    };
    limits.tablebases = &tablebases;
    // The exact search's table outlives each move: what one reply proved, the
    // next reads.
    let cache = report::SearchCache::new();
    limits.search_cache = Some(&cache);
    limits.search_threads = store.threads as usize;
    if misere && store.tablebase.is_some() {
        anyhow::bail!("--misere explores each position: it does not go with --tablebase");
    }
    let play = if misere {
        report::Play::Misere
    } else {
        report::Play::Normal
    };
    let game = grundy::play::Match::new_in(spec.clone(), play, !engine_first, &limits);
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
    Ok(0)
}
