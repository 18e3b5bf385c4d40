//! Shared by the parity benchmark and the `parity_bench` example (each includes this file).

use std::path::{Path, PathBuf};

/// The shared benchmark folder (`shared/benchmarks/parity`, next to the repository).
pub const BENCH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/benchmarks/parity"
);

/// Every file below `dir` but READMEs, in sorted order, appended to `out`.
pub fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.file_name().is_some_and(|n| n != "README.md") {
            out.push(p);
        }
    }
}
