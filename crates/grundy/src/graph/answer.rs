//! What a front end reports of a solved game on a graph, in the file's ids: the winning
//! regions and strategies of an objective, or a token game's values per vertex. These are
//! the stable JSON of `grundy graph --json` (feature `serde`), made once here so that every
//! front end that prints them prints the same.

use super::arena::Arena;
use super::format::{parse_pgsolver_solution, parse_poi_solution, Format, ParseError};
use super::objectives::Solution;
use super::token::{self, Loopy};
use super::verify::{verify_buchi, verify_pg_solution, VerifyError};
use crate::explore::Control;
use crate::game::Outcome;
use crate::Error;

/// Who wins where, by the file's vertex ids, and (if asked) each winner's positional
/// strategy on its region: `[vertex, successor]` pairs at the vertices whose owner wins.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Regions {
    /// The vertices player 0 wins, increasing.
    pub won_by_0: Vec<u64>,
    /// The vertices player 1 wins, increasing.
    pub won_by_1: Vec<u64>,
    /// The winners' moves, in vertex order (when asked for).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub strategy: Option<Vec<[u64; 2]>>,
}

impl Regions {
    /// The regions of `solution`, with the strategy if `strategy`.
    #[must_use]
    pub fn new(arena: &Arena, solution: &Solution, strategy: bool) -> Regions {
        let ids = |p: u8| -> Vec<u64> {
            solution
                .won_by(p)
                .into_iter()
                .map(|v| arena.file_id(v))
                .collect()
        };
        Regions {
            won_by_0: ids(0),
            won_by_1: ids(1),
            strategy: strategy.then(|| {
                winners_moves(arena, solution)
                    .iter()
                    .enumerate()
                    .filter_map(|(v, s)| s.map(|w| [arena.file_id(v as u32), arena.file_id(w)]))
                    .collect()
            }),
        }
    }
}

/// At each vertex whose owner wins, the successor the winner's strategy takes; `None`
/// elsewhere. (A solver may also record moves of the loser; they are not a strategy.)
#[must_use]
pub fn winners_moves(arena: &Arena, solution: &Solution) -> Vec<Option<u32>> {
    arena
        .vertices()
        .map(|v| {
            solution.strategy[v as usize].filter(|_| arena.owner(v) == solution.winner[v as usize])
        })
        .collect()
}

/// A token game's values, per vertex in dense order: the outcome for the player to move
/// with a token there, its remoteness, the generalised Sprague–Grundy value; and the value
/// of a sum of tokens when one was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TokenValues {
    /// Win, loss or draw at each vertex.
    pub outcome: Vec<Outcome>,
    /// Moves to the end under perfect play (`None` for a draw).
    pub remoteness: Vec<Option<u32>>,
    /// γ at each vertex (a number, or `"inf{…}"`).
    pub grundy: Vec<Loopy>,
    /// A sum of tokens, if asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub sum: Option<TokenSum>,
}

/// The value of a sum of tokens, one on each of `vertices` (file ids).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TokenSum {
    /// The vertices, as given.
    pub vertices: Vec<u64>,
    /// The sum's value.
    pub grundy: Loopy,
    /// Its outcome for the player to move.
    pub outcome: Outcome,
}

impl TokenValues {
    /// Solves the token game on `arena`'s edges, with a sum of tokens on `sum` (file ids)
    /// unless it is empty.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Unsupported`] naming a vertex of `sum`
    /// that the graph does not have.
    ///
    /// # Complexity
    /// O(n + m) for the outcomes; γ as [`token::generalized_grundy`].
    pub fn solve(arena: &Arena, sum: &[u64], control: &Control<'_>) -> Result<Self, Error> {
        let dense: Vec<u32> = sum
            .iter()
            .map(|&v| {
                arena
                    .dense_id(v)
                    .ok_or_else(|| Error::Unsupported(format!("no vertex {v}")))
            })
            .collect::<Result<_, _>>()?;
        let succ = arena.successor_csr();
        let reverse = arena.reverse();
        let labels = token::outcomes(succ, reverse, control)?;
        let grundy = token::generalized_grundy(succ, reverse, control)?;
        let sum = (!dense.is_empty()).then(|| {
            let total = token::sum(
                &dense
                    .iter()
                    .map(|&v| grundy[v as usize].clone())
                    .collect::<Vec<Loopy>>(),
            );
            TokenSum {
                vertices: sum.to_vec(),
                outcome: total.outcome(),
                grundy: total,
            }
        });
        Ok(TokenValues {
            outcome: arena
                .vertices()
                .map(|v| labels.value(v).outcome())
                .collect(),
            remoteness: arena
                .vertices()
                .map(|v| labels.value(v).remoteness())
                .collect(),
            grundy,
            sum,
        })
    }
}

/// γ as JSON: a finite value as a number, an infinite one as its text (`"inf{0,2}"`).
#[cfg(feature = "serde")]
impl serde::Serialize for Loopy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Loopy::Finite(g) => s.serialize_u32(*g),
            Loopy::Infinite(_) => s.collect_str(self),
        }
    }
}

/// The priorities that make up the set F of an objective: those listed, or the even ones
/// when none is.
#[must_use]
pub fn accepting(arena: &Arena, listed: &[u32]) -> Vec<bool> {
    arena
        .priorities()
        .iter()
        .map(|p| {
            if listed.is_empty() {
                p % 2 == 0
            } else {
                listed.contains(p)
            }
        })
        .collect()
}

/// Why a claimed solution could not be checked at all (as opposed to being checked and
/// rejected).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolutionError {
    /// The solution's text is not in the format the game's implies.
    #[error("{0}")]
    Parse(ParseError),
    /// Token games on digraphs are solved, not checked.
    #[error("token games on digraphs have no solution file to verify")]
    Digraph,
}

/// Checks a claimed solution of a game of `format` without trusting whoever made it: a
/// POI answer followed by `field -> successor` lines for the green game (Büchi), a
/// PGSolver `paritysol` for a parity game.
///
/// # Errors
/// [`SolutionError`] if the text cannot be read as a solution; the inner result says
/// whether the solution is correct, and what is wrong with it if not.
pub fn verify_solution(
    arena: &Arena,
    format: Format,
    solution: &str,
) -> Result<Result<(), VerifyError>, SolutionError> {
    match format {
        Format::Poi => {
            let (winner, strategy) =
                parse_poi_solution(solution, arena).map_err(SolutionError::Parse)?;
            Ok(verify_buchi(arena, &winner, &strategy))
        }
        Format::PgSolver => {
            let claimed = parse_pgsolver_solution(solution, arena).map_err(SolutionError::Parse)?;
            Ok(verify_pg_solution(arena, &claimed))
        }
        Format::Digraph => Err(SolutionError::Digraph),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{objectives, parse_poi};

    #[test]
    fn regions_keep_only_the_winners_moves() {
        // Field 1 (Ann, white) may loop or go to 2 (Billy, green), which returns to 1.
        let arena = parse_poi("1 1\n0 2 1 2\n1 1 1\n").unwrap();
        let accepting = accepting(&arena, &[]);
        let solution = objectives::solve(
            &arena,
            objectives::Objective::Buchi,
            &accepting,
            &Control::default(),
        )
        .unwrap();
        let r = Regions::new(&arena, &solution, true);
        assert_eq!(r.won_by_0, vec![1, 2]);
        assert!(r.won_by_1.is_empty());
        // Billy's field 2 is won by Ann: no strategy entry for it.
        assert_eq!(r.strategy, Some(vec![[1, 2]]));
        assert_eq!(Regions::new(&arena, &solution, false).strategy, None);
        // The POI answer and strategy are checked; a wrong winner is rejected.
        assert_eq!(
            verify_solution(&arena, Format::Poi, "2\n1\n2\n1 -> 2\n"),
            Ok(Ok(()))
        );
        assert!(matches!(
            verify_solution(&arena, Format::Poi, "1\n1\n"),
            Ok(Err(_))
        ));
        assert!(matches!(
            verify_solution(&arena, Format::Poi, "x"),
            Err(SolutionError::Parse(_))
        ));
    }
}
