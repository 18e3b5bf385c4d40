//! Answers for a spec, as the command line and any front end show them: outcome,
//! remoteness, every move with its value, the Grundy value of each component, scores —
//! and the tables of one-heap families. The front ends only format these.

use crate::explore::{explore, Control};
use crate::game::{Game, Outcome, ScoreGame, Value};
use crate::games::{oracle_size, Ends, HeapFamily, Multiple, Oracle, Part, Rules, Spec, SumGame};
use crate::impartial::sum_value;
use crate::pattern::rules::{MultipleRule, WythoffRule};
use crate::solve::{label_explored, minimax};
use crate::Error;

/// How much a request may use. Requests past a limit are refused up front with an
/// estimate, not attempted.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// Positions an exploration may create, cancellation and progress. For `solve`, a
    /// sum too large to explore whole is still judged by Grundy values, without
    /// remoteness. Default 2 000 000.
    pub control: Control<'a>,
    /// Bytes a Grundy table may take (default 4 GiB).
    pub max_memory: u64,
    /// Elementary steps a Grundy table may take (default 2·10^10, about a minute).
    pub max_work: u128,
    /// Heaps a heap game may compute to prove its period, when a heap is too large to
    /// tabulate (default 2^20: about a second for a hard game).
    pub max_proof_heaps: u64,
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
        }
    }
}

/// Splits of one heap listed in full; past this, with a proved period, only splits whose
/// smaller part lies within the pre-period and two periods.
pub const MAX_LISTED_SPLITS: u64 = 1 << 20;

/// The most moves a report lists one by one (winning moves are always all listed).
pub const MAX_LISTED_MOVES: usize = 10_000;

/// How an answer was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "kebab-case")
)]
pub enum Method {
    /// Every reachable position explored and labelled by retrograde analysis.
    Retrograde,
    /// Too large to explore whole: judged by the Sprague–Grundy values of the components.
    SpragueGrundy,
    /// A score game: every position explored, minimax (negamax) values.
    Minimax,
    /// Too large to explore: a proved rule of the special method (see `Report::rule`).
    Rule,
}

impl Method {
    /// The word used in output.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Retrograde => "retrograde",
            Method::SpragueGrundy => "sprague-grundy",
            Method::Minimax => "minimax",
            Method::Rule => "rule",
        }
    }
}

/// A component of a sum and its Grundy value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Component {
    /// The component's spec.
    pub spec: String,
    /// Its Grundy value.
    pub grundy: u64,
}

/// One move from the position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Move {
    /// The spec of the position it leads to.
    pub spec: String,
    /// Its value for the player who makes it (a winning move is `Win`).
    pub outcome: Outcome,
    /// Moves to the end after making it, under perfect play, where known.
    pub remoteness: Option<u32>,
    /// The Grundy value of the position it leads to (impartial games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub grundy: Option<u64>,
    /// The final totals `[mover, other]` after it, under perfect play (score games).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub scores: Option<[i64; 2]>,
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
    /// Whether `winning_moves` lists only some winning moves: splits of a heap too large
    /// to list, one per class of equal values.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub winning_moves_truncated: bool,
    /// The proved rule that answered, with its theorem (method `rule`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rule: Option<String>,
}

impl Report {
    /// One line on why a perfect player makes move `m` from this position, said to the
    /// opponent — the same words in every front end.
    #[must_use]
    pub fn explain(&self, m: &Move) -> String {
        if let Some([me, other]) = m.scores {
            return format!(
                "with best play from here the totals end {me} (mine) to {other} (yours)"
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
                    Some(r) => format!("{why}: you lose, in {r} more moves at most"),
                    None => format!("{why}: you lose"),
                }
            }
            Outcome::Draw => "no winning move; this keeps the draw".into(),
            Outcome::Loss => match left {
                Some(r) if self.method == Method::Retrograde => format!(
                    "every move loses{grundy}; this one holds out longest: you need {r} more moves"
                ),
                _ => format!("every move loses{grundy}; this one changes least"),
            },
        }
    }

    /// The move a perfect player makes: a win as fast as possible, else a draw, else a
    /// loss as slowly as possible (score games: the best total). `None` without moves.
    #[must_use]
    pub fn best_move(&self) -> Option<&Move> {
        if let Some(first) = self.winning_moves.first() {
            return self
                .moves
                .iter()
                .filter(|m| m.outcome == Outcome::Win)
                .min_by_key(|m| m.remoteness.unwrap_or(u32::MAX))
                .or_else(|| self.moves.iter().find(|m| &m.spec == first));
        }
        if self.scores.is_some() {
            return self
                .moves
                .iter()
                .max_by_key(|m| m.scores.map(|s| s[0] - s[1]));
        }
        self.moves.iter().max_by_key(|m| {
            let value = match (m.outcome, m.remoteness) {
                (Outcome::Win, r) => Value::Win(r.unwrap_or(0)),
                (Outcome::Loss, r) => Value::Loss(r.unwrap_or(0)),
                (Outcome::Draw, _) => Value::Draw,
            };
            value.preference()
        })
    }
}

fn too_large(what: String, bytes: u128) -> Error {
    Error::TooLarge {
        what,
        need: Some(u64::try_from(bytes).unwrap_or(u64::MAX)),
    }
}

/// `2.5e23`-style rendering of a large count.
fn sci(x: u128) -> String {
    if x < 100_000 {
        x.to_string()
    } else {
        format!("{:.1e}", x as f64)
    }
}

/// Builds the Grundy oracle of each part, refusing up front what would exceed the limits.
fn oracles(game: &SumGame, root: &[Vec<u64>], limits: &Limits<'_>) -> Result<Vec<Oracle>, Error> {
    let mut total_bytes = 0u128;
    let mut total_work = 0u128;
    let sizes: Vec<u64> = game
        .rules()
        .iter()
        .zip(root)
        .map(|(rules, p)| oracle_size(rules, p))
        .collect();
    for (rules, &size) in game.rules().iter().zip(&sizes) {
        let cost = Oracle::cost(rules, size, limits.max_proof_heaps);
        total_bytes = total_bytes.saturating_add(cost.bytes);
        total_work = total_work.saturating_add(cost.work);
    }
    if total_bytes > u128::from(limits.max_memory) || total_work > limits.max_work {
        return Err(too_large(
            format!(
                "no formula is known here, and the Grundy tables would take about {} steps (limit {}) and more memory than the limit of {}",
                sci(total_work),
                sci(limits.max_work),
                crate::human_bytes(limits.max_memory)
            ),
            total_bytes,
        ));
    }
    game.rules()
        .iter()
        .zip(&sizes)
        .map(|(rules, &size)| Oracle::build(rules, size, limits.max_proof_heaps, &limits.control))
        .collect()
}

/// An upper bound on the positions reachable in a sum (saturating), to refuse an
/// exploration before it starts.
fn state_bound(game: &SumGame, root: &[Vec<u64>]) -> u128 {
    let mut bound = 1u128;
    for (rules, p) in game.rules().iter().zip(root) {
        let part = match rules {
            Rules::Heaps(HeapFamily::Octal(code)) if code.splits() => p
                .iter()
                .map(|&h| partitions_up_to(h))
                .fold(1u128, u128::saturating_mul),
            Rules::Heaps(_) => p
                .iter()
                .map(|&h| u128::from(h) + 1)
                .fold(1u128, u128::saturating_mul),
            Rules::Multiple(_) => {
                let n = u128::from(p[0]) + 1;
                n.saturating_mul(n + 1) / 2
            }
            Rules::Wythoff => (u128::from(p[0]) + 1).saturating_mul(u128::from(p[1]) + 1),
        };
        bound = bound.saturating_mul(part);
    }
    bound
}

/// The number of multisets of positive integers with sum at most `h` (saturating at
/// `u128::MAX` — reached near h = 400).
fn partitions_up_to(h: u64) -> u128 {
    if h > 400 {
        return u128::MAX;
    }
    let h = h as usize;
    let mut p = vec![0u128; h + 1];
    p[0] = 1;
    for part in 1..=h {
        for s in part..=h {
            p[s] = p[s].saturating_add(p[s - part]);
        }
    }
    p.iter().fold(0u128, |a, &b| a.saturating_add(b))
}

/// Solves a spec: explores it whole when it fits, judges a sum by Grundy values when it
/// does not, refuses what neither can do within `limits`.
///
/// # Errors
/// [`Error::TooLarge`] with an estimate when no method fits; [`Error::Unsupported`] for a
/// score game inside a sum; [`Error::Cancelled`].
pub fn solve(spec: &Spec, limits: &Limits<'_>) -> Result<Report, Error> {
    if !spec.is_impartial() {
        return match spec.parts.as_slice() {
            [Part::Ends { row }] => solve_ends(spec, row, limits),
            _ => Err(Error::Unsupported(
                "`ends(…)` is a score game: it can be solved alone, not as part of a sum".into(),
            )),
        };
    }
    let (game, root) = SumGame::new(spec)?;
    // Grundy tables when they fit; past them, a proved rule where one applies.
    let oracles = match oracles(&game, &root, limits) {
        Ok(oracles) => oracles,
        Err(e @ Error::TooLarge { .. }) => return solve_by_rule(spec).ok_or(e),
        Err(e) => return Err(e),
    };
    let value_of = |position: &[Vec<u64>]| -> u64 {
        oracles
            .iter()
            .zip(position)
            .fold(0, |acc, (o, p)| acc ^ o.value(p))
    };
    let components: Vec<Component> = spec
        .parts
        .iter()
        .zip(&oracles)
        .flat_map(|(part, oracle)| {
            part.components().into_iter().map(move |c| {
                let position: Vec<u64> = match &c {
                    Part::Heaps { heaps, .. } => heaps.clone(),
                    Part::Multiple { n, limit, .. } => vec![*n, *limit],
                    Part::Wythoff { a, b } => vec![*a, *b],
                    Part::Ends { .. } => unreachable!("impartial spec"),
                };
                Component {
                    spec: c.to_string(),
                    grundy: oracle.value(&position),
                }
            })
        })
        .collect();
    let grundy = sum_value(&components.iter().map(|c| c.grundy).collect::<Vec<_>>());
    let components = if components.len() > 1 {
        components
    } else {
        Vec::new()
    };

    // Refuse to explore what could not finish: the positions, and the moves (edges) —
    // at most the root's number of moves from each position.
    let states = state_bound(&game, &root);
    let edges = states.saturating_mul(root_moves(&game, &root));
    let cap = u128::from(limits.control.max_positions);
    let explorable = states <= cap && edges <= cap.saturating_mul(EDGES_PER_POSITION);
    let explored = if explorable {
        match explore(&game, &root, &limits.control) {
            Ok(explored) => Some(explored),
            Err(Error::TooLarge { .. }) => None,
            Err(e) => return Err(e),
        }
    } else {
        None
    };

    if let Some(explored) = explored {
        let positions = explored.len() as u64;
        let solution = label_explored(&game, explored, &limits.control)?;
        let value = solution.root_value();
        debug_assert_eq!(
            value.outcome() == Outcome::Win,
            grundy != 0,
            "Sprague–Grundy and retrograde analysis disagree on {spec}"
        );
        let mut children = Vec::new();
        game.moves(&root, &mut children);
        let moves: Vec<Move> = children
            .iter()
            .zip(solution.moves(0))
            .take(MAX_LISTED_MOVES)
            .map(|(child, (_, v))| {
                let mine = v.parent();
                Move {
                    spec: game.spec(child).to_string(),
                    outcome: mine.outcome(),
                    remoteness: mine.remoteness(),
                    grundy: Some(value_of(child)),
                    scores: None,
                }
            })
            .collect();
        let winning_moves = children
            .iter()
            .zip(solution.moves(0))
            .filter(|(_, (_, v))| v.outcome() == Outcome::Loss)
            .map(|(child, _)| game.spec(child).to_string())
            .collect();
        return Ok(Report {
            spec: spec.to_string(),
            outcome: value.outcome(),
            remoteness: value.remoteness(),
            winning_moves,
            grundy: Some(grundy),
            components,
            scores: None,
            moves_truncated: children.len() > moves.len(),
            moves,
            method: Method::Retrograde,
            positions: Some(positions),
            rule: None,
            winning_moves_truncated: false,
        });
    }

    // Too large to explore: judge by Grundy values.
    let mut winning_truncated = false;
    let winning: Vec<Vec<Vec<u64>>> =
        winning_positions(&game, &root, &oracles, grundy, &mut winning_truncated);
    let (moves, truncated) = if root_moves(&game, &root) <= MAX_LISTED_MOVES as u128 {
        let mut children = Vec::new();
        game.moves(&root, &mut children);
        let moves = children
            .iter()
            .map(|c| grundy_move(&game, c, value_of(c)))
            .collect();
        (moves, false)
    } else {
        let mut listed: Vec<Move> = winning.iter().map(|c| grundy_move(&game, c, 0)).collect();
        if let Some(c) = some_move(&game, &root) {
            if listed.is_empty() {
                listed.push(grundy_move(&game, &c, value_of(&c)));
            }
        }
        (listed, true)
    };
    Ok(Report {
        spec: spec.to_string(),
        outcome: if grundy == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        },
        remoteness: None,
        winning_moves: winning.iter().map(|c| game.spec(c).to_string()).collect(),
        grundy: Some(grundy),
        components,
        scores: None,
        moves,
        moves_truncated: truncated,
        method: Method::SpragueGrundy,
        positions: None,
        rule: None,
        winning_moves_truncated: winning_truncated,
    })
}

/// A single `multiple` or `wythoff` part too large for tables, answered by its proved
/// rule (Whinihan/Schwenk, Wythoff) in O(log n): outcome and every winning move.
fn solve_by_rule(spec: &Spec) -> Option<Report> {
    let move_to = |part: Part| Move {
        spec: Spec { parts: vec![part] }.to_string(),
        outcome: Outcome::Win,
        remoteness: None,
        grundy: None,
        scores: None,
    };
    let (lost, winning, rule, fallback): (bool, Vec<Move>, String, Option<Part>) = match spec
        .parts
        .as_slice()
    {
        [Part::Multiple { k, n, limit }] => {
            let rule = MultipleRule::schwenk(*k, *n)?;
            let after = |t: u64| {
                let (n2, l2) = Multiple {
                    k: *k,
                    max_stones: *n,
                }
                .after((*n, *limit), t);
                Part::Multiple {
                    k: *k,
                    n: n2,
                    limit: l2,
                }
            };
            let takes = rule.winning_takes(*n, *limit);
            let text = if *k == 2 {
                "Whinihan (1963): lost iff the smallest term of the Zeckendorf representation exceeds the limit; win by taking it"
            } else {
                "Schwenk (1970): lost iff the smallest term of the greedy representation in the game's sequence exceeds the limit; win by taking it"
            };
            (
                rule.is_loss(*n, *limit),
                takes.iter().map(|&t| move_to(after(t))).collect(),
                text.to_string(),
                (*limit >= 1).then(|| after(1)),
            )
        }
        [Part::Wythoff { a, b }] => (
            WythoffRule::is_loss(*a, *b),
            WythoffRule::winning_moves(*a, *b)
                .into_iter()
                .map(|(x, y)| move_to(Part::Wythoff { a: x, b: y }))
                .collect(),
            "Wythoff (1907): lost iff the piles are (⌊nφ⌋, ⌊nφ²⌋), φ the golden ratio".into(),
            if *a > 0 {
                Some(Part::Wythoff { a: a - 1, b: *b })
            } else if *b > 0 {
                Some(Part::Wythoff { a: *a, b: b - 1 })
            } else {
                None
            },
        ),
        _ => return None,
    };
    let mut moves = winning.clone();
    if moves.is_empty() {
        if let Some(part) = fallback {
            moves.push(Move {
                outcome: Outcome::Loss,
                ..move_to(part)
            });
        }
    }
    Some(Report {
        spec: spec.to_string(),
        outcome: if lost { Outcome::Loss } else { Outcome::Win },
        remoteness: None,
        winning_moves: winning.into_iter().map(|m| m.spec).collect(),
        grundy: None,
        components: Vec::new(),
        scores: None,
        moves,
        moves_truncated: true,
        method: Method::Rule,
        positions: None,
        rule: Some(rule),
        winning_moves_truncated: false,
    })
}

fn grundy_move(game: &SumGame, child: &[Vec<u64>], g: u64) -> Move {
    Move {
        spec: game.spec(&child.to_vec()).to_string(),
        outcome: if g == 0 { Outcome::Win } else { Outcome::Loss },
        remoteness: None,
        grundy: Some(g),
        scores: None,
    }
}

/// How many moves per position, on average, an exploration may meet before it is
/// refused up front (the position budget times this bounds the edges).
const EDGES_PER_POSITION: u128 = 16;

/// An upper bound on the number of moves from the root, which bounds the moves from any
/// position of these games (heaps only shrink).
fn root_moves(game: &SumGame, root: &[Vec<u64>]) -> u128 {
    game.rules()
        .iter()
        .zip(root)
        .map(|(rules, p)| option_bound(rules, p))
        .fold(0, u128::saturating_add)
}

/// An upper bound on the number of moves of one part.
fn option_bound(rules: &Rules, p: &[u64]) -> u128 {
    match rules {
        Rules::Heaps(HeapFamily::Nim) => p.iter().map(|&h| u128::from(h)).sum(),
        Rules::Heaps(HeapFamily::BoundedNim(m)) => p.iter().map(|&h| u128::from(h.min(*m))).sum(),
        Rules::Heaps(HeapFamily::Subtraction(set)) => (p.len() * set.len()) as u128,
        Rules::Heaps(HeapFamily::Octal(code)) => p
            .iter()
            .map(|&h| (u128::from(code.max_removal()) + 1) * (u128::from(h) / 2 + 2))
            .sum(),
        Rules::Multiple(_) => u128::from(p[1]),
        Rules::Wythoff => 2 * (u128::from(p[0]) + u128::from(p[1])),
    }
}

/// One legal move of the sum without listing them all (for huge Nim heaps), if any.
fn some_move(game: &SumGame, root: &[Vec<u64>]) -> Option<Vec<Vec<u64>>> {
    for (i, (rules, p)) in game.rules().iter().zip(root).enumerate() {
        let next: Option<Vec<u64>> = match rules {
            Rules::Heaps(family) => p.iter().enumerate().find_map(|(j, &h)| {
                let (a, b) = family.some_move(h)?;
                let mut heaps = p.clone();
                heaps[j] = a;
                if b > 0 {
                    heaps.insert(j + 1, b);
                }
                Some(heaps)
            }),
            _ => {
                let mut out = Vec::new();
                game.part_moves(i, p, &mut out);
                out.into_iter().next()
            }
        };
        if let Some(next) = next {
            let mut child = root.to_vec();
            child[i] = next;
            return Some(child);
        }
    }
    None
}

/// Every position a winning move of the sum leads to, by the Sprague–Grundy theorem:
/// change one component of value `g` to one of value `g ^ total`.
fn winning_positions(
    game: &SumGame,
    root: &[Vec<u64>],
    oracles: &[Oracle],
    total: u64,
    truncated: &mut bool,
) -> Vec<Vec<Vec<u64>>> {
    let mut found = Vec::new();
    if total == 0 {
        return found;
    }
    for (i, (rules, p)) in game.rules().iter().zip(root).enumerate() {
        let replace = |found: &mut Vec<Vec<Vec<u64>>>, part: Vec<u64>| {
            let mut child = root.to_vec();
            child[i] = part;
            found.push(child);
        };
        match rules {
            Rules::Heaps(family) => {
                for (j, &h) in p.iter().enumerate() {
                    let g = oracles[i].value(&[h]);
                    let target = g ^ total;
                    let mut with = |a: u64, b: u64| {
                        let mut heaps = p.clone();
                        heaps[j] = a;
                        if b > 0 {
                            heaps.insert(j + 1, b);
                        }
                        replace(&mut found, heaps);
                    };
                    match family {
                        HeapFamily::Nim => {
                            if target < h {
                                with(target, 0);
                            }
                        }
                        HeapFamily::BoundedNim(m) => {
                            // take s with (h - s) mod (m + 1) = target, 1 ≤ s ≤ min(m, h)
                            let modulus = u128::from(*m) + 1;
                            let (h, t) = (u128::from(h), u128::from(target));
                            if t < modulus {
                                let s = (h % modulus + modulus - t) % modulus;
                                if s >= 1 && s <= h && s <= u128::from(*m) {
                                    with((h - s) as u64, 0);
                                }
                            }
                        }
                        _ => {
                            // All splits of a huge heap cannot be listed; with a proved
                            // period, splits whose smaller part is past one period from
                            // the pre-period repeat those before, so the smaller part
                            // is bounded and the list is marked incomplete.
                            let small = match &oracles[i] {
                                Oracle::Periodic { period, .. } if h > MAX_LISTED_SPLITS => {
                                    *truncated = true;
                                    period.preperiod + 2 * period.period
                                }
                                _ => u64::MAX,
                            };
                            let mut leaves = Vec::new();
                            family.moves_up_to(h, small, &mut leaves);
                            for (a, b) in leaves {
                                if oracles[i].value(&[a]) ^ oracles[i].value(&[b]) == target {
                                    with(a, b);
                                }
                            }
                        }
                    }
                }
            }
            _ => {
                let target = oracles[i].value(p) ^ total;
                let mut out = Vec::new();
                game.part_moves(i, p, &mut out);
                for next in out {
                    if oracles[i].value(&next) == target {
                        replace(&mut found, next);
                    }
                }
            }
        }
    }
    found
}

/// The score game `ends(…)`: explore every range, negamax the difference.
fn solve_ends(spec: &Spec, row: &[i64], limits: &Limits<'_>) -> Result<Report, Error> {
    let n = row.len() as u128;
    let states = (n + 1) * (n + 2) / 2;
    if states > u128::from(limits.control.max_positions) {
        return Err(too_large(
            format!(
                "`ends` with {n} numbers has {states} positions (limit {})",
                limits.control.max_positions
            ),
            states * 48,
        ));
    }
    // Totals in i128: a row of i64 sums without overflow; the scores must fit i64 again.
    let total: i128 = row.iter().map(|&x| i128::from(x)).sum();
    let game = Ends { row: row.to_vec() };
    let root = game.start();
    let explored = explore(&game, &root, &limits.control)?;
    let diff = minimax(&game, &explored)?;
    let scores_of = |d: i128, total: i128| -> [i128; 2] {
        // mover − other = d, mover + other = total
        let mover = (total + d) / 2;
        [mover, total - mover]
    };
    let fit = |s: [i128; 2]| -> Result<[i64; 2], Error> {
        Ok([
            i64::try_from(s[0]).map_err(|_| Error::Overflow)?,
            i64::try_from(s[1]).map_err(|_| Error::Overflow)?,
        ])
    };
    let best = diff[0];
    let outcome = match best.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Draw,
    };
    let spec_of = |(l, r): (usize, usize)| {
        Spec {
            parts: vec![Part::Ends {
                row: row[l..r].to_vec(),
            }],
        }
        .to_string()
    };
    let mut moves = Vec::new();
    let mut winning_moves = Vec::new();
    for &c in explored.graph.successors(0) {
        let child = explored.positions[c as usize];
        let gain = i128::from(game.gain(&root, &child));
        let child_diff = i128::from(diff[c as usize]);
        let mine = gain - child_diff;
        let after = scores_of(child_diff, total - gain);
        let scores = fit([after[1] + gain, after[0]])?;
        let child_outcome = match mine.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        if outcome == Outcome::Win && mine == i128::from(best) {
            winning_moves.push(spec_of(child));
        }
        moves.push(Move {
            spec: spec_of(child),
            outcome: child_outcome,
            remoteness: Some((child.1 - child.0) as u32),
            grundy: None,
            scores: Some(scores),
        });
    }
    Ok(Report {
        spec: spec.to_string(),
        outcome,
        remoteness: Some(row.len() as u32),
        winning_moves,
        grundy: None,
        components: Vec::new(),
        scores: Some(fit(scores_of(i128::from(best), total))?),
        moves,
        moves_truncated: false,
        method: Method::Minimax,
        positions: Some(explored.len() as u64),
        rule: None,
        winning_moves_truncated: false,
    })
}

/// Outcome and Grundy value of every heap size 0..=N of a one-heap family. Serialized
/// (feature `serde`) as the stable JSON of `grundy table --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Table {
    /// The family as written, e.g. `octal[0.77]`.
    pub family: String,
    /// Outcome for the player to move at each heap size.
    pub outcome: Vec<Outcome>,
    /// Grundy value at each heap size.
    pub grundy: Vec<u64>,
}

impl Table {
    /// The heap sizes that are losses for the player to move (P-positions).
    #[must_use]
    pub fn losing(&self) -> Vec<u64> {
        (0..self.outcome.len() as u64)
            .filter(|&h| self.outcome[h as usize] == Outcome::Loss)
            .collect()
    }
}

/// Tabulates a one-heap family (`nim`, `bounded-nim[m]`, `subtraction[…]`,
/// `octal[…]`, `multiple[k]`, the last from its starting positions `multiple[k](n)`).
///
/// # Errors
/// [`crate::Error::Unsupported`] for a family without a single heap (`wythoff`, `ends`),
/// [`crate::Error::TooLarge`] past the limits, [`crate::Error::Cancelled`].
pub fn table(family: &str, up_to: u64, limits: &Limits<'_>) -> Result<Table, TableError> {
    if family.contains('(') {
        return Err(TableError::Spec(crate::games::SpecError {
            line: 1,
            column: family
                .find('(')
                .map_or(1, |i| family[..i].chars().count() + 1),
            message: "give the family without a position, as in `octal[0.77]`".into(),
        }));
    }
    let bare = family
        .split('[')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if matches!(bare.as_str(), "wythoff" | "ends") {
        return Err(TableError::Solve(Error::Unsupported(format!(
            "`{bare}` is not a one-heap family; tables are for nim, bounded-nim, subtraction, octal and multiple"
        ))));
    }
    let spec: Spec = format!("{family}(0)").parse().map_err(TableError::Spec)?;
    let [part] = spec.parts.as_slice() else {
        return Err(TableError::Solve(Error::Unsupported(
            "a table is for one family, not a sum".into(),
        )));
    };
    let name = part.family_name();
    let rules = match part {
        Part::Heaps { family, .. } => Rules::Heaps(family.clone()),
        Part::Multiple { k, .. } => Rules::Multiple(*k),
        _ => {
            return Err(TableError::Solve(Error::Unsupported(format!(
                "`{name}` is not a one-heap family; tables are for nim, bounded-nim, subtraction, octal and multiple"
            ))))
        }
    };
    // A table lists every value: tabulated outright, whatever the proof budget.
    let cost = Oracle::cost(&rules, up_to, u64::MAX);
    let bytes = cost.bytes.saturating_add((u128::from(up_to) + 1) * 16);
    if bytes > u128::from(limits.max_memory) || cost.work > limits.max_work {
        return Err(TableError::Solve(too_large(
            format!(
                "a table of `{name}` to {up_to} takes about {} steps (limit {}); memory limit {}",
                sci(cost.work),
                sci(limits.max_work),
                crate::human_bytes(limits.max_memory),
            ),
            bytes,
        )));
    }
    let oracle =
        Oracle::build(&rules, up_to, u64::MAX, &limits.control).map_err(TableError::Solve)?;
    let grundy: Vec<u64> = (0..=up_to)
        .map(|n| match &rules {
            Rules::Multiple(_) => oracle.value(&[n, n.saturating_sub(1)]),
            _ => oracle.value(&[n]),
        })
        .collect();
    let outcome = grundy
        .iter()
        .map(|&g| if g == 0 { Outcome::Loss } else { Outcome::Win })
        .collect();
    Ok(Table {
        family: name,
        outcome,
        grundy,
    })
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The family text is not a valid family.
    #[error("{0}")]
    Spec(crate::games::SpecError),
    /// The computation was refused or stopped.
    #[error("{0}")]
    Solve(Error),
}
