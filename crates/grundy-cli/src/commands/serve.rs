//! `grundy serve`: the web page of `grundy-web` on 127.0.0.1, with the tablebases given.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::progress::CANCEL;
use crate::tablebase;

/// What one request may use, as the flags give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Positions one exploration may create.
    pub max_positions: u64,
    /// MiB a Grundy table, or the positions an exploration keeps, may take.
    pub max_memory: u64,
    /// Seconds a request may compute.
    pub timeout: u64,
}

/// The bytes one request may take: `max_memory` MiB, and at most a quarter of the
/// address space the process may take (`limit`, from `ulimit -v`), so that a request at
/// its bound leaves room for the server itself (its threads' heaps and stacks) and for a
/// request still stopping while the next one starts.
fn request_memory(max_memory: u64, limit: Option<u64>) -> u64 {
    let asked = max_memory.saturating_mul(1 << 20);
    limit.map_or(asked, |l| asked.min(l / 4))
}

/// The command: serves until Ctrl-C.
pub fn run(port: u16, budget: &Budget, dirs: &[PathBuf]) -> Result<u8> {
    if budget.timeout == 0 {
        bail!("--timeout must be at least 1 second");
    }
    let tablebases = dirs
        .iter()
        .map(|d| tablebase::open_dir(d))
        .collect::<Result<Vec<_>>>()?;
    let limit = grundy_alloc::address_space_limit();
    let max_memory = request_memory(budget.max_memory, limit);
    if max_memory < budget.max_memory.saturating_mul(1 << 20) {
        eprintln!(
            "grundy: a request may take at most {} of memory, a quarter of the {} of address space `ulimit -v` allows",
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
    fn a_request_takes_at_most_a_quarter_of_the_address_space() {
        assert_eq!(request_memory(1024, None), 1 << 30);
        assert_eq!(request_memory(1024, Some(1 << 30)), 1 << 28);
        assert_eq!(request_memory(100, Some(1 << 30)), 100 << 20);
        assert_eq!(request_memory(u64::MAX, None), u64::MAX);
    }
}
