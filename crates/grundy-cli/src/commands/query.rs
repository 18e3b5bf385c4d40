//! `grundy query SPEC --tablebase DIR`: a board's value and every move's, read from a
//! tablebase with no search.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use grundy::report::{self, Limits};

use crate::args::spec as parse_spec;
use crate::output;

/// The command.
pub fn run(spec: &str, dir: &Path, also: &[PathBuf], json: bool) -> Result<u8> {
    let spec = parse_spec(spec)?;
    let Some(tiers) = spec.single().and_then(|p| p.family.tiers()) else {
        anyhow::bail!("`{spec}` is not one board split into tiers, so no tablebase holds it");
    };
    let mut store = grundy_tablebase::Tablebase::open(dir, tiers.game())?.reading_also(also)?;
    let report = report::lookup(&spec, &Limits::default(), &mut store)
        .with_context(|| format!("cannot read `{spec}` from {}", dir.display()))?
        .with_context(|| match crate::tablebase::book_depth(&spec, dir) {
            Some(depth) => format!(
                "the book in {} holds tiers 0 to {depth}: `{spec}` or its moves are past it (`grundy solve '{spec}' --tablebase {}` searches what the book does not hold)",
                dir.display(),
                dir.display()
            ),
            None => format!(
                "the tablebase in {} does not hold `{spec}` yet: `grundy solve '{spec}' --tablebase {}` builds it (the directories of a distributed solve's other processes are read with --also DIR)",
                dir.display(),
                dir.display()
            ),
        })?;
    if json {
        outln!("{}", output::report_json(&report));
    } else {
        out!("{}", output::report_text(&report));
    }
    Ok(0)
}
