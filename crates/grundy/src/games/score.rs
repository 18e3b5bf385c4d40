//! IOI 2001 "Score": a token on a directed graph of N positions, each owned by player 1 or
//! 2 and holding a distinct value 1..N. The token starts on position 1 and both scores on
//! 0. At the token's position C, if C's value exceeds its owner's score it becomes that
//! score; then C's owner moves the token along an arrow — so one player may move several
//! times in a row. The game ends when the token is back on position 1; the higher score
//! wins. Every position has an arrow out, every position can be reached from 1, and
//! every cycle passes through 1, so every play ends.
//!
//! The board is too large for the spec language (N ≤ 1000, up to N² arrows): it is read
//! from the task's own input ([`Board::parse`]) and the family is built from it. The
//! position is `(C, s1, s2)`: the token's position and the two scores before C is
//! scored. It is solved by the general method with the model's own-turn moves — the
//! owner of C moves ([`GameRules::to_move`], [`GameRules::keeps_turn`]) — and declared
//! terminal outcomes at the return to 1.
//!
//! Two positions with the same token and the same larger score (held by the same
//! player) have the same future: every later score is a value of a later position, the
//! winner is the owner of the largest value scored, and the smaller score can never
//! decide. So [`GameRules::canonical`] keeps only the larger score, and the positions are
//! ranked densely as `(C, largest score)` — N·(N + 1) + N ranks, every move to a smaller
//! one (the larger score never falls, and with it unchanged the token moves forward in a
//! topological order of the board without position 1) — so the one descending pass of
//! the general method labels them with 4 bytes a rank and no graph kept.

use std::sync::Arc;

use super::family::{
    Bound, Drawing, Figure, GameRules, Grundy, Indexing, Kind, Patterns, Pos, Ranked, Scores,
    Searching,
};
use super::words::{Misread, Words};
use crate::game::{Outcome, Player};

/// The most positions a board may have.
pub const MAX_POSITIONS: usize = 5000;

/// Why a board could not be read: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct BoardError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong.
    pub message: String,
}

/// A board: arrows, owners, values. Positions are 0-based here, 1-based in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Arrows out of each position, as CSR: `targets[offsets[c]..offsets[c + 1]]`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// The owner of each position.
    owners: Vec<Player>,
    /// The value of each position, 1..=N.
    values: Vec<u32>,
    /// The position of each value (`at_value[v]`, v in 1..=N).
    at_value: Vec<u32>,
    /// Each position's place in a topological order of the board without position 1
    /// (position 1 first).
    order: Vec<u32>,
    /// The position at each place of that order.
    by_order: Vec<u32>,
}

impl From<Misread> for BoardError {
    fn from(e: Misread) -> Self {
        BoardError {
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

impl Board {
    /// Reads the task's input: N, the N×N 0/1 arrow matrix (row i: the arrows out of
    /// position i), the N owners (1 or 2), the N values (1..N, each once), all separated
    /// by whitespace. The board must be one the task allows: every position has an arrow
    /// out, every position is reachable from 1, and every cycle passes through 1.
    ///
    /// # Errors
    /// A [`BoardError`] at the line and column of what is wrong.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut t = Words::new(text);
        let (n, _, _) = t.number("the number of positions N", MAX_POSITIONS as u64)?;
        let n = n as usize;
        if n == 0 {
            return Err(BoardError {
                line: 1,
                column: 1,
                message: "a board needs at least one position".into(),
            });
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::new();
        offsets.push(0u32);
        for i in 0..n {
            let (mut line, mut column) = (0, 0);
            for j in 0..n {
                let (bit, l, c) = t.number("an arrow (0 or 1)", 1)?;
                if j == 0 {
                    (line, column) = (l, c);
                }
                if bit == 1 {
                    targets.push(j as u32);
                }
            }
            if targets.len() == offsets[i] as usize {
                return Err(BoardError {
                    line,
                    column,
                    message: format!("position {} has no arrow out", i + 1),
                });
            }
            offsets.push(targets.len() as u32);
        }
        let mut owners = Vec::with_capacity(n);
        for _ in 0..n {
            let (o, l, c) = t.number("an owner (1 or 2)", 2)?;
            owners.push(match o {
                1 => Player::First,
                2 => Player::Second,
                _ => {
                    return Err(BoardError {
                        line: l,
                        column: c,
                        message: "an owner is 1 or 2, found 0".into(),
                    })
                }
            });
        }
        let mut values = Vec::with_capacity(n);
        let mut at_value = vec![u32::MAX; n + 1];
        for i in 0..n {
            let (v, l, c) = t.number("a value", n as u64)?;
            let here = |message: String| BoardError {
                line: l,
                column: c,
                message,
            };
            if v == 0 {
                return Err(here("values are 1 to N, found 0".into()));
            }
            if at_value[v as usize] != u32::MAX {
                return Err(here(format!(
                    "value {v} is given twice (positions {} and {})",
                    at_value[v as usize] + 1,
                    i + 1
                )));
            }
            at_value[v as usize] = i as u32;
            values.push(v as u32);
        }
        t.end("the values")?;
        let order = check_shape(n, &offsets, &targets).map_err(|message| BoardError {
            line: 1,
            column: 1,
            message,
        })?;
        let mut by_order = vec![0u32; n];
        for (c, &o) in order.iter().enumerate() {
            by_order[o as usize] = c as u32;
        }
        Ok(Board {
            offsets,
            targets,
            owners,
            values,
            at_value,
            order,
            by_order,
        })
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.owners.len()
    }

    /// Whether the board is empty (never: a board has a position).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }

    /// The arrows out of position `c` (0-based).
    #[must_use]
    pub fn arrows(&self, c: usize) -> &[u32] {
        &self.targets[self.offsets[c] as usize..self.offsets[c + 1] as usize]
    }

    /// The owner of position `c`.
    #[must_use]
    pub fn owner(&self, c: usize) -> Player {
        self.owners[c]
    }

    /// The value of position `c`.
    #[must_use]
    pub fn value(&self, c: usize) -> u32 {
        self.values[c]
    }

    /// The number of arrows.
    #[must_use]
    pub fn arrow_count(&self) -> usize {
        self.targets.len()
    }
}

/// Checks that every position is reachable from position 1 and that every cycle passes
/// through it; returns each position's place in a topological order of the board without
/// position 1 (position 1 first).
fn check_shape(n: usize, offsets: &[u32], targets: &[u32]) -> Result<Vec<u32>, String> {
    let arrows = |c: usize| &targets[offsets[c] as usize..offsets[c + 1] as usize];
    // Reachability from 1.
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(c) = stack.pop() {
        for &d in arrows(c) {
            if !seen[d as usize] {
                seen[d as usize] = true;
                stack.push(d as usize);
            }
        }
    }
    if let Some(c) = seen.iter().position(|&s| !s) {
        return Err(format!(
            "position {} cannot be reached from position 1",
            c + 1
        ));
    }
    // Kahn's order of the board with the arrows into 1 left out.
    let mut indegree = vec![0u32; n];
    for c in 0..n {
        for &d in arrows(c) {
            if d != 0 {
                indegree[d as usize] += 1;
            }
        }
    }
    let mut order = vec![u32::MAX; n];
    let mut queue: Vec<usize> = (0..n).filter(|&c| indegree[c] == 0).collect();
    if queue.first() != Some(&0) {
        // Only position 1 has no arrow in once the arrows into it are left out (every
        // other position is reached from it).
        queue.retain(|&c| c != 0);
        queue.insert(0, 0);
    }
    let mut next = 0;
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        order[c] = next;
        next += 1;
        for &d in arrows(c) {
            if d != 0 {
                indegree[d as usize] -= 1;
                if indegree[d as usize] == 0 {
                    queue.push(d as usize);
                }
            }
        }
    }
    if let Some(c) = order.iter().position(|&o| o == u32::MAX) {
        return Err(format!(
            "position {} lies on a cycle that does not pass through position 1, so a play could go on for ever",
            c + 1
        ));
    }
    Ok(order)
}

/// The family of one board; a position is `[C, s1, s2]` (C 0-based).
#[derive(Debug, Clone)]
pub struct ScoreBoard {
    board: Arc<Board>,
}

impl ScoreBoard {
    /// The family of `board`.
    #[must_use]
    pub fn new(board: Board) -> ScoreBoard {
        ScoreBoard {
            board: Arc::new(board),
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start: the token on position 1, both scores 0.
    #[must_use]
    pub fn start(&self) -> Pos {
        Pos::from_slice(&[0, 0, 0])
    }

    /// The position after the token moves from `pos` to position `d` (0-based): `pos`'s
    /// position scored for its owner, the token on `d`.
    #[must_use]
    pub fn after(&self, pos: &Pos, d: usize) -> Pos {
        let c = pos[0] as usize;
        let mut next = Pos::from_slice(&[d as u64, pos[1], pos[2]]);
        let slot = 1 + self.board.owner(c).index();
        next[slot] = next[slot].max(u64::from(self.board.value(c)));
        next
    }

    /// A position as [`GameRules::write_position`] writes it, `C,s1,s2` (C from 1): each
    /// score 0 or the value of a position of its player's, as play makes them.
    fn read(&self, text: &str) -> Result<Pos, String> {
        let b = &self.board;
        let n = b.len();
        let items: Vec<&str> = text.split(',').map(str::trim).collect();
        let [c, s1, s2] = items[..] else {
            return Err(format!(
                "a position of a Score board is `C,s1,s2` (the token's position, then both scores), found {} items",
                items.len()
            ));
        };
        let number = |word: &str, what: &str, max: usize| {
            word.parse::<usize>()
                .ok()
                .filter(|&v| v <= max)
                .ok_or_else(|| {
                    let cut: String = word.chars().take(20).collect();
                    format!("{what} is 0 to {max}, found `{}`", cut.escape_debug())
                })
        };
        let c = number(c, "the token's position", n)
            .ok()
            .filter(|&c| c > 0)
            .ok_or_else(|| {
                let cut: String = c.chars().take(20).collect();
                format!(
                    "the token's position is 1 to {n}, found `{}`",
                    cut.escape_debug()
                )
            })?;
        let mut pos = Pos::from_slice(&[c as u64 - 1, 0, 0]);
        for (player, word) in [(Player::First, s1), (Player::Second, s2)] {
            let s = number(word, "a score", n)?;
            if s > 0 && b.owner(b.at_value[s] as usize) != player {
                return Err(format!(
                    "player {}'s score cannot be {s}: that is the value of position {}, player {}'s",
                    player.index() + 1,
                    b.at_value[s] + 1,
                    2 - player.index()
                ));
            }
            pos[1 + player.index()] = s as u64;
        }
        Ok(pos)
    }

    /// The winner of a finished game with these scores.
    fn winner(s1: u64, s2: u64) -> Player {
        if s1 > s2 {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl GameRules for ScoreBoard {
    fn name(&self) -> String {
        "score-board".into()
    }

    fn kind(&self) -> Kind {
        Kind::Partizan
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        out.push_str(&format!("{},{},{}", pos[0] + 1, pos[1], pos[2]));
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let c = pos[0] as usize;
        out.extend(
            self.board
                .arrows(c)
                .iter()
                .map(|&d| self.after(pos, d as usize)),
        );
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        let (s1, s2) = (pos[1], pos[2]);
        if s1 >= s2 {
            Pos::from_slice(&[pos[0], s1, 0])
        } else {
            Pos::from_slice(&[pos[0], 0, s2])
        }
    }

    fn to_move(&self, pos: &Pos) -> Player {
        self.board.owner(pos[0] as usize)
    }

    fn keeps_turn(&self) -> bool {
        true
    }

    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        (pos[0] == 0 && pos[1].max(pos[2]) > 0).then(|| {
            if ScoreBoard::winner(pos[1], pos[2]) == self.to_move(pos) {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        })
    }

    fn bound(&self, _pos: &Pos) -> Bound {
        let n = self.board.len() as u128;
        Bound {
            positions: n * (n + 1) + n,
            moves: n,
        }
    }

    fn is_move(&self, from: &Pos, to: &Pos) -> bool {
        self.terminal(from).is_none()
            && self
                .board
                .arrows(from[0] as usize)
                .contains(&(to[0] as u32))
            && self.canonical(&self.after(from, to[0] as usize)) == self.canonical(to)
    }

    fn read_position(&self, text: &str) -> Option<Result<Pos, String>> {
        Some(self.read(text))
    }
}

impl Drawing for ScoreBoard {
    fn move_name(&self, _from: &Pos, to: &Pos) -> String {
        format!("to {}", to[0] + 1)
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        said == (to[0] + 1).to_string() || said == super::family::squash(&self.move_name(from, to))
    }

    fn figure(&self, pos: &Pos) -> Option<Figure> {
        let b = &self.board;
        let n = b.len();
        let owner = |p: Player| p.index() as u8 + 1;
        Some(Figure::Graph {
            names: (1..=n).map(|c| c.to_string()).collect(),
            owners: (0..n).map(|c| owner(b.owner(c))).collect(),
            labels: (0..n).map(|c| b.value(c).to_string()).collect(),
            arrows: (0..n)
                .flat_map(|c| b.arrows(c).iter().map(move |&d| [c as u32, d]))
                .collect(),
            start: 0,
            token: pos[0] as u32,
            scores: [pos[1], pos[2]],
            to_move: owner(b.owner(pos[0] as usize)),
        })
    }

    fn move_part(&self, _from: &Pos, to: &Pos) -> Option<u32> {
        Some(to[0] as u32)
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let c = pos[0] as usize;
        let arrows: Vec<String> = self
            .board
            .arrows(c)
            .iter()
            .map(|d| (d + 1).to_string())
            .collect();
        Some(format!(
            "token on {} (player {}'s, value {}); scores {} and {}; arrows to {}",
            c + 1,
            self.board.owner(c).index() + 1,
            self.board.value(c),
            pos[1],
            pos[2],
            arrows.join(" ")
        ))
    }
}

impl Scores for ScoreBoard {}

impl Indexing for ScoreBoard {
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        Some(Box::new(ScoreRanks { board: &self.board }))
    }
}

impl Searching for ScoreBoard {}

impl Patterns for ScoreBoard {}

impl Grundy for ScoreBoard {}

/// The dense ranks of a board's positions (see the module's documentation).
struct ScoreRanks<'a> {
    board: &'a Board,
}

impl ScoreRanks<'_> {
    fn n(&self) -> u64 {
        self.board.len() as u64
    }

    /// `(C, largest score)` → rank.
    fn rank_of(&self, c: usize, largest: u64) -> u64 {
        let n = self.n();
        if c == 0 && largest > 0 {
            n - largest
        } else {
            n + (n - largest) * n + (n - 1 - u64::from(self.board.order[c]))
        }
    }
}

impl Ranked for ScoreRanks<'_> {
    fn size(&self) -> u64 {
        let n = self.n();
        n + (n + 1) * n
    }

    fn rank(&self, pos: &Pos) -> u64 {
        self.rank_of(pos[0] as usize, pos[1].max(pos[2]))
    }

    fn unrank(&self, rank: u64) -> Pos {
        let n = self.n();
        let (c, largest) = if rank < n {
            (0, n - rank)
        } else {
            let r = rank - n;
            let order = n - 1 - r % n;
            (self.board.by_order[order as usize] as usize, n - r / n)
        };
        let mut pos = Pos::from_slice(&[c as u64, 0, 0]);
        if largest > 0 {
            let holder = self.board.at_value[largest as usize] as usize;
            pos[1 + self.board.owner(holder).index()] = largest;
        }
        pos
    }

    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let n = self.n();
        if rank < n {
            return;
        }
        let r = rank - n;
        let c = self.board.by_order[(n - 1 - r % n) as usize] as usize;
        let largest = n - r / n;
        let scored = largest.max(u64::from(self.board.value(c)));
        out.extend(
            self.board
                .arrows(c)
                .iter()
                .map(|&d| self.rank_of(d as usize, scored)),
        );
    }

    fn terminal(&self, rank: u64) -> Option<Outcome> {
        let n = self.n();
        (rank < n).then(|| {
            let largest = n - rank;
            let holder = self.board.at_value[largest as usize] as usize;
            if self.board.owner(holder) == self.board.owner(0) {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        })
    }

    fn descending(&self) -> bool {
        true
    }
}
