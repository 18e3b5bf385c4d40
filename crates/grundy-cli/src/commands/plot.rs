//! `grundy plot FAMILY --up-to N -o FILE`: the Grundy sequence drawn by `grundy-plot`.

use std::path::Path;

use anyhow::Result;
use grundy::report;

use crate::cli::Common;
use crate::output::table_error;
use crate::progress::finish_progress;

/// The command.
pub fn run(family: &str, up_to: u64, out: &Path, common: &Common) -> Result<u8> {
    let table = report::table(family, up_to, &common.limits());
    finish_progress();
    let table = table.map_err(|e| table_error(family, e))?;
    let marked = grundy_plot::marked(family, &common.limits().control);
    grundy_plot::write(&table, marked, out)?;
    outln!("wrote {}", out.display());
    Ok(0)
}
