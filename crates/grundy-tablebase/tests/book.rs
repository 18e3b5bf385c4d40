//! Books on disk: a book's tier files are the tablebase's own, byte for byte; a book is
//! told from a tablebase by which tiers it holds, deepened in place, never completed by
//! the tier solver, and checked like any tablebase.

use std::fs;
use std::path::Path;

use grundy::explore::Control;
use grundy::games::Spec;
use grundy::report::Limits;
use grundy::tier::Options;
use grundy_tablebase::{open_book, open_spec, tier_file_name, Tablebase};

fn spec(text: &str) -> Spec {
    text.parse().unwrap()
}

fn book(dir: &Path, game: &str, depth: u32) -> grundy_tablebase::Built {
    open_book(
        &spec(game),
        dir,
        depth,
        &Options::default(),
        &Limits::default(),
        &|_| {},
    )
    .unwrap()
    .1
}

fn store(dir: &Path, game: &str) -> Tablebase {
    let s = spec(game);
    let tiers = s.single().unwrap().family.tiers().unwrap();
    Tablebase::open(dir, tiers.game()).unwrap()
}

#[test]
fn a_books_files_are_the_tablebases_own() {
    let root = tempfile::tempdir().unwrap();
    let (full, shallow) = (root.path().join("full"), root.path().join("book"));
    open_spec(
        &spec("connect4[4x4]"),
        &full,
        Some(&Options::default()),
        &|_| {},
        &Control::default(),
    )
    .unwrap();
    let built = book(&shallow, "connect4[4x4]", 5);
    assert_eq!((built.tiers, built.fresh), (6, 6));
    assert_eq!(store(&full, "connect4[4x4]").book_depth().unwrap(), None);
    assert_eq!(
        store(&shallow, "connect4[4x4]").book_depth().unwrap(),
        Some(5)
    );
    for t in 0..=5 {
        let name = tier_file_name(t);
        assert!(
            fs::read(full.join(&name)).unwrap() == fs::read(shallow.join(&name)).unwrap(),
            "{name}"
        );
    }
    assert!(!shallow.join(tier_file_name(6)).exists());
    // Deepened by one: the new last tier is searched, the five before are read.
    let deeper = book(&shallow, "connect4[4x4]", 6);
    assert_eq!((deeper.tiers, deeper.fresh), (7, 1));
    assert_eq!(
        fs::read(full.join(tier_file_name(6))).unwrap(),
        fs::read(shallow.join(tier_file_name(6))).unwrap()
    );
    // Opened to solve, a book is read, not completed by the tier solver.
    let (_, built) = open_spec(
        &spec("connect4[4x4]"),
        &shallow,
        Some(&Options::default()),
        &|_| {},
        &Control::default(),
    )
    .unwrap();
    assert_eq!(built, None);
    assert!(!shallow.join(tier_file_name(7)).exists());
    // A tablebase's directory is not made a book of.
    let e = open_book(
        &spec("connect4[4x4]"),
        &full,
        3,
        &Options::default(),
        &Limits::default(),
        &|_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a book"), "{e}");
    // A damaged book is named by the check.
    let path = shallow.join(tier_file_name(4));
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x10;
    fs::write(&path, bytes).unwrap();
    let checked = store(&shallow, "connect4[4x4]").check().unwrap();
    assert!(!checked.sound());
    let damaged: Vec<u32> = checked
        .tiers
        .iter()
        .filter(|t| t.problem.is_some())
        .map(|t| t.tier)
        .collect();
    assert_eq!(damaged, [4]);
}

#[test]
fn a_tablebase_being_solved_is_no_book() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("tb");
    open_spec(
        &spec("tictactoe"),
        &dir,
        Some(&Options::default()),
        &|_| {},
        &Control::default(),
    )
    .unwrap();
    // A solve stopped after the last tiers: tier 0 and 1 missing.
    fs::remove_file(dir.join(tier_file_name(0))).unwrap();
    fs::remove_file(dir.join(tier_file_name(1))).unwrap();
    assert_eq!(store(&dir, "tictactoe").book_depth().unwrap(), None);
    // A book with its tier 2 lost is no book either; the next build writes tier 2 again
    // from tier 3, with no search.
    let b = root.path().join("book");
    book(&b, "tictactoe", 4);
    fs::remove_file(b.join(tier_file_name(2))).unwrap();
    assert_eq!(store(&b, "tictactoe").book_depth().unwrap(), None);
    let again = book(&b, "tictactoe", 4);
    assert_eq!(again.fresh, 1);
    assert_eq!(store(&b, "tictactoe").book_depth().unwrap(), Some(4));
}

/// A book of play's lines on disk, its partial tiers saved and read a block at a time
/// (from the positions held, never the tiers' ranks), is the book kept in memory saved
/// densely, byte for byte: built at once, or built shallower and deepened in place (its
/// tiers read back a block at a time); and a store read back hands the records in memory.
#[test]
fn a_book_of_lines_on_disk_is_the_book_in_memory_saved_whole() {
    use grundy::report::book::{build_lines, Sides};
    use grundy::tier::{MemoryStore, TierStore};
    let root = tempfile::tempdir().unwrap();
    let game = "connect4[5x4]";
    let lines = |store: &mut dyn TierStore, depth| {
        build_lines(
            &spec(game),
            depth,
            0,
            Sides::Both,
            store,
            &Options::default(),
            &Limits::default(),
            &|_| {},
            &|_| {},
        )
        .unwrap()
    };
    let mut memory = MemoryStore::default();
    lines(&mut memory, 7);
    let dense = root.path().join("dense");
    let mut whole = store(&dense, game);
    for (&t, (records, summary)) in &memory.tiers {
        whole.save(t, records, summary).unwrap();
    }
    let deepened = root.path().join("deepened");
    lines(&mut store(&deepened, game), 4);
    lines(&mut store(&deepened, game), 7);
    let at_once = root.path().join("at-once");
    lines(&mut store(&at_once, game), 7);
    for t in 0..=7 {
        let name = tier_file_name(t);
        let want = fs::read(dense.join(&name)).unwrap();
        for dir in [&deepened, &at_once] {
            assert!(fs::read(dir.join(&name)).unwrap() == want, "{name}");
        }
        let mut held = Vec::new();
        assert!(store(&at_once, game)
            .for_each_held(t, &mut |rank, r| {
                held.push((rank, r));
                Ok(())
            })
            .unwrap());
        let records = &memory.tiers[&t].0;
        let want: Vec<(u64, u16)> = (0u64..)
            .zip(records.iter().copied())
            .filter(|&(_, r)| r != 0)
            .collect();
        assert_eq!(held, want, "{name}");
    }
}
