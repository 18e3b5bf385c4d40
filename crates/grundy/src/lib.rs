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
    /// The computation would exceed a limit; `need` is an estimate in bytes where known.
    #[error("too large: {what}{}", need.map(|b| format!(" (would need about {})", human_bytes(b))).unwrap_or_default())]
    TooLarge {
        /// What is too large.
        what: String,
        /// Estimated memory needed, in bytes.
        need: Option<u64>,
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
            Error::TooLarge { .. } => "too-large",
            Error::Cancelled => "cancelled",
            Error::Cycle { .. } | Error::Overflow | Error::Unsupported(_) => "unsupported",
            Error::Store(_) => "store",
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
