//! The proof search: the value of one position and of each of its moves, without visiting
//! every position — a weak solution, for games too large to explore whole. Two methods
//! ([`Method`]): depth-first proof-number search (df-pn, the default) and alpha-beta on
//! win / draw / loss; both take moves in the order the game prefers ([`Keyed::priority`])
//! and keep what they learn in a transposition table of bounded size.
//!
//! Values are for the player to move: `-1` loss, `0` draw, `1` win. A win or a loss found
//! is a finite strategy seen to its end, so it holds whatever the path. The search is right
//! on cycles too: a position met again on the path scores a draw there (df-pn: not a win
//! for the prover), and a value that rests on meeting a position *above* the one valued
//! (the graph-history interaction) is not kept in the table, as it need not hold on
//! another path. Each move of the root is valued as a root of its own, with an empty path,
//! so the values reported are the positions' own.
//!
//! Measured (README, "Too large to explore"): df-pn visits about half the nodes of
//! alpha-beta on hex\[4\] but is slower per node; alpha-beta is faster on connect four 5×4
//! and 6×4; only df-pn answers hex\[5\] (111 M nodes, 12 min of CPU, a 4 GiB table).
//!
//! # Complexity
//! Exponential in the worst case (a tree search); memory: the table (at most the bytes the
//! caller gives, [`Options::memory`]) and the path (one key per move of depth).

pub mod exact;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::explore::Control;
use crate::game::{Game, Outcome};
use crate::Error;

/// A position as words, exactly: two positions with the same key are the same position (up
/// to the game's symmetries).
pub type Key = SmallVec<[u64; 4]>;

/// What the search needs of a game beyond [`Game`]: an exact key for the table, and an
/// order of moves to try.
pub trait Keyed: Game {
    /// The key of (the canonical form of) `pos`.
    fn key(&self, pos: &Self::Position) -> Key;

    /// How promising the move `from` → `to` looks: higher is tried first, ties in the
    /// order of [`Game::moves`] (the default, 0 for every move).
    fn priority(&self, _from: &Self::Position, _to: &Self::Position) -> i32 {
        0
    }

    /// Whether the game promises that no position repeats along a line of play (default
    /// `false`: a repetition is a draw there). A game whose repetitions have no value —
    /// one won on points, whose key carries the points so far — says `true`, and a
    /// position met again on the path is then refused rather than scored.
    fn acyclic(&self) -> bool {
        false
    }
}

/// The refusal of a repetition in a game that promised none ([`Keyed::acyclic`]).
fn repeated() -> Error {
    Error::Unsupported(
        "the proof search met a position again on its path, in a game that must not repeat positions"
            .into(),
    )
}

/// The indices of `children`, the most promising first (ties in move order).
fn ordered<G: Keyed>(game: &G, pos: &G::Position, children: &[G::Position]) -> SmallVec<[u32; 32]> {
    let mut keyed: SmallVec<[(i32, u32); 32]> = children
        .iter()
        .enumerate()
        .map(|(i, c)| (-game.priority(pos, c), i as u32))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// How far the search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Positions the search may visit, repeats counted, before it gives up (default
    /// 2.5·10^5: enough for hex 4×4 and small boards, and a refusal of a hopeless board
    /// within a few seconds — 0.7 s for connect four 7×6, 2.4 s for quixo 5×5, measured;
    /// any number).
    pub max_nodes: u64,
    /// Bytes the transposition table may take (default 1 GiB; at least a few hundred
    /// bytes). It starts at about 1.5 MiB and doubles when half full while the old and
    /// the new array fit in this together; then it replaces entries, and grows no more.
    pub memory: u64,
    /// How the search goes (default [`Method::ProofNumber`]).
    pub method: Method,
}

/// The two searches the engine has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Depth-first proof-number search (df-pn, Nagai 2002, with the 1 + ε threshold of
    /// Pawlewicz and Lew): a position is asked "does its player win?", then, if not and
    /// the answer met a draw, "does the other?".
    #[default]
    ProofNumber,
    /// Alpha-beta on win / draw / loss (fail-soft, table bounds), one pass per position.
    AlphaBeta,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: 250_000,
            memory: 1 << 30,
            method: Method::default(),
        }
    }
}

/// What the search found: the value of the root and of each move, for the player who
/// makes it, and what it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The root's outcome for the player to move.
    pub outcome: Outcome,
    /// Each move's outcome for the player who makes it, in the order of [`Game::moves`].
    pub moves: Vec<Outcome>,
    /// Positions visited, repeats counted.
    pub nodes: u64,
    /// Values kept in the table at the end.
    pub stored: u64,
    /// The table's size in bytes.
    pub table_bytes: u64,
}

/// The deepest path the search follows (moves from the position it values).
pub const MAX_DEPTH: u32 = 1000;

/// How often (in nodes) the search checks for cancellation and reports progress.
const CHECK_EVERY: u64 = 1 << 14;

/// The longest key the table keeps; longer keys are searched but not kept.
const MAX_WIDTH: usize = 8;

/// Slots per bucket of the table.
const WAYS: usize = 4;

/// No repetition met: the `low` of a value that holds on any path.
const ANY_PATH: u32 = u32::MAX;

/// The value of a declared outcome for the player to move.
fn score(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Loss => -1,
        Outcome::Draw => 0,
        Outcome::Win => 1,
    }
}

fn outcome(score: i8) -> Outcome {
    match score {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// What the table holds of a position for alpha-beta: bounds on its value, and the move
/// that was best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Bounds {
    lo: i8,
    hi: i8,
    /// The index of the best move in the game's order, if one was found (below 255).
    best: Option<u8>,
}

impl Bounds {
    fn word(self) -> u64 {
        (self.lo + 1) as u64
            | ((self.hi + 1) as u64) << 2
            | u64::from(self.best.unwrap_or(0xff)) << 4
    }

    fn of(word: u64) -> Bounds {
        let best = (word >> 4 & 0xff) as u8;
        Bounds {
            lo: (word & 3) as i8 - 1,
            hi: (word >> 2 & 3) as i8 - 1,
            best: (best != 0xff).then_some(best),
        }
    }
}

/// The transposition table: buckets of [`WAYS`] slots in one flat array of words, each
/// slot the key's words, one word of meta (bit 0 used, bit 1 the class — which player a
/// proof is for —, bits 2–7 log2 of the work below, bits 8–11 the key's length) and one
/// word of data, the engine's. A full bucket gives up its slot of least work.
///
/// It starts small and doubles when half full, while the old and the new array fit in the
/// memory given together (so a small search touches little memory: a hash spreads its
/// entries over every page); then it stays, and replaces.
struct Table {
    words: Vec<u64>,
    width: usize,
    buckets: usize,
    /// The memory the table may take, old and new array together while it doubles.
    memory: u64,
    stored: u64,
}

/// Buckets a table starts with (2 MiB for keys of two words).
const FIRST_BUCKETS: usize = 1 << 14;

impl Table {
    fn new(width: usize, bytes: u64) -> Result<Table, Error> {
        let width = width.clamp(1, MAX_WIDTH);
        let bucket_bytes = ((width + 2) * WAYS * 8) as u64;
        let most = bytes / bucket_bytes;
        if most == 0 {
            return Err(Error::TooLarge {
                what: format!(
                    "a search table of {bytes} bytes holds nothing (at least {bucket_bytes})"
                ),
                need: Some(bucket_bytes),
            });
        }
        let buckets = usize::try_from(most)
            .unwrap_or(usize::MAX)
            .min(FIRST_BUCKETS);
        Ok(Table {
            words: Self::array(width, buckets),
            width,
            buckets,
            memory: bytes,
            stored: 0,
        })
    }

    fn array(width: usize, buckets: usize) -> Vec<u64> {
        vec![0; buckets * (width + 2) * WAYS]
    }

    fn stride(&self) -> usize {
        self.width + 2
    }

    /// Doubles the table if it is half full and both arrays fit in its memory.
    fn grow(&mut self) {
        let slots = (self.buckets * WAYS) as u64;
        if self.stored * 2 < slots {
            return;
        }
        let bucket_bytes = (self.stride() * WAYS * 8) as u64;
        let Some(next) = self.buckets.checked_mul(2) else {
            return;
        };
        if (self.buckets + next) as u64 > self.memory / bucket_bytes {
            return;
        }
        let old = std::mem::replace(&mut self.words, Self::array(self.width, next));
        self.buckets = next;
        self.stored = 0;
        let stride = self.stride();
        for slot in old.chunks_exact(stride) {
            let meta = slot[self.width];
            if meta & 1 == 0 {
                continue;
            }
            let key = &slot[..(meta >> 8 & 0xf) as usize];
            let at = self.slot_for(key, hash(key), meta >> 1 & 1);
            if self.words[at + self.width] & 1 == 0 {
                self.stored += 1;
            }
            self.words[at..at + stride].copy_from_slice(slot);
        }
    }

    fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    fn bucket(&self, hash: u64) -> usize {
        // Lemire's multiply-shift: any number of buckets.
        ((u128::from(hash) * self.buckets as u128) >> 64) as usize * self.stride() * WAYS
    }

    fn matches(&self, slot: usize, key: &[u64], class: u64) -> bool {
        let meta = self.words[slot + self.width];
        meta & 3 == 1 | class << 1
            && (meta >> 8 & 0xf) as usize == key.len()
            && self.words[slot..slot + key.len()] == *key
    }

    /// The data kept for `key` in `class`, if any.
    fn probe(&self, key: &[u64], hash: u64, class: u64) -> Option<u64> {
        if key.len() > self.width {
            return None;
        }
        let start = self.bucket(hash);
        (0..WAYS)
            .map(|w| start + w * self.stride())
            .find(|&slot| self.matches(slot, key, class))
            .map(|slot| self.words[slot + self.width + 1])
    }

    /// The slot for `key`: its own, else a free one, else the one of least work.
    fn slot_for(&self, key: &[u64], hash: u64, class: u64) -> usize {
        let stride = self.stride();
        let start = self.bucket(hash);
        let slots = (0..WAYS).map(|w| start + w * stride);
        if let Some(s) = slots.clone().find(|&s| self.matches(s, key, class)) {
            return s;
        }
        if let Some(s) = slots.clone().find(|&s| self.words[s + self.width] & 1 == 0) {
            return s;
        }
        slots
            .min_by_key(|&s| self.words[s + self.width] >> 2 & 0x3f)
            .expect("a bucket has slots")
    }

    fn store(&mut self, key: &[u64], hash: u64, class: u64, data: u64, work: u64) {
        if key.len() > self.width {
            return;
        }
        let slot = self.slot_for(key, hash, class);
        if self.words[slot + self.width] & 1 == 0 {
            self.stored += 1;
        }
        let log_work = u64::from(64 - work.leading_zeros()).min(0x3f);
        let meta = 1 | class << 1 | log_work << 2 | (key.len() as u64) << 8;
        self.words[slot..slot + key.len()].copy_from_slice(key);
        self.words[slot + key.len()..slot + self.width].fill(0);
        self.words[slot + self.width] = meta;
        self.words[slot + self.width + 1] = data;
        self.grow();
    }
}

/// A hash of a key's words (a multiply-rotate mix; the table compares whole keys).
fn hash(key: &[u64]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3_u64 ^ key.len() as u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    h ^ (h >> 32)
}

struct Searcher<'a, 'c, G: Keyed> {
    game: &'a G,
    table: Table,
    /// The positions on the path from the position valued, with their depths.
    path: FxHashMap<Key, u32>,
    nodes: u64,
    options: Options,
    control: &'a Control<'c>,
    /// Move lists by depth, reused.
    scratch: Vec<Vec<G::Position>>,
    /// What progress reports call the work: which of the root's moves is being valued.
    stage: String,
}

impl<G: Keyed> Searcher<'_, '_, G> {
    /// Counts a node at `depth` for both searches: Ctrl-C and progress every
    /// `CHECK_EVERY` nodes, then the node budget and the depth limit.
    fn count_node(&mut self, depth: u32) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.control.check()?;
            self.control.report(&self.stage, self.nodes);
        }
        if self.nodes > self.options.max_nodes {
            return Err(self.out_of_nodes());
        }
        if depth >= MAX_DEPTH {
            return Err(Error::TooLarge {
                what: format!("the proof search went deeper than {MAX_DEPTH} moves"),
                need: None,
            });
        }
        Ok(())
    }

    fn out_of_nodes(&self) -> Error {
        Error::TooLarge {
            what: format!(
                "the proof search visited {} positions without an answer (limit {})",
                self.nodes, self.options.max_nodes
            ),
            need: None,
        }
    }

    /// The value of `pos`, a position not over by the game's own rule, for the player to
    /// move, within the window `(alpha, beta)` (fail-soft: a value `≤ alpha` is an upper
    /// bound, `≥ beta` a lower bound), and the least depth of a position on the path that
    /// the value rests on ([`ANY_PATH`]: none).
    fn open(
        &mut self,
        pos: &G::Position,
        depth: u32,
        alpha: i8,
        beta: i8,
    ) -> Result<(i8, u32), Error> {
        self.count_node(depth)?;
        let key = self.game.key(pos);
        let hash = hash(&key);
        // What the table knows holds on any path, so it is asked first.
        let known = self.table.probe(&key, hash, 0).map_or(
            Bounds {
                lo: -1,
                hi: 1,
                best: None,
            },
            Bounds::of,
        );
        if known.lo == known.hi || known.lo >= beta {
            return Ok((known.lo, ANY_PATH));
        }
        if known.hi <= alpha {
            return Ok((known.hi, ANY_PATH));
        }
        if let Some(&at) = self.path.get(&key) {
            if self.game.acyclic() {
                return Err(repeated());
            }
            // Met again on the path: play could go round for ever, a draw here.
            return Ok((0, at));
        }
        let (mut alpha, beta) = (alpha.max(known.lo), beta.min(known.hi));
        let window = (alpha, beta);

        let mut children = self.scratch.pop().unwrap_or_default();
        children.clear();
        self.game.moves(pos, &mut children);
        if children.is_empty() {
            self.scratch.push(children);
            return Ok((-1, ANY_PATH));
        }
        let mover = self.game.to_move(pos);
        let alternates = self.game.alternates();
        let same = |c: &G::Position| !alternates && self.game.to_move(c) == mover;
        // A move that ends the game at once with a win is taken without a search.
        let mut ends: SmallVec<[Option<i8>; 16]> = SmallVec::new();
        for (i, c) in children.iter().enumerate() {
            let end = self
                .game
                .terminal(c)
                .map(|o| if same(c) { score(o) } else { -score(o) });
            if end == Some(1) {
                let bounds = Bounds {
                    lo: 1,
                    hi: 1,
                    best: u8::try_from(i).ok().filter(|&b| b != 0xff),
                };
                self.table.store(&key, hash, 0, bounds.word(), 1);
                self.scratch.push(children);
                return Ok((1, ANY_PATH));
            }
            ends.push(end);
        }
        // The move found best before first, then the game's order.
        let first = known
            .best
            .map(u32::from)
            .filter(|&b| (b as usize) < children.len());
        let order: SmallVec<[u32; 32]> = first
            .into_iter()
            .chain(
                ordered(self.game, pos, &children)
                    .into_iter()
                    .filter(|&i| Some(i) != first),
            )
            .collect();
        self.path.insert(key.clone(), depth);
        let before = self.nodes;
        let (mut best, mut best_move, mut low) = (-2i8, None, ANY_PATH);
        for i in order {
            let i = i as usize;
            let (value, at) = match ends[i] {
                Some(v) => (v, ANY_PATH),
                None if same(&children[i]) => self.open(&children[i], depth + 1, alpha, beta)?,
                None => {
                    let (v, at) = self.open(&children[i], depth + 1, -beta, -alpha)?;
                    (-v, at)
                }
            };
            low = low.min(at);
            if value > best {
                best = value;
                best_move = Some(i);
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        self.path.remove(&key);
        self.scratch.push(children);
        // A win or a loss is a strategy seen to its end: it holds on any path.
        if best != 0 {
            low = ANY_PATH;
        }
        if low >= depth {
            let (lo, hi) = if best <= window.0 {
                (known.lo, best)
            } else if best >= window.1 {
                (best, known.hi)
            } else {
                (best, best)
            };
            let bounds = Bounds {
                lo: lo.max(known.lo),
                hi: hi.min(known.hi),
                best: best_move
                    .and_then(|b| u8::try_from(b).ok())
                    .filter(|&b| b != 0xff),
            };
            if bounds.lo <= bounds.hi {
                self.table
                    .store(&key, hash, 0, bounds.word(), self.nodes - before);
            }
        }
        Ok((best.clamp(known.lo, known.hi), low))
    }
}

/// Proof and disproof numbers at or past this mean proven or disproven.
const INF: u32 = 1 << 30;

/// What df-pn knows of a position for one prover: the proof and disproof numbers (0 and
/// [`INF`] when solved), whether a disproof is *clean* — every leaf of it a win of the
/// other player, so that it proves the other player's win —, and the least depth of a
/// position on the path it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Proof {
    pn: u32,
    dn: u32,
    clean: bool,
    low: u32,
}

impl Proof {
    const OPEN: Proof = Proof {
        pn: 1,
        dn: 1,
        clean: false,
        low: ANY_PATH,
    };
    const PROVEN: Proof = Proof {
        pn: 0,
        dn: INF,
        clean: true,
        low: ANY_PATH,
    };

    fn disproven(clean: bool) -> Proof {
        Proof {
            pn: INF,
            dn: 0,
            clean,
            low: ANY_PATH,
        }
    }

    fn word(self) -> u64 {
        u64::from(self.pn) | u64::from(self.dn) << 31 | u64::from(self.clean) << 62
    }

    fn of(word: u64) -> Proof {
        Proof {
            pn: (word & 0x7fff_ffff) as u32,
            dn: (word >> 31 & 0x7fff_ffff) as u32,
            clean: word >> 62 & 1 == 1,
            low: ANY_PATH,
        }
    }
}

/// A sum of proof numbers: [`INF`] if one is, else at most `INF - 1`.
fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// The threshold a child gets when the second best is `second`: 1 + ε with ε = 1/4.
fn above(second: u32) -> u32 {
    if second >= INF {
        INF
    } else {
        (second + 1).max(second + second / 4).min(INF)
    }
}

impl<G: Keyed> Searcher<'_, '_, G> {
    /// What the table knows of `key` for a prover (class 1: the player to move there; 0:
    /// the other): its own entry, or the other prover's solved one read across (a proof
    /// for one is a clean disproof for the other, and the reverse).
    fn known(&self, key: &[u64], hash: u64, class: u64) -> Option<Proof> {
        if let Some(w) = self.table.probe(key, hash, class) {
            return Some(Proof::of(w));
        }
        let other = Proof::of(self.table.probe(key, hash, 1 - class)?);
        if other.pn == 0 {
            Some(Proof::disproven(true))
        } else if other.dn == 0 && other.clean {
            Some(Proof::PROVEN)
        } else {
            None
        }
    }

    /// A declared end, for the prover (`mine`: the player to move there).
    fn ended(&self, pos: &G::Position, mine: bool) -> Option<Proof> {
        let o = self.game.terminal(pos)?;
        Some(match if mine { o } else { o.negate() } {
            Outcome::Win => Proof::PROVEN,
            Outcome::Loss => Proof::disproven(true),
            Outcome::Draw => Proof::disproven(false),
        })
    }

    /// df-pn's multiple iterative deepening at `pos` (not ended) for the prover — the
    /// player to move there if `mine` —: works below it until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`.
    fn prove(
        &mut self,
        pos: &G::Position,
        mine: bool,
        depth: u32,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<Proof, Error> {
        self.count_node(depth)?;
        let class = u64::from(mine);
        let key = self.game.key(pos);
        let hash = hash(&key);
        if let Some(known) = self.known(&key, hash, class) {
            if known.pn >= th_pn || known.dn >= th_dn {
                return Ok(known);
            }
        }
        if let Some(&at) = self.path.get(&key) {
            if self.game.acyclic() {
                return Err(repeated());
            }
            // Met again on the path: no win by going round; a draw, resting on the path.
            return Ok(Proof {
                low: at,
                ..Proof::disproven(false)
            });
        }
        let mut children = self.scratch.pop().unwrap_or_default();
        children.clear();
        self.game.moves(pos, &mut children);
        if children.is_empty() {
            self.scratch.push(children);
            // No move: the player to move loses.
            let done = if mine {
                Proof::disproven(true)
            } else {
                Proof::PROVEN
            };
            self.table.store(&key, hash, class, done.word(), 1);
            return Ok(done);
        }
        let order = ordered(self.game, pos, &children);
        // Whether the prover moves at each child: the turn passes, or the game says.
        let alternates = self.game.alternates();
        let mover = self.game.to_move(pos);
        let theirs: SmallVec<[bool; 32]> = order
            .iter()
            .map(|&i| {
                let same = !alternates && self.game.to_move(&children[i as usize]) == mover;
                same == mine
            })
            .collect();
        let mut values: Vec<Proof> = order
            .iter()
            .zip(&theirs)
            .map(|(&i, &at)| {
                let c = &children[i as usize];
                self.ended(c, at).unwrap_or_else(|| {
                    let k = self.game.key(c);
                    self.known(&k, self::hash(&k), u64::from(at))
                        .unwrap_or(Proof::OPEN)
                })
            })
            .collect();
        self.path.insert(key.clone(), depth);
        let before = self.nodes;
        let mut low = ANY_PATH;
        let (pn, dn) = loop {
            // Mine (OR): proof the least child's, disproof the sum; theirs (AND): the reverse.
            let (mut first, mut second) = (usize::MAX, INF);
            let mut least = INF;
            let mut sum = 0u32;
            for (j, v) in values.iter().enumerate() {
                let (small, big) = if mine { (v.pn, v.dn) } else { (v.dn, v.pn) };
                sum = add(sum, big);
                if small < least {
                    second = least;
                    least = small;
                    first = j;
                } else if small < second {
                    second = small;
                }
            }
            let (pn, dn) = if mine { (least, sum) } else { (sum, least) };
            if pn >= th_pn || dn >= th_dn {
                break (pn, dn);
            }
            let v = values[first];
            let (c_pn, c_dn) = if mine {
                (th_pn.min(above(second)), sub(th_dn, dn, v.dn))
            } else {
                (sub(th_pn, pn, v.pn), th_dn.min(above(second)))
            };
            let child = &children[order[first] as usize];
            let got = self.prove(child, theirs[first], depth + 1, c_pn, c_dn)?;
            low = low.min(got.low);
            values[first] = got;
        };
        self.path.remove(&key);
        self.scratch.push(children);
        let clean = dn == 0
            && if mine {
                values.iter().all(|v| v.clean)
            } else {
                values.iter().any(|v| v.dn == 0 && v.clean)
            };
        // A proof, and a clean disproof, are strategies seen to their ends: any path.
        if pn == 0 || clean {
            low = ANY_PATH;
        }
        let result = Proof { pn, dn, clean, low };
        if dn != 0 || low >= depth {
            self.table
                .store(&key, hash, class, result.word(), self.nodes - before);
        }
        Ok(result)
    }

    /// The exact value of `pos` for its player to move, by one or two proofs.
    fn value(&mut self, pos: &G::Position) -> Result<Outcome, Error> {
        if let Some(o) = self.game.terminal(pos) {
            return Ok(o);
        }
        let mine = self.prove(pos, true, 0, INF, INF)?;
        self.path.clear();
        if mine.pn == 0 {
            return Ok(Outcome::Win);
        }
        if mine.clean {
            return Ok(Outcome::Loss);
        }
        let theirs = self.prove(pos, false, 0, INF, INF)?;
        self.path.clear();
        Ok(if theirs.pn == 0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        })
    }
}

/// `th − (total − part)`, the threshold left for one child: [`INF`] stays.
fn sub(th: u32, total: u32, part: u32) -> u32 {
    if th >= INF {
        INF
    } else {
        th.saturating_sub(total.saturating_sub(part))
    }
}

/// The value of `root` and of each of its moves by the proof search: each move's position
/// is valued exactly (with the whole window) as a root of its own, and the root's value is
/// the best of them.
///
/// # Errors
/// [`Error::TooLarge`] when the search visits `options.max_nodes` positions without an
/// answer, goes deeper than [`MAX_DEPTH`], or `options.memory` holds no bucket of the
/// table; [`Error::Unsupported`] when a game that promised no repetition
/// ([`Keyed::acyclic`]) repeats a position on the path; [`Error::Cancelled`] if stopped.
pub fn search<G: Keyed>(
    game: &G,
    root: &G::Position,
    options: &Options,
    control: &Control<'_>,
) -> Result<Searched, Error> {
    let table = Table::new(game.key(root).len(), options.memory)?;
    let mut children = Vec::new();
    let done = |outcome: Outcome, moves: Vec<Outcome>, table: &Table, nodes: u64| Searched {
        outcome,
        moves,
        nodes,
        stored: table.stored,
        table_bytes: table.bytes(),
    };
    if let Some(o) = game.terminal(root) {
        return Ok(done(o, Vec::new(), &table, 1));
    }
    game.moves(root, &mut children);
    if children.is_empty() {
        return Ok(done(Outcome::Loss, Vec::new(), &table, 1));
    }
    let mut searcher = Searcher {
        game,
        table,
        path: FxHashMap::default(),
        nodes: 1,
        options: *options,
        control,
        scratch: Vec::new(),
        stage: String::new(),
    };
    // Search the moves in the game's order of promise; report them in move order.
    let mover = game.to_move(root);
    let mut moves = vec![Outcome::Draw; children.len()];
    for (k, i) in ordered(game, root, &children).into_iter().enumerate() {
        let i = i as usize;
        // Progress says which move is being valued: "search, move 3 of 7".
        searcher.stage = format!("search, move {} of {}", k + 1, children.len());
        control.report(&searcher.stage, searcher.nodes);
        let child = &children[i];
        let value = match options.method {
            Method::ProofNumber => score(searcher.value(child)?),
            Method::AlphaBeta => {
                let value = match game.terminal(child) {
                    Some(o) => score(o),
                    None => searcher.open(child, 0, -1, 1)?.0,
                };
                searcher.path.clear();
                value
            }
        };
        let same = !game.alternates() && game.to_move(child) == mover;
        moves[i] = outcome(if same { value } else { -value });
    }
    let best = moves.iter().copied().max().expect("the root has moves");
    Ok(done(best, moves, &searcher.table, searcher.nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// A binary tree of `depth` levels with no transpositions: position `(level, index)`;
    /// the leaves are lost for the player to move there when their index is even.
    struct Tree {
        depth: u64,
    }

    impl Game for Tree {
        type Position = (u64, u64);
        fn moves(&self, &(level, index): &(u64, u64), out: &mut Vec<(u64, u64)>) {
            if level < self.depth {
                out.extend([(level + 1, 2 * index), (level + 1, 2 * index + 1)]);
            }
        }
        fn terminal(&self, &(level, index): &(u64, u64)) -> Option<Outcome> {
            (level == self.depth).then_some(if index % 2 == 0 {
                Outcome::Loss
            } else {
                Outcome::Draw
            })
        }
    }

    impl Keyed for Tree {
        fn key(&self, &(level, index): &(u64, u64)) -> Key {
            Key::from_slice(&[level, index])
        }
    }

    /// A line: `n` → `n + 1`, ended at `len` (lost there for the player to move).
    struct Line {
        len: u64,
    }

    impl Game for Line {
        type Position = u64;
        fn moves(&self, &n: &u64, out: &mut Vec<u64>) {
            if n < self.len {
                out.push(n + 1);
            }
        }
    }

    impl Keyed for Line {
        fn key(&self, &n: &u64) -> Key {
            Key::from_slice(&[n])
        }
    }

    /// A ring `0 → 1 → … → n − 1 → 0`, with a way out of `0` to `n`, where the player to
    /// move has lost; `acyclic` as the game claims (wrongly when true).
    struct Ring {
        n: u64,
        acyclic: bool,
    }

    impl Game for Ring {
        type Position = u64;
        fn moves(&self, &p: &u64, out: &mut Vec<u64>) {
            if p < self.n {
                out.push((p + 1) % self.n);
            }
            if p == 0 {
                out.push(self.n);
            }
        }
    }

    impl Keyed for Ring {
        fn key(&self, &p: &u64) -> Key {
            Key::from_slice(&[p])
        }
        fn acyclic(&self) -> bool {
            self.acyclic
        }
    }

    fn small() -> Options {
        Options {
            max_nodes: u64::MAX,
            memory: 1 << 16,
            method: Method::ProofNumber,
        }
    }

    #[test]
    fn the_table_keeps_data_by_class_and_gives_up_the_slot_of_least_work() {
        // One bucket of 4 slots of keys of two words (4 words a slot).
        let mut t = Table::new(2, 4 * 4 * 8).unwrap();
        assert_eq!((t.buckets, t.bytes()), (1, 128));
        for (i, work) in [(1u64, 100u64), (2, 3), (3, 1000)] {
            t.store(&[i, 7], hash(&[i, 7]), 0, 10 + i, work);
        }
        // The same key in the other class is another entry.
        t.store(&[1, 7], hash(&[1, 7]), 1, 99, 50);
        assert_eq!(t.stored, 4);
        assert_eq!(t.probe(&[2, 7], hash(&[2, 7]), 0), Some(12));
        assert_eq!(t.probe(&[1, 7], hash(&[1, 7]), 0), Some(11));
        assert_eq!(t.probe(&[1, 7], hash(&[1, 7]), 1), Some(99));
        // A shorter key with the same first word is another key.
        assert_eq!(t.probe(&[2], hash(&[2]), 0), None);
        // Full: the new key takes the slot of least work (key 2).
        t.store(&[5, 7], hash(&[5, 7]), 0, 15, 10);
        assert_eq!(t.probe(&[2, 7], hash(&[2, 7]), 0), None);
        assert_eq!(t.probe(&[5, 7], hash(&[5, 7]), 0), Some(15));
        assert_eq!(t.probe(&[3, 7], hash(&[3, 7]), 0), Some(13));
        // Updating a key keeps its slot.
        t.store(&[3, 7], hash(&[3, 7]), 0, 33, 1);
        assert_eq!(t.probe(&[3, 7], hash(&[3, 7]), 0), Some(33));
        assert_eq!(t.stored, 4);
        // Keys longer than the table's are neither kept nor found.
        t.store(&[1, 2, 3], hash(&[1, 2, 3]), 0, 1, 1 << 40);
        assert_eq!(t.probe(&[1, 2, 3], hash(&[1, 2, 3]), 0), None);
        assert!(matches!(Table::new(2, 127), Err(Error::TooLarge { .. })));
        // Bounds round-trip through a data word.
        for b in [
            Bounds {
                lo: -1,
                hi: 1,
                best: None,
            },
            Bounds {
                lo: 0,
                hi: 0,
                best: Some(254),
            },
            Bounds {
                lo: 1,
                hi: 1,
                best: Some(0),
            },
        ] {
            assert_eq!(Bounds::of(b.word()), b);
        }
    }

    #[test]
    fn the_table_doubles_within_its_memory_and_keeps_what_it_holds() {
        let memory = 3 << 22;
        let mut t = Table::new(1, memory).unwrap();
        assert_eq!(t.buckets, FIRST_BUCKETS);
        for k in 0..100_000u64 {
            t.store(&[k], hash(&[k]), 0, k, k);
        }
        // Doubled twice (16 Ki → 64 Ki buckets of 96 bytes); a third doubling would hold
        // 6 + 12 MiB at once, past the 12 MiB given.
        assert_eq!(t.buckets, FIRST_BUCKETS * 4);
        assert!(t.bytes() <= memory);
        let kept = (0..100_000u64)
            .filter(|&k| t.probe(&[k], hash(&[k]), 0) == Some(k))
            .count() as u64;
        assert_eq!(kept, t.stored);
        assert!(kept > 99_000, "{kept}");
        for k in 100_000..300_000u64 {
            t.store(&[k], hash(&[k]), 0, k, k);
        }
        assert_eq!(t.buckets, FIRST_BUCKETS * 4, "no growth past the memory");
        assert!(t.stored <= (t.buckets * WAYS) as u64);
    }

    #[test]
    fn a_tree_is_valued_and_counted() {
        // Every leaf below the root's first move is lost for its mover at even index: the
        // root's mover (level 0) makes the leaves' mover the one at level 4, and so on.
        let got = search(&Tree { depth: 4 }, &(0, 0), &small(), &Control::default()).unwrap();
        // Level 3's mover moves to an even leaf (a loss for the mover there): a win. So
        // level 2 loses, level 1 wins, level 0 loses: every move of the root wins for the
        // opponent.
        assert_eq!(got.outcome, Outcome::Loss);
        assert_eq!(got.moves, [Outcome::Loss, Outcome::Loss]);
        assert!(got.nodes > 1 && got.nodes < 32, "{}", got.nodes);
    }

    #[test]
    fn progress_says_which_move_of_the_root_is_valued() {
        let stages = std::sync::Mutex::new(Vec::<String>::new());
        let note = |stage: &str, _done: u64| {
            let mut stages = stages.lock().unwrap();
            if stages.last().is_none_or(|s| s != stage) {
                stages.push(stage.to_string());
            }
        };
        let control = Control {
            progress: Some(&note),
            ..Control::default()
        };
        // 2^17 leaves: past the nodes between two reports, for both moves of the root.
        for method in [Method::ProofNumber, Method::AlphaBeta] {
            stages.lock().unwrap().clear();
            let options = Options { method, ..small() };
            search(&Tree { depth: 18 }, &(0, 0), &options, &control).unwrap();
            assert_eq!(
                *stages.lock().unwrap(),
                ["search, move 1 of 2", "search, move 2 of 2"],
                "{method:?}"
            );
        }
    }

    #[test]
    fn a_repetition_is_a_draw_unless_the_game_promised_none() {
        for method in [Method::ProofNumber, Method::AlphaBeta] {
            let options = Options { method, ..small() };
            // From 1 the ring comes back to 0, whose mover leaves to n and wins: 1 is
            // lost for its mover at n = 2, won at n = 3.
            for (n, want) in [(2, Outcome::Loss), (3, Outcome::Win)] {
                let ring = Ring { n, acyclic: false };
                let got = search(&ring, &1, &options, &Control::default()).unwrap();
                assert_eq!(got.outcome, want, "{method:?}, n = {n}");
            }
            // With n = 1 the ring is a pass, 0 → 0, tried first: valued as a root of its
            // own, the 0 it leads to is won for the opponent (who leaves), so the pass
            // loses; searching it meets 0 again at once.
            let ring = Ring {
                n: 1,
                acyclic: false,
            };
            let got = search(&ring, &0, &options, &Control::default()).unwrap();
            assert_eq!(got.moves, [Outcome::Loss, Outcome::Win], "{method:?}");
            let claimed = Ring {
                n: 1,
                acyclic: true,
            };
            match search(&claimed, &0, &options, &Control::default()) {
                Err(Error::Unsupported(why)) => assert!(why.contains("again on its path"), "{why}"),
                other => panic!("{method:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn budgets_end_the_search_with_a_reason() {
        let tree = Tree { depth: 30 };
        let few = Options {
            max_nodes: 100,
            ..small()
        };
        match search(&tree, &(0, 0), &few, &Control::default()) {
            Err(Error::TooLarge { what, .. }) => {
                assert!(what.contains("without an answer (limit 100)"), "{what}");
            }
            other => panic!("{other:?}"),
        }
        let stop = AtomicBool::new(true);
        let control = Control::cancelled_by(&stop);
        assert_eq!(
            search(&tree, &(0, 0), &small(), &control),
            Err(Error::Cancelled)
        );
        match search(&Line { len: 1500 }, &0, &small(), &Control::default()) {
            Err(Error::TooLarge { what, .. }) => assert!(what.contains("deeper than"), "{what}"),
            other => panic!("{other:?}"),
        }
        let got = search(&Line { len: 901 }, &0, &small(), &Control::default()).unwrap();
        assert_eq!(got.outcome, Outcome::Win);
        let tiny = Options {
            memory: 10,
            ..small()
        };
        assert!(matches!(
            search(&Line { len: 3 }, &0, &tiny, &Control::default()),
            Err(Error::TooLarge { .. })
        ));
    }
}
