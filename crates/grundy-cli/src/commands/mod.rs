//! One module per command, each a `run` that `main`'s dispatch calls with the command's
//! arguments. What several commands share (the limits of `Common`, the progress line,
//! parsing a spec) stays in `main.rs`; what one command needs beyond its body (the
//! terminal game, the graph formats, the olympiad's lines, tablebases, sequence files)
//! lives in the modules beside this one.

pub mod book;
pub mod check;
pub mod graph;
pub mod help;
pub mod olympiad;
pub mod pattern;
pub mod play;
pub mod plot;
pub mod query;
pub mod serve;
pub mod solve;
pub mod table;
pub mod tour;
pub mod value;
