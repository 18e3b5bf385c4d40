//! A spec as one [`Game`]: a single part through its family, or the disjunctive sum of
//! impartial parts, so that the general method can explore it whole.

use super::family::{Family, Kind, Pos, Spec};
use crate::game::{Game, ImpartialGame, Outcome, Player, ScoreGame};
use crate::search::{Key, Keyed};
use crate::Error;

/// The game of a spec: its parts' rules; a position holds one [`Pos`] per part.
#[derive(Debug, Clone)]
pub struct SumGame {
    spec: Spec,
}

impl PartialEq for SumGame {
    fn eq(&self, other: &SumGame) -> bool {
        self.spec.parts.len() == other.spec.parts.len()
            && self
                .spec
                .parts
                .iter()
                .zip(&other.spec.parts)
                .all(|(a, b)| a.family.name() == b.family.name())
    }
}

impl SumGame {
    /// The game and starting position of a spec: one part of any kind, or a sum of
    /// impartial parts.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a sum with a part that is not impartial.
    pub fn new(spec: &Spec) -> Result<(SumGame, Vec<Pos>), Error> {
        if spec.parts.len() > 1 {
            if let Some(part) = spec.parts.iter().find(|p| !p.is_impartial()) {
                return Err(Error::Unsupported(format!(
                    "`{part}` is {}, not impartial: it can be solved alone, not as part of a sum",
                    match part.family.kind() {
                        Kind::Score => "a score game",
                        _ => "a partizan game",
                    }
                )));
            }
        }
        let position = spec.parts.iter().map(|p| p.position.clone()).collect();
        Ok((SumGame { spec: spec.clone() }, position))
    }

    /// The spec of a position.
    #[must_use]
    pub fn spec(&self, position: &[Pos]) -> Spec {
        Spec {
            parts: self
                .spec
                .parts
                .iter()
                .zip(position)
                .map(|(part, p)| part.with(p.clone()))
                .collect(),
        }
    }

    /// The family of part `i`.
    #[must_use]
    pub fn family(&self, i: usize) -> &dyn Family {
        &*self.spec.parts[i].family
    }

    /// The number of parts.
    #[must_use]
    pub fn len(&self) -> usize {
        self.spec.parts.len()
    }

    /// Whether there is no part.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.spec.parts.is_empty()
    }

    /// Whether one move turns `from` into `to`.
    #[must_use]
    pub fn is_move(&self, from: &[Pos], to: &[Pos]) -> bool {
        super::family::is_move(&self.spec(from), &self.spec(to))
    }

    /// Whether a move `from` → `to` keeps the turn (only single-part games have such
    /// moves).
    #[must_use]
    pub fn keeps_turn(&self, from: &[Pos], to: &[Pos]) -> bool {
        match (self.spec.parts.as_slice(), from, to) {
            ([part], [a], [b]) if part.family.keeps_turn() => {
                part.family.to_move(a) == part.family.to_move(b)
            }
            _ => false,
        }
    }
}

impl Game for SumGame {
    type Position = Vec<Pos>;

    fn moves(&self, position: &Vec<Pos>, out: &mut Vec<Vec<Pos>>) {
        let mut part_out = Vec::new();
        for (i, part) in self.spec.parts.iter().enumerate() {
            part_out.clear();
            part.family.moves(&position[i], &mut part_out);
            for p in part_out.drain(..) {
                let mut next = position.clone();
                next[i] = p;
                out.push(next);
            }
        }
    }

    fn canonical(&self, position: &Vec<Pos>) -> Vec<Pos> {
        self.spec
            .parts
            .iter()
            .zip(position)
            .map(|(part, p)| part.family.canonical(p))
            .collect()
    }

    fn terminal(&self, position: &Vec<Pos>) -> Option<Outcome> {
        match self.spec.parts.as_slice() {
            [part] => part.family.terminal(&position[0]),
            _ => None,
        }
    }

    /// One move of some part, found without listing them ([`super::GameRules::some_move`]).
    fn has_move(&self, position: &Vec<Pos>) -> bool {
        self.spec
            .parts
            .iter()
            .zip(position)
            .any(|(part, p)| part.family.some_move(p).is_some())
    }

    fn to_move(&self, position: &Vec<Pos>) -> Player {
        match self.spec.parts.as_slice() {
            [part] => part.family.to_move(&position[0]),
            _ => Player::First,
        }
    }

    /// A single part whose family has moves that keep the turn does not alternate:
    /// [`GameRules::to_move`](super::GameRules::to_move) then says who moves.
    fn alternates(&self) -> bool {
        !matches!(self.spec.parts.as_slice(), [part] if part.family.keeps_turn())
    }
}

impl ImpartialGame for SumGame {}

/// The proof search's view: a one-part position's key is its canonical words; a sum's,
/// each part's canonical words after their count.
impl Keyed for SumGame {
    fn key(&self, position: &Vec<Pos>) -> Key {
        match self.spec.parts.as_slice() {
            [part] => part.family.canonical(&position[0]),
            parts => {
                let mut key = Key::new();
                for (part, p) in parts.iter().zip(position) {
                    let words = part.family.canonical(p);
                    key.push(words.len() as u64);
                    key.extend_from_slice(&words);
                }
                key
            }
        }
    }

    fn priority(&self, from: &Vec<Pos>, to: &Vec<Pos>) -> i32 {
        (0..from.len().min(to.len()))
            .find(|&i| from[i] != to[i])
            .map_or(0, |i| {
                self.spec.parts[i].family.move_priority(&from[i], &to[i])
            })
    }
}

impl ScoreGame for SumGame {
    fn gain(&self, from: &Vec<Pos>, to: &Vec<Pos>) -> i64 {
        match self.spec.parts.as_slice() {
            [part] => part.family.gain(&from[0], &to[0]),
            _ => 0,
        }
    }

    fn gift(&self, from: &Vec<Pos>, to: &Vec<Pos>) -> i64 {
        match self.spec.parts.as_slice() {
            [part] => part.family.gift(&from[0], &to[0]),
            _ => 0,
        }
    }

    fn final_gain(&self, position: &Vec<Pos>) -> i64 {
        match self.spec.parts.as_slice() {
            [part] => part.family.final_gain(&position[0]),
            _ => 0,
        }
    }
}
