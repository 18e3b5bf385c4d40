//! The general method: label every reachable position win / loss / draw with its
//! remoteness (retrograde analysis, right on cycles), and minimax values for score games.

use crate::engine::{self, AllSuccessors, Labelling, Word};
use crate::explore::{explore, Control, Csr, Explored, Offset};
use crate::game::{Best, Game, Margin, Outcome, ScoreGame, Step, Value};
use crate::Error;

use rayon::prelude::*;

/// The value an engine word holds for the player to move: decided with the value bit set,
/// a win at its distance; decided without it, a loss; undecided, a draw. The one value
/// encoding of the crate's labellers.
#[inline]
#[must_use]
pub(crate) fn value_of(word: Word) -> Value {
    match word.read() {
        Some((true, r)) => Value::Win(r),
        Some((false, r)) => Value::Loss(r),
        None => Value::Draw,
    }
}

/// The engine word of a decided `value` (`None` for a draw, which is not decided).
///
/// # Errors
/// [`Error::TooLarge`] for a remoteness past [`Word::MAX_DISTANCE`].
pub(crate) fn word_of(value: Value) -> Result<Option<Word>, Error> {
    let (won, r) = match value {
        Value::Win(r) => (true, r),
        Value::Loss(r) => (false, r),
        Value::Draw => return Ok(None),
    };
    if r > Word::MAX_DISTANCE {
        return Err(Error::TooLarge {
            what: format!("a remoteness of {r} (at most {})", Word::MAX_DISTANCE),
            need: None,
        });
    }
    Ok(Some(Word::decided(won, r)))
}

/// The value of every vertex of a graph, for the player to move there.
///
/// Memory: 4 bytes per vertex (the engine's state word, kept as the result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    state: Vec<Word>,
}

impl Labels {
    /// Labels from the engine's words, one a vertex.
    pub(crate) fn from_words(state: Vec<Word>) -> Labels {
        Labels { state }
    }

    /// The value of vertex `v`.
    #[inline]
    #[must_use]
    pub fn value(&self, v: u32) -> Value {
        value_of(self.state[v as usize])
    }

    /// The number of labelled vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.state.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// How many vertices are won, lost and drawn.
    #[must_use]
    pub fn counts(&self) -> [u64; 3] {
        let mut counts = [0u64; 3];
        for v in 0..self.state.len() as u32 {
            counts[match self.value(v).outcome() {
                Outcome::Win => 0,
                Outcome::Loss => 1,
                Outcome::Draw => 2,
            }] += 1;
        }
        counts
    }
}

/// Labels every vertex of a move graph by retrograde analysis.
///
/// `reverse` is `graph.reverse()` (passed in so callers can keep it); `terminal(v)` is the
/// outcome a game declares for `v`, `None` for normal play. A vertex without successors
/// and without a declared outcome is lost. Vertices the analysis leaves undecided can
/// avoid losing forever and are draws.
///
/// # Complexity
/// O(V + E) time. Memory beyond the graphs: 8 bytes per vertex (the state word, which
/// doubles as the counter of undecided successors and, at the end, the label; and the
/// queue). With the reverse graph, 16 bytes per vertex plus 4 per edge.
///
/// # Errors
/// [`Error::TooLarge`] for a vertex with 2^30 moves or more, or a remoteness past 2^30;
/// [`Error::Cancelled`] if stopped.
pub fn label<O: Offset>(
    graph: &Csr<O>,
    reverse: &Csr<O>,
    terminal: impl Fn(u32) -> Option<Outcome>,
    control: &Control<'_>,
) -> Result<Labels, Error> {
    label_by_degree(|v| graph.degree(v), reverse, terminal, None, control)
}

/// [`label`] from each vertex's number of moves (`degree(v)`) and the reverse graph
/// alone, so that an exploration need not keep the forward graph; `mover`, when given,
/// says who moves at each vertex (`0` first, `1` second) for games whose moves may keep
/// the turn: a child's value then counts for the parent unnegated when the mover stays.
///
/// # Errors
/// As [`label`].
pub fn label_by_degree<O: Offset>(
    degree: impl Fn(u32) -> u64,
    reverse: &Csr<O>,
    terminal: impl Fn(u32) -> Option<Outcome>,
    mover: Option<&[u8]>,
    control: &Control<'_>,
) -> Result<Labels, Error> {
    let n = reverse.len();
    let mut state = Vec::with_capacity(n);
    let mut queue = Vec::with_capacity(n);
    // With movers, the engine's value bit means "the first player wins", and is turned
    // into "the player to move wins" at the end.
    let absolute = |v: u32, mover_wins: bool| match mover {
        Some(m) => mover_wins == (m[v as usize] == 0),
        None => mover_wins,
    };
    for v in 0..n as u32 {
        let word = seed(terminal(v), || degree(v), |wins| absolute(v, wins))?;
        if word.is_decided() {
            queue.push(v);
        }
        state.push(word);
    }
    control.check()?;
    match mover {
        None => engine::propagate(reverse, &mut state, &mut queue, 0, &Labelling, &mut ())?,
        Some(owner) => {
            let rule = TurnLabelling { owner };
            engine::propagate(reverse, &mut state, &mut queue, 0, &rule, &mut ())?;
            for (v, word) in state.iter_mut().enumerate() {
                if let Some((first_wins, d)) = word.read() {
                    *word = Word::decided(first_wins == (owner[v] == 0), d);
                }
            }
        }
    }
    control.check()?;
    Ok(Labels { state })
}

/// The engine word a vertex starts from, given its declared end (`terminal`) and its
/// number of moves: won or lost at distance 0 as declared, lost at 0 with no move, else
/// undecided with its moves to count off. A declared draw is settled and never
/// propagates: its predecessors' counters never reach zero through it. `value` gives the
/// engine's value bit of "the player to move wins".
fn seed(
    terminal: Option<Outcome>,
    degree: impl FnOnce() -> u64,
    value: impl Fn(bool) -> bool,
) -> Result<Word, Error> {
    Ok(match terminal {
        Some(Outcome::Win) => Word::decided(value(true), 0),
        Some(Outcome::Loss) => Word::decided(value(false), 0),
        Some(Outcome::Draw) => Word::EXCLUDED,
        None => match degree() {
            0 => Word::decided(value(false), 0),
            d => Word::undecided(d)?,
        },
    })
}

/// [`label_by_degree`] with no mover on every thread of the current rayon pool: the
/// vertices seeded in parallel, then labelled by [`engine::propagate_levels`]. The same
/// labels (and remoteness) as [`label_by_degree`].
///
/// # Errors
/// As [`label`]; [`Error::TooLarge`] if the tables cannot be had.
pub fn label_by_degree_in_parallel(
    degree: impl Fn(u32) -> u64 + Sync,
    reverse: &Csr,
    terminal: impl Fn(u32) -> Option<Outcome> + Sync,
    control: &Control<'_>,
) -> Result<Labels, Error> {
    let n = reverse.len();
    let mut state = crate::memory::filled(n, Word::EXCLUDED, "the labels")?;
    state
        .par_iter_mut()
        .enumerate()
        .with_min_len(1 << 12)
        .try_for_each(|(v, word)| {
            *word = seed(terminal(v as u32), || degree(v as u32), |wins| wins)?;
            Ok::<(), Error>(())
        })?;
    let seeds: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .with_min_len(1 << 12)
        .filter(|&v| state[v as usize].is_decided())
        .collect();
    control.check()?;
    let state = engine::propagate_levels(reverse, state, seeds, &Labelling, control)?;
    control.check()?;
    Ok(Labels { state })
}

/// Labelling when the mover is per vertex: the value bit is "the first player wins"; a
/// vertex is decided by one successor good for its mover, or lost for its mover once
/// every successor is good for the other player.
struct TurnLabelling<'a> {
    owner: &'a [u8],
}

impl engine::Rule for TurnLabelling<'_> {
    #[inline(always)]
    fn on_successor(&self, vertex: u32, first_wins: bool) -> Option<bool> {
        let first_moves = self.owner[vertex as usize] == 0;
        (first_wins == first_moves).then_some(first_wins)
    }

    #[inline(always)]
    fn on_all(&self, vertex: u32) -> bool {
        // The mover loses: the first player wins iff the second moves here.
        self.owner[vertex as usize] != 0
    }
}

/// A reverse topological order of `graph`: every vertex after all its successors.
///
/// # Errors
/// [`Error::Cycle`] naming a vertex that lies on or leads into a cycle.
pub fn reverse_topological_order(graph: &Csr, reverse: &Csr) -> Result<Vec<u32>, Error> {
    let n = graph.len();
    let mut state = Vec::with_capacity(n);
    let mut queue = Vec::with_capacity(n);
    for v in 0..n as u32 {
        match graph.degree(v) {
            0 => {
                state.push(Word::decided(true, 0));
                queue.push(v);
            }
            d => state.push(Word::undecided(d)?),
        }
    }
    engine::propagate(reverse, &mut state, &mut queue, 0, &AllSuccessors, &mut ())?;
    if queue.len() < n {
        let v = (0..n as u32)
            .find(|&v| state[v as usize].read().is_none())
            .expect("an undecided vertex exists when the queue is short");
        return Err(Error::Cycle { vertex: v });
    }
    Ok(queue)
}

/// A reverse topological order of `graph` read from the forward graph alone (a
/// depth-first search, each vertex after its successors), for callers that hold no
/// reverse graph; `None` if the graph has a cycle.
///
/// # Complexity
/// O(V + E). Memory: 5 bytes per vertex and the search's stack (12 bytes a level).
///
/// # Errors
/// [`Error::TooLarge`] when the tables cannot be had.
pub fn postorder(graph: &Csr) -> Result<Option<Vec<u32>>, Error> {
    let mut order = Vec::new();
    crate::memory::reserve(&mut order, graph.len(), "a topological order")?;
    let acyclic = postorder_with(graph, |v| {
        order.push(v);
        Ok(())
    })?;
    Ok(acyclic.then_some(order))
}

/// `visit(v)` on every vertex of `graph` in a reverse topological order (each after its
/// successors; depth-first on the forward graph), so that a caller works out each vertex
/// from its children in the same pass; `false`, part of the graph unvisited, on meeting
/// a cycle. Stops at `visit`'s first error.
///
/// # Complexity
/// O(V + E) and `visit`'s. Memory: 1 byte per vertex and the stack (12 bytes a level).
///
/// # Errors
/// [`Error::TooLarge`] when the tables cannot be had; `visit`'s.
pub fn postorder_with(
    graph: &Csr,
    mut visit: impl FnMut(u32) -> Result<(), Error>,
) -> Result<bool, Error> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let n = graph.len();
    let offsets = graph.offsets();
    let targets = graph.targets();
    let mut mark = crate::memory::filled(n, NEW, "a topological order")?;
    // (vertex, its next edge).
    let mut stack: Vec<(u32, u64)> = Vec::new();
    for root in 0..n as u32 {
        if mark[root as usize] != NEW {
            continue;
        }
        mark[root as usize] = OPEN;
        stack.push((root, offsets[root as usize]));
        while let Some(top) = stack.last_mut() {
            let (v, at) = *top;
            let end = offsets[v as usize + 1];
            let mut next = at;
            let mut descend = None;
            while next < end {
                let c = targets[next as usize];
                next += 1;
                match mark[c as usize] {
                    NEW => {
                        descend = Some(c);
                        break;
                    }
                    OPEN => return Ok(false),
                    _ => {}
                }
            }
            top.1 = next;
            match descend {
                Some(c) => {
                    mark[c as usize] = OPEN;
                    stack.push((c, offsets[c as usize]));
                }
                None => {
                    mark[v as usize] = DONE;
                    visit(v)?;
                    stack.pop();
                }
            }
        }
    }
    Ok(true)
}

/// [`label_by_degree`] on an acyclic graph in one pass over `order` (a reverse
/// topological order: [`postorder`]), from the forward graph alone: the same labels
/// (a win at one more than its nearest lost child, a loss at one more than its farthest
/// child, a vertex with a drawn child and no lost one a draw), without the reverse graph.
///
/// # Errors
/// As [`label`].
pub fn label_acyclic(
    graph: &Csr,
    order: &[u32],
    terminal: impl Fn(u32) -> Option<Outcome>,
    mover: Option<&[u8]>,
) -> Result<Labels, Error> {
    debug_assert_eq!(order.len(), graph.len());
    let mut labels = AcyclicLabels::new(graph.len())?;
    for &v in order {
        labels.label(graph, v, &terminal, mover)?;
    }
    Ok(labels.done())
}

/// [`label_acyclic`] one vertex at a time, for a caller that walks the order itself
/// ([`postorder_with`]): each vertex labelled after its successors.
pub struct AcyclicLabels {
    state: Vec<Word>,
}

impl AcyclicLabels {
    /// Room for `n` vertices, none labelled.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the table cannot be had.
    pub fn new(n: usize) -> Result<AcyclicLabels, Error> {
        Ok(AcyclicLabels {
            state: crate::memory::filled(n, Word::UNCOUNTED, "the labels")?,
        })
    }

    /// Labels `v`, whose successors are labelled.
    ///
    /// # Errors
    /// As [`label`].
    #[inline]
    pub fn label(
        &mut self,
        graph: &Csr,
        v: u32,
        terminal: impl Fn(u32) -> Option<Outcome>,
        mover: Option<&[u8]>,
    ) -> Result<(), Error> {
        let too_long = || Error::TooLarge {
            what: "a game longer than 2^30 moves".into(),
            need: None,
        };
        let word = match terminal(v) {
            Some(Outcome::Win) => Word::decided(true, 0),
            Some(Outcome::Loss) => Word::decided(false, 0),
            Some(Outcome::Draw) => Word::EXCLUDED,
            None => {
                let children = graph.successors(v);
                // The engine's limit on moves, kept so both labellers refuse alike.
                Word::undecided(children.len() as u64)?;
                // The nearest child good for the mover, the farthest other, any draw.
                let mut win = u32::MAX;
                let mut loss = 0u32;
                let mut draw = false;
                for &c in children {
                    match self.state[c as usize].read() {
                        Some((won, r)) => {
                            let stays = mover.is_some_and(|m| m[v as usize] == m[c as usize]);
                            if won == stays {
                                win = win.min(r);
                            } else {
                                loss = loss.max(r + 1);
                            }
                        }
                        None => draw = true,
                    }
                }
                if win != u32::MAX {
                    if win >= Word::MAX_DISTANCE {
                        return Err(too_long());
                    }
                    Word::decided(true, win + 1)
                } else if draw {
                    Word::UNCOUNTED
                } else if loss > Word::MAX_DISTANCE {
                    return Err(too_long());
                } else {
                    Word::decided(false, loss)
                }
            }
        };
        self.state[v as usize] = word;
        Ok(())
    }

    /// The labels (those of vertices never labelled: draws).
    #[must_use]
    pub fn done(self) -> Labels {
        Labels { state: self.state }
    }
}

/// A solved game: its reachable positions, move graph and the value of each.
#[derive(Debug, Clone)]
pub struct Solution<P> {
    /// The positions and moves; the root is id 0.
    pub explored: Explored<P>,
    /// The value of each position.
    pub labels: Labels,
}

impl<P> Solution<P> {
    /// The value of the root.
    #[must_use]
    pub fn root_value(&self) -> Value {
        self.labels.value(0)
    }

    /// The moves from `v`: each successor id with its value (for the player to move
    /// there), in move order.
    pub fn moves(&self, v: u32) -> impl Iterator<Item = (u32, Value)> + '_ {
        self.explored
            .graph
            .successors(v)
            .iter()
            .map(|&c| (c, self.labels.value(c)))
    }

    /// The successor a perfect player moves to from `v`: a win as fast as possible, else a
    /// draw, else a loss as slow as possible. `None` if `v` has no move.
    #[must_use]
    pub fn best_move(&self, v: u32) -> Option<u32> {
        self.moves(v)
            .max_by_key(|&(_, value)| value.parent().preference())
            .map(|(c, _)| c)
    }
}

/// The general method in one call: explore from `root`, then label.
///
/// # Errors
/// As [`explore`] and [`label`].
pub fn solve<G: Game>(
    game: &G,
    root: &G::Position,
    control: &Control<'_>,
) -> Result<Solution<G::Position>, Error> {
    let explored = explore(game, root, control)?;
    label_explored(game, explored, control)
}

/// Labels an exploration already made (for example by
/// [`explore_indexed`](crate::explore::explore_indexed)).
///
/// # Errors
/// As [`label`].
pub fn label_explored<G: Game>(
    game: &G,
    explored: Explored<G::Position>,
    control: &Control<'_>,
) -> Result<Solution<G::Position>, Error> {
    let reverse = explored.graph.try_reverse()?;
    let mover: Option<Vec<u8>> = (!game.alternates()).then(|| {
        explored
            .positions
            .iter()
            .map(|p| game.to_move(p).index() as u8)
            .collect()
    });
    let labels = label_by_degree(
        |v| explored.graph.degree(v),
        &reverse,
        |v| game.terminal(&explored.positions[v as usize]),
        mover.as_deref(),
        control,
    )?;
    Ok(Solution { explored, labels })
}

/// Minimax values of a score game: for each position, the most the player to move can get
/// *more than the opponent* from there on, both playing to maximise their own total
/// (negamax: `v(p) = max over moves (gain(p, c) − v(c))`, `final_gain(p)` without moves;
/// each move through [`ScoreGame::step`]), and the moves to the end along the first best
/// move. Built on [`minimax_graph`], in `i128` so that margins of `i64` points never
/// overflow.
///
/// # Complexity
/// O(V + E) after exploration.
///
/// # Errors
/// [`Error::Cycle`] if the game can repeat positions (minimax values of loopy score games
/// are not defined by this recursion).
pub fn minimax<G: ScoreGame>(
    game: &G,
    explored: &Explored<G::Position>,
) -> Result<Margins<i128>, Error> {
    let graph = &explored.graph;
    let positions = &explored.positions;
    let mut gain = Vec::with_capacity(graph.edge_count());
    for v in 0..graph.len() as u32 {
        let pos = &positions[v as usize];
        for &c in graph.successors(v) {
            gain.push(game.step(pos, &positions[c as usize]).gain);
        }
    }
    let mover: Option<Vec<u8>> = (!game.alternates()).then(|| {
        positions
            .iter()
            .map(|p| game.to_move(p).index() as u8)
            .collect()
    });
    let stop = |v: u32| {
        let pos = &positions[v as usize];
        (graph.degree(v) == 0 || game.terminal(pos).is_some())
            .then(|| i128::from(game.final_gain(pos)))
    };
    minimax_graph(graph, &gain, stop, mover.as_deref())
}

/// Minimax values on an explicit move graph, as [`minimax`] computes them for a
/// [`ScoreGame`]: the margin of each vertex for the player to move there, and the number
/// of moves to the end along the first best move (the depth).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Margins<N = i64> {
    /// The most the player to move at each vertex can get more than the opponent.
    pub margin: Vec<N>,
    /// The moves to the end along the first move (in successor order) that reaches the
    /// margin; 0 where the game ends.
    pub depth: Vec<u32>,
}

/// Negamax over an acyclic graph whose edges carry points: `gain[e]` is what the mover
/// collects along edge `e` (edges numbered as [`Csr::targets`] lists them); `stop(v)` is
/// `Some(points)` when the game ends at `v` (the player to move there collects them),
/// whatever successors `v` has; a vertex with no successors and `None` ends with 0.
/// `mover` (`0` first, `1` second) is for games whose moves may keep the turn: a child's
/// margin is added rather than subtracted when its mover is the parent's. Without it,
/// every move passes the turn. Each move is valued by [`Step`], the best by [`Best`].
///
/// # Complexity
/// O(V + E): one reverse topological order, then one pass.
///
/// # Errors
/// [`Error::Cycle`] if the graph has a cycle; [`Error::Overflow`] if a margin leaves
/// `N`; [`Error::Unsupported`] if `gain` or `mover` have the wrong length.
pub fn minimax_graph<N: Margin>(
    graph: &Csr,
    gain: &[N],
    stop: impl Fn(u32) -> Option<N>,
    mover: Option<&[u8]>,
) -> Result<Margins<N>, Error> {
    let n = graph.len();
    if gain.len() != graph.edge_count() {
        return Err(Error::Unsupported(format!(
            "{} gains for {} edges",
            gain.len(),
            graph.edge_count()
        )));
    }
    if mover.is_some_and(|m| m.len() != n) {
        return Err(Error::Unsupported(format!(
            "movers for {} vertices, the graph has {n}",
            mover.map_or(0, <[u8]>::len)
        )));
    }
    let order = reverse_topological_order(graph, &graph.try_reverse()?)?;
    let mut margin = vec![N::default(); n];
    let mut depth = vec![0u32; n];
    let offsets = graph.offsets();
    for &v in &order {
        let vi = v as usize;
        let successors = graph.successors(v);
        if let Some(points) = stop(v) {
            margin[vi] = points;
            continue;
        }
        if successors.is_empty() {
            continue;
        }
        let mut best = Best::new();
        for (i, &c) in successors.iter().enumerate() {
            let ci = c as usize;
            let step = Step {
                keeps: mover.is_some_and(|m| m[ci] == m[vi]),
                gain: gain[offsets[vi] as usize + i],
            };
            let here = step.checked_value(margin[ci]).ok_or(Error::Overflow)?;
            best.offer(here, depth[ci].saturating_add(1));
        }
        let (m, d) = best.get().expect("a vertex with successors");
        margin[vi] = m;
        depth[vi] = d;
    }
    Ok(Margins { margin, depth })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random acyclic graph (edges only to higher ids), its gains, stops and movers.
    fn graphs() -> impl Strategy<Value = (Csr, Vec<i64>, Vec<Option<i64>>, Vec<u8>)> {
        (1usize..12).prop_flat_map(|n| {
            let edges = proptest::collection::vec((0..n as u32, 0..n as u32), 0..30);
            (
                edges,
                proptest::collection::vec(-5i64..6, 30),
                proptest::collection::vec(proptest::option::weighted(0.2, -5i64..6), n),
                proptest::collection::vec(0u8..2, n),
            )
                .prop_map(move |(edges, gains, stops, movers)| {
                    let edges: Vec<(u32, u32)> = edges.into_iter().filter(|(a, b)| a < b).collect();
                    let graph = Csr::from_edges(n, &edges);
                    let gain = gains[..graph.edge_count()].to_vec();
                    (graph, gain, stops, movers)
                })
        })
    }

    /// Negamax by plain recursion, with the same tie rule (the first best move).
    fn brute(
        g: &Csr,
        gain: &[i64],
        stops: &[Option<i64>],
        mover: Option<&[u8]>,
        v: u32,
    ) -> (i64, u32) {
        if let Some(p) = stops[v as usize] {
            return (p, 0);
        }
        let start = g.offsets()[v as usize] as usize;
        let mut best: Option<(i64, u32)> = None;
        for (i, &c) in g.successors(v).iter().enumerate() {
            let (m, d) = brute(g, gain, stops, mover, c);
            let stays = mover.is_some_and(|o| o[c as usize] == o[v as usize]);
            let here = if stays {
                gain[start + i] + m
            } else {
                gain[start + i] - m
            };
            if best.is_none_or(|(b, _)| here > b) {
                best = Some((here, d + 1));
            }
        }
        best.unwrap_or((0, 0))
    }

    proptest! {
        #[test]
        fn minimax_graph_equals_plain_negamax((graph, gain, stops, movers) in graphs(), turns in any::<bool>()) {
            let mover = turns.then_some(&movers[..]);
            let got = minimax_graph(&graph, &gain, |v| stops[v as usize], mover).unwrap();
            for v in 0..graph.len() as u32 {
                let (m, d) = brute(&graph, &gain, &stops, mover, v);
                prop_assert_eq!(got.margin[v as usize], m, "vertex {}", v);
                prop_assert_eq!(got.depth[v as usize], d, "vertex {}", v);
            }
        }
    }

    #[test]
    fn minimax_graph_refuses_cycles_and_bad_lengths() {
        let cyclic = Csr::from_edges(2, &[(0, 1), (1, 0)]);
        assert!(matches!(
            minimax_graph(&cyclic, &[0, 0], |_| None, None),
            Err(Error::Cycle { .. })
        ));
        let line = Csr::from_edges(2, &[(0, 1)]);
        assert!(minimax_graph::<i64>(&line, &[], |_| None, None).is_err());
        assert!(minimax_graph(&line, &[1], |_| None, Some(&[0])).is_err());
        // One move worth 3 into a position worth 2 to the opponent: 1 for the mover.
        let m = minimax_graph(&line, &[3], |v| (v == 1).then_some(2), None).unwrap();
        assert_eq!((m.margin, m.depth), (vec![1, 2], vec![1, 0]));
    }

    /// A random graph on `n` vertices whose ids are shuffled, acyclic or not, with
    /// declared outcomes and movers.
    #[allow(clippy::type_complexity)]
    fn shuffled() -> impl Strategy<Value = (Csr, bool, Vec<Option<Outcome>>, Vec<u8>)> {
        (1usize..14).prop_flat_map(|n| {
            (
                proptest::collection::vec((0..n as u32, 0..n as u32), 0..40),
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
                any::<bool>(),
                proptest::collection::vec(
                    proptest::option::weighted(
                        0.15,
                        prop_oneof![Just(Outcome::Win), Just(Outcome::Loss), Just(Outcome::Draw)],
                    ),
                    n,
                ),
                proptest::collection::vec(0u8..2, n),
            )
                .prop_map(move |(edges, perm, acyclic, ends, movers)| {
                    let edges: Vec<(u32, u32)> = edges
                        .into_iter()
                        .filter(|(a, b)| !acyclic || a < b)
                        .map(|(a, b)| (perm[a as usize], perm[b as usize]))
                        .collect();
                    (Csr::from_edges(n, &edges), acyclic, ends, movers)
                })
        })
    }

    proptest! {
        /// The forward-only labelling gives what the engine gives, on every acyclic graph;
        /// the postorder is a reverse topological order, and refused on a cycle.
        #[test]
        fn label_acyclic_agrees_with_the_engine((g, acyclic, ends, movers) in shuffled()) {
            let reverse = g.reverse();
            let order = postorder(&g).unwrap();
            let sorted = reverse_topological_order(&g, &reverse).ok();
            prop_assert_eq!(order.is_some(), sorted.is_some());
            if acyclic {
                prop_assert!(order.is_some());
            }
            let Some(order) = order else { return Ok(()) };
            let mut place = vec![0usize; g.len()];
            for (i, &v) in order.iter().enumerate() {
                place[v as usize] = i;
            }
            for v in 0..g.len() as u32 {
                for &c in g.successors(v) {
                    prop_assert!(place[c as usize] < place[v as usize]);
                }
            }
            let terminal = |v: u32| ends[v as usize];
            for mover in [None, Some(movers.as_slice())] {
                let want = label_by_degree(|v| g.degree(v), &reverse, terminal, mover, &Control::default()).unwrap();
                let got = label_acyclic(&g, &order, terminal, mover).unwrap();
                for v in 0..g.len() as u32 {
                    prop_assert_eq!(got.value(v), want.value(v), "vertex {}", v);
                }
            }
            prop_assert_eq!(
                crate::impartial::grundy_values_in_order(&g, &order),
                crate::impartial::grundy_values(&g).unwrap()
            );
        }

        /// The parallel labelling gives the FIFO engine's labels and remoteness, cycles,
        /// declared ends and draws included.
        #[test]
        fn label_in_parallel_agrees((g, _acyclic, ends, _movers) in shuffled()) {
            let reverse = g.reverse();
            let terminal = |v: u32| ends[v as usize];
            let want = label_by_degree(|v| g.degree(v), &reverse, terminal, None, &Control::default()).unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let got = pool.install(|| label_by_degree_in_parallel(|v| g.degree(v), &reverse, terminal, &Control::default())).unwrap();
            for v in 0..g.len() as u32 {
                prop_assert_eq!(got.value(v), want.value(v), "vertex {}", v);
            }
        }

        /// The impartial one-pass solve gives the engine's labels with no declared ends
        /// and no mover, and the Grundy values; nothing on a cycle.
        #[test]
        fn impartial_solve_acyclic_agrees((g, _acyclic, _ends, _movers) in shuffled()) {
            let got = crate::impartial::solve_acyclic(&g).unwrap();
            prop_assert_eq!(got.is_some(), postorder(&g).unwrap().is_some());
            let Some((labels, values)) = got else { return Ok(()) };
            let want = label_by_degree(|v| g.degree(v), &g.reverse(), |_| None, None, &Control::default()).unwrap();
            for v in 0..g.len() as u32 {
                prop_assert_eq!(labels.value(v), want.value(v), "vertex {}", v);
            }
            prop_assert_eq!(values, crate::impartial::grundy_values(&g).unwrap());
        }
    }
}
