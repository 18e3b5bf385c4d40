//! Grundy sequences on disk: written while they are computed, read back whole or checked
//! without being held. The format is documented in `docs/seq-format.md`.
//!
//! # Format (version 3, little-endian)
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `GRUNDYSQ` |
//! | 4 | version, `3` |
//! | 4 | length `L` of the rules text (at most 2^20) |
//! | `L` | the rules, UTF-8, as [`Rules`] displays them (`0.77`, `{1,2,5}`) |
//! | 8 | the number of heaps the writer set out to write |
//! | 8 | XXH3-64 of the header's bytes before it |
//! | … | chunks: width `w` (1 byte: 1 or 2 bytes per value), count `c` (4 bytes, 1..=2^20), `c·w` bytes of values, XXH3-64 of the chunk's bytes before it (8) |
//! | 13 | end: width 0, count 0, and their XXH3-64 |
//!
//! A flipped byte anywhere fails a checksum: the file is damaged, not a sequence. The values
//! a file holds are those of the chunks whose checksums held; a chunk cut before its
//! checksum is not counted.
//!
//! Values of heaps 0, 1, 2, … in order; each chunk uses the narrowest width for its values,
//! so a sequence costs one byte per heap while its values stay below 256. A file is complete
//! when the end marker follows exactly the promised number of heaps and nothing comes after.
//! Version 2 (still read) had no checksums; version 1 no rules, no promised count.

use std::io::{Read, Write};

use xxhash_rust::xxh3::xxh3_64;

use super::{Rules, Solver, Values};
use crate::explore::Control;
use crate::sequence::period::Period;
use crate::Error;

const MAGIC: &[u8; 8] = b"GRUNDYSQ";
const VERSION: u32 = 3;
/// Heaps per chunk written; the most a chunk may hold.
const CHUNK: u64 = 1 << 20;
/// The longest rules text a file may hold.
const MAX_RULES: u32 = 1 << 20;

/// Why a sequence could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The bytes are not a sequence file of a version this reads.
    #[error("not a Grundy sequence file: {0}")]
    Format(String),
    /// The computation failed.
    #[error("{0}")]
    Solve(#[from] Error),
}

/// What [`write_sequence`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Heaps written (0..len).
    pub len: u64,
    /// The period, if it was proved while computing (the rest was copied from it).
    pub period: Option<Period>,
    /// The largest value.
    pub max: u16,
    /// Heaps whose values were held in memory at the end.
    pub held: u64,
}

/// Writes `bytes` and their checksum.
fn write_sealed(out: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(bytes)?;
    out.write_all(&xxh3_64(bytes).to_le_bytes())
}

fn write_chunk(out: &mut impl Write, values: &[u16]) -> std::io::Result<()> {
    let wide = values.iter().any(|&v| v > 255);
    let mut bytes = Vec::with_capacity(5 + values.len() * 2);
    bytes.push(if wide { 2 } else { 1 });
    bytes.extend_from_slice(&(values.len() as u32).to_le_bytes());
    for &v in values {
        if wide {
            bytes.extend_from_slice(&v.to_le_bytes());
        } else {
            bytes.push(v as u8);
        }
    }
    write_sealed(out, &bytes)
}

/// Computes the Grundy values of heaps `0..len` and streams them to `out`. Once the
/// period is proved, the rest is written from it without being held in memory, so
/// memory stays at the proof's length (Kayles to 10¹⁰ heaps holds 256 values).
///
/// # Errors
/// [`FileError::Io`] if writing fails; [`FileError::Solve`] as
/// [`super::grundy_sequence`].
pub fn write_sequence(
    rules: &Rules,
    len: u64,
    out: &mut impl Write,
    control: &Control<'_>,
) -> Result<Written, FileError> {
    let text = rules.to_string();
    let text_len = u32::try_from(text.len())
        .ok()
        .filter(|&l| l <= MAX_RULES)
        .ok_or_else(|| FileError::Format("the rules are too long to record".into()))?;
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&text_len.to_le_bytes());
    header.extend_from_slice(text.as_bytes());
    header.extend_from_slice(&len.to_le_bytes());
    write_sealed(out, &header)?;
    let mut solver = Solver::new(rules);
    let mut written = 0u64;
    let mut max = 0u16;
    let mut chunk: Vec<u16> = Vec::new();
    while written < len {
        let end = len.min(written + CHUNK);
        chunk.clear();
        match solver.period() {
            Some(period) => {
                control.check()?;
                let (s, p) = (period.preperiod, period.period);
                chunk.extend((written..end).map(|n| solver.get((s + (n - s) % p) as usize)));
            }
            None => {
                solver.advance(end, control)?;
                let end = end.min(solver.len());
                chunk.extend((written..end).map(|n| solver.get(n as usize)));
            }
        }
        if chunk.is_empty() {
            continue;
        }
        let end = written + chunk.len() as u64;
        max = max.max(chunk.iter().copied().max().unwrap_or(0));
        write_chunk(out, &chunk)?;
        written = end;
    }
    write_sealed(out, &[0, 0, 0, 0, 0])?;
    out.flush()?;
    Ok(Written {
        len,
        period: solver.period(),
        max,
        held: solver.len(),
    })
}

/// What a sequence file holds, as [`inspect_sequence`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeqInfo {
    /// The format version (1 to 3).
    pub version: u32,
    /// The rules (`0.77`, `{1,2,5}`), as recorded (versions 2 and 3).
    pub rules: Option<String>,
    /// The heaps the writer set out to write (versions 2 and 3).
    pub promised: Option<u64>,
    /// The heaps the file holds (0..heaps).
    pub heaps: u64,
    /// The largest value held.
    pub max: u16,
    /// The end marker follows the promised heaps (version 1: the end marker is there) and
    /// nothing comes after it.
    pub complete: bool,
}

impl SeqInfo {
    /// Why the file is not complete, in words; `None` if it is.
    #[must_use]
    pub fn incomplete_reason(&self) -> Option<String> {
        if self.complete {
            return None;
        }
        Some(match self.promised {
            Some(p) => format!(
                "it stops after {} of the {} its writer set out to write, without the end \
                 marker (the writer was stopped, or the file was cut)",
                self.heaps,
                crate::number::count(p.into(), "heap", "heaps")
            ),
            None => format!(
                "it stops after {} without the end marker (the writer was stopped, or the \
                 file was cut)",
                crate::number::count(self.heaps.into(), "heap", "heaps")
            ),
        })
    }
}

/// Reads up to `buf.len()` bytes; fewer only at the end of the input.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The checksum after a sealed part: `None` if the input stops inside it.
fn read_sum(input: &mut impl Read) -> std::io::Result<Option<u64>> {
    let mut sum = [0u8; 8];
    Ok((read_full(input, &mut sum)? == 8).then(|| u64::from_le_bytes(sum)))
}

/// The header of a version-2 or -3 file after its magic and version (`head`): the rules
/// as text, checked to be a heap game's, and the heaps promised; with `sealed`, its
/// checksum checked.
fn read_header(
    input: &mut impl Read,
    head: &[u8; 12],
    sealed: bool,
) -> Result<(String, u64), FileError> {
    let bad = |m: String| Err(FileError::Format(m));
    let mut header = head.to_vec();
    let mut len = [0u8; 4];
    if read_full(input, &mut len)? < 4 {
        return bad("it stops inside the header".into());
    }
    header.extend_from_slice(&len);
    let len = u32::from_le_bytes(len);
    if len > MAX_RULES {
        return bad(format!(
            "the rules are said to take {len} bytes; at most {MAX_RULES} are allowed"
        ));
    }
    let mut text = Vec::new();
    input.by_ref().take(u64::from(len)).read_to_end(&mut text)?;
    if text.len() < len as usize {
        return bad("it stops inside the header".into());
    }
    header.extend_from_slice(&text);
    let mut promised = [0u8; 8];
    if read_full(input, &mut promised)? < 8 {
        return bad("it stops inside the header".into());
    }
    header.extend_from_slice(&promised);
    if sealed {
        let mut sum = [0u8; 8];
        if read_full(input, &mut sum)? < 8 {
            return bad("it stops inside the header".into());
        }
        if u64::from_le_bytes(sum) != xxh3_64(&header) {
            return Err(FileError::Format(
                "the header fails its checksum (the file is damaged)".into(),
            ));
        }
    }
    let text = String::from_utf8(text)
        .map_err(|_| FileError::Format("the rules are not UTF-8 text".into()))?;
    if text.parse::<Rules>().is_err() {
        let shown: String = text.chars().filter(|c| !c.is_control()).take(40).collect();
        return bad(format!(
            "the recorded rules `{shown}` are not a heap game's"
        ));
    }
    Ok((text, u64::from_le_bytes(promised)))
}

/// Walks a sequence file, handing each chunk's value bytes and width to `chunk`. A file that
/// stops early is not an error (the result says it is incomplete); bytes that are not this
/// format are. Memory: one chunk (at most 2 MiB) at a time, and never more than the bytes
/// that are there, whatever the counts say.
fn scan(input: &mut impl Read, mut chunk: impl FnMut(&[u8], u8)) -> Result<SeqInfo, FileError> {
    let bad = |m: String| Err(FileError::Format(m));
    let mut head = [0u8; 12];
    let got = read_full(input, &mut head)?;
    if got < 8 || &head[..8] != MAGIC {
        return bad("bad magic: it does not start with `GRUNDYSQ`".into());
    }
    if got < 12 {
        return bad("it stops inside the header".into());
    }
    let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    let mut info = SeqInfo {
        version,
        rules: None,
        promised: None,
        heaps: 0,
        max: 0,
        complete: false,
    };
    let sealed = version >= 3;
    let damaged = |what: String| {
        Err(FileError::Format(format!(
            "{what} fails its checksum (the file is damaged)"
        )))
    };
    match version {
        1 => {}
        2 | 3 => {
            let (rules, promised) = read_header(input, &head, sealed)?;
            info.rules = Some(rules);
            info.promised = Some(promised);
        }
        _ => {
            return bad(format!(
                "version {version}; this reads versions 1 to {VERSION}"
            ))
        }
    }
    // The checksum after a sealed part: `None` if the file stops inside it.
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let mut chunk_head = [0u8; 5];
        let got = read_full(input, &mut chunk_head)?;
        if got < 5 {
            return Ok(info);
        }
        let width = chunk_head[0];
        let count =
            u32::from_le_bytes([chunk_head[1], chunk_head[2], chunk_head[3], chunk_head[4]]);
        match width {
            0 if count == 0 => {
                if sealed {
                    match read_sum(input)? {
                        None => return Ok(info),
                        Some(sum) if sum != xxh3_64(&chunk_head) => {
                            return damaged(format!("the end marker after heap {}", info.heaps))
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            1 | 2 if count >= 1 && u64::from(count) <= CHUNK => {
                // Grown as the bytes arrive, so a count the data does not back sizes nothing.
                let want = u64::from(count) * u64::from(width);
                bytes.clear();
                input.by_ref().take(want).read_to_end(&mut bytes)?;
                let got = bytes.len();
                let cut = (got as u64) < want;
                if sealed {
                    // Values count once their checksum holds; a cut chunk's do not.
                    if cut {
                        return Ok(info);
                    }
                    let Some(sum) = read_sum(input)? else {
                        return Ok(info);
                    };
                    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
                    hasher.update(&chunk_head);
                    hasher.update(&bytes);
                    if sum != hasher.digest() {
                        return damaged(format!(
                            "the chunk of heaps {}..{}",
                            info.heaps,
                            info.heaps + u64::from(count)
                        ));
                    }
                }
                // A cut chunk (version 2): keep the whole values it holds.
                let whole = got / usize::from(width) * usize::from(width);
                chunk(&bytes[..whole], width);
                let values = (whole / usize::from(width)) as u64;
                let max = if width == 1 {
                    bytes[..whole].iter().map(|&b| u16::from(b)).max()
                } else {
                    bytes[..whole]
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .max()
                };
                info.max = info.max.max(max.unwrap_or(0));
                info.heaps += values;
                if cut {
                    return Ok(info);
                }
            }
            _ => {
                return bad(format!(
                    "a chunk of width {width} and {count} values at heap {} (widths are 1 or \
                     2, counts 1..={CHUNK})",
                    info.heaps
                ))
            }
        }
    }
    let mut after = [0u8; 1];
    if read_full(input, &mut after)? > 0 {
        return bad(format!(
            "bytes follow the end marker after heap {}",
            info.heaps
        ));
    }
    info.complete = info.promised.is_none_or(|p| p == info.heaps);
    if !info.complete {
        return bad(format!(
            "the end marker comes after {}, but the header promises {}",
            crate::number::count(info.heaps.into(), "heap", "heaps"),
            info.promised.unwrap_or(0)
        ));
    }
    Ok(info)
}

/// Recomputes every checksum of a version-3 sequence file in place, as far as its
/// structure can be followed (a header, then chunks of widths 1 or 2 and the end marker),
/// so that a fuzzer's changes reach the checks behind the checksums. Other bytes are left
/// alone.
pub fn reseal(bytes: &mut [u8]) {
    let le32 = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    if bytes.len() < 16 || &bytes[..8] != MAGIC || le32(&bytes[8..]) != 3 {
        return;
    }
    let mut at = 16 + le32(&bytes[12..]) as usize + 8;
    let seal = |bytes: &mut [u8], from: usize, to: usize| {
        if to + 8 <= bytes.len() {
            let sum = xxh3_64(&bytes[from..to]).to_le_bytes();
            bytes[to..to + 8].copy_from_slice(&sum);
        }
    };
    seal(bytes, 0, at);
    at += 8;
    while at + 5 <= bytes.len() {
        let width = usize::from(bytes[at]);
        let count = le32(&bytes[at + 1..]) as usize;
        let end = match width {
            0 => at + 5,
            1 | 2 if count <= CHUNK as usize => at + 5 + width * count,
            _ => return,
        };
        seal(bytes, at, end);
        if width == 0 {
            return;
        }
        at = end + 8;
    }
}

/// Checks a sequence file without holding its values: what it holds and whether it is
/// complete.
///
/// # Errors
/// [`FileError::Io`] if reading fails, [`FileError::Format`] if the bytes are not a
/// sequence file (a file that merely stops early is `Ok` with `complete: false`).
pub fn inspect_sequence(input: &mut impl Read) -> Result<SeqInfo, FileError> {
    scan(input, |_, _| {})
}

/// Reads a complete sequence written by [`write_sequence`] (version 1 to 3).
///
/// # Errors
/// [`FileError::Io`] if reading fails, [`FileError::Format`] if the bytes are not a
/// sequence file or the file is incomplete.
pub fn read_sequence(input: &mut impl Read) -> Result<Values, FileError> {
    let mut values: Vec<u16> = Vec::new();
    let mut wide = false;
    let info = scan(input, |bytes, width| {
        if width == 1 {
            values.extend(bytes.iter().map(|&b| u16::from(b)));
        } else {
            wide = true;
            values.extend(
                bytes
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
            );
        }
    })?;
    if let Some(reason) = info.incomplete_reason() {
        return Err(FileError::Format(format!("incomplete: {reason}")));
    }
    Ok(if wide {
        Values::U16(values)
    } else {
        Values::from_u16(values)
    })
}
