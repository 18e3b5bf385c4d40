//! `--tablebase DIR`: a board's tiers solved on every core and kept on disk, then every
//! answer read from them. Progress bars per tier on a terminal; a summary line on
//! standard error.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use grundy::explore::Control;
use grundy::games::Spec;
use grundy::tier::{self, Event};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Where a board's solved tiers are kept.
#[derive(Args, Clone, Debug, Default)]
pub struct StoreArgs {
    /// Keep the board's solved tiers in DIR (one checksummed file per tier, see
    /// docs/tablebase-format.md): what is missing is solved on every core, what is there
    /// is reused, and answers are read from it.
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
    /// Worker threads for solving tiers (0: every core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::args::u32_arg)]
    pub threads: u32,
    /// Most memory the tier solver may hold, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16384, value_parser = crate::args::u64_arg)]
    pub max_tier_memory: u64,
}

/// Opens the tablebase of `spec`'s board in `dir`; with `build`, solves the tiers it is
/// missing first.
pub fn open(
    spec: &Spec,
    dir: &Path,
    args: &StoreArgs,
    build: bool,
    control: &Control<'_>,
) -> Result<grundy::report::Tablebase> {
    let started = Instant::now();
    let bars = Bars::new();
    let options = tier::Options {
        threads: args.threads as usize,
        max_bytes: args.max_tier_memory.saturating_mul(1 << 20),
    };
    let opened = grundy_tablebase::open_spec(
        spec,
        dir,
        build.then_some(&options),
        &|e| bars.event(e),
        control,
    );
    bars.clear();
    let (tablebase, built) = opened.map_err(|e| match e {
        grundy_tablebase::OpenError::Sum => {
            anyhow::anyhow!("--tablebase is for one board, not a sum of games")
        }
        other => anyhow::Error::new(other),
    })?;
    if let Some(b) = built {
        eprintln!(
            "tablebase {}: {} tiers of {} ({} solved now in {:.1} s, {} read), {} positions, {} on disk ({:.2} bytes a position)",
            dir.display(),
            b.tiers,
            tablebase.game(),
            b.fresh,
            started.elapsed().as_secs_f64(),
            b.tiers - b.fresh,
            b.positions,
            grundy::human_bytes(b.disk_bytes),
            b.disk_bytes as f64 / b.positions.max(1) as f64
        );
    }
    Ok(tablebase)
}

/// Opens a tablebase directory for the game its tier files say, without solving.
pub fn open_dir(dir: &Path) -> Result<grundy::report::Tablebase> {
    let first = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the tablebase directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(grundy_tablebase::tier_of_file_name)
                .is_some()
        })
        .with_context(|| format!("{} holds no tier file (tier-NNNNN.gtb)", dir.display()))?;
    let header = grundy_tablebase::file::read_header(&first)?;
    let spec: Spec = header.game.parse().map_err(|e| {
        anyhow::anyhow!(
            "{}: written for `{}`, which is not a game this grundy knows: {e}",
            first.display(),
            header.game
        )
    })?;
    open(
        &spec,
        dir,
        &StoreArgs::default(),
        false,
        &Control::default(),
    )
}

/// One progress bar per tier being worked on, shown on a terminal only.
struct Bars {
    multi: Option<MultiProgress>,
    bars: Mutex<BTreeMap<(bool, u32), ProgressBar>>,
}

impl Bars {
    fn new() -> Bars {
        Bars {
            multi: std::io::stderr()
                .is_terminal()
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            bars: Mutex::new(BTreeMap::new()),
        }
    }

    fn event(&self, event: &Event) {
        let (solving, tier, done, total) = match *event {
            Event::Reach { tier, done, total } => (false, tier, done, total),
            Event::Solve { tier, done, total } => (true, tier, done, total),
            Event::Done { summary, .. } => {
                if let Some(bar) = self
                    .bars
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&(true, summary.tier))
                {
                    bar.finish_and_clear();
                }
                return;
            }
        };
        let Some(multi) = &self.multi else {
            return;
        };
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let bar = bars.entry((solving, tier)).or_insert_with(|| {
            let bar = multi.add(ProgressBar::new(total));
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>14} [{bar:30}] {human_pos}/{human_len} ranks, {per_sec}, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(format!(
                "{} tier {tier}",
                if solving { "solve" } else { "reach" }
            ));
            bar
        });
        bar.set_position(done);
        if !solving && done >= total {
            bar.finish_and_clear();
        }
    }

    fn clear(&self) {
        let mut bars = self
            .bars
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (_, bar) in std::mem::take(&mut *bars) {
            bar.finish_and_clear();
        }
    }
}
