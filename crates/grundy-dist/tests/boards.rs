//! Every small board game of the catalog: the distributed solver, on several workers in
//! one process, writes the same tablebase, byte for byte, as `grundy::tier::solve`.

use std::sync::Arc;

use grundy_dist::{solve, Config};

mod common;
use common::{family, library, tier_files};

pub fn same_bytes(spec: &str, workers: &[usize]) {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("single");
    let expected = library(spec, &one, None);
    let want = tier_files(&one);
    // Sharing arrays in place, and not (every rank of another worker a message).
    for (w, share) in workers.iter().flat_map(|&w| [(w, true), (w, false)]) {
        if w == 1 && !share {
            continue;
        }
        let dir = tmp.path().join(format!("w{w}-{share}"));
        let config = Config {
            workers: w,
            batch_slices: 1,
            // Not sharing, rounds that stop within a slice, as on quixo[4].
            kept_moves: if share { 1 << 20 } else { 64 },
            share,
            ..Config::default()
        };
        let solved = solve(Arc::new(family(spec)), &dir, &config, Arc::new(|_| {})).unwrap();
        assert_eq!(
            solved.solved, expected,
            "{spec} on {w} workers, sharing {share}"
        );
        let got = tier_files(&dir);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{spec} on {w} workers"
        );
        for (name, bytes) in &want {
            assert!(got[name] == *bytes, "{spec} on {w} workers: {name} differs");
        }
    }
}

#[test]
fn tictactoe() {
    same_bytes("tictactoe", &[1, 2, 3]);
}

#[test]
fn connect_four_4x4() {
    same_bytes("connect4[4x4]", &[1, 3]);
}

#[test]
fn quixo_3() {
    same_bytes("quixo[3]", &[1, 2, 4]);
}

#[test]
fn dots_2x2() {
    same_bytes("dots[2x2]", &[1, 3]);
}

#[test]
fn kalah_3_3() {
    same_bytes("kalah[3,3]", &[1, 2]);
}

#[test]
fn hex_3() {
    same_bytes("hex[3]", &[1, 2]);
}
