//! `grundy tour`: the lecture notes' results, computed now by [`crate::output::tour`].

use anyhow::Result;

use crate::cli::Common;
use crate::output;
use crate::progress::finish_progress;

/// The command.
pub fn run(common: &Common) -> Result<u8> {
    let tour = output::tour(&common.limits());
    finish_progress();
    let tour = tour?;
    if common.json {
        outln!("{}", tour.1);
    } else {
        out!("{}", tour.0);
    }
    Ok(0)
}
