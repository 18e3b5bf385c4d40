//! `grundy solve SPEC`: a position's report, or with `--positions FILE` the value of each
//! line's position; with `--tablebase DIR` (and `--processes`) the board's tiers solved to
//! disk first.

use std::path::Path;

use anyhow::{Context, Result};
use grundy::report;

use crate::args::spec as parse_spec;
use crate::cli::{Common, Solving};
use crate::progress::finish_progress;
use crate::{output, tablebase};

/// The command.
pub fn run(spec: &str, positions: Option<&Path>, solving: &Solving) -> Result<u8> {
    let (misere, common, store) = (solving.misere, &solving.common, &solving.store);
    if misere {
        if positions.is_some() || store.tablebase.is_some() || store.processes > 1 {
            anyhow::bail!(
                "--misere solves one position by exploring it: it does not go with --positions, --tablebase or --processes"
            );
        }
        let spec = parse_spec(spec)?;
        let mut limits = common.limits();
        limits.search_threads = store.threads as usize;
        let report = report::solve_in(&spec, report::Play::Misere, &limits);
        finish_progress();
        let report = report.with_context(|| format!("cannot solve `{spec}` in misère play"))?;
        if common.json {
            outln!("{}", output::report_json(&report));
        } else {
            out!("{}", output::report_text(&report));
        }
        return Ok(0);
    }
    if let Some(file) = positions {
        return solve_lines(spec, file, common, store);
    }
    let spec = parse_spec(spec)?;
    let mut limits = common.limits();
    limits.search_threads = store.threads as usize;
    if store.processes > 1 {
        // This process holds only its share of the tier files: it answers the
        // start alone, from the solve.
        let Some(dir) = &store.tablebase else {
            anyhow::bail!("--processes needs --tablebase DIR");
        };
        let solved = tablebase::solve_distributed(&spec, dir, store)?;
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
        Some(dir) => vec![tablebase::open(&spec, dir, store, true, &limits.control)?],
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
    Ok(0)
}

/// `grundy solve GAME --positions FILE`: the value of each line's position, one table kept
/// for every line.
fn solve_lines(
    game: &str,
    file: &Path,
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
    // A tablebase (or book) of the game answers the positions it holds first.
    let tablebases: Vec<grundy::report::Tablebase> = match &store.tablebase {
        Some(dir) => {
            let start = parse_spec(&name)?;
            vec![tablebase::open(&start, dir, store, true, &limits.control)?]
        }
        None => Vec::new(),
    };
    limits.tablebases = &tablebases;
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
