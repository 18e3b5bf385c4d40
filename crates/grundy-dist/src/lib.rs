//! The tier solver of grundy on [timely dataflow](https://docs.rs/timely): the same tiers,
//! records and tablebase as [`grundy::tier::solve()`], with the ranks of every tier shared
//! among workers in threads of one process or in many processes.
//!
//! Each tier is cut into slices of [`SLICE`] ranks (a tablebase block), dealt to the W
//! workers in turn as one run from tier 0's first slice on (slice `k` of a tier is worker
//! `(k + s) mod W`'s, `s` the slices of the tiers before it), so that each holds its share
//! of every tier within a slice and of all tiers; the owner keeps its reachability bits
//! and the records of the tier it solves in dense arrays, and a tier solved in the form
//! its parts travel in (a code of a few bits a rank, or a bit a rank and the reached
//! ranks' records, where that is smaller than the array).
//! Forward reachability pushes each child to its owner (as its place in the owner's
//! arrays); before a tier is
//! solved, the workers abroad send each process their parts of its child tiers whole
//! (to one of its workers, which the others read in place) when they fit
//! [`Config::told_bytes`] (a code of a few bits a rank, or a bit a rank and a byte a
//! reached position, whichever is smaller), and the tier is
//! labelled in one visit as the library labels it; past that budget the records of its
//! positions' children are pulled from their owners a batch at a time (sorted,
//! delta-coded places out, two bytes a record back) and each position labelled by the
//! library's own [`grundy::tier::solve::evaluate`]; positions with moves inside their tier
//! (Quixo, Kalah) are labelled in rounds, one remoteness a round, each decided position
//! pushing its value to its parents' owners. Every round is one epoch of a timely
//! dataflow: progress tracking says when all its messages have arrived everywhere, and
//! each round also sums a few counters over the workers (what changed, errors), which is
//! how a loop of rounds ends.
//!
//! A tier's file is written by one process, `tier mod N`, from the blocks every worker
//! compressed for its own slices: the same bytes as the single-machine solver writes
//! (see `docs/ARCHITECTURE.md`, "grundy-dist"), into that process's directory or one
//! all the processes share (each tier file under its own lock).
//!
//! ```
//! use std::sync::Arc;
//! use grundy_dist::{solve, Cluster, Config};
//!
//! let spec: grundy::games::Spec = "tictactoe".parse().unwrap();
//! let family = Arc::clone(&spec.single().unwrap().family);
//! let dir = std::env::temp_dir().join(format!("grundy-dist-doc-{}", std::process::id()));
//! let config = Config { workers: 2, cluster: Cluster::default(), ..Config::default() };
//! let solved = solve(Arc::new(family), &dir, &config, Arc::new(|_| {})).unwrap();
//! assert_eq!(solved.solved.positions(), 5478);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![forbid(unsafe_code)]

mod asked;
mod codec;
mod exchange;
pub mod net;
mod told;
mod waiting;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use grundy::games::Family;
use grundy::tier::{Event, TierGame};

pub use exchange::Traffic;

/// Ranks of a slice, the unit of ownership: one tablebase block, so that a worker
/// compresses whole blocks of the file.
pub const SLICE: u64 = grundy_tablebase::format::DEFAULT_BLOCK_RECORDS as u64;

/// Where a game to solve comes from: every worker thread asks for it (timely's workers
/// are `'static` threads).
pub trait Source: Send + Sync + 'static {
    /// Calls `f` with the game.
    fn with(&self, f: &mut dyn FnMut(&dyn TierGame));
}

impl<G: TierGame + 'static> Source for Arc<G> {
    fn with(&self, f: &mut dyn FnMut(&dyn TierGame)) {
        f(&**self);
    }
}

/// A family of the catalog with tiers (a board game).
impl Source for Arc<dyn Family> {
    fn with(&self, f: &mut dyn FnMut(&dyn TierGame)) {
        if let Some(tiers) = self.tiers() {
            f(tiers.game());
        }
    }
}

/// The processes of a run: timely's conventions (`-n`, `-p`, a hosts file of one
/// `host:port` a line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// This process, `0..addresses.len()`.
    pub process: usize,
    /// Every process's address, `host:port`; empty for one process alone.
    pub addresses: Vec<String>,
    /// How long to wait for the other processes to connect (default 60 s).
    pub connect_timeout: Duration,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            process: 0,
            addresses: Vec::new(),
            connect_timeout: Duration::from_secs(60),
        }
    }
}

impl Cluster {
    /// The number of processes (1 when alone).
    #[must_use]
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// Reads a hosts file (one `host:port` a line; blank lines and `#` comments skipped)
    /// for process `process` of `processes`.
    ///
    /// # Errors
    /// The file cannot be read, holds fewer addresses than processes (with the line
    /// count), or `process` is not below `processes`.
    pub fn from_hosts(text: &str, processes: usize, process: usize) -> Result<Cluster, Error> {
        if processes == 0 {
            return Err(Error::Config("--processes must be at least 1".into()));
        }
        if process >= processes {
            return Err(Error::Config(format!(
                "--process {process} is not below --processes {processes}"
            )));
        }
        let mut addresses = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if !line.contains(':') || line.contains(char::is_whitespace) {
                return Err(Error::Config(format!(
                    "hosts file line {}, column 1: `{line}` is not host:port",
                    i + 1
                )));
            }
            if addresses.len() < processes {
                addresses.push(line.to_owned());
            }
        }
        if addresses.len() < processes {
            return Err(Error::Config(format!(
                "the hosts file names {} processes, not the {processes} of --processes",
                addresses.len()
            )));
        }
        Ok(Cluster {
            process,
            addresses: if processes == 1 {
                Vec::new()
            } else {
                addresses
            },
            ..Cluster::default()
        })
    }
}

/// How to solve.
#[derive(Debug, Clone)]
pub struct Config {
    /// Worker threads in this process (at least 1; every process runs as many).
    pub workers: usize,
    /// The processes.
    pub cluster: Cluster,
    /// The most bytes one worker may hold (its share of reachability bits and held
    /// tiers); refused before anything is allocated.
    pub max_bytes: u64,
    /// How long a round may wait for the other workers before the run stops with an
    /// error (a process that hangs rather than dies); default 10 minutes.
    pub round_timeout: Duration,
    /// Ranks a worker visits between two rounds while reaching and solving (a multiple
    /// of [`SLICE`]; default 1 slice, 256 Ki ranks): bounds the messages and the kept
    /// positions' moves held at once (on `connect4[5x5]` over two processes, 2 slices held
    /// 131 MiB a process at the peak, 1 slice 92 MiB, for the same CPU).
    pub batch_slices: usize,
    /// Moves of positions kept for their children abroad (16 bytes each) a round of
    /// solving keeps at most (room for them asked once): it stops visiting before a
    /// part (a 32nd of a slice) as wide as the widest of the tier so far would pass
    /// them, and asks for their records (default 2^19, 8 MiB: a slice of `quixo[4]` over
    /// two processes keeps 3.4 M; connect four keeps fewer; on `quixo[4]` 2^20 held about
    /// 8 MiB more a process for 5% fewer rounds and the same CPU).
    pub kept_moves: usize,
    /// The most bytes a worker may take of the records of a tier's child tiers that
    /// workers in other processes own, taken whole before the tier is solved (a part in
    /// the smaller of two forms: a code of 1, 2, 4 or 8 bits a rank of theirs when it holds
    /// fewer than 256 distinct records; or a bit a rank with 8 bytes of count a 64 ranks,
    /// then a byte a position reached, two past 256 records; each part taken by one
    /// worker of a process and read in place by the others, so a process holds up to
    /// `workers` times this): the tier is then labelled in one visit, each move abroad one
    /// lookup. Past it on any worker, the positions with a child abroad are kept
    /// and their children's records asked for, a batch at a time (`kept_moves`). Default
    /// 8 MiB, the room `kept_moves` keeps by default: on `connect4[5x5]` over two
    /// processes every tier is taken whole.
    pub told_bytes: u64,
    /// Whether the workers of a process read each other's records and reachability bits
    /// in place (default). Off, every rank another worker owns travels as a message, as
    /// it does between processes: for tests of that path in one process, and to measure
    /// a cluster's traffic on one machine.
    pub share: bool,
    /// Ranks a slice, a power of two from 64: the tablebase's records per block (default
    /// [`SLICE`]; smaller only to test many workers on small games, since the files'
    /// blocks change).
    pub slice: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            workers: 1,
            cluster: Cluster::default(),
            max_bytes: 16 << 30,
            round_timeout: Duration::from_secs(600),
            batch_slices: 1,
            kept_moves: 1 << 19,
            told_bytes: 8 << 20,
            share: true,
            slice: SLICE,
        }
    }
}

/// A solved game, as every process sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// Every tier and the start's record, as [`grundy::tier::solve()`] returns them.
    pub solved: grundy::tier::Solved,
    /// What each tier solved now cost in messages (every worker's, summed), last tier
    /// first.
    pub tiers: Vec<TierCost>,
    /// What forward reachability cost.
    pub reach: Traffic,
    /// Moves followed while solving (edges of the tiers solved now).
    pub edges: u64,
    /// The workers over all processes.
    pub workers: usize,
}

/// What solving one tier cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierCost {
    /// The tier.
    pub tier: u32,
    /// Its messages and bytes.
    pub traffic: Traffic,
    /// Moves followed from its positions.
    pub edges: u64,
    /// Positions reached in it.
    pub positions: u64,
}

impl Solved {
    /// Every message of the run (reachability and solving).
    #[must_use]
    pub fn traffic(&self) -> Traffic {
        self.tiers
            .iter()
            .fold(self.reach, |a, t| a.plus(&t.traffic))
    }
}

/// The most workers a run may have over all its processes (a worker's number leaves
/// the top bit of a `u32` free for the kind of its messages).
pub const MAX_WORKERS: usize = 1 << 20;

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The solver refused the game (as [`grundy::tier::solve()`] would).
    #[error("{0}")]
    Solve(#[from] grundy::Error),
    /// The tablebase.
    #[error("{0}")]
    Store(#[from] grundy_tablebase::Error),
    /// A flag or hosts file that does not describe a run.
    #[error("{0}")]
    Config(String),
    /// Another process is not the same run (game, version, process count), or could not
    /// be reached.
    #[error("{0}")]
    Handshake(String),
    /// A process stopped answering during the run.
    #[error("{0}")]
    Lost(String),
    /// An error another worker met, as it told it.
    #[error("worker {worker} (process {process}): {message}")]
    Peer {
        /// The worker, over all processes.
        worker: usize,
        /// Its process.
        process: usize,
        /// Its error.
        message: String,
    },
}

/// Solves every tier of `game` missing from this process's tablebase in `dir`, with
/// `config.workers` threads here and the same in every other process of
/// `config.cluster`; each process writes the tier files whose tier is its index modulo
/// the number of processes. The processes may each be given a directory of their own or
/// all the same one: several processes share theirs
/// ([`grundy_tablebase::Tablebase::share_writing`]: each tier file locked while it is
/// written, the directory's manifest naming the game), one alone holds it. `listen` hears
/// every tier done (process 0 only: the events of its first worker).
///
/// # Errors
/// As [`grundy::tier::solve()`], plus a refused handshake, a lost process, and the
/// errors of any other worker.
pub fn solve(
    game: Arc<dyn Source>,
    dir: &Path,
    config: &Config,
    listen: Arc<dyn Fn(&Event) + Send + Sync>,
) -> Result<Solved, Error> {
    if config.slice < 64
        || !config.slice.is_power_of_two()
        || config.slice > u64::from(grundy_tablebase::format::MAX_BLOCK_RECORDS)
    {
        return Err(Error::Config(format!(
            "slices of {} ranks (a power of two, 64 to {})",
            config.slice,
            grundy_tablebase::format::MAX_BLOCK_RECORDS
        )));
    }
    if config.workers == 0 {
        return Err(Error::Config("--workers must be at least 1".into()));
    }
    let all = config
        .workers
        .checked_mul(config.cluster.addresses.len().max(1));
    if all.is_none_or(|n| n > MAX_WORKERS) {
        return Err(Error::Config(format!(
            "{} workers in each of {} processes: at most {MAX_WORKERS} in all",
            config.workers,
            config.cluster.addresses.len().max(1)
        )));
    }
    let mut fingerprint = None;
    game.with(&mut |g| fingerprint = Some(net::Fingerprint::of(g, config)));
    let fingerprint = fingerprint.ok_or_else(|| {
        Error::Config("the game has no tiers, so it cannot be solved tier by tier".into())
    })?;
    let dir: PathBuf = dir.to_owned();
    let config2 = config.clone();
    let shared = Arc::new(worker::Shared::default());
    let run = move |w: &mut timely::worker::Worker| {
        let mut out = None;
        game.with(&mut |g| {
            out = Some(worker::run(w, g, &dir, &config2, &shared, &*listen));
        });
        out.unwrap_or_else(|| Err(Error::Config("the game has no tiers".into())))
    };
    net::execute(config, &fingerprint, run)
}
