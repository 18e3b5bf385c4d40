//! One tier file on disk: writing it whole or not at all (a temporary name, synced, renamed),
//! and reading it through a memory map, every part checked before it is used.

use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::format::{self, Decoded, Decoder, Expected, Header, Invalid, Layout};
use crate::Error;

/// Blocks compressed together before they are written: bounds the compressed bytes held
/// in memory while writing (32 blocks of 256 Ki records: 16 MiB of records a batch).
const BATCH: usize = 32;

/// The temporary name a tier file is written under before it is renamed to `path`.
#[must_use]
pub fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Writes `records` as a tier file at `path` with `header` (whose `records` must be their
/// number): to the [`temporary`] name first, replacing any leftover, then synced, renamed,
/// and the directory synced, so that `path` is either absent, the old file, or the whole
/// new one. Blocks are compressed in parallel. Returns the file's length in bytes.
///
/// # Errors
/// The system's (disk full, permissions), naming the file; the temporary file is removed.
/// A header a reader would refuse (a game id that is empty or longer than
/// [`format::MAX_GAME_ID`], blocks of 0 or more than [`format::MAX_BLOCK_RECORDS`] records,
/// a tier past the tiers), or records of another number than the header's, are refused
/// before anything is written.
pub fn write(path: &Path, header: &Header, records: &[u16]) -> Result<u64, Error> {
    let written = write_unsynced(path, header, records)?;
    written.sync()?;
    let len = written.place()?;
    sync_dir(path)?;
    Ok(len)
}

/// Writes `records` under the [`temporary`] name as [`write()`] does, stopping short of
/// syncing and renaming: [`Written`] does those, so that the files of many tiers are
/// synced at once. Blocks are compressed in parallel.
///
/// # Errors
/// As [`write()`].
pub fn write_unsynced(path: &Path, header: &Header, records: &[u16]) -> Result<Written, Error> {
    check_writable(path, header, records.len() as u64)?;
    let mut file = BlockWriter::create(path, header)?;
    let chunk = header.block_records as usize;
    for batch in records.chunks(chunk * BATCH) {
        let compressed = batch
            .par_chunks(chunk)
            .map(|block| with_encoder(|e| e.encode(block)))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| Error::io(&file.tmp, "cannot compress", io::Error::other(e)))?;
        for bytes in &compressed {
            file.push(bytes)?;
        }
    }
    file.finish_unsynced(header)
}

/// Writes a tier of which only `held` ranks hold a record (`(rank, record)` by strictly
/// increasing rank, each below the header's records; every other rank `0`) under the
/// [`temporary`] name as [`write_unsynced`] writes the dense records, byte for byte,
/// without them: each block's records are made when it is encoded (a block a thread at a
/// time, in batches as [`write_unsynced`]), and the blocks that hold nothing, most of a
/// partial tier's, are one encoding of a block of `0`s (one for each length met), since a
/// block's bytes depend on its records alone.
///
/// # Errors
/// As [`write()`]; ranks out of order, repeated or past the tier, refused before anything
/// is written.
pub fn write_held_unsynced(
    path: &Path,
    header: &Header,
    held: &[(u64, u16)],
) -> Result<Written, Error> {
    check_writable(path, header, header.records)?;
    grundy::tier::check_held(header.tier, header.records, held).map_err(|e| Error::Refused {
        path: path.to_owned(),
        what: match e {
            grundy::Error::Store(what) => what,
            e => e.to_string(),
        },
    })?;
    let mut file = BlockWriter::create(path, header)?;
    let blocks = header.blocks();
    // The encoding of a block of `0`s, by its number of records.
    let mut empty: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut at = 0;
    let mut block = 0;
    while block < blocks {
        let end = (block + BATCH as u64).min(blocks);
        // Each block's ranks and the records held in them.
        let mut parts = Vec::with_capacity((end - block) as usize);
        for b in block..end {
            let ranks = header.block_ranks(b);
            let n = (ranks.end - ranks.start) as usize;
            let count = held[at..].partition_point(|&(rank, _)| rank < ranks.end);
            parts.push((ranks.start, n, &held[at..at + count]));
            at += count;
        }
        let compressed = parts
            .par_iter()
            .map_init(Vec::new, |records, &(first, n, part)| {
                if part.is_empty() {
                    return Ok(None);
                }
                records.clear();
                records.resize(n, 0u16);
                for &(rank, r) in part {
                    records[(rank - first) as usize] = r;
                }
                with_encoder(|e| e.encode(records)).map(Some)
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| Error::io(&file.tmp, "cannot compress", io::Error::other(e)))?;
        for (&(_, n, _), bytes) in parts.iter().zip(&compressed) {
            match bytes {
                Some(bytes) => file.push(bytes)?,
                None => {
                    let i = match empty.iter().position(|&(len, _)| len == n) {
                        Some(i) => i,
                        None => {
                            let zeros =
                                with_encoder(|e| e.encode(&vec![0u16; n])).map_err(|e| {
                                    Error::io(&file.tmp, "cannot compress", io::Error::other(e))
                                })?;
                            empty.push((n, zeros));
                            empty.len() - 1
                        }
                    };
                    file.push(&empty[i].1)?;
                }
            }
        }
        block = end;
    }
    file.finish_unsynced(header)
}

/// A tier file whole under its [`temporary`] name: [`Written::sync`] makes its bytes
/// durable, [`Written::place`] renames it into place; the directory is synced after
/// (`sync_dir`). Dropped before it is placed, it removes the temporary file.
#[derive(Debug)]
pub struct Written {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<File>,
    len: u64,
}

impl Written {
    /// Syncs the file's bytes to the disk.
    ///
    /// # Errors
    /// The system's, naming the file.
    pub fn sync(&self) -> Result<(), Error> {
        let file = self
            .file
            .as_ref()
            .expect("a written file is open until placed");
        file.sync_all()
            .map_err(|e| Error::io(&self.tmp, "cannot write", e))
    }

    /// Renames the file into place (durable once its directory is synced); its length.
    ///
    /// # Errors
    /// The system's, naming the file; the temporary file is removed.
    pub fn place(mut self) -> Result<u64, Error> {
        drop(self.file.take());
        fs::rename(&self.tmp, &self.path).map_err(|e| {
            let _ = fs::remove_file(&self.tmp);
            Error::io(&self.path, "cannot rename the temporary file into place", e)
        })?;
        Ok(self.len)
    }
}

impl Drop for Written {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` as the file at `path` whole or not at all, as [`write()`] writes a tier:
/// to the [`temporary`] name, synced, renamed, the directory synced.
///
/// # Errors
/// The system's, naming the file; the temporary file is removed.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let tmp = temporary(path);
    let written = (|| {
        let fail = |e| Error::io(&tmp, "cannot write", e);
        let mut file = File::create(&tmp).map_err(fail)?;
        file.write_all(bytes).map_err(fail)?;
        file.sync_all().map_err(fail)?;
        drop(file);
        fs::rename(&tmp, path)
            .map_err(|e| Error::io(path, "cannot rename the temporary file into place", e))?;
        sync_dir(path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A tier file written one encoded block at a time, in order, without holding the blocks:
/// under the [`temporary`] name, with room kept at the start for the header and the index,
/// which [`BlockWriter::finish`] writes once every block is in (so that the header may
/// carry a summary known only then); then synced and renamed into place as [`write()`] does.
/// Dropped unfinished (an error, a worker lost), it removes the temporary file: `path` is
/// the old file or absent, never part of the new one.
#[derive(Debug)]
pub struct BlockWriter {
    path: PathBuf,
    tmp: PathBuf,
    header_len: usize,
    records: u64,
    blocks: u64,
    out: Option<io::BufWriter<File>>,
    lens: Vec<(u32, u64)>,
}

impl BlockWriter {
    /// Starts the file of `header` (its summary may still be empty: [`BlockWriter::finish`]
    /// is given the final header).
    ///
    /// # Errors
    /// A header a reader would refuse (as [`write()`]), or the system's.
    pub fn create(path: &Path, header: &Header) -> Result<BlockWriter, Error> {
        check_writable(path, header, header.records)?;
        let tmp = temporary(path);
        let fail = |e| Error::io(&tmp, "cannot write", e);
        let blocks = header.blocks();
        let index_len = usize::try_from(blocks)
            .ok()
            .map(|b| format::index_len(format::VERSION, b))
            .ok_or_else(|| Error::Refused {
                path: path.to_owned(),
                what: format!("an index of {blocks} blocks does not fit in memory here"),
            })?;
        let header_len = header.encode().len();
        let mut file = File::create(&tmp).map_err(fail)?;
        // The header and the index are written last: their place is kept.
        if let Err(e) = file.seek(SeekFrom::Start((header_len + index_len) as u64)) {
            let _ = fs::remove_file(&tmp);
            return Err(fail(e));
        }
        Ok(BlockWriter {
            path: path.to_owned(),
            tmp,
            header_len,
            records: header.records,
            blocks,
            out: Some(io::BufWriter::with_capacity(1 << 20, file)),
            lens: Vec::new(),
        })
    }

    /// Appends the next block.
    ///
    /// # Errors
    /// More blocks than the header's, or the system's.
    pub fn push(&mut self, block: &[u8]) -> Result<(), Error> {
        if self.lens.len() as u64 >= self.blocks {
            return Err(Error::Refused {
                path: self.path.clone(),
                what: format!("more than the {} blocks of the tier given", self.blocks),
            });
        }
        let len = u32::try_from(block.len()).map_err(|_| Error::Refused {
            path: self.path.clone(),
            what: format!("a block of {} bytes cannot be written", block.len()),
        })?;
        let out = self
            .out
            .as_mut()
            .expect("a writer is open until it is finished");
        out.write_all(block)
            .map_err(|e| Error::io(&self.tmp, "cannot write", e))?;
        self.lens.push((len, format::checksum(block)));
        Ok(())
    }

    /// Writes `header` (the one given to [`BlockWriter::create`], with its final summary)
    /// and the index, syncs the file, renames it into place and syncs the directory.
    /// Returns the file's length in bytes.
    ///
    /// # Errors
    /// Fewer blocks than the header's, a header of another size or tier length, or the
    /// system's; the temporary file is removed.
    pub fn finish(self, header: &Header) -> Result<u64, Error> {
        let path = self.path.clone();
        let written = self.finish_unsynced(header)?;
        written.sync()?;
        let len = written.place()?;
        sync_dir(&path)?;
        Ok(len)
    }

    /// Writes `header` and the index as [`BlockWriter::finish`] does, leaving the syncing
    /// and the renaming to the [`Written`] returned.
    ///
    /// # Errors
    /// As [`BlockWriter::finish`].
    pub fn finish_unsynced(mut self, header: &Header) -> Result<Written, Error> {
        let head = header.encode();
        if head.len() != self.header_len || header.records != self.records {
            return Err(Error::Refused {
                path: self.path.clone(),
                what: "the header to finish with is not the one the file was started with".into(),
            });
        }
        if self.lens.len() as u64 != self.blocks {
            return Err(Error::Refused {
                path: self.path.clone(),
                what: format!(
                    "{} blocks given for a tier of {}",
                    self.lens.len(),
                    self.blocks
                ),
            });
        }
        let out = self
            .out
            .take()
            .expect("a writer is open until it is finished");
        let tmp = self.tmp.clone();
        let fail = |e| Error::io(&tmp, "cannot write", e);
        let written = (|| {
            let mut file = out.into_inner().map_err(|e| fail(e.into_error()))?;
            let end = file.stream_position().map_err(fail)?;
            file.seek(SeekFrom::Start(0)).map_err(fail)?;
            file.write_all(&head).map_err(fail)?;
            file.write_all(&format::encode_index(&self.lens))
                .map_err(fail)?;
            Ok(Written {
                path: self.path.clone(),
                tmp: tmp.clone(),
                file: Some(file),
                len: end,
            })
        })();
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }
}

impl Drop for BlockWriter {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Refuses a header a reader would refuse, or a number of records other than its own.
fn check_writable(path: &Path, header: &Header, records: u64) -> Result<(), Error> {
    if records != header.records {
        return Err(Error::Refused {
            path: path.to_owned(),
            what: format!("{records} records given for a header of {}", header.records),
        });
    }
    if header.game.len() > format::MAX_GAME_ID || header.game.is_empty() {
        return Err(Error::Refused {
            path: path.to_owned(),
            what: format!(
                "a game id of {} bytes cannot be written (1 to {})",
                header.game.len(),
                format::MAX_GAME_ID
            ),
        });
    }
    if header.block_records == 0 || header.block_records > format::MAX_BLOCK_RECORDS {
        return Err(Error::Refused {
            path: path.to_owned(),
            what: format!(
                "blocks of {} records cannot be written (1 to {})",
                header.block_records,
                format::MAX_BLOCK_RECORDS
            ),
        });
    }
    if header.tier >= header.tiers {
        return Err(Error::Refused {
            path: path.to_owned(),
            what: format!("tier {} of {} cannot be written", header.tier, header.tiers),
        });
    }
    Ok(())
}

thread_local! {
    /// Each thread's encoder, made when it first writes a block and kept: a zstd context
    /// at the level files are written with is costly to make for every batch.
    static ENCODER: std::cell::RefCell<Option<format::Encoder>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's encoder.
fn with_encoder<T>(f: impl FnOnce(&mut format::Encoder) -> Result<T, String>) -> Result<T, String> {
    ENCODER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(format::Encoder::new()?);
        }
        f(slot.as_mut().expect("made above"))
    })
}

/// Makes a rename in `path`'s directory durable.
pub(crate) fn sync_dir(path: &Path) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Directories cannot be opened for syncing everywhere (Windows); where they can, the
    // rename is only durable once the directory is synced.
    match File::open(dir) {
        Ok(d) => d
            .sync_all()
            .or_else(|e| if cfg!(unix) { Err(e) } else { Ok(()) })
            .map_err(|e| Error::io(dir, "cannot sync the directory", e)),
        Err(e) if cfg!(unix) => Err(Error::io(dir, "cannot open the directory", e)),
        Err(_) => Ok(()),
    }
}

/// Maps `file` into memory.
#[allow(unsafe_code)]
fn map(file: &File) -> io::Result<Mmap> {
    // SAFETY: a map is only sound while no one changes or truncates the file under it.
    // Tier files are written under a temporary name and renamed into place, never modified
    // in place; a rename that replaces a mapped file leaves the mapped inode intact until
    // it is unmapped. What is assumed is that nothing else writes to or truncates a
    // tablebase's files while they are open.
    unsafe { Mmap::map(file) }
}

/// A tier file opened for reading: its header and index checked, its blocks checked each
/// time one is read.
#[derive(Debug)]
pub struct TierFile {
    path: PathBuf,
    map: Mmap,
    layout: Layout,
    cache: Mutex<Cache>,
}

/// The last blocks read by [`TierFile::get`], newest first, and a decoder.
#[derive(Default)]
struct Cache {
    recent: Vec<(u64, Decoded)>,
    scratch: Option<Scratch>,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let blocks: Vec<u64> = self.recent.iter().map(|(b, _)| *b).collect();
        f.debug_struct("Cache").field("recent", &blocks).finish()
    }
}

/// How many decoded blocks [`TierFile::get`] keeps.
const CACHED: usize = 2;

struct Scratch {
    decoder: Decoder,
    /// The block last evicted from the cache, to decode the next into.
    spare: Decoded,
}

impl Scratch {
    fn new() -> io::Result<Scratch> {
        Ok(Scratch {
            decoder: Decoder::new()?,
            spare: Decoded::default(),
        })
    }
}

impl TierFile {
    /// Opens the tier file at `path`, checking it is the one `want` describes.
    ///
    /// # Errors
    /// The file cannot be opened, or is not the expected tier whole: another game, ranking,
    /// kind of record, tier or size; damaged (a checksum fails); truncated; or not a tier
    /// file at all. The message names the file.
    pub fn open(path: &Path, want: &Expected) -> Result<TierFile, Error> {
        TierFile::open_inner(path, Some(want))
    }

    /// Opens the tier file at `path` for whatever game it says it holds (to inspect it);
    /// its structure is checked as by [`TierFile::open`].
    ///
    /// # Errors
    /// As [`TierFile::open`], but for the expectations.
    pub fn inspect(path: &Path) -> Result<TierFile, Error> {
        TierFile::open_inner(path, None)
    }

    fn open_inner(path: &Path, want: Option<&Expected>) -> Result<TierFile, Error> {
        let file = File::open(path).map_err(|e| Error::io(path, "cannot open", e))?;
        let map = map(&file).map_err(|e| Error::io(path, "cannot map", e))?;
        let layout = Layout::parse(&map, want).map_err(|e| Error::invalid(path, e))?;
        Ok(TierFile {
            path: path.to_owned(),
            map,
            layout,
            cache: Mutex::new(Cache::default()),
        })
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the file says it holds.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.layout.header
    }

    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> u64 {
        self.layout.blocks()
    }

    /// The format version the file was written in (one of [`format::READS`]).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.layout.version
    }

    /// The file's length in bytes.
    #[must_use]
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// The record of `rank`, decompressing its block unless one of the last two blocks read
    /// holds it.
    ///
    /// # Errors
    /// A rank past the tier; a block that fails its checksum or does not decompress to its
    /// records (naming the file and the block).
    pub fn get(&self, rank: u64) -> Result<u16, Error> {
        let header = &self.layout.header;
        if rank >= header.records {
            return Err(Error::Refused {
                path: self.path.clone(),
                what: format!("rank {rank} is past the tier's {} records", header.records),
            });
        }
        let block = rank / u64::from(header.block_records);
        let at = (rank % u64::from(header.block_records)) as usize;
        let scratch = {
            let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = cache.recent.iter().position(|(b, _)| *b == block) {
                let hit = cache.recent.remove(i);
                let record = hit.1.get(at);
                cache.recent.insert(0, hit);
                return Ok(record);
            }
            cache.scratch.take()
        };
        // Decoding happens outside the lock, so readers of other blocks do not wait.
        let mut scratch = match scratch {
            Some(s) => s,
            None => Scratch::new().map_err(|e| Error::io(&self.path, "cannot decompress", e))?,
        };
        let mut decoded = std::mem::take(&mut scratch.spare);
        let result = self.decode(block, &mut scratch.decoder, &mut decoded);
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let record = result.map(|()| {
            let record = decoded.get(at);
            cache.recent.insert(0, (block, decoded));
            if cache.recent.len() > CACHED {
                scratch.spare = cache.recent.pop().map(|(_, d)| d).unwrap_or_default();
            }
            record
        });
        cache.scratch = Some(scratch);
        record
    }

    /// Maps the whole file in before it is all read: one call instead of a page fault for
    /// every 4 KiB. Only a hint: where it is not supported, the pages fault in as read.
    fn populate(&self) {
        #[cfg(target_os = "linux")]
        let _ = self.map.advise(memmap2::Advice::PopulateRead);
    }

    fn decode(&self, block: u64, decoder: &mut Decoder, into: &mut Decoded) -> Result<(), Error> {
        format::decode_block(&self.layout, &self.map, block, decoder, into)
            .map_err(|e| Error::invalid(&self.path, e))
    }

    /// Every record, decompressing the blocks in parallel, each checked.
    ///
    /// # Errors
    /// A block that fails its checksum or does not decompress to its records.
    pub fn read_all(&self) -> Result<Vec<u16>, Error> {
        self.populate();
        self.read_blocks(0..self.blocks())
    }

    /// The records of blocks `blocks` (a range of [`TierFile::blocks`]), one after the
    /// other, decompressed in parallel, each checked: a tier read a part at a time.
    ///
    /// # Errors
    /// A range past the file's blocks, or a block that fails its checksum or does not
    /// decompress to its records.
    pub fn read_blocks(&self, blocks: std::ops::Range<u64>) -> Result<Vec<u16>, Error> {
        let header = &self.layout.header;
        if blocks.start > blocks.end || blocks.end > self.blocks() {
            return Err(Error::Refused {
                path: self.path.clone(),
                what: format!(
                    "blocks {}..{} asked of a file of {}",
                    blocks.start,
                    blocks.end,
                    self.blocks()
                ),
            });
        }
        let per = u64::from(header.block_records);
        let first = blocks.start * per;
        let end = (blocks.end * per).min(header.records);
        // The size was checked against the caller's expectation (or, for `inspect`, is at
        // most `MAX_BLOCK_RECORDS` for each 20-byte index entry the file holds).
        let n = usize::try_from(end.saturating_sub(first)).map_err(|_| Error::Refused {
            path: self.path.clone(),
            what: format!("{} records do not fit in memory here", end - first),
        })?;
        let mut records = vec![0u16; n];
        records
            .par_chunks_mut(header.block_records as usize)
            .enumerate()
            .try_for_each_init(Scratch::new, |scratch, (i, out)| {
                let scratch = scratch
                    .as_mut()
                    .map_err(|e| Error::io(&self.path, "cannot decompress", clone_io(e)))?;
                self.decode(
                    blocks.start + i as u64,
                    &mut scratch.decoder,
                    &mut scratch.spare,
                )?;
                scratch.spare.expand(out);
                Ok(())
            })?;
        Ok(records)
    }

    /// Calls `each(rank, record)` for every record of the tier that is not `0`, by
    /// increasing rank, decoding one block at a time (each checked) without expanding it:
    /// a partial tier read in memory that follows its block, not the tier.
    ///
    /// # Errors
    /// A block that fails its checksum or does not decompress to its records, or the
    /// first error `each` returns (which stops the reading).
    pub fn for_each_reached<E: From<Error>>(
        &self,
        mut each: impl FnMut(u64, u16) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut scratch =
            Scratch::new().map_err(|e| Error::io(&self.path, "cannot decompress", e))?;
        let per = u64::from(self.layout.header.block_records);
        for block in 0..self.blocks() {
            self.decode(block, &mut scratch.decoder, &mut scratch.spare)?;
            let first = block * per;
            scratch
                .spare
                .for_each_reached(|i, r| each(first + i as u64, r))?;
        }
        Ok(())
    }

    /// Checks every block: its checksum, and that it decompresses to its records.
    ///
    /// # Errors
    /// The first bad block found (blocks are checked in parallel).
    pub fn verify(&self) -> Result<(), Error> {
        self.populate();
        (0..self.blocks())
            .into_par_iter()
            .try_for_each_init(Scratch::new, |scratch, block| {
                let scratch = scratch
                    .as_mut()
                    .map_err(|e| Error::io(&self.path, "cannot decompress", clone_io(e)))?;
                self.decode(block, &mut scratch.decoder, &mut scratch.spare)
            })
    }
}

fn clone_io(e: &io::Error) -> io::Error {
    io::Error::new(e.kind(), e.to_string())
}

/// Reads just the header of the tier file at `path` (at most
/// [`format::HEADER_PREFIX`] bytes).
///
/// # Errors
/// The file cannot be read, or its header is invalid.
pub fn read_header(path: &Path) -> Result<Header, Error> {
    use std::io::Read;
    let file = File::open(path).map_err(|e| Error::io(path, "cannot open", e))?;
    let mut head = Vec::with_capacity(format::HEADER_PREFIX);
    file.take(format::HEADER_PREFIX as u64)
        .read_to_end(&mut head)
        .map_err(|e| Error::io(path, "cannot read", e))?;
    Header::parse(&head)
        .map(|(h, _)| h)
        .map_err(|e| Error::invalid(path, e))
}

impl Error {
    pub(crate) fn io(path: &Path, doing: &'static str, source: io::Error) -> Error {
        Error::Io {
            path: path.to_owned(),
            doing,
            source,
        }
    }

    pub(crate) fn invalid(path: &Path, invalid: Invalid) -> Error {
        Error::Invalid {
            path: path.to_owned(),
            invalid,
        }
    }
}
