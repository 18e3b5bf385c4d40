//! Tablebases from the command line: built, reused, read back, refused when damaged, and
//! resumed after `kill -9` to the same bytes as a run never stopped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("grundy runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every tier file of a tablebase, by name, with its bytes (temporary files excluded).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the tablebase exists")
        .map(|e| e.expect("an entry").path())
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
fn a_tablebase_is_built_reused_and_queried() {
    let dir = scratch("built");
    let d = dir.to_str().unwrap();
    let first = grundy(&["solve", "connect4[4x4]", "--tablebase", d, "--json"]);
    assert!(first.status.success(), "{}", text(&first));
    let report: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(report["outcome"], "draw");
    assert_eq!(report["method"], "tablebase");
    assert_eq!(report["positions"], 161_029);
    let log = String::from_utf8_lossy(&first.stderr);
    assert!(
        log.contains("17 tiers of connect4[4x4] (17 solved now"),
        "{log}"
    );
    // Again: nothing is solved, every tier is read.
    let again = grundy(&["solve", "connect4[4x4](2)", "--tablebase", d]);
    assert!(again.status.success(), "{}", text(&again));
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(log.contains("(0 solved now"), "{log}");
    // A query reads one position and its moves, and says which column wins.
    let query = grundy(&["query", "connect4[4x4](2323)", "--tablebase", d, "--json"]);
    assert!(query.status.success(), "{}", text(&query));
    let read: serde_json::Value = serde_json::from_slice(&query.stdout).unwrap();
    let searched = grundy(&["solve", "connect4[4x4](2323)", "--json"]);
    let searched: serde_json::Value = serde_json::from_slice(&searched.stdout).unwrap();
    for key in ["outcome", "remoteness", "winning_moves"] {
        assert_eq!(read[key], searched[key], "{key}");
    }
    assert_eq!(read["moves"].as_array().unwrap().len(), 4);
    // A query of a board the tablebase is not for is refused by name.
    let other = grundy(&["query", "connect4[4x3]", "--tablebase", d]);
    assert!(!other.status.success());
    assert!(text(&other).contains("connect4[4x4]"), "{}", text(&other));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A score game's tablebase answers with both totals and every move's, as minimax does.
#[test]
fn a_score_game_is_read_with_its_totals() {
    let dir = scratch("kalah");
    let d = dir.to_str().unwrap();
    let built = grundy(&["solve", "kalah[3,2]", "--tablebase", d, "--json"]);
    assert!(built.status.success(), "{}", text(&built));
    let read: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    let searched = grundy(&["solve", "kalah[3,2]", "--json"]);
    let searched: serde_json::Value = serde_json::from_slice(&searched.stdout).unwrap();
    assert_eq!(read["method"], "tablebase");
    assert_eq!(searched["method"], "minimax");
    for key in ["outcome", "scores", "winning_moves"] {
        assert_eq!(read[key], searched[key], "{key}");
    }
    let query = grundy(&["query", "kalah[3,2]", "--tablebase", d]);
    let shown = text(&query);
    assert!(query.status.success(), "{shown}");
    assert!(
        shown.contains("pit 2        best: 8 to 4 from here"),
        "{shown}"
    );
    assert!(
        shown.contains("pit 1        worse than the best by 12: 2 to 10"),
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_tier_file_is_refused_by_name() {
    let dir = scratch("damaged");
    let d = dir.to_str().unwrap();
    assert!(grundy(&["solve", "connect4[4x3]", "--tablebase", d])
        .status
        .success());
    // The position `123` is in tier 3, and its moves in tier 4.
    let path = dir.join("tier-00003.gtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() - 3;
    bytes[middle] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let out = grundy(&["query", "connect4[4x3](123)", "--tablebase", d]);
    let out2 = grundy(&["solve", "connect4[4x3](123)", "--tablebase", d]);
    for o in [&out, &out2] {
        assert!(!o.status.success(), "{}", text(o));
        assert!(
            text(o).contains("tier-00003.gtb") && text(o).contains("block"),
            "{}",
            text(o)
        );
    }
    // Cut short: refused too.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let out = grundy(&["solve", "connect4[4x3]", "--tablebase", d]);
    assert!(!out.status.success());
    assert!(text(&out).contains("tier-00003.gtb"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_reads_every_block_and_names_each_damaged_tier() {
    let dir = scratch("check");
    let d = dir.to_str().unwrap();
    assert!(grundy(&["solve", "connect4[4x3]", "--tablebase", d])
        .status
        .success());
    let out = grundy(&["check", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("sound") && text(&out).contains("13 of its 13 tiers"),
        "{}",
        text(&out)
    );
    // Two tiers damaged where no query of the start reads them: both named, exit 1.
    for t in ["tier-00005.gtb", "tier-00009.gtb"] {
        let path = dir.join(t);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 2;
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
    }
    // A stopped writer's half-written file.
    std::fs::write(dir.join("tier-00007.gtb.tmp"), b"half").unwrap();
    let out = grundy(&["check", d]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    for what in [
        "tier 5: damaged",
        "tier 9: damaged",
        "tiers 5, 9",
        "tier-00007.gtb.tmp: unfinished",
    ] {
        assert!(said.contains(what), "{what}: {said}");
    }
    let json = grundy(&["check", d, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["sound"], false);
    assert_eq!(v["game"], "connect4[4x3]");
    let bad: Vec<u64> = v["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["sound"] == false)
        .map(|t| t["tier"].as_u64().unwrap())
        .collect();
    assert_eq!(bad, [5, 9]);
    // The damaged files removed, a solve writes them anew and removes the stopped
    // writer's file: sound again.
    std::fs::remove_file(dir.join("tier-00005.gtb")).unwrap();
    std::fs::remove_file(dir.join("tier-00009.gtb")).unwrap();
    assert!(grundy(&["solve", "connect4[4x3]", "--tablebase", d])
        .status
        .success());
    assert!(!dir.join("tier-00007.gtb.tmp").exists());
    assert!(grundy(&["check", d]).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_solve_leaves_no_directory_behind() {
    let dir = scratch("refused");
    let d = dir.to_str().unwrap();
    let out = grundy(&[
        "solve",
        "quixo[4]",
        "--tablebase",
        d,
        "--max-tier-memory",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--max-tier-memory"), "{}", text(&out));
    assert!(!dir.exists(), "{}", text(&out));
}

/// `kill -9` at 20 moments spread over a solve, each run resuming the last: the tablebase
/// ends byte for byte as one run never stopped writes it.
#[test]
#[ignore = "about a minute: cargo test -p grundy-cli --release --test tablebase -- --ignored"]
fn killed_solves_resume_to_the_same_bytes() {
    let spec = "connect4[5x4]";
    let whole = scratch("whole");
    let started = Instant::now();
    let out = grundy(&["solve", spec, "--tablebase", whole.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let full = started.elapsed();
    let expected = files(&whole);
    assert_eq!(expected.len(), 21);
    let killed = scratch("killed");
    let mut kills = 0;
    let mut finished = 0;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut runs = 0;
    while kills < 20 {
        runs += 1;
        assert!(runs < 80, "only {kills} kills in {runs} runs");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // A moment up to 70% into a whole run; each run resumes the last one's tiers.
        let at = full.mul_f64(0.7 * (seed % 10_000) as f64 / 10_000.0);
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["solve", spec, "--tablebase", killed.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        let was_running = child.try_wait().unwrap().is_none();
        if was_running {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        let status = child.wait().unwrap();
        // Whatever is there under a tier's name is whole and right.
        let now = files(&killed);
        for (name, bytes) in &now {
            let want = &expected.iter().find(|(n, _)| n == name).unwrap().1;
            assert_eq!(bytes, want, "{name} after run {runs}");
        }
        if !was_running {
            // It finished on its own: the whole tablebase, then start afresh.
            assert!(status.success());
            assert_eq!(now, expected);
            finished += 1;
            let _ = std::fs::remove_dir_all(&killed);
        }
    }
    let out = grundy(&["solve", spec, "--tablebase", killed.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(files(&killed), expected);
    eprintln!("{kills} kills, {finished} runs finished on their own, in {runs} runs");
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&killed);
}

#[test]
fn a_second_writer_of_a_directory_is_refused_and_readers_go_on() {
    let dir = scratch("writer");
    let d = dir.to_str().unwrap();
    assert!(grundy(&["solve", "connect4[4x3]", "--tablebase", d])
        .status
        .success());
    let whole = files(&dir);
    // Another process writing: it holds the directory's writer lock.
    let lock = std::fs::File::open(dir.join("writer.lock")).expect("the writer left its lock file");
    lock.lock().unwrap();
    let tier = dir.join("tier-00005.gtb");
    std::fs::remove_file(&tier).unwrap();
    let refused = grundy(&["solve", "connect4[4x3]", "--tablebase", d]);
    let said = text(&refused);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("another process is writing this tablebase") && said.contains(d),
        "{said}"
    );
    assert!(
        !tier.exists(),
        "the refused solver wrote {}",
        tier.display()
    );
    // Reading goes on: the query needs only the tiers that are there.
    let read = grundy(&["query", "connect4[4x3](12)", "--tablebase", d]);
    assert!(read.status.success(), "{}", text(&read));
    drop(lock);
    assert!(grundy(&["solve", "connect4[4x3]", "--tablebase", d])
        .status
        .success());
    assert_eq!(files(&dir), whole);
    let _ = std::fs::remove_dir_all(&dir);
}
