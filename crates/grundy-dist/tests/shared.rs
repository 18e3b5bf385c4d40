//! Two processes of one distributed solve (here two threads, each a process of the
//! cluster on loopback) given one tablebase directory: each writes the tier files it owns
//! there, each under its tier's lock, and the directory's tier files are the library's,
//! byte for byte. A solve of another game given the directory is refused.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use grundy_dist::{solve, Cluster, Config, Error, Solved};

mod common;
use common::{family, library, tier_files};

/// Free loopback addresses (bound, then released).
fn addresses(n: usize) -> Vec<String> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect()
}

/// Runs `n` processes of `workers` workers, each a thread here, all writing `dir`.
fn cluster(spec: &str, dir: &Path, n: usize, workers: usize) -> Vec<Result<Solved, Error>> {
    let addresses = addresses(n);
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..n)
            .map(|process| {
                let config = Config {
                    workers,
                    cluster: Cluster {
                        process,
                        addresses: addresses.clone(),
                        connect_timeout: Duration::from_secs(20),
                    },
                    slice: 64,
                    batch_slices: 1,
                    round_timeout: Duration::from_secs(60),
                    ..Config::default()
                };
                let family = family(spec);
                s.spawn(move || solve(Arc::new(family), dir, &config, Arc::new(|_| {})))
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

#[test]
fn processes_given_one_directory_write_the_library_tablebase() {
    let tmp = tempfile::tempdir().unwrap();
    for (spec, workers) in [
        ("connect4[4x4]", 1),
        ("quixo[3]", 2),
        ("kalah[3,3]", 1),
        ("connect4[4x4]", 3),
    ] {
        let one = tmp.path().join(format!("library-{spec}-{workers}"));
        let expected = library(spec, &one, Some(64));
        let want = tier_files(&one);
        let dir = tmp.path().join(format!("shared-{spec}-{workers}"));
        for (process, got) in cluster(spec, &dir, 2, workers).into_iter().enumerate() {
            let got = got.unwrap_or_else(|e| panic!("{spec}, process {process}: {e}"));
            assert_eq!(got.solved, expected, "{spec}, process {process}");
        }
        let got = tier_files(&dir);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{spec}"
        );
        for (name, bytes) in &want {
            assert!(got[name] == *bytes, "{spec}: {name} differs");
        }
        // Each tier was written under its lock; nothing half-written is left.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            names.iter().all(|n| !n.ends_with(".tmp")),
            "{spec}: {names:?}"
        );
        for name in want.keys() {
            assert!(names.contains(&format!("{name}.lock")), "{spec}: {names:?}");
        }
        // Run again, the processes find every tier there (each checks those it owns) and
        // solve nothing.
        for got in cluster(spec, &dir, 2, workers) {
            let got = got.unwrap();
            assert_eq!(got.solved, expected, "{spec}, resumed");
            assert!(got.tiers.is_empty(), "{spec}: solved again {:?}", got.tiers);
        }
        assert!(tier_files(&dir) == want, "{spec}: changed by the rerun");
    }
}

#[test]
fn a_solve_of_another_game_is_refused_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("shared");
    for got in cluster("tictactoe", &dir, 2, 1) {
        got.unwrap();
    }
    let want = tier_files(&dir);
    for got in cluster("connect4[4x4]", &dir, 2, 1) {
        let e = got.unwrap_err().to_string();
        assert!(
            e.contains("holds the tablebase of another game")
                && e.contains("says `game tictactoe`, not `game connect4[4x4]`"),
            "{e}"
        );
    }
    assert!(tier_files(&dir) == want, "the refused solve wrote a file");
}
