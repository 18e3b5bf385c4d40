//! The bytes of a tier file (see `docs/tablebase-format.md`): encoding a header, an index
//! and blocks, and parsing them back with every number checked against the bytes there are.
//! Nothing here touches the file system, so the fuzz target and the tests drive it on
//! plain byte slices.

use std::fmt;
use std::ops::Range;

use xxhash_rust::xxh3::xxh3_64;

use crate::block::{self, Block};

/// The first eight bytes of every tier file.
pub const MAGIC: [u8; 8] = *b"GRUNDYTB";
/// The format version this build writes.
pub const VERSION: u32 = 2;
/// The format versions this build reads: version 1's blocks are byte planes, version 2's
/// the record model of [`crate::block`].
pub const READS: [u32; 2] = [1, VERSION];
/// Bytes per record.
pub const RECORD_WIDTH: u8 = 2;
/// Records per block written by default; see the measurements in `docs/tablebase-format.md`.
pub const DEFAULT_BLOCK_RECORDS: u32 = 1 << 18;
/// The most records a block may hold (2 MiB decompressed): a reader never decompresses more
/// than this at once, whatever a header says.
pub const MAX_BLOCK_RECORDS: u32 = 1 << 20;
/// The longest game id, in bytes.
pub const MAX_GAME_ID: usize = 1024;
pub use crate::block::{compress_bound, Encoder, LEVEL};

/// Bytes of the header before the game id.
const FIXED: usize = 72;
/// Bytes of one index entry of version 1: offset (8), compressed length (4), checksum (8).
const ENTRY_V1: usize = 20;
/// Bytes of one index entry of version 2: compressed length (4), checksum (8); a block
/// starts where the one before ends.
const ENTRY: usize = 12;
/// Bytes of a checksum.
const SUM: usize = 8;
/// The flag bit of a score game's records.
const SCORED: u8 = 1;
/// The flag bit of a tier holding some of its positions only (a book of the lines of play
/// against the engine): a rank without a record may still be a position of play.
const PARTIAL: u8 = 2;

/// The checksum of every part of a file: xxh3, 64 bits.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// What a tier file says it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The game, as [`TierGame::id`](grundy::tier::TierGame::id) names it.
    pub game: String,
    /// The ranking scheme's version.
    pub ranking_version: u32,
    /// Whether records are score margins.
    pub scored: bool,
    /// The tier this file holds.
    pub tier: u32,
    /// The number of tiers of the game.
    pub tiers: u32,
    /// The number of records (the tier's size).
    pub records: u64,
    /// Records per block (the last block may hold fewer).
    pub block_records: u32,
    /// What the tier holds: positions reached, and of those won, lost and drawn (score
    /// games: ahead, behind, level), so a store can say it without reading the records.
    pub summary: Summary,
}

/// What a tier holds, as the solver counted it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Positions the start reaches in the tier.
    pub positions: u64,
    /// Of those: won, lost and drawn for the player to move.
    pub outcomes: [u64; 3],
    /// Whether the tier holds some of its positions only, so that a rank without a
    /// record may still be a position of play (flag bit 1).
    pub partial: bool,
}

/// What a caller expects a tier file to hold: everything of the header but the block size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// The game id.
    pub game: String,
    /// The ranking scheme's version.
    pub ranking_version: u32,
    /// Whether records are score margins.
    pub scored: bool,
    /// The tier.
    pub tier: u32,
    /// The number of tiers.
    pub tiers: u32,
    /// The tier's size.
    pub records: u64,
}

impl Header {
    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> u64 {
        self.records.div_ceil(u64::from(self.block_records.max(1)))
    }

    /// The ranks block `block` holds.
    #[must_use]
    pub fn block_ranks(&self, block: u64) -> Range<u64> {
        let b = u64::from(self.block_records);
        let start = block.saturating_mul(b).min(self.records);
        start..start.saturating_add(b).min(self.records)
    }

    /// The header's bytes, its checksum included.
    ///
    /// # Panics
    /// On a game id longer than [`MAX_GAME_ID`] (the writer refuses those first).
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        assert!(self.game.len() <= MAX_GAME_ID);
        let mut out = Vec::with_capacity(FIXED + self.game.len() + SUM);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.ranking_version.to_le_bytes());
        out.extend_from_slice(&self.tier.to_le_bytes());
        out.extend_from_slice(&self.tiers.to_le_bytes());
        out.extend_from_slice(&self.records.to_le_bytes());
        out.extend_from_slice(&self.block_records.to_le_bytes());
        out.push(RECORD_WIDTH);
        out.push(
            if self.scored { SCORED } else { 0 } | if self.summary.partial { PARTIAL } else { 0 },
        );
        out.extend_from_slice(&(self.game.len() as u16).to_le_bytes());
        out.extend_from_slice(&self.summary.positions.to_le_bytes());
        for count in self.summary.outcomes {
            out.extend_from_slice(&count.to_le_bytes());
        }
        debug_assert_eq!(out.len(), FIXED);
        out.extend_from_slice(self.game.as_bytes());
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a header from the start of `bytes` (the whole file, or at least its first
    /// [`HEADER_PREFIX`] bytes), checking magic, version, checksum and that every field is
    /// in range; returns it with its length in bytes.
    ///
    /// # Errors
    /// What is wrong, first thing first.
    pub fn parse(bytes: &[u8]) -> Result<(Header, usize), Invalid> {
        let len = bytes.len() as u64;
        let short = |needs: usize| Invalid::Truncated {
            part: if bytes.len() < FIXED {
                Part::HeaderStart
            } else {
                Part::Header
            },
            needs: needs as u64,
            holds: len,
        };
        let head = &bytes[..bytes.len().min(MAGIC.len())];
        if head != &MAGIC[..head.len()] {
            return Err(Invalid::NotTablebase);
        }
        if bytes.len() < 12 {
            return Err(short(FIXED + SUM));
        }
        let version = u32_at(bytes, 8);
        if !READS.contains(&version) {
            return Err(Invalid::Version(version));
        }
        if bytes.len() < FIXED {
            return Err(short(FIXED + SUM));
        }
        let id_len = usize::from(u16::from_le_bytes([bytes[38], bytes[39]]));
        if id_len > MAX_GAME_ID {
            return Err(Invalid::HeaderDamaged(format!(
                "a game id of {id_len} bytes (at most {MAX_GAME_ID})"
            )));
        }
        let end = FIXED + id_len;
        if bytes.len() < end + SUM {
            return Err(short(end + SUM));
        }
        if checksum(&bytes[..end]) != u64_at(bytes, end) {
            return Err(Invalid::HeaderChecksum);
        }
        // The checksum holds: what follows is what a writer wrote, but a writer of another
        // build (or a forger) could still have written nonsense.
        let damaged = |what: String| Err(Invalid::HeaderDamaged(what));
        let width = bytes[36];
        if width != RECORD_WIDTH {
            return Err(Invalid::RecordWidth(width));
        }
        let flags = bytes[37];
        if flags & !(SCORED | PARTIAL) != 0 {
            return damaged(format!("unknown flags {flags:#04x}"));
        }
        let Ok(game) = std::str::from_utf8(&bytes[FIXED..end]) else {
            return damaged("a game id that is not UTF-8".into());
        };
        if game.is_empty() {
            return damaged("an empty game id".into());
        }
        let header = Header {
            game: game.to_owned(),
            ranking_version: u32_at(bytes, 12),
            tier: u32_at(bytes, 16),
            tiers: u32_at(bytes, 20),
            records: u64_at(bytes, 24),
            block_records: u32_at(bytes, 32),
            scored: flags & SCORED != 0,
            summary: Summary {
                positions: u64_at(bytes, 40),
                outcomes: [u64_at(bytes, 48), u64_at(bytes, 56), u64_at(bytes, 64)],
                partial: flags & PARTIAL != 0,
            },
        };
        let s = header.summary;
        if s.positions > header.records
            || s.outcomes.iter().try_fold(0u64, |a, &c| a.checked_add(c)) != Some(s.positions)
        {
            return damaged(format!(
                "a summary of {} positions ({} won, {} lost, {} drawn) in a tier of {} ranks",
                s.positions, s.outcomes[0], s.outcomes[1], s.outcomes[2], header.records
            ));
        }
        if header.tier >= header.tiers {
            return damaged(format!("tier {} of {}", header.tier, header.tiers));
        }
        if header.block_records == 0 || header.block_records > MAX_BLOCK_RECORDS {
            return damaged(format!(
                "{} records per block (1 to {MAX_BLOCK_RECORDS})",
                header.block_records
            ));
        }
        Ok((header, end + SUM))
    }

    /// Whether this is the file the caller expects.
    ///
    /// # Errors
    /// The first field that differs.
    pub fn check(&self, want: &Expected) -> Result<(), Invalid> {
        let differs = |field: &'static str, found: String, wanted: String| {
            Err(Invalid::Mismatch {
                field,
                found,
                wanted,
            })
        };
        if self.game != want.game {
            return differs("game", self.game.clone(), want.game.clone());
        }
        if self.ranking_version != want.ranking_version {
            return differs(
                "ranking version",
                self.ranking_version.to_string(),
                want.ranking_version.to_string(),
            );
        }
        if self.scored != want.scored {
            let kind = |s: bool| {
                if s {
                    "score margins"
                } else {
                    "win/loss/draw records"
                }
            };
            return differs("scored", kind(self.scored).into(), kind(want.scored).into());
        }
        if self.tiers != want.tiers {
            return differs("tiers", self.tiers.to_string(), want.tiers.to_string());
        }
        if self.tier != want.tier {
            return differs("tier", self.tier.to_string(), want.tier.to_string());
        }
        if self.records != want.records {
            return differs(
                "records",
                self.records.to_string(),
                want.records.to_string(),
            );
        }
        Ok(())
    }
}

/// The most bytes [`Header::parse`] reads: a reader that wants only the header reads this
/// much (or the whole file, if shorter).
pub const HEADER_PREFIX: usize = FIXED + MAX_GAME_ID + SUM;

/// Where one block lies and what its bytes sum to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The block's first byte, from the start of the file.
    pub offset: u64,
    /// The block's compressed length in bytes.
    pub len: u32,
    /// The checksum of the block's compressed bytes.
    pub checksum: u64,
}

/// A whole file's structure, checked against its length: the header, and for each block
/// where it lies. Every byte of the file belongs to exactly one of the header, the index
/// or one block, each under its own checksum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The format version the file was written in (one of [`READS`]).
    pub version: u32,
    /// The header.
    pub header: Header,
    /// The blocks, in order.
    pub index: Vec<Entry>,
}

impl Layout {
    /// Parses a whole file: the header (checked against `want` if given), the index and its
    /// checksum, and every block's place (each starts where the one before ends, the first
    /// right after the index, and the last ends at the end of the file). Block contents are
    /// not read: [`decode_block`] checks each when it is used.
    ///
    /// Allocates only the index, after checking that the file holds it.
    ///
    /// # Errors
    /// What is wrong, first thing first.
    pub fn parse(bytes: &[u8], want: Option<&Expected>) -> Result<Layout, Invalid> {
        let (header, index_start) = Header::parse(bytes)?;
        if let Some(want) = want {
            header.check(want)?;
        }
        // `Header::parse` read the version and knows it.
        let version = u32_at(bytes, 8);
        let entry_len = entry_len(version) as u64;
        let len = bytes.len() as u64;
        let blocks = header.blocks();
        let index_end = blocks
            .checked_mul(entry_len)
            .and_then(|b| b.checked_add((index_start + SUM) as u64))
            .filter(|&end| end <= len)
            .ok_or(Invalid::Truncated {
                part: Part::Index(blocks),
                needs: blocks
                    .saturating_mul(entry_len)
                    .saturating_add((index_start + SUM) as u64),
                holds: len,
            })?;
        // `index_end <= len`, so these fit in usize.
        let sum_at = index_end as usize - SUM;
        let raw = &bytes[index_start..sum_at];
        if checksum(raw) != u64_at(bytes, sum_at) {
            return Err(Invalid::IndexChecksum);
        }
        let mut index = Vec::with_capacity(blocks as usize);
        let mut at = index_end;
        for (i, e) in raw.chunks_exact(entry_len as usize).enumerate() {
            let entry = if version == 1 {
                Entry {
                    offset: u64_at(e, 0),
                    len: u32_at(e, 8),
                    checksum: u64_at(e, 12),
                }
            } else {
                Entry {
                    offset: at,
                    len: u32_at(e, 0),
                    checksum: u64_at(e, 4),
                }
            };
            let block = i as u64;
            let ranks = header.block_ranks(block);
            let most = max_block_len(version, ranks.end - ranks.start);
            if entry.offset != at || entry.len == 0 || u64::from(entry.len) > most {
                return Err(Invalid::IndexDamaged {
                    block,
                    blocks,
                    what: if entry.offset == at {
                        format!("{} bytes long (1 to {most})", entry.len)
                    } else {
                        format!("at byte {}, where byte {at} follows the last", entry.offset)
                    },
                });
            }
            // Saturates rather than wraps: a sum past the file's length is refused below.
            at = at.saturating_add(u64::from(entry.len));
            index.push(entry);
        }
        if at > len {
            return Err(Invalid::Truncated {
                part: Part::Blocks,
                needs: at - index_end,
                holds: len - index_end,
            });
        }
        if at < len {
            return Err(Invalid::Trailing(len - at));
        }
        Ok(Layout {
            version,
            header,
            index,
        })
    }

    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> u64 {
        self.index.len() as u64
    }
}

/// The most bytes a block of `records` records may take in a file of `version`.
fn max_block_len(version: u32, records: u64) -> u64 {
    if version == 1 {
        compress_bound(records * u64::from(RECORD_WIDTH))
    } else {
        block::max_len(records)
    }
}

/// Decodes blocks of either version one after another with one zstd context.
pub struct Decoder {
    zstd: zstd::bulk::Decompressor<'static>,
    scratch: Vec<u8>,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder").finish_non_exhaustive()
    }
}

impl Decoder {
    /// A decoder.
    ///
    /// # Errors
    /// zstd's own failure.
    pub fn new() -> std::io::Result<Decoder> {
        Ok(Decoder {
            zstd: zstd::bulk::Decompressor::new()?,
            scratch: Vec::new(),
        })
    }
}

/// A block decoded: version 1's records, or version 2's bitmap, table and codes, which
/// answer for one rank without expanding the block.
#[derive(Debug, Clone)]
pub enum Decoded {
    /// The records (version 1).
    Records(Vec<u16>),
    /// The model's parts (version 2).
    Coded(Block),
}

impl Default for Decoded {
    fn default() -> Decoded {
        Decoded::Records(Vec::new())
    }
}

impl Decoded {
    /// The record at `i` of the block (below its number of records).
    #[must_use]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            Decoded::Records(r) => r[i],
            Decoded::Coded(b) => b.get(i),
        }
    }

    /// Calls `each(i, record)` for every record of the block that is not `0`, by
    /// increasing `i` (version 2: from the codes, without expanding the block).
    ///
    /// # Errors
    /// The first error `each` returns, which stops the walk.
    pub fn for_each_reached<E>(
        &self,
        mut each: impl FnMut(usize, u16) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Decoded::Records(r) => {
                for (i, &r) in r.iter().enumerate() {
                    if r != 0 {
                        each(i, r)?;
                    }
                }
                Ok(())
            }
            Decoded::Coded(b) => b.for_each_reached(each),
        }
    }

    /// Every record of the block, into `out` (exactly the block's number of records).
    pub fn expand(&self, out: &mut [u16]) {
        match self {
            Decoded::Records(r) => out.copy_from_slice(r),
            Decoded::Coded(b) => b.expand(out),
        }
    }
}

/// Decodes block `block` of a parsed file into `into`, after checking its checksum.
/// Nothing is allocated past what the block's number of records bounds (at most
/// [`MAX_BLOCK_RECORDS`]).
///
/// # Errors
/// A bad checksum, a frame zstd refuses, or contents that are not the block's records.
pub fn decode_block(
    layout: &Layout,
    bytes: &[u8],
    block: u64,
    decoder: &mut Decoder,
    into: &mut Decoded,
) -> Result<(), Invalid> {
    let blocks = layout.blocks();
    let ranks = layout.header.block_ranks(block);
    let n = (ranks.end - ranks.start) as usize;
    let entry = layout.index[block as usize];
    // Layout::parse put every block inside `bytes`.
    let start = entry.offset as usize;
    let raw = &bytes[start..start + entry.len as usize];
    if checksum(raw) != entry.checksum {
        return Err(Invalid::BlockChecksum { block, blocks });
    }
    let damaged = |what: String| Invalid::BlockDamaged {
        block,
        blocks,
        what,
    };
    if layout.version == 1 {
        let mut records = match std::mem::take(into) {
            Decoded::Records(r) => r,
            Decoded::Coded(_) => Vec::new(),
        };
        let planes = &mut decoder.scratch;
        planes.clear();
        planes.resize(2 * n, 0);
        let got = decoder
            .zstd
            .decompress_to_buffer(raw, &mut planes[..])
            .map_err(|e| damaged(format!("zstd refuses it: {e}")))?;
        if got != 2 * n {
            return Err(damaged(format!("{got} bytes decompressed, not {}", 2 * n)));
        }
        let (low, high) = planes.split_at(n);
        records.clear();
        records.extend(
            low.iter()
                .zip(high)
                .map(|(&l, &h)| u16::from_le_bytes([l, h])),
        );
        *into = Decoded::Records(records);
    } else {
        let mut coded = match std::mem::take(into) {
            Decoded::Coded(b) => b,
            Decoded::Records(_) => Block::default(),
        };
        Block::decode(raw, n, &mut decoder.zstd, &mut decoder.scratch, &mut coded)
            .map_err(damaged)?;
        *into = Decoded::Coded(coded);
    }
    Ok(())
}

/// Recomputes the header's, the index's and every block's checksum in place, as far as
/// the bytes allow, so that a test or a fuzzer can forge a file whose checksums hold and
/// reach the structural checks behind them.
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() < FIXED {
        return;
    }
    let end = FIXED + usize::from(u16::from_le_bytes([bytes[38], bytes[39]]));
    if bytes.len() < end + SUM {
        return;
    }
    let sum = checksum(&bytes[..end]);
    bytes[end..end + SUM].copy_from_slice(&sum.to_le_bytes());
    let Ok((header, start)) = Header::parse(bytes) else {
        return;
    };
    let version = u32_at(bytes, 8);
    let entry_len = entry_len(version);
    let Some(index_end) = header
        .blocks()
        .checked_mul(entry_len as u64)
        .and_then(|l| l.checked_add(start as u64))
        .filter(|&e| e + SUM as u64 <= bytes.len() as u64)
    else {
        return;
    };
    let index_end = index_end as usize;
    // Version 2 has no offsets: its blocks follow one another after the index.
    let mut at = (index_end + SUM) as u64;
    for e in (start..index_end).step_by(entry_len) {
        let (offset, len, sum_at) = if version == 1 {
            (u64_at(bytes, e), u32_at(bytes, e + 8), e + 12)
        } else {
            (at, u32_at(bytes, e), e + 4)
        };
        let end = offset.checked_add(u64::from(len));
        if let Some(end) = end.filter(|&end| end <= bytes.len() as u64) {
            let sum = checksum(&bytes[offset as usize..end as usize]);
            bytes[sum_at..sum_at + SUM].copy_from_slice(&sum.to_le_bytes());
        }
        at = at.saturating_add(u64::from(len));
    }
    let sum = checksum(&bytes[start..index_end]);
    bytes[index_end..index_end + SUM].copy_from_slice(&sum.to_le_bytes());
}

/// Encodes a whole file in memory (header, index, blocks) on one thread: for tests, the
/// fuzz corpus, and small tiers.
///
/// # Errors
/// zstd's own failure, as text.
pub fn encode(header: &Header, records: &[u16]) -> Result<Vec<u8>, String> {
    assert_eq!(records.len() as u64, header.records);
    let mut encoder = Encoder::new()?;
    let blocks = records
        .chunks(header.block_records as usize)
        .map(|c| encoder.encode(c))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = header.encode();
    let entries: Vec<(u32, u64)> = blocks
        .iter()
        .map(|b| (b.len() as u32, checksum(b)))
        .collect();
    out.extend_from_slice(&encode_index(&entries));
    for b in &blocks {
        out.extend_from_slice(b);
    }
    Ok(out)
}

/// The index (with its checksum) of blocks of these `(length, checksum)`, in order, as
/// this build writes it (version [`VERSION`]).
#[must_use]
pub fn encode_index(blocks: &[(u32, u64)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(index_len(VERSION, blocks.len()));
    for &(len, sum) in blocks {
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&sum.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Bytes of one index entry in a file of `version`.
#[must_use]
pub const fn entry_len(version: u32) -> usize {
    if version == 1 {
        ENTRY_V1
    } else {
        ENTRY
    }
}

/// The index's length in bytes (its checksum included) for `blocks` blocks in a file of
/// `version`.
#[must_use]
pub const fn index_len(version: u32, blocks: usize) -> usize {
    blocks * entry_len(version) + SUM
}

/// Which part of a file a truncation cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The header, before its length is known.
    HeaderStart,
    /// The header.
    Header,
    /// The index of this many blocks.
    Index(u64),
    /// The blocks.
    Blocks,
}

/// What is wrong with a tier file's bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// Another kind of file.
    #[error("not a grundy tablebase file (no GRUNDYTB magic)")]
    NotTablebase,
    /// Another version of the format.
    #[error("format version {0}; this build reads versions 1 and 2 (a newer grundy wrote it, or the file is damaged)")]
    Version(u32),
    /// The file stops early.
    #[error("truncated ({}, the file holds {holds})", match part {
        Part::HeaderStart => format!("the header needs at least {needs} bytes"),
        Part::Header => format!("the header needs {needs} bytes"),
        Part::Index(n) => format!("the header and the index of {n} blocks need {needs} bytes"),
        Part::Blocks => format!("the index says {needs} bytes of blocks"),
    })]
    Truncated {
        /// What is cut.
        part: Part,
        /// The bytes it needs: of the whole file, or for [`Part::Blocks`] of blocks.
        needs: u64,
        /// The bytes the file holds: all of them, or for [`Part::Blocks`] after the index.
        holds: u64,
    },
    /// The header's checksum fails.
    #[error("the header fails its checksum (the file is damaged)")]
    HeaderChecksum,
    /// The header's checksum holds, but a field is out of range.
    #[error("the header is invalid: {0}")]
    HeaderDamaged(String),
    /// Records of another width.
    #[error("records of {0} bytes; this build reads 2-byte records")]
    RecordWidth(u8),
    /// A field differs from what the caller expects.
    #[error("{}", mismatch(field, found, wanted))]
    Mismatch {
        /// The header field.
        field: &'static str,
        /// What the file says.
        found: String,
        /// What the caller expects.
        wanted: String,
    },
    /// The index's checksum fails.
    #[error("the block index fails its checksum (the file is damaged)")]
    IndexChecksum,
    /// The index's checksum holds, but an entry is out of place.
    #[error("the block index is invalid: block {block} of {blocks} is {what}")]
    IndexDamaged {
        /// The block.
        block: u64,
        /// The number of blocks.
        blocks: u64,
        /// What is wrong.
        what: String,
    },
    /// Bytes after the last block.
    #[error("{0} bytes after the last block (the file is damaged)")]
    Trailing(u64),
    /// A block's checksum fails.
    #[error("block {block} of {blocks} fails its checksum (the file is damaged)")]
    BlockChecksum {
        /// The block.
        block: u64,
        /// The number of blocks.
        blocks: u64,
    },
    /// A block's checksum holds, but it does not decompress to its records.
    #[error("block {block} of {blocks} is invalid: {what}")]
    BlockDamaged {
        /// The block.
        block: u64,
        /// The number of blocks.
        blocks: u64,
        /// What is wrong.
        what: String,
    },
}

fn mismatch(field: &str, found: &str, wanted: &str) -> String {
    let (found, wanted) = (Shown(found), Shown(wanted));
    match field {
        "game" => format!("written for {found}, not {wanted}"),
        "scored" => format!("holds {found}, not {wanted}"),
        "tiers" => format!("written for a game of {found} tiers, not {wanted}"),
        "records" => format!("holds {found} records, but the tier has {wanted}"),
        _ => format!("written with {field} {found}, not {wanted}"),
    }
}

/// Text from a file, with control characters escaped so that it cannot reach a terminal raw.
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            game: "mnk[3,3,3]".into(),
            ranking_version: 7,
            scored: true,
            tier: 4,
            tiers: 10,
            records: 1000,
            block_records: 64,
            summary: Summary {
                positions: 900,
                outcomes: [500, 300, 100],
                partial: false,
            },
        }
    }

    #[test]
    fn headers_round_trip() {
        let h = header();
        let bytes = h.encode();
        assert_eq!(bytes.len(), FIXED + h.game.len() + SUM);
        assert_eq!(&bytes[..8], b"GRUNDYTB");
        assert_eq!(Header::parse(&bytes), Ok((h.clone(), bytes.len())));
        // A prefix longer than the header reads the same.
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[9; 100]);
        assert_eq!(Header::parse(&longer), Ok((h.clone(), bytes.len())));
        // A partial tier (a book of lines) says so in its flags, beside the score flag.
        let partial = Header {
            summary: Summary {
                partial: true,
                ..h.summary
            },
            ..h
        };
        let bytes = partial.encode();
        assert_eq!(bytes[37], SCORED | PARTIAL);
        assert_eq!(Header::parse(&bytes), Ok((partial, bytes.len())));
    }

    #[test]
    fn blocks_cover_the_ranks() {
        let h = header();
        assert_eq!(h.blocks(), 16);
        assert_eq!(h.block_ranks(0), 0..64);
        assert_eq!(h.block_ranks(15), 960..1000);
        let empty = Header {
            records: 0,
            summary: Summary::default(),
            ..h
        };
        assert_eq!(empty.blocks(), 0);
    }

    #[test]
    fn the_compress_bound_is_zstds() {
        for raw in [0u64, 1, 100, 2047, 2048, 131_071, 131_072, 131_073, 2 << 20] {
            assert_eq!(
                compress_bound(raw),
                zstd::zstd_safe::compress_bound(raw as usize) as u64,
                "{raw}"
            );
        }
    }

    #[test]
    fn a_file_in_memory_parses_and_decodes() {
        let h = header();
        let records: Vec<u16> = (0..1000u16).map(|i| i.wrapping_mul(2654) % 700).collect();
        let bytes = encode(&h, &records).unwrap();
        let layout = Layout::parse(&bytes, None).unwrap();
        assert_eq!(layout.blocks(), 16);
        assert_eq!(layout.version, VERSION);
        let mut decoder = Decoder::new().unwrap();
        let (mut decoded, mut out) = (Decoded::default(), vec![0; 40]);
        decode_block(&layout, &bytes, 15, &mut decoder, &mut decoded).unwrap();
        decoded.expand(&mut out);
        assert_eq!(out, records[960..]);
        assert_eq!(decoded.get(39), records[999]);
    }

    #[test]
    fn file_text_is_shown_without_control_characters() {
        let e = Invalid::Mismatch {
            field: "game",
            found: "a\u{1b}[2Jb".into(),
            wanted: "c".into(),
        };
        assert_eq!(e.to_string(), "written for a\\u{1b}[2Jb, not c");
    }
}
