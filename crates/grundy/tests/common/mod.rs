//! What the integration tests share: the shared folder of parity benchmark games.

use std::path::{Path, PathBuf};

/// The shared benchmark folder (`shared/benchmarks/parity`, next to the repository).
const BENCH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/benchmarks/parity"
);

/// The files of one benchmark folder, sorted; `None` (with a note) when the shared folder is
/// not checked out next to the repository.
pub fn bench_files(sub: &str) -> Option<Vec<PathBuf>> {
    let dir = Path::new(BENCH).join(sub);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "note: {} not found; skipping the benchmark test",
            dir.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Some(files)
}
