//! Games on graphs (arenas): the arena itself, its text formats, the independent certificate
//! checker.
//!
//! - [`arena`]: [`Arena`] — dense `u32` vertices, owner and priority per vertex, successors as
//!   CSR ([`Csr`]), reverse graph on demand, names, start, file ids.
//! - [`format`](mod@format): parsers and writers for the POI green game, PGSolver games and solutions, and
//!   plain digraphs; [`detect`].
//! - [`verify`]: [`verify_parity`] — checks a claimed winner partition and positional
//!   strategies without trusting whoever produced them.
//! - [`attractor`]: attractors on subgames, by the crate's one retrograde engine.
//! - [`parity`]: parity-game solving — [`solve_parity`] by Zielonka's algorithm or tangle
//!   learning, after dead-end, self-loop and SCC preprocessing; strategies for both players.
//! - [`objectives`]: reachability, safety, Büchi (the green game) and co-Büchi, with
//!   strategies; the seed's iterated-trap method as a reference.
//! - [`token`]: token games on digraphs — win/loss/draw with remoteness, generalised
//!   Sprague–Grundy values (∞ included) and sums of loopy components.
//! - [`answer`]: what front ends report of a solved graph game (regions and strategies in
//!   the file's ids, a token game's values), the stable JSON of `grundy graph --json`.
//!
//! Conventions: parity is max-even (player 0 wins a play whose highest priority seen infinitely
//! often is even), and a player who must move at a dead end loses (normal play). The green
//! game is the parity game with white = priority 1 and green = priority 2.
//!
//! ```
//! use grundy::graph::{parse_poi, verify_buchi, write_poi_answer};
//! // Ann's field 1 (white) can go to Billy's field 2 (green) or loop; field 2 returns to 1.
//! let arena = parse_poi("1 1\n0 2 1 2\n1 1 1\n").unwrap();
//! let winner = [0, 0];
//! let strategy = [Some(1), None]; // Ann: 1 -> 2
//! assert_eq!(verify_buchi(&arena, &winner, &strategy), Ok(()));
//! assert_eq!(write_poi_answer(&winner), "2\n1\n2\n");
//! ```

pub mod answer;
pub mod arena;
pub mod attractor;
// Exponential reference solvers for tiny arenas, for the tests under `tests/` (which
// see only what is public): hidden from the documentation, no part of the API.
#[doc(hidden)]
pub mod brute;
pub mod format;
mod lex;
pub mod objectives;
pub mod parity;
mod parse_error;
pub mod token;
pub mod verify;

pub use arena::{Arena, ArenaBuilder, ArenaError, Csr, FileId, IdMap};
pub use format::{
    detect, digraph_vertex_limit, parse, parse_detect, parse_digraph, parse_pgsolver,
    parse_pgsolver_solution, parse_poi, parse_poi_answer, parse_poi_solution, write_digraph,
    write_pgsolver, write_pgsolver_solution, write_pgsolver_solution_to, write_poi,
    write_poi_answer, write_poi_solution, Format, ParseError, ParseErrorKind, PgSolution,
    UnknownFormat, WriteError, DIGRAPH_FREE_VERTICES, GREEN, MAX_DIGRAPH_VERTICES, WHITE,
};
pub use parity::{
    solve_parity, solve_parity_with, ParityAlgorithm, ParityOptions, ParitySolution,
    UnknownAlgorithm,
};
pub use verify::{verify_buchi, verify_parity, verify_pg_solution, VerifyError};
