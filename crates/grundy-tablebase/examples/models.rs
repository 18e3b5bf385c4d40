//! Record models for tier files, measured on a solved tablebase: the bytes each way of
//! laying a block's records out for zstd takes, and its compress and decompress speed on
//! one thread (the table in `docs/tablebase-format.md`).
//!
//! ```sh
//! grundy solve 'quixo[4]' --tablebase DIR --threads 2
//! cargo run --release -p grundy-tablebase --example models -- DIR [MODEL…]
//! ```
//!
//! Every tier file of DIR is read whole, then encoded block by block by each model,
//! decoded back and compared. A model is parts joined by `-`:
//!
//! - `planes`: the records' low bytes, then their high bytes (version 1's block);
//! - `split`: a bitmap of the reached ranks apart, then the values of those alone;
//! - `table`: each value (or group of values) as its place in a table of the block's,
//!   most frequent first, packed in 1, 2, 4 or 8 bits when the table allows;
//! - `g2`: values two ranks at a time (with `table`);
//! - `f2`: the bitmap and the values in zstd frames of their own (with `split`);
//! - `dNk`: a zstd dictionary of N KiB trained on each tier's blocks, counted in the bytes;
//! - `v2`: the format's own encoder (`grundy_tablebase::block`), decoded by its reader;
//! - `lN`: zstd level N (default 1); `bNk`: blocks of N Ki records (default 32).
//!
//! Bytes count each file's header and index as the format lays them out (version 1's
//! index entries for `planes`, version 2's for the others).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use grundy_tablebase::block::{Block, Encoder};
use grundy_tablebase::TierFile;

#[derive(Clone, Debug, Default)]
struct Model {
    name: String,
    block: usize,
    level: i32,
    split: bool,
    table: bool,
    group: usize,
    frames2: bool,
    dict: usize,
    v2: bool,
}

fn parse(spec: &str) -> Result<Model, String> {
    let mut m = Model {
        name: spec.into(),
        block: 1 << 15,
        level: 1,
        group: 1,
        ..Model::default()
    };
    for part in spec.split('-') {
        let number = |p: &str, skip: usize, tail: usize| {
            p[skip..p.len() - tail]
                .parse::<usize>()
                .map_err(|_| format!("{spec}: {p} is not a number"))
        };
        match part {
            "planes" => {}
            "split" => m.split = true,
            "table" => m.table = true,
            "g2" => m.group = 2,
            "f2" => m.frames2 = true,
            "v2" => m.v2 = true,
            p if p.starts_with('l') => m.level = number(p, 1, 0)? as i32,
            p if p.starts_with('b') && p.ends_with('k') => m.block = number(p, 1, 1)? << 10,
            p if p.starts_with('d') && p.ends_with('k') => m.dict = number(p, 1, 1)? << 10,
            p => return Err(format!("{spec}: unknown part {p}")),
        }
    }
    Ok(m)
}

/// Bits a code takes with a table of `k` entries (8: a byte).
fn bits_for(k: usize) -> u32 {
    match k {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    }
}

/// A block's bytes before zstd: (bitmap, values); the bitmap is empty unless `split`.
fn lay_out(m: &Model, records: &[u16]) -> (Vec<u8>, Vec<u8>) {
    let groups: Vec<u32> = records
        .chunks(m.group)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0, |a, (i, &r)| a | u32::from(r) << (16 * i))
        })
        .collect();
    let mut bitmap = Vec::new();
    let values: Vec<u32> = if m.split {
        bitmap.resize(groups.len().div_ceil(8), 0);
        for (i, &g) in groups.iter().enumerate() {
            if g != 0 {
                bitmap[i / 8] |= 1 << (i % 8);
            }
        }
        groups.into_iter().filter(|&g| g != 0).collect()
    } else {
        groups
    };
    let width = 2 * m.group;
    let mut out = Vec::new();
    if m.table {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        for &v in &values {
            *counts.entry(v).or_default() += 1;
        }
        let mut t: Vec<(u32, u32)> = counts.into_iter().collect();
        t.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let code: HashMap<u32, usize> = t.iter().enumerate().map(|(i, &(v, _))| (v, i)).collect();
        out.extend_from_slice(&(t.len() as u32).to_le_bytes());
        for &(v, _) in &t {
            out.extend_from_slice(&v.to_le_bytes()[..width]);
        }
        if t.len() <= 256 {
            let bits = bits_for(t.len());
            let per = 8 / bits as usize;
            let start = out.len();
            out.resize(start + values.len().div_ceil(per), 0);
            for (i, v) in values.iter().enumerate() {
                out[start + i / per] |= (code[v] as u8) << ((i % per) as u32 * bits);
            }
        } else {
            for plane in 0..3 {
                out.extend(values.iter().map(|v| (code[v] >> (8 * plane)) as u8));
            }
        }
    } else {
        for plane in 0..width {
            out.extend(values.iter().map(|&v| (v >> (8 * plane)) as u8));
        }
    }
    (bitmap, out)
}

#[derive(Default)]
struct Tally {
    bytes: u64,
    bitmaps: u64,
    dictionaries: u64,
    blocks: u64,
    encode: Duration,
    decode: Duration,
}

fn measure(m: &Model, tiers: &[Vec<u16>]) -> Tally {
    let mut t = Tally::default();
    let mut encoder = Encoder::with_level(m.level).expect("a zstd context");
    let mut unzstd = zstd::bulk::Decompressor::new().expect("a zstd context");
    let (mut scratch, mut block) = (Vec::new(), Block::default());
    for records in tiers {
        let start = Instant::now();
        let mut frames: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut dictionary = None;
        if m.v2 {
            for c in records.chunks(m.block) {
                frames.push((Vec::new(), encoder.encode(c).expect("encoded")));
            }
        } else {
            let laid: Vec<(Vec<u8>, Vec<u8>)> =
                records.chunks(m.block).map(|c| lay_out(m, c)).collect();
            if m.dict > 0 && laid.len() > 4 {
                let samples: Vec<Vec<u8>> =
                    laid.iter().map(|(a, b)| [&a[..], b].concat()).collect();
                dictionary = zstd::dict::from_samples(&samples, m.dict).ok();
            }
            let mut zstd = match &dictionary {
                Some(d) => zstd::bulk::Compressor::with_dictionary(m.level, d),
                None => zstd::bulk::Compressor::new(m.level),
            }
            .expect("a zstd context");
            for (a, b) in &laid {
                frames.push(if m.frames2 {
                    (
                        zstd.compress(a).expect("compressed"),
                        zstd.compress(b).expect("compressed"),
                    )
                } else {
                    (
                        Vec::new(),
                        zstd.compress(&[&a[..], b].concat()).expect("compressed"),
                    )
                });
            }
        }
        t.encode += start.elapsed();
        t.dictionaries += dictionary.as_ref().map_or(0, |d| d.len() as u64);
        t.blocks += frames.len() as u64;
        t.bytes += frames
            .iter()
            .map(|(a, b)| (a.len() + b.len()) as u64)
            .sum::<u64>();
        t.bitmaps += frames.iter().map(|(a, _)| a.len() as u64).sum::<u64>();
        unzstd
            .set_dictionary(dictionary.as_deref().unwrap_or(&[]))
            .expect("a dictionary");
        let start = Instant::now();
        for ((a, b), c) in frames.iter().zip(records.chunks(m.block)) {
            if m.v2 {
                Block::decode(b, c.len(), &mut unzstd, &mut scratch, &mut block).expect("decoded");
                let mut out = vec![0; c.len()];
                block.expand(&mut out);
                assert!(out == c, "{} decodes other records", m.name);
            } else {
                // Only zstd's part: the layouts other than v2 are not decoded.
                if !a.is_empty() {
                    std::hint::black_box(unzstd.decompress(a, 8 * c.len() + 64).expect("a frame"));
                }
                std::hint::black_box(unzstd.decompress(b, 8 * c.len() + 4096).expect("a frame"));
            }
        }
        t.decode += start.elapsed();
    }
    t
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        return Err("usage: models DIR [MODEL…]".into());
    };
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gtb"))
        .collect();
    paths.sort();
    let (mut tiers, mut on_disk, mut id) = (Vec::new(), 0, 0);
    for p in &paths {
        let f = TierFile::inspect(p).map_err(|e| e.to_string())?;
        on_disk += f.file_bytes();
        id = f.header().game.len();
        tiers.push(f.read_all().map_err(|e| e.to_string())?);
    }
    let ranks: usize = tiers.iter().map(Vec::len).sum();
    let reached = tiers.iter().flatten().filter(|&&r| r != 0).count();
    println!(
        "{}: {} tiers, {ranks} ranks, {reached} reached; {on_disk} bytes on disk",
        Path::new(dir).display(),
        tiers.len()
    );
    println!("| model | bytes | of which bitmaps | blocks | compress MB/s | decompress MB/s |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let models = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec!["planes".into(), "v2-l9-b256k".into()]
    };
    for spec in &models {
        let m = parse(spec)?;
        let t = measure(&m, &tiers);
        let entry = if m.split || m.table || m.v2 { 12 } else { 20 };
        let files = tiers.len() as u64 * (80 + id as u64 + 8) + t.blocks * entry;
        let mb = 2.0 * ranks as f64 / 1e6;
        println!(
            "| {} | {} | {} | {} | {:.0} | {:.0} |",
            m.name,
            t.bytes + t.dictionaries + files,
            t.bitmaps,
            t.blocks,
            mb / t.encode.as_secs_f64(),
            mb / t.decode.as_secs_f64()
        );
    }
    Ok(())
}
