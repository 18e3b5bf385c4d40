//! The cancel flag a first Ctrl-C sets, and the progress line of the computation running
//! now (a spinner on standard error after a second).

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Set by a first Ctrl-C: the computation running stops cleanly.
pub static CANCEL: AtomicBool = AtomicBool::new(false);
/// The progress line of the computation running now: when it started, and its spinner.
static PROGRESS: Mutex<Option<(Instant, ProgressBar)>> = Mutex::new(None);

/// Shows a spinner once a computation has run for a second; silent before. Each
/// computation's clock starts at its first report (after [`finish_progress`]).
pub fn progress(stage: &str, done: u64) {
    let mut slot = PROGRESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (start, bar) = slot.get_or_insert_with(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("a valid template"),
        );
        (Instant::now(), bar)
    });
    if start.elapsed().as_secs_f64() >= 1.0 && std::io::stderr().is_terminal() {
        if bar.is_hidden() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        // The count and its pace (positions explored, nodes searched, heaps computed).
        let pace = done as f64 / start.elapsed().as_secs_f64();
        let pace = if pace >= 1e6 {
            format!("{:.1} M", pace / 1e6)
        } else {
            format!("{pace:.0}")
        };
        bar.set_message(format!("{stage}: {done}, {pace} a second"));
        bar.tick();
    }
}

/// Clears the progress line, if one is shown, and ends the computation's clock.
pub fn finish_progress() {
    let taken = PROGRESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some((_, bar)) = taken {
        bar.finish_and_clear();
    }
}
