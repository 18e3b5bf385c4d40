//! The one retrograde engine: a queue of decided vertices, a reverse adjacency and a
//! per-vertex counter of undecided successors. Labelling win/loss/draw, topological
//! orders for values, and the attractors of graph games are all this loop with a
//! different [`Rule`].
//!
//! # The state word
//!
//! Each vertex has one [`Word`], a `u32` behind a type of its own; its bits are private to
//! this module, and everything else reads and writes words through [`Word`]'s methods:
//!
//! | bits | undecided | decided |
//! | --- | --- | --- |
//! | 31 | 0 | 1 |
//! | 30 | 0 | the decided value (a `bool` whose meaning is the rule's) |
//! | 0..30 | successors not yet decided the "wrong" way (the counter) | distance: 0 for a seed, else 1 + the distance of the successor that decided it |
//!
//! [`Word::EXCLUDED`] (all bits set) is a decided word that is never queued: the vertex is
//! outside the subgame being solved, and the engine skips it.
//!
//! [`Word::UNCOUNTED`] (the counter bits all set) is an undecided word whose counter is not
//! known yet. Only a [`Rule`] with [`LAZY`](Rule::LAZY) or [`SCAN`](Rule::SCAN) set may leave
//! it in the state: on the vertex's first touch the engine asks the rule whether it is
//! [`inside`](Rule::inside) the game ([`Word::EXCLUDED`] if not) and, unless the touch decides
//! it, to [`count`](Rule::count) its successors inside. A solver that computes many
//! attractors on ever-changing subgames (Zielonka's algorithm) then pays for the vertices an
//! attractor touches, not for the whole subgame it lies in.
//!
//! # Rules and sinks
//!
//! A [`Rule`] only reads: it is shared (`&R`, and `Sync` wherever its data is), and one rule
//! may serve several propagations at once. What a propagation writes besides the state and
//! the queue goes to a [`Record`] sink the caller passes by `&mut`: the move that decided
//! each vertex (for strategies), and for scanning rules the vertices left holding a scan
//! position. `()` records nothing, and a sink whose [`RECORDS`](Record::RECORDS) is unset
//! costs the loop nothing.

use rayon::prelude::*;

use crate::explore::{Control, Csr, Offset};
use crate::Error;

/// Set in the state word of a decided vertex.
const DECIDED: u32 = 1 << 31;
/// The value bit of a decided vertex.
const VALUE: u32 = 1 << 30;
/// The counter or distance bits.
const LOW: u32 = VALUE - 1;
/// The largest distance the engine can record, and the largest counter.
const MAX_DISTANCE: u32 = LOW - 1;

/// The engine's state of one vertex: undecided with a counter, undecided and not yet
/// counted ([`UNCOUNTED`](Word::UNCOUNTED)), decided with a value and a distance, or outside
/// the game ([`EXCLUDED`](Word::EXCLUDED)). Four bytes, a `u32` at run time (see the
/// [module docs](self) for the encoding).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Word(u32);

impl Word {
    /// A vertex outside the game being solved: never queued, never changed by the engine.
    /// Not [`open`](Word::is_open), and not [`decided`](Word::is_decided) either.
    pub const EXCLUDED: Word = Word(DECIDED | VALUE | LOW);

    /// An undecided vertex whose counter is computed on its first touch by [`Rule::count`]
    /// (never a counter: counters are at most 2^30 - 2). Open, with no [`counter`](Word::counter).
    pub const UNCOUNTED: Word = Word(LOW);

    /// The largest distance a decided word holds (2^30 - 2).
    pub const MAX_DISTANCE: u32 = MAX_DISTANCE;

    /// The word of a vertex decided with `value` at `distance` (at most 2^30 - 2).
    #[inline]
    #[must_use]
    pub const fn decided(value: bool, distance: u32) -> Word {
        debug_assert!(distance <= MAX_DISTANCE);
        Word(DECIDED | if value { VALUE } else { 0 } | distance)
    }

    /// The word of an undecided vertex waiting for `count` successors.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `count` does not fit in 30 bits (2^30 - 2 at most).
    #[inline]
    pub fn undecided(count: u64) -> Result<Word, Error> {
        if count > u64::from(MAX_DISTANCE) {
            return Err(Error::TooLarge {
                what: format!("a vertex with {count} moves"),
                need: None,
            });
        }
        Ok(Word(count as u32))
    }

    /// The word of an undecided vertex holding `count`, saturated at the largest counter:
    /// for counts known to fit (a subgame's degree never exceeds its arena's, which the
    /// parsers check), and for the positions a [`SCAN`](Rule::SCAN) rule stores.
    #[inline]
    #[must_use]
    pub const fn counting(count: u64) -> Word {
        Word(if count > MAX_DISTANCE as u64 {
            MAX_DISTANCE
        } else {
            count as u32
        })
    }

    /// Whether the vertex is undecided (counted or [`UNCOUNTED`](Word::UNCOUNTED)): neither
    /// decided nor [`EXCLUDED`](Word::EXCLUDED).
    #[inline]
    #[must_use]
    pub const fn is_open(self) -> bool {
        self.0 & DECIDED == 0
    }

    /// Whether the word is [`EXCLUDED`](Word::EXCLUDED).
    #[inline]
    #[must_use]
    pub const fn is_excluded(self) -> bool {
        self.0 == Word::EXCLUDED.0
    }

    /// Whether the vertex is decided (with a value and a distance; not
    /// [`EXCLUDED`](Word::EXCLUDED)).
    #[inline]
    #[must_use]
    pub const fn is_decided(self) -> bool {
        !self.is_open() && !self.is_excluded()
    }

    /// `Some((value, distance))` for a decided vertex (not [`EXCLUDED`](Word::EXCLUDED)),
    /// `None` otherwise.
    #[inline]
    #[must_use]
    pub const fn read(self) -> Option<(bool, u32)> {
        if self.is_decided() {
            Some((self.0 & VALUE != 0, self.0 & LOW))
        } else {
            None
        }
    }

    /// The number an undecided, counted word holds: its counter (or, under a
    /// [`SCAN`](Rule::SCAN) rule, what [`Rule::escape`] stored). `None` for
    /// [`UNCOUNTED`](Word::UNCOUNTED), decided and [`EXCLUDED`](Word::EXCLUDED) words.
    #[inline]
    #[must_use]
    pub const fn counter(self) -> Option<u32> {
        if self.0 < LOW {
            Some(self.0)
        } else {
            None
        }
    }
}

impl std::fmt::Debug for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.read(), self.counter()) {
            (Some((value, distance)), _) => write!(f, "decided({value}, {distance})"),
            (None, Some(count)) => write!(f, "open({count})"),
            _ if self.is_excluded() => f.write_str("excluded"),
            _ => f.write_str("uncounted"),
        }
    }
}

/// Where a propagation writes what it records besides the state and the queue. The caller
/// owns it and passes it by `&mut`, so a [`Rule`] stays read-only (and `Sync`).
pub trait Record {
    /// Whether [`record`](Record::record) is called. A constant, so that propagations that
    /// do not record pay nothing.
    const RECORDS: bool = false;

    /// `vertex` was just decided by [`Rule::on_successor`] because of its successor `by`
    /// (popped before it, so at a smaller distance): the move that decides it, for sinks
    /// that keep strategies. Only called when [`RECORDS`](Record::RECORDS) is set.
    #[inline(always)]
    fn record(&mut self, _vertex: u32, _by: u32) {}

    /// For [`SCAN`](Rule::SCAN) rules: [`Rule::escape`] just stored a word other than
    /// [`Word::UNCOUNTED`] for `vertex`, which held [`Word::UNCOUNTED`] (so once per vertex
    /// and propagation). After the propagation these vertices and the queued ones are all
    /// that differ from [`Word::UNCOUNTED`]: a sink that lists them lets the caller reset the
    /// state without walking the edges again.
    #[inline(always)]
    fn kept(&mut self, _vertex: u32) {}
}

/// Records nothing.
impl Record for () {}

/// Records each move in a strategy table: `moves[vertex] = by`.
#[derive(Debug)]
pub struct Moves<'a>(pub &'a mut [u32]);

impl Record for Moves<'_> {
    const RECORDS: bool = true;

    #[inline(always)]
    fn record(&mut self, vertex: u32, by: u32) {
        self.0[vertex as usize] = by;
    }
}

/// How a vertex is decided from its successors. A rule only reads (`&self`): what a
/// propagation records goes to its [`Record`] sink.
pub trait Rule {
    /// Whether the state may hold [`Word::UNCOUNTED`] words, opened on first touch: by
    /// [`inside`](Rule::inside), then [`count`](Rule::count) if the vertex is not decided by
    /// the touch itself. A constant, so that eager rules pay nothing for the check.
    const LAZY: bool = false;

    /// Whether the [`Word::UNCOUNTED`] `vertex` is in the game; if not, it becomes
    /// [`Word::EXCLUDED`]. Only called when [`LAZY`](Rule::LAZY) or [`SCAN`](Rule::SCAN) is
    /// set.
    #[inline(always)]
    fn inside(&self, _vertex: u32) -> bool {
        true
    }

    /// The counter of a [`Word::UNCOUNTED`] `vertex` inside the game that its first touch did
    /// not decide: its successors inside the game, counting the one that touches it and every
    /// other successor decided but not yet popped (each is counted off when popped); saturated
    /// at the largest counter. Only called when [`LAZY`](Rule::LAZY) is set.
    #[inline(always)]
    fn count(&self, _vertex: u32) -> u32 {
        1
    }

    /// Whether undecided vertices are judged by a scan for an escape instead of a counter:
    /// on each touch that does not decide it, the engine asks [`escape`](Rule::escape)
    /// whether `vertex` still has a successor inside the game and undecided. The state of an
    /// untouched vertex is [`Word::UNCOUNTED`]; [`inside`](Rule::inside) is asked while it is,
    /// and a vertex outside is skipped but never marked. What an attractor then leaves behind
    /// is its queue and whatever words `escape` chose to store (each reported to the sink's
    /// [`kept`](Record::kept)), so the caller can reset the state without walking the edges
    /// again, and nothing is counted up front.
    ///
    /// Distances are then not exact ranks: a vertex decided by "all" may be decided while
    /// some of its successors are decided but not yet popped. Every successor it needs is
    /// decided before it, so the order of decisions stays a valid ranking (what strategies
    /// built from [`Record::record`] need).
    const SCAN: bool = false;

    /// For [`SCAN`](Rule::SCAN) rules: whether `vertex` (inside, undecided, not decided by
    /// this touch) has an escape left. `word` is its state: [`Word::UNCOUNTED`], or what the
    /// last call returned. `None` if it has no escape, else the word to store:
    /// [`Word::UNCOUNTED`] to start afresh next time, or an open [`Word::counting`] (a
    /// position to resume a scan from, say: successors decided stay decided during a
    /// propagation). `state` is the engine's: a successor whose word is not
    /// [`open`](Word::is_open) is no escape.
    #[inline(always)]
    fn escape(&self, _vertex: u32, _word: Word, _state: &[Word]) -> Option<Word> {
        None
    }

    /// Undecided `vertex` has a successor just decided with `value`. Return `Some(v)` to
    /// decide `vertex` now with value `v` (one successor suffices: "any"), or `None` to
    /// count this successor off and wait for the rest.
    fn on_successor(&self, vertex: u32, value: bool) -> Option<bool>;

    /// The value of `vertex` once every successor has been counted off ("all").
    fn on_all(&self, vertex: u32) -> bool;
}

/// The labelling rule of normal play: value `true` = win for the player to move. A
/// successor lost by the player then to move makes the vertex won; a vertex all of whose
/// successors are won is lost.
#[derive(Debug, Clone, Copy, Default)]
pub struct Labelling;

impl Rule for Labelling {
    #[inline(always)]
    fn on_successor(&self, _vertex: u32, value: bool) -> Option<bool> {
        if value {
            None
        } else {
            Some(true)
        }
    }

    #[inline(always)]
    fn on_all(&self, _vertex: u32) -> bool {
        false
    }
}

/// The rule of Kahn's algorithm: a vertex is decided once all its successors are. The
/// decision order is then a reverse topological order; vertices left undecided lie on
/// or lead to cycles.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllSuccessors;

impl Rule for AllSuccessors {
    #[inline(always)]
    fn on_successor(&self, _vertex: u32, _value: bool) -> Option<bool> {
        None
    }

    #[inline(always)]
    fn on_all(&self, _vertex: u32) -> bool {
        true
    }
}

/// The attractor rule for a player: `owner[v]` is 0 or 1; a vertex of `player` needs one
/// successor in the attractor, a vertex of the opponent needs all. Every decided value is
/// `true` (in the attractor); the distance is the attractor rank.
#[derive(Debug, Clone, Copy)]
pub struct Attractor<'a> {
    /// The owner (0 or 1) of each vertex.
    pub owner: &'a [u8],
    /// The player attracting.
    pub player: u8,
}

impl Rule for Attractor<'_> {
    #[inline(always)]
    fn on_successor(&self, vertex: u32, _value: bool) -> Option<bool> {
        (self.owner[vertex as usize] == self.player).then_some(true)
    }

    #[inline(always)]
    fn on_all(&self, _vertex: u32) -> bool {
        true
    }
}

/// Runs the engine: pops `queue[head..]` in order (a FIFO, so distances come out
/// non-decreasing), and decides predecessors by `rule`, pushing each newly decided vertex
/// to `queue`. The caller seeds `state` and `queue`: seeds are decided words in the queue;
/// undecided words hold the number of successors inside the game (or
/// [`Word::UNCOUNTED`], for a lazy or scanning rule); [`Word::EXCLUDED`] marks vertices
/// outside it. What the propagation records (the moves that decide vertices, the vertices a
/// scan left holding a position) goes to `sink`; pass `&mut ()` to record nothing.
///
/// Because the queue is FIFO, a vertex decided by "any" gets the least distance over its
/// deciding successors, and one decided by "all" the greatest: the winner hurries, the
/// loser delays.
///
/// # Complexity
/// O(V + E): each decided vertex is popped once and each of its reverse edges read once.
/// More precisely O(queued vertices + their reverse edges), so a call on a small subgame
/// of a large graph costs only the subgame. No allocation while the queue's capacity
/// lasts (reserve `V` and it never reallocates).
///
/// # Errors
/// [`Error::TooLarge`] if a distance would exceed 2^30 - 2; the queue then holds what was
/// decided so far.
pub fn propagate<R: Rule, S: Record, O: Offset>(
    reverse: &Csr<O>,
    state: &mut [Word],
    queue: &mut Vec<u32>,
    mut head: usize,
    rule: &R,
    sink: &mut S,
) -> Result<(), Error> {
    debug_assert_eq!(reverse.len(), state.len());
    let offsets = reverse.offsets();
    let targets = reverse.targets();
    // The inner loop writes into `queue` as a slice with spare slots at `tail..` rather
    // than calling `Vec::push`: with no growth call inside it, the loop's pointers stay
    // in registers instead of being spilled around the call, and it stays short (each
    // extra instruction per edge means fewer loads in flight): 15–20% faster on
    // `multiple[2](1000)` in `benches/labelling.rs`. When the slots run out, the vertex
    // being decided waits in `pending` while the queue grows, then the loop resumes at
    // the next edge. `queue[tail..]` is truncated away at the end.
    let mut tail = queue.len();
    let mut result = Ok(());
    while head < tail {
        let u = queue[head] as usize;
        head += 1;
        let Word(word) = state[u];
        debug_assert!(word & DECIDED != 0 && word != Word::EXCLUDED.0);
        let value = word & VALUE != 0;
        let distance = (word & LOW) + 1;
        if distance > MAX_DISTANCE {
            result = Err(Error::TooLarge {
                what: "a game longer than 2^30 moves".into(),
                need: None,
            });
            break;
        }
        let mut edges = targets[offsets[u].index()..offsets[u + 1].index()].iter();
        // Bounds how many vertices `u` can decide; `edges.len()` later would cost the loop
        // a counter.
        let degree = edges.len();
        loop {
            let slots = queue.as_mut_slice();
            let mut pending = None;
            for &p in &mut edges {
                let mut current = state[p as usize];
                if !current.is_open() {
                    continue;
                }
                let fresh = (R::LAZY || R::SCAN) && current == Word::UNCOUNTED;
                if fresh && !rule.inside(p) {
                    if !R::SCAN {
                        state[p as usize] = Word::EXCLUDED;
                    }
                    continue;
                }
                let word = if let Some(v) = rule.on_successor(p, value) {
                    if S::RECORDS {
                        sink.record(p, u as u32);
                    }
                    Word::decided(v, distance)
                } else if R::SCAN {
                    match rule.escape(p, current, state) {
                        None => Word::decided(rule.on_all(p), distance),
                        Some(word) => {
                            debug_assert!(word.is_open());
                            if fresh && word != Word::UNCOUNTED {
                                sink.kept(p);
                            }
                            state[p as usize] = word;
                            continue;
                        }
                    }
                } else {
                    if fresh {
                        // Counted only now: a vertex its first touch decides is never counted.
                        current = Word::counting(u64::from(rule.count(p)));
                    }
                    if current.0 <= 1 {
                        Word::decided(rule.on_all(p), distance)
                    } else {
                        state[p as usize] = Word(current.0 - 1);
                        continue;
                    }
                };
                let Some(free) = slots.get_mut(tail) else {
                    pending = Some((p, word));
                    break;
                };
                *free = p;
                tail += 1;
                state[p as usize] = word;
            }
            let Some((p, word)) = pending else {
                break;
            };
            grow(queue, tail, degree);
            queue[tail] = p;
            tail += 1;
            state[p as usize] = word;
        }
    }
    queue.truncate(tail);
    result
}

/// How many ranges a parallel pass that owns its writes by range ([`propagate_levels`],
/// the tier solver's reverse build) cuts `n` items into: two for each thread of the pool,
/// so that a thread held up (a busy machine) leaves ranges to steal, but at most
/// [`MAX_OWNED_RANGES`]. Each range's task reads every edge of the pass and keeps its own,
/// so the reads grow with the ranges: past four threads, such a pass runs on eight tasks
/// rather than reading every edge once a thread.
#[must_use]
pub(crate) fn owned_ranges(n: usize) -> usize {
    (rayon::current_num_threads() * 2)
        .min(MAX_OWNED_RANGES)
        .clamp(1, n.max(1))
}

/// The most ranges [`owned_ranges`] gives: each reads all of a pass's edges.
pub(crate) const MAX_OWNED_RANGES: usize = 8;

/// The vertices of one part of [`propagate_levels`] decided in one level: those won (by the
/// rule's value bit) from the front of `held`, those lost from the back. Each vertex is
/// decided once, so a part's vertex count is room enough for all its levels' lists.
struct Found {
    held: Vec<u32>,
    won: usize,
    lost: usize,
}

impl Found {
    fn new(room: usize) -> Result<Found, Error> {
        Ok(Found {
            held: crate::memory::filled(room, 0u32, "a frontier of the retrograde engine")?,
            won: 0,
            lost: 0,
        })
    }

    #[inline]
    fn push(&mut self, v: u32, won: bool) {
        debug_assert!(self.won + self.lost < self.held.len());
        if won {
            self.held[self.won] = v;
            self.won += 1;
        } else {
            self.lost += 1;
            let at = self.held.len() - self.lost;
            self.held[at] = v;
        }
    }

    fn won(&self) -> &[u32] {
        &self.held[..self.won]
    }

    fn lost(&self) -> &[u32] {
        &self.held[self.held.len() - self.lost..]
    }

    fn clear(&mut self) {
        self.won = 0;
        self.lost = 0;
    }
}

/// [`propagate`] on every thread of the current rayon pool, level by level: the vertices
/// decided at distance `d` (the frontier) decide their predecessors at `d + 1`. The
/// vertices are cut into ranges ([`owned_ranges`]); each range's task walks the whole frontier's
/// reverse edges and updates the words of the predecessors in its own range only, so no word
/// is shared between tasks and none needs an atomic operation: every level, a task reads
/// the frontier lists of every range and writes its own range's words and next list.
///
/// The result is [`propagate`]'s when every seed has the same distance and, for each vertex,
/// [`Rule::on_successor`] decides it with one value only (true of [`Labelling`],
/// [`AllSuccessors`] and [`Attractor`]): [`propagate`]'s FIFO also takes every vertex of
/// distance `d` before any of `d + 1`; a vertex decided by "any" is then decided in the
/// first level holding a deciding successor, whatever the order inside it, and one decided
/// by "all" in the level of its last successor counted off (a deciding successor is never
/// counted off, so the counter cannot reach zero before it is seen). Only the order of
/// `queue`'s vertices inside a level differs, and none is returned. A seed at a greater
/// distance than the least joins the frontier of its own distance.
///
/// `state` is seeded as for [`propagate`] (lazy and scanning rules are not taken, and
/// nothing is recorded); `seeds` are its decided vertices to start from (others are
/// skipped). Returns the state.
///
/// # Complexity
/// O(V + E) updates, as [`propagate`], plus, for each range, a read of every frontier
/// vertex's reverse edges (at most [`MAX_OWNED_RANGES`] times E in sequential reads, no atomic operation). Memory:
/// the state and two frontiers of 4 bytes a vertex.
///
/// # Errors
/// [`Error::TooLarge`] if a distance would exceed 2^30 - 2 or the frontiers cannot be had;
/// [`Error::Cancelled`], checked between levels.
pub fn propagate_levels<R: Rule + Sync>(
    reverse: &Csr,
    mut state: Vec<Word>,
    seeds: Vec<u32>,
    rule: &R,
    control: &Control<'_>,
) -> Result<Vec<Word>, Error> {
    const {
        assert!(
            !R::LAZY && !R::SCAN,
            "lazy and scanning rules are sequential"
        )
    };
    debug_assert_eq!(reverse.len(), state.len());
    let n = state.len();
    let offsets = reverse.offsets();
    let targets = reverse.targets();
    let edges_of =
        |u: u32| &targets[offsets[u as usize] as usize..offsets[u as usize + 1] as usize];
    // The ranges: `parts` of about the same number of vertices.
    let parts = owned_ranges(n);
    let bounds: Vec<usize> = (0..=parts).map(|k| k * n / parts).collect();
    let part_of = |v: u32| bounds.partition_point(|&b| b <= v as usize) - 1;
    // The seeds by distance, least first; those not decided are skipped.
    let mut seeds: Vec<(u32, u32)> = seeds
        .into_iter()
        .filter_map(|v| state.get(v as usize)?.read().map(|(_, d)| (d, v)))
        .collect();
    seeds.sort_unstable();
    seeds.dedup();
    let mut current = Vec::with_capacity(parts);
    let mut next = Vec::with_capacity(parts);
    for k in 0..parts {
        current.push(Found::new(bounds[k + 1] - bounds[k])?);
        next.push(Found::new(bounds[k + 1] - bounds[k])?);
    }
    let mut waiting = seeds.iter().peekable();
    let mut distance = seeds.first().map_or(0, |&(d, _)| d);
    loop {
        // The seeds of this level join the frontier.
        while let Some(&&(d, v)) = waiting.peek() {
            if d != distance {
                break;
            }
            let (won, _) = state[v as usize].read().expect("a seed is decided");
            current[part_of(v)].push(v, won);
            waiting.next();
        }
        if current.iter().all(|f| f.won + f.lost == 0) {
            match waiting.peek() {
                Some(&&(d, _)) => {
                    distance = d;
                    continue;
                }
                None => break,
            }
        }
        control.check()?;
        let decided = distance + 1;
        if decided > MAX_DISTANCE {
            return Err(Error::TooLarge {
                what: "a game longer than 2^30 moves".into(),
                need: None,
            });
        }
        let frontier = &current;
        // Each range's words and next list, to its own task.
        let mut words = Vec::with_capacity(parts);
        let mut rest = &mut state[..];
        for k in 0..parts {
            let (head, tail) = rest.split_at_mut(bounds[k + 1] - bounds[k]);
            words.push((bounds[k], head));
            rest = tail;
        }
        words
            .into_par_iter()
            .zip(next.par_iter_mut())
            .with_max_len(1)
            .for_each(|((low, words), out)| {
                let len = words.len();
                for found in frontier {
                    for (list, value) in [(found.won(), true), (found.lost(), false)] {
                        for &u in list {
                            for &p in edges_of(u) {
                                let i = (p as usize).wrapping_sub(low);
                                if i >= len {
                                    continue;
                                }
                                let word = words[i].0;
                                if word & DECIDED != 0 {
                                    continue;
                                }
                                let word = match rule.on_successor(p, value) {
                                    Some(v) => Word::decided(v, decided),
                                    None if word <= 1 => Word::decided(rule.on_all(p), decided),
                                    None => {
                                        words[i] = Word(word - 1);
                                        continue;
                                    }
                                };
                                words[i] = word;
                                out.push(p, word.0 & VALUE != 0);
                            }
                        }
                    }
                }
            });
        std::mem::swap(&mut current, &mut next);
        for found in &mut next {
            found.clear();
        }
        distance = decided;
    }
    Ok(state)
}

/// Adds spare slots to a queue whose `tail` slots are all used: room for the `need` more
/// vertices the current vertex may decide (at least 64), but not past the queue's
/// capacity while that lasts, so a reserved queue never reallocates. Zeroing at most
/// `need + 64` slots at a time, and at most twice per popped vertex, keeps each call to
/// [`propagate`] within O(its own work), however many calls a caller makes.
#[cold]
#[inline(never)]
fn grow(queue: &mut Vec<u32>, tail: usize, need: usize) {
    debug_assert_eq!(queue.len(), tail);
    let want = tail.saturating_add(need.max(64));
    let len = if queue.capacity() > tail {
        want.min(queue.capacity())
    } else {
        want
    };
    queue.resize(len, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn word_round_trips() {
        assert_eq!(Word::decided(true, 7).read(), Some((true, 7)));
        assert_eq!(Word::decided(false, 0).read(), Some((false, 0)));
        assert_eq!(Word::EXCLUDED.read(), None);
        assert_eq!(Word::undecided(5).unwrap().read(), None);
        assert_eq!(Word::undecided(5).unwrap().counter(), Some(5));
        assert!(Word::undecided(1 << 31).is_err());
        assert!(Word::undecided(u64::from(MAX_DISTANCE)).is_ok());
        assert_eq!(Word::counting(1 << 40).counter(), Some(MAX_DISTANCE));
        for word in [Word::EXCLUDED, Word::UNCOUNTED, Word::decided(true, 3)] {
            assert_eq!(word.counter(), None);
        }
        assert!(Word::UNCOUNTED.is_open() && Word::counting(0).is_open());
        assert!(!Word::EXCLUDED.is_open() && !Word::EXCLUDED.is_decided());
        assert!(Word::decided(false, MAX_DISTANCE).is_decided());
        assert!(!Word::decided(true, 0).is_open());
        assert_eq!(
            format!(
                "{:?}",
                [Word::decided(true, 2), Word::counting(3), Word::UNCOUNTED]
            ),
            "[decided(true, 2), open(3), uncounted]"
        );
        assert_eq!(std::mem::size_of::<Word>(), 4);
    }

    /// Rules only read (what a propagation records goes to its sink), so one rule can be
    /// shared between threads.
    #[test]
    fn rules_are_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Word>();
        shareable::<Labelling>();
        shareable::<AllSuccessors>();
        shareable::<Attractor<'static>>();
        shareable::<Lazy<'static>>();
    }

    #[test]
    fn kahn_orders_a_dag_and_leaves_cycles() {
        // 0 → 1 → 2, and 3 ⇄ 4 → 2
        let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (4, 2)]);
        let r = g.reverse();
        let mut state: Vec<Word> = (0..5)
            .map(|v| Word::undecided(g.degree(v)).unwrap())
            .collect();
        let mut queue = vec![2];
        state[2] = Word::decided(true, 0);
        propagate(&r, &mut state, &mut queue, 0, &AllSuccessors, &mut ()).unwrap();
        assert_eq!(queue, vec![2, 1, 0]);
        assert_eq!(state[3].read(), None);
        assert_eq!(state[0].read(), Some((true, 2)));
    }

    #[test]
    fn a_full_queue_grows_in_the_middle_of_a_vertex() {
        // 0 is lost; 1..=300 each move to 0 and to 301; 301 moves to 0. The queue starts
        // with no spare capacity, so it must grow while 0's predecessors are decided.
        let mut edges: Vec<(u32, u32)> = (1..=300).flat_map(|v| [(v, 0), (v, 301)]).collect();
        edges.push((301, 0));
        let g = Csr::from_edges(302, &edges);
        let r = g.reverse();
        let mut state: Vec<Word> = (0..302)
            .map(|v| Word::undecided(g.degree(v)).unwrap())
            .collect();
        state[0] = Word::decided(false, 0);
        let mut queue = vec![0];
        queue.shrink_to_fit();
        propagate(&r, &mut state, &mut queue, 0, &Labelling, &mut ()).unwrap();
        assert_eq!(queue, (0..302).collect::<Vec<u32>>());
        assert!((1..302).all(|v| state[v].read() == Some((true, 1))));
    }

    #[test]
    fn attractor_any_for_owner_all_for_opponent() {
        // target 0; 1 (player 0) → 0, 2; 2 (player 1) → 0, 3; 3 (player 1) → 3
        let g = Csr::from_edges(4, &[(1, 0), (1, 2), (2, 0), (2, 3), (3, 3)]);
        let r = g.reverse();
        let owner = [0u8, 0, 1, 1];
        let mut state: Vec<Word> = (0..4)
            .map(|v| Word::undecided(g.degree(v)).unwrap())
            .collect();
        state[0] = Word::decided(true, 0);
        let mut queue = vec![0];
        let rule = Attractor {
            owner: &owner,
            player: 0,
        };
        propagate(&r, &mut state, &mut queue, 0, &rule, &mut ()).unwrap();
        assert_eq!(state[1].read(), Some((true, 1)));
        assert_eq!(state[2].read(), None, "player 1 escapes to 3");
        assert_eq!(state[3].read(), None);
    }

    /// The attractor rule, counted lazily, inside a subset (its moves recorded by the
    /// sink).
    struct Lazy<'a> {
        graph: &'a Csr,
        owner: &'a [u8],
        inside: &'a [bool],
        /// How often `count` was called (atomic, so the rule stays `Sync`).
        counted: AtomicU32,
    }

    impl Rule for Lazy<'_> {
        const LAZY: bool = true;
        fn inside(&self, v: u32) -> bool {
            self.inside[v as usize]
        }
        fn count(&self, v: u32) -> u32 {
            self.counted.fetch_add(1, Ordering::Relaxed);
            self.graph
                .successors(v)
                .iter()
                .filter(|&&w| self.inside[w as usize])
                .count() as u32
        }
        fn on_successor(&self, v: u32, _value: bool) -> Option<bool> {
            (self.owner[v as usize] == 0).then_some(true)
        }
        fn on_all(&self, _v: u32) -> bool {
            true
        }
    }

    #[test]
    fn lazy_counting_and_recorded_moves_match_the_eager_attractor() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = move |m: u64| rng.below(m);
        for _ in 0..400 {
            let n = 1 + next(12) as u32;
            let edges: Vec<(u32, u32)> = (0..n)
                .flat_map(|u| {
                    let k = next(4);
                    (0..k)
                        .map(|_| (u, next(u64::from(n)) as u32))
                        .collect::<Vec<_>>()
                })
                .collect();
            let g = Csr::from_edges(n as usize, &edges);
            let r = g.reverse();
            let owner: Vec<u8> = (0..n).map(|_| next(2) as u8).collect();
            let inside: Vec<bool> = (0..n).map(|_| next(4) != 0).collect();
            let targets: Vec<u32> = (0..n)
                .filter(|&v| inside[v as usize] && next(3) == 0)
                .collect();
            // Eager: counters of successors inside, outsiders excluded.
            let mut eager: Vec<Word> = (0..n)
                .map(|v| {
                    if inside[v as usize] {
                        Word::counting(
                            g.successors(v)
                                .iter()
                                .filter(|&&w| inside[w as usize])
                                .count() as u64,
                        )
                    } else {
                        Word::EXCLUDED
                    }
                })
                .collect();
            let mut lazy = vec![Word::UNCOUNTED; n as usize];
            for &t in &targets {
                eager[t as usize] = Word::decided(true, 0);
                lazy[t as usize] = Word::decided(true, 0);
            }
            let mut q1 = targets.clone();
            let rule = Attractor {
                owner: &owner,
                player: 0,
            };
            propagate(&r, &mut eager, &mut q1, 0, &rule, &mut ()).unwrap();
            let mut moves = vec![u32::MAX; n as usize];
            let mut q2 = targets.clone();
            let lazy_rule = Lazy {
                graph: &g,
                owner: &owner,
                inside: &inside,
                counted: AtomicU32::new(0),
            };
            propagate(
                &r,
                &mut lazy,
                &mut q2,
                0,
                &lazy_rule,
                &mut Moves(&mut moves),
            )
            .unwrap();
            let read_all = |s: &[Word]| s.iter().map(|w| w.read()).collect::<Vec<_>>();
            assert_eq!(read_all(&eager), read_all(&lazy), "{edges:?} {inside:?}");
            assert_eq!(q1, q2);
            for &v in &q2 {
                let (_, d) = lazy[v as usize].read().unwrap();
                let m = moves[v as usize];
                if d > 0 && owner[v as usize] == 0 {
                    // The recorded move is an edge to a vertex decided one step earlier.
                    assert!(g.successors(v).contains(&m));
                    assert_eq!(lazy[m as usize].read().map(|(_, dm)| dm + 1), Some(d));
                } else {
                    assert_eq!(
                        m,
                        u32::MAX,
                        "only moves of the attracting player are recorded"
                    );
                }
            }
            // Vertices decided by their first touch (the attracting player's) are never
            // counted: at most the opponent's vertices inside are.
            let opponents = (0..n as usize)
                .filter(|&v| inside[v] && owner[v] == 1)
                .count();
            assert!(lazy_rule.counted.into_inner() as usize <= opponents);
        }
    }

    /// A random graph with cycles (self-loops and repeated moves too), its vertices
    /// undecided, seeded (at distance 0, either value) or excluded, and owners for the
    /// attractor.
    fn seeded() -> impl Strategy<Value = (Csr, Vec<Word>, Vec<u32>, Vec<u8>)> {
        (1usize..40).prop_flat_map(|n| {
            (
                proptest::collection::vec((0..n as u32, 0..n as u32), 0..4 * n),
                proptest::collection::vec(0u8..8, n),
                proptest::collection::vec(0u8..2, n),
            )
                .prop_map(move |(edges, kinds, owner)| {
                    let g = Csr::from_edges(n, &edges);
                    let mut seeds = Vec::new();
                    let state = (0..n as u32)
                        .map(|v| match kinds[v as usize] {
                            0 | 1 => {
                                seeds.push(v);
                                Word::decided(kinds[v as usize] == 1, 0)
                            }
                            2 => Word::EXCLUDED,
                            _ if g.degree(v) == 0 => {
                                seeds.push(v);
                                Word::decided(false, 0)
                            }
                            _ => Word::undecided(g.degree(v)).unwrap(),
                        })
                        .collect();
                    (g, state, seeds, owner)
                })
        })
    }

    /// Both engines on `rule`, the parallel one on four threads.
    fn both<R: Rule + Sync>(
        g: &Csr,
        state: &[Word],
        seeds: &[u32],
        rule: &R,
    ) -> (Vec<Word>, Vec<Word>) {
        let r = g.reverse();
        let mut want = state.to_vec();
        let mut queue = seeds.to_vec();
        propagate(&r, &mut want, &mut queue, 0, rule, &mut ()).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let got = pool
            .install(|| {
                propagate_levels(
                    &r,
                    state.to_vec(),
                    seeds.to_vec(),
                    rule,
                    &Control::default(),
                )
            })
            .unwrap();
        (want, got)
    }

    proptest::proptest! {
        /// The parallel engine decides what the FIFO engine decides, with the same values
        /// and distances, and leaves the same counters on what it does not decide.
        #[test]
        fn levels_agree_with_the_fifo((g, state, seeds, owner) in seeded()) {
            let (want, got) = both(&g, &state, &seeds, &Labelling);
            proptest::prop_assert_eq!(want, got);
            let (want, got) = both(&g, &state, &seeds, &AllSuccessors);
            proptest::prop_assert_eq!(want, got);
            for player in 0..2 {
                let rule = Attractor { owner: &owner, player };
                let (want, got) = both(&g, &state, &seeds, &rule);
                proptest::prop_assert_eq!(want, got);
            }
        }
    }

    #[test]
    fn levels_split_a_vertex_with_many_predecessors() {
        // 0 is lost; 1..=n each move to 0 and to n + 1, which moves to 0 and to 1..=n/2;
        // n/2 + 1..=n also move to n + 2, which moves to itself (a draw).
        let n = 3 << 12;
        let mut edges: Vec<(u32, u32)> = (1..=n).flat_map(|v| [(v, 0), (v, n + 1)]).collect();
        edges.extend((0..=n / 2).map(|v| (n + 1, v)));
        edges.extend((n / 2 + 1..=n).map(|v| (v, n + 2)));
        edges.push((n + 2, n + 2));
        let g = Csr::from_edges(n as usize + 3, &edges);
        let mut state: Vec<Word> = (0..=n + 2)
            .map(|v| Word::undecided(g.degree(v)).unwrap())
            .collect();
        state[0] = Word::decided(false, 0);
        let (want, got) = both(&g, &state, &[0], &Labelling);
        assert_eq!(want, got);
        assert_eq!(got[n as usize + 1].read(), Some((true, 1)));
        assert_eq!(got[n as usize].read(), Some((true, 1)));
        assert_eq!(got[n as usize + 2].read(), None, "a draw");
        let (want, got) = both(&g, &state, &[0], &AllSuccessors);
        assert_eq!(want, got);
    }

    #[test]
    fn levels_stop_when_cancelled() {
        let g = Csr::from_edges(3, &[(1, 0), (2, 1)]);
        let mut state: Vec<Word> = (0..3)
            .map(|v| Word::undecided(g.degree(v)).unwrap())
            .collect();
        state[0] = Word::decided(false, 0);
        let cancel = std::sync::atomic::AtomicBool::new(true);
        let got = propagate_levels(
            &g.reverse(),
            state,
            vec![0],
            &Labelling,
            &Control::cancelled_by(&cancel),
        );
        assert!(matches!(got, Err(Error::Cancelled)));
    }
}
