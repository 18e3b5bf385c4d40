//! grundy: solve two-player games of perfect information.
//!
//! The general method — explore every position, label it won, lost or drawn with its
//! remoteness — works on any [`Game`](game::Game), cycles included; impartial games also
//! get Sprague–Grundy values, and sums are judged part by part.
//!
//! ```
//! use grundy::games::Spec;
//! use grundy::report::{solve, Limits};
//! use grundy::game::Outcome;
//!
//! let spec: Spec = "nim(3,3,1)".parse().unwrap();
//! let report = solve(&spec, &Limits::default()).unwrap();
//! assert_eq!(report.outcome, Outcome::Win);
//! assert_eq!(report.grundy, Some(1));
//! // XOR 3^3^1 = 1: take a 3 to 2, or the 1 away.
//! assert_eq!(report.winning_moves, ["nim(2,3,1)", "nim(3,2,1)", "nim(3,3,0)"]);
//! assert_eq!(report.remoteness, Some(7));
//! ```
#![forbid(unsafe_code)]

pub mod cgt;
pub mod contest;
// Internal layers: the graph type (public as `explore::Csr`), the retrograde engine and
// the Grundy oracles serve the modules above them and are no part of the API.
mod csr;
mod engine;
pub mod explore;
pub mod game;
pub mod games;
pub mod graph;
pub mod impartial;
mod memory;
pub mod misere;
pub mod number;
pub mod octal;
pub mod pattern;
pub mod play;
pub mod report;
pub mod search;
pub mod sequence;
pub mod solve;
pub mod tier;
mod values;

/// What can go wrong in a computation (bad specs have their own [`games::SpecError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The computation would exceed a fixed ceiling (a remoteness past 2^30, ids past
    /// 2^32, memory the system does not give) or a search's own budget, which no
    /// [`Limit`] names; `need` is an estimate in bytes where known. Past a limit the
    /// caller set: [`Error::OverLimit`].
    #[error("too large: {what}{}", need.map(|b| format!(" (would need about {})", human_bytes(b))).unwrap_or_default())]
    TooLarge {
        /// What is too large.
        what: String,
        /// Estimated memory needed, in bytes.
        need: Option<u64>,
    },
    /// The computation would exceed a limit the caller set, `limit`: raising that limit
    /// (to `wanted`, where known) lets it through. `need` is an estimate in bytes where
    /// known. Its text is that of [`Error::TooLarge`]; front ends add their own knob.
    #[error("too large: {what}{}", need.map(|b| format!(" (would need about {})", human_bytes(b))).unwrap_or_default())]
    OverLimit {
        /// Which limit.
        limit: Limit,
        /// What is too large.
        what: String,
        /// Estimated memory needed, in bytes.
        need: Option<u64>,
        /// The least value of the limit that would let it through, in the limit's unit
        /// ([`Limit::unit`]), where known (often from an upper bound, so more than is needed).
        wanted: Option<u128>,
    },
    /// Someone asked to stop (Ctrl-C).
    #[error("cancelled")]
    Cancelled,
    /// An acyclic method met a cycle through this vertex.
    #[error("the game has a cycle (through position #{vertex}); this needs an acyclic game")]
    Cycle {
        /// A vertex on or leading into a cycle.
        vertex: u32,
    },
    /// An arithmetic result does not fit in 64 bits.
    #[error("a value does not fit in 64 bits")]
    Overflow,
    /// The request does not make sense for this game.
    #[error("{0}")]
    Unsupported(String),
    /// A store of solved positions (a tablebase on disk) failed or holds something invalid;
    /// the message names the file, and the block where there is one.
    #[error("{0}")]
    Store(String),
}

impl Error {
    /// A stable word for the kind of refusal, as the CLI's `--json` errors and the web
    /// API name it: `too-large` (a limit; `need` says how far), `cancelled`,
    /// `unsupported` (a method that does not apply: a cycle, an overflow, a game it
    /// cannot take), `store` (a tablebase that cannot be read).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Error::TooLarge { .. } | Error::OverLimit { .. } => "too-large",
            Error::Cancelled => "cancelled",
            Error::Cycle { .. } | Error::Overflow | Error::Unsupported(_) => "unsupported",
            Error::Store(_) => "store",
        }
    }
}

impl Error {
    /// A refusal past `limit`, with what is too large and what it would need.
    #[must_use]
    pub fn over(limit: Limit, what: String, need: Option<u128>, wanted: Option<u128>) -> Error {
        Error::OverLimit {
            limit,
            what,
            need: need.map(|b| u64::try_from(b).unwrap_or(u64::MAX)),
            wanted,
        }
    }

    /// Whether this is a refusal for size ([`Error::TooLarge`] or [`Error::OverLimit`]):
    /// the analyzer's chain then tries its next method.
    #[must_use]
    pub fn is_too_large(&self) -> bool {
        matches!(self, Error::TooLarge { .. } | Error::OverLimit { .. })
    }

    /// What is too large, for a refusal for size.
    #[must_use]
    pub fn too_large_what(&self) -> Option<&str> {
        match self {
            Error::TooLarge { what, .. } | Error::OverLimit { what, .. } => Some(what),
            _ => None,
        }
    }

    /// The bytes a refusal for size says it would need, where known.
    #[must_use]
    pub fn need(&self) -> Option<u64> {
        match self {
            Error::TooLarge { need, .. } | Error::OverLimit { need, .. } => *need,
            _ => None,
        }
    }

    /// The limit a refusal is past, where raising one would let it through (none for a
    /// fixed ceiling: 2^30 of remoteness, 2^32 ids, memory the system does not give).
    #[must_use]
    pub fn limit(&self) -> Option<(Limit, Option<u128>)> {
        match self {
            Error::OverLimit { limit, wanted, .. } => Some((*limit, *wanted)),
            _ => None,
        }
    }
}

/// Which of the caller's limits ([`report::Limits`], [`explore::Control`],
/// [`tier::solve::solve`]'s options) a refusal is past, so that each front end names its own
/// knob for it: the CLI's flag, the web server's setting, Python's keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Positions an exploration may create (`Control::max_positions`).
    Positions,
    /// Bytes of a Grundy table, or of an exploration's positions kept in a hash map
    /// (`Limits::max_memory`).
    Memory,
    /// Elementary steps of a Grundy table (`Limits::max_work`).
    Work,
    /// Heaps computed to prove a heap game's period, or tabulated outright
    /// (`Limits::max_proof_heaps`).
    ProofHeaps,
    /// Positions the proof search may visit (`Limits::max_search_nodes`).
    SearchNodes,
    /// Positions the exact search may visit (`Limits::max_exact_nodes`).
    ExactNodes,
    /// Bytes of the tier solver's tables (`tier::solve::Options::max_bytes`).
    TierMemory,
    /// The largest size a study of a family is asked up to (`pattern`'s reach).
    UpTo,
}

impl Limit {
    /// A stable word for it, as `--json` errors and the web API name it: `positions`,
    /// `memory`, `work`, `proof-heaps`, `search-nodes`, `exact-nodes`, `tier-memory`,
    /// `up-to`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Limit::Positions => "positions",
            Limit::Memory => "memory",
            Limit::Work => "work",
            Limit::ProofHeaps => "proof-heaps",
            Limit::SearchNodes => "search-nodes",
            Limit::ExactNodes => "exact-nodes",
            Limit::TierMemory => "tier-memory",
            Limit::UpTo => "up-to",
        }
    }

    /// The unit of its value: `bytes` for the memories, else a count (`positions`,
    /// `steps`, `heaps`, `nodes`, `size`).
    #[must_use]
    pub fn unit(self) -> &'static str {
        match self {
            Limit::Positions => "positions",
            Limit::Memory | Limit::TierMemory => "bytes",
            Limit::Work => "steps",
            Limit::ProofHeaps => "heaps",
            Limit::SearchNodes | Limit::ExactNodes => "nodes",
            Limit::UpTo => "size",
        }
    }

    /// The knob that sets it, as the CLI's flags and Python's keywords name it
    /// ([`Spelling`]): `max-positions`, `max-memory`, `max-work`, `max-proof-heaps`,
    /// `max-nodes`, `max-exact-nodes`, `max-tier-memory`, `up-to`.
    #[must_use]
    pub fn knob(self) -> &'static str {
        match self {
            Limit::Positions => "max-positions",
            Limit::Memory => "max-memory",
            Limit::Work => "max-work",
            Limit::ProofHeaps => "max-proof-heaps",
            Limit::SearchNodes => "max-nodes",
            Limit::ExactNodes => "max-exact-nodes",
            Limit::TierMemory => "max-tier-memory",
            Limit::UpTo => "up-to",
        }
    }

    /// What a refusal past it tells the user to do, its knob spelled as `spelling` says:
    /// raise it to `wanted` (in the limit's [`Limit::unit`]; memories in MiB, rounded up,
    /// as the knobs take them) — `raise it with --max-positions 21036600`, `raise it with
    /// max_memory=2 (MiB)` — or, for a study's reach, lower it.
    #[must_use]
    pub fn hint(self, wanted: Option<u128>, spelling: Spelling) -> String {
        let mib = matches!(self, Limit::Memory | Limit::TierMemory);
        let name = spelling.name(self.knob());
        if self == Limit::UpTo {
            return match wanted {
                Some(n) => format!(
                    "lower it with {} or less",
                    spelling.set(&name, &n.to_string())
                ),
                None => format!("lower it with a smaller {name}"),
            };
        }
        match wanted {
            Some(bytes) if mib => format!(
                "raise it with {} (MiB)",
                spelling.set(&name, &bytes.div_ceil(1 << 20).to_string())
            ),
            Some(n) => format!("raise it with {}", spelling.set(&name, &n.to_string())),
            None => format!(
                "raise it with {}",
                spelling.set(&name, if mib { "MIB" } else { "N" })
            ),
        }
    }
}

/// How a front end spells a knob ([`Limit::hint`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// A command-line flag: `--max-positions 1000`.
    Flag,
    /// A Python keyword argument: `max_positions=1000`.
    Keyword,
}

impl Spelling {
    /// The knob's name: `--max-positions`, `max_positions`.
    fn name(self, knob: &str) -> String {
        match self {
            Spelling::Flag => format!("--{knob}"),
            Spelling::Keyword => knob.replace('-', "_"),
        }
    }

    /// The knob set to `value`: `--max-positions 1000`, `max_positions=1000`.
    fn set(self, name: &str, value: &str) -> String {
        match self {
            Spelling::Flag => format!("{name} {value}"),
            Spelling::Keyword => format!("{name}={value}"),
        }
    }
}

/// `1.5 GiB`-style rendering of a byte count.
#[must_use]
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
