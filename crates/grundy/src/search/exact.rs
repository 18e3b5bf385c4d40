//! The exact search: the value of a position — not only won, drawn or lost, but how far
//! from the end — by negamax alpha-beta on a game's own scores, for games too large to
//! tabulate. The game says what it knows ([`Searchable`]): an exact key, bounds on the
//! value still reachable, the moves worth trying (those that do not lose at once) in order
//! of promise. The engine owns the rest: the null-window probes of a binary search on the
//! value (Pons' "iterative" solve), a transposition table of lower and upper bounds packed
//! one word an entry and shared by every thread without locks ([`Table`]), and the threads
//! themselves (lazy SMP: every thread runs the same probe, the helpers with their first
//! moves turned, the first to finish answers).
//!
//! Scores are integers for the player to move, consistent under negamax (a position's
//! value is the largest of its moves' values; a move's value is its child's negated, or
//! where the game says the mover moves again the child's own, plus the points the move
//! takes: [`Step`]), within [`Searchable::score_range`] (at most [`MAX_RANGE`] values).
//! A score game's score is the margin still to be won (dots and boxes); a game with remoteness
//! scores a win by how early it ends (connect four: Pons' score, the winner's stones left
//! after the winning one, plus one), so the greatest score is the fastest win, and
//! [`Searchable::value`] turns a score back into an outcome with its remoteness.
//!
//! The game must be acyclic (every move brings the end nearer): the engine keeps no path,
//! and a value is stored whatever path reached it.
//!
//! # Complexity
//! Exponential in the worst case (a tree search); memory: the table (8 bytes an entry,
//! from [`START_ENTRIES`] doubling as searches need, at most the entries the caller asks
//! for), plus a move list per ply of depth per thread.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use crate::explore::Control;
use crate::game::{Outcome, Value};
use crate::Error;

/// The most distinct scores a game may have (the table codes a bound in one byte).
pub const MAX_RANGE: i32 = 127;

/// What a game offers the exact search. Every method but [`Searchable::children`] is
/// called once a node; keep them cheap.
pub trait Searchable: Sync {
    /// A position, small and copied freely (bitboards).
    type Board: Copy + Send + Sync;

    /// What [`Searchable::expand`] found that [`Searchable::children`] needs again (the
    /// moves worth trying, the opponent's threats), so that it is not worked out twice.
    type Hint: Copy;

    /// Bits of [`Searchable::key`] (1 to 64).
    fn key_bits(&self) -> u32;

    /// An exact key: two boards with the same key have the same value. A family that
    /// merges mirror images returns the smaller of the two keys.
    fn key(&self, board: &Self::Board) -> u64;

    /// Whether the search works out a board's key before [`Searchable::expand`], to
    /// start loading its table entry while the game bounds the board: worth it where
    /// keys are cheap beside a wait for memory (a board that `expand` values alone has
    /// its key worked out for nothing). Default: yes.
    #[inline(always)]
    fn prefetch(&self) -> bool {
        true
    }

    /// The least and the greatest score of any board (at most [`MAX_RANGE`] values).
    fn score_range(&self) -> (i32, i32);

    /// The score of `board` when the player to move wins with their next move, or the game
    /// is over; `None` otherwise. Asked of the position searched (and of each of its moves
    /// by [`analyse`]); below them the game keeps the promise of
    /// [`Searchable::expand`].
    fn settled(&self, board: &Self::Board) -> Option<i32>;

    /// What is known of `board` (for which [`Searchable::settled`] is `None`, as for every
    /// child [`Searchable::children`] lists) before searching below it: its exact value,
    /// or bounds on it and a word the game passes itself to [`Searchable::children`].
    fn expand(&self, board: &Self::Board) -> Node<Self::Hint>;

    /// The children of an open board worth searching, the most promising first; each is a
    /// board for whose player to move [`Searchable::settled`] is `None`, and any move not
    /// listed is worth no more than the `lo` that [`Searchable::expand`] gave or the best
    /// of those listed (a move the game proved as good as any: dots and boxes' safe
    /// capture).
    fn children(&self, board: &Self::Board, hint: Self::Hint, out: &mut Vec<Self::Board>);

    /// How many of the children [`Searchable::children`] lists for `hint` come first, when
    /// each of the others is no better in outcome than the best of these (it loses when
    /// all of these lose, is no win when the best of these is a draw; with none first,
    /// each loses): moves the game proved inferior (hex's dead cells, moves outside the
    /// opponent's connections), still listed because their remoteness may matter. Once
    /// those first ones are searched, the others are skipped where the window asks only
    /// for an outcome (the best so far a least loss or a draw: −1 or 0). Default: `None`,
    /// every child counts.
    #[inline(always)]
    fn decisive(&self, _hint: &Self::Hint) -> Option<usize> {
        None
    }

    /// Whether `hint` leaves one move only (the opponent's threat to block): such a board
    /// is valued through its one child, without a look at the table or a write to it
    /// (the child keeps its own entry). Default: never said.
    #[inline(always)]
    fn forced(&self, _hint: &Self::Hint) -> bool {
        false
    }

    /// Whether the children of `board` are looked up in the table before any is searched,
    /// so that one proved good enough cuts at once (enhanced transposition cutoffs):
    /// worth it where a subtree is large, near the root. Default: never.
    fn look_ahead(&self, _board: &Self::Board) -> bool {
        false
    }

    /// A score of `board` as an outcome with its remoteness (moves to the end, the winner
    /// hurrying), for the player to move.
    fn value(&self, board: &Self::Board, score: i32) -> Value;

    /// A guess at the score of `board`, searched as a root with no sibling's value to
    /// start from: the first probe is made there, the next ones gallop away from it.
    /// Worth offering where a game knows where values lie (near 0 on boards close to the
    /// start of a long game). Default: none (bisect the whole range).
    fn guess(&self, _board: &Self::Board) -> Option<i32> {
        None
    }

    /// How the move from `board` to `child` (one of its children) is valued from the
    /// child's value: the turn passed (the child's value negated) or kept, plus the points
    /// the move takes. Default: passed, no points (every move of a win/loss game).
    #[inline(always)]
    fn step(&self, _board: &Self::Board, _child: &Self::Board) -> Step {
        PASS
    }

    /// Whether the game offers proof carriers to a weak search (Benzene's proof-set
    /// must-play). A carrier is a set of places (bits of a `u64`, the game's own) on which
    /// a proved outcome rests: its winner still wins however the loser's stones fill the
    /// empty places outside it — sound in a game without draws where an extra stone never
    /// hurts its owner (hex). Once one of the mover's moves is refuted with carrier P,
    /// each move that fills no place of P loses too (the loser's stone there is such an
    /// extra stone, and the refuted move's stone missing only hurts them): the search
    /// skips those where the window asks only for an outcome, as past
    /// [`Searchable::decisive`]. Only a weak search asks, so a strong search's remoteness
    /// is never touched. Default: no, and none of the carrier methods below is called.
    fn carriers(&self) -> bool {
        false
    }

    /// The carrier of the exact value [`Searchable::expand`] gave `board`.
    fn exact_carrier(&self, _board: &Self::Board) -> u64 {
        u64::MAX
    }

    /// The carrier of a bound of `hint`'s: with `high`, its lower bound (the mover's win),
    /// else its upper bound (the mover's loss).
    fn bound_carrier(&self, _hint: &Self::Hint, _high: bool) -> u64 {
        u64::MAX
    }

    /// The carrier of the proof that the moves [`Searchable::children`] does not list for
    /// `hint`, and those past [`Searchable::decisive`], lose when the others do.
    fn pruned_carrier(&self, _hint: &Self::Hint) -> u64 {
        u64::MAX
    }

    /// The places the move from `board` to `child` fills.
    fn places(&self, _board: &Self::Board, _child: &Self::Board) -> u64 {
        u64::MAX
    }

    /// Keeps the carrier of `board`'s proved outcome (with `high`, the mover's win), for a
    /// later cut by the table, which keeps no carriers. Default: not kept.
    fn keep_carrier(&self, _board: &Self::Board, _high: bool, _carrier: u64) {}

    /// The carrier kept for `board`'s outcome (with `high`, the mover's win); every place
    /// when none is kept.
    fn kept_carrier(&self, _board: &Self::Board, _high: bool) -> u64 {
        u64::MAX
    }

    /// Whether the children of `board` are searched in rounds where the window asks only
    /// for an outcome: each move still open given a budget of nodes, growing from round to
    /// round, so that a move proved cheaply comes first — a cut found without the dear
    /// proofs of the moves before it, and with [`Searchable::carriers`] the cheap
    /// refutations' carriers pruning the dear ones (what proof-number search gets from
    /// its proof numbers). Worth it near the root, where moves' proofs differ by orders of
    /// magnitude. Default: never.
    fn widen(&self, _board: &Self::Board) -> bool {
        false
    }
}

/// How a move's value for its mover follows from its child's value for the child's
/// mover: the one rule of score games ([`crate::game::Step`]) on the search's `i32`
/// scores — `gain + child` when the mover moves again (dots and boxes after a box),
/// `gain − child` when the turn passes.
pub type Step = crate::game::Step<i32>;

/// The turn passed, no points taken: every move of a win/loss game.
pub const PASS: Step = Step {
    keeps: false,
    gain: 0,
};

/// What the search asks of a [`Step`] beside its value: the child's window, and a bound
/// on the move's value from a bound on the child's.
trait Window {
    fn window(self, alpha: i32, beta: i32) -> (i32, i32);
    fn at_least(self, child: Bound) -> Option<i32>;
    fn child(self, value: i32) -> i32;
}

impl Window for Step {
    /// The child's window for the move's window `(alpha, beta)`.
    #[inline(always)]
    fn window(self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.keeps {
            (alpha - self.gain, beta - self.gain)
        } else {
            (self.gain - beta, self.gain - alpha)
        }
    }

    /// A lower bound on the move's value from a bound on the child's, when it gives one.
    #[inline(always)]
    fn at_least(self, child: Bound) -> Option<i32> {
        match (child, self.keeps) {
            (Bound::Upper(v), false) => Some(self.gain - v),
            (Bound::Lower(v), true) => Some(self.gain + v),
            _ => None,
        }
    }

    /// The child's value for the move's value `value` (the inverse of [`Step::value`]).
    #[inline]
    fn child(self, value: i32) -> i32 {
        if self.keeps {
            value - self.gain
        } else {
            self.gain - value
        }
    }
}

/// The scores of a game where every move fills one of `cells` cells and a sooner win is
/// a better one (connect four, hex, m,n,k-games; Pons' convention): a win whose last
/// stone leaves `m` stones on the board scores `(cells + 2 − m) / 2`, a loss its
/// negation, a draw 0. The remoteness is the score read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Race {
    /// The cells of the board.
    pub cells: i32,
}

impl Race {
    /// The least and the greatest score.
    #[must_use]
    pub fn range(self) -> (i32, i32) {
        (-self.cells / 2, (self.cells + 1) / 2)
    }

    /// The score of a win whose last stone leaves `m` stones on the board (a loss: its
    /// negation).
    #[inline(always)]
    #[must_use]
    pub fn win(self, m: i32) -> i32 {
        (self.cells + 2 - m) / 2
    }

    /// A score of a board of `n` stones as an outcome with its remoteness, for the player
    /// to move.
    #[must_use]
    pub fn value(self, n: i32, score: i32) -> Value {
        // The stones on the board once the winner's last is down: of the two m with
        // ⌊(cells + 2 − m) / 2⌋ = |score|, the one of the winner's parity.
        let m_of = |s: i32, parity: i32| {
            let m = self.cells + 2 - 2 * s;
            if (m - parity).rem_euclid(2) == 0 {
                m
            } else {
                m - 1
            }
        };
        match score {
            0 => Value::Draw,
            s if s > 0 => Value::Win((m_of(s, n + 1) - n) as u32),
            s => Value::Loss((m_of(-s, n) - n) as u32),
        }
    }
}

/// What a game knows of a board before searching it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node<H = u64> {
    /// Its value, without search (every move loses at once, or a draw is forced).
    Exact(i32),
    /// Bounds on its value, and a word for [`Searchable::children`].
    Open {
        /// No less than this.
        lo: i32,
        /// No more than this.
        hi: i32,
        /// What the game found while bounding (its moves worth trying, say).
        hint: H,
    },
}

impl<H> Node<H> {
    /// A board whose value lies in `lo..=hi`, each bound pulled to a draw where that side
    /// can win no more (`mover_can_win`, `other_can_win`: asked only while the bound is
    /// past 0; a line game's "no line left to make"), and exact where the bounds meet.
    #[inline]
    pub fn bounded(
        mut lo: i32,
        mut hi: i32,
        mover_can_win: impl FnOnce() -> bool,
        other_can_win: impl FnOnce() -> bool,
        hint: H,
    ) -> Node<H> {
        if hi > 0 && !mover_can_win() {
            hi = 0;
        }
        if lo < 0 && !other_can_win() {
            lo = 0;
        }
        if lo >= hi {
            Node::Exact(hi)
        } else {
            Node::Open { lo, hi, hint }
        }
    }
}

/// How far the search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Nodes every thread together may visit before the search gives up (default
    /// `u64::MAX`: no limit; Ctrl-C still stops it).
    pub max_nodes: u64,
    /// The most entries of the transposition table, 8 bytes each (default 2^23: 64 MiB;
    /// at least 1024). The table starts at [`START_ENTRIES`] and doubles when a search
    /// has visited more nodes than it has entries.
    pub table_entries: u64,
    /// Threads (default 1; 0: every core).
    pub threads: usize,
    /// Whether to find only win, draw or loss (a weak solution: the window is the sign),
    /// not the exact score (default `false`).
    pub weak: bool,
    /// The first round's budget of nodes a move where the game searches its moves in
    /// rounds of growing budgets ([`Searchable::widen`]), doubled each round (default
    /// [`FIRST_BUDGET`]; at least 1). Tests make it small, so that every path of the
    /// rounds is taken on small games.
    pub first_budget: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: u64::MAX,
            table_entries: 1 << 23,
            threads: 1,
            weak: false,
            first_budget: FIRST_BUDGET,
        }
    }
}

/// The value found for one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// The score, for the player to move. In a weak search only its sign is proved, and it
    /// is then −1, 0 or 1 in the game's units of the nearest score (see [`Found::weak`]).
    pub score: i32,
    /// The outcome for the player to move, and (strong searches) its remoteness.
    pub value: Value,
    /// Whether only the outcome was proved: then `value`'s remoteness is not proved.
    pub weak: bool,
}

impl Found {
    /// The outcome for the player to move.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        self.value.outcome()
    }

    /// The remoteness, when proved (a strong search, and not a draw).
    #[must_use]
    pub fn remoteness(&self) -> Option<u32> {
        match (self.weak, self.value) {
            (false, Value::Win(r) | Value::Loss(r)) => Some(r),
            _ => None,
        }
    }
}

/// The transposition table: buckets of two entries, one `u64` each, written and read
/// whole with relaxed atomics, so threads share it without locks and never read a torn
/// entry. A key is first mixed by a bijection of its own bits; the low bits of the mix
/// choose the bucket (a power of two of them), and an entry keeps the rest — so an entry
/// is exact, never a hash that two positions share. Below that part an entry holds five
/// bits of the best move found (its place in the game's order of children, plus one; 0:
/// none; left out when the key's part needs them), six bits of log2 of the nodes
/// searched to find it, and a byte coding a bound: `1..=R` an upper bound, `R+1..=2R` a
/// lower bound, 0 an empty entry. The first entry of
/// a bucket keeps the costlier result (a new one at least as costly moves the old to the
/// second), the second always takes what the first does not: deep results survive the
/// many cheap ones near the leaves.
///
/// The table grows with the search. It starts at [`START_ENTRIES`] (a size the processor's
/// cache holds: an easy position is searched without waiting for memory) and doubles, up
/// to the entries the caller asked for, whenever one search has visited more nodes than
/// the table has entries. The memory for the most entries is asked for at once but the
/// system gives it only as the table grows into it. A doubling moves each entry to one of
/// two buckets by the next bit of its key's mix (its part's lowest bit), in place, while
/// the threads searching stand still: they hold the table's gate shared between their
/// looks at the clock, and the doubling holds it alone.
pub struct Table {
    /// Room for the most entries; those past the buckets in use are all 0.
    entries: Box<[AtomicU64]>,
    /// Scores above this minimum are coded from 1.
    min: i32,
    range: i32,
    /// Bits of a key.
    key_bits: u32,
    /// log2 of the buckets in use (changed only under the gate held alone).
    bucket_bits: AtomicU32,
    /// log2 of the most buckets.
    most_bits: u32,
    /// Where the key's part starts in an entry (fixed by the smallest table, whose parts
    /// are the widest).
    shift: u32,
    /// Held shared by every search while it reads and writes entries; held alone to
    /// double the table.
    gate: RwLock<()>,
    /// Searches waiting to hold the gate alone (to double the table): while any waits,
    /// every search lets go of it at its next look at the clock and waits its turn.
    grow: AtomicUsize,
}

/// Entries a table starts with (512 KiB) when the caller asks for more.
pub const START_ENTRIES: u64 = 1 << 16;

/// Bits of an entry below the key's part: with the best move, and without it (keys too
/// wide for the entries asked keep no move).
const TAG_SHIFT: u32 = 19;
const NARROW_TAG_SHIFT: u32 = 14;

/// The move an entry keeps: its place among the children, below this.
const MAX_BEST: usize = 31;

/// The bound a table entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Upper(i32),
    Lower(i32),
}

/// What the table knows of a key: a bound, and the child that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit {
    bound: Bound,
    best: Option<usize>,
}

impl Table {
    /// A table of at most about `entries` entries (the largest power of two at most that,
    /// at least 1024) for keys of `key_bits` bits and scores in `range`; it starts at
    /// [`START_ENTRIES`] (or the size asked, if smaller) and grows as searches need.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the memory cannot be had, [`Error::Unsupported`] for a
    /// range past [`MAX_RANGE`] or keys too wide for the entries asked.
    pub fn new(entries: u64, key_bits: u32, range: (i32, i32)) -> Result<Table, Error> {
        Table::growing(START_ENTRIES, entries, key_bits, range)
    }

    /// A table of `start` entries growing to at most `entries` (each the largest power of
    /// two at most that, at least 1024; `start` at most `entries`, and at least what keys
    /// of `key_bits` bits need).
    fn growing(
        start: u64,
        entries: u64,
        key_bits: u32,
        (min, max): (i32, i32),
    ) -> Result<Table, Error> {
        let range = max - min + 1;
        if !(1..=MAX_RANGE).contains(&range) {
            return Err(Error::Unsupported(format!(
                "the exact search codes at most {MAX_RANGE} scores, not {range}"
            )));
        }
        let log_buckets = |n: u64| 63 - (n.max(1024) / 2).leading_zeros();
        let most_bits = log_buckets(entries);
        // The narrowest entries leave 64 − NARROW_TAG_SHIFT bits for the key's part.
        let least = key_bits.saturating_sub(64 - NARROW_TAG_SHIFT);
        if least > most_bits {
            return Err(Error::Unsupported(format!(
                "keys of {key_bits} bits need a table of at least 2^{} entries",
                least + 1
            )));
        }
        let bucket_bits = log_buckets(start).clamp(least, most_bits);
        let part = key_bits.saturating_sub(bucket_bits);
        let shift = if part <= 64 - TAG_SHIFT {
            TAG_SHIFT
        } else {
            NARROW_TAG_SHIFT
        };
        let len = usize::try_from(2u64 << most_bits).map_err(|_| too_many(entries))?;
        let entries = bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(len)
            .map_err(|()| too_many(entries))?;
        Ok(Table {
            entries,
            min,
            range,
            key_bits: key_bits.clamp(1, 64),
            bucket_bits: AtomicU32::new(bucket_bits),
            most_bits,
            shift,
            gate: RwLock::new(()),
            grow: AtomicUsize::new(0),
        })
    }

    /// Entries in use: those of the buckets the table has grown to.
    fn live(&self) -> &[AtomicU64] {
        &self.entries[..2usize << self.bucket_bits.load(Ordering::Relaxed)]
    }

    /// Bytes the table takes now (it may grow, to the entries asked).
    #[must_use]
    pub fn bytes(&self) -> u64 {
        let _held = self.share();
        self.live().len() as u64 * 8
    }

    /// Entries in use.
    #[must_use]
    pub fn used(&self) -> u64 {
        let _held = self.share();
        self.live()
            .iter()
            .filter(|e| e.load(Ordering::Relaxed) & 0xff != 0)
            .count() as u64
    }

    /// Forgets every entry (the table keeps its size).
    pub fn clear(&self) {
        let _alone = self.gate.write().unwrap_or_else(PoisonError::into_inner);
        for e in self.live() {
            e.store(0, Ordering::Relaxed);
        }
    }

    /// The gate held shared: what a search holds while it reads and writes entries.
    fn share(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a search that has visited `nodes` would have the table doubled.
    fn wants(&self, nodes: u64) -> bool {
        let bits = self.bucket_bits.load(Ordering::Relaxed);
        bits < self.most_bits && nodes > 2u64 << bits
    }

    /// Doubles the table if a search that has visited `nodes` wants it and no other has
    /// already: called without the gate; every search holding it stops at its next check.
    fn double_for(&self, nodes: u64) {
        // Counted, not a flag: a search that has doubled must not clear the call of one
        // still waiting, or it would search on holding the gate while the other waits.
        self.grow.fetch_add(1, Ordering::Relaxed);
        {
            let _alone = self.gate.write().unwrap_or_else(PoisonError::into_inner);
            if self.wants(nodes) {
                self.double();
            }
        }
        self.grow.fetch_sub(1, Ordering::Relaxed);
    }

    /// Doubles the buckets in use, moving each entry by its part's lowest bit, which the
    /// larger table takes into the bucket's number. The caller holds the gate alone.
    fn double(&self) {
        let bits = self.bucket_bits.load(Ordering::Relaxed);
        let half = 1usize << bits;
        let below = (1u64 << self.shift) - 1;
        for b in 0..half {
            let old = [2 * b, 2 * b + 1].map(|i| self.entries[i].swap(0, Ordering::Relaxed));
            // The next free entry in bucket b and in bucket b + half: the order (the
            // costlier first) is kept.
            let mut next = [2 * b, 2 * (b + half)];
            for e in old.into_iter().filter(|e| e & 0xff != 0) {
                let part = e >> self.shift;
                let high = (part & 1) as usize;
                self.entries[next[high]]
                    .store((part >> 1) << self.shift | e & below, Ordering::Relaxed);
                next[high] += 1;
            }
        }
        self.bucket_bits.store(bits + 1, Ordering::Relaxed);
    }

    /// The first entry of `key`'s bucket, and the key's part an entry holds.
    #[inline]
    fn place(&self, key: u64) -> (usize, u64) {
        let k = self.key_bits;
        let m = u64::MAX >> (64 - k);
        // Odd multipliers and a shift right are bijections of k-bit words: two keys never
        // meet in one bucket with one part.
        let mut x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) & m;
        x ^= x >> k.div_ceil(2);
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9) & m;
        let bits = self.bucket_bits.load(Ordering::Relaxed);
        let bucket = x & ((1u64 << bits) - 1);
        (2 * bucket as usize, x >> bits)
    }

    /// Starts loading `key`'s bucket, so that the work done before [`Table::get`] reads
    /// it overlaps the wait for memory.
    #[inline]
    fn prefetch(&self, key: u64) {
        let (at, _) = self.place(key);
        grundy_alloc::prefetch(&self.entries[at]);
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Hit> {
        let (at, tag) = self.place(key);
        let e = [at, at + 1].iter().find_map(|&i| {
            let e = self.entries[i].load(Ordering::Relaxed);
            (e & 0xff != 0 && e >> self.shift == tag).then_some(e)
        })?;
        let code = (e & 0xff) as i32;
        // Without room for a move, those bits are the key's.
        let best = if self.shift == TAG_SHIFT {
            (e >> NARROW_TAG_SHIFT & 0x1f) as usize
        } else {
            0
        };
        Some(Hit {
            bound: if code > self.range {
                Bound::Lower(code - self.range - 1 + self.min)
            } else {
                Bound::Upper(code - 1 + self.min)
            },
            best: best.checked_sub(1),
        })
    }

    /// Keeps `bound` for `key`, found in `work` nodes, `best` the child that gave it.
    #[inline]
    fn put(&self, key: u64, bound: Bound, best: Option<usize>, work: u64) {
        let (at, tag) = self.place(key);
        let code = match bound {
            Bound::Upper(v) => v - self.min + 1,
            Bound::Lower(v) => v - self.min + 1 + self.range,
        };
        debug_assert!((1..=2 * self.range).contains(&code), "{bound:?}");
        let log = u64::from(64 - work.leading_zeros()).min(63);
        let best = best
            .filter(|&b| b < MAX_BEST && self.shift == TAG_SHIFT)
            .map_or(0, |b| b as u64 + 1);
        let entry = tag << self.shift | best << NARROW_TAG_SHIFT | log << 8 | code as u64;
        let first = self.entries[at].load(Ordering::Relaxed);
        if first >> self.shift == tag || first & 0xff == 0 {
            self.entries[at].store(entry, Ordering::Relaxed);
        } else if log >= (first >> 8 & 0x3f) {
            self.entries[at + 1].store(first, Ordering::Relaxed);
            self.entries[at].store(entry, Ordering::Relaxed);
        } else {
            self.entries[at + 1].store(entry, Ordering::Relaxed);
        }
    }
}

fn too_many(entries: u64) -> Error {
    Error::TooLarge {
        what: format!("a search table of {entries} entries"),
        need: Some(entries.saturating_mul(8)),
    }
}

/// Nodes between two looks at the clock, the stop flags and the node budget.
const CHECK_EVERY: u64 = 1 << 12;

/// Why a search stopped before its answer (the error itself waits in
/// [`Searcher::failed`], so that the recursion passes a small value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Another thread answered the probe.
    Answered,
    /// The caller's error: Ctrl-C, or the budget.
    Failed,
    /// A round's node budget ([`Searchable::widen`]) spent: the move is tried again in a
    /// later round.
    Spent,
}

/// What threads share while they search.
struct Shared<'a, 'c> {
    table: &'a Table,
    control: &'a Control<'c>,
    /// Nodes counted by every thread, at each check.
    nodes: AtomicU64,
    max_nodes: u64,
    /// [`Options::first_budget`].
    first_budget: u64,
    /// Set when another thread's search failed: every thread stops.
    abort: AtomicBool,
}

impl<'a, 'c> Shared<'a, 'c> {
    /// No node counted yet, at most `options.max_nodes`.
    fn new(table: &'a Table, control: &'a Control<'c>, options: &Options) -> Self {
        Shared {
            table,
            control,
            nodes: AtomicU64::new(0),
            max_nodes: options.max_nodes,
            first_budget: options.first_budget.max(1),
            abort: AtomicBool::new(false),
        }
    }
}

/// One thread's search.
struct Searcher<'a, 'c, G: Searchable> {
    game: &'a G,
    shared: &'a Shared<'a, 'c>,
    /// Set when the probe this thread works on is answered.
    done: &'a AtomicBool,
    /// Set when the position this thread works on is answered by another thread.
    quit: Option<&'a AtomicBool>,
    /// Moves by ply, reused.
    lists: Vec<Vec<G::Board>>,
    /// Nodes since the last check.
    pending: u64,
    /// Nodes this thread visited in all.
    visited: u64,
    /// The helper's number: 0 searches in the game's order; helper `k` turns the first
    /// moves of the shallow plies by `k`.
    turn: usize,
    /// What stopped the search, when it was [`Stop::Failed`].
    failed: Option<Error>,
    /// What progress reports call this search (with the bounds known so far).
    stage: &'a str,
    /// The table's gate, held shared while this thread searches (let go only for the
    /// table to grow).
    held: Option<RwLockReadGuard<'a, ()>>,
    /// Whether carriers are worked out ([`Searchable::carriers`], a weak search).
    proofs: bool,
    /// The carrier of the last value [`Searcher::negamax`] returned (with `proofs`).
    carrier: u64,
    /// The node count at which the innermost round's budget is spent ([`Stop::Spent`]).
    deadline: u64,
}

/// The first round's budget of nodes a move ([`Searchable::widen`]) by default
/// ([`Options::first_budget`]); it doubles from one round to the next.
pub const FIRST_BUDGET: u64 = 1 << 10;
const BUDGET_GROWTH: u32 = 2;

/// Plies from the root where a helper turns its move order.
const TURNED_PLIES: usize = 3;

impl<G: Searchable> Searcher<'_, '_, G> {
    #[inline]
    fn count(&mut self) -> Result<(), Stop> {
        self.pending += 1;
        self.visited += 1;
        if self.visited >= self.deadline {
            return Err(Stop::Spent);
        }
        if self.pending < CHECK_EVERY {
            return Ok(());
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<(), Stop> {
        let total = self.shared.nodes.fetch_add(self.pending, Ordering::Relaxed) + self.pending;
        self.pending = 0;
        if self.done.load(Ordering::Relaxed) || self.quit.is_some_and(|q| q.load(Ordering::Relaxed))
        {
            return Err(Stop::Answered);
        }
        if self.shared.abort.load(Ordering::Relaxed) {
            self.failed = Some(Error::Cancelled);
            return Err(Stop::Failed);
        }
        if let Err(e) = self.shared.control.check() {
            self.failed = Some(e);
            return Err(Stop::Failed);
        }
        if total > self.shared.max_nodes {
            self.failed = Some(Error::TooLarge {
                what: format!(
                    "the exact search visited {total} positions without an answer (limit {})",
                    self.shared.max_nodes
                ),
                need: None,
            });
            return Err(Stop::Failed);
        }
        if total & ((1 << 20) - 1) < CHECK_EVERY {
            self.shared.control.report(self.stage, total);
        }
        let table = self.shared.table;
        if table.grow.load(Ordering::Relaxed) > 0 || table.wants(total) {
            self.held = None;
            table.double_for(total);
            self.held = Some(table.share());
        }
        Ok(())
    }

    /// The value of a board with one move (`hint` [`Searchable::forced`]) within
    /// `(alpha, beta)`: its child's, through the move.
    fn through_one(
        &mut self,
        board: &G::Board,
        hint: G::Hint,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<i32, Stop> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let list = &mut self.lists[ply];
        list.clear();
        self.game.children(board, hint, list);
        let child = list[0];
        let through = self.game.step(board, &child);
        let (a, b) = through.window(alpha, beta);
        let v = through.value(self.negamax(&child, a, b, ply + 1)?);
        if self.proofs {
            self.carrier |= if v >= beta {
                self.game.places(board, &child)
            } else {
                self.game.pruned_carrier(&hint)
            };
        }
        Ok(v)
    }

    /// The value of `board` within `(alpha, beta)`, fail-soft: at most `alpha` is an upper
    /// bound, at least `beta` a lower bound.
    fn negamax(
        &mut self,
        board: &G::Board,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> Result<i32, Stop> {
        self.count()?;
        // The table is read after the game's bounds: its entry starts loading now
        // (measured on Pons' set L1_R3: 5 to 10% less time).
        let early = self.game.prefetch().then(|| {
            let key = self.game.key(board);
            self.shared.table.prefetch(key);
            key
        });
        let (lo, hi, hint) = match self.game.expand(board) {
            Node::Exact(v) => {
                if self.proofs {
                    self.carrier = self.game.exact_carrier(board);
                }
                return Ok(v);
            }
            Node::Open { lo, hi, hint } => (lo, hi, hint),
        };
        // The game's bounds first: they cut without a look at the table.
        if let Some(v) = self.narrow(&mut alpha, &mut beta, lo, hi, |game, high| {
            game.bound_carrier(&hint, high)
        }) {
            return Ok(v);
        }
        // A board with one move: valued through it, the table left to the child (measured on
        // connect four's L1_R2 set: 10% less time, 4% more nodes).
        if self.game.forced(&hint) {
            return self.through_one(board, hint, alpha, beta, ply);
        }
        let key = early.unwrap_or_else(|| self.game.key(board));
        let hit = self.shared.table.get(key);
        let (lo, hi) = match hit.map(|h| h.bound) {
            Some(Bound::Upper(v)) => (i32::MIN, v),
            Some(Bound::Lower(v)) => (v, i32::MAX),
            None => (i32::MIN, i32::MAX),
        };
        if let Some(v) = self.narrow(&mut alpha, &mut beta, lo, hi, |game, high| {
            game.kept_carrier(board, high)
        }) {
            return Ok(v);
        }
        let mut children = self.take_list(ply);
        let decisive = self.game.decisive(&hint);
        self.game.children(board, hint, &mut children);
        let n = children.len();
        if let Some(v) = self.cut_by_a_child(board, key, &children, beta) {
            self.lists[ply] = children;
            return Ok(v);
        }
        let order = Order {
            first: hit.and_then(|h| h.best).filter(|&b| b < n),
            turn: if self.turn > 0 && ply < TURNED_PLIES && n > 1 {
                self.turn
            } else {
                0
            },
            n,
        };
        let before = self.visited;
        let mut result = Ok(None);
        // The children past `decisive` need no search once every one before it has been
        // searched and the best so far is a least loss or a draw (`decisive`).
        let decisive = decisive.map_or(n, |k| k.min(n));
        let mut undecided = decisive;
        // With carriers: the places a move must fill to be still worth trying (those of
        // every refuted move's carrier), and the union of those carriers.
        let mut allowed = u64::MAX;
        let mut refuted = 0u64;
        // In rounds of growing budgets (the cheapest proof first), the moves still open;
        // else one round, unbounded.
        let rounds = n > 1 && n <= 64 && (-1..=0).contains(&alpha) && self.game.widen(board);
        let mut open = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut budget = if rounds {
            self.shared.first_budget
        } else {
            u64::MAX
        };
        'rounds: loop {
            let outer = self.deadline;
            for step in 0..n {
                let j = order.place(step);
                if open & (1 << j.min(63)) == 0 {
                    continue;
                }
                let outcome = (-1..=0).contains(&alpha);
                if j >= decisive && undecided == 0 && outcome {
                    open &= !(1 << j.min(63));
                    continue;
                }
                if self.proofs && outcome && self.game.places(board, &children[j]) & allowed == 0 {
                    open &= !(1 << j.min(63));
                    undecided -= usize::from(j < decisive);
                    continue;
                }
                let deadline = outer.min(self.visited.saturating_add(budget));
                match self.probe((board, &children[j]), (alpha, beta), ply, deadline) {
                    Ok(v) => {
                        open &= !(1 << j.min(63));
                        undecided -= usize::from(j < decisive);
                        if v >= beta {
                            if self.proofs {
                                self.carrier |= self.game.places(board, &children[j]);
                            }
                            result = Ok(Some((v, j)));
                            break 'rounds;
                        }
                        if self.proofs {
                            allowed &= self.carrier;
                            refuted |= self.carrier;
                        }
                        alpha = alpha.max(v);
                    }
                    // This round's budget spent, not an outer one's: next round.
                    Err(Stop::Spent) if self.visited < outer => {}
                    Err(stop) => {
                        result = Err(stop);
                        break 'rounds;
                    }
                }
            }
            if open == 0 || !rounds {
                break;
            }
            budget = budget.saturating_mul(u64::from(BUDGET_GROWTH));
        }
        self.lists[ply] = children;
        let work = self.visited - before;
        Ok(match result? {
            Some((v, cut)) => {
                self.shared.table.put(key, Bound::Lower(v), Some(cut), work);
                if self.proofs {
                    self.game.keep_carrier(board, true, self.carrier);
                }
                v
            }
            None => {
                self.shared.table.put(key, Bound::Upper(alpha), None, work);
                if self.proofs {
                    self.carrier = refuted | self.game.pruned_carrier(&hint);
                    self.game.keep_carrier(board, false, self.carrier);
                }
                alpha
            }
        })
    }

    /// The list of children at `ply`, emptied, taken to be filled (and put back).
    #[inline(always)]
    fn take_list(&mut self, ply: usize) -> Vec<G::Board> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        list
    }

    /// The value of `board` through its move to `child`, searched within the window
    /// `(alpha, beta)` until the search has visited `deadline` nodes in all.
    #[inline(always)]
    fn probe(
        &mut self,
        (board, child): (&G::Board, &G::Board),
        (alpha, beta): (i32, i32),
        ply: usize,
        deadline: u64,
    ) -> Result<i32, Stop> {
        let outer = self.deadline;
        let through = self.game.step(board, child);
        let (a, b) = through.window(alpha, beta);
        self.deadline = deadline;
        let got = self.negamax(child, a, b, ply + 1);
        self.deadline = outer;
        got.map(|v| through.value(v))
    }

    /// `(alpha, beta)` narrowed to the bounds `lo ..= hi`: the value at once when the
    /// window closes, with `carrier(game, high)`'s carrier (`high`: the value is a lower
    /// bound, a cut) when proofs are kept.
    #[inline(always)]
    fn narrow(
        &mut self,
        alpha: &mut i32,
        beta: &mut i32,
        lo: i32,
        hi: i32,
        carrier: impl FnOnce(&G, bool) -> u64,
    ) -> Option<i32> {
        if *alpha < lo {
            *alpha = lo;
            if *alpha >= *beta {
                if self.proofs {
                    self.carrier = carrier(self.game, true);
                }
                return Some(*alpha);
            }
        }
        if *beta > hi {
            *beta = hi;
            if *alpha >= *beta {
                if self.proofs {
                    self.carrier = carrier(self.game, false);
                }
                return Some(*beta);
            }
        }
        None
    }

    /// Where the game looks ahead (enhanced transposition cutoffs): the value of
    /// `board`, at least `beta`, when the table's bound of one of its `children` makes
    /// that move good enough, kept in the table under `key`.
    #[inline(always)]
    fn cut_by_a_child(
        &mut self,
        board: &G::Board,
        key: u64,
        children: &[G::Board],
        beta: i32,
    ) -> Option<i32> {
        if !self.game.look_ahead(board) {
            return None;
        }
        for (j, child) in children.iter().enumerate() {
            let Some(hit) = self.shared.table.get(self.game.key(child)) else {
                continue;
            };
            if let Some(v) = self.game.step(board, child).at_least(hit.bound) {
                if v >= beta {
                    if self.proofs {
                        self.carrier =
                            self.game.kept_carrier(child, false) | self.game.places(board, child);
                    }
                    self.shared.table.put(key, Bound::Lower(v), Some(j), 1);
                    return Some(v);
                }
            }
        }
        None
    }
}

/// The order a board's children are searched in: the table's best move (`first`) first,
/// then the game's order, turned by `turn` places (a helper's, near the root).
#[derive(Clone, Copy)]
struct Order {
    first: Option<usize>,
    turn: usize,
    n: usize,
}

impl Order {
    /// The child searched at `step` (no division unless turned: `%` costs more than the
    /// rest of a step).
    #[inline(always)]
    fn place(self, step: usize) -> usize {
        match self.first {
            Some(b) if step == 0 => b,
            Some(b) => {
                let r = if self.turn == 0 {
                    step - 1
                } else {
                    (step - 1 + self.turn) % (self.n - 1)
                };
                r + usize::from(r >= b)
            }
            None if self.turn == 0 => step,
            None => (step + self.turn) % self.n,
        }
    }
}

/// The exact value of one position, searched with a table the caller keeps between
/// calls (so a game in progress, or a list of positions, reuses what was proved).
///
/// # Errors
/// [`Error::TooLarge`] past `options.max_nodes`; [`Error::Cancelled`] if stopped.
pub fn solve<G: Searchable>(
    game: &G,
    board: &G::Board,
    table: &Table,
    options: &Options,
    control: &Control<'_>,
) -> Result<(Found, u64), Error> {
    let shared = Shared::new(table, control, options);
    let score = root(game, board, &shared, options, Lane::MAIN)?.ok_or(Error::Cancelled)?;
    let nodes = shared.nodes.load(Ordering::Relaxed);
    Ok((found(game, board, score, options.weak), nodes))
}

fn found<G: Searchable>(game: &G, board: &G::Board, score: i32, weak: bool) -> Found {
    Found {
        score,
        value: game.value(board, score),
        weak,
    }
}

/// How one thread searches a position: its move order (`turn`, as [`Searcher::turn`]),
/// a flag another thread sets when it has answered the same position (then this
/// thread's search of it is abandoned: `Ok(None)`), and a guess at its value (a
/// sibling's, in [`analyse`]) that the first probes step from.
#[derive(Clone, Copy)]
struct Lane<'a> {
    turn: usize,
    quit: Option<&'a AtomicBool>,
    guess: Option<i32>,
}

impl Lane<'_> {
    /// The game's own order, never abandoned, no guess.
    const MAIN: Lane<'static> = Lane {
        turn: 0,
        quit: None,
        guess: None,
    };
}

/// The value of `board` by null-window probes, bisecting the window of values still
/// possible (with a pull towards 0, where most positions lie), as Pons' solver does;
/// `None` when `lane`'s position was answered by another thread first.
fn root<G: Searchable>(
    game: &G,
    board: &G::Board,
    shared: &Shared<'_, '_>,
    options: &Options,
    lane: Lane<'_>,
) -> Result<Option<i32>, Error> {
    if let Some(v) = game.settled(board) {
        shared.nodes.fetch_add(1, Ordering::Relaxed);
        return Ok(Some(v));
    }
    let (mut min, mut max) = match game.expand(board) {
        Node::Exact(v) => {
            shared.nodes.fetch_add(1, Ordering::Relaxed);
            return Ok(Some(v));
        }
        // One wider on each side than the bounds: the bisection's first probes are then
        // those of Pons' solver, which measured 25% fewer nodes on his test set L1_R1 than
        // probes within the bounds (and as many on the others).
        Node::Open { lo, hi, .. } => {
            let (least, most) = game.score_range();
            ((lo - 1).max(least), (hi + 1).min(most))
        }
    };
    if options.weak {
        // Only the sign: the least win and the least loss stand for all of them.
        let (lo, hi) = game.score_range();
        min = min.max(if lo < 0 { -1 } else { lo });
        max = max.min(if hi > 0 { 1 } else { hi });
    }
    let mut lists = Vec::new();
    // Probes since the guess that raised the least value still possible, and that
    // lowered the most.
    let (mut up, mut down) = (0u32, 0u32);
    let own_guess = game.guess(board);
    while min < max {
        // Progress says what is known so far: the value lies between these two.
        let (a, b) = (game.value(board, min), game.value(board, max));
        let stage = if options.weak {
            format!("search, between {} and {}", a.outcome(), b.outcome())
        } else {
            format!("search, between {a} and {b}")
        };
        let mut med = min + (max - min) / 2;
        let guess = lane.guess.or(own_guess);
        if let Some(g) = guess.filter(|_| up == 0 || down == 0) {
            // From a guess (a sibling's value): siblings' values lie close (the first moves
            // of connect four 7 × 6 score −2 to 1 from the child's side), and a probe
            // costs most near the value, so the first probe is at the guess and the next
            // ones gallop away from it (one value, then two, four, …) until the value
            // is bracketed, then bisect: two or three probes beside the value instead of
            // a bisection's six or seven across the range.
            med = match (up, down) {
                (0, 0) => g,
                (u, 0) => min.saturating_add((1 << (u - 1).min(30)) - 1),
                (_, d) => max - 1 - ((1 << (d - 1).min(30)) - 1),
            }
            .clamp(min, max - 1);
        } else if med <= 0 && min / 2 < med {
            med = min / 2;
        } else if med >= 0 && max / 2 > med {
            med = max / 2;
        }
        let probing = Probing {
            med,
            stage: &stage,
            lists: &mut lists,
            proofs: options.weak && game.carriers(),
        };
        let Some(r) = probe(game, board, shared, options.threads, lane, probing)? else {
            return Ok(None);
        };
        if r <= med {
            max = r;
            down += 1;
        } else {
            min = r;
            up += 1;
        }
    }
    Ok(Some(min))
}

/// One probe of [`root`]'s bisection: the window `(med, med + 1)`, what progress reports
/// call it, and the calling thread's move lists by ply, kept from one probe to the next.
struct Probing<'a, B> {
    med: i32,
    stage: &'a str,
    lists: &'a mut Vec<Vec<B>>,
    /// Whether carriers are worked out ([`Searchable::carriers`]: a weak search only).
    proofs: bool,
}

/// One null-window search `(med, med + 1)` of `board` on `threads` threads sharing the
/// table: the first to finish answers (`None`: `lane`'s position was answered first).
fn probe<G: Searchable>(
    game: &G,
    board: &G::Board,
    shared: &Shared<'_, '_>,
    threads: usize,
    lane: Lane<'_>,
    probing: Probing<'_, G::Board>,
) -> Result<Option<i32>, Error> {
    let Probing {
        med,
        stage,
        lists,
        proofs,
    } = probing;
    let threads = thread_count(threads);
    let done = AtomicBool::new(false);
    let abandoned = || lane.quit.is_some_and(|q| q.load(Ordering::Relaxed));
    let run = |turn: usize, lists: &mut Vec<Vec<G::Board>>| {
        let mut s = Searcher {
            game,
            shared,
            done: &done,
            quit: lane.quit,
            lists: std::mem::take(lists),
            pending: 0,
            visited: 0,
            turn,
            failed: None,
            stage,
            held: Some(shared.table.share()),
            proofs,
            carrier: 0,
            deadline: u64::MAX,
        };
        let got = s.negamax(board, med, med + 1, 0);
        s.flush_count();
        *lists = std::mem::take(&mut s.lists);
        if got.is_ok() {
            done.store(true, Ordering::Relaxed);
        }
        got.map_err(|_| s.failed.take())
    };
    if threads <= 1 {
        return match run(lane.turn, lists) {
            Ok(v) => Ok(Some(v)),
            Err(Some(e)) => Err(e),
            Err(None) if abandoned() => Ok(None),
            Err(None) => Err(Error::Cancelled),
        };
    }
    let results: Vec<Result<i32, Option<Error>>> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|k| scope.spawn(move || run(lane.turn + k, &mut Vec::new())))
            .collect();
        let mut all = vec![run(lane.turn, lists)];
        all.extend(helpers.into_iter().map(|h| h.join().unwrap_or(Err(None))));
        all
    });
    let mut error = None;
    for r in results {
        match r {
            Ok(v) => return Ok(Some(v)),
            Err(e) => error = error.or(e),
        }
    }
    match error {
        Some(e) => Err(e),
        None if abandoned() => Ok(None),
        None => Err(Error::Cancelled),
    }
}

impl<G: Searchable> Searcher<'_, '_, G> {
    /// Adds the nodes not yet counted to the shared count.
    fn flush_count(&mut self) {
        self.shared.nodes.fetch_add(self.pending, Ordering::Relaxed);
        self.pending = 0;
    }
}

/// Orders `todo` (places in `children`, whose keys are `keys`) as the game orders the
/// moves of `board`: the most promising first (moves it does not list last).
fn by_promise<G: Searchable>(game: &G, board: &G::Board, keys: &[u64], todo: &mut [usize]) {
    if game.settled(board).is_some() {
        return;
    }
    if let Node::Open { hint, .. } = game.expand(board) {
        let mut listed = Vec::new();
        game.children(board, hint, &mut listed);
        let listed: Vec<u64> = listed.iter().map(|c| game.key(c)).collect();
        todo.sort_by_key(|&i| {
            listed
                .iter()
                .position(|&k| k == keys[i])
                .unwrap_or(listed.len())
        });
    }
}

/// Threads for `0` (every core) or `n`.
fn thread_count(n: usize) -> usize {
    match n {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        n => n,
    }
}

/// The value of a position and of each of its moves, as `c4solver -a` gives them: each
/// move's position valued as a root of its own, sharing the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The position's value.
    pub root: Found,
    /// Each move's value for the player who makes it (its score through [`Step`]), in the
    /// order the game lists them.
    pub moves: Vec<Found>,
    /// Nodes visited, every thread together.
    pub nodes: u64,
}

/// The values of the moves to `children[todo[j]]` for their movers, in `todo`'s order,
/// searched on `threads` threads sharing the table: one move at a time to each thread
/// (the moves of a root are many and independent, which keeps every thread busy with
/// less waste than several threads on one probe); a thread that finds none left to start
/// helps the first still searched, its order turned (lazy SMP), until every one is
/// answered. `tell(k)` after the `k`th is answered.
#[allow(clippy::too_many_arguments)]
fn on_threads<G: Searchable>(
    game: &G,
    board: &G::Board,
    children: &[G::Board],
    todo: &[usize],
    shared: &Shared<'_, '_>,
    options: &Options,
    threads: usize,
    tell: &(dyn Fn(usize) + Sync),
) -> Result<Vec<i32>, Error> {
    let valued = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let answered: Vec<AtomicBool> = todo.iter().map(|_| AtomicBool::new(false)).collect();
    let found: Vec<std::sync::atomic::AtomicI32> = todo
        .iter()
        .map(|_| std::sync::atomic::AtomicI32::new(0))
        .collect();
    let one = Options {
        threads: 1,
        ..*options
    };
    // The value of the move answered last, for its mover (`NONE` before the first).
    const NONE: i32 = i32::MIN;
    let last = std::sync::atomic::AtomicI32::new(NONE);
    let work = |k: usize| -> Result<(), Error> {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let (j, turn) = if i < todo.len() {
                (i, 0)
            } else {
                match answered.iter().position(|a| !a.load(Ordering::Relaxed)) {
                    Some(j) => (j, k),
                    None => return Ok(()),
                }
            };
            let child = &children[todo[j]];
            let step = game.step(board, child);
            let guess = Some(last.load(Ordering::Relaxed))
                .filter(|&v| v != NONE)
                .map(|v| step.child(v));
            let lane = Lane {
                turn,
                quit: Some(&answered[j]),
                guess,
            };
            match root(game, child, shared, &one, lane) {
                Ok(Some(v)) => {
                    found[j].store(v, Ordering::Relaxed);
                    if !answered[j].swap(true, Ordering::AcqRel) {
                        tell(valued.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    last.store(step.value(v), Ordering::Relaxed);
                }
                Ok(None) => {}
                Err(e) => {
                    shared.abort.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
    };
    let results: Vec<Result<(), Error>> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|k| scope.spawn(move || work(k))).collect();
        let mut all = vec![work(0)];
        all.extend(
            helpers
                .into_iter()
                .map(|h| h.join().unwrap_or(Err(Error::Cancelled))),
        );
        all
    });
    let mut error = None;
    for r in results {
        match r {
            Ok(()) => {}
            // The error that stopped the others, not their being stopped.
            Err(Error::Cancelled) => error = error.or(Some(Error::Cancelled)),
            Err(e) => error = Some(e),
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    Ok(found.iter().map(|v| v.load(Ordering::Acquire)).collect())
}

/// The value of `board` and of each move in `children` (the game's moves from it, in its
/// order), the move's value being the child's negated.
///
/// # Errors
/// As [`solve`].
pub fn analyse<G: Searchable>(
    game: &G,
    board: &G::Board,
    children: &[G::Board],
    table: &Table,
    options: &Options,
    control: &Control<'_>,
) -> Result<Analysis, Error> {
    let shared = Shared::new(table, control, options);
    let threads = thread_count(options.threads);
    // Moves to boards of one key (mirror images) have one value: each key is searched
    // once, the most promising first.
    let keys: Vec<u64> = children.iter().map(|c| game.key(c)).collect();
    let first_of: Vec<usize> = (0..children.len())
        .map(|i| keys[..i].iter().position(|&k| k == keys[i]).unwrap_or(i))
        .collect();
    let mut todo: Vec<usize> = (0..children.len()).filter(|&i| first_of[i] == i).collect();
    by_promise(game, board, &keys, &mut todo);
    let mut scores = vec![0; children.len()];
    // Progress between the probes' own reports: how many of the moves are valued.
    let tell = |k: usize| {
        let nodes = shared.nodes.load(Ordering::Relaxed);
        control.report(
            &format!("search, {k} of {} moves valued", todo.len()),
            nodes,
        );
    };
    tell(0);
    if threads > 1 && !todo.is_empty() {
        let found = on_threads(
            game, board, children, &todo, &shared, options, threads, &tell,
        )?;
        for (&i, v) in todo.iter().zip(found) {
            scores[i] = v;
        }
    } else {
        let mut last = None;
        for (k, &i) in todo.iter().enumerate() {
            let step = game.step(board, &children[i]);
            let lane = Lane {
                guess: last.map(|v| step.child(v)),
                ..Lane::MAIN
            };
            scores[i] =
                root(game, &children[i], &shared, options, lane)?.ok_or(Error::Cancelled)?;
            last = Some(step.value(scores[i]));
            tell(k + 1);
        }
    }
    for i in 0..children.len() {
        scores[i] = scores[first_of[i]];
    }
    // Each child's value for its mover, negated: the move's for the player making it.
    let moves: Vec<Found> = children
        .iter()
        .zip(&scores)
        .map(|(child, &v)| {
            // The move's score for its mover, read as the value of `board` it gives.
            let score = game.step(board, child).value(v);
            Found {
                score,
                value: game.value(board, score),
                weak: options.weak,
            }
        })
        .collect();
    let root_found = match moves.iter().max_by_key(|f| f.score) {
        Some(best) => Found {
            score: best.score,
            value: game.value(board, best.score),
            weak: options.weak,
        },
        None => {
            let score = root(game, board, &shared, options, Lane::MAIN)?.ok_or(Error::Cancelled)?;
            found(game, board, score, options.weak)
        }
    };
    Ok(Analysis {
        root: root_found,
        moves,
        nodes: shared.nodes.load(Ordering::Relaxed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random game in levels: position `i` sits at level `level[i]`, every move goes one
    /// level down, a position without moves is lost for its player to move or drawn. A win
    /// ending at level m (the loser to move there) scores `top + 1 − m` for the winner,
    /// negated for the loser, so scores are consistent under negamax.
    #[derive(Debug, Clone)]
    struct Levels {
        level: Vec<u32>,
        moves: Vec<Vec<u32>>,
        drawn: Vec<bool>,
        top: i32,
        /// Keys spread over 58 bits, to exercise the table's modular layout.
        wide: bool,
        /// The game's guess at each position's score (some beyond the range), so that
        /// the probes gallop from anywhere.
        guesses: Vec<Option<i32>>,
    }

    impl Levels {
        fn over(&self, at: u32, m: u32) -> i32 {
            // The player to move at `at`, when the game ends at level m with its loser to
            // move there: a win if the loser is the other player.
            let s = self.top + 1 - m as i32;
            if (m - at) % 2 == 1 {
                s
            } else {
                -s
            }
        }

        /// The value of every position by plain recursion over values (the reference).
        fn reference(&self, i: u32, memo: &mut Vec<Option<Value>>) -> Value {
            if let Some(v) = memo[i as usize] {
                return v;
            }
            let moves = &self.moves[i as usize];
            let v = if moves.is_empty() {
                if self.drawn[i as usize] {
                    Value::Draw
                } else {
                    Value::Loss(0)
                }
            } else {
                moves
                    .iter()
                    .map(|&c| self.reference(c, memo).parent())
                    .max_by_key(|v| v.preference())
                    .expect("moves")
            };
            memo[i as usize] = Some(v);
            v
        }
    }

    impl Searchable for Levels {
        type Board = u32;
        type Hint = u64;
        fn key_bits(&self) -> u32 {
            if self.wide {
                58
            } else {
                32
            }
        }
        fn key(&self, &b: &u32) -> u64 {
            if self.wide {
                (u64::from(b) + 1).wrapping_mul(0x0123_4567_89ab) & ((1 << 58) - 1)
            } else {
                u64::from(b)
            }
        }
        fn score_range(&self) -> (i32, i32) {
            (-self.top - 1, self.top + 1)
        }
        fn settled(&self, &b: &u32) -> Option<i32> {
            self.moves[b as usize].is_empty().then(|| self.end(b))
        }
        fn expand(&self, &b: &u32) -> Node {
            if self.moves[b as usize].is_empty() {
                return Node::Exact(self.end(b));
            }
            let l = self.level[b as usize] as i32;
            // A win ends at level l + 1 at the soonest, a loss at l + 2.
            Node::Open {
                lo: -(self.top + 1 - (l + 2)).max(0),
                hi: self.top - l,
                hint: self.moves[b as usize].len() as u64,
            }
        }
        fn children(&self, &b: &u32, _: u64, out: &mut Vec<u32>) {
            out.extend_from_slice(&self.moves[b as usize]);
        }
        // Boards of one move are valued through it, without the table.
        fn forced(&self, &moves: &u64) -> bool {
            moves == 1
        }
        fn value(&self, &b: &u32, score: i32) -> Value {
            let l = self.level[b as usize] as i32;
            match score {
                0 => Value::Draw,
                s if s > 0 => Value::Win((self.top + 1 - s - l) as u32),
                s => Value::Loss((self.top + 1 + s - l) as u32),
            }
        }
        fn guess(&self, &b: &u32) -> Option<i32> {
            self.guesses[b as usize]
        }
        // Half the boards search their moves in rounds of budgets.
        fn widen(&self, &b: &u32) -> bool {
            b % 2 == 0
        }
    }

    impl Levels {
        fn end(&self, b: u32) -> i32 {
            if self.drawn[b as usize] {
                0
            } else {
                let l = self.level[b as usize];
                self.over(l, l)
            }
        }
    }

    /// A stream of pseudo-random numbers from `seed` (Marsaglia's xorshift).
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed | 1;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Levels of `width` positions each, `depth` of them; each position's moves drawn from
    /// the next level by `seed`.
    fn levels(depth: u32, width: u32, seed: u64, wide: bool) -> Levels {
        let mut next = xorshift(seed);
        let n = depth * width;
        let mut level = Vec::new();
        let mut moves = Vec::new();
        let mut drawn = Vec::new();
        let mut guesses = Vec::new();
        let top = depth as i32;
        for i in 0..n {
            let l = i / width;
            level.push(l);
            let mut m = Vec::new();
            if l + 1 < depth {
                let count = next() % 4;
                for _ in 0..count {
                    let c = (l + 1) * width + (next() % u64::from(width)) as u32;
                    if !m.contains(&c) {
                        m.push(c);
                    }
                }
            }
            moves.push(m);
            drawn.push(next().is_multiple_of(3));
            let g = (next() % (2 * depth as u64 + 7)) as i32 - top - 3;
            guesses.push((!next().is_multiple_of(4)).then_some(g));
        }
        Levels {
            level,
            moves,
            drawn,
            top,
            wide,
            guesses,
        }
    }

    /// A binary tree of `depth` levels, position `(level, index)`, every leaf drawn.
    /// Its leaves drawn, or with `seed`, each worth −1, 0 or 1 to the player to move.
    struct Tree {
        depth: u32,
        seed: u64,
    }

    impl Tree {
        fn leaf(&self, i: u32) -> i32 {
            if self.seed == 0 {
                return 0;
            }
            let x = (u64::from(i) ^ self.seed).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            (x >> 61) as i32 % 3 - 1
        }

        /// Plain negamax.
        fn reference(&self, (l, i): (u32, u32)) -> i32 {
            if l == self.depth {
                return self.leaf(i);
            }
            -self
                .reference((l + 1, 2 * i))
                .min(self.reference((l + 1, 2 * i + 1)))
        }
    }

    impl Searchable for Tree {
        type Board = (u32, u32);
        type Hint = u64;
        fn key_bits(&self) -> u32 {
            40
        }
        fn key(&self, &(l, i): &(u32, u32)) -> u64 {
            u64::from(l) << 32 | u64::from(i)
        }
        fn score_range(&self) -> (i32, i32) {
            (-1, 1)
        }
        fn settled(&self, &(l, i): &(u32, u32)) -> Option<i32> {
            (l == self.depth).then(|| self.leaf(i))
        }
        fn expand(&self, b: &(u32, u32)) -> Node {
            match self.settled(b) {
                Some(v) => Node::Exact(v),
                None => Node::Open {
                    lo: -1,
                    hi: 1,
                    hint: 0,
                },
            }
        }
        fn children(&self, &(l, i): &(u32, u32), _: u64, out: &mut Vec<(u32, u32)>) {
            out.extend([(l + 1, 2 * i), (l + 1, 2 * i + 1)]);
        }
        fn value(&self, _: &(u32, u32), score: i32) -> Value {
            match score {
                0 => Value::Draw,
                s if s > 0 => Value::Win(1),
                _ => Value::Loss(0),
            }
        }
    }

    /// A random score game in levels: every move goes one level down, takes 0 to 2 points
    /// and may keep the turn (as a box does in dots and boxes); a position without moves
    /// ends the game. A score is the margin still to be won by the player to move.
    #[derive(Debug, Clone)]
    struct Points {
        level: Vec<u32>,
        /// Each position's moves: (child, points, keeps the turn), one a child.
        moves: Vec<Vec<(u32, i32, bool)>>,
        depth: u32,
    }

    impl Points {
        fn new(depth: u32, width: u32, seed: u64) -> Points {
            let mut next = xorshift(seed);
            let (mut level, mut moves) = (Vec::new(), Vec::new());
            for i in 0..depth * width {
                let l = i / width;
                level.push(l);
                let mut m: Vec<(u32, i32, bool)> = Vec::new();
                if l + 1 < depth {
                    for _ in 0..next() % 4 {
                        let c = (l + 1) * width + (next() % u64::from(width)) as u32;
                        if m.iter().all(|&(d, _, _)| d != c) {
                            m.push((c, (next() % 3) as i32, next().is_multiple_of(3)));
                        }
                    }
                }
                moves.push(m);
            }
            Points {
                level,
                moves,
                depth,
            }
        }

        /// The margin by plain recursion (the reference).
        fn reference(&self, i: u32) -> i32 {
            self.moves[i as usize]
                .iter()
                .map(|&(c, gain, keeps)| {
                    let v = self.reference(c);
                    if keeps {
                        gain + v
                    } else {
                        gain - v
                    }
                })
                .max()
                .unwrap_or(0)
        }

        fn most(&self, b: u32) -> i32 {
            2 * (self.depth - self.level[b as usize]) as i32
        }
    }

    impl Searchable for Points {
        type Board = u32;
        type Hint = u64;
        fn key_bits(&self) -> u32 {
            32
        }
        fn key(&self, &b: &u32) -> u64 {
            u64::from(b)
        }
        fn score_range(&self) -> (i32, i32) {
            (-2 * self.depth as i32, 2 * self.depth as i32)
        }
        fn settled(&self, &b: &u32) -> Option<i32> {
            self.moves[b as usize].is_empty().then_some(0)
        }
        fn expand(&self, &b: &u32) -> Node {
            if self.moves[b as usize].is_empty() {
                return Node::Exact(0);
            }
            Node::Open {
                lo: -self.most(b),
                hi: self.most(b),
                hint: 0,
            }
        }
        fn children(&self, &b: &u32, _: u64, out: &mut Vec<u32>) {
            out.extend(self.moves[b as usize].iter().map(|&(c, _, _)| c));
        }
        fn value(&self, &b: &u32, score: i32) -> Value {
            let left = self.depth - self.level[b as usize];
            match score.signum() {
                0 => Value::Draw,
                1 => Value::Win(left),
                _ => Value::Loss(left),
            }
        }
        fn step(&self, &b: &u32, &c: &u32) -> Step {
            let &(_, gain, keeps) = self.moves[b as usize]
                .iter()
                .find(|&&(d, _, _)| d == c)
                .expect("a child");
            Step { keeps, gain }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The exact search's value of every position of the first levels equals plain
        /// recursion's, strong and weak, on one thread and two, with a table so small
        /// that entries replace each other.
        #[test]
        fn values_equal_plain_recursion(
            depth in 2u32..9,
            width in 1u32..7,
            seed in any::<u64>(),
            wide in any::<bool>(),
            threads in 1usize..3,
            // Rounds of budgets from 1 node, 4, and the default (where they rarely run
            // out on games this small).
            first_budget in prop::sample::select(vec![1u64, 4, FIRST_BUDGET]),
        ) {
            let game = levels(depth, width, seed, wide);
            let table = Table::new(1024, game.key_bits(), game.score_range()).unwrap();
            let mut memo = vec![None; game.level.len()];
            for b in 0..(2 * width).min(game.level.len() as u32) {
                let want = game.reference(b, &mut memo);
                for weak in [false, true] {
                    let options = Options { threads, weak, first_budget, ..Options::default() };
                    let (found, _) = solve(&game, &b, &table, &options, &Control::default()).unwrap();
                    prop_assert_eq!(found.outcome(), want.outcome(), "{} weak {}", b, weak);
                    if !weak {
                        prop_assert_eq!(found.value, want, "{}", b);
                        prop_assert_eq!(found.remoteness(), want.remoteness());
                    }
                }
                // Every move listed twice: one key, searched once, valued alike.
                let mut children = game.moves[b as usize].clone();
                children.extend(game.moves[b as usize].clone());
                let options = Options { threads, first_budget, ..Options::default() };
                let got = analyse(&game, &b, &children, &table, &options, &Control::default()).unwrap();
                prop_assert_eq!(got.root.value, want);
                prop_assert_eq!(got.moves.len(), children.len());
                for (found, &c) in got.moves.iter().zip(&children) {
                    prop_assert_eq!(found.value, game.reference(c, &mut memo).parent());
                }
            }
        }

        /// On a score game whose moves take points and may keep the turn, the exact
        /// search's margin of every position of the first levels, and of each of its
        /// moves, equals plain recursion's, on one thread and two, with a small table.
        #[test]
        fn margins_through_kept_turns_equal_plain_recursion(
            depth in 2u32..8,
            width in 1u32..6,
            seed in any::<u64>(),
            threads in 1usize..3,
        ) {
            let game = Points::new(depth, width, seed);
            let table = Table::new(1024, game.key_bits(), game.score_range()).unwrap();
            for b in 0..(2 * width).min(game.level.len() as u32) {
                let want = game.reference(b);
                let options = Options { threads, ..Options::default() };
                let (found, _) = solve(&game, &b, &table, &options, &Control::default()).unwrap();
                prop_assert_eq!(found.score, want, "{}", b);
                let weak = Options { weak: true, ..options };
                let (found, _) = solve(&game, &b, &table, &weak, &Control::default()).unwrap();
                prop_assert_eq!(found.score.signum(), want.signum(), "weak {}", b);
                let children: Vec<u32> = game.moves[b as usize].iter().map(|m| m.0).collect();
                let got = analyse(&game, &b, &children, &table, &options, &Control::default()).unwrap();
                prop_assert_eq!(got.root.score, want);
                for (found, &(c, gain, keeps)) in got.moves.iter().zip(&game.moves[b as usize]) {
                    let v = game.reference(c);
                    prop_assert_eq!(found.score, if keeps { gain + v } else { gain - v });
                }
            }
        }
    }

    #[test]
    fn the_table_keeps_bounds_and_moves_by_key() {
        for bits in [1, 20, 64] {
            let t = Table::new(40_000, bits, (-21, 21)).unwrap();
            assert_eq!(t.entries.len(), 32_768);
            // 2^14 buckets leave 50 bits of a 64-bit key: no room for a move.
            let keeps = bits < 64;
            assert_eq!(t.shift == TAG_SHIFT, keeps);
            for (key, bound, best) in [
                (0u64, Bound::Upper(-21), None),
                (u64::MAX >> (64 - bits), Bound::Lower(21), Some(30)),
                (12345 & (u64::MAX >> (64 - bits)), Bound::Lower(0), Some(0)),
            ] {
                if t.get(key).is_some() {
                    continue; // a one-bit key repeats itself
                }
                t.put(key, bound, best, 5);
                let best = best.filter(|_| keeps);
                assert_eq!(t.get(key), Some(Hit { bound, best }));
            }
            // A move past what an entry holds is kept as none.
            t.put(1, Bound::Upper(4), Some(MAX_BEST), 5);
            assert_eq!(t.get(1).map(|h| h.best), Some(None));
            t.clear();
            assert_eq!((t.used(), t.get(0)), (0, None));
        }
        // Every key of 16 bits in its own place: the mix is a bijection.
        let t = Table::new(1024, 16, (-21, 21)).unwrap();
        let places: std::collections::HashSet<_> = (0..1u64 << 16).map(|k| t.place(k)).collect();
        assert_eq!(places.len(), 1 << 16);
        assert!(matches!(
            Table::new(1024, 20, (-100, 100)),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            Table::new(1024, 64, (-21, 21)),
            Err(Error::Unsupported(_))
        ));
        // A bucket keeps the costlier entry first; a cheap one takes the second place.
        let t = Table::new(1024, 20, (-21, 21)).unwrap();
        let (at, _) = t.place(1);
        let same: Vec<u64> = (2..1 << 20)
            .filter(|&k| t.place(k).0 == at)
            .take(3)
            .collect();
        let bound = |t: &Table, k| t.get(k).map(|h| h.bound);
        t.put(1, Bound::Lower(3), None, 1000);
        t.put(same[0], Bound::Upper(2), None, 10);
        t.put(same[1], Bound::Upper(1), None, 20);
        assert_eq!(bound(&t, 1), Some(Bound::Lower(3)));
        assert_eq!(bound(&t, same[0]), None);
        assert_eq!(bound(&t, same[1]), Some(Bound::Upper(1)));
        t.put(same[2], Bound::Lower(-4), None, 5000);
        assert_eq!(bound(&t, same[2]), Some(Bound::Lower(-4)));
        assert_eq!(bound(&t, 1), Some(Bound::Lower(3)));
        assert_eq!(bound(&t, same[1]), None);
    }

    #[test]
    fn doubling_keeps_every_entry() {
        let t = Table::growing(1024, 1 << 14, 40, (-21, 21)).unwrap();
        assert_eq!(t.bytes(), 1024 * 8);
        let mut state = 7u64;
        let keys: Vec<u64> = (0..3000)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                state >> 24
            })
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            let bound = if n % 2 == 0 {
                Bound::Lower(n as i32 % 21)
            } else {
                Bound::Upper(-(n as i32 % 21))
            };
            t.put(k, bound, Some(n % MAX_BEST), n as u64);
        }
        let before: Vec<Option<Hit>> = keys.iter().map(|&k| t.get(k)).collect();
        assert!(before.iter().filter(|h| h.is_some()).count() > 900);
        for doubled in 1..=4 {
            t.double_for(u64::MAX);
            assert_eq!(t.bytes(), (1024 * 8) << doubled);
            let after: Vec<Option<Hit>> = keys.iter().map(|&k| t.get(k)).collect();
            assert_eq!(after, before);
        }
        // At the most entries asked, no more.
        t.double_for(u64::MAX);
        assert_eq!(t.bytes(), 1 << 17);
        // The table's entries are still its own: a new key is kept beside the old ones.
        t.put(u64::MAX >> 24, Bound::Lower(5), None, 1);
        assert_eq!(
            t.get(u64::MAX >> 24).map(|h| h.bound),
            Some(Bound::Lower(5))
        );
    }

    #[test]
    fn the_table_grows_during_a_search() {
        // Thousands of nodes from a table of 1024 entries: it doubles at the checks, while
        // the other thread searches, and the value stays right.
        for seed in [3, 11, 12345] {
            let tree = Tree { depth: 22, seed };
            let want = tree.reference((0, 0));
            for threads in [1, 2] {
                let t = Table::growing(1024, 1 << 16, tree.key_bits(), (-1, 1)).unwrap();
                let options = Options {
                    threads,
                    ..Options::default()
                };
                let (found, nodes) =
                    solve(&tree, &(0, 0), &t, &options, &Control::default()).unwrap();
                assert_eq!(found.score, want, "seed {seed}, {threads} threads");
                assert!(nodes > 2 * CHECK_EVERY, "{nodes}");
                assert!(
                    t.bytes() >= 4 * 1024 * 8,
                    "{} bytes after {nodes} nodes",
                    t.bytes()
                );
            }
        }
    }

    #[test]
    fn budgets_and_cancelling_end_the_search() {
        // Budgets and Ctrl-C are looked at every CHECK_EVERY nodes: a binary tree of 30
        // levels with every leaf drawn, searched in about 2^15 nodes (every move of one
        // player's positions must be seen), with no transposition.
        let deep = Tree { depth: 30, seed: 0 };
        let fresh = |g: &Tree| Table::new(1 << 16, g.key_bits(), g.score_range()).unwrap();
        let (found, nodes) = solve(
            &deep,
            &(0, 0),
            &fresh(&deep),
            &Options::default(),
            &Control::default(),
        )
        .unwrap();
        assert_eq!(found.value, Value::Draw);
        assert!(nodes > 4 * CHECK_EVERY, "{nodes}");
        let few = Options {
            max_nodes: 10,
            ..Options::default()
        };
        match solve(&deep, &(0, 0), &fresh(&deep), &few, &Control::default()) {
            Err(Error::TooLarge { what, .. }) => assert!(what.contains("limit 10"), "{what}"),
            other => panic!("{other:?}"),
        }
        let stop = AtomicBool::new(true);
        let control = Control::cancelled_by(&stop);
        assert_eq!(
            solve(&deep, &(0, 0), &fresh(&deep), &Options::default(), &control).map(|_| ()),
            Err(Error::Cancelled)
        );
    }
}
