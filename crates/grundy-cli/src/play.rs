//! `grundy play`: you against perfect strategy, in the terminal. Each turn asks the
//! library for the position's report; the engine plays the report's best move.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use grundy::game::Outcome;
use grundy::games::{is_move, Part, Spec};
use grundy::report::{self, Limits, Move, Report};

/// The most moves listed with numbers at the prompt.
const LISTED: usize = 30;

struct Turn {
    spec: Spec,
    /// Points each side has taken so far (score games): `[you, grundy]`.
    taken: [i64; 2],
}

/// Plays from `spec` until the game ends or the player quits.
pub fn play(
    spec: Spec,
    engine_first: bool,
    limits: &Limits<'_>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<()> {
    let mut history = vec![Turn {
        spec,
        taken: [0, 0],
    }];
    let mut human = !engine_first;
    writeln!(
        out,
        "You play {}. Type a move's number or the position it leads to; `hint`, `moves`, `undo`, `quit`.",
        if human { "first" } else { "second" }
    )?;
    loop {
        let turn = history.last().expect("history is never empty");
        let report = report::solve(&turn.spec, limits)
            .with_context(|| format!("cannot solve `{}`", turn.spec))?;
        if report.moves.is_empty() {
            finish(out, &report, turn, human)?;
            return Ok(());
        }
        if !human {
            let m = report
                .best_move()
                .expect("a position with moves has a best move");
            let next = advance(turn, m, false)?;
            writeln!(out, "grundy: {}  — {}", m.spec, report.explain(m))?;
            history.push(next);
            human = true;
            continue;
        }
        writeln!(out, "\nposition: {}", turn.spec)?;
        show_moves(out, &report)?;
        write!(out, "your move> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let line = line.trim();
        match line {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "hint" | "h" => hint(out, &report)?,
            "moves" | "m" => {
                for (i, m) in report.moves.iter().enumerate() {
                    writeln!(out, "  {:>3}. {}", i + 1, describe(m))?;
                }
            }
            "undo" | "u" => {
                if history.len() >= 3 {
                    history.truncate(history.len() - 2);
                    writeln!(out, "taken back.")?;
                } else {
                    writeln!(out, "nothing to undo.")?;
                }
            }
            _ => match choose(&report, &turn.spec, line) {
                Ok(m) => {
                    let next = advance(turn, &m, true)?;
                    writeln!(out, "you: {}", m.spec)?;
                    history.push(next);
                    human = false;
                }
                Err(why) => writeln!(out, "{why}")?,
            },
        }
    }
}

fn describe(m: &Move) -> String {
    let mut s = m.spec.clone();
    if let Some([me, other]) = m.scores {
        s.push_str(&format!("   (ends {me} to {other})"));
    }
    s
}

fn show_moves(out: &mut impl Write, report: &Report) -> Result<()> {
    if report.moves_truncated || report.moves.len() > LISTED {
        writeln!(
            out,
            "{} moves; type the position you move to (e.g. {}), or `moves` to list them.",
            if report.moves_truncated {
                "many".to_string()
            } else {
                report.moves.len().to_string()
            },
            report.moves[0].spec
        )?;
    } else {
        for (i, m) in report.moves.iter().enumerate() {
            writeln!(out, "  {:>3}. {}", i + 1, describe(m))?;
        }
    }
    Ok(())
}

fn hint(out: &mut impl Write, report: &Report) -> Result<()> {
    if report.winning_moves.is_empty() {
        let slow = report.best_move().map_or(String::new(), |m| m.spec.clone());
        writeln!(
            out,
            "hint: no winning move here{}; the move that holds out longest: {slow}",
            report
                .grundy
                .map_or(String::new(), |g| format!(" (Grundy value {g})"))
        )?;
    } else {
        writeln!(
            out,
            "hint: winning moves: {}",
            report.winning_moves.join(", ")
        )?;
    }
    Ok(())
}

/// The move the player typed: a number from the list, or the position it leads to.
fn choose(report: &Report, from: &Spec, line: &str) -> Result<Move, String> {
    if let Ok(i) = line.parse::<usize>() {
        return report
            .moves
            .get(i.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| format!("no move number {i}; there are {}", report.moves.len()));
    }
    let to: Spec = line.parse().map_err(|e| format!("not a move: {e}"))?;
    if let Some(m) = report.moves.iter().find(|m| m.spec == to.to_string()) {
        return Ok(m.clone());
    }
    if !is_move(from, &to) {
        return Err(format!("`{to}` is not one move from `{from}`"));
    }
    // A legal move not listed (huge positions): judge it now.
    let r = report::solve(&to, &Limits::default()).map_err(|e| e.to_string())?;
    Ok(Move {
        spec: to.to_string(),
        outcome: r.outcome.negate(),
        remoteness: r.remoteness.map(|x| x + 1),
        grundy: r.grundy,
        scores: None,
    })
}

fn advance(turn: &Turn, m: &Move, by_human: bool) -> Result<Turn> {
    let spec: Spec = m.spec.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut taken = turn.taken;
    if let ([Part::Ends { row }], [Part::Ends { row: next }]) =
        (turn.spec.parts.as_slice(), spec.parts.as_slice())
    {
        let gain = if next[..] == row[1..] {
            row[0]
        } else {
            row[row.len() - 1]
        };
        taken[usize::from(!by_human)] += gain;
    }
    Ok(Turn { spec, taken })
}

fn finish(out: &mut impl Write, report: &Report, turn: &Turn, human: bool) -> Result<()> {
    writeln!(out, "\nposition: {} — no move left.", turn.spec)?;
    if let [Part::Ends { .. }] = turn.spec.parts.as_slice() {
        let [you, engine] = turn.taken;
        let verdict = match you.cmp(&engine) {
            std::cmp::Ordering::Greater => "you win",
            std::cmp::Ordering::Less => "grundy wins",
            std::cmp::Ordering::Equal => "a draw",
        };
        writeln!(out, "final scores: you {you}, grundy {engine}: {verdict}.")?;
    } else if report.outcome == Outcome::Loss {
        let winner = if human { "grundy wins" } else { "you win" };
        writeln!(out, "the player to move cannot move and loses: {winner}.")?;
    }
    Ok(())
}
