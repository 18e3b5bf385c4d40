//! Write, read_all and get() throughput of one tier file, with records as a solver writes
//! them, checking every answer it times.
//!
//! `cargo bench -p grundy-tablebase --bench throughput -- [RECORDS] [BLOCK_RECORDS] [UNREACHED%]`
//! (defaults: 100 000 000 records, the default block, 60 % unreached). The file goes to the
//! system's temporary directory and is removed afterwards. Reads are from the page cache
//! (the file was just written): they measure checking and decompressing, not the disk.

use std::time::Instant;

use grundy::tier::{Node, TierGame, TierStore};
use grundy_tablebase::{format, Tablebase};

struct OneTier(u64);

impl TierGame for OneTier {
    fn id(&self) -> String {
        "bench[1]".into()
    }
    fn ranking_version(&self) -> u32 {
        1
    }
    fn tier_count(&self) -> u32 {
        1
    }
    fn tier_size(&self, _: u32) -> u64 {
        self.0
    }
    fn root(&self) -> (u32, u64) {
        (0, 0)
    }
    fn visit(
        &self,
        _: u32,
        _: std::ops::Range<u64>,
        _: &(dyn Fn(u64) -> bool + Sync),
        _: &mut dyn FnMut(u64, Node<'_>),
    ) {
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Runs of 1 to 16 ranks, each run unreached (record 0) with probability `unreached`%;
/// a reached rank is a draw (20 %), a loss (35 %) or a win (45 %) with remoteness
/// (a + b) / 2 for a, b uniform below 24: small, most often around 11.
fn records(n: usize, unreached: u64) -> Vec<u16> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let run = (1 + rng.below(16) as usize).min(n - v.len());
        let reached = rng.below(100) >= unreached;
        for _ in 0..run {
            v.push(if reached {
                let r = (rng.below(24) + rng.below(24)) as u16 / 2;
                match rng.below(100) {
                    0..20 => 1,
                    20..55 => 2 + 2 * r,
                    _ => 3 + 2 * r,
                }
            } else {
                0
            });
        }
    }
    v
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers are what follows.
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.replace('_', "").parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(100_000_000);
    let block = args
        .get(1)
        .map_or(format::DEFAULT_BLOCK_RECORDS, |&b| b as u32);
    let unreached = args.get(2).copied().unwrap_or(60);
    let mb = (2 * n) as f64 / 1e6;
    println!(
        "{n} records ({mb:.0} MB), blocks of {block} records, {unreached}% unreached, {} threads",
        rayon::current_num_threads()
    );
    let r = records(n as usize, unreached);
    let dir = std::env::temp_dir().join(format!("grundy-tablebase-bench-{}", std::process::id()));
    let game = OneTier(n);
    let mut tb = Tablebase::open(&dir, &game)
        .and_then(|t| t.with_block_records(block))
        .expect("a tablebase in the temporary directory");

    // Each figure is the best of three runs: the machine may be shared.
    let best = |f: &mut dyn FnMut()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let write = best(&mut || {
        tb.save(0, &r, &grundy::tier::TierSummary::default())
            .expect("written")
    });
    let bytes = tb.disk_bytes().expect("its size");
    println!(
        "write (compress, checksum, fsync, rename): {:.3} s, {:.0} MB/s; {bytes} bytes on disk, ratio {:.2}, {:.3} bytes a record",
        write,
        mb / write,
        (2 * n) as f64 / bytes as f64,
        bytes as f64 / n as f64
    );

    let mut back = None;
    let load = best(&mut || back = tb.load(0).expect("read"));
    assert!(back.take() == Some(r.clone()), "load gave other records");
    let reader = tb.reader(0).expect("opened").expect("there");
    let read = best(&mut || back = Some(reader.read_all().expect("read")));
    assert!(
        back.take() == Some(r.clone()),
        "read_all gave other records"
    );
    println!(
        "load (open, read_all): {:.3} s, {:.0} MB/s; read_all of an open file: {:.3} s, {:.0} MB/s",
        load,
        mb / load,
        read,
        mb / read
    );
    let verify = best(&mut || reader.verify().expect("every block checks"));
    println!("verify: {:.3} s, {:.0} MB/s", verify, mb / verify);

    // Random ranks: almost every one in another block than the last two.
    let mut rng = Rng(7);
    let ranks: Vec<u64> = (0..20_000).map(|_| rng.below(n)).collect();
    let t = Instant::now();
    for &k in &ranks {
        assert_eq!(reader.get(k).expect("a record"), r[k as usize]);
    }
    let random = t.elapsed().as_secs_f64() / ranks.len() as f64;
    // Neighbouring ranks: the cached block answers.
    let start = n / 3;
    let near = 1_000_000.min(n - start);
    let t = Instant::now();
    for k in start..start + near {
        assert_eq!(reader.get(k).expect("a record"), r[k as usize]);
    }
    let cached = t.elapsed().as_secs_f64() / near as f64;
    println!(
        "get(): {:.1} µs at a random rank (one block decompressed), {:.0} ns at the next rank (cached)",
        random * 1e6,
        cached * 1e9
    );

    // The record model against version 1's byte planes, on one thread.
    let sample = &r[..r.len().min(1 << 24)];
    let mut encoder = format::Encoder::new().expect("zstd");
    let mut zstd = zstd::bulk::Compressor::new(1).expect("zstd");
    let (mut modelled, mut planar) = (0.0, 0.0);
    let (mut modelled_bytes, mut planar_bytes) = (0, 0);
    for chunk in sample.chunks(block as usize) {
        let t = Instant::now();
        modelled_bytes += encoder.encode(chunk).expect("compressed").len();
        modelled += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let low_high: Vec<u8> = chunk
            .iter()
            .map(|&x| x as u8)
            .chain(chunk.iter().map(|&x| (x >> 8) as u8))
            .collect();
        planar_bytes += zstd.compress(&low_high).expect("compressed").len();
        planar += t.elapsed().as_secs_f64();
    }
    let raw = (2 * sample.len()) as f64;
    let bytes = planes_of(sample);
    let t = Instant::now();
    let sum = format::checksum(&bytes);
    let hashing = t.elapsed().as_secs_f64();
    assert_ne!(sum, format::checksum(&[]));
    println!(
        "one thread, {} records: the record model (level {}) ratio {:.2} at {:.0} MB/s; version 1's byte planes (level 1) ratio {:.2} at {:.0} MB/s",
        sample.len(),
        format::LEVEL,
        raw / modelled_bytes as f64,
        raw / modelled / 1e6,
        raw / planar_bytes as f64,
        raw / planar / 1e6
    );
    println!("xxh3-64 checksums at {:.1} GB/s", raw / hashing / 1e9);
    drop(reader);
    drop(tb);
    std::fs::remove_dir_all(&dir).expect("removed");
}

fn planes_of(records: &[u16]) -> Vec<u8> {
    records.iter().flat_map(|x| x.to_le_bytes()).collect()
}
