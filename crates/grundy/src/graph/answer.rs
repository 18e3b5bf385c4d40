//! What a front end asks of a game on a graph and reports of it, in the file's ids: the
//! goals by name with each format's default ([`Goal`]), the one way a question is solved
//! ([`solve`]), the winning regions and strategies of an objective, or a token game's values
//! per vertex. These are the stable JSON of `grundy graph --json` (feature `serde`), made
//! once here so that every front end that prints them prints the same.

use std::fmt;
use std::str::FromStr;

use super::arena::{Arena, FileId};
use super::format::{parse_pgsolver_solution, parse_poi_solution, Format, ParseError};
use super::objectives::{self, Objective, Solution};
use super::parity::{solve_parity, ParityAlgorithm};
use super::token::{self, Loopy};
use super::verify::{verify_buchi, verify_pg_solution, VerifyError};
use crate::explore::Control;
use crate::game::Outcome;
use crate::Error;

/// What player 0 wants in a game on a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// An objective on the set F of accepting priorities.
    Objective(Objective),
    /// Max-even parity on the priorities (PGSolver's convention).
    Parity,
    /// A token game on the edges: who cannot move loses, endless play draws.
    Token,
}

impl Goal {
    /// Every goal, in the order front ends list them.
    pub const ALL: [Goal; 6] = [
        Goal::Objective(Objective::Reachability),
        Goal::Objective(Objective::Safety),
        Goal::Objective(Objective::Buchi),
        Goal::Objective(Objective::CoBuchi),
        Goal::Parity,
        Goal::Token,
    ];

    /// The goal's name as [`FromStr`] reads it and every front end writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Goal::Objective(Objective::Reachability) => "reach",
            Goal::Objective(Objective::Safety) => "safety",
            Goal::Objective(Objective::Buchi) => "buchi",
            Goal::Objective(Objective::CoBuchi) => "cobuchi",
            Goal::Parity => "parity",
            Goal::Token => "token",
        }
    }

    /// What the goal asks, in a few words for help texts.
    #[must_use]
    pub fn about(self) -> &'static str {
        match self {
            Goal::Objective(Objective::Reachability) => "Reach F",
            Goal::Objective(Objective::Safety) => "Stay in F",
            Goal::Objective(Objective::Buchi) => "Visit F infinitely often",
            Goal::Objective(Objective::CoBuchi) => "Eventually stay in F",
            Goal::Parity => "Max-even parity (PGSolver's convention)",
            Goal::Token => "Token game: who cannot move loses, endless play draws",
        }
    }

    /// The goal of a file of `format` when none is named: the green game for POI files,
    /// parity for PGSolver's, the token game for plain digraphs.
    #[must_use]
    pub fn of_format(format: Format) -> Goal {
        match format {
            Format::Poi => Goal::Objective(Objective::Buchi),
            Format::PgSolver => Goal::Parity,
            Format::Digraph => Goal::Token,
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A goal name that [`Goal`] does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnknownGoal(pub String);

impl fmt::Display for UnknownGoal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown objective `{}`: expected ", self.0)?;
        let last = Goal::ALL.len() - 1;
        for (i, goal) in Goal::ALL.iter().enumerate() {
            let gap = match i {
                0 => "",
                _ if i == last => " or ",
                _ => ", ",
            };
            write!(f, "{gap}{goal}")?;
        }
        Ok(())
    }
}

impl FromStr for Goal {
    type Err = UnknownGoal;

    /// A goal's [`Goal::name`], or `reachability`, `büchi`, `co-buchi`, `co-büchi` (any
    /// case, spaces around ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_lowercase();
        let name = match lower.as_str() {
            "reachability" => "reach",
            "büchi" => "buchi",
            "co-buchi" | "co-büchi" => "cobuchi",
            other => other,
        };
        Goal::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGoal(s.trim().to_string()))
    }
}

/// How a question is solved beside its goal: the priorities of F, the parity algorithm,
/// a sum of tokens. The default is every front end's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The priorities of F for an objective (none listed: the even ones; in a POI file,
    /// green), as [`accepting`] reads them.
    pub accepting: Vec<u32>,
    /// The parity algorithm (default: [`ParityAlgorithm::default`]).
    pub algorithm: ParityAlgorithm,
    /// A token game: the vertices of a sum of tokens to judge, if any.
    pub sum: Vec<FileId>,
}

/// A solved game on a graph: the winners' regions and strategies, or a token game's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Who wins where, and how (an objective or parity).
    Regions(Solution),
    /// A token game's values per vertex.
    Token(TokenValues),
}

/// A question that does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuestionError {
    /// A plain digraph has only the token game.
    #[error("a plain digraph has no owners or colours: only the objective token applies")]
    NoOwners,
    /// A sum of tokens was asked of another goal.
    #[error("a sum of tokens is for token games")]
    SumWithoutTokens,
}

/// Why a question was not answered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The question does not fit the game.
    #[error(transparent)]
    Question(#[from] QuestionError),
    /// Solving failed or was stopped ([`Error::Unsupported`]: a vertex of the sum that the
    /// graph does not have).
    #[error(transparent)]
    Solve(#[from] Error),
}

/// Solves `goal` on `arena`, read from a file of `format`, as every front end does.
///
/// # Errors
/// [`QuestionError`] for a goal other than the token game on a plain digraph, or a sum of
/// tokens asked of another goal; else as [`TokenValues::solve`], [`solve_parity`] and
/// [`objectives::solve`].
///
/// # Complexity
/// As the solver the goal calls.
pub fn solve(
    arena: &Arena,
    format: Format,
    goal: Goal,
    options: &Options,
    control: &Control<'_>,
) -> Result<Answer, AnswerError> {
    let solution = match goal {
        Goal::Token => {
            return Ok(Answer::Token(TokenValues::solve(
                arena,
                &options.sum,
                control,
            )?))
        }
        _ if format == Format::Digraph => return Err(QuestionError::NoOwners.into()),
        _ if !options.sum.is_empty() => return Err(QuestionError::SumWithoutTokens.into()),
        Goal::Parity => solve_parity(arena, options.algorithm, control)?,
        Goal::Objective(objective) => {
            let accepting = accepting(arena, &options.accepting);
            objectives::solve(arena, objective, &accepting, control)?
        }
    };
    Ok(Answer::Regions(solution))
}

/// Who wins where, by the file's vertex ids, and (if asked) each winner's positional
/// strategy on its region: `[vertex, successor]` pairs at the vertices whose owner wins.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Regions {
    /// The vertices player 0 wins, increasing.
    pub won_by_0: Vec<FileId>,
    /// The vertices player 1 wins, increasing.
    pub won_by_1: Vec<FileId>,
    /// The winners' moves, in vertex order (when asked for).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub strategy: Option<Vec<[FileId; 2]>>,
}

impl Regions {
    /// The regions of `solution`, with the strategy if `strategy`.
    #[must_use]
    pub fn new(arena: &Arena, solution: &Solution, strategy: bool) -> Regions {
        let ids = |p: u8| -> Vec<FileId> {
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
    pub vertices: Vec<FileId>,
    /// The sum's value.
    pub grundy: Loopy,
    /// Its outcome for the player to move.
    pub outcome: Outcome,
}

impl TokenValues {
    /// Solves the token game on `arena`'s edges, with a sum of tokens on `sum`
    /// unless it is empty.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Unsupported`] naming a vertex of `sum`
    /// that the graph does not have.
    ///
    /// # Complexity
    /// O(n + m) for the outcomes; γ as [`token::generalized_grundy`].
    pub fn solve(arena: &Arena, sum: &[FileId], control: &Control<'_>) -> Result<Self, Error> {
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
    use crate::graph::{objectives, parse_digraph, parse_poi};

    #[test]
    fn goals_are_read_by_name_and_default_by_format() {
        for goal in Goal::ALL {
            assert_eq!(goal.name().parse::<Goal>(), Ok(goal));
        }
        let buchi = Goal::Objective(Objective::Buchi);
        assert_eq!(" Büchi ".parse::<Goal>(), Ok(buchi));
        assert_eq!(
            "Reachability".parse::<Goal>(),
            Ok(Goal::Objective(Objective::Reachability))
        );
        assert_eq!(
            "win".parse::<Goal>().unwrap_err().to_string(),
            "unknown objective `win`: expected reach, safety, buchi, cobuchi, parity or token"
        );
        assert_eq!(Goal::of_format(Format::Poi), buchi);
        assert_eq!(Goal::of_format(Format::PgSolver), Goal::Parity);
        assert_eq!(Goal::of_format(Format::Digraph), Goal::Token);
        assert_eq!(Options::default().algorithm, ParityAlgorithm::Tangle);
    }

    #[test]
    fn questions_are_answered_by_their_goal_or_refused() {
        let control = Control::default();
        let line = parse_digraph("3 2\n0 1\n1 2\n").unwrap();
        let refused = solve(
            &line,
            Format::Digraph,
            Goal::Parity,
            &Options::default(),
            &control,
        );
        assert!(matches!(
            refused,
            Err(AnswerError::Question(QuestionError::NoOwners))
        ));
        let Ok(Answer::Token(values)) = solve(
            &line,
            Format::Digraph,
            Goal::Token,
            &Options::default(),
            &control,
        ) else {
            panic!("a token game");
        };
        assert_eq!(values.outcome, [Outcome::Loss, Outcome::Win, Outcome::Loss]);
        let green = parse_poi("1 1\n0 2 1 2\n1 1 1\n").unwrap();
        let sum = Options {
            sum: vec![FileId(1)],
            ..Options::default()
        };
        assert!(matches!(
            solve(&green, Format::Poi, Goal::Parity, &sum, &control),
            Err(AnswerError::Question(QuestionError::SumWithoutTokens))
        ));
        let buchi = Goal::Objective(Objective::Buchi);
        let Ok(Answer::Regions(regions)) =
            solve(&green, Format::Poi, buchi, &Options::default(), &control)
        else {
            panic!("regions");
        };
        let want =
            objectives::solve(&green, Objective::Buchi, &accepting(&green, &[]), &control).unwrap();
        assert_eq!(regions, want);
        assert_eq!(regions.winner, [0, 0]);
        // Staying on green fails at once on field 1 and one move later on field 2; staying
        // on white (F = {1}) wins from field 1, where Ann can loop.
        let safety = Goal::Objective(Objective::Safety);
        let Ok(Answer::Regions(regions)) =
            solve(&green, Format::Poi, safety, &Options::default(), &control)
        else {
            panic!("regions");
        };
        assert_eq!(regions.winner, [1, 1]);
        let white = Options {
            accepting: vec![1],
            ..Options::default()
        };
        let Ok(Answer::Regions(regions)) = solve(&green, Format::Poi, safety, &white, &control)
        else {
            panic!("regions");
        };
        assert_eq!(regions.winner, [0, 1]);
    }

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
        assert_eq!(r.won_by_0, vec![FileId(1), FileId(2)]);
        assert!(r.won_by_1.is_empty());
        // Billy's field 2 is won by Ann: no strategy entry for it.
        assert_eq!(r.strategy, Some(vec![[FileId(1), FileId(2)]]));
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
