//! grundy: solve two-player games of perfect information.
#![forbid(unsafe_code)]

pub mod graph;
