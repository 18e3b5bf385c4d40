//! `grundy olympiad NAME` against judges written here: each contest task played over
//! standard input and output against an optimal opponent and a random one, on generated
//! inputs and the published samples; malformed inputs and illegal moves refused.
//!
//! The judges keep the game themselves (from the task statements' rules, written again
//! here) and check every line the contestant writes.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A contestant running: its input and its output lines.
struct Contestant {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
}

impl Contestant {
    fn start(task: &str, input: &str) -> Contestant {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["olympiad", task])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut to = child.stdin.take().unwrap();
        to.write_all(input.as_bytes()).unwrap();
        to.flush().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Contestant {
            child,
            to: Some(to),
            from,
        }
    }

    fn read(&mut self) -> String {
        let mut line = String::new();
        self.from.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "the contestant stopped writing");
        line.trim().to_string()
    }

    fn write(&mut self, line: &str) {
        let to = self.to.as_mut().unwrap();
        writeln!(to, "{line}").unwrap();
        to.flush().unwrap();
    }

    /// Waits for the end; the exit code and what was left on standard output and error.
    fn finish(mut self) -> (Option<i32>, String, String) {
        drop(self.to.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.from, &mut rest).unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err).unwrap();
        (self.child.wait().unwrap().code(), rest, err)
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The judge's opponent: the best move, or one at random.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Opponent {
    Optimal,
    Random,
}

// ---------------------------------------------------------------------------------------
// IOI 1996 "A Game"
// ---------------------------------------------------------------------------------------

/// best[l][r]: the most the player to move gets more than the other from row[l..r].
fn interval_margins(row: &[i64]) -> Vec<Vec<i64>> {
    let n = row.len();
    let mut best = vec![vec![0i64; n + 1]; n + 1];
    for len in 1..=n {
        for l in 0..=n - len {
            let r = l + len;
            best[l][r] = (row[l] - best[l + 1][r]).max(row[r - 1] - best[l][r - 1]);
        }
    }
    best
}

fn a_game(row: &[i64], opponent: Opponent, rng: &mut Rng) -> [i64; 2] {
    let mut input = format!("{}\n", row.len());
    let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
    input.push_str(&cells.join(" "));
    input.push('\n');
    let best = interval_margins(row);
    let mut c = Contestant::start("ioi1996-game", &input);
    let (mut l, mut r) = (0, row.len());
    let mut sums = [0i64; 2];
    let mut mine = true;
    while l < r {
        let left = if mine {
            match c.read().as_str() {
                "L" => true,
                "R" => false,
                other => panic!("not a move: {other}"),
            }
        } else {
            let left = match opponent {
                Opponent::Optimal => row[l] - best[l + 1][r] >= row[r - 1] - best[l][r - 1],
                Opponent::Random => rng.below(2) == 0,
            };
            c.write(if left { "L" } else { "R" });
            left
        };
        let who = usize::from(!mine);
        if left {
            sums[who] += row[l];
            l += 1;
        } else {
            r -= 1;
            sums[who] += row[r];
        }
        mine = !mine;
    }
    let last = c.read();
    assert_eq!(last, format!("{} {}", sums[0], sums[1]), "the closing sums");
    let (code, rest, err) = c.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(rest.is_empty(), "{rest}");
    sums
}

#[test]
fn a_game_published_sample_and_judges() {
    // The task's sample: 4 7 2 9 5 2, the first player gets 18, the second 11.
    let mut rng = Rng(0x1996);
    assert_eq!(
        a_game(&[4, 7, 2, 9, 5, 2], Opponent::Optimal, &mut rng),
        [18, 11]
    );
    for round in 0..12 {
        let n = 2 * (1 + rng.below(10));
        let row: Vec<i64> = (0..n).map(|_| rng.below(200) as i64).collect();
        let best = interval_margins(&row)[0][n];
        for opponent in [Opponent::Optimal, Opponent::Random] {
            let [first, second] = a_game(&row, opponent, &mut rng);
            // The first player of an even row never loses (all odd or all even places).
            assert!(first >= second, "round {round} {opponent:?}: {row:?}");
            if opponent == Opponent::Optimal {
                assert_eq!(first - second, best, "round {round}: {row:?}");
            } else {
                assert!(first - second >= best, "round {round}: {row:?}");
            }
        }
    }
}

#[test]
fn a_game_reads_exactly_what_it_answers() {
    // The longest row the reader takes is played out whole against the optimal judge and
    // solved by --solve, each in seconds: the row is solved once on its intervals (O(1) a
    // position), each own move read from the table. Was: one solve a move, each position
    // holding its row: 2000 numbers aborted, 1000 ran past 100 s.
    let n = grundy::contest::A_GAME_MAX;
    let mut rng = Rng(0x1996_0001);
    let row: Vec<i64> = (0..n).map(|_| rng.below(1000) as i64).collect();
    let best = interval_margins(&row)[0][n];
    let start = std::time::Instant::now();
    let [first, second] = a_game(&row, Opponent::Optimal, &mut rng);
    let took = start.elapsed();
    assert_eq!(first - second, best);
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    let input = format!(
        "{n}\n{}\n",
        row.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let run = |input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["olympiad", "ioi1996-game", "--solve"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let start = std::time::Instant::now();
    let out = run(&input);
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let total: i64 = row.iter().sum();
    let want = format!(
        "scores: {} for the player to move, {} for the other",
        (total + best) / 2,
        (total - best) / 2
    );
    assert!(
        text.contains(&want),
        "{want}: {}",
        &text[..text.len().min(2000)]
    );
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    // One more number is refused by the reader, at once.
    let out = run(&format!("{}\n", n + 1));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&n.to_string()), "{err}");
}

// ---------------------------------------------------------------------------------------
// IOI 2001 "Ioiwari"
// ---------------------------------------------------------------------------------------

/// The rules from the task statement: `(pits after, to the mover, to the opponent)`.
fn sowing(pits: [u8; 7], pit: usize) -> ([u8; 7], i32, i32) {
    let mut p = pits;
    let mut hand = p[pit];
    p[pit] = 0;
    let mut at = pit;
    let (mut mine, mut theirs) = (0, 0);
    loop {
        at = (at + 1) % 7;
        if hand == 1 {
            if p[at] == 0 || p[at] == 5 {
                theirs += 1;
            } else {
                mine += i32::from(p[at]) + 1;
                p[at] = 0;
            }
            return (p, mine, theirs);
        }
        if p[at] == 5 {
            p[at] = 4;
            mine += 1;
        } else {
            p[at] += 1;
            hand -= 1;
        }
    }
}

fn negamax(pits: [u8; 7], memo: &mut HashMap<[u8; 7], i32>) -> i32 {
    if let Some(&v) = memo.get(&pits) {
        return v;
    }
    let v = (0..7)
        .filter(|&i| pits[i] > 0)
        .map(|i| {
            let (next, mine, theirs) = sowing(pits, i);
            mine - theirs - negamax(next, memo)
        })
        .max()
        .unwrap_or(0);
    memo.insert(pits, v);
    v
}

fn ioiwari(
    start: [u8; 7],
    opponent: Opponent,
    rng: &mut Rng,
    memo: &mut HashMap<[u8; 7], i32>,
) -> i32 {
    let cells: Vec<String> = start.iter().map(ToString::to_string).collect();
    let mut c = Contestant::start("ioi2001-ioiwari", &format!("{}\n", cells.join(" ")));
    let mut pits = start;
    let mut banks = [0i32; 2];
    let mut mine = true;
    while pits.iter().any(|&p| p > 0) {
        let pit = if mine {
            let label: usize = c.read().parse().expect("a pit label");
            assert!(
                (1..=7).contains(&label) && pits[label - 1] > 0,
                "pit {label} of {pits:?}"
            );
            label - 1
        } else {
            let legal: Vec<usize> = (0..7).filter(|&i| pits[i] > 0).collect();
            let pit = match opponent {
                Opponent::Optimal => *legal
                    .iter()
                    .max_by_key(|&&i| {
                        let (next, a, b) = sowing(pits, i);
                        // Ties to the first pit.
                        (a - b - negamax(next, memo), -(i as i32))
                    })
                    .unwrap(),
                Opponent::Random => legal[rng.below(legal.len())],
            };
            c.write(&(pit + 1).to_string());
            pit
        };
        let (next, a, b) = sowing(pits, pit);
        let (me, other) = if mine { (0, 1) } else { (1, 0) };
        banks[me] += a;
        banks[other] += b;
        pits = next;
        mine = !mine;
    }
    let (code, rest, err) = c.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(rest.is_empty(), "{rest}");
    banks[0] - banks[1]
}

#[test]
fn ioiwari_judges_on_legal_starts() {
    let mut rng = Rng(0x2001);
    let mut memo = HashMap::new();
    // The task's example start first, then random legal starts.
    let mut starts = vec![[4, 3, 2, 4, 2, 3, 2]];
    while starts.len() < 6 {
        let s: [u8; 7] = std::array::from_fn(|_| 2 + rng.below(3) as u8);
        if s.iter().map(|&x| u32::from(x)).sum::<u32>() == 20 {
            starts.push(s);
        }
    }
    for start in starts {
        let best = negamax(start, &mut memo);
        let against_best = ioiwari(start, Opponent::Optimal, &mut rng, &mut memo);
        assert_eq!(against_best, best, "{start:?}");
        assert!(against_best > 0, "{start:?}: the first player wins");
        let against_random = ioiwari(start, Opponent::Random, &mut rng, &mut memo);
        assert!(against_random >= best, "{start:?}");
    }
}

// ---------------------------------------------------------------------------------------
// IOI 2001 "Score"
// ---------------------------------------------------------------------------------------

struct ScoreBoard {
    n: usize,
    arrows: Vec<Vec<usize>>,
    owner: Vec<usize>,
    value: Vec<usize>,
}

fn random_board(n: usize, extra: usize, rng: &mut Rng) -> ScoreBoard {
    let mut order: Vec<usize> = (1..n).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order.insert(0, 0);
    let mut arrow = vec![vec![false; n]; n];
    for i in 1..n {
        arrow[order[rng.below(i)]][order[i]] = true;
    }
    for i in 0..n {
        if i == n - 1 || rng.below(4) == 0 {
            arrow[order[i]][0] = true;
        } else {
            arrow[order[i]][order[i + 1 + rng.below(n - i - 1)]] = true;
        }
    }
    for _ in 0..extra {
        let (a, b) = (rng.below(n), rng.below(n));
        if a < b {
            arrow[order[a]][order[b]] = true;
        }
    }
    let mut value: Vec<usize> = (1..=n).collect();
    for i in (1..n).rev() {
        value.swap(i, rng.below(i + 1));
    }
    ScoreBoard {
        n,
        arrows: arrow
            .iter()
            .map(|row| (0..n).filter(|&j| row[j]).collect())
            .collect(),
        owner: (0..n).map(|_| rng.below(2)).collect(),
        value,
    }
}

impl ScoreBoard {
    fn text(&self) -> String {
        let mut t = format!("{}\n", self.n);
        for i in 0..self.n {
            let row: Vec<&str> = (0..self.n)
                .map(|j| {
                    if self.arrows[i].contains(&j) {
                        "1"
                    } else {
                        "0"
                    }
                })
                .collect();
            t.push_str(&row.join(" "));
            t.push('\n');
        }
        let owners: Vec<String> = self.owner.iter().map(|o| (o + 1).to_string()).collect();
        let values: Vec<String> = self.value.iter().map(ToString::to_string).collect();
        t.push_str(&format!("{}\n{}\n", owners.join(" "), values.join(" ")));
        t
    }

    /// The winner (0 or 1) from the token on `c` with scores `s`, C not yet scored.
    fn winner(
        &self,
        c: usize,
        s: [usize; 2],
        memo: &mut HashMap<(usize, [usize; 2]), usize>,
    ) -> usize {
        if let Some(&w) = memo.get(&(c, s)) {
            return w;
        }
        let me = self.owner[c];
        let mut after = s;
        after[me] = after[me].max(self.value[c]);
        let w = if self.arrows[c]
            .iter()
            .any(|&d| self.after_winner(d, after, memo) == me)
        {
            me
        } else {
            1 - me
        };
        memo.insert((c, s), w);
        w
    }

    fn after_winner(
        &self,
        d: usize,
        s: [usize; 2],
        memo: &mut HashMap<(usize, [usize; 2]), usize>,
    ) -> usize {
        if d == 0 {
            usize::from(s[1] > s[0])
        } else {
            self.winner(d, s, memo)
        }
    }
}

/// Plays a board; the winner (0: the contestant).
fn score(board: &ScoreBoard, opponent: Opponent, rng: &mut Rng) -> usize {
    let mut c = Contestant::start("ioi2001-score", &board.text());
    let mut memo = HashMap::new();
    let (mut at, mut s) = (0usize, [0usize; 2]);
    loop {
        let me = board.owner[at];
        s[me] = s[me].max(board.value[at]);
        let next = if me == 0 {
            let d: usize = c.read().parse().expect("a position");
            assert!(
                board.arrows[at].contains(&(d - 1)),
                "no arrow {} → {d}",
                at + 1
            );
            d - 1
        } else {
            let d = match opponent {
                Opponent::Optimal => *board.arrows[at]
                    .iter()
                    .find(|&&d| board.after_winner(d, s, &mut memo) == 1)
                    .unwrap_or(&board.arrows[at][0]),
                Opponent::Random => board.arrows[at][rng.below(board.arrows[at].len())],
            };
            c.write(&(d + 1).to_string());
            d
        };
        at = next;
        if at == 0 {
            break;
        }
    }
    let (code, rest, err) = c.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(rest.is_empty(), "{rest}");
    usize::from(s[1] > s[0])
}

#[test]
fn score_judges_on_generated_boards() {
    let mut rng = Rng(0x5c02e);
    let mut played = 0;
    while played < 16 {
        let n = 2 + rng.below(24);
        let board = random_board(n, rng.below(4 * n), &mut rng);
        // The task's boards are ones player 1 can win.
        if board.winner(0, [0, 0], &mut HashMap::new()) != 0 {
            continue;
        }
        for opponent in [Opponent::Optimal, Opponent::Random] {
            assert_eq!(
                score(&board, opponent, &mut rng),
                0,
                "{opponent:?}:\n{}",
                board.text()
            );
        }
        played += 1;
    }
}

/// A 4-position board (owners 1 2 1 2, values 1 3 4 2): player 1 goes to 3, then to 4,
/// where player 2 can only go back to 1 — 4 against 0.
#[test]
fn score_small_board_and_its_refusals() {
    let board = "4\n0 1 1 0\n1 0 0 1\n0 0 0 1\n1 0 0 0\n1 2 1 2\n1 3 4 2\n";
    let mut c = Contestant::start("ioi2001-score", board);
    assert_eq!(c.read(), "3");
    assert_eq!(c.read(), "4");
    c.write("2");
    let (code, _, err) = c.finish();
    assert_ne!(code, Some(0));
    assert!(err.contains("no arrow from position 4 to 2"), "{err}");

    let bad = "4\n0 1 1 0\n1 0 0 1\n0 0 0 1\n1 0 0 0\n1 2 1 2\n1 3 4 7\n";
    let (code, out, err) = Contestant::start("ioi2001-score", bad).finish();
    assert_ne!(code, Some(0));
    assert!(out.is_empty());
    assert!(
        err.contains("line 7, column 7") && err.contains("at most 4"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// POI 1999 "Polygons" and malformed inputs
// ---------------------------------------------------------------------------------------

#[test]
fn polygon_answers_and_refusals() {
    let answer = |input: &str| {
        let mut c = Contestant::start("poi1999-polygon", input);
        let line = c.read();
        let (code, rest, err) = c.finish();
        assert_eq!(code, Some(0), "{err}");
        assert!(rest.is_empty());
        line
    };
    // A hexagon around a black centre triangle: four triangles, even: the first wins.
    assert_eq!(answer("6\n0 2 4\n0 1 2\n2 3 4\n4 5 0\n"), "TAK");
    // A pentagon, black in the middle of a fan: three triangles, and it cannot be cut.
    assert_eq!(answer("5\n0 2 3\n0 1 2\n0 3 4\n"), "NIE");
    // The same pentagon with a black ear: cut at once.
    assert_eq!(answer("5\n0 1 2\n0 2 3\n0 3 4\n"), "TAK");
    let (code, _, err) = Contestant::start("poi1999-polygon", "5\n0 1 2\n0 2 9\n0 3 4\n").finish();
    assert_ne!(code, Some(0));
    assert!(err.contains("line 3, column 5"), "{err}");
    let (code, _, err) = Contestant::start("poi1999-polygon", "5\n0 1 2\n1 3 4\n0 3 4\n").finish();
    assert_ne!(code, Some(0));
    assert!(
        err.contains("belongs to") && err.contains("triangle"),
        "{err}"
    );
}

#[test]
fn malformed_inputs_and_illegal_moves_are_refused() {
    let (code, out, err) = Contestant::start("ioi2001-ioiwari", "4 3 2 x 2 3 2\n").finish();
    assert_ne!(code, Some(0));
    assert!(out.is_empty());
    assert!(err.contains("line 1, column 7"), "{err}");

    let (code, _, err) = Contestant::start("ioi1996-game", "3\n1 2\n").finish();
    assert_ne!(code, Some(0));
    assert!(err.contains("end of the input"), "{err}");

    // The opponent plays an empty pit.
    let mut c = Contestant::start("ioi2001-ioiwari", "4 3 2 4 2 3 2\n");
    let first: usize = c.read().parse().unwrap();
    c.write(&first.to_string());
    let (code, _, err) = c.finish();
    assert_ne!(code, Some(0));
    assert!(err.contains(&format!("pit {first} is empty")), "{err}");

    let (code, _, err) = Contestant::start("ioi2001-nothing", "").finish();
    assert_ne!(code, Some(0));
    assert!(err.contains("known: ioi1996-game"), "{err}");
}
