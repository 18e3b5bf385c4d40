//! Books from the command line: built, deepened, checked, read by `solve`, `solve
//! --positions`, `query` and `play`, and resumed after `kill -9` to the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

fn grundy(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The tier files of a directory, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtb"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn a_book_is_built_deepened_checked_and_read() {
    let dir = scratch("read");
    let d = dir.to_str().unwrap();
    let built = grundy(
        &[
            "book",
            "connect4[4x4]",
            "--depth",
            "5",
            "--dir",
            d,
            "--json",
        ],
        "",
    );
    assert!(built.status.success(), "{}", text(&built));
    let report: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    assert_eq!(
        (&report["outcome"], &report["method"]),
        (&"draw".into(), &"tablebase".into())
    );
    assert!(
        text(&built).contains("tiers 0 to 5 of connect4[4x4] (6 built now"),
        "{}",
        text(&built)
    );
    let check = grundy(&["check", d, "--json"], "");
    assert!(check.status.success(), "{}", text(&check));
    let checked: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(
        (&checked["sound"], &checked["book_depth"]),
        (&true.into(), &5.into())
    );
    // Deeper by one: one tier built, the others read; the files are the tablebase's own.
    let deeper = grundy(&["book", "connect4[4x4]", "--depth", "6", "--dir", d], "");
    assert!(text(&deeper).contains("(1 built now"), "{}", text(&deeper));
    let full = scratch("full");
    let solved = grundy(
        &[
            "solve",
            "connect4[4x4]",
            "--tablebase",
            full.to_str().unwrap(),
        ],
        "",
    );
    assert!(solved.status.success(), "{}", text(&solved));
    let whole = files(&full);
    let book = files(&dir);
    assert_eq!(book.len(), 7);
    for (name, bytes) in &book {
        assert!(whole.iter().any(|(n, b)| n == name && b == bytes), "{name}");
    }
    // Read at once where the book holds the position and its moves; past it, another
    // method (on this small board, exploring it).
    for (moves, booked) in [("33", true), ("332211", false)] {
        let spec = format!("connect4[4x4]({moves})");
        let out = grundy(&["solve", &spec, "--tablebase", d, "--json"], "");
        assert!(out.status.success(), "{}", text(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["method"] == "tablebase", booked, "{spec}");
        assert!(text(&out).contains("book "), "{}", text(&out));
    }
    // Not completed by `solve --tablebase`: still a book.
    assert_eq!(files(&dir).len(), 7);
    let lines = grundy(
        &[
            "solve",
            "connect4[4x4]",
            "--positions",
            "-",
            "--tablebase",
            d,
            "--json",
        ],
        "2\n332211\n3322114\n",
    );
    assert!(lines.status.success(), "{}", text(&lines));
    let methods: Vec<(String, bool)> = String::from_utf8_lossy(&lines.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["method"].as_str().unwrap().to_string(),
                v["nodes"].is_null(),
            )
        })
        .collect();
    assert_eq!(
        methods,
        [
            ("tablebase".to_string(), true),
            ("tablebase".to_string(), true),
            ("search".to_string(), false)
        ]
    );
    let past = grundy(&["query", "connect4[4x4](332211)", "--tablebase", d], "");
    assert!(!past.status.success());
    assert!(text(&past).contains("the book in"), "{}", text(&past));
    // Play: the engine's first move read from the book.
    let play = grundy(
        &["play", "connect4[4x4]", "--engine-first", "--tablebase", d],
        "quit\n",
    );
    assert!(play.status.success(), "{}", text(&play));
    // A damaged book is named by the check.
    let path = dir.join("tier-00004.gtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 2;
    bytes[at] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let check = grundy(&["check", d], "");
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert!(text(&check).contains("tier 4: damaged"), "{}", text(&check));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&full);
}

/// A book of play's lines: built, checked (its tiers partial), read by `play` for the
/// engine's moves; a book of every position is refused in its directory, and it in one's.
#[test]
fn a_book_of_lines_is_built_checked_and_played() {
    let dir = scratch("lines");
    let d = dir.to_str().unwrap();
    // Past its memory a build stops with the flag to raise, and keeps what it found.
    let short = grundy(
        &[
            "book",
            "connect4[4x4]",
            "--depth",
            "8",
            "--dir",
            d,
            "--lines",
            "--max-tier-memory",
            "0",
        ],
        "",
    );
    assert_eq!(short.status.code(), Some(2), "{}", text(&short));
    assert!(
        text(&short).contains("--max-tier-memory"),
        "{}",
        text(&short)
    );
    assert!(dir.join("tier-00000.found").exists());
    let built = grundy(
        &[
            "book",
            "connect4[4x4]",
            "--depth",
            "8",
            "--dir",
            d,
            "--lines",
            "--hard-nodes",
            "0",
        ],
        "",
    );
    assert!(built.status.success(), "{}", text(&built));
    let t = text(&built);
    assert!(
        t.contains("the lines of play of connect4[4x4] to tier 8"),
        "{t}"
    );
    assert!(t.contains("a draw"), "{t}");
    let check = grundy(&["check", d], "");
    assert!(check.status.success(), "{}", text(&check));
    assert!(
        text(&check).contains("(a book of play's lines: tiers 0 to 8)"),
        "{}",
        text(&check)
    );
    let json = grundy(&["check", d, "--json"], "");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["partial"] == true));
    // The engine moves first, from the book, and the game goes on.
    let play = grundy(
        &["play", "connect4[4x4]", "--engine-first", "--tablebase", d],
        "1\n1\nquit\n",
    );
    assert!(play.status.success(), "{}", text(&play));
    assert!(text(&play).contains("grundy: column"), "{}", text(&play));
    // Never mixed with a book of every position.
    let whole = grundy(&["book", "connect4[4x4]", "--depth", "3", "--dir", d], "");
    assert!(!whole.status.success());
    assert!(
        text(&whole).contains("some of its positions only"),
        "{}",
        text(&whole)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_has_no_book_is_refused() {
    let dir = scratch("refused");
    let d = dir.to_str().unwrap();
    for (spec, why) in [
        ("nim(3)", "not split into tiers"),
        ("kalah[2,2]", "no exact search"),
        ("connect4[4x4](2)", "start"),
    ] {
        let out = grundy(&["book", spec, "--depth", "2", "--dir", d], "");
        assert!(!out.status.success(), "{spec}");
        assert!(text(&out).contains(why), "{spec}: {}", text(&out));
    }
    assert!(!dir.exists(), "a refused book leaves no directory");
}

/// Stopped with `kill -9` at random moments, a book's builds resume to the bytes of a
/// build never stopped.
#[test]
fn killed_books_resume_to_the_same_bytes() {
    let args = |d: &Path| -> Vec<String> {
        [
            "book",
            "connect4[5x4]",
            "--depth",
            "8",
            "--dir",
            d.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let whole = scratch("whole");
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args(&whole))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let full = started.elapsed();
    let expected = files(&whole);
    assert_eq!(expected.len(), 9);
    let killed = scratch("killed");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut kills = 0;
    for _ in 0..6 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let at = full.mul_f64((seed % 10_000) as f64 / 10_000.0);
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args(&killed))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        let _ = child.wait();
        for (name, bytes) in files(&killed) {
            let want = &expected.iter().find(|(n, _)| *n == name).unwrap().1;
            assert!(&bytes == want, "{name}");
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args(&killed))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(files(&killed), expected);
    eprintln!("{kills} kills");
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&killed);
}
