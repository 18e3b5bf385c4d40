//! Contest mode: the seeds' olympiad tasks played exactly as a contestant's program is
//! run — the task's own input, then one move a line against a judge — with the moves
//! chosen by the library's methods. A front end only moves lines: it reads the input
//! ([`Task::input_words`] says how much), starts a [`Session`], writes what
//! [`Session::step`] says, and hands each line the judge writes to
//! [`Session::opponent`].
//!
//! | task | input | protocol |
//! | --- | --- | --- |
//! | `ioi1996-game` | N, then N numbers | `L`/`R` for each own move, the opponent's read; at the end the two sums, `first second` |
//! | `ioi2001-ioiwari` | the 7 pit counts | the label of each own pit, the opponent's read |
//! | `ioi2001-score` | N, the N×N 0/1 arrow matrix, the N owners, the N values | at an own position the next position, at the opponent's it is read |
//! | `poi1999-polygon` | n, then n − 2 triangles (three vertices each, the black one first) | `TAK` if the first player can force a win, else `NIE` |
//!
//! The contestant is player 1, who moves first. Every choice is deterministic: among
//! equally good moves the first in the family's move order.

use crate::explore::Control;
use crate::game::Player;
use crate::games::ioiwari::{sow, PITS};
use crate::games::polygon::Triangulation;
use crate::games::score::{Board, ScoreBoard};
use crate::games::{EndsFamily, Family, GameRules, Indexing, Intervals, Pos, Spec};
use crate::report::{self, Limits, RankMargins, RankValues};
use crate::Error;

/// The longest row of "A Game" read (the task's N is at most 100): 2000 numbers are
/// 2 001 001 intervals, solved with `--solve` (and their parity strategy checked) in about
/// a second.
pub const A_GAME_MAX: usize = 2000;

/// A task of contest mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// IOI 1996 "A Game".
    Ioi1996Game,
    /// IOI 2001 "Ioiwari".
    Ioi2001Ioiwari,
    /// IOI 2001 "Score".
    Ioi2001Score,
    /// POI 1999 "Polygons".
    Poi1999Polygon,
}

/// A malformed input: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct InputError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong.
    pub message: String,
}

impl From<crate::games::score::BoardError> for InputError {
    fn from(e: crate::games::score::BoardError) -> InputError {
        InputError {
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

impl From<crate::games::polygon::PolygonError> for InputError {
    fn from(e: crate::games::polygon::PolygonError) -> InputError {
        InputError {
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

impl Task {
    /// Every task, with its name.
    pub const ALL: [(&'static str, Task); 4] = [
        ("ioi1996-game", Task::Ioi1996Game),
        ("ioi2001-ioiwari", Task::Ioi2001Ioiwari),
        ("ioi2001-score", Task::Ioi2001Score),
        ("poi1999-polygon", Task::Poi1999Polygon),
    ];

    /// The task of a name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Task> {
        Task::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, task)| task)
    }

    /// The task's name, as [`Task::from_name`] reads it.
    #[must_use]
    pub fn name(self) -> &'static str {
        Task::ALL
            .iter()
            .find(|&&(_, task)| task == self)
            .map_or("", |&(name, _)| name)
    }

    /// The numbers the task's input holds in all, given its first one as written; `None`
    /// when the first is not a count (the input is then read as far as it goes and
    /// refused with its position).
    #[must_use]
    pub fn input_words(self, first: &str) -> Option<usize> {
        if self == Task::Ioi2001Ioiwari {
            return Some(PITS);
        }
        let n: usize = first.parse().ok()?;
        // Past a task's limit the count is not trusted: the input is refused from its
        // first number instead of being read to the end.
        match self {
            Task::Ioi1996Game if n <= A_GAME_MAX => n.checked_add(1),
            Task::Ioi2001Score if n <= crate::games::score::MAX_POSITIONS => {
                n.checked_mul(n)?.checked_add(2 * n + 1)
            }
            Task::Poi1999Polygon if n <= crate::games::polygon::MAX_VERTICES => {
                n.checked_sub(2)?.checked_mul(3)?.checked_add(1)
            }
            _ => None,
        }
    }

    /// The task's input as a game to solve and play like any other: the spec of its
    /// start, one part, read by the same readers as contest mode. IOI 2001 "Score" and
    /// POI 1999 "Polygons" build their family from the input (no registry entry: a spec
    /// cannot carry a large board); a front end keeps the input and reads later
    /// positions of the game back with [`Spec::at`].
    ///
    /// # Errors
    /// An [`InputError`] at the line and column of what is wrong.
    pub fn game(self, input: &str) -> Result<Spec, InputError> {
        let one = |family: std::sync::Arc<dyn Family>, position: Pos| Spec {
            parts: vec![crate::games::Part { family, position }],
        };
        let unsupported = |e: Error| InputError {
            line: 1,
            column: 1,
            message: e.to_string(),
        };
        Ok(match self {
            Task::Ioi1996Game => {
                let game = AGame::new(input)?;
                spec("ends", game.row.iter().map(ToString::to_string)).map_err(unsupported)?
            }
            Task::Ioi2001Ioiwari => {
                let game = IoiwariGame::new(input)?;
                spec("ioiwari", game.pits.iter().map(ToString::to_string)).map_err(unsupported)?
            }
            Task::Ioi2001Score => {
                let family = ScoreBoard::new(Board::parse(input)?);
                let start = family.start();
                one(std::sync::Arc::new(family), start)
            }
            Task::Poi1999Polygon => {
                let shape = Triangulation::parse(input)?;
                let start = shape.start();
                one(
                    std::sync::Arc::new(crate::games::polygon::Polygon::new(shape)),
                    start,
                )
            }
        })
    }

    /// The special method's rule on the task's input, where the task has one that is
    /// read off the input at once (POI 1999 "Polygons"): the line `grundy olympiad NAME
    /// --solve` ends with. `None` for the other tasks.
    ///
    /// # Errors
    /// An [`InputError`] for a malformed input.
    pub fn rule(self, input: &str) -> Result<Option<String>, InputError> {
        if self != Task::Poi1999Polygon {
            return Ok(None);
        }
        let shape = Triangulation::parse(input)?;
        Ok(Some(polygon_rule(&shape)))
    }

    /// Reads the task's input and solves what must be solved before the first move.
    ///
    /// # Errors
    /// [`StartError::Input`] for a malformed input (with its line and column),
    /// [`StartError::Solve`] if solving fails.
    pub fn start(self, input: &str) -> Result<Session, StartError> {
        let inner: Box<dyn Contestant> = match self {
            Task::Ioi1996Game => Box::new(AGame::new(input)?),
            Task::Ioi2001Ioiwari => Box::new(IoiwariGame::new(input)?),
            Task::Ioi2001Score => Box::new(ScoreGame::new(input)?),
            Task::Poi1999Polygon => {
                let shape = Triangulation::parse(input).map_err(InputError::from)?;
                Box::new(PolygonAnswer {
                    answer: Some(if shape.rule() { "TAK" } else { "NIE" }),
                })
            }
        };
        Ok(Session { inner })
    }
}

/// Why a session could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The input is malformed.
    #[error("bad input at {0}")]
    Input(#[from] InputError),
    /// Solving failed (too large, cancelled).
    #[error("{0}")]
    Solve(#[from] Error),
}

/// What the contestant does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Write this line (an own move, already played, or the answer).
    Write(String),
    /// The opponent is to move: read a line and give it to [`Session::opponent`].
    Read,
    /// The game is over; write this closing line if there is one.
    Over(Option<String>),
}

/// A game of contest mode in progress.
pub struct Session {
    inner: Box<dyn Contestant>,
}

impl Session {
    /// What to do next.
    ///
    /// # Errors
    /// What solving a position refuses.
    pub fn step(&mut self) -> Result<Step, Error> {
        self.inner.next()
    }

    /// The opponent's move as the judge wrote it; refused with the reason if it is not a
    /// legal move here.
    ///
    /// # Errors
    /// The reason the move is refused.
    pub fn opponent(&mut self, line: &str) -> Result<(), String> {
        self.inner.opponent(line.trim())
    }
}

trait Contestant {
    fn next(&mut self) -> Result<Step, Error>;
    fn opponent(&mut self, line: &str) -> Result<(), String>;
}

/// Whitespace-separated integers with their lines and columns.
fn integers(text: &str) -> Vec<(Result<i64, String>, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut column = 1;
        let mut rest = line;
        while !rest.is_empty() {
            let skip = rest.len() - rest.trim_start().len();
            column += rest[..skip].chars().count();
            rest = &rest[skip..];
            if rest.is_empty() {
                break;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            let value = word.parse::<i64>().map_err(|_| {
                let cut: String = word.chars().take(20).collect();
                cut.escape_debug().to_string()
            });
            out.push((value, i + 1, column));
            column += word.chars().count();
            rest = &rest[end..];
        }
    }
    out
}

/// Reads exactly `count` integers in `lo..=hi` (count given by the first when `None`).
fn read_numbers(
    text: &str,
    what: &str,
    lo: i64,
    hi: i64,
    count: usize,
) -> Result<Vec<i64>, InputError> {
    let words = integers(text);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let Some((value, line, column)) = words.get(i).cloned() else {
            let (line, column) = words.last().map_or((1, 1), |&(_, l, c)| (l, c + 1));
            return Err(InputError {
                line,
                column,
                message: format!("expected {what}, found the end of the input"),
            });
        };
        let value = value.map_err(|word| InputError {
            line,
            column,
            message: format!("expected {what}, found `{word}`"),
        })?;
        if !(lo..=hi).contains(&value) {
            return Err(InputError {
                line,
                column,
                message: format!("{what} must be {lo} to {hi}, found {value}"),
            });
        }
        out.push(value);
    }
    if let Some(&(_, line, column)) = words.get(count) {
        return Err(InputError {
            line,
            column,
            message: "expected the end of the input".into(),
        });
    }
    Ok(out)
}

/// The input's first number, a count up to `max`.
fn first_count(input: &str, what: &str, max: i64) -> Result<usize, InputError> {
    match integers(input).first() {
        Some(&(Ok(n), line, column)) if !(0..=max).contains(&n) => Err(InputError {
            line,
            column,
            message: format!("{what} must be 0 to {max}, found {n}"),
        }),
        Some(&(Ok(n), _, _)) => Ok(n as usize),
        Some((Err(word), line, column)) => Err(InputError {
            line: *line,
            column: *column,
            message: format!("expected {what}, found `{word}`"),
        }),
        None => Err(InputError {
            line: 1,
            column: 1,
            message: format!("expected {what}, found the end of the input"),
        }),
    }
}

fn limits() -> Limits<'static> {
    Limits {
        control: Control {
            max_positions: 50_000_000,
            ..Control::default()
        },
        ..Limits::default()
    }
}

/// The best move of a solved position: its target.
fn best(spec: &Spec) -> Result<Spec, Error> {
    let report = report::solve(spec, &limits())?;
    report
        .best_move()
        .map(|m| m.to.clone())
        .ok_or_else(|| Error::Unsupported(format!("`{spec}` has no move")))
}

/// The spec `family(a,b,…)`, read by the registry.
fn spec(family: &str, items: impl IntoIterator<Item = String>) -> Result<Spec, Error> {
    let items: Vec<String> = items.into_iter().collect();
    format!("{family}({})", items.join(","))
        .parse()
        .map_err(|e: crate::games::SpecError| Error::Unsupported(e.to_string()))
}

/// IOI 1996 "A Game": interval minimax, solved once at the first own move; each own move
/// read from the table.
struct AGame {
    row: Vec<i64>,
    left: usize,
    right: usize,
    sums: [i64; 2],
    mine: bool,
    solved: Option<(Intervals, RankMargins)>,
}

impl AGame {
    fn new(input: &str) -> Result<AGame, InputError> {
        let n = first_count(input, "the count N", A_GAME_MAX as i64)?;
        let all = read_numbers(input, "a number", -(1 << 40), 1 << 40, n + 1)?;
        Ok(AGame {
            row: all[1..].to_vec(),
            left: 0,
            right: n,
            sums: [0, 0],
            mine: true,
            solved: None,
        })
    }

    fn take(&mut self, left: bool) {
        let who = usize::from(!self.mine);
        if left {
            self.sums[who] += self.row[self.left];
            self.left += 1;
        } else {
            self.right -= 1;
            self.sums[who] += self.row[self.right];
        }
        self.mine = !self.mine;
    }
}

impl Contestant for AGame {
    fn next(&mut self) -> Result<Step, Error> {
        if self.left == self.right {
            return Ok(Step::Over(Some(format!(
                "{} {}",
                self.sums[0], self.sums[1]
            ))));
        }
        if !self.mine {
            return Ok(Step::Read);
        }
        if self.solved.is_none() {
            let intervals = Intervals::new(self.row.clone());
            let start: Pos = self.row.iter().map(|&x| x as u64).collect();
            let margins = report::minimax_ranked(&EndsFamily, &intervals, &start, &limits())?
                .ok_or_else(|| Error::Unsupported("the row's ranks do not descend".into()))?;
            self.solved = Some((intervals, margins));
        }
        let (intervals, margins) = self.solved.as_ref().expect("solved");
        let (first, _, _) = margins
            .best(intervals, intervals.rank_of(self.left, self.right))
            .ok_or_else(|| Error::Unsupported("a position the pass did not reach".into()))?;
        // The moves of an interval: the left number first, then the right one.
        let left = first == 0;
        self.take(left);
        Ok(Step::Write(if left { "L" } else { "R" }.into()))
    }

    fn opponent(&mut self, line: &str) -> Result<(), String> {
        match line {
            "L" | "l" => self.take(true),
            "R" | "r" => self.take(false),
            other => {
                return Err(format!(
                    "expected `L` or `R` for the opponent's move, found `{}`",
                    other.escape_debug()
                ))
            }
        }
        Ok(())
    }
}

/// IOI 2001 "Ioiwari": minimax on the margin from each own position.
struct IoiwariGame {
    pits: [u64; PITS],
    banks: [u64; 2],
    mine: bool,
}

impl IoiwariGame {
    fn new(input: &str) -> Result<IoiwariGame, InputError> {
        let numbers = read_numbers(input, "a pit's beads", 0, 5, PITS)?;
        let pits: [u64; PITS] = std::array::from_fn(|i| numbers[i] as u64);
        Ok(IoiwariGame {
            pits,
            banks: [0, 0],
            mine: true,
        })
    }

    fn play(&mut self, i: usize) {
        let s = sow(&self.pits, i).expect("a non-empty pit");
        let (me, other) = if self.mine { (0, 1) } else { (1, 0) };
        self.banks[me] += s.mine;
        self.banks[other] += s.theirs;
        self.pits = s.pits;
        self.mine = !self.mine;
    }
}

impl Contestant for IoiwariGame {
    fn next(&mut self) -> Result<Step, Error> {
        if self.pits.iter().all(|&p| p == 0) {
            return Ok(Step::Over(None));
        }
        if !self.mine {
            return Ok(Step::Read);
        }
        let to = best(&spec("ioiwari", self.pits.iter().map(ToString::to_string))?)?;
        let i = (0..PITS)
            .find(|&i| sow(&self.pits, i).is_some_and(|s| s.pits[..] == to.parts[0].position[..]))
            .ok_or_else(|| Error::Unsupported("the best move is not a sowing".into()))?;
        self.play(i);
        Ok(Step::Write((i + 1).to_string()))
    }

    fn opponent(&mut self, line: &str) -> Result<(), String> {
        let label: usize = line
            .parse()
            .ok()
            .filter(|l| (1..=PITS).contains(l))
            .ok_or_else(|| {
                format!(
                    "expected a pit label 1 to 7 for the opponent's move, found `{}`",
                    line.escape_debug()
                )
            })?;
        if self.pits[label - 1] == 0 {
            return Err(format!("pit {label} is empty: it cannot be played"));
        }
        self.play(label - 1);
        Ok(())
    }
}

/// IOI 2001 "Score": the board solved once by the general method's descending pass;
/// each own move read from the table.
struct ScoreGame {
    family: ScoreBoard,
    values: RankValues,
    pos: Pos,
}

impl ScoreGame {
    fn new(input: &str) -> Result<ScoreGame, StartError> {
        let board = Board::parse(input).map_err(InputError::from)?;
        let family = ScoreBoard::new(board);
        let start = family.start();
        let values = {
            let ranked = family.ranking(&start).expect("a Score board is ranked");
            report::label_ranked(&family, &*ranked, &start, &limits().control)?
                .ok_or_else(|| Error::Unsupported("the board's ranks do not descend".into()))?
        };
        Ok(ScoreGame {
            family,
            values,
            pos: start,
        })
    }
}

impl Contestant for ScoreGame {
    fn next(&mut self) -> Result<Step, Error> {
        if self.family.terminal(&self.pos).is_some() {
            return Ok(Step::Over(None));
        }
        let me = self.family.to_move(&self.pos);
        if me != Player::First {
            return Ok(Step::Read);
        }
        let ranked = self.family.ranking(&self.pos).expect("ranked");
        let c = self.pos[0] as usize;
        let mut choice: Option<(i64, usize)> = None;
        for &d in self.family.board().arrows(c) {
            let child = self.family.after(&self.pos, d as usize);
            let value = self
                .values
                .value(ranked.rank(&child))
                .ok_or_else(|| Error::Unsupported("a position the pass did not reach".into()))?;
            let mine = value.through(self.family.to_move(&child) == me);
            if choice.is_none_or(|(p, _)| mine.preference() > p) {
                choice = Some((mine.preference(), d as usize));
            }
        }
        let (_, d) =
            choice.ok_or_else(|| Error::Unsupported("a position without arrows".into()))?;
        self.pos = self.family.after(&self.pos, d);
        Ok(Step::Write((d + 1).to_string()))
    }

    fn opponent(&mut self, line: &str) -> Result<(), String> {
        let n = self.family.board().len();
        let d: usize = line
            .parse()
            .ok()
            .filter(|d| (1..=n).contains(d))
            .ok_or_else(|| {
                format!(
                    "expected a position 1 to {n} for the opponent's move, found `{}`",
                    line.escape_debug()
                )
            })?;
        let c = self.pos[0] as usize;
        if !self.family.board().arrows(c).contains(&(d as u32 - 1)) {
            return Err(format!("there is no arrow from position {} to {d}", c + 1));
        }
        self.pos = self.family.after(&self.pos, d - 1);
        Ok(())
    }
}

/// POI 1999 "Polygons": one answer, by the rule.
struct PolygonAnswer {
    answer: Option<&'static str>,
}

impl Contestant for PolygonAnswer {
    fn next(&mut self) -> Result<Step, Error> {
        Ok(match self.answer.take() {
            Some(a) => Step::Write(a.into()),
            None => Step::Over(None),
        })
    }

    fn opponent(&mut self, _line: &str) -> Result<(), String> {
        Err("this task has no opponent's moves".into())
    }
}

/// The analysis of a task's start: the report of the general method where it answers,
/// and the special method's rule where the task has one.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The general method's report of the start (`None` when too large to explore).
    pub report: Option<report::Report>,
    /// The rule and what it says (POI 1999 "Polygons").
    pub rule: Option<String>,
}

/// The special method's rule on a triangulation, and what it says of the whole polygon.
fn polygon_rule(shape: &Triangulation) -> String {
    format!(
        "the rule: the first player wins iff the black triangle can be cut at once (it has {} of 2 sides on the boundary) or the number of triangles is even (it is {}): {}",
        shape.black_boundary_sides(),
        shape.triangles().len(),
        if shape.rule() { "TAK" } else { "NIE" }
    )
}

/// The most triangles `analyze` gives to the general method (2^k positions at most).
pub const ANALYZED_TRIANGLES: usize = 24;

/// Reads a task's input and analyzes its start: what `grundy solve` says of it, and the
/// rule of the special method where there is one.
///
/// # Errors
/// As [`Task::start`].
pub fn analyze(task: Task, input: &str) -> Result<Analysis, StartError> {
    let report = |spec: &Spec| report::solve(spec, &limits()).map_err(StartError::from);
    Ok(match task {
        Task::Ioi1996Game => {
            let game = AGame::new(input)?;
            let spec = spec("ends", game.row.iter().map(ToString::to_string))?;
            Analysis {
                report: Some(report(&spec)?),
                rule: crate::pattern::certificate::parity(&game.row).map(|p| p.explain()),
            }
        }
        Task::Ioi2001Ioiwari => {
            let game = IoiwariGame::new(input)?;
            let spec = spec("ioiwari", game.pits.iter().map(ToString::to_string))?;
            Analysis {
                report: Some(report(&spec)?),
                rule: None,
            }
        }
        Task::Ioi2001Score => Analysis {
            report: Some(report(&task.game(input)?)?),
            rule: None,
        },
        Task::Poi1999Polygon => {
            let shape = Triangulation::parse(input).map_err(InputError::from)?;
            let k = shape.triangles().len();
            let rule = polygon_rule(&shape);
            let report = if k <= ANALYZED_TRIANGLES {
                let family = crate::games::polygon::Polygon::new(shape);
                let position = family.shape().start();
                let spec = Spec {
                    parts: vec![crate::games::Part {
                        family: std::sync::Arc::new(family),
                        position,
                    }],
                };
                Some(report(&spec)?)
            } else {
                None
            };
            Analysis {
                report,
                rule: Some(rule),
            }
        }
    })
}
