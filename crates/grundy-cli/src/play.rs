//! `grundy play`: you against perfect strategy, in the terminal. The library's
//! [`Match`] keeps the game — the position, the points taken, the engine's replies and
//! why — and this file only reads your moves and prints what the match says.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use grundy::play::Match;
use grundy::report::{Limits, Move, Report};

/// The most moves listed with numbers at the prompt.
const LISTED: usize = 30;

/// Where the moves come from: a line editor on a terminal, or plain lines.
pub enum Input<'a> {
    /// Lines from a reader (a pipe, a test).
    Lines(&'a mut dyn BufRead),
    /// A terminal: line editing and history.
    Editor(Box<rustyline::DefaultEditor>),
}

/// What the person typed.
enum Line {
    Text(String),
    End,
    Interrupted,
}

impl Input<'_> {
    /// A line editor if standard input is a terminal and one can be opened.
    pub fn terminal<'b>() -> Option<Input<'b>> {
        use std::io::IsTerminal;
        if !std::io::stdin().is_terminal() {
            return None;
        }
        rustyline::DefaultEditor::new()
            .ok()
            .map(|e| Input::Editor(Box::new(e)))
    }

    fn read(&mut self, prompt: &str, out: &mut impl Write) -> Result<Line> {
        match self {
            Input::Lines(reader) => {
                write!(out, "{prompt}")?;
                out.flush()?;
                let mut line = String::new();
                if reader.read_line(&mut line)? == 0 {
                    return Ok(Line::End);
                }
                Ok(Line::Text(line))
            }
            Input::Editor(editor) => {
                out.flush()?;
                match editor.readline(prompt) {
                    Ok(line) => {
                        if !line.trim().is_empty() {
                            let _ = editor.add_history_entry(line.as_str());
                        }
                        Ok(Line::Text(line))
                    }
                    Err(rustyline::error::ReadlineError::Interrupted) => Ok(Line::Interrupted),
                    Err(rustyline::error::ReadlineError::Eof) => Ok(Line::End),
                    Err(e) => Err(e.into()),
                }
            }
        }
    }
}

/// How a game in the terminal ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played out, quit, or input ended.
    Done,
    /// Ctrl-C at the prompt.
    Interrupted,
}

/// Plays from `spec` until the game ends or the player quits. `settle` is called after
/// each computation, before anything is printed (it clears a progress line).
pub fn play(
    game: Match,
    limits: &Limits<'_>,
    input: &mut Input<'_>,
    out: &mut impl Write,
    settle: &dyn Fn(),
) -> Result<Ending> {
    let mut game = game;
    writeln!(
        out,
        "You play {}. Type a move's number, its name or the position it leads to; `hint`, `moves`, `undo`, `quit`.",
        if game.human_to_move() { "first" } else { "second" }
    )?;
    let mut shown = String::new();
    loop {
        if let Some(verdict) = game.verdict() {
            settle();
            show_position(out, &game)?;
            writeln!(out, "{}", verdict.message)?;
            return Ok(Ending::Done);
        }
        if !game.human_to_move() {
            let played = game
                .engine_move(limits)
                .with_context(|| format!("cannot solve `{}`", game.position()))?;
            settle();
            if let Some(p) = played {
                writeln!(out, "grundy: {}  — {}", p.mv.name, p.explanation)?;
            }
            continue;
        }
        let here = game.position().to_string();
        if shown != here {
            show_position(out, &game)?;
            show_moves(out, &game)?;
            shown = here;
        }
        let line = match input.read("your move> ", out)? {
            Line::Text(line) => line,
            Line::End => {
                writeln!(out)?;
                return Ok(Ending::Done);
            }
            Line::Interrupted => {
                writeln!(out)?;
                return Ok(Ending::Interrupted);
            }
        };
        let line = line.trim();
        match line {
            "" => {}
            "quit" | "q" | "exit" => return Ok(Ending::Done),
            "hint" | "h" => writeln!(out, "hint: {}", game.hint())?,
            "moves" | "m" => list_moves(out, game.report(), usize::MAX)?,
            "undo" | "u" => {
                if game.undo() {
                    writeln!(out, "taken back.")?;
                    shown.clear();
                } else {
                    writeln!(out, "nothing to undo.")?;
                }
            }
            _ => match game.choose(line) {
                Ok(m) => {
                    let judgement = game.judge(&m);
                    game.play(&m, limits)
                        .with_context(|| format!("cannot solve `{}`", m.spec))?;
                    settle();
                    writeln!(out, "you: {}  ({judgement})", m.name)?;
                }
                Err(why) => writeln!(out, "{why}")?,
            },
        }
    }
}

fn show_position(out: &mut impl Write, game: &Match) -> Result<()> {
    writeln!(out, "\nposition: {}", game.position())?;
    if let Some(drawing) = game
        .position()
        .single()
        .and_then(|p| p.family.draw(&p.position))
    {
        write!(out, "{drawing}")?;
        if !drawing.ends_with('\n') {
            writeln!(out)?;
        }
    }
    if let Some([you, engine]) = game.taken() {
        writeln!(out, "taken so far: you {you}, grundy {engine}")?;
    }
    Ok(())
}

fn describe(m: &Move) -> String {
    if m.name == m.spec {
        m.name.clone()
    } else {
        format!("{:<24} → {}", m.name, m.spec)
    }
}

fn list_moves(out: &mut impl Write, report: &Report, most: usize) -> Result<()> {
    for (i, m) in report.moves.iter().enumerate().take(most) {
        writeln!(out, "  {:>3}. {}", i + 1, describe(m))?;
    }
    Ok(())
}

fn show_moves(out: &mut impl Write, game: &Match) -> Result<()> {
    let report = game.report();
    if report.moves_truncated || report.moves.len() > LISTED {
        let count = if report.moves_truncated {
            "many".to_string()
        } else {
            report.moves.len().to_string()
        };
        let example = game.example().map_or(String::new(), |m| m.name.clone());
        writeln!(
            out,
            "{count} moves; type one by name (e.g. `{example}`) or the position it leads to, or `moves` to list them."
        )?;
    } else {
        list_moves(out, report, LISTED)?;
    }
    Ok(())
}
