//! Graph formats, the certificate checker and the brute-force references, end to end: the
//! shared parity benchmarks parse and round-trip, every class of bad input is reported at the
//! right line and column, no input makes a parser panic, and the checker accepts exactly the
//! true solutions of small random games.

mod common;
use common::bench_files;

use std::path::Path;

use grundy::graph::brute::{self, solve_parity, MAX_STRATEGY_PAIRS};
use grundy::graph::{
    detect, digraph_vertex_limit, parse_detect, parse_digraph, parse_pgsolver,
    parse_pgsolver_solution, parse_poi, parse_poi_answer, verify_buchi, verify_parity,
    verify_pg_solution, write_digraph, write_pgsolver, write_pgsolver_solution, write_poi,
    write_poi_answer, Arena, ArenaBuilder, FileId, Format, IdMap, ParseError, ParseErrorKind,
    VerifyError, DIGRAPH_FREE_VERTICES, GREEN, WHITE,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Benchmarks from the shared folder
// ---------------------------------------------------------------------------------------------

/// Counts `;`-terminated statements outside double quotes, independently of the parser.
fn count_statements(text: &str) -> usize {
    let mut in_string = false;
    let mut escaped = false;
    let mut count = 0;
    for c in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ';' {
            count += 1;
        }
    }
    count
}

/// The header's N and whether a `start` statement is present, read naively.
fn header(text: &str) -> (u64, bool) {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty());
    assert_eq!(words.next(), Some("parity"));
    let n = words.next().unwrap().parse().unwrap();
    (n, words.next() == Some("start"))
}

/// Parses a benchmark, checks counts against a naive reading and that write → parse is the
/// identity; returns the arena.
fn check_benchmark(path: &Path) -> Arena {
    let text = grundy_io::read_text(path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(detect(&text), Format::PgSolver, "{}", path.display());
    let arena = parse_pgsolver(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (bound, has_start) = header(&text);
    let statements = count_statements(&text) - 1 - usize::from(has_start);
    assert_eq!(arena.len(), statements, "{}", path.display());
    assert!(!arena.is_empty());
    let max_id = arena.file_id(arena.len() as u32 - 1).0;
    assert!(
        bound == max_id || bound == arena.len() as u64,
        "{}: header {bound}, {} vertices, largest id {max_id}",
        path.display(),
        arena.len()
    );
    assert_eq!(arena.start().is_some(), has_start);
    assert_eq!(arena.first_dead_end(), None);
    let edges: usize = arena.vertices().map(|v| arena.out_degree(v)).sum();
    assert_eq!(edges, arena.edge_count());
    assert_eq!(arena.reverse().edge_count(), arena.edge_count());
    let written = write_pgsolver(&arena).unwrap();
    let again = parse_pgsolver(&written).unwrap();
    assert_eq!(again, arena, "{}: round trip", path.display());
    arena
}

#[test]
fn oink_tests_parse_round_trip_and_solve() {
    let Some(files) = bench_files("oink-tests") else {
        return;
    };
    assert!(
        files.len() >= 200,
        "expected the 224 Oink tests, found {}",
        files.len()
    );
    let mut solved = 0;
    for path in &files {
        let arena = check_benchmark(path);
        // Small enough for brute force: solve, verify, write and read the solution back, and
        // check that flipping any one vertex's winner is rejected.
        let pairs =
            brute::strategy_count(&arena, 0).saturating_mul(brute::strategy_count(&arena, 1));
        if pairs > 1 << 12 {
            continue;
        }
        let sol = solve_parity(&arena).unwrap();
        verify_parity(&arena, &sol.winner, &sol.strategy)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = write_pgsolver_solution(&arena, &sol.winner, &sol.strategy).unwrap();
        let read = parse_pgsolver_solution(&text, &arena).unwrap();
        assert_eq!(verify_pg_solution(&arena, &read), Ok(()));
        for v in arena.vertices() {
            let mut winner = sol.winner.clone();
            winner[v as usize] ^= 1;
            assert!(verify_parity(&arena, &winner, &sol.strategy).is_err());
        }
        solved += 1;
    }
    eprintln!("solved {solved} of {}", files.len());
    assert!(
        solved >= 20,
        "only {solved} Oink tests were small enough to brute-force"
    );
}

#[test]
fn syntcomp_games_parse_and_round_trip() {
    let Some(files) = bench_files("syntcomp") else {
        return;
    };
    assert!(
        files.len() >= 200,
        "expected the 285 SYNTCOMP games, found {}",
        files.len()
    );
    let mut largest = 0;
    for path in &files {
        assert!(path.to_string_lossy().ends_with(".gz"));
        let arena = check_benchmark(path);
        largest = largest.max(arena.len());
    }
    eprintln!("largest {largest}");
    assert!(largest > 10_000, "largest game has only {largest} vertices");
}

// ---------------------------------------------------------------------------------------------
// The green game, by hand
// ---------------------------------------------------------------------------------------------

/// Ann owns fields 1–4, Billy 5–7.
///
/// - 5 (Billy, white) may loop on itself forever: a green-free trap, Billy wins from 5 (a
///   "B-set" of the lecture). 7 (Billy) moves to 5, so Billy wins from 7; 4 (Ann) is forced to
///   7, so Billy wins from 4 although 4 is green.
/// - 1 (Ann) goes to 2 (green) and 2 returns to 1: green forever, Ann wins 1 and 2.
/// - 6 (Billy, green) can go to 2 (Ann wins) or 3; from 3 Ann goes back to 6 (not to 7), so the
///   play 3 → 6 → 3 … sees green 6 forever: Ann wins 3 and 6.
///
/// Answer: Ann wins from 1, 2, 3, 6.
const GREEN_GAME: &str = "4 3
0 2 2 5
1 1 1
0 2 6 7
1 1 7
0 2 5 1
1 2 3 2
0 2 4 5
";
const GREEN_ANSWER: &str = "4\n1\n2\n3\n6\n";

#[test]
fn green_game_by_hand() {
    assert_eq!(detect(GREEN_GAME), Format::Poi);
    let a = parse_poi(GREEN_GAME).unwrap();
    assert_eq!(a.len(), 7);
    assert_eq!(a.owners(), &[0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(
        a.priorities(),
        &[WHITE, GREEN, WHITE, GREEN, WHITE, GREEN, WHITE]
    );
    assert_eq!(a.successors(0), &[1, 4]);
    assert_eq!(a.successors(6), &[3, 4]);
    assert_eq!(a.ids(), &IdMap::Offset(1));
    assert_eq!(a.file_id(0), FileId(1));

    // The hand-made certificate: Ann plays 1→2, 2→1, 3→6; Billy plays 5→5, 7→5.
    let winner = [0, 0, 0, 1, 1, 0, 1];
    let strategy = [Some(1), Some(0), Some(5), None, Some(4), None, Some(4)];
    assert_eq!(verify_buchi(&a, &winner, &strategy), Ok(()));
    assert_eq!(write_poi_answer(&winner), GREEN_ANSWER);
    // Ann choosing 3→7 instead walks into Billy's region.
    assert!(matches!(
        verify_buchi(
            &a,
            &winner,
            &[Some(1), Some(0), Some(6), None, Some(4), None, Some(4)]
        ),
        Err(VerifyError::StrategyLeavesRegion {
            vertex: FileId(3),
            target: FileId(7),
            player: 0
        })
    ));
    // Billy letting 7 go to 4 makes the cycle 4→7→4 with green 4: bad for Billy.
    assert_eq!(
        verify_buchi(
            &a,
            &winner,
            &[Some(1), Some(0), Some(5), None, Some(4), None, Some(3)]
        ),
        Err(VerifyError::BadCycle {
            player: 1,
            priority: GREEN,
            cycle: vec![FileId(4), FileId(7)]
        })
    );

    // The brute-force solver agrees.
    let sol = solve_parity(&a).unwrap();
    assert_eq!(sol.winner, winner);
    assert_eq!(write_poi_answer(&sol.winner), GREEN_ANSWER);
    assert_eq!(verify_buchi(&a, &sol.winner, &sol.strategy), Ok(()));

    // Answer and game round trips.
    let ann = parse_poi_answer(GREEN_ANSWER, 7).unwrap();
    assert_eq!(ann, winner.iter().map(|&w| w == 0).collect::<Vec<_>>());
    assert_eq!(write_poi(&a).unwrap(), GREEN_GAME);
    // Tokens may be wrapped freely.
    let wrapped = GREEN_GAME.split_whitespace().collect::<Vec<_>>().join("\n");
    assert_eq!(parse_poi(&wrapped).unwrap(), a);
}

// ---------------------------------------------------------------------------------------------
// Bad input: every class, with its line and column
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn at(result: Result<Arena, ParseError>, line: usize, column: usize) -> ParseErrorKind {
    let e = result.expect_err("input should be rejected");
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(!e.to_string().is_empty());
    e.kind
}

#[test]
fn poi_errors() {
    // Fewer tokens than declared: field 2 says one successor and the input ends.
    let k = at(parse_poi("1 1\n0 1 2\n1 1\n"), 3, 4);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
    // Leftover tokens after the last field.
    let k = at(parse_poi("1 0\n0 1 1\n5\n"), 3, 1);
    assert!(matches!(k, ParseErrorKind::TrailingGarbage { .. }), "{k:?}");
    // Successor out of range (fields are 1..=2).
    let k = at(parse_poi("1 1\n0 1 3\n1 1 1\n"), 2, 5);
    assert!(
        matches!(
            k,
            ParseErrorKind::OutOfRange {
                value: 3,
                lo: 1,
                end: 3,
                ..
            }
        ),
        "{k:?}"
    );
    let k = at(parse_poi("1 1\n0 1 0\n1 1 1\n"), 2, 5);
    assert!(
        matches!(k, ParseErrorKind::OutOfRange { value: 0, .. }),
        "{k:?}"
    );
    // Colour not 0/1.
    let k = at(parse_poi("1 0\n2 1 1\n"), 2, 1);
    assert_eq!(k, ParseErrorKind::BadColour { field: 1, found: 2 });
    // A field with no successor.
    let k = at(parse_poi("1 1\n0 0\n1 1 1\n"), 2, 3);
    assert_eq!(k, ParseErrorKind::NoSuccessors { vertex: 1 });
    // Overflow.
    let k = at(parse_poi("1 0\n0 1 99999999999\n"), 2, 5);
    assert!(matches!(k, ParseErrorKind::Overflow { .. }), "{k:?}");
    let k = at(parse_poi("4294967296 0\n"), 1, 1);
    assert!(matches!(k, ParseErrorKind::Overflow { .. }), "{k:?}");
    let k = at(parse_poi("99999999999999999999999 0\n"), 1, 1);
    assert!(matches!(k, ParseErrorKind::Overflow { .. }), "{k:?}");
    let k = at(parse_poi("4294967295 1\n"), 1, 12);
    assert!(matches!(k, ParseErrorKind::TooLarge { .. }), "{k:?}");
    // Negative.
    let k = at(parse_poi("1 0\n0 1 -1\n"), 2, 5);
    assert!(matches!(k, ParseErrorKind::Negative { .. }), "{k:?}");
    // Not a number.
    let k = at(parse_poi("1 0\n0 x 1\n"), 2, 3);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
    // Empty input.
    let k = at(parse_poi(""), 1, 1);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
    // Columns count characters, not bytes.
    let k = at(parse_poi("1 0\n0 1 é\n"), 2, 5);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
    let k = at(parse_poi("1 0 é\n"), 1, 5);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
}

#[test]
fn poi_answer_errors() {
    let e = parse_poi_answer("2\n3\n1\n", 3).unwrap_err();
    assert_eq!((e.line, e.column), (3, 1));
    assert_eq!(
        e.kind,
        ParseErrorKind::NotAscending {
            previous: 3,
            found: 1
        }
    );
    let e = parse_poi_answer("1\n4\n", 3).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    let e = parse_poi_answer("1\n1\n2\n", 3).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::TrailingGarbage { .. }));
    let e = parse_poi_answer("4\n", 3).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Overflow { .. }));
    assert_eq!(parse_poi_answer("0\n", 3).unwrap(), vec![false; 3]);
}

#[test]
fn pgsolver_errors() {
    // Duplicate id: reported at the second occurrence.
    let k = at(
        parse_pgsolver("parity 2;\n0 1 0 1;\n1 1 1 0;\n0 2 0 0;\n"),
        4,
        1,
    );
    assert_eq!(k, ParseErrorKind::DuplicateId { id: 0 });
    // Duplicates out of order are found too, still at the later one.
    let k = at(
        parse_pgsolver("parity 5;\n5 1 0 5;\n2 1 0 5;\n5 1 0 2;\n"),
        4,
        1,
    );
    assert_eq!(k, ParseErrorKind::DuplicateId { id: 5 });
    // A successor that is not declared.
    let k = at(parse_pgsolver("parity 2;\n0 1 0 1,7;\n1 1 1 0;\n"), 2, 9);
    assert!(
        matches!(k, ParseErrorKind::Undeclared { id: 7, .. }),
        "{k:?}"
    );
    // The earliest of several post-pass problems is the one reported.
    let k = at(parse_pgsolver("parity 9;\n3 1 0 8;\n3 1 0 3;\n"), 2, 7);
    assert!(
        matches!(k, ParseErrorKind::Undeclared { id: 8, .. }),
        "{k:?}"
    );
    // Owner not 0/1.
    let k = at(parse_pgsolver("parity 1;\n0 1 2 0;\n"), 2, 5);
    assert_eq!(
        k,
        ParseErrorKind::BadOwner {
            vertex: 0,
            found: 2
        }
    );
    // No successors (PGSolver forbids dead ends), with and without a name.
    let k = at(parse_pgsolver("parity 1;\n0 1 0;\n"), 2, 6);
    assert_eq!(k, ParseErrorKind::NoSuccessors { vertex: 0 });
    let k = at(parse_pgsolver("parity 1;\n0 1 0 \"v\";\n"), 2, 7);
    assert_eq!(k, ParseErrorKind::NoSuccessors { vertex: 0 });
    let k = at(parse_pgsolver("parity 1;\n0 1 0"), 2, 6);
    assert_eq!(k, ParseErrorKind::NoSuccessors { vertex: 0 });
    // Overflow: priorities are u32, ids u64.
    let k = at(parse_pgsolver("parity 1;\n0 4294967296 0 0;\n"), 2, 3);
    assert!(
        matches!(
            k,
            ParseErrorKind::Overflow {
                max: 4294967295,
                ..
            }
        ),
        "{k:?}"
    );
    let k = at(
        parse_pgsolver("parity 1;\n99999999999999999999 0 0 0;\n"),
        2,
        1,
    );
    assert!(matches!(k, ParseErrorKind::Overflow { .. }), "{k:?}");
    // Negative.
    let k = at(parse_pgsolver("parity 1;\n0 -1 0 0;\n"), 2, 3);
    assert!(matches!(k, ParseErrorKind::Negative { .. }), "{k:?}");
    // Trailing garbage.
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0;\nfoo\n"), 3, 1);
    assert!(matches!(k, ParseErrorKind::TrailingGarbage { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0;\n;\n"), 3, 1);
    assert!(matches!(k, ParseErrorKind::TrailingGarbage { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0; @"), 2, 10);
    assert_eq!(k, ParseErrorKind::UnexpectedChar { found: '@' });
    // Missing semicolons: reported just after the statement's last token.
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0\n1 1 1 0;\n"), 2, 8);
    assert!(
        matches!(k, ParseErrorKind::MissingSemicolon { .. }),
        "{k:?}"
    );
    let k = at(parse_pgsolver("parity 1\n0 1 0 0;\n"), 1, 9);
    assert!(
        matches!(k, ParseErrorKind::MissingSemicolon { .. }),
        "{k:?}"
    );
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0 \"v\""), 2, 12);
    assert!(
        matches!(k, ParseErrorKind::MissingSemicolon { .. }),
        "{k:?}"
    );
    // Header problems.
    let k = at(parse_pgsolver("0 1 0 0;\n"), 1, 1);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity;\n"), 1, 7);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity 1;\n5 1 0 5;\n"), 2, 1);
    assert_eq!(k, ParseErrorKind::IdAboveHeader { id: 5, bound: 1 });
    let k = at(parse_pgsolver("parity 1;\nstart 3;\n0 1 0 0;\n"), 2, 7);
    assert!(
        matches!(k, ParseErrorKind::Undeclared { id: 3, .. }),
        "{k:?}"
    );
    // Successor list problems.
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0,;\n"), 2, 9);
    assert!(matches!(k, ParseErrorKind::Expected { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0,"), 2, 9);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
    let k = at(parse_pgsolver("parity 1;\n0 1 0 0 \"abc;\n"), 2, 9);
    assert_eq!(k, ParseErrorKind::UnterminatedString);
}

#[test]
fn pgsolver_accepts_both_header_conventions_sparse_ids_and_free_layout() {
    let by_max = parse_pgsolver("parity 1;\n0 1 0 1;\n1 2 1 0;\n").unwrap();
    let by_count = parse_pgsolver("parity 2;\n0 1 0 1;\n1 2 1 0;\n").unwrap();
    assert_eq!(by_max, by_count);
    let wrapped = parse_pgsolver("parity\n1\n;1 2 1\n0 ; 0 1 0 1\n;").unwrap();
    assert_eq!(wrapped, by_max);
    let spaced = parse_pgsolver("parity 1 ;\r\n0 1 0 1 , 1 ;\r\n1 2 1 0 ;\r\n").unwrap();
    assert_eq!(spaced.successors(0), &[1, 1]);
    let empty = parse_pgsolver("parity 0;").unwrap();
    assert!(empty.is_empty());
    let sparse =
        parse_pgsolver("parity 1000;\n1000 0 0 10;\n10 1 1 1000 \"a \\\"b\\\"\";\n").unwrap();
    assert_eq!(sparse.ids(), &IdMap::Table(vec![10, 1000]));
    assert_eq!(sparse.name(0), Some("a \"b\""));
    assert_eq!(sparse.dense_id(FileId(1000)), Some(1));
    assert_eq!(
        parse_pgsolver(&write_pgsolver(&sparse).unwrap()).unwrap(),
        sparse
    );
}

#[test]
fn solution_errors() {
    let a = parse_pgsolver("parity 2;\n0 1 0 1;\n1 2 1 0,2;\n2 2 0 2;\n").unwrap();
    let e = parse_pgsolver_solution("paritysol 2;\n0 2;\n", &a).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert_eq!(
        e.kind,
        ParseErrorKind::BadWinner {
            vertex: 0,
            found: 2
        }
    );
    let e = parse_pgsolver_solution("0 0 1;\n3 0;\n", &a).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(matches!(e.kind, ParseErrorKind::Undeclared { id: 3, .. }));
    let e = parse_pgsolver_solution("0 0 9;\n", &a).unwrap_err();
    assert_eq!((e.line, e.column), (1, 5));
    let e = parse_pgsolver_solution("0 0;\n0 1;\n", &a).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::DuplicateId { id: 0 });
    let e = parse_pgsolver_solution("0 0 1\n", &a).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::MissingSemicolon { .. }));
    assert_eq!((e.line, e.column), (1, 6));
    // Partial solutions parse; the verifier then names the first unclaimed vertex.
    let partial = parse_pgsolver_solution("paritysol 1;\n2 0 2;\n", &a).unwrap();
    assert_eq!(
        verify_pg_solution(&a, &partial),
        Err(VerifyError::Unclaimed { vertex: FileId(0) })
    );
    // Oink's header counts solved vertices; PGSolver's gives the largest id; both are fine.
    let full = "paritysol 3;\n0 0 1;\n1 0;\n2 0 2;\n";
    let s = parse_pgsolver_solution(full, &a).unwrap();
    assert_eq!(verify_pg_solution(&a, &s), Ok(()));
}

#[test]
fn digraph_parse_and_errors() {
    let g = parse_digraph("3 3\n0 1\n1 2\n0 2\n").unwrap();
    assert_eq!(g.len(), 3);
    assert_eq!(g.successors(0), &[1, 2]);
    assert_eq!(g.first_dead_end(), Some(2));
    assert!(g.owners().iter().all(|&o| o == 0));
    assert!(g.priorities().iter().all(|&p| p == 0));
    assert_eq!(parse_digraph(&write_digraph(&g)).unwrap(), g);
    assert_eq!(detect("3 3\n0 1\n1 2\n0 2\n"), Format::Digraph);
    assert_eq!(
        parse_detect("3 3\n0 1\n1 2\n0 2\n").unwrap(),
        (Format::Digraph, g)
    );

    let k = at(parse_digraph("2 1\n0 2\n"), 2, 3);
    assert!(
        matches!(
            k,
            ParseErrorKind::OutOfRange {
                value: 2,
                lo: 0,
                end: 2,
                ..
            }
        ),
        "{k:?}"
    );
    let k = at(parse_digraph("2 2\n0 1\n"), 2, 4);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
    let k = at(parse_digraph("2 1\n0 1\n1 0\n"), 3, 1);
    assert!(matches!(k, ParseErrorKind::TrailingGarbage { .. }), "{k:?}");
    let k = at(parse_digraph("0 1\n0 0\n"), 2, 1);
    assert!(matches!(k, ParseErrorKind::OutOfRange { .. }), "{k:?}");
    let k = at(parse_digraph("2 1\n-1 0\n"), 2, 1);
    assert!(matches!(k, ParseErrorKind::Negative { .. }), "{k:?}");
    let k = at(parse_digraph("2 4294967296\n"), 1, 3);
    assert!(matches!(k, ParseErrorKind::Overflow { .. }), "{k:?}");
}

#[test]
fn headers_size_nothing_the_body_does_not_bear_out() {
    // A 12-byte digraph asking for 2^28 vertices is refused at its count, before anything
    // is allocated for them.
    let k = at(parse_digraph("268435456 0\n"), 1, 1);
    assert!(
        matches!(&k, ParseErrorKind::HeaderClaim { claimed, .. } if claimed == "268435456 vertices"),
        "{k:?}"
    );
    // Naming a huge vertex in an edge does not help: the file is still 25 bytes.
    let k = at(parse_digraph("268435456 1\n0 268435455\n"), 1, 1);
    assert!(matches!(k, ParseErrorKind::HeaderClaim { .. }), "{k:?}");
    // The limit is exact: what the edges can name plus DIGRAPH_FREE_VERTICES isolated ones.
    assert_eq!(digraph_vertex_limit(1), 2 + DIGRAPH_FREE_VERTICES);
    let fits = format!("{} 1\n0 1\n", 2 + DIGRAPH_FREE_VERTICES);
    let g = parse_digraph(&fits).unwrap();
    assert_eq!(g.len() as u64, 2 + DIGRAPH_FREE_VERTICES);
    assert_eq!(g.first_dead_end(), Some(1));
    let k = at(
        parse_digraph(&format!("{} 1\n0 1\n", 3 + DIGRAPH_FREE_VERTICES)),
        1,
        1,
    );
    assert!(matches!(k, ParseErrorKind::HeaderClaim { .. }), "{k:?}");
    // The bound does not depend on layout (found by fuzzing: a padded file was accepted and
    // its compact rewrite refused): whatever is written parses back.
    let padded = format!("\n{}   \n0 ", DIGRAPH_FREE_VERTICES);
    let g = parse_digraph(&padded).unwrap();
    assert_eq!(parse_digraph(&write_digraph(&g)).unwrap(), g);
    // A huge m does not raise the bar before the edges are there: the file ends first.
    let k = at(parse_digraph("268435456 134217728\n0 1\n"), 2, 4);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
    // Isolated vertices past the last one an edge names are fine in small numbers.
    let g = parse_digraph("5 1\n0 1\n").unwrap();
    assert_eq!(g.len(), 5);
    // More edges claimed than given: the error says what the header claimed, where it ends.
    let e = parse_digraph("3 1000000\n0 1\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 4));
    assert!(
        e.to_string().contains("of the 1000000 the header claims"),
        "{e}"
    );

    // PGSolver: a header without a body, or far above the largest id, claims vertices the
    // file does not have; the error points at N.
    let k = at(parse_pgsolver("parity 268435455;"), 1, 8);
    assert_eq!(
        k,
        ParseErrorKind::HeaderClaim {
            claimed: "vertex ids up to 268435455".into(),
            found: "the file defines no vertex".into()
        }
    );
    let k = at(parse_pgsolver("parity\n  5;\n0 1 0 0;\n1 1 0 0;\n"), 2, 3);
    assert_eq!(
        k,
        ParseErrorKind::HeaderClaim {
            claimed: "vertex ids up to 5".into(),
            found: "the largest id the file defines is 1".into()
        }
    );
    // Both conventions (largest id, count) and gaps below the largest id stay accepted.
    assert_eq!(
        parse_pgsolver("parity 2;\n0 1 0 1;\n1 1 0 0;\n")
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        parse_pgsolver("parity 1;\n0 1 0 1;\n1 1 0 0;\n")
            .unwrap()
            .len(),
        2
    );
    let gaps = parse_pgsolver("parity 9;\n0 1 0 9;\n9 1 0 0;\n").unwrap();
    assert_eq!(gaps.len(), 2);
    assert!(parse_pgsolver("parity 0;").unwrap().is_empty());
    assert!(parse_pgsolver("parity 1;").is_err());

    // POI: a header claiming more fields than the file has fails where the file ends, and
    // says what the header claimed; four billion claimed fields allocate nothing.
    let e = parse_poi("4 1\n0 1 2\n1 1 1\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 6));
    assert!(matches!(e.kind, ParseErrorKind::UnexpectedEnd { .. }));
    assert!(
        e.to_string()
            .contains("field 3 (of the 5 the header claims)"),
        "{e}"
    );
    let k = at(parse_poi("4294967295 0"), 1, 13);
    assert!(matches!(k, ParseErrorKind::UnexpectedEnd { .. }), "{k:?}");
}

#[test]
fn errors_never_echo_binary() {
    for text in [
        "\0\0\0\0 0\n".to_string(),
        "1 1\n0 \u{1b}[2J\n".to_string(),
        "parity 1;\n0 1 0 0;\n\u{7}".to_string(),
        "parity 1;\n0 1 0 0 \"\0".to_string(),
        format!("2 1\n0 {}\n", "\0".repeat(100_000)),
    ] {
        for format in [Format::Poi, Format::PgSolver, Format::Digraph] {
            let Err(e) = grundy::graph::parse(&text, format) else {
                panic!("{text:?} parsed as {format}");
            };
            let shown = e.to_string();
            assert!(
                !shown.chars().any(|c| c.is_control()),
                "{format}: {shown:?}"
            );
            assert!(shown.len() < 300, "{format}: {} bytes", shown.len());
        }
    }
    let e = parse_digraph("\0\0 0\n").unwrap_err();
    assert!(e.to_string().contains("`\\0\\0`"), "{e}");
    let e = parse_pgsolver("parity 1;\n\u{1b}").unwrap_err();
    assert!(e.to_string().contains("\\u{1b}"), "{e}");
    let a = parse_poi("1 0\n0 1 1\n").unwrap();
    let e = grundy::graph::parse_poi_solution("1\n1\n1 -> \0\n", &a).unwrap_err();
    assert!(!e.to_string().chars().any(|c| c.is_control()), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------------------------

/// Random arenas of 1..=`max_n` vertices, 0 or 1..=`max_deg` successors each.
fn arenas(max_n: usize, max_deg: usize, max_prio: u32, dead_ends: bool) -> BoxedStrategy<Arena> {
    (1..=max_n)
        .prop_flat_map(move |n| {
            let min_deg = usize::from(!dead_ends);
            proptest::collection::vec(
                (
                    0u8..2,
                    0..=max_prio,
                    proptest::collection::vec(0..n as u32, min_deg..=max_deg),
                ),
                n,
            )
        })
        .prop_map(|spec| {
            let mut b = ArenaBuilder::new();
            for (owner, priority, succ) in spec {
                b.push(owner, priority, succ);
            }
            b.build().unwrap()
        })
        .boxed()
}

/// Every full profile: a successor for each vertex (`None` at dead ends).
fn profiles(arena: &Arena) -> Vec<Vec<Option<u32>>> {
    let mut all = vec![Vec::new()];
    for v in arena.vertices() {
        let succ = arena.successors(v);
        let choices: Vec<Option<u32>> = if succ.is_empty() {
            vec![None]
        } else {
            succ.iter().map(|&s| Some(s)).collect()
        };
        all = all
            .into_iter()
            .flat_map(|p| {
                choices.iter().map(move |&c| {
                    let mut q = p.clone();
                    q.push(c);
                    q
                })
            })
            .collect();
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The checker accepts the brute-force solution, and flipping any one vertex's winner is
    /// rejected whatever move is offered at the flipped vertex.
    #[test]
    fn verifier_accepts_brute_force_and_rejects_flips(a in arenas(7, 3, 5, true)) {
        let sol = solve_parity(&a).unwrap();
        prop_assert_eq!(verify_parity(&a, &sol.winner, &sol.strategy), Ok(()));
        for v in a.vertices() {
            let mut winner = sol.winner.clone();
            winner[v as usize] ^= 1;
            let mut offers: Vec<Option<u32>> = a.successors(v).iter().map(|&s| Some(s)).collect();
            offers.push(None);
            for offer in offers {
                let mut strategy = sol.strategy.clone();
                strategy[v as usize] = offer;
                prop_assert!(verify_parity(&a, &winner, &strategy).is_err());
            }
        }
    }

    /// Soundness, exhaustively: over every partition and every strategy profile of a tiny
    /// arena, the checker accepts only the true partition (and accepts it at least once).
    #[test]
    fn verifier_accepts_only_the_true_partition(a in arenas(5, 3, 4, true)) {
        let truth = solve_parity(&a).unwrap().winner;
        let all = profiles(&a);
        let n = a.len();
        let mut accepted = 0;
        for mask in 0u32..(1 << n) {
            let winner: Vec<u8> = (0..n).map(|v| (mask >> v) as u8 & 1).collect();
            for p in &all {
                if verify_parity(&a, &winner, p).is_ok() {
                    prop_assert_eq!(&winner, &truth);
                    accepted += 1;
                }
            }
        }
        prop_assert!(accepted >= 1);
    }

    /// Completeness and soundness of the strategy checks: on the true partition, the checker
    /// accepts a strategy exactly when following it wins every play from every vertex against
    /// every opponent profile (positional opponents suffice against a positional strategy).
    #[test]
    fn verifier_accepts_exactly_the_winning_strategies(a in arenas(6, 3, 5, true)) {
        let truth = solve_parity(&a).unwrap().winner;
        let mine = |v: u32| a.owner(v) == truth[v as usize];
        let mut oracle: std::collections::HashMap<Vec<Option<u32>>, bool> = Default::default();
        for q in profiles(&a) {
            let key: Vec<Option<u32>> =
                a.vertices().map(|v| if mine(v) { q[v as usize] } else { None }).collect();
            let wins = a.vertices().all(|v| brute::play_winner(&a, &q, v) == truth[v as usize]);
            *oracle.entry(key).or_insert(true) &= wins;
        }
        prop_assert!(oracle.values().any(|&ok| ok));
        for (strategy, ok) in oracle {
            prop_assert_eq!(verify_parity(&a, &truth, &strategy).is_ok(), ok, "{:?}", strategy);
        }
    }

    /// The brute-force solution's strategies really win every play against every opponent
    /// profile (checked by following plays, not by the verifier).
    #[test]
    fn brute_force_strategies_win_all_plays(a in arenas(6, 3, 5, true)) {
        let sol = solve_parity(&a).unwrap();
        for p in profiles(&a) {
            let mut profile = p.clone();
            for v in a.vertices() {
                if a.owner(v) == sol.winner[v as usize] {
                    profile[v as usize] = sol.strategy[v as usize];
                }
            }
            for v in a.vertices() {
                prop_assert_eq!(brute::play_winner(&a, &profile, v), sol.winner[v as usize]);
            }
        }
    }

    /// The two brute-force reachability references agree.
    #[test]
    fn attractor_matches_reachability(a in arenas(6, 3, 0, true), player in 0u8..2, bits in 0u32..64) {
        let target: Vec<bool> = (0..a.len()).map(|v| bits >> v & 1 == 1).collect();
        prop_assert_eq!(
            brute::attractor(&a, player, &target),
            brute::reachability(&a, player, &target).unwrap()
        );
    }

    /// PGSolver round trip with sparse ids, names (quotes, backslashes, newlines, Unicode) and
    /// a start vertex.
    #[test]
    fn pgsolver_round_trip(
        a in arenas(12, 4, 1000, false),
        seed_ids in proptest::collection::btree_set(0u64..u64::MAX, 12),
        names in proptest::collection::vec(proptest::option::of("[a-z\"\\\\\n é;,]{0,6}"), 12),
        start in proptest::option::of(0u32..12),
    ) {
        let n = a.len();
        let ids: Vec<u64> = seed_ids.into_iter().take(n).collect();
        let names: Vec<Option<String>> = names.into_iter().take(n).collect();
        let a = a
            .with_ids(IdMap::Table(ids))
            .unwrap()
            .with_names(names)
            .unwrap()
            .with_start(start.filter(|&s| (s as usize) < n))
            .unwrap();
        let text = write_pgsolver(&a).unwrap();
        prop_assert_eq!(detect(&text), Format::PgSolver);
        prop_assert_eq!(parse_pgsolver(&text).unwrap(), a);
    }

    /// Green-game and digraph round trips.
    #[test]
    fn poi_and_digraph_round_trip(
        spec in proptest::collection::vec((any::<bool>(), proptest::collection::vec(0u32..50, 1..4)), 1..20),
        ann in 0usize..20,
    ) {
        let n = spec.len();
        let ann = ann.min(n);
        let mut b = ArenaBuilder::new();
        for (i, (green, succ)) in spec.iter().enumerate() {
            let priority = if *green { GREEN } else { WHITE };
            b.push(u8::from(i >= ann), priority, succ.iter().map(|&s| s % n as u32));
        }
        let a = b.build().unwrap().with_ids(IdMap::Offset(1)).unwrap();
        let text = write_poi(&a).unwrap();
        prop_assert_eq!(detect(&text), Format::Poi);
        prop_assert_eq!(parse_poi(&text).unwrap(), a.clone());

        let g = parse_digraph(&write_digraph(&a)).unwrap();
        prop_assert_eq!(g.successor_csr(), a.successor_csr());
        prop_assert_eq!(parse_digraph(&write_digraph(&g)).unwrap(), g);
    }

    /// Random bytes never make a parser panic.
    #[test]
    fn parsers_never_panic_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        exercise_parsers(&text);
    }

    /// Random token soup never makes a parser panic.
    #[test]
    fn parsers_never_panic_on_tokens(
        tokens in proptest::collection::vec((0usize..TOKENS.len(), 0usize..SEPARATORS.len()), 0..60)
    ) {
        let text: String = tokens.iter().map(|&(t, s)| format!("{}{}", TOKENS[t], SEPARATORS[s])).collect();
        exercise_parsers(&text);
    }

    /// Near-valid input: a valid file with one character changed never panics a parser, and
    /// whatever still parses writes back and parses to the same arena.
    #[test]
    fn mutated_files_parse_consistently(
        a in arenas(6, 3, 9, false),
        pos in any::<prop::sample::Index>(),
        replacement in prop::sample::select(vec!["", "0", "1", "9", " ", "\n", ";", ",", "-", "\"", "x", "99999999999"]),
    ) {
        let valid = write_pgsolver(&a).unwrap();
        let i = pos.index(valid.len());
        let text = format!("{}{}{}", &valid[..i], replacement, &valid[i + 1..]);
        exercise_parsers(&text);
        if let Ok(b) = parse_pgsolver(&text) {
            prop_assert_eq!(parse_pgsolver(&write_pgsolver(&b).unwrap()).unwrap(), b);
        }
        let poi = write_poi(&normalised_poi(&a)).unwrap();
        let i = pos.index(poi.len());
        let text = format!("{}{}{}", &poi[..i], replacement, &poi[i + 1..]);
        exercise_parsers(&text);
        if let Ok(b) = parse_poi(&text) {
            prop_assert_eq!(parse_poi(&write_poi(&b).unwrap()).unwrap(), b);
        }
    }
}

const TOKENS: &[&str] = &[
    "parity",
    "paritysol",
    "start",
    ";",
    ",",
    "0",
    "1",
    "2",
    "3",
    "7",
    "-1",
    "-",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "99999999999999999999999",
    "\"n\"",
    "\"",
    "\"a\\\"",
    "x",
    "\\",
    "é",
    "\u{0}",
];
const SEPARATORS: &[&str] = &["", " ", "\n", "\t", "\r\n"];

/// Runs every parser on `text`; they may fail, never panic.
fn exercise_parsers(text: &str) {
    let _ = detect(text);
    let _ = parse_detect(text);
    let _ = parse_poi(text);
    let _ = parse_digraph(text);
    let _ = parse_pgsolver(text);
    let _ = parse_poi_answer(text, 5);
    let small = parse_pgsolver("parity 3;\n0 1 0 1;\n1 2 1 0,3;\n3 0 1 3;\n").unwrap();
    if let Ok(s) = parse_pgsolver_solution(text, &small) {
        let _ = verify_pg_solution(&small, &s);
    }
    if let Ok(a) = parse_pgsolver(text) {
        let _ = write_pgsolver(&a);
    }
}

/// The same graph as a green game: owners sorted (Ann first), priorities WHITE/GREEN.
fn normalised_poi(a: &Arena) -> Arena {
    let mut b = ArenaBuilder::new();
    let ann = a.owners().iter().filter(|&&o| o == 0).count();
    for v in a.vertices() {
        let priority = if a.priority(v) % 2 == 0 { GREEN } else { WHITE };
        b.push(
            u8::from(v as usize >= ann),
            priority,
            a.successors(v).iter().copied(),
        );
    }
    b.build().unwrap()
}

#[test]
fn brute_force_limit_is_reported() {
    let mut b = ArenaBuilder::new();
    for _ in 0..25 {
        b.push(0, 0, [0, 1]);
    }
    let a = b.build().unwrap();
    assert!(brute::strategy_count(&a, 0) > MAX_STRATEGY_PAIRS);
    assert!(solve_parity(&a).is_err());
}

/// The checker is iterative (no recursion depth limit) and linear on a long cycle.
#[test]
fn verifier_handles_a_million_vertices() {
    let n = 1_000_000u32;
    let ring = |top: u32| {
        let mut b = ArenaBuilder::new();
        for v in 0..n {
            let priority = if v == 0 { top } else { v % 7 };
            b.push(1, priority, [(v + 1) % n]);
        }
        b.build().unwrap()
    };
    let winner = vec![0u8; n as usize];
    let strategy = vec![None; n as usize];
    assert_eq!(verify_parity(&ring(100), &winner, &strategy), Ok(()));
    match verify_parity(&ring(101), &winner, &strategy) {
        Err(VerifyError::BadCycle {
            player: 0,
            priority: 101,
            cycle,
        }) => {
            assert_eq!(cycle.len(), n as usize);
            assert_eq!(cycle[..3], [FileId(0), FileId(1), FileId(2)]);
        }
        other => panic!("expected a bad cycle, got {other:?}"),
    }
}

#[test]
fn gzip_inflation_is_bounded_when_asked() {
    use std::io::Write as _;
    let text = "2 1\n0 1\n".repeat(1000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    let path = std::path::Path::new("upload.gz");
    assert_eq!(
        grundy_io::decode_text_limited(bytes.clone(), false, path, 8000).unwrap(),
        text
    );
    let err = grundy_io::decode_text_limited(bytes, false, path, 7999).unwrap_err();
    assert!(
        matches!(err, grundy_io::ReadError::TooLarge { limit: 7999, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("inflates to more than"), "{err}");
}
