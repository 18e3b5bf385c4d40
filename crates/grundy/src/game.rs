//! The model: what a game is ([`Game`], [`ImpartialGame`], [`ScoreGame`]), who moves
//! ([`Player`], [`ByPlayer`]) and what a position is worth ([`Outcome`], [`Value`]).
//!
//! Values are always *for the player to move* and negate from child to parent, as
//! shakmaty-syzygy's `Wdl`: if the position after a move is a loss (for the player then to
//! move), the move wins. Score games value a position by its margin, and a move by
//! [`Step::value`]; every solver picks a position's move by [`Best`].

use std::fmt;
use std::hash::Hash;
use std::ops::{Add, Sub};

/// One of the two players. `First` is the player to move in the starting position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first (Left, Ann, player 0).
    First,
    /// The other player (Right, Billy, player 1).
    Second,
}

impl Player {
    /// The opponent.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for [`Player::First`], 1 for [`Player::Second`].
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The player a position's turn word names: [`Player::First`] for 0, else
    /// [`Player::Second`] (the inverse of [`Player::index`]).
    #[must_use]
    pub fn from_index(turn: u64) -> Player {
        if turn == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// A value for each player, indexed by [`Player`] rather than by a raw number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByPlayer<T> {
    /// The first player's value.
    pub first: T,
    /// The second player's value.
    pub second: T,
}

impl<T> ByPlayer<T> {
    /// The value of `player`.
    pub fn get(&self, player: Player) -> &T {
        match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }

    /// The value of `player`, mutably.
    pub fn get_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::First => &mut self.first,
            Player::Second => &mut self.second,
        }
    }
}

/// Serialises each type named as its word, `as_str`: what its JSON says and what its text
/// says are one word, written once.
macro_rules! serialize_as_str {
    ($($t:ty),*) => {$(
        #[cfg(feature = "serde")]
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    )*};
}
pub(crate) use serialize_as_str;

/// The game-theoretic outcome of a position for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The player to move loses against best play.
    Loss,
    /// Neither player can force a win (only possible with cycles or declared draws).
    Draw,
    /// The player to move wins against best play.
    Win,
}

impl Outcome {
    /// The outcome for the other player: win ↔ loss, draw stays draw.
    #[must_use]
    pub fn negate(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// The outcome of a score game for the player whose final margin this is: ahead
    /// wins, behind loses, level is a draw.
    #[must_use]
    pub fn of_margin(margin: i128) -> Outcome {
        match margin.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// The lowercase word used in text and JSON output: `win`, `loss`, `draw`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }
}

serialize_as_str!(Outcome);

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An outcome with its remoteness: the number of moves to the end when the winner hurries
/// and the loser delays. Draws have no remoteness.
///
/// | value | meaning (for the player to move) |
/// | --- | --- |
/// | `Win(r)` | wins; the game ends after `r` more moves (odd) |
/// | `Loss(r)` | loses; the game ends after `r` more moves (even; `Loss(0)` has no move) |
/// | `Draw` | neither side can force a win |
///
/// `-Win(r) = Loss(r)`: the value of a position, seen from the parent, is the negation of
/// the child's with one more move ([`Value::parent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins in this many moves.
    Win(u32),
    /// The player to move loses in this many moves.
    Loss(u32),
    /// Neither player can force a win.
    Draw,
}

impl Value {
    /// The outcome without the remoteness.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Win(_) => Outcome::Win,
            Value::Loss(_) => Outcome::Loss,
            Value::Draw => Outcome::Draw,
        }
    }

    /// The remoteness, `None` for a draw.
    #[must_use]
    pub fn remoteness(self) -> Option<u32> {
        match self {
            Value::Win(r) | Value::Loss(r) => Some(r),
            Value::Draw => None,
        }
    }

    /// The value of a move into a position of value `self`, seen by the mover.
    #[must_use]
    pub fn parent(self) -> Value {
        match self {
            Value::Win(r) => Value::Loss(r + 1),
            Value::Loss(r) => Value::Win(r + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The value of a move into a position of value `self`, seen by the mover: negated
    /// with one more move ([`Value::parent`]), or, when the move keeps the turn (`again`:
    /// the same player moves next), the same value one move further.
    #[must_use]
    pub fn through(self, again: bool) -> Value {
        if !again {
            return self.parent();
        }
        match self {
            Value::Win(r) => Value::Win(r + 1),
            Value::Loss(r) => Value::Loss(r + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The value of the position a move of value `self` (seen by its mover) leads to, for
    /// the player to move there: the inverse of [`Value::through`] with the same `again`.
    /// `None` for a win or loss in no moves, which no move has.
    #[must_use]
    pub fn after(self, again: bool) -> Option<Value> {
        Some(match (self, again) {
            (Value::Draw, _) => Value::Draw,
            (Value::Win(0) | Value::Loss(0), _) => return None,
            (Value::Win(r), false) => Value::Loss(r - 1),
            (Value::Loss(r), false) => Value::Win(r - 1),
            (Value::Win(r), true) => Value::Win(r - 1),
            (Value::Loss(r), true) => Value::Loss(r - 1),
        })
    }

    /// A total order by preference of the player to move: quick wins first, then draws,
    /// then slow losses. Higher is better.
    #[must_use]
    pub fn preference(self) -> i64 {
        match self {
            Value::Win(r) => i64::MAX - i64::from(r),
            Value::Draw => 0,
            Value::Loss(r) => i64::MIN + 1 + i64::from(r),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(r) => write!(f, "win in {r}"),
            Value::Loss(r) => write!(f, "loss in {r}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// A move of a score game as negamax values it: the points it takes for its mover (net
/// of any it puts in the opponent's total) and whether the mover moves again. The one rule
/// of score games: the margin through the move is `gain + child` when the turn is kept,
/// `gain − child` when it passes, the child's margin being for the player to move there.
///
/// `N` is the type of the margins: `i64` in the solvers, `i32` in the exact search's
/// inner loop ([`crate::search::exact::Step`]), `i128` where totals of `i64` points are
/// added up ([`ScoreGame::step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step<N = i64> {
    /// Whether the mover moves again.
    pub keeps: bool,
    /// The points the move takes, net of those it gives.
    pub gain: N,
}

impl<N: Margin> Step<N> {
    /// The move's margin for its mover from the child's margin for the player to move
    /// there.
    #[inline(always)]
    #[must_use]
    pub fn value(self, child: N) -> N {
        if self.keeps {
            self.gain + child
        } else {
            self.gain - child
        }
    }

    /// [`Step::value`], `None` when it leaves `N`.
    #[inline]
    #[must_use]
    pub fn checked_value(self, child: N) -> Option<N> {
        if self.keeps {
            self.gain.checked_add(child)
        } else {
            self.gain.checked_sub(child)
        }
    }
}

/// The integer types a score game's margins are counted in ([`Step`]).
pub trait Margin: Copy + Ord + Default + Add<Output = Self> + Sub<Output = Self> {
    /// `self + other`, `None` on overflow.
    fn checked_add(self, other: Self) -> Option<Self>;
    /// `self - other`, `None` on overflow.
    fn checked_sub(self, other: Self) -> Option<Self>;
}

macro_rules! margin {
    ($($t:ty),*) => {$(
        impl Margin for $t {
            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                <$t>::checked_add(self, other)
            }
            #[inline]
            fn checked_sub(self, other: Self) -> Option<Self> {
                <$t>::checked_sub(self, other)
            }
        }
    )*};
}
margin!(i32, i64, i128);

/// The best of a position's moves for its mover, offered one at a time: the greatest key
/// (a margin, or a [`Value::preference`]), the first of equal keys kept, with what goes
/// with it (the moves to the end along it, the move itself). Every solver chooses this
/// way, so the depth and best move they report are those of the first best move in the
/// order moves are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Best<K, T = ()>(Option<(K, T)>);

impl<K, T> Default for Best<K, T> {
    fn default() -> Self {
        Best(None)
    }
}

impl<K: PartialOrd + Copy, T> Best<K, T> {
    /// No move offered yet.
    #[must_use]
    pub fn new() -> Self {
        Best(None)
    }

    /// Offers a move worth `key` to the mover; it is kept if it is better than every move
    /// offered before.
    #[inline]
    pub fn offer(&mut self, key: K, with: T) {
        if self.0.as_ref().is_none_or(|(b, _)| key > *b) {
            self.0 = Some((key, with));
        }
    }

    /// The best key, `None` if no move was offered.
    #[must_use]
    pub fn key(&self) -> Option<K> {
        self.0.as_ref().map(|(k, _)| *k)
    }

    /// The best key and what goes with it, `None` if no move was offered.
    #[must_use]
    pub fn get(self) -> Option<(K, T)> {
        self.0
    }
}

/// A two-player game of perfect information, possibly partizan and possibly with cycles.
///
/// A position knows who is to move ([`Game::to_move`]); play alternates. Normal play is the
/// default: a position without moves is lost by the player to move. A game may instead
/// declare the outcome of a position with [`Game::terminal`]; such a position is not
/// expanded.
pub trait Game {
    /// A position, including whatever is needed to know who is to move.
    type Position: Clone + Eq + Hash + fmt::Debug;

    /// Appends the position after each legal move from `pos` to `out` (which the caller
    /// clears). Order is kept: it is the order moves are shown in.
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);

    /// The outcome of `pos` for the player to move if the game ends there by its own rule
    /// (not by lack of moves). `None` (the default) means: play on; no move ⇒ loss.
    fn terminal(&self, _pos: &Self::Position) -> Option<Outcome> {
        None
    }

    /// Who is to move in `pos`. Impartial games may leave the default.
    fn to_move(&self, _pos: &Self::Position) -> Player {
        Player::First
    }

    /// Whether `pos` has a legal move. The default lists the moves; a game that can say
    /// so without listing them (one move found) overrides it.
    fn has_move(&self, pos: &Self::Position) -> bool {
        let mut out = Vec::new();
        self.moves(pos, &mut out);
        !out.is_empty()
    }

    /// A canonical representative of `pos`'s equivalence class (same game tree), used to
    /// merge positions while exploring: for example heaps sorted in a Nim position. The
    /// default is the position itself.
    fn canonical(&self, pos: &Self::Position) -> Self::Position {
        pos.clone()
    }

    /// Whether every move passes the turn (the default). A game with moves that keep the
    /// turn (Kalah's free move, an extra turn after a box) returns `false`; then
    /// [`Game::to_move`] is authoritative, and the value of a child is negated only when
    /// the mover changes.
    fn alternates(&self) -> bool {
        true
    }
}

/// A game where both players have the same moves from every position: the
/// Sprague–Grundy theory applies. A marker: the moves are [`Game::moves`].
pub trait ImpartialGame: Game {}

/// A game whose players collect points: each move gives the mover [`ScoreGame::gain`], and
/// each player maximises the total they take (or, equivalently, the difference).
pub trait ScoreGame: Game {
    /// Points the mover collects by moving from `from` to `to`.
    fn gain(&self, from: &Self::Position, to: &Self::Position) -> i64;

    /// Points the player to move collects when the game ends at `pos` (default 0).
    fn final_gain(&self, _pos: &Self::Position) -> i64 {
        0
    }

    /// Points the move from `from` to `to` puts in the *opponent's* total (Ioiwari's last
    /// bead into an empty pit goes to the other bank); default 0.
    fn gift(&self, _from: &Self::Position, _to: &Self::Position) -> i64 {
        0
    }

    /// The move from `from` to `to` as negamax values it: its gain less its gift (in
    /// `i128`, so that no difference of `i64` points overflows), and whether the mover
    /// moves again.
    fn step(&self, from: &Self::Position, to: &Self::Position) -> Step<i128> {
        Step {
            keeps: !self.alternates() && self.to_move(to) == self.to_move(from),
            gain: i128::from(self.gain(from, to)) - i128::from(self.gift(from, to)),
        }
    }
}

/// A game whose positions can be numbered densely, so that exploration can index a table
/// by the number instead of hashing positions.
pub trait IndexedGame: Game {
    /// An upper bound (exclusive) on every [`IndexedGame::index`] of a reachable position.
    fn index_bound(&self) -> u64;
    /// The number of `pos` (of its canonical form), below [`IndexedGame::index_bound`].
    fn index(&self, pos: &Self::Position) -> u64;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_negates_the_child_unless_the_turn_is_kept() {
        let passed = Step {
            keeps: false,
            gain: 3i64,
        };
        let kept = Step {
            keeps: true,
            ..passed
        };
        assert_eq!((passed.value(5), kept.value(5)), (-2, 8));
        assert_eq!(passed.checked_value(i64::MIN), None);
        assert_eq!(kept.checked_value(i64::MAX), None);
        assert_eq!(kept.checked_value(-3), Some(0));
    }

    /// `after` undoes `through`, the turn passed or kept, and refuses what no move has.
    #[test]
    fn after_undoes_through() {
        for r in [0, 1, 2, 40] {
            for v in [Value::Win(r), Value::Loss(r), Value::Draw] {
                for again in [false, true] {
                    assert_eq!(v.through(again).after(again), Some(v), "{v} {again}");
                }
            }
        }
        assert_eq!(Value::Win(0).after(false), None);
        assert_eq!(Value::Loss(0).after(true), None);
        assert_eq!(Value::Win(3).after(false), Some(Value::Loss(2)));
    }

    #[test]
    fn the_best_is_the_greatest_key_and_the_first_of_equals() {
        let mut best = Best::new();
        assert_eq!(best.key(), None);
        for (key, at) in [(-1, 'a'), (4, 'b'), (2, 'c'), (4, 'd')] {
            best.offer(key, at);
        }
        assert_eq!(best.get(), Some((4, 'b')));
    }
}
