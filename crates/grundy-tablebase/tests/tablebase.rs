//! Tier files through the public interface: round trips of every shape, refusals of every
//! damaged, cut, forged or foreign file, with messages that name the file and the block.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use grundy::tier::{Node, TierGame, TierStore, TierSummary};
use grundy_tablebase::format::{self, Expected, Header, Invalid, Part};
use grundy_tablebase::{tier_file_name, tier_of_file_name, Error, Tablebase, TierFile};
use proptest::prelude::*;

/// A game that is only its tiers' sizes: what a store needs.
#[derive(Clone)]
struct Sizes {
    id: &'static str,
    version: u32,
    scored: bool,
    sizes: Vec<u64>,
}

impl TierGame for Sizes {
    fn id(&self) -> String {
        self.id.into()
    }
    fn ranking_version(&self) -> u32 {
        self.version
    }
    fn scored(&self) -> bool {
        self.scored
    }
    fn tier_count(&self) -> u32 {
        self.sizes.len() as u32
    }
    fn tier_size(&self, tier: u32) -> u64 {
        self.sizes[tier as usize]
    }
    fn root(&self) -> (u32, u64) {
        (0, 0)
    }
    fn visit(
        &self,
        _: u32,
        _: Range<u64>,
        _: &(dyn Fn(u64) -> bool + Sync),
        _: &mut dyn FnMut(u64, Node<'_>),
    ) {
    }
}

fn game(sizes: &[u64]) -> Sizes {
    Sizes {
        id: "connect4[6x5]",
        version: 1,
        scored: false,
        sizes: sizes.to_vec(),
    }
}

/// A deterministic stream of numbers (xorshift).
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

/// Records as a solver writes them: runs of unreached ranks, small remoteness, and now
/// and then any 16-bit value (so the high byte plane is not all zeros).
fn records(n: u64, seed: u64) -> Vec<u16> {
    let mut rng = Rng(seed | 1);
    (0..n)
        .map(|_| match rng.below(10) {
            0..=4 => 0,
            5 => 1,
            6 => rng.next() as u16,
            _ => 2 + rng.below(60) as u16,
        })
        .collect()
}

fn open(dir: &Path, g: &Sizes, block: u32) -> Tablebase {
    Tablebase::open(dir, g)
        .unwrap()
        .with_block_records(block)
        .unwrap()
}

fn expected(g: &Sizes, tier: u32) -> Expected {
    Expected {
        game: g.id.into(),
        ranking_version: g.version,
        scored: g.scored,
        tier,
        tiers: g.sizes.len() as u32,
        records: g.sizes[tier as usize],
    }
}

/// The message of a store error.
fn store_message(e: grundy::Error) -> String {
    match e {
        grundy::Error::Store(m) => m,
        other => panic!("not a store error: {other:?}"),
    }
}

#[test]
fn records_of_every_shape_round_trip() {
    let block = 64u64;
    let sizes = [
        0,
        1,
        block - 1,
        block,
        block + 1,
        5 * block + 7,
        // More blocks than one batch of the writer compresses at once.
        300 * block + 3,
    ];
    let dir = tempfile::tempdir().unwrap();
    let g = game(&sizes);
    let mut tb = open(dir.path(), &g, block as u32);
    let all: Vec<Vec<u16>> = sizes
        .iter()
        .enumerate()
        .map(|(t, &n)| records(n, 7 + t as u64))
        .collect();
    for (t, r) in all.iter().enumerate() {
        assert_eq!(tb.load(t as u32).unwrap(), None);
        tb.save(t as u32, r, &TierSummary::default()).unwrap();
    }
    assert_eq!(tb.complete_tiers().unwrap(), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(tb.verify().unwrap(), [0, 1, 2, 3, 4, 5, 6]);
    let mut on_disk = 0;
    let mut rng = Rng(99);
    for (t, r) in all.iter().enumerate() {
        let t = t as u32;
        assert_eq!(tb.load(t).unwrap().as_ref(), Some(r), "tier {t}");
        let reader = tb.reader(t).unwrap().unwrap();
        assert_eq!(reader.blocks(), r.len().div_ceil(block as usize) as u64);
        on_disk += reader.file_bytes();
        // Random ranks, and the ends of every block.
        let mut ranks: Vec<u64> = (0..200).map(|_| rng.below(r.len().max(1) as u64)).collect();
        for b in 0..reader.blocks() {
            ranks.extend([b * block, ((b + 1) * block).min(r.len() as u64) - 1]);
        }
        for rank in ranks.into_iter().filter(|&k| k < r.len() as u64) {
            assert_eq!(tb.record(t, rank).unwrap(), Some(r[rank as usize]));
        }
        let past = tb.record(t, r.len() as u64).unwrap_err().to_string();
        assert!(past.contains("is past the tier"), "{past}");
    }
    assert_eq!(tb.disk_bytes().unwrap(), on_disk);
}

#[test]
fn the_default_block_size_round_trips_and_compresses() {
    let n = 2 * u64::from(format::DEFAULT_BLOCK_RECORDS) + 1;
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[n]);
    let mut tb = Tablebase::open(dir.path(), &g).unwrap();
    let mut r = records(n, 3);
    // Mostly unreached, as tiers are.
    r.iter_mut().skip(1000).step_by(3).for_each(|x| *x = 0);
    tb.save(0, &r, &TierSummary::default()).unwrap();
    assert_eq!(tb.load(0).unwrap(), Some(r.clone()));
    let reader = tb.reader(0).unwrap().unwrap();
    assert_eq!(reader.blocks(), 3);
    assert_eq!(reader.get(n - 1).unwrap(), r[n as usize - 1]);
    assert!(reader.file_bytes() < n, "{} bytes", reader.file_bytes());
}

#[test]
fn score_records_round_trip_and_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = game(&[100]);
    g.scored = true;
    let mut tb = open(dir.path(), &g, 16);
    let r: Vec<u16> = (0..100).map(|i| 32768 + i * 300).collect();
    tb.save(0, &r, &TierSummary::default()).unwrap();
    assert_eq!(tb.load(0).unwrap(), Some(r));
    assert!(tb.reader(0).unwrap().unwrap().header().scored);
    // The same file, read as win/loss/draw records, is refused.
    let wld = game(&[100]);
    let e = Tablebase::open(dir.path(), &wld).unwrap_err().to_string();
    assert!(e.contains("tier-00000.gtb"), "{e}");
    assert!(
        e.contains("holds score margins, not win/loss/draw records"),
        "{e}"
    );
    let e = TierFile::open(&dir.path().join("tier-00000.gtb"), &expected(&wld, 0))
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("tier-00000.gtb: holds score margins, not win/loss/draw records"),
        "{e}"
    );
}

/// Writes one tier of `g` and returns its path and records.
fn written(dir: &Path, g: &Sizes, tier: u32, block: u32) -> (PathBuf, Vec<u16>) {
    let mut tb = open(dir, g, block);
    let r = records(g.sizes[tier as usize], 11);
    tb.save(tier, &r, &TierSummary::default()).unwrap();
    (tb.path(tier), r)
}

#[test]
fn another_game_ranking_tier_or_size_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[10, 20, 20]);
    let (path, _) = written(dir.path(), &g, 1, 8);
    let name = path.display().to_string();
    let refuse = |want: Expected| TierFile::open(&path, &want).unwrap_err().to_string();

    let mut other = expected(&g, 1);
    other.game = "connect4[5x4]".into();
    assert_eq!(
        refuse(other),
        format!("{name}: written for connect4[6x5], not connect4[5x4]")
    );
    let mut other = expected(&g, 1);
    other.ranking_version = 2;
    assert_eq!(
        refuse(other),
        format!("{name}: written with ranking version 1, not 2")
    );
    let mut other = expected(&g, 1);
    other.tier = 2;
    assert_eq!(refuse(other), format!("{name}: written with tier 1, not 2"));
    let mut other = expected(&g, 1);
    other.tiers = 4;
    assert_eq!(
        refuse(other),
        format!("{name}: written for a game of 3 tiers, not 4")
    );
    let mut other = expected(&g, 1);
    other.records = 21;
    assert_eq!(
        refuse(other),
        format!("{name}: holds 20 records, but the tier has 21")
    );

    // A tier's file under another tier's name is refused when that tier is loaded.
    fs::copy(&path, dir.path().join(tier_file_name(2))).unwrap();
    let mut tb = open(dir.path(), &g, 8);
    let e = store_message(tb.load(2).unwrap_err());
    assert!(
        e.ends_with("tier-00002.gtb: written with tier 1, not 2"),
        "{e}"
    );
    assert!(tb.record(2, 0).is_err());

    // A directory of one game is refused to another, naming the directory and the file.
    for other in [
        Sizes {
            id: "connect4[5x4]",
            ..g.clone()
        },
        Sizes {
            version: 9,
            ..g.clone()
        },
        game(&[10, 20, 20, 5]),
    ] {
        let e = Tablebase::open(dir.path(), &other).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "{}: holds tier files of another game (tier-0000",
                dir.path().display()
            )),
            "{e}"
        );
    }
}

#[test]
fn a_leftover_temporary_file_is_ignored_and_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[40, 40]);
    let mut tb = open(dir.path(), &g, 8);
    let path = tb.path(1);
    let tmp = grundy_tablebase::file::temporary(&path);
    assert!(tmp.to_string_lossy().ends_with("tier-00001.gtb.tmp"));
    // A killed writer's half file: the start of a real one.
    let r = records(40, 5);
    tb.save(1, &r, &TierSummary::default()).unwrap();
    let whole = fs::read(&path).unwrap();
    fs::remove_file(&path).unwrap();
    fs::write(&tmp, &whole[..whole.len() / 2]).unwrap();
    // The writer is gone (killed), and with it its lock.
    drop(tb);

    let mut tb = open(dir.path(), &g, 8);
    assert_eq!(tb.complete_tiers().unwrap(), Vec::<u32>::new());
    assert_eq!(tb.load(1).unwrap(), None);
    assert_eq!(tb.record(1, 0).unwrap(), None);
    assert_eq!(tb.disk_bytes().unwrap(), 0);
    tb.save(1, &r, &TierSummary::default()).unwrap();
    assert!(!tmp.exists(), "the temporary file is renamed into place");
    assert_eq!(tb.load(1).unwrap(), Some(r));
    assert_eq!(tb.complete_tiers().unwrap(), [1]);
}

#[test]
fn tiers_saved_together_are_the_files_saved_one_at_a_time() {
    // More tiers than are synced at once, of every shape, in the solver's order.
    let sizes: Vec<u64> = (0..2 * grundy_tablebase::SYNCED_AT_ONCE as u64 + 3)
        .map(|t| t * 37 % 150)
        .collect();
    let g = game(&sizes);
    let all: Vec<Vec<u16>> = sizes
        .iter()
        .enumerate()
        .map(|(t, &n)| records(n, 3 + t as u64))
        .collect();
    let summary = |t: usize| TierSummary {
        tier: t as u32,
        ranks: sizes[t],
        positions: t as u64,
        outcomes: [t as u64, 0, 0],
        partial: false,
    };
    let one = tempfile::tempdir().unwrap();
    let mut tb = open(one.path(), &g, 16);
    for t in (0..sizes.len()).rev() {
        tb.save(t as u32, &all[t], &summary(t)).unwrap();
    }
    let together = tempfile::tempdir().unwrap();
    let mut tb = open(together.path(), &g, 16);
    let tiers: Vec<(u32, &[u16], TierSummary)> = (0..sizes.len())
        .rev()
        .map(|t| (t as u32, all[t].as_slice(), summary(t)))
        .collect();
    tb.save_many(&tiers).unwrap();
    for (t, records) in all.iter().enumerate() {
        let name = tier_file_name(t as u32);
        assert_eq!(
            fs::read(together.path().join(&name)).unwrap(),
            fs::read(one.path().join(&name)).unwrap(),
            "{name}"
        );
        assert_eq!(tb.load(t as u32).unwrap().as_ref(), Some(records));
    }
    // A tier that does not fit is refused, and no temporary file is left.
    let refused = tempfile::tempdir().unwrap();
    let mut tb = open(refused.path(), &g, 16);
    let e = store_message(
        tb.save_many(&[tiers[0], (tiers[1].0, &[1, 2, 3], tiers[1].2)])
            .unwrap_err(),
    );
    assert!(e.ends_with("3 records given for a tier of 29"), "{e}");
    let left: Vec<_> = fs::read_dir(refused.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn saving_replaces_the_tier_and_refuses_what_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[30]);
    let mut tb = open(dir.path(), &g, 8);
    let first = records(30, 1);
    tb.save(0, &first, &TierSummary::default()).unwrap();
    assert_eq!(tb.record(0, 3).unwrap(), Some(first[3]));
    let second = records(30, 2);
    assert_ne!(first, second);
    tb.save(0, &second, &TierSummary::default()).unwrap();
    // The reader kept for queries is not the old file's.
    assert_eq!(tb.record(0, 3).unwrap(), Some(second[3]));
    assert_eq!(tb.load(0).unwrap(), Some(second));
    let e = store_message(tb.save(0, &[1, 2], &TierSummary::default()).unwrap_err());
    assert!(
        e.ends_with("tier-00000.gtb: 2 records given for a tier of 30"),
        "{e}"
    );
    let e = store_message(tb.save(1, &[], &TierSummary::default()).unwrap_err());
    assert!(
        e.ends_with("tier-00001.gtb: tier 1 is past the game's 1 tiers"),
        "{e}"
    );
    assert!(tb.load(1).is_err());
}

#[test]
fn file_names_are_read_back_exactly() {
    assert_eq!(tier_file_name(17), "tier-00017.gtb");
    assert_eq!(tier_file_name(123_456), "tier-123456.gtb");
    assert_eq!(tier_of_file_name("tier-00017.gtb"), Some(17));
    assert_eq!(tier_of_file_name("tier-123456.gtb"), Some(123_456));
    for not in [
        "tier-00017.gtb.tmp",
        "tier-0017.gtb",
        "tier-000017.gtb",
        "tier-+0017.gtb",
        "tier-00017.GTB",
        "x-00017.gtb",
    ] {
        assert_eq!(tier_of_file_name(not), None, "{not}");
    }
}

/// Writes `bytes` at `path` as a new file: rewriting one in place costs milliseconds on
/// ext4, which flushes a file truncated and rewritten when it is closed.
fn put(path: &Path, bytes: &[u8]) {
    let _ = fs::remove_file(path);
    fs::write(path, bytes).unwrap();
}

/// A small file of three blocks of 16 records (the last one short): its bytes.
fn small_file(dir: &Path) -> (Sizes, PathBuf, Vec<u16>, Vec<u8>) {
    let g = game(&[40]);
    let (path, r) = written(dir, &g, 0, 16);
    let bytes = fs::read(&path).unwrap();
    (g, path, r, bytes)
}

/// Whatever a reader of `bytes` (as the tier file at `path`) gives, it is never data other
/// than `records`; returns whether it refused at all.
fn refuses(path: &Path, want: &Expected, bytes: &[u8], records: &[u16]) -> bool {
    put(path, bytes);
    let Ok(file) = TierFile::open(path, want) else {
        return true;
    };
    let mut refused = false;
    match file.read_all() {
        Ok(all) => assert_eq!(all, records, "read_all gave other records"),
        Err(_) => refused = true,
    }
    for (rank, &r) in records.iter().enumerate() {
        match file.get(rank as u64) {
            Ok(got) => assert_eq!(got, r, "rank {rank}"),
            Err(_) => refused = true,
        }
    }
    assert_eq!(
        file.verify().is_err(),
        refused,
        "verify agrees with reading"
    );
    refused
}

#[test]
fn every_single_bit_flip_of_a_small_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (g, path, r, bytes) = small_file(dir.path());
    let want = expected(&g, 0);
    assert!(!refuses(&path, &want, &bytes, &r));
    for bit in 0..bytes.len() * 8 {
        let mut damaged = bytes.clone();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert!(
            refuses(&path, &want, &damaged, &r),
            "a flip of bit {bit} (byte {} of {}) goes unnoticed",
            bit / 8,
            bytes.len()
        );
    }
    // The store never calls a damaged tier missing.
    let mut damaged = bytes.clone();
    *damaged.last_mut().unwrap() ^= 0x10;
    put(&path, &damaged);
    let mut tb = open(dir.path(), &g, 16);
    assert!(tb.load(0).is_err());
}

#[test]
fn every_truncation_of_a_small_file_is_refused_as_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let (g, path, r, bytes) = small_file(dir.path());
    let want = expected(&g, 0);
    for len in 0..bytes.len() {
        put(&path, &bytes[..len]);
        match TierFile::open(&path, &want) {
            Err(Error::Invalid {
                invalid: Invalid::Truncated { holds, .. },
                ..
            }) => {
                // `holds` counts the file, or for cut blocks the bytes after the index.
                assert!(holds <= len as u64, "cut at {len}: holds {holds}");
            }
            other => panic!("cut at {len} of {}: {other:?}", bytes.len()),
        }
        let mut tb = open(dir.path(), &g, 16);
        let e = store_message(tb.load(0).unwrap_err());
        assert!(e.contains("tier-00000.gtb: truncated ("), "{e}");
    }
    put(&path, &bytes);
    assert_eq!(TierFile::open(&path, &want).unwrap().read_all().unwrap(), r);
}

#[test]
fn truncation_messages_say_what_the_file_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let (g, path, _, bytes) = small_file(dir.path());
    let want = expected(&g, 0);
    let name = path.display().to_string();
    let cut = |len: usize| {
        put(&path, &bytes[..len]);
        TierFile::open(&path, &want).unwrap_err().to_string()
    };
    let header = 72 + "connect4[6x5]".len() + 8;
    let index = header + 3 * 12 + 8;
    assert_eq!(
        cut(10),
        format!("{name}: truncated (the header needs at least 80 bytes, the file holds 10)")
    );
    assert_eq!(
        cut(77),
        format!("{name}: truncated (the header needs {header} bytes, the file holds 77)")
    );
    assert_eq!(
        cut(header + 5),
        format!(
            "{name}: truncated (the header and the index of 3 blocks need {index} bytes, the file holds {})",
            header + 5
        )
    );
    let blocks = bytes.len() - index;
    assert_eq!(
        cut(index + 1),
        format!("{name}: truncated (the index says {blocks} bytes of blocks, the file holds 1)")
    );
}

#[test]
fn a_damaged_block_is_named_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[80]);
    let (path, r) = written(dir.path(), &g, 0, 16);
    let mut bytes = fs::read(&path).unwrap();
    let layout = format::Layout::parse(&bytes, None).unwrap();
    let at = layout.index[2].offset as usize + 1;
    bytes[at] ^= 0xff;
    put(&path, &bytes);

    let name = path.display().to_string();
    let message = format!("{name}: block 2 of 5 fails its checksum (the file is damaged)");
    let file = TierFile::open(&path, &expected(&g, 0)).unwrap();
    assert_eq!(file.read_all().unwrap_err().to_string(), message);
    assert_eq!(file.verify().unwrap_err().to_string(), message);
    assert_eq!(file.get(40).unwrap_err().to_string(), message);
    // The other blocks still answer.
    assert_eq!(file.get(0).unwrap(), r[0]);
    assert_eq!(file.get(79).unwrap(), r[79]);
    let mut tb = open(dir.path(), &g, 16);
    assert_eq!(store_message(tb.load(0).unwrap_err()), message);
    assert_eq!(tb.verify().unwrap_err().to_string(), message);
    assert!(matches!(
        file.get(33),
        Err(Error::Invalid {
            invalid: Invalid::BlockChecksum {
                block: 2,
                blocks: 5
            },
            ..
        })
    ));
}

/// Opens forged bytes (every checksum recomputed) as the tier of `g`.
fn open_forged(path: &Path, g: &Sizes, mut bytes: Vec<u8>) -> Result<TierFile, Error> {
    format::reseal(&mut bytes);
    put(path, &bytes);
    TierFile::open(path, &expected(g, 0))
}

fn invalid(r: Result<TierFile, Error>) -> Invalid {
    match r {
        Err(Error::Invalid { invalid, .. }) => invalid,
        other => panic!("not refused as invalid: {other:?}"),
    }
}

#[test]
fn forged_files_whose_checksums_hold_are_refused_by_their_structure() {
    let dir = tempfile::tempdir().unwrap();
    let (g, path, r, bytes) = small_file(dir.path());
    let header = Header::parse(&bytes).unwrap().1;
    // Resealing an intact file changes nothing.
    let mut same = bytes.clone();
    format::reseal(&mut same);
    assert_eq!(same, bytes);

    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        edit(&mut b);
        invalid(open_forged(&path, &g, b))
    };
    assert_eq!(with(&|b| b[36] = 4), Invalid::RecordWidth(4));
    assert!(matches!(with(&|b| b[37] = 4), Invalid::HeaderDamaged(m) if m.contains("flags")));
    assert!(
        matches!(with(&|b| b[32..36].copy_from_slice(&0u32.to_le_bytes())), Invalid::HeaderDamaged(m) if m.contains("records per block"))
    );
    assert!(
        matches!(with(&|b| b[32..36].copy_from_slice(&(format::MAX_BLOCK_RECORDS + 1).to_le_bytes())), Invalid::HeaderDamaged(m) if m.contains("records per block"))
    );
    assert!(
        matches!(with(&|b| b[16..20].copy_from_slice(&1u32.to_le_bytes())), Invalid::HeaderDamaged(m) if m == "tier 1 of 1")
    );
    assert!(
        matches!(with(&|b| b[38..40].copy_from_slice(&2000u16.to_le_bytes())), Invalid::HeaderDamaged(m) if m.contains("2000 bytes"))
    );
    assert!(matches!(with(&|b| b[72] = 0xff), Invalid::HeaderDamaged(m) if m.contains("UTF-8")));
    // A summary that does not add up, or counts more positions than the tier has ranks.
    assert!(
        matches!(with(&|b| b[40..48].copy_from_slice(&1u64.to_le_bytes())), Invalid::HeaderDamaged(m) if m.contains("summary"))
    );
    assert!(
        matches!(with(&|b| b[48..56].copy_from_slice(&(u64::MAX).to_le_bytes())), Invalid::HeaderDamaged(m) if m.contains("summary"))
    );
    assert_eq!(with(&|b| b[8] = 3), Invalid::Version(3));
    assert_eq!(with(&|b| b[8] = 0), Invalid::Version(0));
    assert_eq!(with(&|b| b[0] = b'X'), Invalid::NotTablebase);
    // A block said to be one byte longer (the blocks then pass the file's end), or empty.
    assert!(matches!(
        with(&|b| b[header] = b[header].wrapping_add(1)),
        Invalid::Truncated {
            part: Part::Blocks,
            ..
        }
    ));
    assert!(matches!(
        with(&|b| b[header..header + 4].copy_from_slice(&0u32.to_le_bytes())),
        Invalid::IndexDamaged {
            block: 0,
            blocks: 3,
            ..
        }
    ));
    // Longer than zstd could ever make 16 records.
    assert!(matches!(
        with(&|b| b[header..header + 4].copy_from_slice(&5000u32.to_le_bytes())),
        Invalid::IndexDamaged { block: 0, .. }
    ));
    assert_eq!(
        with(&|b| b.extend_from_slice(&[0; 3])),
        Invalid::Trailing(3)
    );
    // More records than the index has blocks for.
    assert!(matches!(
        with(&|b| b[24..32].copy_from_slice(&u64::MAX.to_le_bytes())),
        Invalid::Mismatch {
            field: "records",
            ..
        }
    ));
    let mut huge = bytes.clone();
    huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    format::reseal(&mut huge);
    assert!(matches!(
        format::Layout::parse(&huge, None),
        Err(Invalid::Truncated {
            part: Part::Index(_),
            ..
        })
    ));

    // A block replaced by valid zstd frames that are not its records: its checksum holds,
    // its contents do not.
    let layout = format::Layout::parse(&bytes, None).unwrap();
    let e = layout.index[1];
    let replace = |with: &[u8]| {
        let mut b = bytes.clone();
        let at = e.offset as usize;
        b.splice(at..at + e.len as usize, with.iter().copied());
        let entry = header + 12;
        b[entry..entry + 4].copy_from_slice(&(with.len() as u32).to_le_bytes());
        open_forged(&path, &g, b).unwrap()
    };
    let frame = |content: &[u8]| zstd::bulk::compress(content, 1).unwrap();
    for (forged, says) in [
        (frame(&[7u8; 30]), "groups of 7 ranks (1 or 2)"),
        (frame(&[1, 0xff, 0xff]), "no values frame"),
        (
            [frame(&[1, 0xff, 0xff]), frame(&[0; 4]), frame(&[0; 4])].concat(),
            "bytes after its values frame",
        ),
        (
            [frame(&[1, 0xff, 0xff]), frame(&[0; 4])].concat(),
            "a table of 0 entries for 16 reached groups",
        ),
        (
            // One value, 2, with a code for each of the 16 reached ranks: none, since a
            // table of one entry needs none; a byte of codes is one too many.
            [frame(&[1, 0xff, 0xff]), frame(&[1, 0, 0, 0, 2, 0, 0])].concat(),
            "a values frame of 7 bytes, not 6 for 1 entries and 16 codes",
        ),
        (
            // Three values (2-bit codes), and a code of 3.
            [
                frame(&[1, 0xff, 0xff]),
                frame(&[3, 0, 0, 0, 2, 0, 3, 0, 4, 0, 0, 0, 0, 0xc0]),
            ]
            .concat(),
            "code 3 of a table of 3 entries",
        ),
        (
            [frame(&[1, 0x01, 0x00]), frame(&[1, 0, 0, 0, 0, 0])].concat(),
            "table entry 0 is unreached",
        ),
        (
            [frame(&[1, 0xff]), frame(&[])].concat(),
            "a bitmap of 1 bytes, not 2 for 16 groups",
        ),
        (
            [frame(&[3, 0xff, 0xff]), frame(&[])].concat(),
            "groups of 3 ranks (1 or 2)",
        ),
    ] {
        let file = replace(&forged);
        assert_eq!(file.get(0).unwrap(), r[0]);
        let err = file.get(16).unwrap_err().to_string();
        assert!(err.contains("block 1 of 3 is invalid: "), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(file.read_all().is_err() && file.verify().is_err());
    }
}

#[test]
fn readers_share_a_file_across_threads() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[5000]);
    let (_, r) = written(dir.path(), &g, 0, 64);
    let tb = open(dir.path(), &g, 64);
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (tb, r) = (&tb, &r);
            s.spawn(move || {
                let mut rng = Rng(t + 1);
                for _ in 0..500 {
                    let k = rng.below(5000);
                    assert_eq!(tb.record(0, k).unwrap(), Some(r[k as usize]));
                }
            });
        }
    });
}

/// The parts of a file of `blocks` blocks: header, index, blocks (byte ranges).
fn parts(bytes: &[u8]) -> [Range<usize>; 3] {
    let (h, start) = Header::parse(bytes).unwrap();
    let index = start + format::index_len(format::VERSION, h.blocks() as usize);
    [0..start, start..index, index..bytes.len()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Bigger files (dozens of blocks): a flipped bit in the header, the index or a block
    /// is refused, never read as other data.
    #[test]
    fn a_flipped_bit_anywhere_is_refused(
        n in 1u64..3000,
        block in 1u32..300,
        part in 0usize..3,
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
        seed in any::<u64>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let g = game(&[n]);
        let mut tb = open(dir.path(), &g, block);
        let r = records(n, seed);
        tb.save(0, &r, &TierSummary::default()).unwrap();
        let path = tb.path(0);
        let bytes = fs::read(&path).unwrap();
        let range = parts(&bytes)[part].clone();
        let byte = range.start + at.index(range.len());
        let mut damaged = bytes.clone();
        damaged[byte] ^= 1 << bit;
        prop_assert!(refuses(&path, &expected(&g, 0), &damaged, &r));
        prop_assert!(tb.load(0).is_err());
    }

    /// Any records, any block size: what is saved is loaded and read back.
    #[test]
    fn any_records_round_trip(
        r in prop::collection::vec(any::<u16>(), 0..700),
        block in 1u32..100,
        ranks in prop::collection::vec(any::<prop::sample::Index>(), 1..20),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let g = game(&[r.len() as u64]);
        let mut tb = open(dir.path(), &g, block);
        tb.save(0, &r, &TierSummary::default()).unwrap();
        prop_assert_eq!(tb.load(0).unwrap(), Some(r.clone()));
        if !r.is_empty() {
            for k in ranks {
                let k = k.index(r.len());
                prop_assert_eq!(tb.record(0, k as u64).unwrap(), Some(r[k]));
            }
        }
    }
}

#[test]
fn the_writer_refuses_what_it_cannot_write_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(tier_file_name(0));
    let header = |game: String, records| Header {
        game,
        ranking_version: 1,
        scored: false,
        tier: 0,
        tiers: 1,
        records,
        block_records: 16,
        summary: Default::default(),
    };
    let long = "x".repeat(format::MAX_GAME_ID + 1);
    for (h, records, says) in [
        (
            header(long, 2),
            vec![1, 2],
            "a game id of 1025 bytes cannot be written",
        ),
        (header(String::new(), 2), vec![1, 2], "a game id of 0 bytes"),
        (
            header("g".into(), 3),
            vec![1, 2],
            "2 records given for a header of 3",
        ),
        (
            Header {
                block_records: 0,
                ..header("g".into(), 2)
            },
            vec![1, 2],
            "blocks of 0 records cannot be written",
        ),
        (
            Header {
                tier: 1,
                ..header("g".into(), 2)
            },
            vec![1, 2],
            "tier 1 of 1 cannot be written",
        ),
    ] {
        let e = grundy_tablebase::file::write(&path, &h, &records)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{e}");
        assert!(e.starts_with(&path.display().to_string()), "{e}");
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // The longest id there may be is written and read back.
    let h = header("y".repeat(format::MAX_GAME_ID), 2);
    grundy_tablebase::file::write(&path, &h, &[5, 6]).unwrap();
    let f = TierFile::inspect(&path).unwrap();
    assert_eq!(f.header(), &h);
    assert_eq!(f.read_all().unwrap(), [5, 6]);
}

#[test]
fn one_writer_a_directory_and_readers_take_no_lock() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[10, 20]);
    let mut first = Tablebase::open(dir.path(), &g).unwrap();
    first
        .save(0, &records(10, 1), &TierSummary::default())
        .unwrap();
    // A second writer, in this process or another (the lock is the open file's), is
    // refused before it writes anything, by a save or by asking for the lock.
    let mut second = Tablebase::open(dir.path(), &g).unwrap();
    let refused = second
        .save(1, &records(20, 2), &TierSummary::default())
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("another process is writing this tablebase")
            && refused.contains(grundy_tablebase::WRITER_LOCK),
        "{refused}"
    );
    assert!(second.lock_for_writing().is_err());
    assert!(!dir.path().join(tier_file_name(1)).exists());
    assert!(!dir
        .path()
        .join(format!("{}.tmp", tier_file_name(1)))
        .exists());
    // Reading needs no lock, while the writer writes.
    assert_eq!(second.load(0).unwrap(), Some(records(10, 1)));
    first
        .save(1, &records(20, 2), &TierSummary::default())
        .unwrap();
    // The lock goes with the writer (and with its process, however that ends).
    drop(first);
    second.lock_for_writing().unwrap();
    second
        .save(1, &records(20, 3), &TierSummary::default())
        .unwrap();
    assert_eq!(second.load(1).unwrap(), Some(records(20, 3)));
    // The lock file is not a tier file: the directory still opens and lists its tiers.
    drop(second);
    let third = Tablebase::open(dir.path(), &g).unwrap();
    assert_eq!(third.complete_tiers().unwrap(), [0, 1]);
}

/// A version-1 file (byte planes, 20-byte index entries), written by the build before
/// version 2 with the records below: read, queried, verified, refused when damaged, and
/// replaced by a version-2 file when the tier is saved again.
#[test]
fn version_1_files_are_still_read() {
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/v1");
    let records: Vec<u16> = vec![
        0, 0, 57, 15, 0, 4, 1, 0, 0, 15, 0, 1, 0, 0, 41, 46, 37, 0, 0, 0, 59, 5, 1, 0, 23, 49, 34,
        0, 0, 22, 13, 17, 53, 53, 58, 0, 0, 60, 0, 36,
    ];
    let dir = tempfile::tempdir().unwrap();
    let g = game(&[40]);
    let path = dir.path().join(tier_file_name(0));
    let bytes = fs::read(v1.join("tier-00000.gtb")).unwrap();
    put(&path, &bytes);
    let file = TierFile::open(&path, &expected(&g, 0)).unwrap();
    assert_eq!((file.version(), file.blocks()), (1, 3));
    assert_eq!(file.read_all().unwrap(), records);
    file.verify().unwrap();
    for (rank, &r) in records.iter().enumerate() {
        assert_eq!(file.get(rank as u64).unwrap(), r);
    }
    let mut tb = open(dir.path(), &g, 16);
    assert_eq!(tb.load(0).unwrap(), Some(records.clone()));
    assert_eq!(held_of(&mut tb, 0), Some(reached(&records)));
    assert_eq!(tb.verify().unwrap(), [0]);
    // Every bit of it is under a checksum, as in version 2.
    let want = expected(&g, 0);
    for bit in 0..bytes.len() * 8 {
        let mut damaged = bytes.clone();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert!(refuses(&path, &want, &damaged, &records), "bit {bit}");
    }
    put(&path, &bytes);
    // Saved again, the tier is written in version 2.
    let mut tb = open(dir.path(), &g, 16);
    tb.save(0, &records, &TierSummary::default()).unwrap();
    let file = tb.reader(0).unwrap().unwrap();
    assert_eq!(file.version(), format::VERSION);
    assert_eq!(file.read_all().unwrap(), records);

    // A score game's file, with its summary.
    let mut s = game(&[100]);
    s.scored = true;
    let dir = tempfile::tempdir().unwrap();
    fs::copy(
        v1.join("scored-tier-00000.gtb"),
        dir.path().join(tier_file_name(0)),
    )
    .unwrap();
    let mut tb = open(dir.path(), &s, 16);
    let margins: Vec<u16> = (0..100)
        .map(|i| if i % 3 == 0 { 0 } else { 32768 + i * 300 })
        .collect();
    assert_eq!(tb.load(0).unwrap(), Some(margins));
    assert_eq!(
        tb.summary(0).unwrap(),
        Some(TierSummary {
            tier: 0,
            ranks: 100,
            positions: 66,
            outcomes: [40, 20, 6],
            partial: false,
        })
    );
}

#[test]
fn a_tier_written_a_block_at_a_time_is_the_file_save_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[1000, 70]);
    let r = records(1000, 5);
    let summary = TierSummary {
        tier: 0,
        ranks: 1000,
        positions: 990,
        outcomes: [500, 400, 90],
        partial: false,
    };
    // Reference: the file from the records.
    let one = tmp.path().join("one");
    let mut tb = open(&one, &g, 64);
    tb.save(0, &r, &summary).unwrap();
    let want = fs::read(tb.path(0)).unwrap();
    // The same blocks, streamed.
    let two = tmp.path().join("two");
    let mut tb = open(&two, &g, 64);
    let mut enc = format::Encoder::new().unwrap();
    let blocks: Vec<Vec<u8>> = r.chunks(64).map(|c| enc.encode(c).unwrap()).collect();
    let mut file = tb.begin_encoded(0).unwrap();
    for b in &blocks {
        file.push(b).unwrap();
    }
    // Nothing is in place until it is finished.
    assert!(!tb.path(0).exists());
    tb.finish_encoded(file, &summary).unwrap();
    assert!(fs::read(tb.path(0)).unwrap() == want);
    // Read back a part at a time.
    let f = tb.reader(0).unwrap().unwrap();
    assert_eq!(f.read_blocks(3..7).unwrap(), r[3 * 64..7 * 64]);
    assert_eq!(f.read_blocks(15..16).unwrap(), r[15 * 64..]);
    assert!(f.read_blocks(0..0).unwrap().is_empty());
    assert!(f.read_blocks(10..17).is_err());
    // Too many blocks, too few, and a writer dropped unfinished: the old file stays, no
    // temporary file is left.
    let mut file = tb.begin_encoded(0).unwrap();
    for b in &blocks {
        file.push(b).unwrap();
    }
    let e = file.push(&blocks[0]).unwrap_err().to_string();
    assert!(e.contains("more than the 16 blocks"), "{e}");
    drop(file);
    let mut file = tb.begin_encoded(0).unwrap();
    file.push(&blocks[0]).unwrap();
    let e = tb.finish_encoded(file, &summary).unwrap_err().to_string();
    assert!(e.contains("1 blocks given for a tier of 16"), "{e}");
    let mut file = tb.begin_encoded(0).unwrap();
    file.push(&blocks[0]).unwrap();
    drop(file);
    assert!(fs::read(tb.path(0)).unwrap() == want);
    let names: Vec<_> = fs::read_dir(&two)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

/// The records of `records` that are not unreached, with their ranks.
fn reached(records: &[u16]) -> Vec<(u64, u16)> {
    (0u64..)
        .zip(records.iter().copied())
        .filter(|&(_, r)| r != 0)
        .collect()
}

/// What [`TierStore::for_each_held`] hands of `tier`, `None` when the store lacks it.
fn held_of(tb: &mut Tablebase, tier: u32) -> Option<Vec<(u64, u16)>> {
    let mut got = Vec::new();
    let had = tb
        .for_each_held(tier, &mut |rank, r| {
            got.push((rank, r));
            Ok(())
        })
        .unwrap();
    had.then_some(got)
}

/// Sparse tiers of `n` ranks: none held, the last rank alone, the first alone, a few
/// bunched (so that most blocks hold nothing), scattered at several densities, every rank,
/// and one held with an unreached record (written as unreached).
fn sparse_tiers(n: u64, rng: &mut Rng) -> Vec<Vec<(u64, u16)>> {
    let value = |rng: &mut Rng| 1 + rng.below(4000) as u16;
    let mut out = vec![Vec::new()];
    if n == 0 {
        return out;
    }
    out.push(vec![(n - 1, value(rng))]);
    out.push(vec![(0, value(rng))]);
    let centre = rng.below(n);
    let bunch: std::collections::BTreeMap<u64, u16> = (0..20)
        .map(|_| ((centre + rng.below(40)).min(n - 1), value(rng)))
        .collect();
    out.push(bunch.into_iter().collect());
    for per_mille in [1, 30, 500, 1000] {
        let mut held = Vec::new();
        for rank in 0..n {
            if rng.below(1000) < per_mille {
                held.push((rank, value(rng)));
            }
        }
        out.push(held);
    }
    if n >= 3 {
        out.push(vec![(0, value(rng)), (n / 2, 0), (n - 1, value(rng))]);
    }
    out
}

/// A partial tier saved from its held records alone, a block at a time, is the file the
/// dense save writes from every rank's record, byte for byte, whatever the block size and
/// wherever the records lie (none, the tier's last rank, blocks with nothing held, every
/// rank); read back a block at a time, it hands exactly the records held, by rank.
#[test]
fn a_tier_saved_from_its_held_records_is_the_file_the_dense_save_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[0, 1, 7, 1000, 4097, 70_000]);
    let mut rng = Rng(29);
    let mut compared = 0;
    for block in [1, 7, 64, 4096] {
        for tier in 0..g.sizes.len() as u32 {
            let n = g.sizes[tier as usize];
            if u64::from(block) == 1 && n > 5000 {
                continue; // 70 000 blocks of one record: slow, and nothing new
            }
            for (k, held) in sparse_tiers(n, &mut rng).into_iter().enumerate() {
                let mut dense = vec![0u16; n as usize];
                for &(rank, r) in &held {
                    dense[rank as usize] = r;
                }
                let summary = TierSummary {
                    partial: true,
                    ..grundy::tier::summarise(false, tier, &dense)
                };
                assert_eq!(
                    summary,
                    grundy::tier::summarise_held(false, tier, n, held.iter().map(|&(_, r)| r))
                );
                let name = format!("{block}-{tier}-{k}");
                let mut a = open(&tmp.path().join(format!("dense-{name}")), &g, block);
                a.save(tier, &dense, &summary).unwrap();
                let mut b = open(&tmp.path().join(format!("held-{name}")), &g, block);
                b.save_held(tier, n, &held, &summary).unwrap();
                let (fa, fb) = (
                    fs::read(a.path(tier)).unwrap(),
                    fs::read(b.path(tier)).unwrap(),
                );
                assert!(
                    fa == fb,
                    "block {block}, tier {tier}, case {k}: the files differ"
                );
                assert_eq!(held_of(&mut b, tier), Some(reached(&dense)), "{name}");
                assert_eq!(b.summary(tier).unwrap(), Some(summary));
                compared += 1;
            }
        }
    }
    assert!(compared > 150, "{compared}");
    // A tier not held hands nothing.
    let mut tb = open(&tmp.path().join("none"), &g, 64);
    assert_eq!(held_of(&mut tb, 3), None);
}

/// Held records out of order, repeated or past the tier, or a tier's size that is not
/// the game's, are refused before anything is written; a tier saved from its held records
/// forgets the positions found of it, as a dense save does; an error the reader's callback
/// returns stops the reading and is returned.
#[test]
fn held_records_that_do_not_fit_are_refused_and_leave_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[1000, 10]);
    let mut tb = open(tmp.path(), &g, 64);
    let summary = TierSummary {
        tier: 0,
        ranks: 1000,
        partial: true,
        ..TierSummary::default()
    };
    for (held, ranks, says) in [
        (vec![(5, 1), (3, 1)], 1000, "held after rank 5"),
        (vec![(5, 1), (5, 2)], 1000, "held after rank 5"),
        (
            vec![(1000, 1)],
            1000,
            "rank 1000 held of tier 0, which has 1000 ranks",
        ),
        (vec![(1, 1)], 999, "999 ranks given for a tier of 1000"),
    ] {
        let e = tb.save_held(0, ranks, &held, &summary).unwrap_err();
        let e = store_message(e);
        assert!(e.contains(says), "{e}");
        assert!(!tb.path(0).exists());
        let names: Vec<_> = fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.starts_with("tier-")), "{names:?}");
    }
    // The default (a store in memory) refuses them too.
    let mut mem = grundy::tier::MemoryStore::default();
    assert!(mem.save_held(0, 1000, &[(5, 1), (3, 1)], &summary).is_err());
    assert!(mem.tiers.is_empty());

    tb.keep_found(0, &[(7, 3), (9, 4)]).unwrap();
    assert!(tb.found_path(0).exists());
    let held = [(7, 3), (9, 4), (999, 5)];
    let summary = grundy::tier::summarise_held(false, 0, 1000, held.iter().map(|&(_, r)| r));
    tb.save_held(0, 1000, &held, &summary).unwrap();
    assert!(!tb.found_path(0).exists());
    assert!(tb.found(0).unwrap().is_empty());
    assert_eq!(held_of(&mut tb, 0), Some(held.to_vec()));
    let mut seen = 0;
    let e = tb
        .for_each_held(0, &mut |_, _| {
            seen += 1;
            Err(grundy::Error::Store("enough".into()))
        })
        .unwrap_err();
    assert_eq!((seen, store_message(e)), (1, "enough".to_owned()));
}

#[test]
fn directories_read_too_are_one_tablebase_with_this_one() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[100, 200, 300]);
    let rs: Vec<Vec<u16>> = (0..3).map(|t| records(g.sizes[t], t as u64)).collect();
    // Tier 0 and 2 in `a`, tier 1 in `b`, tier 2 (other records) in `c` too.
    let dir = |name: &str| tmp.path().join(name);
    for (name, tiers) in [("a", vec![0, 2]), ("b", vec![1])] {
        let mut tb = open(&dir(name), &g, 64);
        for t in tiers {
            tb.save(t, &rs[t as usize], &TierSummary::default())
                .unwrap();
        }
    }
    let mut tb = open(&dir("c"), &g, 64);
    tb.save(2, &records(300, 99), &TierSummary::default())
        .unwrap();
    let union = open(&dir("a"), &g, 64)
        .reading_also(&[dir("b"), dir("c")])
        .unwrap();
    assert_eq!(union.complete_tiers().unwrap(), vec![0, 1, 2]);
    for t in 0..3u32 {
        let f = union.reader(t).unwrap().unwrap();
        assert_eq!(
            f.read_all().unwrap(),
            rs[t as usize],
            "tier {t}: the first directory's"
        );
    }
    // Alone, `a` lacks tier 1.
    assert!(open(&dir("a"), &g, 64).reader(1).unwrap().is_none());
    // A directory of another game, or none, is refused.
    let other = game(&[7]);
    let mut tb = open(&dir("d"), &other, 64);
    tb.save(0, &records(7, 1), &TierSummary::default()).unwrap();
    let e = open(&dir("a"), &g, 64)
        .reading_also(&[dir("d")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("another game"), "{e}");
    let e = open(&dir("a"), &g, 64)
        .reading_also(&[dir("missing")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a directory"), "{e}");
}

/// The tier files of a directory (not its locks or manifest), by name.
fn tier_files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter_map(|e| {
            let name = e.file_name().into_string().unwrap();
            tier_of_file_name(&name).map(|_| (name, fs::read(e.path()).unwrap()))
        })
        .collect()
}

#[test]
fn sharing_writers_write_one_directory_a_lock_a_tier() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[300, 200, 100, 50]);
    let summary = |t: u32| TierSummary {
        tier: t,
        ranks: g.sizes[t as usize],
        positions: 7,
        outcomes: [3, 2, 2],
        partial: false,
    };
    // Reference: one writer alone.
    let alone = tmp.path().join("alone");
    let mut tb = open(&alone, &g, 64);
    for t in 0..4 {
        tb.save(
            t,
            &records(g.sizes[t as usize], u64::from(t) + 1),
            &summary(t),
        )
        .unwrap();
    }
    drop(tb);
    let want = tier_files(&alone);
    assert_eq!(want.len(), 4);

    // Two sharing writers, at once on two threads, each its own tiers (one saved from its
    // records, one streamed from its blocks).
    let shared = tmp.path().join("shared");
    let mut a = open(&shared, &g, 64);
    let mut b = open(&shared, &g, 64);
    a.share_writing().unwrap();
    b.share_writing().unwrap();
    std::thread::scope(|s| {
        for (tb, first) in [(&mut a, 0u32), (&mut b, 1)] {
            let sizes = &g.sizes;
            let summary = &summary;
            s.spawn(move || {
                for t in [first, first + 2] {
                    let r = records(sizes[t as usize], u64::from(t) + 1);
                    if t < 2 {
                        tb.save(t, &r, &summary(t)).unwrap();
                    } else {
                        let mut enc = format::Encoder::new().unwrap();
                        let mut file = tb.begin_encoded(t).unwrap();
                        for c in r.chunks(64) {
                            file.push(&enc.encode(c).unwrap()).unwrap();
                        }
                        tb.finish_encoded(file, &summary(t)).unwrap();
                    }
                }
            });
        }
    });
    assert_eq!(
        tier_files(&shared),
        want,
        "the same bytes as a writer alone"
    );
    // Each sees the other's tiers.
    assert_eq!(a.complete_tiers().unwrap(), [0, 1, 2, 3]);
    assert_eq!(b.load(2).unwrap(), Some(records(100, 3)));

    // A tier is written by one at a time: while `a` writes tier 3, `b` is refused it (and
    // leaves `a`'s file alone), but may write another.
    let mut file = a.begin_encoded(3).unwrap();
    let e = store_message(b.save(3, &records(50, 9), &summary(3)).unwrap_err());
    assert!(
        e.contains("another process is writing this tier")
            && e.contains(&grundy_tablebase::tier_lock_name(3))
            && e.starts_with(&b.path(3).display().to_string()),
        "{e}"
    );
    let tmp3 = grundy_tablebase::file::temporary(&a.path(3));
    assert!(tmp3.exists());
    b.save(0, &records(300, 1), &summary(0)).unwrap();
    // A writer alone is refused while they share the directory, with what to do.
    let mut solo = open(&shared, &g, 64);
    let e = solo.lock_for_writing().unwrap_err().to_string();
    assert!(
        e.contains("another process is writing this tablebase"),
        "{e}"
    );
    // A sharing writer that comes now leaves the tier file being written.
    let mut c = open(&shared, &g, 64);
    c.share_writing().unwrap();
    assert!(tmp3.exists(), "a newcomer removed a tier being written");
    // The half-written tier is no tier to any reader.
    file.push(&[1, 2, 3]).unwrap();
    assert_eq!(
        c.reader(3).unwrap().unwrap().read_all().unwrap(),
        records(50, 4)
    );
    drop(file);
    assert!(!tmp3.exists());
    assert_eq!(tier_files(&shared), want);
    drop((a, b, c));

    // A writer alone holds the directory against sharing ones.
    solo.lock_for_writing().unwrap();
    let mut d = open(&shared, &g, 64);
    let e = d.share_writing().unwrap_err().to_string();
    assert!(
        e.contains("another process is writing this tablebase alone")
            && e.contains(grundy_tablebase::WRITER_LOCK),
        "{e}"
    );
    drop(solo);
    d.share_writing().unwrap();
}

#[test]
fn a_stopped_sharing_writer_leaves_nothing_that_looks_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let g = game(&[300, 200]);
    let dir = tmp.path();
    let mut a = open(dir, &g, 64);
    a.share_writing().unwrap();
    let r = records(200, 2);
    a.save(1, &r, &TierSummary::default()).unwrap();
    let whole = fs::read(a.path(1)).unwrap();
    // Killed while writing tier 0: its half file, and with the process its locks.
    let tmp0 = grundy_tablebase::file::temporary(&a.path(0));
    fs::write(&tmp0, &whole[..whole.len() / 2]).unwrap();
    drop(a);
    let mut b = open(dir, &g, 64);
    assert_eq!(b.complete_tiers().unwrap(), [1]);
    assert_eq!(b.load(0).unwrap(), None);
    // The next sharing writer holds tier 0's lock: the half file is a stopped writer's.
    b.share_writing().unwrap();
    assert!(!tmp0.exists());
    assert_eq!(b.load(1).unwrap(), Some(r));
    // The manifest is written whole or not at all; a cut one is no manifest of this game.
    let manifest = dir.join(grundy_tablebase::MANIFEST);
    let text = fs::read_to_string(&manifest).unwrap();
    assert!(
        text.starts_with("grundy tablebase\ngame connect4[6x5]\n"),
        "{text}"
    );
    drop(b);
    fs::write(&manifest, &text[..text.len() - 3]).unwrap();
    let e = Tablebase::open(dir, &g).unwrap_err().to_string();
    assert!(e.contains("holds the tablebase of another game"), "{e}");
    // The game's manifest with a gigabyte after it (a sparse file): refused, and read
    // only as far as a line past what this game's manifest would be.
    fs::write(&manifest, &text).unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(&manifest)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let e = Tablebase::open(dir, &g).unwrap_err().to_string();
    assert!(e.contains("holds the tablebase of another game"), "{e}");
}

#[test]
fn a_writer_of_another_game_is_refused_by_the_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let g = game(&[300, 200]);
    // The first sharing writer names the game before it has written any tier.
    let mut a = open(dir, &g, 64);
    a.share_writing().unwrap();
    assert!(tier_files(dir).is_empty());
    let other = Sizes {
        id: "connect4[5x4]",
        ..g.clone()
    };
    let e = Tablebase::open(dir, &other).unwrap_err().to_string();
    assert!(
        e.starts_with(&dir.display().to_string())
            && e.contains("holds the tablebase of another game")
            && e.contains("says `game connect4[6x5]`, not `game connect4[5x4]`"),
        "{e}"
    );
    // Opened before the manifest was written, it is refused when it would start writing.
    let fresh = tmp.path().join("fresh");
    let mut early = Tablebase::open(&fresh, &other).unwrap();
    let mut first = open(&fresh, &g, 64);
    first.share_writing().unwrap();
    let e = early.share_writing().unwrap_err().to_string();
    assert!(e.contains("not `game connect4[5x4]`"), "{e}");
    drop(first);
    let e = early.lock_for_writing().unwrap_err().to_string();
    assert!(e.contains("not `game connect4[5x4]`"), "{e}");
    // Another ranking version or number of tiers is another game too.
    let e = Tablebase::open(
        dir,
        &Sizes {
            version: 2,
            ..g.clone()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("says `ranking version 1`, not `ranking version 2`"),
        "{e}"
    );
    let e = Tablebase::open(dir, &game(&[300, 200, 5]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("says `tiers 2`, not `tiers 3`"), "{e}");
    // A directory of tier files written alone, without a manifest: a sharing writer of
    // another game is refused by the files, one of this game writes the manifest.
    let old = tmp.path().join("old");
    let mut solo = open(&old, &g, 64);
    solo.save(1, &records(200, 2), &TierSummary::default())
        .unwrap();
    drop(solo);
    assert!(!old.join(grundy_tablebase::MANIFEST).exists());
    let e = Tablebase::open(&old, &other).unwrap_err().to_string();
    assert!(e.contains("holds tier files of another game"), "{e}");
    let mut b = open(&old, &g, 64);
    b.share_writing().unwrap();
    assert!(old.join(grundy_tablebase::MANIFEST).exists());
}

/// Positions of a tier found before it is whole are kept frame by frame: read back in
/// order, a cut or damaged last frame left out (and cut off, so what is appended next is
/// read), another game's refused, forgotten once the tier is saved whole.
#[test]
fn found_positions_are_kept_until_the_tier_is_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let g = game(&[300, 100_000]);
    let mut tb = open(dir, &g, 64);
    assert_eq!(tb.found(1).unwrap(), []);
    // More than one frame's worth (65 536 positions a frame).
    let first: Vec<(u64, u16)> = (0..70_000u64).map(|r| (r, 2 + (r % 50) as u16)).collect();
    tb.keep_found(1, &first).unwrap();
    tb.keep_found(1, &[(99_999, 7)]).unwrap();
    let mut want = first.clone();
    want.push((99_999, 7));
    assert_eq!(tb.found(1).unwrap(), want);
    assert_eq!(tb.found(0).unwrap(), []);
    // No position past the tier, no unreached record.
    assert!(tb.keep_found(1, &[(100_000, 3)]).is_err());
    assert!(tb.keep_found(1, &[(5, 0)]).is_err());
    // A writer killed while appending: the last frame cut anywhere is left out.
    let path = tb.found_path(1);
    let whole = fs::read(&path).unwrap();
    tb.keep_found(1, &[(80_000, 9), (80_001, 9)]).unwrap();
    let longer = fs::read(&path).unwrap();
    for cut in whole.len()..longer.len() {
        fs::write(&path, &longer[..cut]).unwrap();
        assert_eq!(tb.found(1).unwrap(), want, "cut at {cut}");
    }
    // A damaged last frame likewise; it is cut off, and what comes next is read after.
    let mut damaged = longer.clone();
    *damaged.last_mut().unwrap() ^= 1;
    fs::write(&path, &damaged).unwrap();
    assert_eq!(tb.found(1).unwrap(), want);
    assert_eq!(fs::read(&path).unwrap(), whole);
    tb.keep_found(1, &[(80_002, 4)]).unwrap();
    want.push((80_002, 4));
    assert_eq!(tb.found(1).unwrap(), want);
    // A position found again the same counts once; found with another record, the file
    // is refused.
    tb.keep_found(1, &[(80_002, 4), (5, 2 + 5)]).unwrap();
    assert_eq!(tb.found(1).unwrap(), want);
    let before = fs::read(&path).unwrap();
    tb.keep_found(1, &[(80_002, 5)]).unwrap();
    let e = tb.found(1).unwrap_err().to_string();
    assert!(e.contains("twice, with two records (4 and 5)"), "{e}");
    fs::write(&path, &before).unwrap();
    // Another game's found file, or another tier's, is refused.
    let other = Sizes {
        id: "connect4[5x4]",
        ..g.clone()
    };
    drop(tb);
    let mut them = open(dir, &other, 64);
    let e = them.found(1).unwrap_err().to_string();
    assert!(e.contains("is not the found positions of tier 1"), "{e}");
    drop(them);
    let mut tb = open(dir, &g, 64);
    fs::copy(&path, tb.found_path(0)).unwrap();
    assert!(tb.found(0).is_err());
    fs::remove_file(tb.found_path(0)).unwrap();
    // Longer than a tier's found positions can be: refused before it is read.
    let big = tb.found_path(1);
    let kept = fs::read(&big).unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let e = tb.found(1).unwrap_err().to_string();
    assert!(e.contains("more than the found positions"), "{e}");
    fs::write(&big, &kept).unwrap();
    // Saved whole, the tier's found positions are gone.
    let r = records(100_000, 5);
    tb.save(1, &r, &TierSummary::default()).unwrap();
    assert!(!path.exists());
    assert_eq!(tb.found(1).unwrap(), []);
    assert_eq!(tb.load(1).unwrap(), Some(r));
}
