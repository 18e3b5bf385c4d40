//! Misère play of impartial games: the player who cannot move **wins**.
//!
//! Misère play changes one rule of the general method, the value of a position without
//! moves, and nothing else: [`Misere`] wraps any [`Game`] and declares such a position a
//! win for the player to move ([`Game::terminal`]), so that exploring and labelling (the
//! one retrograde engine) give misère outcomes and remoteness unchanged. A sum is explored
//! whole: misère sums do not follow Grundy values.
//!
//! Misère Nim has a rule at every size (Bouton, 1902): [`nim_loses`] and
//! [`nim_winning_moves`].
//!
//! The special method of misère play, misère quotients (Plambeck and Siegel, "Misère
//! quotients for impartial games", 2008; Siegel's MisereSolver), is `pattern::misere`: the
//! bipartite monoid of the sums of heaps up to `n` of a take-and-break game, so that any
//! such sum is classified in O(heaps). Its figures, reproduced by its tests: misère Nim's
//! quotient is the tame `T2 = ⟨a, b | a² = 1, b³ = b⟩`, P-portion `{a, b²}` — order 2
//! with heaps ≤ 1, 6 with heaps ≤ 2 or 3; Dawson's Kayles (0.07) over heaps up to 30 has
//! order 360 (Siegel, answering questions on MisereSolver, miseregames.wordpress.com,
//! 28 August 2007: "Q_30(0.07) has size 360"; an ignored test, a minute in release).
//! `solve --misere` does not use it: sums are explored whole, or refused.

use crate::game::{Game, Outcome, Player};

/// The play convention: who wins when the player to move has no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Play {
    /// Normal play: the player who cannot move loses.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "normal"))]
    Normal,
    /// Misère play: the player who cannot move wins.
    #[cfg_attr(feature = "serde", serde(rename = "misère"))]
    Misere,
}

impl Play {
    /// Whether this is normal play.
    #[must_use]
    pub fn is_normal(&self) -> bool {
        *self == Play::Normal
    }

    /// The word used in output: `normal`, `misère`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misère",
        }
    }
}

/// A game under misère play: its moves, and a position without moves won by the player
/// to move (a position whose outcome the game itself declares keeps it). Everything
/// that labels a [`Game`] labels this one: the retrograde engine's remoteness is then
/// the misère remoteness (a position without moves is won in 0 moves).
#[derive(Debug, Clone)]
pub struct Misere<G>(pub G);

impl<G: Game> Game for Misere<G> {
    type Position = G::Position;

    fn moves(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        self.0.moves(pos, out);
    }

    fn terminal(&self, pos: &G::Position) -> Option<Outcome> {
        self.0
            .terminal(pos)
            .or_else(|| (!self.0.has_move(pos)).then_some(Outcome::Win))
    }

    fn to_move(&self, pos: &G::Position) -> Player {
        self.0.to_move(pos)
    }

    fn has_move(&self, pos: &G::Position) -> bool {
        self.0.has_move(pos)
    }

    fn canonical(&self, pos: &G::Position) -> G::Position {
        self.0.canonical(pos)
    }

    fn alternates(&self) -> bool {
        self.0.alternates()
    }
}

/// Bouton's rule of misère Nim: whether the player to move at `heaps` loses. When every
/// heap is 0 or 1, the player to move loses iff the heaps of 1 are odd in number;
/// otherwise iff the nim-sum is 0 — as in normal play.
#[must_use]
pub fn nim_loses(heaps: &[u64]) -> bool {
    if heaps.iter().all(|&h| h <= 1) {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
    } else {
        heaps.iter().fold(0, |a, &h| a ^ h) == 0
    }
}

/// Every winning move of misère Nim from `heaps` by Bouton's rule, as (heap index, new
/// size), in heap order: every move to a position [`nim_loses`] says is lost. Each heap
/// has at most two (a heap that is the only one above 1 may be left at 0 or 1, and only
/// one of them wins), so this is O(heaps) without listing the moves.
#[must_use]
pub fn nim_winning_moves(heaps: &[u64]) -> Vec<(usize, u64)> {
    let big = heaps.iter().filter(|&&h| h > 1).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    let sum = heaps.iter().fold(0, |a, &h| a ^ h);
    let mut out = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        if h == 0 {
            continue;
        }
        if big == 0 || (big == 1 && h > 1) {
            // After the move every heap is 0 or 1: leave an odd number of 1s.
            let others = ones - usize::from(h == 1);
            let to = if others % 2 == 0 { 1 } else { 0 };
            if to < h {
                out.push((i, to));
            }
        } else {
            // A heap above 1 is left: the normal rule, nim-sum 0.
            let to = h ^ sum;
            if to < h {
                out.push((i, to));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Misère Nim by brute force: the player to move at `heaps` wins iff some move leads
    /// to a position the next player loses; no move: a win.
    fn brute_wins(heaps: &mut Vec<u64>) -> bool {
        let mut any = false;
        for i in 0..heaps.len() {
            let h = heaps[i];
            for to in 0..h {
                any = true;
                heaps[i] = to;
                let lost = !brute_wins(heaps);
                heaps[i] = h;
                if lost {
                    return true;
                }
            }
        }
        !any
    }

    #[test]
    fn bouton_misere_rule_agrees_with_brute_force() {
        for a in 0..6u64 {
            for b in 0..6 {
                for c in 0..5 {
                    let heaps = vec![a, b, c];
                    let wins = brute_wins(&mut heaps.clone());
                    assert_eq!(nim_loses(&heaps), !wins, "{heaps:?}");
                    let winning = nim_winning_moves(&heaps);
                    // (With no move at all the mover has won already, by no move.)
                    let over = heaps.iter().all(|&h| h == 0);
                    assert_eq!(winning.is_empty(), !wins || over, "{heaps:?}");
                    for i in 0..3 {
                        for to in 0..heaps[i] {
                            let mut next = heaps.clone();
                            next[i] = to;
                            let good = !brute_wins(&mut next.clone());
                            assert_eq!(winning.contains(&(i, to)), good, "{heaps:?} → {next:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn misere_nim_small_figures() {
        // One heap of 1: the mover must take it and loses (the last to move loses).
        assert!(nim_loses(&[1]));
        assert!(!nim_loses(&[]));
        assert!(!nim_loses(&[2]));
        assert!(nim_loses(&[1, 1, 1]));
        assert!(nim_loses(&[2, 2]));
        assert_eq!(nim_winning_moves(&[5]), vec![(0, 1)]);
        assert_eq!(nim_winning_moves(&[1, 1]), vec![(0, 0), (1, 0)]);
        assert_eq!(nim_winning_moves(&[3, 1]), vec![(0, 0)]);
        // "Analysis of Misère Nim?" (a MathOverflow question, answered with misère Nim's
        // quotient): (5, 5) and (4, 5, 1) are second-player wins, (3, 4, 1) a first-player
        // win.
        assert!(nim_loses(&[5, 5]));
        assert!(nim_loses(&[4, 5, 1]));
        assert!(!nim_loses(&[3, 4, 1]));
        // 3-5-7, the same question's game: a first-player win.
        assert!(!nim_loses(&[3, 5, 7]));
    }
}
