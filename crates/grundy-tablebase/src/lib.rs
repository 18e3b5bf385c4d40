//! The edge of grundy where solved tiers live on disk: a tablebase is a directory with one
//! file per tier (`tier-00017.gtb`), each a checksummed header, a checksummed block index
//! and zstd-compressed blocks of 16-bit records (the format: `docs/tablebase-format.md`).
//! Files appear under their names only whole, and nothing in one is trusted before it is
//! checked.
//!
//! ```
//! use grundy::tier::{Node, TierGame, TierStore};
//! use grundy_tablebase::Tablebase;
//!
//! /// Two tiers of three and two ranks (the moves do not matter to a store).
//! struct Tiny;
//! impl TierGame for Tiny {
//!     fn id(&self) -> String { "tiny[3]".into() }
//!     fn ranking_version(&self) -> u32 { 1 }
//!     fn tier_count(&self) -> u32 { 2 }
//!     fn tier_size(&self, tier: u32) -> u64 { [3, 2][tier as usize] }
//!     fn root(&self) -> (u32, u64) { (0, 0) }
//!     fn visit(&self, _: u32, _: std::ops::Range<u64>, _: &(dyn Fn(u64) -> bool + Sync),
//!              _: &mut dyn FnMut(u64, Node<'_>)) {}
//! }
//!
//! let dir = std::env::temp_dir().join(format!("grundy-tablebase-doc-{}", std::process::id()));
//! let mut tb = Tablebase::open(&dir, &Tiny).unwrap();
//! assert_eq!(tb.load(1).unwrap(), None);
//! let summary = grundy::tier::TierSummary { tier: 1, ranks: 2, positions: 2, outcomes: [1, 1, 0], partial: false };
//! tb.save(1, &[3, 2], &summary).unwrap();
//! assert_eq!(tb.summary(1).unwrap(), Some(summary));
//! assert_eq!(tb.load(1).unwrap(), Some(vec![3, 2]));
//! assert_eq!(tb.record(1, 0).unwrap(), Some(3));
//! assert_eq!(tb.complete_tiers().unwrap(), [1]);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![deny(unsafe_code)]

pub mod block;
pub mod file;
pub mod format;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use grundy::games::Tiers;
use grundy::tier::{TierGame, TierStore, TierSummary};

pub use file::TierFile;
pub use format::{Expected, Header, Invalid, Summary};

/// What went wrong with a tablebase; every message starts with the file (or directory).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The system refused (disk full, permissions, a missing directory).
    #[error("{}: {doing}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done (`cannot write`).
        doing: &'static str,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// The file is not the expected tier, whole and undamaged.
    #[error("{}: {invalid}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        invalid: Invalid,
    },
    /// A request that does not fit the tablebase (a rank past the tier, a tier past the
    /// game, records of another number than the tier's size, a directory of another game).
    #[error("{}: {what}", path.display())]
    Refused {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        what: String,
    },
}

impl From<Error> for grundy::Error {
    fn from(e: Error) -> grundy::Error {
        grundy::Error::Store(e.to_string())
    }
}

/// Why a spec's tablebase could not be opened or built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// A sum of games: a tablebase holds one board.
    #[error("a tablebase is for one board, not a sum of games")]
    Sum,
    /// The family is not split into tiers.
    #[error("`{0}` is not split into tiers, so it has no tablebase (boards are: connect4[w x h], tictactoe, mnk[m,n,k] and the other board games of `grundy help solve`)")]
    NotTiered(String),
    /// The directory or a tier file failed.
    #[error("{0}")]
    Store(#[from] Error),
    /// The tier solver failed or was stopped.
    #[error("cannot solve the tiers of {game}: {source}")]
    Solve {
        /// The game.
        game: String,
        /// Why.
        #[source]
        source: grundy::Error,
    },
}

/// What [`open_spec`] did to complete a tablebase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Built {
    /// The tiers the start reaches.
    pub tiers: usize,
    /// Those solved now (the others were read from the directory).
    pub fresh: usize,
    /// Positions in them.
    pub positions: u64,
    /// Bytes of tier files in the directory.
    pub disk_bytes: u64,
}

/// Opens the tablebase of `spec`'s board in `dir` for [`grundy::report::solve`] to read
/// first; with `build`, first solves the tiers it is missing (on `build`'s threads, in its
/// memory), telling `events` how far each tier is. Tiers already in `dir` are reused.
///
/// # Errors
/// [`OpenError`]: not one tiered board, a directory of another game or a damaged file,
/// the solver refused or stopped.
pub fn open_spec(
    spec: &grundy::games::Spec,
    dir: &Path,
    build: Option<&grundy::tier::Options>,
    events: &grundy::tier::Listener<'_>,
    control: &grundy::explore::Control<'_>,
) -> Result<(grundy::report::Tablebase, Option<Built>), OpenError> {
    let tiers = tiers_of(spec)?;
    let game = tiers.game();
    let (store, built) = in_dir(dir, || build_spec(game, dir, build, events, control))?;
    Ok((grundy::report::Tablebase::new(game, store), built))
}

/// Builds (or deepens) the book of `spec`'s board in `dir` to `depth`
/// ([`grundy::report::book::build`]: the exact search's values of the positions of tier
/// `depth`, the earlier tiers from them), as the one writer of the directory, then opens
/// it for [`grundy::report::solve`] to read first. The tiers it holds are kept: a deeper
/// book searches its new last tier only, and a stopped build resumes from the tiers it
/// saved.
///
/// # Errors
/// As [`open_spec`]; a directory holding tiers past `depth` that are not a book (a
/// tablebase, whole or being solved) is refused rather than mixed with one.
pub fn open_book(
    spec: &grundy::games::Spec,
    dir: &Path,
    depth: u32,
    options: &grundy::tier::Options,
    limits: &grundy::report::Limits<'_>,
    events: &grundy::tier::Listener<'_>,
) -> Result<(grundy::report::Tablebase, Built), OpenError> {
    let tiers = tiers_of(spec)?;
    let game = tiers.game();
    let (store, built) = in_dir(dir, || {
        let mut store = Tablebase::open(dir, game)?;
        let held = store.complete_tiers()?;
        if held.iter().any(|&t| t > depth) && store.book_depth()?.is_none() {
            return Err(OpenError::Store(Error::Refused {
                path: dir.to_owned(),
                what: format!(
                    "holds tiers past {depth} of {} that are not a book's (a tablebase, whole or being solved): build the book in another directory",
                    game.id()
                ),
            }));
        }
        let built = write(&mut store, game, events, |store, listen| {
            grundy::report::book::build(spec, depth, store, options, limits, listen)
        })?;
        Ok((store, built))
    })?;
    Ok((grundy::report::Tablebase::new(game, store), built))
}

/// Builds (or deepens, or resumes) the book of the lines of play against the engine of
/// `spec`'s board in `dir` to `depth` ([`grundy::report::book::build_lines`]: every
/// position the engine is to move at whose moves cost the search more than `hard_nodes`
/// nodes, with each move's value, on the lines the engine's moves leave open), as the one
/// writer of the directory, then opens it for [`grundy::report::solve`] to read first.
/// Its tiers are partial; `progress` hears how far the searches are.
///
/// # Errors
/// As [`open_book`]; a directory holding whole tiers (a tablebase, or a book of every
/// position) is refused.
#[allow(clippy::too_many_arguments)]
pub fn open_lines(
    spec: &grundy::games::Spec,
    dir: &Path,
    depth: u32,
    hard_nodes: u64,
    sides: grundy::report::book::Sides,
    options: &grundy::tier::Options,
    limits: &grundy::report::Limits<'_>,
    progress: &(dyn Fn(&grundy::report::book::Walked) + Sync),
    events: &grundy::tier::Listener<'_>,
) -> Result<
    (
        grundy::report::Tablebase,
        Built,
        grundy::report::book::Walked,
    ),
    OpenError,
> {
    let tiers = tiers_of(spec)?;
    let game = tiers.game();
    let (store, built, walked) = in_dir(dir, || {
        let mut store = Tablebase::open(dir, game)?;
        let mut walked = grundy::report::book::Walked::default();
        let built = write(&mut store, game, events, |store, listen| {
            let lines = grundy::report::book::build_lines(
                spec, depth, hard_nodes, sides, store, options, limits, progress, listen,
            )?;
            walked = lines.walked;
            Ok(lines.solved)
        })?;
        Ok((store, built, walked))
    })?;
    Ok((grundy::report::Tablebase::new(game, store), built, walked))
}

/// The tiers of `spec`'s one board.
fn tiers_of(spec: &grundy::games::Spec) -> Result<Box<dyn Tiers + '_>, OpenError> {
    let part = spec.single().ok_or(OpenError::Sum)?;
    part.family
        .tiers()
        .ok_or_else(|| OpenError::NotTiered(part.family.name()))
}

/// What `open` opens in `dir`; refused or stopped in a directory made for it, nothing is
/// left behind but what was solved (a directory holding only the writers' locks is
/// removed).
fn in_dir<T>(dir: &Path, open: impl FnOnce() -> Result<T, OpenError>) -> Result<T, OpenError> {
    let existed = dir.exists();
    let opened = open();
    if opened.is_err() && !existed {
        remove_if_empty(dir);
    }
    opened
}

/// Removes `dir` if it holds nothing but the writers' locks and manifest (best effort).
fn remove_if_empty(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let names: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    let bookkeeping = |n: &std::ffi::OsStr| {
        n.to_str().is_some_and(|n| {
            [WRITER_LOCK, MANIFEST, MANIFEST_LOCK].contains(&n)
                || n.strip_suffix(".lock")
                    .and_then(tier_of_file_name)
                    .is_some()
        })
    };
    if names.iter().all(|n| bookkeeping(n)) {
        for n in &names {
            let _ = fs::remove_file(dir.join(n));
        }
        let _ = fs::remove_dir(dir);
    }
}

fn build_spec(
    game: &dyn TierGame,
    dir: &Path,
    build: Option<&grundy::tier::Options>,
    events: &grundy::tier::Listener<'_>,
    control: &grundy::explore::Control<'_>,
) -> Result<(Tablebase, Option<Built>), OpenError> {
    let mut store = Tablebase::open(dir, game)?;
    // A book is deepened by `open_book`, never completed here: its tiers are the
    // tablebase's, but the tiers past it may be far beyond any memory (connect four 7 × 6).
    let build = build.filter(|_| !matches!(store.book_depth(), Ok(Some(_))));
    let built = match build {
        None => None,
        Some(options) => Some(write(&mut store, game, events, |store, listen| {
            grundy::tier::solve(game, store, options, listen, control)
        })?),
    };
    Ok((store, built))
}

/// Solves into `store` by `solve` (the tier solver, or a book's build) as the directory's
/// one writer, counting the tiers it solves now for [`Built`]. The lock is taken before
/// the first tier, so that a second solver of this directory is refused at once rather
/// than after solving a tier.
fn write(
    store: &mut Tablebase,
    game: &dyn TierGame,
    events: &grundy::tier::Listener<'_>,
    solve: impl FnOnce(
        &mut Tablebase,
        &grundy::tier::Listener<'_>,
    ) -> Result<grundy::tier::Solved, grundy::Error>,
) -> Result<Built, OpenError> {
    store.lock_for_writing()?;
    let fresh = std::sync::atomic::AtomicUsize::new(0);
    let listen = |e: &grundy::tier::Event| {
        if let grundy::tier::Event::Done { loaded: false, .. } = e {
            fresh.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        events(e);
    };
    let solved = solve(store, &listen).map_err(|source| OpenError::Solve {
        game: game.id(),
        source,
    })?;
    Ok(Built {
        tiers: solved.tiers.len(),
        fresh: fresh.into_inner(),
        positions: solved.positions(),
        disk_bytes: store.disk_bytes()?,
    })
}

/// The file name of a tier.
#[must_use]
pub fn tier_file_name(tier: u32) -> String {
    format!("tier-{tier:05}.gtb")
}

/// The file of a tier's positions found before the tier was whole (a book's deepest
/// tier, searched one position at a time): see [`Tablebase::found`].
#[must_use]
pub fn found_file_name(tier: u32) -> String {
    format!("tier-{tier:05}.found")
}

/// The tier a file name names, if it is a tier file's name (not a temporary one).
#[must_use]
pub fn tier_of_file_name(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("tier-")?.strip_suffix(".gtb")?;
    if digits.len() < 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let tier = digits.parse().ok()?;
    (tier_file_name(tier) == name).then_some(tier)
}

/// What a tablebase is for: the game as its files record it.
#[derive(Debug, Clone)]
struct Game {
    id: String,
    ranking_version: u32,
    scored: bool,
    sizes: Vec<u64>,
    /// The start's tier: a book's tiers run from it.
    first: u32,
}

/// A directory of tier files for one game, a [`TierStore`] for the tier solver and a source
/// of single records for queries.
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    /// Directories whose tier files are read too, after `dir`'s (never written).
    also: Vec<PathBuf>,
    game: Game,
    block_records: u32,
    readers: Mutex<BTreeMap<u32, Arc<TierFile>>>,
    /// The open lock file once this tablebase has written (or is about to write): see
    /// [`Tablebase::lock_for_writing`] and [`Tablebase::share_writing`].
    writer: Option<Writer>,
}

/// A writer's hold on its directory: [`WRITER_LOCK`], locked exclusively by a writer alone,
/// shared by the processes of a distributed solve (each of which then locks each tier
/// file it writes).
#[derive(Debug)]
struct Writer {
    /// Kept open: the lock lasts as long as the file.
    _lock: File,
    shared: bool,
}

/// The tier files in `dirs` (by name; temporary files are not), by tier: for a tier in
/// several, the first directory's.
fn tier_files_in(dirs: &[&Path]) -> Result<Vec<(u32, PathBuf)>, Error> {
    let mut found: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for dir in dirs {
        for entry in
            fs::read_dir(dir).map_err(|e| Error::io(dir, "cannot read the directory", e))?
        {
            let entry = entry.map_err(|e| Error::io(dir, "cannot read the directory", e))?;
            if let Some(tier) = entry.file_name().to_str().and_then(tier_of_file_name) {
                found.entry(tier).or_insert_with(|| entry.path());
            }
        }
    }
    Ok(found.into_iter().collect())
}

/// The tier files in `dir` written only in part (temporary names), sorted.
fn unfinished_in(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, "cannot read the directory", e))? {
        let entry = entry.map_err(|e| Error::io(dir, "cannot read the directory", e))?;
        let name = entry.file_name();
        if name
            .to_str()
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(tier_of_file_name)
            .is_some()
        {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// The file a writer of a tablebase holds locked while it writes: exclusively when it
/// writes alone, shared by the processes of a distributed solve (it is never removed; an
/// unlocked one is no writer).
pub const WRITER_LOCK: &str = "writer.lock";

/// The file naming the game of a directory that writers share ([`Tablebase::share_writing`]):
/// written once, whole (under a temporary name, then renamed), by the first of them, and
/// checked by every one after, so that a writer of another game is refused before it
/// writes a tier even while the directory holds no tier file yet.
pub const MANIFEST: &str = "manifest";

/// The lock taken while [`MANIFEST`] is read and, if missing, written.
const MANIFEST_LOCK: &str = "manifest.lock";

/// The file a sharing writer holds locked while it writes `tier`'s file (never removed):
/// `tier-00017.gtb.lock`.
#[must_use]
pub fn tier_lock_name(tier: u32) -> String {
    format!("{}.lock", tier_file_name(tier))
}

/// Opens (creating it) a lock file that is never removed.
fn open_lock(path: &Path) -> Result<File, Error> {
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, "cannot open the lock file", e))
}

impl Tablebase {
    /// Opens (creating it if missing) the tablebase of `game` in `dir`.
    ///
    /// # Errors
    /// The directory cannot be made or read, or it holds a tier file of another game (or
    /// another ranking, kind of record, or number of tiers). A damaged file is reported
    /// when its tier is read.
    pub fn open(dir: &Path, game: &dyn TierGame) -> Result<Tablebase, Error> {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, "cannot create the directory", e))?;
        let tiers = game.tier_count();
        let tb = Tablebase {
            dir: dir.to_owned(),
            also: Vec::new(),
            game: Game {
                id: game.id(),
                ranking_version: game.ranking_version(),
                scored: game.scored(),
                sizes: (0..tiers).map(|t| game.tier_size(t)).collect(),
                first: game.root().0,
            },
            block_records: format::DEFAULT_BLOCK_RECORDS,
            readers: Mutex::new(BTreeMap::new()),
            writer: None,
        };
        tb.check_game(dir)?;
        Ok(tb)
    }

    /// Refuses `dir` if it holds a tier file of another game. Checks what is the game's,
    /// not what is the tier's: a file under another tier's name is refused when that tier
    /// is read.
    fn check_game(&self, dir: &Path) -> Result<(), Error> {
        let manifest = dir.join(MANIFEST);
        // Read no further than a line past this game's manifest: a longer file differs
        // from it anyway, and is not read whole whatever its size.
        let most = self.manifest().len() as u64 + 256;
        let read = fs::File::open(&manifest).and_then(|f| {
            let mut bytes = Vec::new();
            io::Read::read_to_end(&mut io::Read::take(f, most), &mut bytes).map(|_| bytes)
        });
        match read {
            Ok(bytes) => self.check_manifest(dir, &bytes)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&manifest, "cannot read", e)),
        }
        for (tier, path) in tier_files_in(&[dir])? {
            let Ok(header) = file::read_header(&path) else {
                continue;
            };
            let want = Expected {
                tier: header.tier,
                records: header.records,
                ..self.expected(0)
            };
            if let Err(invalid) = header.check(&want) {
                return Err(Error::Refused {
                    path: dir.to_owned(),
                    what: format!(
                        "holds tier files of another game ({}: {invalid})",
                        tier_file_name(tier)
                    ),
                });
            }
        }
        Ok(())
    }

    /// The [`MANIFEST`] of this game: what a directory's sharing writers agree on, one
    /// field a line.
    fn manifest(&self) -> String {
        format!(
            "grundy tablebase\ngame {}\nranking version {}\nrecords {}\ntiers {}\n",
            self.game.id,
            self.game.ranking_version,
            if self.game.scored {
                "score margins"
            } else {
                "win, loss, draw"
            },
            self.game.sizes.len()
        )
    }

    /// Refuses `dir` if its manifest (`bytes`) is not this game's, naming the first line
    /// that differs.
    fn check_manifest(&self, dir: &Path, bytes: &[u8]) -> Result<(), Error> {
        let want = self.manifest();
        if bytes == want.as_bytes() {
            return Ok(());
        }
        let have = String::from_utf8_lossy(bytes);
        let (says, not) = have
            .lines()
            .map(Some)
            .chain(std::iter::repeat(None))
            .zip(want.lines().map(Some).chain(std::iter::repeat(None)))
            .find(|(a, b)| a != b)
            .unwrap_or((None, None));
        let quote = |l: Option<&str>| l.map_or_else(|| "nothing".to_owned(), |l| format!("`{l}`"));
        Err(Error::Refused {
            path: dir.to_owned(),
            what: format!(
                "holds the tablebase of another game: its {MANIFEST} says {}, not {} (write into another directory)",
                quote(says),
                quote(not)
            ),
        })
    }

    /// Reads the tier files of `dirs` too, a tier from the first directory that has its
    /// file (this one first): the union of the directories the processes of a distributed
    /// solve wrote, without copying them. They are only read; writes go to this
    /// tablebase's own directory.
    ///
    /// # Errors
    /// A directory that cannot be read or holds tier files of another game.
    pub fn reading_also(mut self, dirs: &[PathBuf]) -> Result<Tablebase, Error> {
        for d in dirs {
            if !d.is_dir() {
                return Err(Error::Refused {
                    path: d.clone(),
                    what: "is not a directory".into(),
                });
            }
            self.check_game(d)?;
        }
        self.also = dirs.to_vec();
        self.readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        Ok(self)
    }

    /// Makes this the one writer of the directory: locks [`WRITER_LOCK`] in it
    /// exclusively (an advisory lock the system drops when the process ends, however it
    /// ends) and keeps it until this tablebase is dropped. Every write takes it first
    /// unless [`Tablebase::share_writing`] came before, so two processes never write the
    /// same directory at once unless they share it; a solver calls it before its first
    /// tier so that a second one is refused at once. Readers take no lock. Calling it
    /// again, or after [`Tablebase::share_writing`], is free.
    ///
    /// # Errors
    /// Another process holds the lock ([`Error::Refused`], saying so), tier files or a
    /// manifest of another game came into the directory since it was opened, or the
    /// system's.
    pub fn lock_for_writing(&mut self) -> Result<(), Error> {
        self.take_writer(false)
    }

    /// Makes this one of the writers that share the directory, as the processes of a
    /// distributed solve do: locks [`WRITER_LOCK`] shared (so a writer alone is refused
    /// while they write, and they while it does), writes the directory's [`MANIFEST`] if
    /// it has none and refuses a directory whose manifest names another game, and from
    /// then on locks each tier file's [`tier_lock_name`] while it writes that file alone.
    /// Sharing writers must each write tiers the others do not (a tier's file is whole
    /// whoever writes it last, but two at once are refused). Calling it again is free; a
    /// writer alone stays alone.
    ///
    /// # Errors
    /// A process writing the directory alone ([`Error::Refused`], saying so), a directory
    /// of another game, or the system's.
    pub fn share_writing(&mut self) -> Result<(), Error> {
        self.take_writer(true)
    }

    fn take_writer(&mut self, shared: bool) -> Result<(), Error> {
        if self.writer.is_some() {
            return Ok(());
        }
        let path = self.dir.join(WRITER_LOCK);
        let file = open_lock(&path)?;
        let locked = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        match locked {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(Error::Refused {
                    path: self.dir.clone(),
                    what: if shared {
                        format!("another process is writing this tablebase alone (it holds {WRITER_LOCK}); the processes of a distributed solve share a directory, but not with a writer alone: wait for it to finish, or write into another directory")
                    } else {
                        format!("another process is writing this tablebase (it holds {WRITER_LOCK}); one writer a directory at a time, or the processes of one distributed solve: wait for it to finish, or write into another directory")
                    },
                })
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(Error::io(&path, "cannot lock the writer's lock", e))
            }
        }
        // Another writer may have come and gone since the directory was opened.
        self.check_game(&self.dir)?;
        if shared {
            self.claim_manifest()?;
        }
        self.writer = Some(Writer {
            _lock: file,
            shared,
        });
        self.remove_unfinished()
    }

    /// Writes the [`MANIFEST`] if the directory has none (whole: a temporary name, synced,
    /// renamed), or checks it, under its own lock so that two sharing writers that come at
    /// once agree on one.
    fn claim_manifest(&self) -> Result<(), Error> {
        let lock_path = self.dir.join(MANIFEST_LOCK);
        let lock = open_lock(&lock_path)?;
        // Held for a read or a write of a few bytes: waiting for it is waiting for that.
        lock.lock()
            .map_err(|e| Error::io(&lock_path, "cannot lock the manifest's lock", e))?;
        let path = self.dir.join(MANIFEST);
        match fs::read(&path) {
            Ok(bytes) => self.check_manifest(&self.dir, &bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                file::write_whole(&path, self.manifest().as_bytes())
            }
            Err(e) => Err(Error::io(&path, "cannot read", e)),
        }
    }

    /// The lock of `tier`'s file, held while this writer writes it, when writers share the
    /// directory (`None` for a writer alone: no one else writes it).
    fn lock_tier(&self, tier: u32) -> Result<Option<File>, Error> {
        if !self.writer.as_ref().is_some_and(|w| w.shared) {
            return Ok(None);
        }
        let name = tier_lock_name(tier);
        let path = self.dir.join(&name);
        let file = open_lock(&path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(fs::TryLockError::WouldBlock) => Err(Error::Refused {
                path: self.path(tier),
                what: format!(
                    "another process is writing this tier (it holds {name}); the processes of a distributed solve each write their own tiers: is another solve of this game writing into this directory?"
                ),
            }),
            Err(fs::TryLockError::Error(e)) => Err(Error::io(&path, "cannot lock", e)),
        }
    }

    /// Removes the tier files a writer left written only in part. A writer alone holds the
    /// directory, so every temporary file is a stopped one's; a sharing writer removes a
    /// temporary file only once it holds its tier's lock (no one is writing it), and
    /// leaves those another sharing writer is writing now.
    fn remove_unfinished(&self) -> Result<(), Error> {
        let shared = self.writer.as_ref().is_some_and(|w| w.shared);
        for path in unfinished_in(&self.dir)? {
            let held = if shared {
                let tier = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".tmp"))
                    .and_then(tier_of_file_name)
                    .expect("unfinished_in lists temporary tier files");
                match self.lock_tier(tier) {
                    Ok(lock) => lock,
                    Err(Error::Refused { .. }) => continue,
                    Err(e) => return Err(e),
                }
            } else {
                None
            };
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(&path, "cannot remove a stopped writer's file", e)),
            }
            drop(held);
        }
        Ok(())
    }

    /// Writes blocks of `records` records from now on (default
    /// [`format::DEFAULT_BLOCK_RECORDS`]; 1 to [`format::MAX_BLOCK_RECORDS`]). Files of any
    /// block size are read.
    ///
    /// # Errors
    /// A size out of range.
    pub fn with_block_records(mut self, records: u32) -> Result<Tablebase, Error> {
        if records == 0 || records > format::MAX_BLOCK_RECORDS {
            return Err(Error::Refused {
                path: self.dir.clone(),
                what: format!(
                    "blocks of {records} records (1 to {})",
                    format::MAX_BLOCK_RECORDS
                ),
            });
        }
        self.block_records = records;
        Ok(self)
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of a tier's file (which may not exist).
    #[must_use]
    pub fn path(&self, tier: u32) -> PathBuf {
        self.dir.join(tier_file_name(tier))
    }

    /// What the file of `tier` must say.
    fn expected(&self, tier: u32) -> Expected {
        Expected {
            game: self.game.id.clone(),
            ranking_version: self.game.ranking_version,
            scored: self.game.scored,
            tier,
            tiers: self.game.sizes.len() as u32,
            records: self.game.sizes.get(tier as usize).copied().unwrap_or(0),
        }
    }

    fn check_tier(&self, tier: u32) -> Result<(), Error> {
        if (tier as usize) < self.game.sizes.len() {
            Ok(())
        } else {
            Err(Error::Refused {
                path: self.path(tier),
                what: format!(
                    "tier {tier} is past the game's {} tiers",
                    self.game.sizes.len()
                ),
            })
        }
    }

    /// The tier files in the directory and those read too (by name; temporary files are
    /// not), by tier: for a tier in several, the first directory's.
    fn tier_files(&self) -> Result<Vec<(u32, PathBuf)>, Error> {
        let dirs: Vec<&Path> = std::iter::once(&self.dir)
            .chain(&self.also)
            .map(PathBuf::as_path)
            .collect();
        tier_files_in(&dirs)
    }

    /// Where `tier` is read from: this directory's file, else the first directory read too
    /// that has one, else this directory's name (which does not exist).
    fn read_path(&self, tier: u32) -> PathBuf {
        let name = tier_file_name(tier);
        std::iter::once(&self.dir)
            .chain(&self.also)
            .map(|d| d.join(&name))
            .find(|p| p.exists())
            .unwrap_or_else(|| self.path(tier))
    }

    /// The tiers of the game whose files are in the directory. A file is only ever there
    /// whole (it is renamed into place once written and synced), but it is checked only
    /// when read: see [`Tablebase::verify`].
    ///
    /// # Errors
    /// The directory cannot be read.
    pub fn complete_tiers(&self) -> Result<Vec<u32>, Error> {
        let tiers = self.game.sizes.len();
        Ok(self
            .tier_files()?
            .into_iter()
            .map(|(t, _)| t)
            .filter(|&t| (t as usize) < tiers)
            .collect())
    }

    /// The depth of the book this directory holds, if it is one: its tier files (with
    /// those read too) are exactly the start's tier to some tier before the last. A
    /// tablebase's tiers are solved from the last, so one being solved never looks like a
    /// book, and a whole one holds the last tier. A book's files are the tablebase's own
    /// (the same records), so nothing else marks it.
    ///
    /// # Errors
    /// The directory cannot be read.
    pub fn book_depth(&self) -> Result<Option<u32>, Error> {
        let held = self.complete_tiers()?;
        let (Some(&first), Some(&last)) = (held.first(), held.last()) else {
            return Ok(None);
        };
        let whole = held.len() as u64 == u64::from(last - first) + 1;
        let before_last = (last as usize) + 1 < self.game.sizes.len();
        Ok((first == self.game.first && whole && before_last).then_some(last))
    }

    /// The reader of `tier`, kept open for further queries; `None` if the tier has no file.
    ///
    /// # Errors
    /// The file exists but is not this game's tier, whole and undamaged (its blocks are
    /// checked as they are read).
    pub fn reader(&self, tier: u32) -> Result<Option<Arc<TierFile>>, Error> {
        self.check_tier(tier)?;
        let mut readers = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = readers.get(&tier) {
            return Ok(Some(Arc::clone(r)));
        }
        let Some(reader) = self.open_tier(tier)? else {
            return Ok(None);
        };
        let reader = Arc::new(reader);
        readers.insert(tier, Arc::clone(&reader));
        Ok(Some(reader))
    }

    fn open_tier(&self, tier: u32) -> Result<Option<TierFile>, Error> {
        match TierFile::open(&self.read_path(tier), &self.expected(tier)) {
            Ok(f) => Ok(Some(f)),
            Err(Error::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The record of `rank` in `tier`; `None` if the tier has no file.
    ///
    /// # Errors
    /// As [`Tablebase::reader`] and [`TierFile::get`].
    pub fn record(&self, tier: u32, rank: u64) -> Result<Option<u16>, Error> {
        self.reader(tier)?.map(|r| r.get(rank)).transpose()
    }

    /// The bytes the tier files take on disk (their lengths), for reports of bytes per
    /// position.
    ///
    /// # Errors
    /// The directory or a file's metadata cannot be read.
    pub fn disk_bytes(&self) -> Result<u64, Error> {
        let mut total = 0;
        for (_, path) in self.tier_files()? {
            let meta = fs::metadata(&path).map_err(|e| Error::io(&path, "cannot stat", e))?;
            total += meta.len();
        }
        Ok(total)
    }

    /// Checks every tier file of the game in the directory, every block of each; returns
    /// the tiers checked.
    ///
    /// # Errors
    /// The first file that is not whole and undamaged.
    pub fn verify(&self) -> Result<Vec<u32>, Error> {
        let tiers = self.complete_tiers()?;
        for &t in &tiers {
            if let Some(f) = self.open_tier(t)? {
                f.verify()?;
            }
        }
        Ok(tiers)
    }
}

/// What [`Tablebase::check`] found of one tier file.
#[derive(Debug)]
pub struct TierCheck {
    /// The tier its name says.
    pub tier: u32,
    /// The file.
    pub path: PathBuf,
    /// What its header says the tier holds, when the file is whole and undamaged.
    pub summary: Option<Summary>,
    /// Why it is not, when it is not: the first thing found wrong (another game, a
    /// checksum, a block that does not decode, a cut file).
    pub problem: Option<Error>,
}

/// What [`Tablebase::check`] found in a directory.
#[derive(Debug)]
pub struct DirCheck {
    /// Every tier file of the directory, by tier.
    pub tiers: Vec<TierCheck>,
    /// Tier files written only in part ([`file::temporary`] names), left by a writer that
    /// stopped (unless [`DirCheck::writing`]); no reader reads them, and the next writer
    /// of the directory removes them.
    pub unfinished: Vec<PathBuf>,
    /// Whether a writer holds the directory now (its unfinished files may be in progress).
    pub writing: bool,
    /// Each tier with positions found before it was whole ([`Tablebase::found`]: a book's
    /// deepest tier, left by a `grundy book` that stopped), with how many; the next build
    /// of that book resumes with them.
    pub found: Vec<(u32, Result<usize, Error>)>,
}

impl DirCheck {
    /// Whether every tier file is whole and undamaged.
    #[must_use]
    pub fn sound(&self) -> bool {
        self.tiers.iter().all(|t| t.problem.is_none())
    }
}

impl Tablebase {
    /// Checks every tier file in the directory whole: its header against the game, its
    /// index, and every block's checksum and decompression (in parallel), naming each
    /// file that is damaged rather than stopping at the first; and lists the files a
    /// stopped writer left. Reads every byte of every file.
    ///
    /// # Errors
    /// The directory cannot be read.
    pub fn check(&self) -> Result<DirCheck, Error> {
        let mut tiers = Vec::new();
        for (tier, path) in tier_files_in(&[self.dir.as_path()])? {
            let opened = self.check_tier(tier).and_then(|()| {
                TierFile::open(&path, &self.expected(tier)).and_then(|f| {
                    f.verify()?;
                    Ok(f.header().summary)
                })
            });
            let (summary, problem) = match opened {
                Ok(s) => (Some(s), None),
                Err(e) => (None, Some(e)),
            };
            tiers.push(TierCheck {
                tier,
                path,
                summary,
                problem,
            });
        }
        let unfinished = unfinished_in(&self.dir)?;
        let writing = self.writer.is_none() && self.held_by_another()?;
        let mut found = Vec::new();
        for tier in 0..self.game.sizes.len() as u32 {
            if self.found_path(tier).exists() {
                found.push((tier, self.read_found(tier).map(|(f, _)| f.len())));
            }
        }
        Ok(DirCheck {
            tiers,
            unfinished,
            writing,
            found,
        })
    }

    /// Whether another process holds the writer's lock now (without taking it).
    fn held_by_another(&self) -> Result<bool, Error> {
        let path = self.dir.join(WRITER_LOCK);
        let file = match fs::OpenOptions::new().write(true).open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(Error::io(&path, "cannot open the writer's lock", e)),
        };
        match file.try_lock() {
            Ok(()) => {
                // Released when `file` closes.
                Ok(false)
            }
            Err(fs::TryLockError::WouldBlock) => Ok(true),
            Err(fs::TryLockError::Error(e)) => {
                Err(Error::io(&path, "cannot lock the writer's lock", e))
            }
        }
    }
}

impl Tablebase {
    /// The header a file of `tier` gets, with `summary`.
    fn header(&self, tier: u32, summary: &TierSummary) -> Header {
        let want = self.expected(tier);
        Header {
            game: want.game,
            ranking_version: want.ranking_version,
            scored: want.scored,
            tier,
            tiers: want.tiers,
            records: want.records,
            block_records: self.block_records,
            summary: Summary {
                positions: summary.positions,
                outcomes: summary.outcomes,
                partial: summary.partial,
            },
        }
    }

    /// Records per block of the files written from now on.
    #[must_use]
    pub fn block_records(&self) -> u32 {
        self.block_records
    }

    /// Starts the file of `tier` from its encoded blocks ([`format::Encoder::encode`] of
    /// ranks `i·B .. (i+1)·B` for `B` = [`Tablebase::block_records`]), handed one at a
    /// time in order ([`TierWriter::push`]) and finished with the tier's summary
    /// ([`Tablebase::finish_encoded`]): the same file, byte for byte, as
    /// [`TierStore::save`] writes from the records, for a writer handed the blocks by the
    /// processes that hold the records. Until it is finished the tier's old file (if any)
    /// stays as it was; a writer dropped unfinished leaves nothing.
    ///
    /// # Errors
    /// A tier past the game, another writer holding the directory, or the system's.
    pub fn begin_encoded(&mut self, tier: u32) -> Result<TierWriter, Error> {
        self.check_tier(tier)?;
        self.lock_for_writing()?;
        let empty = TierSummary {
            tier,
            ranks: 0,
            positions: 0,
            outcomes: [0; 3],
            partial: false,
        };
        let header = self.header(tier, &empty);
        let lock = self.lock_tier(tier)?;
        Ok(TierWriter {
            tier,
            file: file::BlockWriter::create(&self.path(tier), &header)?,
            _lock: lock,
        })
    }

    /// Finishes a file [`Tablebase::begin_encoded`] started: its header gets `summary`,
    /// and it is synced and renamed into place. Returns its length in bytes.
    ///
    /// # Errors
    /// Fewer blocks than the tier's, or the system's.
    pub fn finish_encoded(
        &mut self,
        file: TierWriter,
        summary: &TierSummary,
    ) -> Result<u64, Error> {
        let header = self.header(file.tier, summary);
        let written = file.file.finish(&header);
        self.readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&file.tier);
        written
    }
}

/// The most tier files [`Tablebase`]'s `save_many` syncs at once (a thread each).
pub const SYNCED_AT_ONCE: usize = 8;

/// A tier file being written from its encoded blocks ([`Tablebase::begin_encoded`]).
#[derive(Debug)]
pub struct TierWriter {
    tier: u32,
    /// Dropped first: a file dropped unfinished is removed before its lock is let go.
    file: file::BlockWriter,
    /// The tier's lock, when writers share the directory.
    _lock: Option<File>,
}

impl TierWriter {
    /// Appends the tier's next block.
    ///
    /// # Errors
    /// More blocks than the tier's, or the system's.
    pub fn push(&mut self, block: &[u8]) -> Result<(), Error> {
        self.file.push(block)
    }
}

impl TierStore for Tablebase {
    fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, grundy::Error> {
        Ok(self.reader(tier)?.map(|f| {
            let h = f.header();
            TierSummary {
                tier,
                ranks: h.records,
                positions: h.summary.positions,
                outcomes: h.summary.outcomes,
                partial: h.summary.partial,
            }
        }))
    }

    fn record(&mut self, tier: u32, rank: u64) -> Result<Option<u16>, grundy::Error> {
        Ok(Tablebase::record(self, tier, rank)?)
    }

    fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, grundy::Error> {
        self.check_tier(tier)?;
        Ok(self.open_tier(tier)?.map(|f| f.read_all()).transpose()?)
    }

    fn save(
        &mut self,
        tier: u32,
        records: &[u16],
        summary: &TierSummary,
    ) -> Result<(), grundy::Error> {
        self.save_many(&[(tier, records, *summary)])
    }

    /// Every tier's file written under its temporary name (blocks compressed in
    /// parallel), then all of them synced at once (a thread each, at most
    /// [`SYNCED_AT_ONCE`] at a time: the disk commits them together), renamed into place
    /// in the order given, and the directory synced once.
    fn save_many(&mut self, tiers: &[(u32, &[u16], TierSummary)]) -> Result<(), grundy::Error> {
        self.lock_for_writing()?;
        let mut written = Vec::with_capacity(tiers.len());
        for &(tier, records, ref summary) in tiers {
            self.check_tier(tier)?;
            let path = self.path(tier);
            let want = self.expected(tier);
            if records.len() as u64 != want.records {
                return Err(Error::Refused {
                    path,
                    what: format!(
                        "{} records given for a tier of {}",
                        records.len(),
                        want.records
                    ),
                }
                .into());
            }
            let header = self.header(tier, summary);
            // Held until the file is in place.
            let lock = self.lock_tier(tier)?;
            written.push((tier, lock, file::write_unsynced(&path, &header, records)?));
        }
        Ok(self.place(written)?)
    }

    /// A partial tier written from its held records a block at a time
    /// ([`file::write_held_unsynced`]): the file [`TierStore::save`] writes from the dense
    /// records, byte for byte, in memory that follows the records held and a block a
    /// thread, not the tier's size; then synced and placed as `save_many` does.
    fn save_held(
        &mut self,
        tier: u32,
        ranks: u64,
        held: &[(u64, u16)],
        summary: &TierSummary,
    ) -> Result<(), grundy::Error> {
        self.lock_for_writing()?;
        self.check_tier(tier)?;
        let path = self.path(tier);
        let want = self.expected(tier);
        if ranks != want.records {
            return Err(Error::Refused {
                path,
                what: format!("{ranks} ranks given for a tier of {}", want.records),
            }
            .into());
        }
        let header = self.header(tier, summary);
        // Held until the file is in place.
        let lock = self.lock_tier(tier)?;
        let written = file::write_held_unsynced(&path, &header, held)?;
        Ok(self.place(vec![(tier, lock, written)])?)
    }

    /// The records of a tier's file that are not unreached, a block at a time
    /// ([`TierFile::for_each_reached`]), the file opened afresh (as `load` does).
    fn for_each_held(
        &mut self,
        tier: u32,
        each: &mut dyn FnMut(u64, u16) -> Result<(), grundy::Error>,
    ) -> Result<bool, grundy::Error> {
        self.check_tier(tier)?;
        let Some(file) = self.open_tier(tier)? else {
            return Ok(false);
        };
        file.for_each_reached(each)?;
        Ok(true)
    }

    fn keep_found(&mut self, tier: u32, found: &[(u64, u16)]) -> Result<(), grundy::Error> {
        Ok(Tablebase::keep_found(self, tier, found)?)
    }

    fn found(&mut self, tier: u32) -> Result<Vec<(u64, u16)>, grundy::Error> {
        Ok(Tablebase::found(self, tier)?)
    }
}

/// A tier file written under its temporary name, with the tier and its lock (when writers
/// share the directory), held until the file is in place.
type Unplaced = (u32, Option<File>, file::Written);

impl Tablebase {
    /// Syncs `written` at once (a thread a file, at most [`SYNCED_AT_ONCE`] at a time: the
    /// disk commits them together), renames them into place in the order given, syncs the
    /// directory once, and forgets each tier's found positions, now in its file.
    fn place(&mut self, written: Vec<Unplaced>) -> Result<(), Error> {
        for group in written.chunks(SYNCED_AT_ONCE) {
            if let [(_, _, one)] = group {
                one.sync()?;
                continue;
            }
            std::thread::scope(|s| -> Result<(), Error> {
                let mut syncs = Vec::with_capacity(group.len());
                for (_, _, w) in group {
                    // A file whose thread cannot be started is synced here.
                    match std::thread::Builder::new().spawn_scoped(s, move || w.sync()) {
                        Ok(h) => syncs.push(h),
                        Err(_) => w.sync()?,
                    }
                }
                for h in syncs {
                    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
                }
                Ok(())
            })?;
        }
        let mut placed = Vec::with_capacity(written.len());
        for (tier, lock, w) in written {
            let done = w.place();
            drop(lock);
            // A reader kept open maps the old file (a query on another thread may have
            // opened it while this one wrote): the next query opens the new one.
            self.readers
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&tier);
            done?;
            placed.push(tier);
        }
        if let Some(&tier) = placed.first() {
            file::sync_dir(&self.path(tier))?;
        }
        for tier in placed {
            // The positions found of the tier before it was whole are in it now.
            let found = self.found_path(tier);
            match fs::remove_file(&found) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(Error::io(&found, "cannot remove", e));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// What a found file keeps, and the length to cut it to when its last frame is cut or
/// damaged.
type FoundRead = (Vec<(u64, u16)>, Option<u64>);

/// The start of a found file: what it is, its version, and the tier and game it is of.
const FOUND_MAGIC: &[u8; 8] = b"GTBFOUND";
/// The found file's version.
const FOUND_VERSION: u32 = 1;
/// Bytes of a found file's header: the magic, the version, the tier, the tier's records
/// and a checksum of the game's manifest.
const FOUND_HEADER: usize = 8 + 4 + 4 + 8 + 8;
/// Bytes of one position in a found file: its rank and its record.
const FOUND_ENTRY: usize = 8 + 2;
/// The most positions one appended frame holds.
const FOUND_FRAME: usize = 1 << 16;

impl Tablebase {
    /// Where the positions of `tier` found before it was whole are kept.
    #[must_use]
    pub fn found_path(&self, tier: u32) -> PathBuf {
        self.dir.join(found_file_name(tier))
    }

    /// A found file's header for `tier`.
    fn found_header(&self, tier: u32) -> [u8; FOUND_HEADER] {
        let mut h = [0u8; FOUND_HEADER];
        h[..8].copy_from_slice(FOUND_MAGIC);
        h[8..12].copy_from_slice(&FOUND_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&tier.to_le_bytes());
        h[16..24].copy_from_slice(&self.expected(tier).records.to_le_bytes());
        h[24..32].copy_from_slice(&format::checksum(self.manifest().as_bytes()).to_le_bytes());
        h
    }

    /// Appends `found` (ranks and records of `tier`, searched before the tier is whole)
    /// to the tier's found file, in frames each with its checksum, synced before it
    /// returns: a process killed while appending leaves a cut last frame, which
    /// [`Tablebase::found`] leaves out. Takes the writer's lock.
    ///
    /// # Errors
    /// A tier past the game's, a rank past the tier or an unreached record, another
    /// writer, or the system's.
    pub fn keep_found(&mut self, tier: u32, found: &[(u64, u16)]) -> Result<(), Error> {
        self.check_tier(tier)?;
        self.lock_for_writing()?;
        let path = self.found_path(tier);
        let records = self.expected(tier).records;
        if let Some(&(rank, record)) = found
            .iter()
            .find(|&&(rank, record)| rank >= records || record == grundy::tier::record::UNREACHED)
        {
            return Err(Error::Refused {
                path,
                what: format!("rank {rank} with record {record} is no position of tier {tier}"),
            });
        }
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| Error::io(&path, "cannot open", e))?;
        let len = file
            .metadata()
            .map_err(|e| Error::io(&path, "cannot read the size of", e))?
            .len();
        let mut bytes = Vec::new();
        if len == 0 {
            bytes.extend_from_slice(&self.found_header(tier));
        }
        for frame in found.chunks(FOUND_FRAME) {
            let start = bytes.len();
            bytes.extend_from_slice(&(frame.len() as u32).to_le_bytes());
            for &(rank, record) in frame {
                bytes.extend_from_slice(&rank.to_le_bytes());
                bytes.extend_from_slice(&record.to_le_bytes());
            }
            let sum = format::checksum(&bytes[start..]);
            bytes.extend_from_slice(&sum.to_le_bytes());
        }
        io::Write::write_all(&mut file, &bytes).map_err(|e| Error::io(&path, "cannot write", e))?;
        file.sync_data()
            .map_err(|e| Error::io(&path, "cannot sync", e))?;
        if len == 0 {
            file::sync_dir(&path)?;
        }
        Ok(())
    }

    /// The positions of `tier` kept by [`Tablebase::keep_found`] since the tier was last
    /// saved whole (none without a found file). A cut or damaged last frame (a writer
    /// killed while appending) is left out, and cut off the file (the writer's lock taken
    /// for it), so that the next frames appended are read after the ones kept.
    ///
    /// # Errors
    /// A found file of another game or tier, or whose frames that pass their checksums
    /// name ranks past the tier or more positions than it has ([`Error::Refused`]); the
    /// system's.
    pub fn found(&mut self, tier: u32) -> Result<Vec<(u64, u16)>, Error> {
        let (found, kept) = self.read_found(tier)?;
        if let Some(len) = kept {
            // Cut off, so that what is appended next is read after what is kept.
            self.lock_for_writing()?;
            let path = self.found_path(tier);
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| Error::io(&path, "cannot open", e))?;
            file.set_len(len)
                .and_then(|()| file.sync_data())
                .map_err(|e| Error::io(&path, "cannot cut the last frame of", e))?;
        }
        Ok(found)
    }

    /// The positions a found file keeps, and the length to cut it to when its last frame
    /// is cut or damaged.
    fn read_found(&self, tier: u32) -> Result<FoundRead, Error> {
        self.check_tier(tier)?;
        let path = self.found_path(tier);
        let records = self.expected(tier).records;
        // The most a found file of this tier can hold: every position once, each in a frame
        // of its own.
        let most = FOUND_HEADER as u64 + records.saturating_mul(FOUND_ENTRY as u64 + 12) + 12;
        let len = match fs::metadata(&path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
            Err(e) => return Err(Error::io(&path, "cannot read", e)),
        };
        let refused = |what: String| Error::Refused {
            path: path.clone(),
            what,
        };
        if len > most {
            return Err(refused(format!(
                "holds {len} bytes, more than the found positions of a tier of {records} ranks can take"
            )));
        }
        let bytes = fs::read(&path).map_err(|e| Error::io(&path, "cannot read", e))?;
        if bytes.len() < FOUND_HEADER || bytes[..FOUND_HEADER] != self.found_header(tier) {
            // A cut header is a writer killed before its first frame: nothing was kept.
            if bytes.len() < FOUND_HEADER && self.found_header(tier).starts_with(&bytes) {
                return Ok((Vec::new(), None));
            }
            return Err(refused(format!(
                "is not the found positions of tier {tier} of {}",
                self.game.id
            )));
        }
        let mut found = Vec::new();
        let mut at = FOUND_HEADER;
        while let Some(count) = bytes.get(at..at + 4) {
            let count = u32::from_le_bytes(count.try_into().expect("4 bytes")) as usize;
            let end = at + 4 + count.min(FOUND_FRAME) * FOUND_ENTRY;
            let (Some(frame), Some(sum)) = (bytes.get(at..end), bytes.get(end..end + 8)) else {
                break;
            };
            if count > FOUND_FRAME || format::checksum(frame).to_le_bytes() != *sum {
                break;
            }
            for entry in frame[4..].chunks_exact(FOUND_ENTRY) {
                let rank = u64::from_le_bytes(entry[..8].try_into().expect("8 bytes"));
                let record = u16::from_le_bytes(entry[8..].try_into().expect("2 bytes"));
                if rank >= records {
                    return Err(refused(format!(
                        "names rank {rank} of tier {tier}, which has {records} ranks"
                    )));
                }
                found.push((rank, record));
            }
            at = end + 8;
        }
        // A position found twice (a book of lines meets one through several lines) counts
        // once, where it was first found, and must have been found the same.
        let mut seen = std::collections::HashMap::with_capacity(found.len());
        let mut once = Vec::with_capacity(found.len());
        for (rank, record) in found {
            match seen.insert(rank, record) {
                None => once.push((rank, record)),
                Some(r) if r == record => {}
                Some(r) => {
                    return Err(refused(format!(
                    "names rank {rank} of tier {tier} twice, with two records ({r} and {record})"
                )))
                }
            }
        }
        let found = once;
        if found.len() as u64 > records {
            return Err(refused(format!(
                "names {} positions of tier {tier}, which has {records} ranks",
                found.len()
            )));
        }
        Ok((found, (at < bytes.len()).then_some(at as u64)))
    }
}
