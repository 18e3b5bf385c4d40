//! The two families added through the open interface, against published results and
//! brute force: tic-tac-toe (a draw; 765 essentially different positions), m,n,k-games,
//! and chomp (the first player wins every rectangle but 1 × 1; 2 × n and square bars by
//! their known strategies).

use grundy::game::Outcome;
use grundy::games::Spec;
use grundy::report::{self, Limits, Method};

fn solve(text: &str) -> report::Report {
    let spec: Spec = text.parse().unwrap();
    report::solve(&spec, &Limits::default()).unwrap()
}

#[test]
fn tictactoe_is_a_draw_over_765_positions() {
    let r = solve("tictactoe");
    assert_eq!(r.outcome, Outcome::Draw);
    assert_eq!(r.method, Method::Retrograde);
    // Schaefer's count of essentially different positions reachable in play (up to the
    // eight symmetries), terminal positions included.
    assert_eq!(r.positions, Some(765));
    assert_eq!(r.moves.len(), 9);
    assert!(r.moves.iter().all(|m| m.outcome == Outcome::Draw));
    assert_eq!(r.moves[4].name, "b2");
    // X to move completes the diagonal at once; four other moves win more slowly.
    let r = solve("tictactoe(x.o/.x./o..)");
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.remoteness, Some(1));
    assert_eq!(r.winning_moves.len(), 5);
    let best = r.best_move().unwrap();
    assert_eq!(
        (best.name.as_str(), best.spec.as_str()),
        ("c3", "tictactoe(x.o/.x./o.x)")
    );
    // A finished game: the player to move has lost.
    let r = solve("tictactoe(xxx/oo./...)");
    assert_eq!((r.outcome, r.remoteness), (Outcome::Loss, Some(0)));
    assert!(r.moves.is_empty());
}

#[test]
fn mnk_games_match_their_known_values() {
    // Two in a row is an easy first-player win; four in a row on 3 × 4 is a draw (no
    // m,n,4-game with m, n ≤ 5 is a first-player win).
    assert_eq!(solve("mnk[3,3,2]").outcome, Outcome::Win);
    assert_eq!(solve("mnk[2,2,2]").outcome, Outcome::Win);
    assert_eq!(solve("mnk[3,4,4]").outcome, Outcome::Draw);
    // k = 1: the first mark wins.
    let r = solve("mnk[2,3,1]");
    assert_eq!((r.outcome, r.remoteness), (Outcome::Win, Some(1)));
}

#[test]
fn tictactoe_agrees_with_a_plain_minimax() {
    // Negamax over the 3^9 boards with no symmetry, written here from the rules.
    fn line(b: &[u8; 9], p: u8) -> bool {
        const L: [[usize; 3]; 8] = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        L.iter().any(|l| l.iter().all(|&i| b[i] == p))
    }
    fn value(b: &mut [u8; 9], me: u8) -> i32 {
        if line(b, 3 - me) {
            return -1;
        }
        if b.iter().all(|&c| c != 0) {
            return 0;
        }
        let mut best = -2;
        for i in 0..9 {
            if b[i] == 0 {
                b[i] = me;
                best = best.max(-value(b, 3 - me));
                b[i] = 0;
            }
        }
        best
    }
    for opening in 0..9 {
        for reply in 0..9 {
            if reply == opening {
                continue;
            }
            let mut b = [0u8; 9];
            b[opening] = 1;
            b[reply] = 2;
            let want = match value(&mut b, 1) {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            };
            let text: String = (0..9)
                .map(|i| match b[i] {
                    1 => 'x',
                    2 => 'o',
                    _ => '.',
                })
                .collect();
            let board = format!("tictactoe({}/{}/{})", &text[0..3], &text[3..6], &text[6..9]);
            assert_eq!(solve(&board).outcome, want, "{board}");
        }
    }
}

#[test]
fn chomp_is_a_first_player_win_with_the_known_strategies() {
    // Every rectangle larger than 1 × 1 is a first-player win (strategy stealing).
    for rows in 1..=4 {
        for columns in 1..=5 {
            let r = solve(&format!("chomp[{rows}x{columns}]"));
            let want = if rows * columns == 1 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            assert_eq!(r.outcome, want, "{rows}x{columns}");
        }
    }
    // 2 × n: the losing positions are a bottom row of a and a top row of a − 1, so the
    // one winning move takes the top-right cell.
    for n in 2..=8u64 {
        let r = solve(&format!("chomp[2x{n}]"));
        assert_eq!(
            r.winning_moves,
            [format!("chomp[2x{n}]({n},{})", n - 1)],
            "2x{n}"
        );
    }
    // A square: take the cell diagonally above the poisoned one, leaving two equal arms.
    for n in 2..=5u64 {
        let r = solve(&format!("chomp[{n}x{n}]"));
        let arms: Vec<String> = std::iter::once(n.to_string())
            .chain((1..n).map(|_| "1".to_string()))
            .collect();
        assert_eq!(
            r.winning_moves,
            [format!("chomp[{n}x{n}]({})", arms.join(","))],
            "{n}x{n}"
        );
    }
    // Grundy values come from exploring the parts, so chomp sums like any other.
    let r = solve("chomp[2x3] + chomp[2x3]");
    assert_eq!((r.outcome, r.grundy), (Outcome::Loss, Some(0)));
    let r = solve("chomp[2x3](3,2) + nim(1)");
    assert_eq!(r.grundy, Some(1));
}

#[test]
fn specs_of_the_new_families_round_trip_and_err_with_columns() {
    for text in [
        "chomp[3x4](4,4,4)",
        "chomp[3x4](4,2)",
        "tictactoe(x.o/.x./...)",
        "mnk[4,5,3](...../...../...../.....)",
    ] {
        let spec: Spec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
    assert_eq!(
        "chomp[3x4]".parse::<Spec>().unwrap().to_string(),
        "chomp[3x4](4,4,4)"
    );
    let e = "chomp[3x4](4,5)".parse::<Spec>().unwrap_err();
    assert_eq!(e.column, 14);
    let e = "tictactoe(xx./.../...)".parse::<Spec>().unwrap_err();
    assert!(e.message.contains("X moves first"), "{e}");
    let e = "tictactoe(x.o/.x/...)".parse::<Spec>().unwrap_err();
    assert!(e.message.contains("3 cells"), "{e}");
    let e = "mnk[9,9,3]".parse::<Spec>().unwrap_err();
    assert!(e.message.contains("64 cells"), "{e}");
}

/// The row of "A Game" and the pits of Ioiwari draw as one row of cells, each move at the
/// number taken or the pit emptied.
#[test]
fn rows_and_pits_draw_with_each_move_at_its_cell() {
    use grundy::games::Spec;
    let spec: Spec = "ends(4,7,2,9,5,2)".parse().unwrap();
    let part = spec.single().unwrap();
    let picture = part.family.picture(&part.position).unwrap();
    assert_eq!((picture.rows, picture.columns), (1, 6));
    assert_eq!(picture.cells, ["4", "7", "2", "9", "5", "2"]);
    let mut moves = Vec::new();
    part.family.moves(&part.position, &mut moves);
    let cells: Vec<_> = moves
        .iter()
        .map(|m| part.family.move_cell(&part.position, m))
        .collect();
    assert_eq!(cells, [Some((0, 0)), Some((0, 5))]);

    let spec: Spec = "ioiwari(4,3,2,4,2,3,2)".parse().unwrap();
    let part = spec.single().unwrap();
    let picture = part.family.picture(&part.position).unwrap();
    assert_eq!(picture.cells, ["4", "3", "2", "4", "2", "3", "2"]);
    let mut moves = Vec::new();
    part.family.moves(&part.position, &mut moves);
    let mut cells: Vec<(u32, u32)> = moves
        .iter()
        .map(|m| part.family.move_cell(&part.position, m).unwrap())
        .collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), moves.len(), "each pit its own cell");
    for (row, column) in cells {
        assert_eq!(row, 0);
        assert_ne!(picture.cells[column as usize], "0");
    }
}
