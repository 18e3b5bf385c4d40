//! The README's examples, run: every `$ grundy …` line of its fenced blocks (and the shell
//! lines around them: `printf … | grundy`, `… < board.txt`) is run by `sh` in one
//! temporary directory a block, with this build's `grundy` first on the `PATH`, and what
//! it prints must be what the README shows below
//! it (standard error in its place). A `$ cat FILE` line writes FILE with the lines shown, so the examples' inputs are
//! the README's own. In the shown output, a line `...` stands for any lines, and a time
//! (`0.4 s`) for any time. The few examples that cannot run here are skipped by name,
//! each with its reason ([`SKIPPED`]).

use std::path::Path;
use std::process::Command;

/// Examples not run, by a piece of their command, and why.
const SKIPPED: &[(&str, &str)] = &[
    (
        "grundy play",
        "interactive: the transcript interleaves the user's moves",
    ),
    (
        "hex[5]",
        "minutes of CPU and gigabytes: the README's figure for the proof search",
    ),
    (
        "0.07]' --up-to 30",
        "a minute of CPU: the README's figure for Q_30 of Dawson's Kayles (an ignored test checks it)",
    ),
    ("game.pg", "the README does not show the file"),
    (
        "--hosts",
        "two processes on fixed ports: tests/dist.rs runs the distributed solve",
    ),
    ("--tablebase tb |", "reads the distributed solve's tablebase"),
    ("diff -r -x", "compares the distributed solve's tablebase"),
    (
        "'connect4[4x4]' --tablebase tb",
        "refused the distributed solve's tablebase",
    ),
    ("hosts.txt", "the distributed solve's hosts"),
    ("curl", "needs `grundy serve` running"),
];

/// One `$ ` line and the lines shown under it.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The README's fenced blocks that hold `$ ` lines, each as its examples in order.
fn blocks(readme: &str) -> Vec<Vec<Example>> {
    let mut out = Vec::new();
    let mut block: Option<Vec<Example>> = None;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            match block.take() {
                Some(b) if !b.is_empty() => out.push(b),
                Some(_) => {}
                None => block = Some(Vec::new()),
            }
            continue;
        }
        let Some(b) = block.as_mut() else { continue };
        if let Some(command) = line.strip_prefix("$ ") {
            b.push(Example {
                line: i + 1,
                command: command.to_string(),
                shown: Vec::new(),
            });
        } else if let Some(e) = b.last_mut() {
            e.shown.push(line.to_string());
        }
    }
    out
}

/// Whether `got` is what `shown` shows: `...` lines stand for any lines, and a number
/// before ` s` (a time) for any number.
fn matches(shown: &[String], got: &[&str]) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..]))
        }
        Some((first, rest)) => {
            got.first().is_some_and(|g| same_line(first, g)) && matches(rest, &got[1..])
        }
    }
}

fn same_line(shown: &str, got: &str) -> bool {
    if shown == got {
        return true;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (shown.split(' ').collect(), got.split(' ').collect());
    let number = |w: &str| {
        let w = w.trim_start_matches('(');
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    a.len() == b.len()
        && a.iter().zip(&b).enumerate().all(|(i, (x, y))| {
            let time = a.get(i + 1).is_some_and(|n| {
                *n == "s"
                    || [",", ")", ";"]
                        .iter()
                        .any(|end| n.strip_prefix('s') == Some(end))
            });
            x == y || (number(x) && number(y) && time)
        })
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("the binary's folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut run, mut failures) = (0, Vec::new());
    for block in blocks(&readme) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for e in block {
            if let Some(file) = e.command.strip_prefix("cat ") {
                let mut text = e.shown.join("\n");
                text.push('\n');
                std::fs::write(dir.path().join(file.trim()), text).expect("the example's file");
                continue;
            }
            if !e.command.contains("grundy ") {
                continue;
            }
            if SKIPPED.iter().any(|(piece, _)| e.command.contains(piece)) {
                continue;
            }
            // One stream, in the order printed, as a terminal shows it.
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("{{ {}\n}} 2>&1", e.command))
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("COLUMNS", "100")
                .output()
                .expect("sh runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let got: Vec<&str> = text.lines().collect();
            // Trailing blank lines of a block are the README's layout, not output.
            let mut shown = e.shown.clone();
            while shown.last().is_some_and(|l| l.trim().is_empty()) {
                shown.pop();
            }
            run += 1;
            if !matches(&shown, &got) {
                failures.push(format!(
                    "README.md line {}: $ {}\n--- the README shows:\n{}\n--- it printed:\n{}",
                    e.line,
                    e.command,
                    shown.join("\n"),
                    text
                ));
            }
        }
    }
    assert!(run >= 20, "only {run} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_takes_ellipses_and_times_only() {
    let shown: Vec<String> = ["a", "...", "done in 0.4 s", "z"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(matches(&shown, &["a", "b", "c", "done in 12.5 s", "z"]));
    assert!(matches(&shown, &["a", "done in 0.4 s", "z"]));
    assert!(!matches(&shown, &["a", "done in 0.4 ms", "z"]));
    assert!(!matches(&shown, &["a", "done in 0.4 s"]));
    assert!(!matches(&shown, &["b", "done in 0.4 s", "z"]));
    assert!(!same_line("3945711 positions", "3945712 positions"));
    assert!(!same_line("21 solved in 0.4 s", "22 solved in 0.4 s"));
    assert!(same_line(
        "(21 solved now in 0.4 s, 0 read)",
        "(21 solved now in 1.25 s, 0 read)"
    ));
}

#[test]
fn the_spec_table_names_every_registered_family() {
    // Read from the registry, so a family added later must get its row too.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("the README");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|line| *line != "## Game specs")
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .collect();
    assert!(table.len() > 2, "no spec table under `## Game specs`");
    for (name, shape) in grundy::games::families() {
        assert!(
            table.iter().any(|row| row.contains(&format!("`{name}("))
                || row.contains(&format!("`{name}["))),
            "the README's spec table has no row for `{name}` ({shape})"
        );
    }
}
