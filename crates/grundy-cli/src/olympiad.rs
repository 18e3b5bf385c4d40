//! `grundy olympiad NAME`: a seed's contest task run as a contestant's program is run —
//! the task's input on standard input, then one move a line against the judge, each line
//! flushed. The library's [`grundy::contest`] chooses every move; this file only moves
//! lines. `--solve` prints the analysis of the task's start instead of playing.

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use grundy::contest::{Step, Task};

/// The task of a name, or the list of names.
pub fn task(name: &str) -> Result<Task> {
    Task::from_name(name).with_context(|| {
        let names: Vec<&str> = Task::ALL.iter().map(|(n, _)| *n).collect();
        format!(
            "no contest task `{}`; known: {}",
            name.escape_debug(),
            names.join(", ")
        )
    })
}

/// Reads the task's input: as many numbers as it says it has (all of standard input when
/// its first number is not a count), whole lines.
pub fn read_input(task: Task, input: &mut dyn BufRead) -> Result<String> {
    let mut text = String::new();
    let mut words = 0usize;
    let mut needed: Option<usize> = None;
    loop {
        if needed.is_some_and(|n| words >= n) {
            return Ok(text);
        }
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(text);
        }
        for word in line.split_whitespace() {
            if words == 0 {
                needed = task.input_words(word);
                if needed.is_none() {
                    // Not a count the task allows: refused from here on.
                    text.push_str(&line);
                    return Ok(text);
                }
            }
            words += 1;
        }
        text.push_str(&line);
    }
}

/// Plays the task against the judge on `input` / `output`.
pub fn play(task: Task, input: &mut dyn BufRead, output: &mut dyn Write) -> Result<()> {
    let text = read_input(task, input)?;
    let mut session = task.start(&text)?;
    let mut line_number = text.lines().count();
    loop {
        match session.step()? {
            Step::Write(line) => {
                writeln!(output, "{line}")?;
                output.flush()?;
            }
            Step::Read => {
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    bail!("the judge's input ended before the game was over");
                }
                line_number += 1;
                if let Err(reason) = session.opponent(&line) {
                    bail!("refused the opponent's move at line {line_number}: {reason}");
                }
            }
            Step::Over(closing) => {
                if let Some(line) = closing {
                    writeln!(output, "{line}")?;
                    output.flush()?;
                }
                return Ok(());
            }
        }
    }
}
