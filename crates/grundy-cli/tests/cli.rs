//! End-to-end tests of the `grundy` binary: JSON shapes, text, errors, play.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn grundy(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = grundy(args, "");
    assert!(
        out.status.success(),
        "grundy {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

fn fails(args: &[&str]) -> String {
    let out = grundy(args, "");
    assert_eq!(out.status.code(), Some(2), "grundy {args:?} should fail");
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn solve_json_has_the_stable_fields() {
    let v = json(&["solve", "nim(3,3,1)", "--json"]);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["remoteness"], 7);
    assert_eq!(v["grundy"], 1);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["nim(2,3,1)", "nim(3,2,1)", "nim(3,3,0)"])
    );
    let components = v["components"].as_array().unwrap();
    assert_eq!(components.len(), 3);
    assert_eq!(
        components[2],
        serde_json::json!({"spec": "nim(1)", "grundy": 1})
    );

    let v = json(&["solve", "nim(3,3)", "--json"]);
    assert_eq!(v["outcome"], "loss");
    assert_eq!(v["winning_moves"], serde_json::json!([]));

    let v = json(&["solve", "ends(4,7,2,9,5,2)", "--json"]);
    assert_eq!(v["scores"], serde_json::json!([18, 11]));
    assert!(v.get("grundy").is_none());

    let v = json(&["solve", "multiple[2](13)", "--json"]);
    assert_eq!(v["outcome"], "loss");
    assert!(v.get("components").is_none());
}

#[test]
fn closed_forms_answer_at_any_size() {
    let v = json(&[
        "solve",
        "nim(10^18,12345,7) + bounded-nim[6](10^19)",
        "--json",
    ]);
    assert_eq!(v["method"], "sprague-grundy");
    assert_eq!(v["remoteness"], Value::Null);
    let bounded = (10u128.pow(19) % 7) as u64;
    assert_ne!(bounded, 0);
    let g = 1_000_000_000_000_000_000u64 ^ 12345 ^ 7 ^ bounded;
    assert_eq!(v["grundy"], g);
    assert_eq!(v["outcome"], "win");
    // Every winning move leaves XOR 0.
    for m in v["moves"].as_array().unwrap() {
        if m["outcome"] == "win" {
            assert_eq!(m["grundy"], 0);
        }
    }
}

#[test]
fn too_large_is_refused_with_an_estimate() {
    // 0.06 shows no period within 20 000 heaps: the proof attempt gives up, and the
    // table is refused.
    let err = fails(&["solve", "octal[0.06](10^12)", "--max-proof-heaps", "20000"]);
    assert!(err.contains("too large"), "{err}");
    // The figures are the heaps a table needs and their two bytes each (not one byte a
    // heap: that was "931.3 GiB"), and the flag that lifts the refusal.
    assert!(
        err.contains(
            "(1000000000001 heaps, 1.8 TiB); raise it with --max-proof-heaps 1000000000001"
        ),
        "{err}"
    );
    assert!(
        err.contains("no period of 0.06 proved within 20000 heaps"),
        "{err}"
    );
    // 0.6 is known to show none within 2^22 heaps: refused at once, saying so.
    let err = fails(&["solve", "octal[0.6](10^12)", "--max-proof-heaps", "20000"]);
    assert!(
        err.contains("no period of 0.6 can be proved within 20000 heaps: grundy's search over its first 4194304 heaps finds none"),
        "{err}"
    );
    assert!(err.contains("1.8 TiB"), "{err}");
}

#[test]
fn bad_specs_point_at_the_column() {
    let err = fails(&["solve", "nim(3,,1)"]);
    assert!(err.contains("line 1, column 7"), "{err}");
    assert!(err.contains("expected a number"), "{err}");
    let err = fails(&["solve", "kayle(3)"]);
    assert!(err.contains("did you mean `kayles`"), "{err}");
    let err = fails(&["solve", "nim(99999999999999999999)"]);
    assert!(err.contains("too large"), "{err}");
    let err = fails(&["table", "wythoff", "--up-to", "5"]);
    assert!(err.contains("not a one-parameter family"), "{err}");
    let err = fails(&["solve", "ends(1,2) + nim(3)"]);
    assert!(err.contains("score game"), "{err}");
}

#[test]
fn table_lists_p_positions() {
    let v = json(&["table", "multiple[2]", "--up-to", "100", "--json"]);
    let outcome = v["outcome"].as_array().unwrap();
    let losing: Vec<usize> = (1..=100).filter(|&n| outcome[n] == "loss").collect();
    assert_eq!(losing, vec![1, 2, 3, 5, 8, 13, 21, 34, 55, 89]);
    assert_eq!(v["family"], "multiple[2]");

    let text = ok(&["table", "bounded-nim[2]", "--up-to", "10"]);
    assert!(text.contains("P-positions: 0, 3, 6, 9"), "{text}");
}

#[test]
fn play_a_lost_fibonacci_game_and_lose() {
    // 8 is a Fibonacci number: whatever we do, the engine wins. Always take one stone.
    let out = grundy(&["play", "multiple[2](8)"], &"1\n".repeat(20));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.contains("grundy wins"), "{text}");
    assert!(text.contains("leaves Grundy value 0"), "{text}");
}

#[test]
fn play_a_won_position_and_win() {
    // nim(3,1): move to nim(1,1), then answer the engine's only move.
    let out = grundy(&["play", "nim(3,1)"], "hint\nnim(1,1)\n1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    // The hint names the move and its number in the list.
    assert!(
        text.contains("hint: winning: 2. take 2 from heap 1"),
        "{text}"
    );
    assert!(text.contains("you win"), "{text}");
    // Moves are named as a person would, and typed by name too.
    let out = grundy(&["play", "nim(3,1)"], "take 2 from heap 1\n1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("you: take 2 from heap 1"), "{text}");
    assert!(
        text.contains("grundy cannot move and loses: you win."),
        "{text}"
    );
    // Illegal moves are refused, not played.
    let out = grundy(&["play", "nim(3,1)"], "nim(3,3)\nquit\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("is not one move from"), "{text}");
}

#[test]
fn tour_runs() {
    let text = ok(&["tour"]);
    assert!(text.contains("exactly the Fibonacci numbers"), "{text}");
    assert!(text.contains("18 11"), "{text}");
}

fn temp_file(name: &str, text: &str) -> tempfile::TempPath {
    // Removed when the test drops it; the name ends as asked (its extension kept).
    let file = tempfile::Builder::new()
        .prefix("grundy-cli-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), text).unwrap();
    file.into_temp_path()
}

#[test]
fn green_game_answer_strategy_and_verification() {
    // Ann: fields 1, 2; Billy: 3. 1 (white) → 2 or 3; 2 (green) → 1; 3 (white) → 3 or 1.
    let game = temp_file("green.txt", "2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n");
    let game = game.to_str().unwrap();
    assert_eq!(ok(&["graph", game]), "2\n1\n2\n");
    let solution = ok(&["graph", game, "--strategy"]);
    assert!(solution.contains("1 -> 2"), "{solution}");
    let sol = temp_file("green.sol", &solution);
    let out = ok(&["graph", "verify", game, sol.to_str().unwrap()]);
    assert!(out.starts_with("ok"), "{out}");
    // Ann's strategy moving into Billy's loop is rejected, with the vertex named.
    let bad = temp_file("bad.sol", "2\n1\n2\n1 -> 3\n2 -> 1\n");
    let out = grundy(&["graph", "verify", game, bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("rejected: vertex 1"), "{text}");
    // The same as JSON.
    let v = json(&["graph", "verify", game, sol.to_str().unwrap(), "--json"]);
    assert_eq!(
        (&v["valid"], &v["vertices"]),
        (&Value::from(true), &Value::from(3))
    );
    let out = grundy(
        &["graph", "verify", game, bad.to_str().unwrap(), "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert!(v["reason"].as_str().unwrap().contains("vertex 1"), "{v}");
    let v = json(&["graph", game, "--json"]);
    assert_eq!(v["won_by_0"], serde_json::json!([1, 2]));
    assert_eq!(v["won_by_1"], serde_json::json!([3]));
}

#[test]
fn token_game_on_a_digraph() {
    let game = temp_file("dg.txt", "4 5\n0 1\n1 0\n0 2\n2 3\n1 1\n");
    let v = json(&["graph", game.to_str().unwrap(), "--json", "--sum", "0,2"]);
    assert_eq!(
        v["outcome"],
        serde_json::json!(["draw", "draw", "win", "loss"])
    );
    assert_eq!(v["grundy"], serde_json::json!(["inf{1}", "inf{}", 1, 0]));
    assert_eq!(v["sum"]["outcome"], "win");
    let bad = temp_file("bad-dg.txt", "2 1\n0 5\n");
    let err = fails(&["graph", bad.to_str().unwrap(), "--format", "digraph"]);
    assert!(err.contains(":2:3:"), "{err}");
}

#[test]
fn plot_draws_every_heap_and_marks_the_period() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let svg = dir.join("bounded.svg");
    let out = grundy(
        &[
            "plot",
            "bounded-nim[4]",
            "--up-to",
            "60",
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("need a TrueType font") {
        eprintln!("skipped: no TrueType font on this machine ({err})");
        return;
    }
    assert!(out.status.success(), "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    // 61 points and the legend's marker; the period's label.
    assert_eq!(text.matches("<circle").count(), 62);
    assert!(text.contains("period 5 from heap 0"), "{text}");
    let err = fails(&["plot", "nim", "--up-to", "5", "-o", "x.gif"]);
    assert!(err.contains(".svg or .png"), "{err}");
}

#[test]
fn parity_games_in_pgsolver_format() {
    // 0 (player 0, priority 2) ⇄ 1 (player 1, priority 1); 1 may also go to 2, a
    // self-loop of priority 3 that player 1 wins.
    let game = temp_file(
        "p.pg",
        "parity 2;\n0 2 0 1;\n1 1 1 0,2;\n2 3 0 2 \"sink\";\n",
    );
    let game = game.to_str().unwrap();
    for algorithm in ["zielonka", "tangle", "fpj"] {
        let v = json(&["graph", game, "--json", "--algorithm", algorithm]);
        assert_eq!(v["won_by_1"], serde_json::json!([0, 1, 2]), "{algorithm}");
    }
    let solution = ok(&["graph", game, "--strategy"]);
    assert!(solution.starts_with("paritysol"), "{solution}");
    let sol = temp_file("p.sol", &solution);
    let out = ok(&["graph", "verify", game, sol.to_str().unwrap()]);
    assert!(out.starts_with("ok"), "{out}");
    // Claiming player 0 wins the sink is rejected with the cycle.
    let bad = temp_file("p.bad", "paritysol 2;\n0 1 ;\n1 1 2;\n2 0 2;\n");
    let out = grundy(&["graph", "verify", game, bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("rejected"), "{text}");
}

#[test]
fn table_streams_values_to_a_file() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("dawson.seq");
    let out = ok(&[
        "table",
        "octal[0.07]",
        "--up-to",
        "5000",
        "--write",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("period 34 from heap 53"), "{out}");
    let values = grundy::octal::read_sequence(&mut std::fs::File::open(&path).unwrap()).unwrap();
    let table = grundy::report::table("octal[0.07]", 5000, &Default::default()).unwrap();
    assert_eq!(values.to_vec(), table.grundy);
    let err = fails(&["table", "multiple[2]", "--up-to", "5", "--write", "x.seq"]);
    assert!(err.contains("octal and subtraction"), "{err}");
}

#[test]
fn max_positions_bounds_what_is_explored_not_a_guess() {
    // 35 930 positions, far under the default budget of 2 000 000: explored whole.
    let v = json(&["solve", "multiple[2](500)", "--json"]);
    assert_eq!(v["method"], "retrograde");
    assert_eq!(v["positions"], 35930);
    // The README's benchmark, under the default budget too.
    let v = json(&["solve", "multiple[2](1000)", "--json"]);
    assert_eq!(
        (v["method"].as_str(), v["positions"].as_u64()),
        (Some("retrograde"), Some(143_287))
    );
    // Past the budget, the Grundy values judge it (no remoteness), for the same outcome.
    let v = json(&[
        "solve",
        "multiple[2](500)",
        "--max-positions",
        "1000",
        "--json",
    ]);
    assert_eq!(v["method"], "sprague-grundy");
    assert!(v["remoteness"].is_null());
}

#[test]
fn play_names_moves_and_never_shows_a_winning_example() {
    // A huge Nim position: the moves are not listed, and the example typed at the prompt
    // is not the one winning move.
    let out = grundy(&["play", "nim(10^18,12345,7)"], "quit\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("many moves; type one by name"), "{text}");
    assert!(
        !text.contains("take 999999999999987650 from heap 1"),
        "{text}"
    );
    // A score game: one account of the points, best and worse moves, the end in words.
    let out = grundy(&["play", "ends(4,7,2,9,5,2)"], "left\n1\n1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("you: take the left 4  (worse than the best by 6"),
        "{text}"
    );
    assert!(text.contains("the game ends grundy 14, you 15"), "{text}");
    assert!(!text.contains("holds out"), "{text}");
    // No progress lines in the game's output.
    assert!(!String::from_utf8(out.stderr).unwrap().contains("explore"));
}

/// What a message shows must be text: no NUL, escape or other control character but the
/// line breaks.
#[track_caller]
fn printable(message: &str) {
    assert!(
        !message.chars().any(|c| c.is_control() && c != '\n'),
        "raw control characters in {message:?}"
    );
}

#[test]
fn gzip_bombs_are_refused_at_the_limit_without_echoing_binary() {
    use flate2::write::GzEncoder;
    // 64 MiB of NUL bytes in about 64 KB.
    let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        enc.write_all(&zeros).unwrap();
    }
    let gz = enc.finish().unwrap();
    assert!(gz.len() < 200_000);
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    // Named without `.gz`: the magic number alone marks it as gzip.
    let path = dir.join("bomb.pg");
    std::fs::write(&path, &gz).unwrap();
    let p = path.to_str().unwrap();
    let err = fails(&["graph", p, "--max-input", "16"]);
    assert!(err.contains("more than the limit of 16.0 MiB"), "{err}");
    assert!(err.contains("--max-input"), "{err}");
    printable(&err);
    // Standard input is bounded the same way.
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["graph", "-", "--max-input", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&gz).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("limit of 1.0 MiB"), "{err}");
    // Under the limit it inflates, and the parse error describes the NUL bytes.
    let err = fails(&["graph", p, "--max-input", "65"]);
    assert!(err.contains(r"`\0\0\0\0"), "{err}");
    assert!(err.len() < 400, "{} bytes", err.len());
    printable(&err);
    // A plain (not compressed) file past the limit is refused too.
    let big = dir.join("big.txt");
    std::fs::write(&big, vec![b'1'; (1 << 20) + 1]).unwrap();
    let err = fails(&["graph", big.to_str().unwrap(), "--max-input", "1"]);
    assert!(err.contains("limit of 1.0 MiB"), "{err}");
}

#[test]
fn numbers_in_flags_take_the_spec_forms() {
    for form in ["10", "1e1", "1_0", "10^1", "10E0"] {
        let v = json(&["table", "nim", "--up-to", form, "--json"]);
        assert_eq!(v["grundy"].as_array().unwrap().len(), 11, "--up-to {form}");
    }
    let v = json(&[
        "solve",
        "nim(3,3,1)",
        "--json",
        "--max-positions",
        "2e6",
        "--max-work",
        "10^12",
        "--max-memory",
        "4_096",
        "--max-proof-heaps",
        "2^20",
    ]);
    assert_eq!(v["grundy"], 1);
    let err = fails(&["table", "nim", "--up-to", "1.5e1"]);
    assert!(err.contains("not a whole number"), "{err}");
    assert!(err.contains("10^18"), "{err}");
    let err = fails(&["serve", "--port", "7e4"]);
    assert!(err.contains("larger than the maximum 65535"), "{err}");
    let err = fails(&["table", "nim", "--up-to", "2^64"]);
    assert!(
        err.contains("larger than the maximum 18446744073709551615"),
        "{err}"
    );
}

fn seq_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("grundy-cli-{name}-"))
        .tempdir()
        .unwrap()
}

/// Starts a `table --write` that runs for minutes (0.6 has no known period), waits until its
/// temporary file exists, and returns the child.
fn long_write(path: &std::path::Path) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "octal[0.6]", "--up-to", "10^9", "--write"])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let dir = path.parent().unwrap();
    for _ in 0..200 {
        if std::fs::read_dir(dir).unwrap().next().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    child
}

#[test]
fn table_write_killed_leaves_nothing_under_the_final_name() {
    let scratch = seq_dir("killed");
    let dir = scratch.path();
    let path = dir.join("g.seq");
    let mut child = long_write(&path);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!path.exists(), "a killed write left {}", path.display());
    // What it left is a hidden partial file, which `check` calls incomplete.
    let parts: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(parts.len(), 1, "{parts:?}");
    let name = parts[0].file_name().unwrap().to_str().unwrap().to_string();
    assert!(name.starts_with(".g.seq.part-"), "{name}");
    let out = grundy(&["check", parts[0].to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("incomplete"), "{text}");
}

#[test]
fn table_write_interrupted_removes_its_partial_file() {
    let scratch = seq_dir("interrupted");
    let dir = scratch.path();
    let path = dir.join("g.seq");
    let child = long_write(&path);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(!path.exists());
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        0,
        "a partial file remains"
    );
}

#[test]
fn table_write_replaces_whole_and_names_the_file_on_failure() {
    let scratch = seq_dir("replace");
    let dir = scratch.path();
    let path = dir.join("k.seq");
    let p = path.to_str().unwrap();
    ok(&["table", "octal[0.77]", "--up-to", "1000", "--write", p]);
    ok(&[
        "table",
        "subtraction[1,3,4]",
        "--up-to",
        "2e6",
        "--write",
        p,
    ]);
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 1);
    let v = json(&["check", p, "--json"]);
    assert_eq!(v["complete"], true);
    assert_eq!(v["family"], "subtraction[1,3,4]");
    assert_eq!(v["heaps"], 2_000_001);
    assert_eq!(v["promised"], 2_000_001);
    assert_eq!(v["largest"], 3);
    let text = ok(&["check", p]);
    assert!(
        text.contains("complete: the Grundy values of `subtraction[1,3,4]`, heaps 0..=2000000"),
        "{text}"
    );
    // A device is written in place (not replaced by a rename), and its error names it.
    if std::path::Path::new("/dev/full").exists() {
        let err = fails(&[
            "table",
            "octal[0.77]",
            "--up-to",
            "10^6",
            "--write",
            "/dev/full",
        ]);
        assert!(
            err.contains("cannot write /dev/full: No space left"),
            "{err}"
        );
    }
    let missing = dir.join("no/such/dir/x.seq");
    let err = fails(&[
        "table",
        "octal[0.77]",
        "--up-to",
        "10",
        "--write",
        missing.to_str().unwrap(),
    ]);
    assert!(
        err.contains(&format!("cannot write {}", missing.display())),
        "{err}"
    );
    assert!(!err.contains(".part-"), "{err}");
    let err = fails(&[
        "table",
        "octal[0.77]",
        "--up-to",
        "10",
        "--write",
        dir.to_str().unwrap(),
    ]);
    assert!(err.contains("it is a directory"), "{err}");
}

#[test]
fn check_tells_cut_files_from_other_files() {
    let scratch = seq_dir("check");
    let dir = scratch.path();
    let path = dir.join("k.seq");
    let p = path.to_str().unwrap();
    ok(&["table", "octal[0.07]", "--up-to", "2_000_000", "--write", p]);
    let bytes = std::fs::read(&path).unwrap();
    // Without its end marker it is incomplete, exit 1, and says how far it got.
    let cut = dir.join("cut.seq");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let out = grundy(&["check", cut.to_str().unwrap(), "--json"], "");
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["heaps"], 2_000_001);
    assert_eq!(v["family"], "octal[0.07]");
    assert!(v["reason"].as_str().unwrap().contains("end marker"), "{v}");
    // Not a sequence file at all: an error, exit 2, without echoing the bytes.
    let other = dir.join("other.seq");
    std::fs::write(&other, b"\x1b[2J\0\0\0\0garbage").unwrap();
    let err = fails(&["check", other.to_str().unwrap()]);
    assert!(err.contains("not a Grundy sequence file"), "{err}");
    printable(&err);
}

#[test]
fn messages_name_the_file_once_and_never_dump_debug_structs() {
    let scratch = seq_dir("messages");
    let dir = scratch.path();
    let d = dir.to_str().unwrap();
    // A directory where a file belongs: the cause once, with the name.
    for args in [
        vec!["graph", d],
        vec!["graph", "verify", d, d],
        vec!["table", "octal[0.7]", "--up-to", "5", "--write", d],
    ] {
        let err = fails(&args);
        assert!(err.contains(d), "{args:?}: {err}");
        let cause = if err.contains("Is a directory") {
            "Is a directory"
        } else {
            "it is a directory"
        };
        assert_eq!(err.matches(cause).count(), 1, "{args:?}: {err}");
    }
    // `check` reads a directory as a tablebase.
    let err = fails(&["check", d]);
    assert!(err.contains(d) && err.contains("no tier file"), "{err}");
    // A file name with control characters is shown escaped.
    let odd = dir.join("odd\u{1b}[2J\u{7}.pg");
    let err = fails(&["graph", odd.to_str().unwrap()]);
    assert!(err.contains(r"odd\u{1b}[2J\u{7}.pg"), "{err}");
    printable(&err);
    // A plot into a missing directory: the system's words, not the drawing library's types.
    let png = dir.join("missing/x.png");
    let err = fails(&["plot", "nim", "--up-to", "5", "-o", png.to_str().unwrap()]);
    assert!(
        err.contains(&format!("cannot write {}: No such file", png.display())),
        "{err}"
    );
    assert!(!err.contains("Os {") && !err.contains("Error("), "{err}");
}

#[test]
fn a_port_in_use_is_named() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let err = fails(&["serve", "--port", &port]);
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    assert!(err.contains("--port"), "{err}");
    assert!(err.contains("in use"), "{err}");
}

#[test]
fn long_specs_are_not_echoed_whole() {
    for spec in [
        "q".repeat(100_000),
        format!("nim({},x)", vec!["1"; 50_000].join(",")),
        format!("nim(1,2{}", " ".repeat(100_000)),
    ] {
        let err = fails(&["solve", &spec]);
        assert!(
            err.len() < 600,
            "{} bytes: {}",
            err.len(),
            &err[..600.min(err.len())]
        );
        assert!(err.contains("bad spec at line 1, column"), "{err}");
        // The caret still sits under the column shown: the character above it is the culprit.
        let lines: Vec<&str> = err.lines().collect();
        // (at most one past the end: "found the end" points just after the last character).
        let caret = lines[2].chars().count() - 1;
        assert!(caret <= lines[1].chars().count(), "{err}");
        assert!(lines[1].chars().count() < 100, "{err}");
    }
    let err = fails(&["solve", &format!("nim(1,{}x)", "2".repeat(200))]);
    let lines: Vec<&str> = err.lines().collect();
    let caret = lines[2].chars().count() - 1;
    assert_eq!(lines[1].chars().nth(caret), Some('2'), "{err}");
}

#[test]
fn counts_agree_with_their_nouns() {
    let text = ok(&["solve", "nim(1)"]);
    assert!(text.contains("(1 more move under perfect play)"), "{text}");
    assert!(text.contains("over 2 positions"), "{text}");
    let text = ok(&["solve", "nim(0)"]);
    assert!(text.contains("(0 more moves under perfect play)"), "{text}");
    assert!(text.contains("over 1 position)"), "{text}");
    let game = temp_file("one.pg", "parity 0;\n0 0 0 0;\n");
    let sol = temp_file("one.sol", "paritysol 0;\n0 0 0;\n");
    let out = ok(&[
        "graph",
        "verify",
        game.to_str().unwrap(),
        sol.to_str().unwrap(),
    ]);
    assert!(out.contains("(1 vertex)"), "{out}");
}

#[test]
fn help_for_help_succeeds() {
    let out = ok(&["help", "--help"]);
    assert!(out.contains("Usage: grundy help"), "{out}");
    let out = ok(&["help", "graph", "verify"]);
    assert!(out.contains("Usage: grundy graph verify"), "{out}");
    let out = ok(&["help"]);
    assert!(out.contains("Usage: grundy <COMMAND>"), "{out}");
    let out = grundy(&["help", "no-such-command"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn solve_help_names_every_registered_family() {
    // Read from the registry, so a family added later must show up too.
    for args in [
        &["solve", "--help"][..],
        &["help", "solve"],
        &["play", "--help"],
    ] {
        let out = ok(args);
        for (name, shape) in grundy::games::families() {
            assert!(
                out.lines().any(|line| line == format!("  {shape}")),
                "grundy {args:?} does not list `{name}`: {out}"
            );
        }
    }
}

#[test]
fn value_help_lists_the_families_it_values() {
    // Read from the registry, so a partizan family added later is listed with no change
    // to the CLI; and `value` takes what the help lists, and refuses the rest.
    let out = ok(&["value", "--help"]);
    let mut listed = 0;
    for entry in grundy::games::registry::entries() {
        let shown = out.lines().any(|line| line == format!("  {}", entry.shape));
        assert_eq!(
            shown,
            grundy::report::value::values_entry(entry),
            "`{}`: {out}",
            entry.name
        );
        listed += usize::from(shown);
        if let Some(small) = entry.small.first() {
            let spec: grundy::games::Spec = small.parse().unwrap();
            let partizan = spec.parts[0].family.kind() == grundy::games::Kind::Partizan;
            let valued = grundy(&["value", small], "").status.success();
            // Impartial parts are valued as nimbers, not listed.
            assert!(shown == valued || !partizan, "grundy value {small}");
        }
    }
    assert!(listed >= 7, "{listed} families listed: {out}");
    for name in ["domineering", "snort", "col", "hackenbush"] {
        assert!(out.contains(&format!("  {name}")), "{name}: {out}");
    }
    assert!(!out.contains("  tictactoe"), "{out}");
}

#[test]
fn table_plot_and_pattern_help_list_the_families_they_take() {
    use grundy::games::Family;
    // Read from the registry through the library's own tests of what a command takes, so
    // a family added later is listed (or not) with no change to the CLI.
    let samples: Vec<_> = grundy::games::samples().collect();
    assert_eq!(samples.len(), grundy::games::families().count());
    let tabulates: fn(&dyn Family) -> bool = grundy::report::tabulates;
    let studies: fn(&dyn Family) -> bool = grundy::pattern::studies;
    for (args, takes) in [
        (&["table", "--help"][..], tabulates),
        (&["plot", "--help"], tabulates),
        (&["pattern", "--help"], studies),
    ] {
        let out = ok(args);
        let mut listed = 0;
        for (shape, family) in &samples {
            let shown = out.lines().any(|line| line == format!("  {shape}"));
            assert_eq!(
                shown,
                takes(&**family),
                "grundy {args:?} and `{}`: {out}",
                family.name()
            );
            listed += usize::from(shown);
        }
        assert!(
            listed >= 5,
            "grundy {args:?} lists {listed} families: {out}"
        );
    }
    // And the commands take what the help lists, and refuse the rest.
    let limits = grundy::report::Limits::default();
    let control = grundy::explore::Control::default();
    for (_, family) in &samples {
        let name = family.name();
        let table = grundy::report::table(&name, 8, &limits);
        assert_eq!(table.is_ok(), tabulates(&**family), "table of `{name}`");
        let pattern = grundy::pattern::discover(&name, 30, &control);
        assert_eq!(pattern.is_ok(), studies(&**family), "pattern of `{name}`");
    }
}

/// Wythoff's losing positions are pairs: both piles are listed (not the smaller alone),
/// and the listing is as long as the rule's other families' (50), however far it looked.
#[test]
fn pattern_lists_wythoffs_losing_pairs_whole() {
    let text = ok(&["pattern", "wythoff"]);
    assert!(
        text.contains("losing positions: (0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13),"),
        "{text}"
    );
    let v = json(&["pattern", "wythoff", "--up-to", "3000", "--json"]);
    let pairs = v["p_pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 50);
    assert_eq!(pairs[49], serde_json::json!([79, 128]));
    assert!(v["p_positions"].as_array().unwrap().is_empty());
    // A heap family has no pairs, and its JSON no `p_pairs`.
    let v = json(&["pattern", "multiple[2]", "--json"]);
    assert!(v.get("p_pairs").is_none(), "{v}");
}

#[test]
fn pattern_sizes_are_refused_up_front() {
    let started = std::time::Instant::now();
    let err = fails(&["pattern", "multiple[2]", "--up-to", "18446744073709551615"]);
    assert!(err.contains("too large") && err.contains("limit"), "{err}");
    let err = fails(&["pattern", "wythoff", "--up-to", "10^12"]);
    assert!(err.contains("too large"), "{err}");
    assert!(
        started.elapsed().as_secs() < 10,
        "refused up front, not after computing"
    );
    // A period proof stops once proved: a large budget is no reason to refuse.
    let text = ok(&["pattern", "octal[0.77]", "--up-to", "10^15"]);
    assert!(text.contains("proved"), "{text}");
}

/// Ctrl-C at the `your move>` prompt of a terminal ends the game at once, with exit code
/// 130 and a newline. Run in a pseudo-terminal made by util-linux's `script` (skipped
/// where it is missing); the Ctrl-C is the byte the terminal would send.
#[test]
fn ctrl_c_at_the_prompt_ends_the_game_at_once() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let command = format!("{} play 'nim(3)'", env!("CARGO_BIN_EXE_grundy"));
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().unwrap();
    // Let the game reach its prompt, then press Ctrl-C (no newline after it).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    stdin.write_all(b"\x03").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    // Input ends here: a game that ignored the Ctrl-C ends at the end of input, exit 0.
    drop(stdin);
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("your move>"), "{text}");
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        started.elapsed().as_secs() < 5,
        "the game ended without another line"
    );
    assert!(
        text.trim_end_matches(['\r', '\n']).len() < text.len(),
        "ends with a newline"
    );
}

/// Under `--json`, an error is one JSON object on standard error with a stable kind (and
/// the figures: line and column, bytes needed); without it, text.
#[test]
fn json_errors_are_json_with_a_kind() {
    let err = |args: &[&str]| -> Value {
        let out = grundy(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        serde_json::from_slice(&out.stderr)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
    };
    let bad = err(&["solve", "nim(3,", "--json"]);
    assert_eq!(
        (&bad["kind"], &bad["line"], &bad["column"]),
        (&Value::from("bad-spec"), &Value::from(1), &Value::from(7))
    );
    let bad = err(&["table", "octal[0.7x]", "--up-to", "5", "--json"]);
    assert_eq!(bad["kind"], "bad-spec", "{bad}");
    let big = err(&[
        "solve",
        "connect4[7x6]",
        "--max-exact-nodes",
        "1000",
        "--json",
    ]);
    assert_eq!(big["kind"], "too-large", "{big}");
    let scratch = tempfile::tempdir().unwrap();
    // A directory the refusal must not make.
    let dir = scratch.path().join("tb");
    let big = err(&[
        "solve",
        "quixo[4]",
        "--tablebase",
        dir.to_str().unwrap(),
        "--max-tier-memory",
        "1",
        "--json",
    ]);
    assert_eq!(big["kind"], "too-large", "{big}");
    assert!(big["need_bytes"].as_u64().unwrap() > 1 << 20, "{big}");
    assert!(big["error"].as_str().unwrap().contains("--max-tier-memory"));
    assert!(!dir.exists());
    // Text without --json.
    let out = grundy(&["solve", "nim(3,"], "");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("grundy: bad spec"));
}

/// Every refusal past a limit a flag sets ends naming that flag, with the value that
/// would let it through where the library knows it; under `--json` the same as
/// `limit`, `wanted` and `hint`. A fixed ceiling names none.
#[test]
fn every_refusal_names_the_flag_that_lifts_it() {
    let cases: &[(&[&str], &str, &str)] = &[
        // A family's bound past 64 × the budget: refused at once, the bound wanted.
        (
            &["solve", "kalah[4,3]", "--max-positions", "100000"],
            "positions",
            "raise it with --max-positions 21036600",
        ),
        // Reached past the budget while exploring.
        (
            &["solve", "nim(3,4,5)+chomp[4x4]", "--max-positions", "10"],
            "positions",
            "raise it with --max-positions N",
        ),
        // Past the proof budget: heaps, not bytes.
        (
            &["solve", "octal[0.6](3000000)"],
            "proof-heaps",
            "raise it with --max-proof-heaps 3000001",
        ),
        // A Grundy table past the steps allowed.
        (
            &[
                "table",
                "octal[0.77]",
                "--up-to",
                "100000",
                "--max-work",
                "1000",
            ],
            "work",
            "raise it with --max-work ",
        ),
        // A Grundy table past the memory allowed.
        (
            &[
                "table",
                "octal[0.77]",
                "--up-to",
                "10^9",
                "--max-memory",
                "1",
            ],
            "memory",
            "raise it with --max-memory ",
        ),
        // The exact search's budget of nodes.
        (
            &[
                "solve",
                "connect4[5x4]",
                "--max-exact-nodes",
                "1000",
                "--max-positions",
                "1000",
            ],
            "exact-nodes",
            "raise it with --max-exact-nodes N",
        ),
        // The proof search's, where no exact search is offered.
        (
            &[
                "solve",
                "connect4[5x4]",
                "--max-exact-nodes",
                "0",
                "--max-nodes",
                "100",
                "--max-positions",
                "1000",
            ],
            "search-nodes",
            "raise it with --max-nodes N",
        ),
        // A study past what its budgets allow even at best: lowered.
        (
            &["pattern", "octal[0.6]", "--up-to", "10^15"],
            "up-to",
            "lower it with --up-to 2147483647 or less",
        ),
    ];
    for &(args, limit, hint) in cases {
        let text = fails(args);
        assert!(text.contains(&format!("; {hint}")), "{args:?}: {text}");
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let out = grundy(&with_json, "");
        let v: Value = serde_json::from_slice(&out.stderr)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(
            (v["kind"].as_str(), v["limit"].as_str()),
            (Some("too-large"), Some(limit)),
            "{v}"
        );
        assert!(v["hint"].as_str().unwrap().starts_with(hint), "{v}");
    }
    let v = {
        let out = grundy(
            &["solve", "kalah[4,3]", "--max-positions", "100000", "--json"],
            "",
        );
        serde_json::from_slice::<Value>(&out.stderr).unwrap()
    };
    assert_eq!(v["wanted"], 21_036_600, "{v}");
    // The bound is said to be an upper bound, and within 64 × the budget it is explored:
    // kalah[4,3] reaches far fewer positions than its bound.
    assert!(fails(&["solve", "kalah[4,3]", "--max-positions", "100000"]).contains("an upper bound"));
}

#[test]
fn two_moves_to_one_position_are_listed_once() {
    let text = ok(&["solve", "ends(1,1,1)"]);
    assert_eq!(text.matches("ends(1,1)").count(), 1, "{text}");
    assert!(text.contains("2 moves lead here"), "{text}");
}

#[test]
fn a_refusal_echoes_a_long_spec_cut() {
    // Was: `cannot solve `ends(1,2,…,3000)`` repeated the whole 14 KB spec.
    let spec = format!(
        "ends({})",
        (1..=3000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let err = fails(&["solve", &spec]);
    assert!(err.len() < 1000, "{} bytes: {}", err.len(), &err[..200]);
    assert!(err.contains("cannot solve `ends(1,2,3,"), "{err}");
    assert!(err.contains("…`"), "{err}");
    assert!(err.contains("(limit 2000000)"), "{err}");
    let out = grundy(&["solve", &spec, "--json"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 1000, "{} bytes", err.len());
    let v: Value = serde_json::from_str(&err).unwrap();
    assert_eq!(v["kind"], "too-large", "{v}");
}

/// Positions counted up to the board's symmetries say so: tic-tac-toe's 765 are the
/// classes of the 5478 positions play reaches, in the text and the JSON; a game whose
/// ranks are its positions (nim) says nothing of symmetry.
#[test]
fn counts_up_to_symmetry_say_so() {
    let text = ok(&["solve", "tictactoe"]);
    assert!(
        text.contains("(retrograde over 765 positions up to symmetry)"),
        "{text}"
    );
    let r = json(&["solve", "tictactoe", "--json"]);
    assert_eq!(r["positions"], 765);
    assert_eq!(r["up_to_symmetry"], true);
    let r = json(&["solve", "nim(3,4,5)", "--json"]);
    assert!(r.get("up_to_symmetry").is_none(), "{r}");
    assert!(!ok(&["solve", "nim(3,4,5)"]).contains("symmetry"));
}

#[test]
fn value_prints_canonical_forms_and_sums_them() {
    // Domineering, Left vertical: 2 × 2 = ±1; the 2 × 3 and the 3 × 2 are negatives, so
    // their sum is 0 and the second player wins it.
    let text = ok(&["value", "domineering[2x2]"]);
    assert!(text.contains(": ±1\n"), "{text}");
    assert!(text.contains("outcome class N"), "{text}");
    let v = json(&["value", "domineering[2x3] + domineering[3x2]", "--json"]);
    assert_eq!(v["value"], "0");
    assert_eq!(v["class"], "P");
    assert_eq!(v["parts"][0]["value"], "{2|-1/2}");
    assert_eq!(v["parts"][1]["value"], "{1/2|-2}");
    // Impartial parts are nimbers; --ascii spells ± as +-.
    let v = json(&["value", "nim(1) + domineering[2x2]", "--json", "--ascii"]);
    assert_eq!(v["parts"][0]["value"], "*");
    assert_eq!(v["parts"][1]["value"], "+-1");
    assert_eq!(v["class"], "N");
    // A partizan family without values is refused, not guessed.
    let err = fails(&["value", "tictactoe"]);
    assert!(err.contains("no combinatorial game value"), "{err}");
}

/// `value --form` reads CGSuite's notation; `--cool` and `--heat` transform the value;
/// an infinitesimal has its atomic weight where it has one, every value its reduced
/// canonical form; a bad form is shown with its column.
#[test]
fn value_reads_forms_cools_heats_and_weighs() {
    let v = json(&[
        "value", "--form", "+-1", "--cool", "1", "--heat", "1", "--json",
    ]);
    assert_eq!(v["value"], "±1");
    assert_eq!(v["cooled"]["value"], "*");
    assert_eq!(v["heated"]["value"], "±2");
    assert!(v.get("atomic_weight").is_none(), "{v}");
    assert_eq!(v["reduced_canonical_form"], "±1");
    let v = json(&["value", "--form", "{0||0|v*}", "--json"]);
    assert_eq!(v["atomic_weight"], "1");
    assert_eq!(v["reduced_canonical_form"], "0");
    assert_eq!(v["class"], "L");
    // Beyond all-small: CGSuite's {1|^^||^} weighs 2, {1|^^^||^} has no weight, and
    // {3||2*|1*} reduces to {3||2|1} (its CanonicalShortGameTestCase).
    let text = ok(&["value", "--form", "{1|^^||^}"]);
    assert!(text.contains("atomic weight 2\n"), "{text}");
    assert!(text.contains("reduced canonical form 0\n"), "{text}");
    let v = json(&["value", "--form", "{1|^^^||^}", "--json"]);
    assert!(v.get("atomic_weight").is_none(), "{v}");
    let v = json(&["value", "--form", "{3||2*|1*}", "--json"]);
    assert_eq!(v["reduced_canonical_form"], "{3||2|1}");
    let text = ok(&["value", "domineering[3x4](..../x..x/....)", "--cool", "3/2"]);
    assert!(text.contains("cooled by 3/2: -5/2*"), "{text}");
    let err = fails(&["value", "--form", "{1|0|2}"]);
    assert!(err.contains("column 5"), "{err}");
    let err = fails(&["value", "--form", "*", "--cool", "^"]);
    assert!(err.contains("must be a number"), "{err}");
    let err = fails(&["value", "--form", "*", "--cool", "-1"]);
    assert!(err.contains("above -1"), "{err}");
    // A form may begin with a minus sign, before or after `--form`; flags still parse.
    let v = json(&["value", "--form", "-3/2", "--json"]);
    assert_eq!(v["value"], "-3/2");
    let v = json(&["value", "-1 + *", "--form", "--ascii", "--json"]);
    assert_eq!(v["value"], "-1*");
    let err = fails(&["value", "--form", "--bogus"]);
    assert!(err.contains("--bogus"), "{err}");
}

/// `value --thermograph FILE` draws the walls and the mast with the mean and temperature
/// it prints; a file name it cannot draw is refused with the reason.
#[test]
fn value_draws_the_thermograph() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.svg");
    let text = ok(&[
        "value",
        "domineering[2x3]",
        "--thermograph",
        out.to_str().unwrap(),
    ]);
    assert!(text.contains("mean 3/4, temperature 5/4"), "{text}");
    match std::fs::read_to_string(&out) {
        Ok(svg) => {
            assert!(svg.contains("thermograph of {2|-1/2}"), "{svg}");
            assert!(svg.contains("mean 3/4, temperature 5/4"));
            // The left wall in blue, the right in vermilion (Okabe–Ito), each with its legend.
            assert_eq!(svg.matches("stroke=\"#0072B2\"").count(), 2, "{svg}");
            assert_eq!(svg.matches("stroke=\"#D55E00\"").count(), 2, "{svg}");
        }
        Err(e) => panic!("no thermograph written: {e}"),
    }
    let err = fails(&["value", "domineering[2x3]", "--thermograph", "t.txt"]);
    assert!(err.contains(".svg or .png"), "{err}");
}

#[test]
fn solve_misere_explores_and_says_so() {
    // Misère play: the player who cannot move wins, so one heap of 1 is lost.
    let v = json(&["solve", "--misere", "nim(1)", "--json"]);
    assert_eq!(v["play"], "misère");
    assert_eq!(v["outcome"], "loss");
    assert_eq!(v["remoteness"], 1);
    assert!(v.get("grundy").is_none());
    // Normal play does not write the convention.
    assert!(json(&["solve", "nim(1)", "--json"]).get("play").is_none());
    // A sum is explored whole.
    let v = json(&["solve", "--misere", "nim(3) + octal[0.77](5)", "--json"]);
    assert_eq!(v["method"], "retrograde");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([
            "nim(1) + octal[0.77](5)",
            "nim(3) + octal[0.77](3)",
            "nim(3) + octal[0.77](1,2)"
        ])
    );
    let text = ok(&["solve", "--misere", "octal[0.07](12)"]);
    assert!(
        text.starts_with("octal[0.07](12): the player to move loses in misère play"),
        "{text}"
    );
    // Misère Nim at any size, by Bouton's rule.
    let v = json(&["solve", "--misere", "nim(10^9,1,1)", "--json"]);
    assert_eq!(v["method"], "rule");
    assert_eq!(v["winning_moves"], serde_json::json!(["nim(1,1,1)"]));
    // Refusals name what lifts them, or why not.
    let err = fails(&["solve", "--misere", "octal[0.77](90)"]);
    assert!(err.contains("--max-positions"), "{err}");
    let err = fails(&["solve", "--misere", "tictactoe"]);
    assert!(err.contains("impartial"), "{err}");
}

#[test]
fn play_misere_wins_by_leaving_the_last_token() {
    // Misère nim(3,1): take the 3, and grundy must take the last token.
    let out = grundy(&["play", "--misere", "nim(3,1)"], "nim(0,1)\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.contains("the game is over: you won."), "{text}");
}

#[test]
fn pattern_misere_gives_the_quotient() {
    // Nim on heaps up to 3 (take 1 to 4): the tame quotient T2.
    let v = json(&[
        "pattern",
        "--misere",
        "octal[0.3333]",
        "--up-to",
        "3",
        "--json",
    ]);
    assert_eq!(v["order"], 6);
    assert_eq!(v["presentation"], "⟨a, b | a^2 = 1, b^3 = b⟩");
    assert_eq!(v["heaps"], serde_json::json!(["1", "a", "b", "a b"]));
    assert_eq!(v["p_portion"], serde_json::json!(["a", "b^2"]));
    assert_eq!(v["table"].as_array().unwrap().len(), 6);
    let text = ok(&["pattern", "--misere", "octal[0.07]", "--up-to", "12"]);
    assert!(text.contains("a quotient of order 12"), "{text}");
    assert!(fails(&["pattern", "--misere", "nim", "--up-to", "3"]).contains("take-and-break"));
    assert!(fails(&["pattern", "--misere", "octal[0.07]"]).contains("--up-to"));
    assert!(fails(&["pattern", "--misere", "octal[0.07]", "--up-to", "0"]).contains("1 ≤ n"));
    let refused = fails(&[
        "pattern",
        "--misere",
        "octal[0.07]",
        "--up-to",
        "25",
        "--max-positions",
        "100",
    ]);
    assert!(refused.contains("--max-positions"), "{refused}");
}

/// Each command's own help opens with the line the command list gives it: its arguments
/// are built only when it runs (`defer`), after its about, so a struct flattened into it
/// with a doc comment of its own would put that doc in its place.
#[test]
fn every_command_help_opens_with_its_own_about() {
    let top = ok(&["--help"]);
    let listed: Vec<(&str, &str)> = top
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.trim().split_once(' '))
        .map(|(name, about)| (name, about.trim()))
        .collect();
    assert!(listed.len() >= 10, "the command list: {top}");
    for (name, about) in listed {
        if name == "help" {
            continue;
        }
        let help = ok(&[name, "-h"]);
        assert_eq!(help.lines().next(), Some(about), "grundy {name} -h");
        assert!(help.contains(&format!("Usage: grundy {name}")), "{help}");
    }
}
