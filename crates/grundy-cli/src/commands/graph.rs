//! `grundy graph`: [`crate::graph`] run with the CLI's cancel flag and progress line.

use anyhow::Result;
use grundy::explore::Control;

use crate::graph;
use crate::progress::{finish_progress, progress, CANCEL};

/// The command: the exit code [`graph::run`] chose.
pub fn run(args: graph::GraphArgs) -> Result<u8> {
    let control = Control {
        max_positions: u64::MAX,
        cancel: Some(&CANCEL),
        progress: Some(&progress),
    };
    let code = graph::run(args, &control);
    finish_progress();
    Ok(u8::try_from(code?).unwrap_or(1))
}
