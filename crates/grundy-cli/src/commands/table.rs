//! `grundy table FAMILY --up-to N`: outcome and Grundy value of every heap size, or with
//! `--write FILE` the Grundy values streamed to a sequence file.

use std::path::Path;

use anyhow::Result;
use grundy::report;

use crate::cli::Common;
use crate::output::{self, table_error};
use crate::progress::finish_progress;
use crate::seq;

/// The command.
pub fn run(family: &str, up_to: u64, write: Option<&Path>, common: &Common) -> Result<u8> {
    if let Some(path) = write {
        let parsed = grundy::games::parse_family(family)
            .map_err(|e| anyhow::anyhow!("{}", e.render(family)))?;
        let grundy::games::GrundySource::Heaps(rules) = parsed.grundy() else {
            anyhow::bail!("--write is for octal and subtraction games");
        };
        let written = seq::write(
            &rules,
            up_to.saturating_add(1),
            path,
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
        return Ok(0);
    }
    let table = report::table(family, up_to, &common.limits());
    finish_progress();
    let table = table.map_err(|e| table_error(family, e))?;
    if common.json {
        outln!("{}", output::table_json(&table));
    } else {
        out!("{}", output::table_text(&table));
    }
    Ok(0)
}
