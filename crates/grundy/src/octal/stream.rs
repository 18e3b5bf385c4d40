//! Grundy sequences on disk: written while they are computed, read back whole.
//!
//! # Format (version 1, little-endian)
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `GRUNDYSQ` |
//! | 4 | version, `1` |
//! | … | chunks: width `w` (1 byte: 1 or 2 bytes per value), count `c` (4 bytes), `c·w` bytes of values |
//! | 5 | end: width 0, count 0 |
//!
//! Values of heaps 0, 1, 2, … in order; each chunk uses the narrowest width for its values,
//! so a sequence costs one byte per heap while its values stay below 256.

use std::io::{Read, Write};

use super::{Rules, Solver, Values};
use crate::explore::Control;
use crate::sequence::period::Period;
use crate::Error;

const MAGIC: &[u8; 8] = b"GRUNDYSQ";
const VERSION: u32 = 1;
/// Heaps per chunk written.
const CHUNK: u64 = 1 << 20;

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

/// Reads a sequence written by [`write_sequence`].
///
/// # Errors
/// [`FileError::Io`] if reading fails, [`FileError::Format`] if the bytes are not a
/// sequence file.
pub fn read_sequence(input: &mut impl Read) -> Result<Values, FileError> {
    let mut head = [0u8; 12];
    input.read_exact(&mut head)?;
    if &head[..8] != MAGIC {
        return Err(FileError::Format("bad magic".into()));
    }
    let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    if version != VERSION {
        return Err(FileError::Format(format!(
            "version {version}; this reads version {VERSION}"
        )));
    }
    let mut values: Vec<u16> = Vec::new();
    let mut wide = false;
    loop {
        let mut chunk_head = [0u8; 5];
        input.read_exact(&mut chunk_head)?;
        let width = chunk_head[0];
        let count = u32::from_le_bytes([chunk_head[1], chunk_head[2], chunk_head[3], chunk_head[4]])
            as usize;
        match width {
            0 if count == 0 => break,
            1 | 2 => {
                let mut bytes = vec![0u8; count * usize::from(width)];
                input.read_exact(&mut bytes)?;
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
            }
            _ => {
                return Err(FileError::Format(format!(
                    "chunk of width {width} at heap {}",
                    values.len()
                )))
            }
        }
    }
    Ok(if wide {
        Values::U16(values)
    } else {
        Values::from_u16(values)
    })
}
