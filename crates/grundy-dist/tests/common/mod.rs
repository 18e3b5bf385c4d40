//! What the distributed solver's tests share: a family from its spec, a directory's tier
//! files, and the library's tablebase to compare against.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use grundy::explore::Control;
use grundy::games::{Family, Spec};
use grundy_tablebase::{tier_of_file_name, Tablebase};

/// The family of a one-part `spec`.
pub fn family(spec: &str) -> Arc<dyn Family> {
    let spec: Spec = spec.parse().unwrap();
    Arc::clone(&spec.single().unwrap().family)
}

/// The tier files of a directory (not its locks or manifest), by name.
pub fn tier_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter_map(|e| {
            let name = e.file_name().into_string().unwrap();
            tier_of_file_name(&name).map(|_| (name, std::fs::read(e.path()).unwrap()))
        })
        .collect()
}

/// The library's tablebase of `spec` in `dir`, in blocks of `slice` ranks (or the
/// format's default).
pub fn library(spec: &str, dir: &Path, slice: Option<u32>) -> grundy::tier::Solved {
    let f = family(spec);
    let tiers = f.tiers().unwrap();
    let mut store = Tablebase::open(dir, tiers.game()).unwrap();
    if let Some(slice) = slice {
        store = store.with_block_records(slice).unwrap();
    }
    grundy::tier::solve(
        tiers.game(),
        &mut store,
        &grundy::tier::Options::default(),
        &|_| {},
        &Control::default(),
    )
    .unwrap()
}
