//! `grundy check FILE`: a sequence file ([`crate::seq`]) or a tablebase directory
//! ([`crate::tablebase`]) checked.

use std::path::Path;

use anyhow::Result;

use crate::{seq, tablebase};

/// The command: 0 if sound, 1 if not.
pub fn run(file: &Path, json: bool) -> Result<u8> {
    if file.is_dir() {
        tablebase::check_dir(file, json)
    } else {
        seq::check(file, json)
    }
}
