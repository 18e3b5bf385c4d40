//! Attractors on subgames of an arena — the retrograde engine (`engine::propagate` with the
//! `Attractor` rule, or a lazy attractor rule where vertices are counted on first touch), with
//! caller-owned scratch so that solvers that compute thousands of attractors (Zielonka, tangle
//! learning, Büchi) allocate nothing per call.
//!
//! A subgame is a set of vertices given by a membership mask; vertices outside it are
//! `Word::EXCLUDED` for the engine and never looked at, so an attractor costs O(size of the
//! subgame + its edges), not O(arena).

use super::arena::Arena;
use crate::engine::{self, Attractor, Record, Rule, Word};

/// The player other than `p` (players are 0 and 1).
#[inline]
#[must_use]
pub fn opponent(p: u8) -> u8 {
    1 - p
}

/// Scratch for attractor computations on one arena: one state word per vertex (kept at
/// `Word::EXCLUDED` between calls) and a queue.
#[derive(Debug, Clone)]
pub struct Attractors {
    state: Vec<Word>,
    queue: Vec<u32>,
}

/// An attractor: its vertices in the order they joined (targets first), and for the
/// attracting player's vertices that joined by a move, the move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attracted {
    /// The attractor's vertices, targets first, then by rank.
    pub vertices: Vec<u32>,
    /// `(v, w)`: the attracting player's vertex `v` (not a target) moves to `w`, which
    /// joined earlier: following these moves reaches a target.
    pub strategy: Vec<(u32, u32)>,
}

impl Attractors {
    /// Scratch for `arena`.
    #[must_use]
    pub fn new(arena: &Arena) -> Attractors {
        Attractors {
            state: vec![Word::EXCLUDED; arena.len()],
            queue: Vec::new(),
        }
    }

    /// The attractor of `target` for `player` within the subgame `members` (a list of its
    /// vertices) whose membership mask is `in_game`: every vertex from which `player`
    /// can force the play into `target` while staying in the subgame. Targets outside
    /// the subgame are ignored. A vertex of the opponent without successors in the
    /// subgame joins (its owner cannot move there).
    ///
    /// # Complexity
    /// O(|members| + edges out of and into members).
    pub fn attract(
        &mut self,
        arena: &Arena,
        members: &[u32],
        in_game: &[bool],
        player: u8,
        target: impl IntoIterator<Item = u32>,
    ) -> Attracted {
        let state = &mut self.state;
        for &v in members {
            let inside = arena
                .successors(v)
                .iter()
                .filter(|&&w| in_game[w as usize])
                .count() as u64;
            // A subgame's degree never exceeds the arena's, which fits (parsers check).
            state[v as usize] = Word::counting(inside);
        }
        self.queue.clear();
        for t in target {
            if in_game[t as usize] && state[t as usize].read().is_none() {
                state[t as usize] = Word::decided(true, 0);
                self.queue.push(t);
            }
        }
        // Opponent vertices stuck inside the subgame are lost for their owner.
        for &v in members {
            if state[v as usize].counter() == Some(0) && arena.owner(v) != player {
                state[v as usize] = Word::decided(true, 0);
                self.queue.push(v);
            }
        }
        let rule = Attractor {
            owner: arena.owners(),
            player,
        };
        // Distances stay far below the limit: at most one per vertex.
        let _ = engine::propagate(arena.reverse(), state, &mut self.queue, 0, &rule, &mut ());
        let mut strategy = Vec::new();
        for &v in &self.queue {
            let (_, d) = state[v as usize]
                .read()
                .expect("queued vertices are decided");
            if d > 0 && arena.owner(v) == player {
                let w = arena
                    .successors(v)
                    .iter()
                    .copied()
                    .find(|&w| {
                        in_game[w as usize]
                            && state[w as usize].read().is_some_and(|(_, dw)| dw < d)
                    })
                    .expect("a vertex attracted by a move has an earlier successor");
                strategy.push((v, w));
            }
        }
        for &v in members {
            state[v as usize] = Word::EXCLUDED;
        }
        Attracted {
            vertices: std::mem::take(&mut self.queue),
            strategy,
        }
    }
}

/// The attractor rule on a subgame given by `inside(v)`, whose vertices are opened on first
/// touch: a vertex outside is never decided. How an opponent's vertex is judged is `SCAN`:
///
/// - `false` ([`LazyAttractor`], [`Rule::LAZY`]): by a counter of its successors inside, set
///   on first touch and counted down; the counters keep counting across attractions that
///   share a state (as [`Layers`] does);
/// - `true` ([`ScanAttractor`], [`Rule::SCAN`]): by a scan of its successors for one inside
///   and not yet attracted. Nothing is counted up front, and an attraction leaves in the
///   state only its queue (decided) and the positions it stored for vertices of more than
///   [`REMEMBER`] moves, which the engine reports to the sink ([`Record::kept`]; a
///   [`Scanned`] sink lists them) — so resetting the state costs the attractor, not the
///   edges into it. The shape of van Dijk's attractors in Oink: most touched vertices have
///   an escape among their first successors.
///
/// The rule only reads: the moves of `player`'s vertices attracted by a move go to the
/// propagation's sink ([`engine::Moves`], [`Scanned`], or `()` for none).
pub(crate) struct SubgameAttractor<'a, F, const SCAN: bool> {
    pub arena: &'a Arena,
    pub player: u8,
    pub inside: F,
}

/// Counts the successors inside on first touch; see [`SubgameAttractor`].
pub(crate) type LazyAttractor<'a, F> = SubgameAttractor<'a, F, false>;
/// Scans for an escape on every touch; see [`SubgameAttractor`].
pub(crate) type ScanAttractor<'a, F> = SubgameAttractor<'a, F, true>;

/// Vertices of up to this many moves are scanned from the start on every touch (at most
/// `REMEMBER` touches of `REMEMBER` successors each); larger ones resume where their last
/// scan stopped, so a scan costs each edge once per attraction.
pub(crate) const REMEMBER: usize = 16;

/// The sink of a scanning attraction: the moves of the attracting player's vertices go to
/// `moves`, and the vertices left holding a scan position are listed in `kept` (to be
/// reset to [`Word::UNCOUNTED`] with the queue).
pub(crate) struct Scanned<'a> {
    pub moves: &'a mut [u32],
    pub kept: &'a mut Vec<u32>,
}

impl Record for Scanned<'_> {
    const RECORDS: bool = true;

    #[inline(always)]
    fn record(&mut self, vertex: u32, by: u32) {
        self.moves[vertex as usize] = by;
    }

    #[inline(always)]
    fn kept(&mut self, vertex: u32) {
        self.kept.push(vertex);
    }
}

impl<F: Fn(u32) -> bool, const S: bool> Rule for SubgameAttractor<'_, F, S> {
    const LAZY: bool = !S;
    const SCAN: bool = S;

    #[inline(always)]
    fn inside(&self, vertex: u32) -> bool {
        (self.inside)(vertex)
    }

    #[inline]
    fn count(&self, vertex: u32) -> u32 {
        let count = self
            .arena
            .successors(vertex)
            .iter()
            .filter(|&&w| (self.inside)(w))
            .count();
        // A subgame's degree never exceeds the arena's, which fits (parsers check); the
        // engine saturates anything larger.
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    #[inline]
    fn escape(&self, vertex: u32, word: Word, state: &[Word]) -> Option<Word> {
        let successors = self.arena.successors(vertex);
        // UNCOUNTED (no counter): scan from the start.
        let from = word.counter().unwrap_or(0) as usize;
        let at = successors[from..]
            .iter()
            .position(|&w| state[w as usize].is_open() && (self.inside)(w))?
            + from;
        if successors.len() > REMEMBER {
            // A position below the degree, which fits the counter bits (parsers check).
            Some(Word::counting(at as u64))
        } else {
            Some(Word::UNCOUNTED)
        }
    }

    #[inline(always)]
    fn on_successor(&self, vertex: u32, _value: bool) -> Option<bool> {
        (self.arena.owner(vertex) == self.player).then_some(true)
    }

    #[inline(always)]
    fn on_all(&self, _vertex: u32) -> bool {
        true
    }
}

/// Attractors that share one state array: open a subgame once, then seed and propagate as
/// often as needed. Vertices decided by one propagation stay decided for the next, and the
/// counters of undecided vertices keep counting successors decided by any of them, so a
/// sequence of attractors — the layers of an attractor decomposition, or the regions two
/// players win as a solver finds them — costs O(subgame + its edges) in all, not per layer.
///
/// [`propagate`](Self::propagate) takes any `Rule`; [`attract`](Self::attract) is the
/// attractor rule. The state word of a decided vertex keeps its value and its distance
/// (the attractor rank within its layer: 0 for a seed), as the crate's retrograde engine keeps it.
#[derive(Debug, Clone, Default)]
pub struct Layers {
    state: Vec<Word>,
    queue: Vec<u32>,
    head: usize,
}

impl Layers {
    /// Scratch for an arena of `n` vertices; every vertex starts outside any subgame.
    #[must_use]
    pub fn new(n: usize) -> Layers {
        Layers {
            state: vec![Word::EXCLUDED; n],
            queue: Vec::with_capacity(n),
            head: 0,
        }
    }

    /// Opens the subgame `members`: each member becomes undecided, its successors inside the
    /// subgame counted when an attractor first touches it (`Word::UNCOUNTED`), so only
    /// [`attract`](Self::attract) may follow, not [`propagate`](Self::propagate) with an eager
    /// rule. Vertices outside stay excluded (call [`close`](Self::close) on the previous
    /// subgame first). Empties the queue.
    ///
    /// # Complexity
    /// O(|members|): a vertex's out-edges are read only if an attractor reaches it.
    pub fn open(&mut self, members: &[u32]) {
        for &v in members {
            self.state[v as usize] = Word::UNCOUNTED;
        }
        self.queue.clear();
        self.head = 0;
    }

    /// Scratch for `arena` with the whole arena open: every vertex undecided with its full
    /// out-degree. One pass writes each state word once.
    ///
    /// # Complexity
    /// O(n).
    #[must_use]
    pub fn all_open(arena: &Arena) -> Layers {
        Layers {
            state: arena
                .vertices()
                .map(|v| Word::counting(arena.out_degree(v) as u64))
                .collect(),
            queue: Vec::with_capacity(arena.len()),
            head: 0,
        }
    }

    /// Excludes `members` again and empties the queue, ready for the next [`open`](Self::open).
    pub fn close(&mut self, members: &[u32]) {
        for &v in members {
            self.state[v as usize] = Word::EXCLUDED;
        }
        self.queue.clear();
        self.head = 0;
    }

    /// Undoes every decision from queue position `from` on, after lazily counting
    /// attractors ([`attract`](Self::attract)) on the subgame `inside` that ran to the end:
    /// the state becomes the one they had left at `from`. The vertices decided from there
    /// become undecided again — counted, if a decision before `from` touched them, else
    /// uncounted — and every counter they counted down counts them again.
    ///
    /// # Complexity
    /// O(the undone vertices, their predecessors and their successors).
    pub fn undo_from(&mut self, arena: &Arena, from: usize, inside: impl Fn(u32) -> bool) {
        debug_assert_eq!(self.head, self.queue.len(), "every decision was propagated");
        for &u in &self.queue[from..] {
            self.state[u as usize] = Word::UNCOUNTED;
        }
        for &u in &self.queue[from..] {
            for &y in arena.predecessors(u) {
                // An undecided, counted predecessor counted `u` down when `u` was
                // propagated.
                let word = &mut self.state[y as usize];
                if let Some(count) = word.counter() {
                    *word = Word::counting(u64::from(count) + 1);
                }
            }
        }
        for &u in &self.queue[from..] {
            let (mut touched, mut open) = (false, 0u64);
            for &w in arena.successors(u) {
                let word = self.state[w as usize];
                if word.is_decided() {
                    touched = true;
                } else if word.is_open() && inside(w) {
                    open += 1;
                }
            }
            if touched {
                debug_assert!(open > 0, "an undone vertex would be decided before `from`");
                self.state[u as usize] = Word::counting(open);
            }
        }
        self.queue.truncate(from);
        self.head = from;
    }

    /// Takes the undecided `removed` out of the subgame for good (the caller's membership
    /// mask no longer holds them): each is excluded, and each undecided counter that counted
    /// one of them as a successor inside counts it off.
    ///
    /// # Complexity
    /// O(`removed` and their predecessors).
    pub fn remove(&mut self, arena: &Arena, removed: &[u32]) {
        for &u in removed {
            debug_assert!(self.is_open(u), "only undecided vertices are removed");
            self.state[u as usize] = Word::EXCLUDED;
        }
        for &u in removed {
            for &y in arena.predecessors(u) {
                let word = &mut self.state[y as usize];
                if let Some(count) = word.counter() {
                    debug_assert!(count > 1, "a counter removal would decide");
                    *word = Word::counting(u64::from(count) - 1);
                }
            }
        }
    }

    /// Decides the undecided `v` with `value` at distance 0 and queues it; false (and nothing
    /// changes) if `v` is already decided or outside the subgame.
    #[inline]
    pub fn seed(&mut self, v: u32, value: bool) -> bool {
        let word = &mut self.state[v as usize];
        if !word.is_open() {
            return false;
        }
        *word = Word::decided(value, 0);
        self.queue.push(v);
        true
    }

    /// Runs the engine with `rule` from the queued vertices not yet propagated, recording
    /// into `sink` (`&mut ()` for nothing).
    pub fn propagate<R: Rule, S: Record>(&mut self, arena: &Arena, rule: &R, sink: &mut S) {
        // Distances stay far below the limit: at most one per vertex.
        let _ = engine::propagate(
            arena.reverse(),
            &mut self.state,
            &mut self.queue,
            self.head,
            rule,
            sink,
        );
        self.head = self.queue.len();
    }

    /// Attracts for `player` from the queued vertices not yet propagated: the attractor rule
    /// (one successor for `player`'s vertices, all for the opponent's) within the open subgame,
    /// whose membership mask is `in_game`. Every vertex it decides gets value `true`.
    pub fn attract(&mut self, arena: &Arena, player: u8, in_game: &[bool]) {
        self.attract_recording(arena, player, in_game, &mut ());
    }

    /// [`attract`](Self::attract), recording into `sink` (e.g. [`engine::Moves`]) the move of every
    /// vertex of `player` it decides by a move.
    pub(crate) fn attract_recording<S: Record>(
        &mut self,
        arena: &Arena,
        player: u8,
        in_game: &[bool],
        sink: &mut S,
    ) {
        let rule = LazyAttractor {
            arena,
            player,
            inside: |w: u32| in_game[w as usize],
        };
        self.propagate(arena, &rule, sink);
    }

    /// Takes every vertex decided since [`open`](Self::open) out of the subgame for good (the
    /// caller's membership mask no longer holds them) and returns the undecided vertices they
    /// touched to the uncounted state, so that the next attractor on what is left needs no
    /// new [`open`](Self::open). Empties the queue.
    ///
    /// # Complexity
    /// O(the decided vertices and their predecessors).
    pub(crate) fn remove_decided(&mut self, arena: &Arena) {
        for &u in &self.queue {
            for &y in arena.predecessors(u) {
                let word = &mut self.state[y as usize];
                if word.is_open() {
                    *word = Word::UNCOUNTED;
                }
            }
        }
        for &u in &self.queue {
            self.state[u as usize] = Word::EXCLUDED;
        }
        self.queue.clear();
        self.head = 0;
    }

    /// Propagates the queued vertices not yet propagated by reading the moves of the
    /// undecided vertices among `candidates` instead of the predecessors of the queued ones:
    /// the cheaper way when the candidates have fewer moves than the queued vertices have
    /// predecessors. Every vertex still undecided must be a candidate, and `rule` must be an
    /// eager rule (every undecided vertex counts all its successors, as after
    /// [`all_open`](Self::all_open)). Each candidate is decided as the engine would decide
    /// it from its decided successors (by `Rule::on_successor`, recording the move into
    /// `sink`, or by
    /// `Rule::on_all` when none is undecided; a vertex without moves stays undecided), or
    /// else gets its count of undecided successors; what that decides is then propagated as
    /// usual.
    ///
    /// # Complexity
    /// O(candidates + their moves), plus the propagation of what they decide.
    pub fn pull<R: Rule, S: Record>(
        &mut self,
        arena: &Arena,
        candidates: &[u32],
        rule: &R,
        sink: &mut S,
    ) {
        debug_assert!(!R::LAZY && !R::SCAN);
        // Words are written only after every candidate is read, so a candidate decided here
        // is still counted as undecided by the others: its propagation counts it off.
        let mut decided = Vec::new();
        for &v in candidates {
            // A vertex without moves is never touched by propagation either.
            if !self.is_open(v) || arena.out_degree(v) == 0 {
                continue;
            }
            let mut open = 0u64;
            let mut by = None;
            let mut far = 0;
            for &w in arena.successors(v) {
                match self.read(w) {
                    None => open += 1,
                    Some((value, d)) => {
                        if let Some(x) = rule.on_successor(v, value) {
                            by = Some((w, x, d));
                            break;
                        }
                        far = far.max(d);
                    }
                }
            }
            match by {
                Some((w, value, d)) => {
                    if S::RECORDS {
                        sink.record(v, w);
                    }
                    decided.push((v, Word::decided(value, d + 1)));
                }
                None if open == 0 => {
                    decided.push((v, Word::decided(rule.on_all(v), far + 1)));
                }
                None => {
                    self.state[v as usize] = Word::counting(open);
                }
            }
        }
        self.head = self.queue.len();
        for (v, word) in decided {
            self.state[v as usize] = word;
            self.queue.push(v);
        }
        self.propagate(arena, rule, sink);
    }

    /// Every vertex decided since [`open`](Self::open), in the order decided.
    #[inline]
    #[must_use]
    pub fn queue(&self) -> &[u32] {
        &self.queue
    }

    /// `Some((value, distance))` if `v` is decided, `None` if undecided or outside.
    #[inline]
    #[must_use]
    pub fn read(&self, v: u32) -> Option<(bool, u32)> {
        self.state[v as usize].read()
    }

    /// Whether `v` is in the subgame and not yet decided.
    #[inline]
    #[must_use]
    pub fn is_open(&self, v: u32) -> bool {
        self.state[v as usize].is_open()
    }

    /// A successor of the decided `v` decided with the same value at a smaller distance: the
    /// move by which `v`'s owner keeps to the value, for a vertex decided by one successor.
    /// `None` for seeds and for vertices decided by all successors only when none qualifies.
    #[must_use]
    pub fn move_toward(&self, arena: &Arena, v: u32) -> Option<u32> {
        let (value, d) = self.read(v)?;
        arena.successors(v).iter().copied().find(|&w| {
            self.read(w)
                .is_some_and(|(value_w, dw)| value_w == value && dw < d)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Moves;
    use crate::graph::brute;
    use crate::graph::parity::generate::Rng;
    use crate::graph::ArenaBuilder;

    /// A random arena of 1 to `max` vertices (no priorities) whose out-degrees `degree`
    /// draws.
    fn random_arena(rng: &mut Rng, max: u64, degree: impl Fn(&mut Rng) -> u64) -> Arena {
        let n = 1 + rng.below(max) as u32;
        let mut b = ArenaBuilder::new();
        for _ in 0..n {
            let k = degree(rng);
            let succ: Vec<u32> = (0..k).map(|_| rng.below(u64::from(n)) as u32).collect();
            b.push(rng.below(2) as u8, 0, succ);
        }
        b.build().unwrap()
    }

    /// The attractor rules only read (moves and kept positions go to the sink), so one rule
    /// can be shared between threads.
    #[test]
    fn attractor_rules_are_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Attractor<'static>>();
        shareable::<LazyAttractor<'static, fn(u32) -> bool>>();
        shareable::<ScanAttractor<'static, fn(u32) -> bool>>();
        shareable::<Layers>();
    }

    #[test]
    fn matches_the_naive_fixpoint_on_small_arenas() {
        // Deterministic pseudo-random arenas, compared with the brute-force attractor.
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..500 {
            let arena = random_arena(&mut rng, 9, |r| r.below(4));
            let n = arena.len() as u32;
            let target: Vec<bool> = (0..n).map(|_| rng.below(3) == 0).collect();
            let player = rng.below(2) as u8;
            let members: Vec<u32> = arena.vertices().collect();
            let in_game = vec![true; n as usize];
            let mut scratch = Attractors::new(&arena);
            let got = scratch.attract(
                &arena,
                &members,
                &in_game,
                player,
                (0..n).filter(|&v| target[v as usize]),
            );
            let want = brute::attractor(&arena, player, &target);
            let mut mask = vec![false; n as usize];
            for &v in &got.vertices {
                mask[v as usize] = true;
            }
            assert_eq!(
                mask, want,
                "arena {arena:?} player {player} target {target:?}"
            );
            // The strategy moves to an attracted vertex.
            for (v, w) in got.strategy {
                assert!(mask[w as usize] && arena.successors(v).contains(&w));
            }
        }
    }

    /// The scanning rule decides exactly the naive fixpoint (an opponent's vertex joins once
    /// it has a successor in the attractor and none in the subgame outside it), records moves
    /// to vertices decided earlier, and leaves the state clean once its queue and `kept`
    /// list are reset, attraction after attraction on one state. Vertices of up to 40 moves
    /// exercise both the rescanning and the resuming of scans.
    #[test]
    fn scanning_attractor_matches_the_naive_fixpoint() {
        let mut rng = Rng::new(0x5eed_0f5c_a770_0001u64);
        for _ in 0..400 {
            let arena = random_arena(&mut rng, 30, |r| {
                1 + if r.below(4) == 0 {
                    r.below(40)
                } else {
                    r.below(3)
                }
            });
            let n = arena.len() as u32;
            let mut state = vec![Word::UNCOUNTED; n as usize];
            let mut kept = Vec::new();
            for _ in 0..3 {
                let inside: Vec<bool> = (0..n).map(|_| rng.below(5) != 0).collect();
                let player = rng.below(2) as u8;
                let target: Vec<u32> = (0..n)
                    .filter(|&v| inside[v as usize] && rng.below(4) == 0)
                    .collect();
                // The naive fixpoint.
                let mut want = vec![false; n as usize];
                for &t in &target {
                    want[t as usize] = true;
                }
                loop {
                    let mut changed = false;
                    for v in arena.vertices().filter(|&v| inside[v as usize]) {
                        let succ = arena.successors(v);
                        let joins = !want[v as usize]
                            && succ.iter().any(|&w| want[w as usize])
                            && (arena.owner(v) == player
                                || succ
                                    .iter()
                                    .all(|&w| want[w as usize] || !inside[w as usize]));
                        if joins {
                            want[v as usize] = true;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                let mut queue = Vec::new();
                for &t in &target {
                    state[t as usize] = Word::decided(true, 0);
                    queue.push(t);
                }
                let mut moves = vec![u32::MAX; n as usize];
                let rule = ScanAttractor {
                    arena: &arena,
                    player,
                    inside: |w: u32| inside[w as usize],
                };
                let mut sink = Scanned {
                    moves: &mut moves,
                    kept: &mut kept,
                };
                engine::propagate(arena.reverse(), &mut state, &mut queue, 0, &rule, &mut sink)
                    .unwrap();
                let mut got = vec![false; n as usize];
                let mut at = vec![usize::MAX; n as usize];
                for (i, &v) in queue.iter().enumerate() {
                    got[v as usize] = true;
                    at[v as usize] = i;
                }
                assert_eq!(got, want, "{arena:?} player {player} inside {inside:?}");
                for (i, &v) in queue.iter().enumerate().skip(target.len()) {
                    if arena.owner(v) == player {
                        let m = moves[v as usize];
                        assert!(arena.successors(v).contains(&m) && at[m as usize] < i);
                    }
                }
                for v in queue.into_iter().chain(kept.drain(..)) {
                    state[v as usize] = Word::UNCOUNTED;
                }
                assert!(state.iter().all(|&w| w == Word::UNCOUNTED), "{state:?}");
            }
        }
    }

    /// Pulling (reading the candidates' moves) decides what propagating from the seeds
    /// decides, with moves recorded toward vertices decided earlier, also when the pull runs
    /// after part of the seeds were already propagated.
    #[test]
    fn pulling_decides_what_propagating_decides() {
        let mut rng = Rng::new(0x7011_0000_0000_0001u64);
        for _ in 0..300 {
            let arena = random_arena(&mut rng, 12, |r| r.below(4));
            let n = arena.len() as u32;
            let player = rng.below(2) as u8;
            let seeds: Vec<u32> = (0..n).filter(|_| rng.below(3) == 0).collect();
            let split = rng.below(seeds.len() as u64 + 1) as usize;
            let mut moves = vec![u32::MAX; n as usize];
            let rule = Attractor {
                owner: arena.owners(),
                player,
            };
            let mut pushed = Layers::all_open(&arena);
            let mut pulled = Layers::all_open(&arena);
            for (i, &t) in seeds.iter().enumerate() {
                pushed.seed(t, true);
                pulled.seed(t, true);
                if i + 1 == split {
                    pulled.propagate(&arena, &rule, &mut Moves(&mut moves));
                }
            }
            pushed.propagate(&arena, &rule, &mut ());
            let all: Vec<u32> = arena.vertices().collect();
            pulled.pull(&arena, &all, &rule, &mut Moves(&mut moves));
            let mut at = vec![usize::MAX; n as usize];
            for (i, &v) in pulled.queue().iter().enumerate() {
                at[v as usize] = i;
            }
            for v in arena.vertices() {
                assert_eq!(pulled.is_open(v), pushed.is_open(v), "{arena:?} {seeds:?}");
                if !pulled.is_open(v) && !seeds.contains(&v) && arena.owner(v) == player {
                    let m = moves[v as usize];
                    assert!(arena.successors(v).contains(&m) && at[m as usize] < at[v as usize]);
                }
            }
        }
    }

    /// Layers of alternating players on a random subgame; after each, the state is kept.
    /// Undoing back to any layer gives the state kept there (decisions and counters), and
    /// removing undecided vertices leaves every counter counting exactly the undecided
    /// successors inside what is left.
    #[test]
    fn undoing_layers_and_removing_vertices_is_exact() {
        let mut rng = Rng::new(0x0dd0_1a7e_25ba_c4e5u64);
        for round in 0..400 {
            let arena = random_arena(&mut rng, 14, |r| 1 + r.below(4));
            let n = arena.len();
            let mut in_game: Vec<bool> = (0..n).map(|_| rng.below(6) != 0).collect();
            let members: Vec<u32> = (0..n as u32).filter(|&v| in_game[v as usize]).collect();
            let mut layers = Layers::new(n);
            layers.open(&members);
            let mut kept = vec![(0, layers.state.clone())];
            for k in 0..4 {
                for &v in &members {
                    if layers.is_open(v) && rng.below(4) == 0 {
                        layers.seed(v, true);
                    }
                }
                layers.attract(&arena, (k % 2) as u8, &in_game);
                kept.push((layers.queue().len(), layers.state.clone()));
            }
            // A counter equal to all successors inside behaves as "uncounted": compare what
            // each word means.
            let meaning = |state: &[Word]| -> Vec<Word> {
                let inside = |y: u32| {
                    arena
                        .successors(y)
                        .iter()
                        .filter(|&&w| in_game[w as usize])
                        .count() as u32
                };
                (0..n as u32)
                    .map(|y| match state[y as usize] {
                        Word::UNCOUNTED => Word::counting(u64::from(inside(y))),
                        word => word,
                    })
                    .collect()
            };
            let (from, state) = kept[rng.below(kept.len() as u64) as usize].clone();
            layers.undo_from(&arena, from, |w| in_game[w as usize]);
            assert_eq!(
                meaning(&layers.state),
                meaning(&state),
                "round {round}: undone to {from}"
            );
            assert_eq!(layers.queue().len(), from);
            // Remove some undecided vertices (where that leaves every counted vertex an
            // undecided successor inside): each counter then counts exactly the undecided
            // successors inside what is left.
            let open = |l: &Layers, w: u32| l.state[w as usize].is_open();
            let removed: Vec<u32> = members
                .iter()
                .copied()
                .filter(|&v| open(&layers, v) && rng.below(3) == 0)
                .collect();
            for &u in &removed {
                in_game[u as usize] = false;
            }
            let counted = |l: &Layers, y: u32| l.state[y as usize].counter().is_some();
            let left = |l: &Layers, y: u32| {
                arena
                    .successors(y)
                    .iter()
                    .filter(|&&w| in_game[w as usize] && open(l, w))
                    .count() as u32
            };
            if arena
                .vertices()
                .any(|y| in_game[y as usize] && counted(&layers, y) && left(&layers, y) == 0)
            {
                continue;
            }
            layers.remove(&arena, &removed);
            for y in arena.vertices() {
                if removed.contains(&y) {
                    assert_eq!(layers.state[y as usize], Word::EXCLUDED, "round {round}");
                } else if counted(&layers, y) {
                    assert_eq!(
                        layers.state[y as usize].counter(),
                        Some(left(&layers, y)),
                        "round {round}"
                    );
                }
            }
        }
    }

    #[test]
    fn layers_agree_with_one_shot_attractors_and_keep_counting() {
        let mut rng = Rng::new(0x0123_4567_89ab_cdefu64);
        for _ in 0..300 {
            let arena = random_arena(&mut rng, 9, |r| 1 + r.below(3));
            let n = arena.len() as u32;
            let members: Vec<u32> = arena.vertices().collect();
            let in_game = vec![true; n as usize];
            let player = rng.below(2) as u8;
            let target: Vec<u32> = (0..n).filter(|_| rng.below(3) == 0).collect();
            let want = Attractors::new(&arena).attract(
                &arena,
                &members,
                &in_game,
                player,
                target.iter().copied(),
            );
            let mut layers = Layers::new(n as usize);
            layers.open(&members);
            for &t in &target {
                layers.seed(t, true);
            }
            layers.attract(&arena, player, &in_game);
            let mut got = layers.queue().to_vec();
            let mut w = want.vertices.clone();
            got.sort_unstable();
            w.sort_unstable();
            assert_eq!(got, w);
            for &v in layers.queue() {
                let (_, d) = layers.read(v).unwrap();
                if d > 0 && arena.owner(v) == player {
                    let m = layers.move_toward(&arena, v).unwrap();
                    assert!(arena.successors(v).contains(&m));
                    assert!(layers.read(m).unwrap().1 < d);
                }
            }
            // A second layer for the opponent on what is left: the same as a one-shot
            // attractor in the subgame without the first layer.
            let rest: Vec<u32> = members
                .iter()
                .copied()
                .filter(|&v| layers.is_open(v))
                .collect();
            let mut rest_in = vec![false; n as usize];
            for &v in &rest {
                rest_in[v as usize] = true;
            }
            let Some(&t2) = rest.first() else {
                continue;
            };
            let want2 = Attractors::new(&arena).attract(&arena, &rest, &rest_in, 1 - player, [t2]);
            let before = layers.queue().len();
            layers.seed(t2, true);
            layers.attract(&arena, 1 - player, &in_game);
            let mut got2 = layers.queue()[before..].to_vec();
            let mut w2 = want2.vertices.clone();
            got2.sort_unstable();
            w2.sort_unstable();
            assert_eq!(got2, w2, "{arena:?}");
            layers.close(&members);
            assert!(layers.read(0).is_none() && !layers.is_open(0));
        }
    }
}
