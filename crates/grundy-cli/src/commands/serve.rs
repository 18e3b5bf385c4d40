//! `grundy serve`: the web page of `grundy-web` on 127.0.0.1, with the tablebases given.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::progress::CANCEL;
use crate::tablebase;

/// What requests may use, as the flags give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Positions one exploration may create.
    pub max_positions: u64,
    /// MiB a Grundy table, or the positions an exploration keeps, may take.
    pub max_memory: u64,
    /// Seconds a request may compute.
    pub timeout: u64,
    /// Requests that may compute at once (`None`: one a core, at least two).
    pub max_running: Option<usize>,
}

/// The bytes one request may take: the `asked` bytes, and, where the address space the
/// process may take is bounded (`limit`, from `ulimit -v`), at most half of it shared by
/// the `running` requests that may compute at once, so that they leave the other half to
/// the server itself (its code, its threads' heaps and stacks).
fn request_memory(asked: u64, limit: Option<u64>, running: usize) -> u64 {
    let running = u64::try_from(running.max(1)).unwrap_or(u64::MAX);
    limit.map_or(asked, |l| asked.min(l / 2 / running))
}

/// The command: serves until Ctrl-C.
pub fn run(port: u16, budget: &Budget, dirs: &[PathBuf]) -> Result<u8> {
    if budget.timeout == 0 {
        bail!("--timeout must be at least 1 second");
    }
    if budget.max_running == Some(0) {
        bail!("--max-running must be at least 1");
    }
    let tablebases = dirs
        .iter()
        .map(|d| tablebase::open_dir(d))
        .collect::<Result<Vec<_>>>()?;
    let running = budget
        .max_running
        .unwrap_or_else(grundy_web::default_running)
        .min(grundy_web::Semaphore::MAX_PERMITS);
    let limit = grundy_alloc::address_space_limit();
    let asked = budget.max_memory.saturating_mul(1 << 20);
    let max_memory = request_memory(asked, limit, running);
    if max_memory < asked {
        eprintln!(
            "grundy: a request may take at most {} of memory: half of the {} of address space `ulimit -v` allows, shared by the {running} that may compute at once",
            grundy::human_bytes(max_memory),
            grundy::human_bytes(limit.unwrap_or(0))
        );
    }
    // A server lives long and answers bounded requests: memory freed goes back to the
    // system, and its threads share a heap per core rather than one each.
    grundy_alloc::long_running(
        std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get),
    );
    let config = grundy_web::Config {
        max_positions: budget.max_positions,
        max_memory,
        timeout: Duration::from_secs(budget.timeout),
        running: std::sync::Arc::new(grundy_web::Semaphore::new(running)),
        tablebases,
        ..grundy_web::Config::default()
    };
    grundy_web::serve(port, config, Some(&CANCEL), |addr| {
        println!("grundy: serving on http://{addr}/ (Ctrl-C stops)");
    })
    .with_context(|| format!("cannot serve on 127.0.0.1:{port} (--port picks another)"))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_computing_at_once_share_half_the_address_space() {
        assert_eq!(request_memory(1024 << 20, None, 2), 1 << 30);
        assert_eq!(request_memory(1024 << 20, Some(1 << 30), 2), 1 << 28);
        assert_eq!(request_memory(1024 << 20, Some(1 << 30), 1), 1 << 29);
        assert_eq!(request_memory(1024 << 20, Some(1 << 30), 0), 1 << 29);
        assert_eq!(request_memory(100 << 20, Some(1 << 30), 2), 100 << 20);
        assert_eq!(request_memory(u64::MAX, None, 8), u64::MAX);
    }
}
