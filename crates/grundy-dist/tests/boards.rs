//! Every small board game of the catalog: the distributed solver, on several workers in
//! one process, writes the same tablebase, byte for byte, as `grundy::tier::solve`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use grundy::explore::Control;
use grundy::games::{Family, Spec};
use grundy_dist::{solve, Config};
use grundy_tablebase::Tablebase;

fn family(spec: &str) -> Arc<dyn Family> {
    let spec: Spec = spec.parse().unwrap();
    Arc::clone(&spec.single().unwrap().family)
}

/// The files of a directory, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn single(spec: &str, dir: &Path) -> grundy::tier::Solved {
    let f = family(spec);
    let tiers = f.tiers().unwrap();
    let mut store = Tablebase::open(dir, tiers.game()).unwrap();
    grundy::tier::solve(
        tiers.game(),
        &mut store,
        &grundy::tier::Options::default(),
        &|_| {},
        &Control::default(),
    )
    .unwrap()
}

pub fn same_bytes(spec: &str, workers: &[usize]) {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("single");
    let expected = single(spec, &one);
    let want = files(&one);
    // Sharing arrays in place, and not (every rank of another worker a message).
    for (w, share) in workers.iter().flat_map(|&w| [(w, true), (w, false)]) {
        if w == 1 && !share {
            continue;
        }
        let dir = tmp.path().join(format!("w{w}-{share}"));
        let config = Config {
            workers: w,
            batch_slices: 1,
            share,
            ..Config::default()
        };
        let solved = solve(Arc::new(family(spec)), &dir, &config, Arc::new(|_| {})).unwrap();
        assert_eq!(
            solved.solved, expected,
            "{spec} on {w} workers, sharing {share}"
        );
        let got = files(&dir);
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
