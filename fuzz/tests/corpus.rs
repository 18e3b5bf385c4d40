//! Replays every file of `corpus/TARGET/` through the target's property on the stable
//! toolchain (so CI checks what the fuzzers found and kept), and bounds each input's peak
//! allocation: a parser may use memory proportional to its input, never what a count in the
//! input asks for.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

/// Counts the bytes each thread holds, and the most it held since the last reset.
struct Counting;

thread_local! {
    static HELD: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(size: usize) {
    let _ = HELD.try_with(|h| {
        let now = h.get() + size;
        h.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn shrank(size: usize) {
    let _ = HELD.try_with(|h| h.set(h.get().saturating_sub(size)));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counters are
// thread-local cells with constant initialisers, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most one input may make its property allocate: a fixed allowance (a digraph may
/// declare 4096 isolated vertices for free) plus a constant per byte.
fn allowance(len: usize) -> usize {
    (4 << 20) + 256 * len
}

/// Runs `property` on every file of `corpus/<target>` and on `extra`; fails with the file's
/// name on a property failure or an allocation past [`allowance`].
fn replay(target: &str, property: fn(&[u8]), extra: &[Vec<u8>]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut inputs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    assert!(!inputs.is_empty(), "no seeds in {}", dir.display());
    inputs.sort();
    inputs.extend(
        extra
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("extra #{i}"), b.clone())),
    );
    let mut most = 0;
    for (name, bytes) in &inputs {
        let base = HELD.with(Cell::get);
        PEAK.with(|p| p.set(base));
        let outcome = std::panic::catch_unwind(|| property(bytes));
        let peak = PEAK.with(Cell::get) - base;
        assert!(outcome.is_ok(), "{target}: {name} fails its property");
        assert!(
            peak <= allowance(bytes.len()),
            "{target}: {name} ({} bytes) allocated {peak} bytes",
            bytes.len()
        );
        most = most.max(peak);
    }
    eprintln!(
        "{target}: {} inputs replayed, the most any allocated: {most} bytes",
        inputs.len()
    );
}

#[test]
fn spec_corpus() {
    replay(
        "spec",
        grundy_fuzz::spec,
        &[
            "q".repeat(100_000).into_bytes(),
            format!("nim({})", vec!["10^18"; 2000].join(",")).into_bytes(),
        ],
    );
}

#[test]
fn poi_corpus() {
    replay(
        "poi",
        grundy_fuzz::poi,
        &[
            b"4294967295 0".to_vec(),
            b"2147483647 2147483647\n0 1 1".to_vec(),
        ],
    );
}

#[test]
fn pgsolver_corpus() {
    replay(
        "pgsolver",
        grundy_fuzz::pgsolver,
        &[
            b"parity 268435455;".to_vec(),
            b"parity 18446744073709551615;\n18446744073709551615 4294967295 1 0,18446744073709551615;\n0 0 0 0;".to_vec(),
        ],
    );
}

#[test]
fn digraph_corpus() {
    replay(
        "digraph",
        grundy_fuzz::digraph,
        &[
            b"268435456 0".to_vec(),
            b"268435456 1\n0 268435455\n".to_vec(),
            b"100 4294967295\n".to_vec(),
            vec![0u8; 100_000],
        ],
    );
}

#[test]
fn seq_corpus() {
    // Version 2, rules `0.77`, u64::MAX heaps promised, then a chunk of 2^20 wide values
    // and no data.
    let mut huge_count = b"GRUNDYSQ\x02\0\0\0\x04\0\0\0".to_vec();
    huge_count.extend_from_slice(b"0.77");
    huge_count.extend_from_slice(&u64::MAX.to_le_bytes());
    huge_count.extend_from_slice(&[2, 0, 0, 16, 0]);
    // Rules said to take 1 MiB, and none there.
    let mut huge_rules = b"GRUNDYSQ\x02\0\0\0".to_vec();
    huge_rules.extend_from_slice(&(1u32 << 20).to_le_bytes());
    replay("seq", grundy_fuzz::seq, &[huge_count, huge_rules]);
}

#[test]
fn tablebase_corpus() {
    // Headers whose checksums hold (the property reseals) and that promise u64::MAX
    // records, or 2^32 blocks of one record, in a few bytes: the index they imply is
    // refused before anything is allocated for it.
    let header = |version: u8, records: u64, block: u32| {
        let mut h = b"GRUNDYTB".to_vec();
        h.extend_from_slice(&u32::from(version).to_le_bytes());
        h.extend_from_slice(&1u32.to_le_bytes()); // ranking version
        h.extend_from_slice(&0u32.to_le_bytes()); // tier
        h.extend_from_slice(&1u32.to_le_bytes()); // tiers
        h.extend_from_slice(&records.to_le_bytes());
        h.extend_from_slice(&block.to_le_bytes());
        h.extend_from_slice(&[2, 0, 1, 0]); // width, flags, a game id of 1 byte
        h.extend_from_slice(&[0; 32]); // the summary: no position
        h.push(b'g');
        h.extend_from_slice(&[0; 8 + 28]);
        grundy_tablebase::format::reseal(&mut h);
        let refused = grundy_tablebase::format::Layout::parse(&h, None).unwrap_err();
        assert!(
            matches!(
                refused,
                grundy_tablebase::format::Invalid::Truncated {
                    part: grundy_tablebase::format::Part::Index(_),
                    ..
                }
            ),
            "{refused}"
        );
        h
    };
    // The seeds are whole tier files of both versions the reader knows (regenerate them
    // when the layout changes): findings kept beside them need not be.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tablebase");
    let mut whole = [0; 3];
    for e in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        if let Ok(layout) = grundy_tablebase::format::Layout::parse(&bytes, None) {
            whole[layout.version as usize] += 1;
        }
    }
    assert!(
        whole[1] >= 7 && whole[2] >= 5,
        "{whole:?} whole tier files of versions 0, 1, 2 in {}",
        dir.display()
    );
    replay(
        "tablebase",
        grundy_fuzz::tablebase,
        &[
            header(1, u64::MAX, 1),
            header(1, 1 << 32, 1),
            header(1, u64::MAX, 1 << 20),
            header(2, u64::MAX, 1),
            header(2, 1 << 32, 1),
            header(2, u64::MAX, 1 << 20),
        ],
    );
}
