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
    // Sharing arrays in place, and not (every rank of another worker a message): the
    // child tiers' records abroad told whole, or asked for in rounds that stop within a
    // slice, as on quixo[4].
    for (w, share, told) in workers
        .iter()
        .flat_map(|&w| [(w, true, true), (w, false, true), (w, false, false)])
    {
        if w == 1 && !share {
            continue;
        }
        let dir = tmp.path().join(format!("w{w}-{share}-{told}"));
        let config = Config {
            workers: w,
            batch_slices: 1,
            kept_moves: if share { 1 << 20 } else { 64 },
            told_bytes: if told { u64::MAX } else { 0 },
            share,
            ..Config::default()
        };
        let solved = solve(Arc::new(family(spec)), &dir, &config, Arc::new(|_| {})).unwrap();
        assert_eq!(
            solved.solved, expected,
            "{spec} on {w} workers, sharing {share}, told {told}"
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

/// Within `Config::told_bytes` a tier's child tiers' records abroad come whole and the
/// tier is labelled in one round whatever `kept_moves` is; with no room for them, the
/// positions waiting for them are asked for in rounds bounded by `kept_moves`.
#[test]
fn the_records_abroad_are_told_whole_within_the_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let rounds = |told_bytes: u64| {
        let dir = tmp.path().join(format!("told-{told_bytes}"));
        let config = Config {
            workers: 2,
            // Slices of 64 ranks: many batches when asking.
            slice: 64,
            kept_moves: 64,
            told_bytes,
            share: false,
            ..Config::default()
        };
        let solved = solve(
            Arc::new(family("connect4[4x4]")),
            &dir,
            &config,
            Arc::new(|_| {}),
        )
        .unwrap();
        solved.tiers.iter().map(|t| t.traffic.rounds).max().unwrap()
    };
    let (whole, asked) = (rounds(u64::MAX), rounds(0));
    // The biggest tier's rounds (writing its blocks included): 278 against 957 here.
    assert!(
        asked > 2 * whole,
        "{asked} rounds asking, {whole} told whole"
    );
}
