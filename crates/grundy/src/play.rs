//! A game in progress against perfect strategy: the position, whose turn it is, the
//! points each side has taken, the engine's replies and why it makes them, and who won.
//! The command line and the web page only show what a [`Match`] says; neither keeps a
//! score or solves a position again.
//!
//! ```
//! use grundy::play::{Match, Winner};
//! use grundy::report::Limits;
//!
//! let limits = Limits::default();
//! let mut game = Match::new("multiple[2](8)".parse().unwrap(), true, &limits).unwrap();
//! let mine = game.choose("take 1").unwrap();
//! game.play(&mine, &limits).unwrap();
//! let reply = game.engine_move(&limits).unwrap().unwrap();
//! assert_eq!(reply.mv.spec, "multiple[2](5)"); // back to a Fibonacci number
//! assert!(game.verdict().is_none());
//! # let _ = Winner::You;
//! ```

use crate::game::Outcome;
use crate::games::{is_move, Spec};
use crate::report::{self, Limits, Method, Move, Play, Report};
use crate::Error;

/// Who won a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum Winner {
    /// The person.
    You,
    /// The engine.
    Grundy,
    /// Nobody: a draw, or equal scores.
    Draw,
}

/// The end of a game: who won, and the line that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Verdict {
    /// Who won.
    pub winner: Winner,
    /// One line, in plain words.
    pub message: String,
}

/// A move the engine made, with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Why, in one line, said to the person.
    pub explanation: String,
}

#[derive(Debug, Clone)]
struct Step {
    spec: Spec,
    report: Report,
    /// Points taken so far: `[you, grundy]`.
    taken: [i64; 2],
    human_to_move: bool,
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Match {
    steps: Vec<Step>,
    score_game: bool,
    play: Play,
}

impl Match {
    /// A new game from `spec`; `human_first` says who moves first.
    ///
    /// # Errors
    /// What [`report::solve`] refuses.
    pub fn new(spec: Spec, human_first: bool, limits: &Limits<'_>) -> Result<Match, Error> {
        Match::resume(spec, [0, 0], human_first, limits)
    }

    /// A game resumed at `spec`, with the points taken so far (`[you, grundy]`) and whose
    /// turn it is (how the web page, which keeps the history, asks for each reply).
    ///
    /// # Errors
    /// What [`report::solve`] refuses.
    pub fn resume(
        spec: Spec,
        taken: [i64; 2],
        human_to_move: bool,
        limits: &Limits<'_>,
    ) -> Result<Match, Error> {
        Match::resume_in(spec, Play::Normal, taken, human_to_move, limits)
    }

    /// A new game from `spec` under the play convention `play` (misère: the player who
    /// cannot move wins; impartial games only).
    ///
    /// # Errors
    /// What [`report::solve_in`] refuses.
    pub fn new_in(
        spec: Spec,
        play: Play,
        human_first: bool,
        limits: &Limits<'_>,
    ) -> Result<Match, Error> {
        Match::resume_in(spec, play, [0, 0], human_first, limits)
    }

    /// [`Match::resume`] under the play convention `play`.
    ///
    /// # Errors
    /// What [`report::solve_in`] refuses.
    pub fn resume_in(
        spec: Spec,
        play: Play,
        taken: [i64; 2],
        human_to_move: bool,
        limits: &Limits<'_>,
    ) -> Result<Match, Error> {
        let report = report::solve_in(&spec, play, limits)?;
        Ok(Match {
            play,
            score_game: report.scores.is_some(),
            steps: vec![Step {
                spec,
                report,
                taken,
                human_to_move,
            }],
        })
    }

    fn step(&self) -> &Step {
        self.steps.last().expect("a match always has a position")
    }

    /// The position now.
    #[must_use]
    pub fn position(&self) -> &Spec {
        &self.step().spec
    }

    /// The report of the position now (the moves, each with its value).
    #[must_use]
    pub fn report(&self) -> &Report {
        &self.step().report
    }

    /// The report of the position now as the player to move sees the whole game: in a
    /// score game every total counts what each side has already taken, and a move's
    /// outcome follows the final margin (`scores` is `[mover, other]` at the end of the
    /// game under best play). Other games: [`Match::report`] as it is.
    #[must_use]
    pub fn view(&self) -> Report {
        let mut report = self.report().clone();
        let Some([you, engine]) = self.taken() else {
            return report;
        };
        let (mine, theirs) = if self.human_to_move() {
            (you, engine)
        } else {
            (engine, you)
        };
        let sign = Outcome::of_margin;
        let shift = |s: [i64; 2]| [s[0].saturating_add(mine), s[1].saturating_add(theirs)];
        if let Some(s) = report.scores {
            let s = shift(s);
            report.scores = Some(s);
            report.outcome = sign(i128::from(s[0]) - i128::from(s[1]));
        }
        for m in &mut report.moves {
            if let Some(s) = m.scores {
                let s = shift(s);
                m.scores = Some(s);
                m.outcome = sign(i128::from(s[0]) - i128::from(s[1]));
            }
        }
        report
    }

    /// Whether the person is to move.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        self.step().human_to_move
    }

    /// Points taken so far, `[you, grundy]`, in a score game.
    #[must_use]
    pub fn taken(&self) -> Option<[i64; 2]> {
        self.score_game.then(|| self.step().taken)
    }

    /// Whether there is a move of the person's to take back.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.steps[..self.steps.len() - 1]
            .iter()
            .any(|s| s.human_to_move)
    }

    /// Takes back moves until the person's previous turn. `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if !self.can_undo() {
            return false;
        }
        self.steps.pop();
        while !self.step().human_to_move {
            self.steps.pop();
        }
        true
    }

    /// The move the person means by `text`: a number from the list (1-based), the move's
    /// name ("take 2 from heap 3"), or the spec of the position it leads to.
    ///
    /// # Errors
    /// A line saying why `text` is not a move here.
    pub fn choose(&self, text: &str) -> Result<Move, String> {
        let text = text.trim();
        let report = self.report();
        if let Ok(i) = text.parse::<usize>() {
            if let Some(m) = report.moves.get(i.wrapping_sub(1)) {
                return Ok(m.clone());
            }
            if !report.moves_truncated {
                return Err(format!(
                    "no move number {i}; there are {}",
                    report.moves.len()
                ));
            }
        }
        let from = &self.step().spec;
        if let Some(m) = report
            .moves
            .iter()
            .find(|m| names(from, m, text) || m.spec == text)
        {
            return Ok(m.clone());
        }
        let to: Spec = text.parse().map_err(|e| {
            format!(
                "not a move: bad spec at {e} (type a number from the list, a move's name such as `{}`, or the position it leads to)",
                self.example().map_or(String::new(), |m| m.name)
            )
        })?;
        if let Some(m) = report.moves.iter().find(|m| m.to == to) {
            return Ok(m.clone());
        }
        if !is_move(from, &to) {
            return Err(format!("`{to}` is not one move from `{from}`"));
        }
        // A legal move the report does not list (huge positions): judged when played.
        let (game, root) = crate::games::SumGame::new(from).map_err(|e| e.to_string())?;
        let child: Vec<_> = to.parts.iter().map(|p| p.position.clone()).collect();
        Ok(report::typed_move(&game, &root, &child))
    }

    /// Plays `m` (one of the moves of [`Match::report`], or one [`Match::choose`] made)
    /// for whoever is to move, and solves the position it leads to.
    ///
    /// # Errors
    /// What [`report::solve`] refuses at the new position.
    pub fn play(&mut self, m: &Move, limits: &Limits<'_>) -> Result<(), Error> {
        let step = self.step();
        let mut taken = step.taken;
        let who = usize::from(!step.human_to_move);
        taken[who] = taken[who]
            .checked_add(m.gain.unwrap_or(0))
            .ok_or(Error::Overflow)?;
        taken[1 - who] = taken[1 - who]
            .checked_add(m.gift.unwrap_or(0))
            .ok_or(Error::Overflow)?;
        let human_to_move = step.human_to_move == m.again;
        let report = report::solve_in(&m.to, self.play, limits)?;
        self.steps.push(Step {
            spec: m.to.clone(),
            report,
            taken,
            human_to_move,
        });
        Ok(())
    }

    /// The engine's move, if it is the engine's turn and it has one: a win as fast as
    /// possible, else a draw, else a loss as slowly as possible (score games: the best
    /// final margin) — played, with the reason.
    ///
    /// # Errors
    /// What [`report::solve`] refuses at the new position.
    pub fn engine_move(&mut self, limits: &Limits<'_>) -> Result<Option<Played>, Error> {
        if self.human_to_move() || self.verdict().is_some() {
            return Ok(None);
        }
        let Some(m) = self.report().best_move().cloned() else {
            return Ok(None);
        };
        let explanation = self.explain(&m);
        self.play(&m, limits)?;
        Ok(Some(Played { mv: m, explanation }))
    }

    /// Why a perfect player makes `m` here, said to the person — with the final totals,
    /// what is already taken included, in a score game.
    #[must_use]
    pub fn explain(&self, m: &Move) -> String {
        self.final_totals(m, "with best play the game ends")
            .unwrap_or_else(|| self.report().explain(m))
    }

    /// A score game's move in words: best or worse by how much, then `ends` and the
    /// final totals under best play, what is taken included. `None` in other games.
    fn final_totals(&self, m: &Move, ends: &str) -> Option<String> {
        let ([mover, other], [you, engine]) = (m.scores?, self.taken()?);
        let (engine_total, you_total) = if self.human_to_move() {
            (engine + other, you + mover)
        } else {
            (engine + mover, you + other)
        };
        let quality = match m.worse_by {
            Some(0) | None => "the best move".to_string(),
            Some(k) => format!("worse than the best by {k}"),
        };
        Some(format!(
            "{quality}: {ends} grundy {engine_total}, you {you_total}"
        ))
    }

    /// The value of one of the person's moves, to the person: for a score game the final
    /// totals under best play from then on (what is taken included) and whether it is
    /// best; otherwise win, draw or loss with the moves left.
    #[must_use]
    pub fn judge(&self, m: &Move) -> String {
        if let Some(words) = self.final_totals(m, "best play then ends") {
            return words;
        }
        let left = m.remoteness.map_or(String::new(), |r| {
            format!(
                " in {}",
                crate::number::count(u128::from(r), "move", "moves")
            )
        });
        match (m.outcome, self.report().method) {
            (Outcome::Win, Method::Rule | Method::SpragueGrundy) => "a winning move".into(),
            (Outcome::Win, _) => format!("a winning move: you can win{left}"),
            (Outcome::Draw, _) => "a drawing move".into(),
            (Outcome::Loss, Method::Rule | Method::SpragueGrundy) => "a losing move".into(),
            // Counted after this move, as the engine's reply counts them (the remoteness
            // counts this move too: "grundy can win in 6 moves" was 5 after it).
            (Outcome::Loss, _) => match m.remoteness {
                Some(r) => format!(
                    "a losing move: grundy can win in {} after it",
                    crate::number::count(
                        u128::from(r.saturating_sub(1)),
                        "more move",
                        "more moves"
                    )
                ),
                None => "a losing move: grundy can win".into(),
            },
        }
    }

    /// What the person should play: the winning (or best) moves with their numbers in
    /// the list, or the move that holds out longest.
    #[must_use]
    pub fn hint(&self) -> String {
        let report = self.report();
        let numbered = |m: &Move| {
            let i = report.moves.iter().position(|x| x == m);
            match i {
                Some(i) => format!("{}. {}", i + 1, m.name),
                None => m.name.clone(),
            }
        };
        if self.score_game {
            let best: Vec<String> = report
                .moves
                .iter()
                .filter(|m| m.worse_by == Some(0))
                .map(numbered)
                .collect();
            return format!("best: {}", best.join(", "));
        }
        let winning: Vec<String> = report
            .moves
            .iter()
            .filter(|m| m.outcome == Outcome::Win)
            .map(numbered)
            .collect();
        if !winning.is_empty() {
            return format!("winning: {}", winning.join(", "));
        }
        if !report.winning_moves.is_empty() {
            return format!("winning: {}", report.winning_moves.join(", "));
        }
        let grundy = report
            .grundy
            .map_or(String::new(), |g| format!(" (Grundy value {g})"));
        // Every drawing move, as every winning one: naming one of them made it look the
        // only one (tic-tac-toe's first move: "9. c3 keeps the draw", when all nine do).
        let drawing: Vec<String> = report
            .moves
            .iter()
            .filter(|m| m.outcome == Outcome::Draw)
            .map(numbered)
            .collect();
        match drawing.len() {
            0 => {}
            1 => return format!("no winning move{grundy}; {} keeps the draw", drawing[0]),
            n if n == report.moves.len() && !report.moves_truncated => {
                return format!("no winning move{grundy}; every move keeps the draw");
            }
            _ => {
                return format!(
                    "no winning move{grundy}; these keep the draw: {}",
                    drawing.join(", ")
                )
            }
        }
        match report.best_move() {
            Some(m) if m.outcome == Outcome::Draw => {
                format!("no winning move{grundy}; {} keeps the draw", numbered(m))
            }
            Some(m) => format!(
                "no winning move{grundy}; the one that holds out longest: {}",
                numbered(m)
            ),
            None => "no move".into(),
        }
    }

    /// A move to show as an example of the syntax that gives nothing away: a move
    /// that does not win, if there is one (in a cut list, which holds the winning moves,
    /// one made up from the family's first move).
    #[must_use]
    pub fn example(&self) -> Option<Move> {
        let report = self.report();
        let loses = |m: &&Move| m.outcome != Outcome::Win && m.worse_by.is_none_or(|w| w > 0);
        if let Some(m) = report.moves.iter().find(loses) {
            return Some(m.clone());
        }
        let spec = self.position();
        let (game, root) = crate::games::SumGame::new(spec).ok()?;
        for (i, part) in spec.parts.iter().enumerate() {
            if let Some(p) = part.family.some_move(&part.position) {
                let mut child = root.clone();
                child[i] = p;
                let m = report::typed_move(&game, &root, &child);
                if !report.winning_moves.contains(&m.spec) {
                    return Some(m);
                }
            }
        }
        report.moves.last().cloned()
    }

    /// `Some` once the game is over: who won, in plain words.
    #[must_use]
    pub fn verdict(&self) -> Option<Verdict> {
        let step = self.step();
        if !step.report.moves.is_empty() {
            return None;
        }
        if let Some([mut you, mut engine]) = self.taken() {
            // What the end itself gives (Kalah: the seeds left on a side, to its owner,
            // who is then to move) counts for the player to move.
            let last = step
                .spec
                .single()
                .map_or(0, |p| p.family.final_gain(&p.position));
            if step.human_to_move {
                you = you.saturating_add(last);
            } else {
                engine = engine.saturating_add(last);
            }
            let winner = match you.cmp(&engine) {
                std::cmp::Ordering::Greater => Winner::You,
                std::cmp::Ordering::Less => Winner::Grundy,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            let words = match winner {
                Winner::You => "you win",
                Winner::Grundy => "grundy wins",
                Winner::Draw => "a draw",
            };
            return Some(Verdict {
                winner,
                message: format!("final scores: you {you}, grundy {engine}: {words}."),
            });
        }
        let (mover, other) = if step.human_to_move {
            (Winner::You, Winner::Grundy)
        } else {
            (Winner::Grundy, Winner::You)
        };
        let who = |w: Winner| if w == Winner::You { "you" } else { "grundy" };
        Some(match step.report.outcome {
            Outcome::Draw => Verdict {
                winner: Winner::Draw,
                message: "the game is over: a draw.".into(),
            },
            Outcome::Win => Verdict {
                winner: mover,
                message: format!("the game is over: {} won.", who(mover)),
            },
            Outcome::Loss if declared_end(&step.spec) => Verdict {
                winner: other,
                message: format!("the game is over: {} won.", who(other)),
            },
            Outcome::Loss => Verdict {
                winner: other,
                message: format!(
                    "{} cannot move and {}: {} {}.",
                    who(mover),
                    if mover == Winner::You {
                        "lose"
                    } else {
                        "loses"
                    },
                    who(other),
                    if other == Winner::You { "win" } else { "wins" },
                ),
            },
        })
    }
}

/// Whether the game ended at `spec` by its own rule (a line made), not by lack of moves.
fn declared_end(spec: &Spec) -> bool {
    spec.single()
        .is_some_and(|p| p.family.terminal(&p.position).is_some())
}

/// Whether `text` names move `m` from `from`.
fn names(from: &Spec, m: &Move, text: &str) -> bool {
    let said = crate::games::family::squash(text);
    if said.is_empty() {
        return false;
    }
    if crate::games::family::squash(&m.name) == said {
        return true;
    }
    // The family's own forms ("2" for "take 2", "left", "b2"), for a one-part game.
    match (from.single(), m.to.single()) {
        (Some(a), Some(b)) => a.family.names_move(&a.position, &b.position, text),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits<'static> {
        Limits::default()
    }

    #[test]
    fn a_losing_move_counts_the_moves_after_it() {
        // multiple[2](8), take 1: 6 moves to the end, this one included; grundy's reply
        // then says "4 more moves at most".
        let game = Match::new("multiple[2](8)".parse().unwrap(), true, &limits()).unwrap();
        let m = game.choose("1").unwrap();
        assert_eq!(m.remoteness, Some(6));
        assert_eq!(
            game.judge(&m),
            "a losing move: grundy can win in 5 more moves after it"
        );
    }

    #[test]
    fn a_hint_names_every_drawing_move() {
        // Every first move of tic-tac-toe draws (was: "9. c3 keeps the draw").
        let game = Match::new("tictactoe".parse().unwrap(), true, &limits()).unwrap();
        assert_eq!(game.hint(), "no winning move; every move keeps the draw");
        // Here only the centre holds the draw.
        let game = Match::new("tictactoe(x../.../...)".parse().unwrap(), true, &limits()).unwrap();
        assert_eq!(game.hint(), "no winning move; 4. b2 keeps the draw");
    }

    #[test]
    fn a_score_game_keeps_one_account() {
        // ends(4,7,2,9,5,2): the first player can get 18 to 11.
        let mut game = Match::new("ends(4,7,2,9,5,2)".parse().unwrap(), true, &limits()).unwrap();
        let first = game.choose("left").unwrap();
        assert_eq!(first.gain, Some(4));
        assert_eq!(first.worse_by, Some(6));
        assert!(
            game.judge(&first).contains("worse than the best by 6"),
            "{}",
            game.judge(&first)
        );
        game.play(&first, &limits()).unwrap();
        assert_eq!(game.taken(), Some([4, 0]));
        while game.verdict().is_none() {
            if game.human_to_move() {
                let m = game.report().best_move().unwrap().clone();
                game.play(&m, &limits()).unwrap();
            } else {
                let played = game.engine_move(&limits()).unwrap().unwrap();
                assert!(
                    played.explanation.contains("grundy"),
                    "{}",
                    played.explanation
                );
            }
        }
        // After the slip, best play on both sides: 15 to 14 for the first player.
        assert_eq!(game.taken(), Some([15, 14]));
        let v = game.verdict().unwrap();
        assert_eq!(v.winner, Winner::You);
        assert_eq!(v.message, "final scores: you 15, grundy 14: you win.");
    }

    #[test]
    fn the_end_of_a_score_game_counts_what_the_end_gives() {
        // kalah[2,2]: pit 1 then pit 2 leaves South's side empty; North collects the six
        // seeds left on its side (`final_gain`): 2 to 6.
        let mut game = Match::new("kalah[2,2]".parse().unwrap(), true, &limits()).unwrap();
        for pit in ["pit 1", "pit 2"] {
            let m = game.choose(pit).unwrap();
            game.play(&m, &limits()).unwrap();
        }
        assert_eq!(game.taken(), Some([2, 0]));
        let v = game.verdict().unwrap();
        assert_eq!(v.winner, Winner::Grundy);
        assert_eq!(v.message, "final scores: you 2, grundy 6: grundy wins.");
    }

    #[test]
    fn moves_are_chosen_by_number_name_or_spec() {
        let game = Match::new("nim(3,4,5)".parse().unwrap(), true, &limits()).unwrap();
        let by_name = game.choose("take 2 from heap 1").unwrap();
        assert_eq!(by_name.spec, "nim(1,4,5)");
        assert_eq!(game.choose("nim(1,4,5)").unwrap(), by_name);
        assert_eq!(game.choose(" Take 2 From Heap 1 ").unwrap(), by_name);
        assert_eq!(game.choose("take 2 from 1").unwrap(), by_name);
        let first = game.choose("1").unwrap();
        assert_eq!(first, game.report().moves[0]);
        assert!(game.choose("99").unwrap_err().contains("no move number 99"));
        assert!(game
            .choose("nim(3,4,6)")
            .unwrap_err()
            .contains("not one move"));
        assert!(game.choose("take 9 from heap 1").is_err());
        // The example move shown at the prompt is not a winning one.
        assert_ne!(game.example().unwrap().outcome, Outcome::Win);
    }

    #[test]
    fn undo_goes_back_to_the_persons_turn() {
        let mut game = Match::new("nim(2,2)".parse().unwrap(), true, &limits()).unwrap();
        assert!(!game.can_undo());
        let m = game.choose("1").unwrap();
        game.play(&m, &limits()).unwrap();
        game.engine_move(&limits()).unwrap().unwrap();
        assert!(game.human_to_move() && game.can_undo());
        assert!(game.undo());
        assert_eq!(game.position().to_string(), "nim(2,2)");
        assert!(!game.can_undo());
    }

    #[test]
    fn the_end_says_who_won() {
        let mut game = Match::new("nim(1)".parse().unwrap(), true, &limits()).unwrap();
        let m = game.choose("take 1").unwrap();
        game.play(&m, &limits()).unwrap();
        let v = game.verdict().unwrap();
        assert_eq!(v.winner, Winner::You);
        assert!(
            v.message.contains("grundy cannot move and loses: you win"),
            "{}",
            v.message
        );
        let game = Match::new("tictactoe(xxx/oo./...)".parse().unwrap(), true, &limits()).unwrap();
        let v = game.verdict().unwrap();
        assert_eq!(
            v.winner,
            Winner::Grundy,
            "X made a line before the person's turn"
        );
    }
}
