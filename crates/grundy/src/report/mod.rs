//! The analyzer: answers for a spec, as the command line and any front end show them —
//! outcome, remoteness, every move with its value, the Grundy value of each component,
//! scores — found by a chain of methods tried in turn ([`CHAIN`]), each in a file of its
//! own; and the tables of one-parameter families. The front ends only format these.
//!
//! | method | answers | file |
//! | --- | --- | --- |
//! | exact search | boards whose family offers it ([`crate::games::Searching::exact`]) and whose bound passes the positions an exploration may make: values with remoteness (score games: margins), before any exploring | `search.rs` |
//! | minimax | score games, explored whole | `minimax.rs` |
//! | retrograde | any game small enough to explore whole: labels with remoteness | `retrograde.rs` |
//! | Sprague–Grundy | impartial sums too large to explore, by their components' values | `sprague_grundy.rs` |
//! | rule | a proved rule of the special method, at any size | `rule.rs` |
//! | misère quotient | misère play of a sum of one take-and-break game's heaps too large to explore: outcome and every move's, by the quotient over heaps up to the largest | `quotient.rs` |
//! | search | boards too large to explore: the value of the position and of each move by a proof search, no remoteness | `search.rs` |
//!
//! Beside the chain, [`value::value`] gives a spec's combinatorial game value (canonical
//! forms, [`crate::cgt`]); a sum with partizan parts is solved by its parts' values
//! ([`value::solve_sum`], method `values`), before the chain.
//!
//! A method returns `Ok(None)` when it does not apply, or an error (say, too large)
//! that the next method may overcome; the first answer wins.

pub mod book;
mod minimax;
mod quotient;
mod retrograde;
mod rule;
mod search;
mod sprague_grundy;
mod table;
mod tablebase;
pub mod value;

use std::sync::Arc;

use crate::explore::Control;
use crate::game::{Outcome, Value};
use crate::games::{Kind, Pos, Spec, SumGame, Values};
pub use crate::misere::Play;
use crate::{Error, Limit};

pub use minimax::{minimax_ranked, RankMargins};
pub use retrograde::{label_ranked, RankValues};
pub use table::{table, tabulates, Table, TableError};
pub use tablebase::{lookup, Tablebase};

/// How much a request may use. Requests past a limit are refused up front with an
/// estimate, not attempted.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// Positions an exploration may create, cancellation and progress. For `solve`, a
    /// sum too large to explore whole is still judged by Grundy values, without
    /// remoteness. Default 2 000 000.
    pub control: Control<'a>,
    /// Bytes a Grundy table may take, or an exploration through a hash map of positions,
    /// estimated up front (default 4 GiB).
    pub max_memory: u64,
    /// Elementary steps a Grundy table may take (default 2·10^10, about a minute).
    pub max_work: u128,
    /// Heaps a heap game may compute to prove its period, when a heap is too large to
    /// tabulate (default 2^20: about a second for a hard game).
    pub max_proof_heaps: u64,
    /// Solved tiers to answer boards from before any search (tablebases, one per game).
    pub tablebases: &'a [Tablebase],
    /// Positions the proof search may visit (repeats counted) on a board too large to
    /// explore, before it gives up (default `search::Options::default().max_nodes`, 2.5·10^5:
    /// a second or two; 0: no proof search).
    pub max_search_nodes: u64,
    /// Most bytes of the proof search's transposition table, which starts small and doubles
    /// up to this (default 1 GiB).
    pub search_memory: u64,
    /// Bytes of the exact search's table, made whole at its start (default 64 MiB, 2^23
    /// entries: measured on Pons' test sets, a larger one costs more to clear and to miss
    /// in the caches than it saves in nodes; the empty 7 × 6 board wants more).
    pub exact_table: u64,
    /// Positions the exact search may visit (every thread together) on a board whose
    /// family offers it ([`crate::games::Searching::exact`]), before it gives up (default
    /// 2·10^10: some twenty minutes; 0: no exact search, the proof search answers).
    pub max_exact_nodes: u64,
    /// Threads of the exact search (default 1; 0: every core).
    pub search_threads: usize,
    /// Whether the exact search proves only win, draw or loss, not the remoteness (a weak
    /// solution, faster; default `false`).
    pub weak: bool,
    /// The exact search's tables kept between requests (a game in progress, a list of
    /// positions), owned by the caller; `None` (the default): a fresh table each request.
    pub search_cache: Option<&'a SearchCache>,
}

/// The exact search's transposition tables, kept by a caller between requests so that
/// what one search proved serves the next: one table a game (by its name), the last
/// [`SearchCache::GAMES`] games used.
#[derive(Default)]
pub struct SearchCache {
    tables: std::sync::Mutex<Vec<(String, Arc<crate::search::exact::Table>)>>,
}

impl std::fmt::Debug for SearchCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchCache").finish_non_exhaustive()
    }
}

impl SearchCache {
    /// Games whose tables are kept; the one used longest ago gives way.
    pub const GAMES: usize = 2;

    /// An empty cache.
    #[must_use]
    pub fn new() -> SearchCache {
        SearchCache::default()
    }

    /// The table of `game`, made by `make` the first time.
    fn table(
        &self,
        game: &str,
        make: impl FnOnce() -> Result<crate::search::exact::Table, Error>,
    ) -> Result<Arc<crate::search::exact::Table>, Error> {
        let mut tables = self
            .tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = tables.iter().position(|(g, _)| g == game) {
            let entry = tables.remove(i);
            let table = Arc::clone(&entry.1);
            tables.push(entry);
            return Ok(table);
        }
        if tables.len() >= Self::GAMES {
            tables.remove(0);
        }
        let table = Arc::new(make()?);
        tables.push((game.to_string(), Arc::clone(&table)));
        Ok(table)
    }
}

impl std::fmt::Debug for Limits<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("control", &self.control)
            .field("max_memory", &self.max_memory)
            .field("max_work", &self.max_work)
            .field("max_proof_heaps", &self.max_proof_heaps)
            .field("tablebases", &self.tablebases)
            .field("max_search_nodes", &self.max_search_nodes)
            .field("search_memory", &self.search_memory)
            .field("exact_table", &self.exact_table)
            .field("max_exact_nodes", &self.max_exact_nodes)
            .field("search_threads", &self.search_threads)
            .field("weak", &self.weak)
            .field("search_cache", &self.search_cache)
            .finish()
    }
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            control: Control {
                max_positions: 2_000_000,
                ..Control::default()
            },
            max_memory: 4 << 30,
            max_work: 20_000_000_000,
            max_proof_heaps: 1 << 20,
            tablebases: &[],
            max_search_nodes: crate::search::Options::default().max_nodes,
            search_memory: crate::search::Options::default().memory,
            exact_table: 1 << 26,
            max_exact_nodes: 20_000_000_000,
            search_threads: 1,
            weak: false,
            search_cache: None,
        }
    }
}

pub use crate::games::MAX_LISTED_SPLITS;

/// The most moves a report lists one by one (winning moves are all listed, as far as
/// [`MAX_LISTED_WORDS`] allows).
pub const MAX_LISTED_MOVES: usize = 10_000;

/// The most numbers the moves listed may hold together (each is the whole position after
/// the move, a part counting one more): a long sum lists as many as fit (4·10^6 numbers:
/// 400 positions of 10 000 heaps), and says that it lists only some.
pub const MAX_LISTED_WORDS: usize = 1 << 22;

/// How many positions after a move from `root` a listing may hold: [`MAX_LISTED_WORDS`]
/// over the root's size, at least one.
pub(crate) fn listable(root: &[Pos]) -> usize {
    let words: usize = root.iter().map(|p| p.len() + 1).sum();
    (MAX_LISTED_WORDS / words.max(1)).max(1)
}

/// How an answer was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Every reachable position explored and labelled by retrograde analysis.
    Retrograde,
    /// Too large to explore whole: judged by the Sprague–Grundy values of the components.
    SpragueGrundy,
    /// A score game: every position explored, minimax (negamax) values.
    Minimax,
    /// Too large to explore: a proved rule of the special method (see `Report::rule`).
    Rule,
    /// Read from solved tiers (a tablebase), with no search.
    Tablebase,
    /// Too large to explore whole: the position's value and each move's by a search — the
    /// exact search (with remoteness, unless weak) where the family offers it, else the
    /// proof search (a weak solution, no remoteness).
    Search,
    /// A sum with partizan parts: judged by the parts' combinatorial game values (each
    /// part's canonical form, [`value`]), no remoteness.
    Values,
}

/// One method of the chain: it answers, declines (`Ok(None)`), or fails.
pub trait Analysis: Sync {
    /// The method's name, for messages.
    fn name(&self) -> &'static str;
    /// Answers `ctx`'s spec, or declines.
    ///
    /// # Errors
    /// What stops this method; the chain goes on after [`Error::TooLarge`] and
    /// [`Error::Unsupported`].
    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error>;
}

/// The methods, in the order they are tried.
pub static CHAIN: &[&dyn Analysis] = &[
    &search::Exact,
    &minimax::Minimax,
    &retrograde::Retrograde,
    &sprague_grundy::SpragueGrundy,
    &rule::ByRule,
    &search::Search,
];

impl Method {
    /// The word used in output.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Retrograde => "retrograde",
            Method::SpragueGrundy => "sprague-grundy",
            Method::Minimax => "minimax",
            Method::Rule => "rule",
            Method::Tablebase => "tablebase",
            Method::Search => "search",
            Method::Values => "values",
        }
    }
}

crate::game::serialize_as_str!(Method);

/// A component of a sum and its Grundy value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Component {
    /// The component's spec.
    pub spec: String,
    /// Its Grundy value.
    pub grundy: u64,
}

/// One move from the position: where it leads, what it gains, how a person names it,
/// and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Move {
    /// The position it leads to.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub to: Spec,
    /// The spec of the position it leads to.
    pub spec: String,
    /// The move as a person names it: "take 2 from heap 3", "b2".
    pub name: String,
    /// Score games: the points this move takes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gain: Option<i64>,
    /// Score games: the points this move puts in the opponent's total, where the family
    /// has such moves (Ioiwari); `None` when it gives nothing.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gift: Option<i64>,
    /// Whether the same player moves again after it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub again: bool,
    /// Its value for the player who makes it (a winning move is `Win`).
    pub outcome: Outcome,
    /// Moves to the end after making it, under perfect play, where known.
    pub remoteness: Option<u32>,
    /// The Grundy value of the position it leads to (impartial games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub grundy: Option<u64>,
    /// The final totals `[mover, other]` after it, under perfect play (score games),
    /// counting from this position on.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub scores: Option<[i64; 2]>,
    /// Score games: how far this move falls short of the best, in final margin (0: a
    /// best move).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub worse_by: Option<i64>,
}

/// Everything `solve` knows about a position. Serialized (feature `serde`) as the stable
/// JSON of `grundy solve --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The position, as a spec.
    pub spec: String,
    /// The outcome for the player to move.
    pub outcome: Outcome,
    /// Moves to the end under perfect play; `None` for a draw or when the game was judged
    /// by Grundy values without exploring it.
    pub remoteness: Option<u32>,
    /// The specs of the positions the winning moves lead to (score games: the best moves
    /// of a won position).
    pub winning_moves: Vec<String>,
    /// The Grundy value (impartial games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub grundy: Option<u64>,
    /// For a sum of two or more components: each with its Grundy value.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub components: Vec<Component>,
    /// The final totals `[player to move, other]` under perfect play (score games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub scores: Option<[i64; 2]>,
    /// The moves, each with its value, in move order (at most [`MAX_LISTED_MOVES`]).
    pub moves: Vec<Move>,
    /// Whether `moves` lists only some moves (it then lists every winning one).
    pub moves_truncated: bool,
    /// How the answer was found.
    pub method: Method,
    /// Positions explored, if the game was explored.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub positions: Option<u64>,
    /// Whether `positions` counts positions up to the board's symmetries (a position and
    /// its mirror images once: tic-tac-toe's 765 of the 5478 play reaches).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub up_to_symmetry: bool,
    /// Positions the proof search visited, repeats counted (method `search`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nodes: Option<u64>,
    /// Whether `winning_moves` lists only some winning moves: splits of a heap too large
    /// to list, one per class of equal values; or, in a long sum, as many as
    /// [`MAX_LISTED_WORDS`] holds.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub winning_moves_truncated: bool,
    /// Whether only the outcomes were proved (a weak solution by search: no remoteness).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub weak: bool,
    /// The proved rule that answered, with its theorem (method `rule`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rule: Option<String>,
    /// The play convention the outcomes are under (`"play": "misère"`; normal play is
    /// not written).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Play::is_normal"))]
    pub play: Play,
}

impl Report {
    /// The report of `spec`'s `outcome` found by `method`, in normal play, with nothing
    /// else known yet: no remoteness, moves, values or counts (each solver fills in what
    /// it found, the rest taken from here: `Report { moves, ..Report::new(…) }`).
    #[must_use]
    pub fn new(spec: String, outcome: Outcome, method: Method) -> Report {
        Report {
            spec,
            outcome,
            remoteness: None,
            winning_moves: Vec::new(),
            grundy: None,
            components: Vec::new(),
            scores: None,
            moves: Vec::new(),
            moves_truncated: false,
            method,
            positions: None,
            up_to_symmetry: false,
            nodes: None,
            winning_moves_truncated: false,
            weak: false,
            rule: None,
            play: Play::Normal,
        }
    }

    /// One line on why a perfect player makes move `m` from this position, said to the
    /// opponent — the same words in every front end.
    #[must_use]
    pub fn explain(&self, m: &Move) -> String {
        if let Some([me, other]) = m.scores {
            let worse = m.worse_by.unwrap_or(0);
            let quality = if worse == 0 {
                "the best move".to_string()
            } else {
                format!("worse than the best by {worse}")
            };
            return format!(
                "{quality}: with best play from here on, what is left splits {me} (mine) to {other} (yours)"
            );
        }
        let grundy = self
            .grundy
            .map_or(String::new(), |g| format!(" (Grundy value {g})"));
        let left = m.remoteness.map(|r| r.saturating_sub(1));
        match m.outcome {
            Outcome::Win => {
                let why = match (m.grundy, self.method) {
                    (Some(0), _) => "leaves Grundy value 0",
                    (_, Method::Rule) => "leaves a position the rule calls lost",
                    _ => "leaves you a lost position",
                };
                match left {
                    Some(0) => format!("{why}: no move is left, you lose"),
                    Some(r) => format!(
                        "{why}: you lose, in {} at most",
                        crate::number::count(u128::from(r), "more move", "more moves")
                    ),
                    None => format!("{why}: you lose"),
                }
            }
            Outcome::Draw => "no winning move; this keeps the draw".into(),
            Outcome::Loss => match left {
                Some(r) if matches!(self.method, Method::Retrograde | Method::Tablebase) => {
                    format!(
                        "every move loses{grundy}; this one holds out longest: you need {}",
                        crate::number::count(u128::from(r), "more move", "more moves")
                    )
                }
                _ => format!("every move loses{grundy}; this one changes least"),
            },
        }
    }

    /// The move a perfect player makes: a win as fast as possible, else a draw, else a
    /// loss as slowly as possible (score games: the best total); the first of equals in
    /// the order moves are listed, chosen by [`Best`](crate::game::Best) as every solver
    /// chooses. A win whose remoteness is not known (a weak solution) comes after the
    /// wins whose remoteness is. `None` without moves.
    #[must_use]
    pub fn best_move(&self) -> Option<&Move> {
        if self.scores.is_some() {
            return self.moves.iter().find(|m| m.worse_by == Some(0));
        }
        let mut best = crate::game::Best::new();
        for m in &self.moves {
            let value = match (m.outcome, m.remoteness) {
                (Outcome::Win, None) => Value::Win(u32::MAX),
                _ => move_value(m),
            };
            best.offer(value.preference(), m);
        }
        let best = best.get().map(|(_, m)| m);
        match self.winning_moves.first() {
            // A won position whose moves were not all listed: its first winning move.
            Some(first) if best.is_none_or(|m| m.outcome != Outcome::Win) => {
                self.moves.iter().find(|m| &m.spec == first)
            }
            _ => best,
        }
    }
}

/// A refusal past the position budget, for what has up to `positions` positions.
pub(crate) fn over_positions(what: String, positions: u128, bytes: Option<u128>) -> Error {
    Error::over(Limit::Positions, what, bytes, Some(positions))
}

/// `2.5e23`-style rendering of a large count.
pub(crate) fn sci(x: u128) -> String {
    if x < 100_000 {
        x.to_string()
    } else {
        format!("{:.1e}", x as f64)
    }
}

/// The Grundy oracle of each part of a spec, shared.
pub type Oracles = Arc<Vec<Box<dyn Values>>>;

/// What a computation would take past the limits, in words: the steps, the memory, or
/// both, each with its limit (only what is past it).
/// The refusal of a computation of `work` steps and `bytes` past `limits`: past the
/// budget of steps if that is exceeded (the first to lift), else past the memory.
pub(crate) fn budget_refusal(what: String, work: u128, bytes: u128, limits: &Limits<'_>) -> Error {
    if work > limits.max_work {
        Error::over(Limit::Work, what, Some(bytes), Some(work))
    } else {
        Error::over(Limit::Memory, what, Some(bytes), Some(bytes))
    }
}

pub(crate) fn over_budget(work: u128, bytes: u128, limits: &Limits<'_>) -> String {
    let steps = format!(
        "about {} {} (limit {})",
        sci(work),
        if work == 1 { "step" } else { "steps" },
        sci(limits.max_work)
    );
    let memory = format!(
        "{} of memory (limit {})",
        crate::human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX)),
        crate::human_bytes(limits.max_memory)
    );
    match (
        work > limits.max_work,
        bytes > u128::from(limits.max_memory),
    ) {
        (true, true) => format!("{steps} and {memory}"),
        (true, false) => steps,
        _ => memory,
    }
}

/// What the methods share about one request: the spec as a game, the limits, and the
/// Grundy oracles once some method has built them.
pub struct Context<'s, 'l> {
    /// The spec.
    pub spec: &'s Spec,
    /// The limits.
    pub limits: &'s Limits<'l>,
    /// The spec as one game, and its root.
    pub game: SumGame,
    /// The root position of [`Context::game`].
    pub root: Vec<Pos>,
    /// The play convention asked for.
    pub play: Play,
    oracles: Option<Result<Oracles, Error>>,
    /// What the last method refused for size said it would need, if one did.
    refused: Option<String>,
}

impl Context<'_, '_> {
    /// The Grundy oracle of each part (impartial specs), built once, refused up front
    /// past the limits.
    ///
    /// # Errors
    /// [`Error::TooLarge`] with an estimate, [`Error::Unsupported`] if a part has no
    /// Grundy values, [`Error::Cancelled`].
    pub fn oracles(&mut self) -> Result<Oracles, Error> {
        if self.oracles.is_none() {
            self.oracles = Some(build_oracles(self.spec, self.limits).map(Arc::new));
        }
        self.oracles.clone().expect("just built")
    }

    /// The Grundy value of each component and of the whole, when the oracles can be built.
    ///
    /// # Errors
    /// As [`Context::oracles`].
    pub fn components(&mut self) -> Result<(Vec<Component>, u64), Error> {
        let oracles = self.oracles()?;
        let mut components = Vec::new();
        for (part, oracle) in self.spec.parts.iter().zip(oracles.iter()) {
            for c in part.components() {
                components.push(Component {
                    spec: c.to_string(),
                    grundy: oracle.value(&c.position),
                });
            }
        }
        let total = components.iter().fold(0, |acc, c| acc ^ c.grundy);
        Ok((components, total))
    }

    /// The Grundy value of a position of the game, by the oracles.
    #[must_use]
    pub fn value_of(oracles: &[Box<dyn Values>], game: &SumGame, position: &[Pos]) -> u64 {
        position.iter().enumerate().fold(0, |acc, (i, p)| {
            game.family(i)
                .components(p)
                .iter()
                .fold(acc, |a, c| a ^ oracles[i].value(c))
        })
    }

    /// A move to `child` from the root, typed, without its value yet.
    #[must_use]
    pub fn typed_move(&self, child: &[Pos]) -> Move {
        typed_move(&self.game, &self.root, child)
    }
}

/// A move from `from` to `child`, named by the family that changed, with no value yet.
#[must_use]
pub fn typed_move(game: &SumGame, from: &[Pos], child: &[Pos]) -> Move {
    let to = game.spec(child);
    let changed = (0..from.len()).find(|&i| from[i] != child[i]).unwrap_or(0);
    let family = game.family(changed);
    let mut name = family.move_name(&from[changed], &child[changed]);
    if game.len() > 1 {
        name = format!("{name} in part {}", changed + 1);
    }
    let gain = (family.kind() == Kind::Score).then(|| family.gain(&from[changed], &child[changed]));
    let gift = Some(family.gift(&from[changed], &child[changed])).filter(|&g| g != 0);
    Move {
        spec: to.to_string(),
        to,
        name,
        gain,
        gift,
        again: game.keeps_turn(from, child),
        outcome: Outcome::Draw,
        remoteness: None,
        grundy: None,
        scores: None,
        worse_by: None,
    }
}

/// Builds the Grundy oracle of each part, refusing up front what would exceed the limits.
fn build_oracles(spec: &Spec, limits: &Limits<'_>) -> Result<Vec<Box<dyn Values>>, Error> {
    let mut total_bytes = 0u128;
    let mut total_work = 0u128;
    let components: Vec<Vec<Pos>> = spec
        .parts
        .iter()
        .map(|p| p.family.components(&p.position))
        .collect();
    for (part, comps) in spec.parts.iter().zip(&components) {
        let Some(cost) = crate::values::cost(&*part.family, comps, limits.max_proof_heaps) else {
            return Err(Error::Unsupported(format!(
                "`{}` has no Grundy values",
                part.family.name()
            )));
        };
        total_bytes = total_bytes.saturating_add(cost.bytes);
        total_work = total_work.saturating_add(cost.work);
    }
    if total_bytes > u128::from(limits.max_memory) || total_work > limits.max_work {
        return Err(budget_refusal(
            format!(
                "no formula is known here, and the Grundy tables would take {}",
                over_budget(total_work, total_bytes, limits)
            ),
            total_work,
            total_bytes,
            limits,
        ));
    }
    spec.parts
        .iter()
        .zip(&components)
        .map(|(part, comps)| {
            crate::values::build(
                &part.family,
                comps,
                limits.max_proof_heaps,
                limits.max_work,
                &limits.control,
            )
        })
        .collect()
}

/// Solves a spec: from a tablebase of the limits when one holds the position
/// ([`lookup`]), else by the first method of [`CHAIN`] that answers. A method that declines or
/// is refused for size passes to the next; when none answers, the most telling refusal
/// is returned.
///
/// # Errors
/// [`Error::TooLarge`] with an estimate when no method fits; [`Error::Unsupported`] for a
/// partizan or score game inside a sum; [`Error::Cancelled`].
pub fn solve(spec: &Spec, limits: &Limits<'_>) -> Result<Report, Error> {
    solve_in(spec, Play::Normal, limits)
}

/// The methods under misère play, in the order they are tried: the general method on
/// the whole sum (through [`crate::misere::Misere`]), then a family's proved misère rule
/// (misère Nim) when the position is too large to explore, then the misère quotient of a
/// sum of one take-and-break game's heaps (`quotient.rs`).
pub static MISERE_CHAIN: &[&dyn Analysis] = &[
    &retrograde::Retrograde,
    &rule::ByRule,
    &quotient::ByQuotient,
];

/// Solves a spec under the play convention `play`: [`solve`] for normal play; under
/// misère play (the player who cannot move wins), by [`MISERE_CHAIN`] — no tablebase and
/// no Grundy values, which are normal play's. The report's `play` says which.
///
/// # Errors
/// As [`solve`]; [`Error::Unsupported`] for misère play of a part that is not impartial.
pub fn solve_in(spec: &Spec, play: Play, limits: &Limits<'_>) -> Result<Report, Error> {
    let chain = match play {
        Play::Normal => {
            if let Some(report) = tablebase::answer(limits.tablebases, spec, limits)? {
                return Ok(report);
            }
            if let Some(report) = value::solve_sum(spec, limits)? {
                return Ok(report);
            }
            CHAIN
        }
        Play::Misere => {
            if let Some(part) = spec.parts.iter().find(|p| !p.is_impartial()) {
                return Err(Error::Unsupported(format!(
                    "misère play is for impartial games, and `{part}` is not one"
                )));
            }
            MISERE_CHAIN
        }
    };
    let (game, root) = SumGame::new(spec)?;
    let mut ctx = Context {
        spec,
        limits,
        game,
        root,
        play,
        oracles: None,
        refused: None,
    };
    let mut refusal: Option<Error> = None;
    for method in chain {
        match method.answer(&mut ctx) {
            Ok(Some(report)) => return Ok(Report { play, ..report }),
            Ok(None) => {}
            Err(e) if e.is_too_large() => {
                // The later methods are the fallbacks for size: the last refusal says
                // what the answer would need.
                ctx.refused = e.too_large_what().map(str::to_owned);
                refusal = Some(e);
            }
            Err(e @ Error::Unsupported(_)) => {
                if !refusal.as_ref().is_some_and(Error::is_too_large) {
                    refusal = Some(e);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(refusal.unwrap_or_else(|| {
        Error::Unsupported(format!(
            "no method of the analyzer answers `{spec}`{}",
            if play == Play::Misere {
                " in misère play"
            } else {
                ""
            }
        ))
    }))
}

/// The value of a position alone, without its moves: what a list of positions asks
/// (`grundy solve GAME --positions FILE`, Pons' test sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evaluation {
    /// The outcome for the player to move.
    pub outcome: Outcome,
    /// Moves to the end under perfect play, when known.
    pub remoteness: Option<u32>,
    /// How it was found.
    pub method: Method,
    /// Positions the search visited, when it searched.
    pub nodes: Option<u64>,
}

/// The value of `spec`'s position alone: read from a tablebase (or book) of the limits
/// that holds its tier; else by the exact search where its family offers it (the moves are
/// not searched); else the outcome of [`solve`].
///
/// # Errors
/// As [`solve`].
pub fn evaluate(spec: &Spec, limits: &Limits<'_>) -> Result<Evaluation, Error> {
    if let Some(found) = tablebase::evaluation(limits.tablebases, spec)? {
        return Ok(found);
    }
    if let Some(found) = search::exact_value(spec, limits)? {
        return Ok(found);
    }
    let report = solve(spec, limits)?;
    Ok(Evaluation {
        outcome: report.outcome,
        remoteness: report.remoteness,
        method: report.method,
        nodes: report.nodes,
    })
}

/// The value a labelled move has for its mover, as a [`Value`].
#[must_use]
pub fn move_value(m: &Move) -> Value {
    match (m.outcome, m.remoteness) {
        (Outcome::Win, r) => Value::Win(r.unwrap_or(0)),
        (Outcome::Loss, r) => Value::Loss(r.unwrap_or(0)),
        (Outcome::Draw, _) => Value::Draw,
    }
}
