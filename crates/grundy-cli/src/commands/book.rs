//! `grundy book SPEC --depth D --dir DIR [--lines]`: a board's book (of every position of
//! its first tiers, or of the lines of play against the engine) built (or deepened) in
//! DIR, then the start's value read from it.

use std::path::Path;

use anyhow::Result;

use crate::args::spec as parse_spec;
use crate::cli::Common;
use crate::progress::finish_progress;
use crate::{output, tablebase};

/// The command, on `threads` threads (0: every core) within `max_tier_memory` MiB;
/// `lines`: the book of play's lines, with its hard nodes and sides.
pub fn run(
    spec: &str,
    depth: u32,
    dir: &Path,
    (threads, max_tier_memory): (u32, u64),
    lines: Option<(u64, grundy::report::book::Sides)>,
    common: &Common,
) -> Result<u8> {
    let spec = parse_spec(spec)?;
    let limits = common.limits();
    let options = grundy::tier::Options {
        threads: threads as usize,
        max_bytes: max_tier_memory.saturating_mul(1 << 20),
    };
    let book = match lines {
        Some((hard, sides)) => {
            tablebase::build_lines(&spec, dir, depth, (hard, sides), &options, &limits)
        }
        None => tablebase::build_book(&spec, dir, depth, &options, &limits),
    };
    finish_progress();
    let book = book?;
    let tablebases = [book];
    let read = grundy::report::Limits {
        tablebases: &tablebases,
        ..limits
    };
    let report = grundy::report::solve(&spec, &read)?;
    if common.json {
        outln!("{}", output::report_json(&report));
    } else {
        out!("{}", output::report_text(&report));
    }
    Ok(0)
}
