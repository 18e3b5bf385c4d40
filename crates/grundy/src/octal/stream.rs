//! Grundy sequences on disk: written while they are computed, read back whole or checked
//! without being held. The format is documented in `docs/seq-format.md`.
//!
//! # Format (version 2, little-endian)
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `GRUNDYSQ` |
//! | 4 | version, `2` |
//! | 4 | length `L` of the rules text (at most 2^20) |
//! | `L` | the rules, UTF-8, as [`Rules`] displays them (`0.77`, `{1,2,5}`) |
//! | 8 | the number of heaps the writer set out to write |
//! | … | chunks: width `w` (1 byte: 1 or 2 bytes per value), count `c` (4 bytes, 1..=2^20), `c·w` bytes of values |
//! | 5 | end: width 0, count 0 |
//!
//! Values of heaps 0, 1, 2, … in order; each chunk uses the narrowest width for its values,
//! so a sequence costs one byte per heap while its values stay below 256. A file is complete
//! when the end marker follows exactly the promised number of heaps and nothing comes after.
//! Version 1 (still read) had no rules, no promised count.

use std::io::{Read, Write};

use super::{Rules, Solver, Values};
use crate::explore::Control;
use crate::sequence::period::Period;
use crate::Error;

const MAGIC: &[u8; 8] = b"GRUNDYSQ";
const VERSION: u32 = 2;
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

fn write_chunk(out: &mut impl Write, values: &[u16]) -> std::io::Result<()> {
    let wide = values.iter().any(|&v| v > 255);
    out.write_all(&[if wide { 2 } else { 1 }])?;
    out.write_all(&(values.len() as u32).to_le_bytes())?;
    let mut bytes = Vec::with_capacity(values.len() * 2);
    for &v in values {
        if wide {
            bytes.extend_from_slice(&v.to_le_bytes());
        } else {
            bytes.push(v as u8);
        }
    }
    out.write_all(&bytes)
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
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    let text = rules.to_string();
    let text_len = u32::try_from(text.len())
        .ok()
        .filter(|&l| l <= MAX_RULES)
        .ok_or_else(|| FileError::Format("the rules are too long to record".into()))?;
    out.write_all(&text_len.to_le_bytes())?;
    out.write_all(text.as_bytes())?;
    out.write_all(&len.to_le_bytes())?;
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
    out.write_all(&[0, 0, 0, 0, 0])?;
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
    /// The format version (1 or 2).
    pub version: u32,
    /// The rules (`0.77`, `{1,2,5}`), as recorded (version 2).
    pub rules: Option<String>,
    /// The heaps the writer set out to write (version 2).
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
    match version {
        1 => {}
        2 => {
            let mut len = [0u8; 4];
            if read_full(input, &mut len)? < 4 {
                return bad("it stops inside the header".into());
            }
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
            let text = String::from_utf8(text)
                .map_err(|_| FileError::Format("the rules are not UTF-8 text".into()))?;
            if text.parse::<Rules>().is_err() {
                let shown: String = text.chars().filter(|c| !c.is_control()).take(40).collect();
                return bad(format!(
                    "the recorded rules `{shown}` are not a heap game's"
                ));
            }
            let mut promised = [0u8; 8];
            if read_full(input, &mut promised)? < 8 {
                return bad("it stops inside the header".into());
            }
            info.rules = Some(text);
            info.promised = Some(u64::from_le_bytes(promised));
        }
        _ => {
            return bad(format!(
                "version {version}; this reads versions 1 and {VERSION}"
            ))
        }
    }
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
            0 if count == 0 => break,
            1 | 2 if count >= 1 && u64::from(count) <= CHUNK => {
                // Grown as the bytes arrive, so a count the data does not back sizes nothing.
                let want = u64::from(count) * u64::from(width);
                bytes.clear();
                input.by_ref().take(want).read_to_end(&mut bytes)?;
                let got = bytes.len();
                // A cut chunk: keep the whole values it holds.
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
                if (got as u64) < want {
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

/// Checks a sequence file without holding its values: what it holds and whether it is
/// complete.
///
/// # Errors
/// [`FileError::Io`] if reading fails, [`FileError::Format`] if the bytes are not a
/// sequence file (a file that merely stops early is `Ok` with `complete: false`).
pub fn inspect_sequence(input: &mut impl Read) -> Result<SeqInfo, FileError> {
    scan(input, |_, _| {})
}

/// Reads a complete sequence written by [`write_sequence`] (version 1 or 2).
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
