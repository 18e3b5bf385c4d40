//! `grundy olympiad NAME`: a seed's contest task played on standard input and output by
//! [`crate::olympiad`], or with `--solve` the analysis of its start.

use anyhow::Result;

use crate::progress::finish_progress;
use crate::{olympiad, output};

/// The command.
pub fn run(name: &str, solve: bool) -> Result<u8> {
    let task = olympiad::task(name)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    if solve {
        let text = olympiad::read_input(task, &mut input)?;
        let analysis = grundy::contest::analyze(task, &text);
        finish_progress();
        let analysis = analysis?;
        if let Some(report) = &analysis.report {
            out!("{}", output::report_text(report));
        }
        if let Some(rule) = &analysis.rule {
            outln!("{rule}");
        }
    } else {
        olympiad::play(task, &mut input, &mut std::io::stdout())?;
    }
    Ok(0)
}
