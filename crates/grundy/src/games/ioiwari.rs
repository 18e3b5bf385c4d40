//! IOI 2001 "Ioiwari": a mancala of seven pits in a ring, labelled 1..7 clockwise, and a
//! bank per player. A score game: the analyzer finds the final bank difference under best
//! play (minimax).
//!
//! A move empties a non-empty pit and walks clockwise from the next pit. While more than
//! one bead is in hand, a pit holding 5 gives one of its beads to the mover's bank (the
//! hand keeps its beads), any other pit receives one bead from the hand. The last bead: a
//! pit holding 1 to 4 goes with that bead into the mover's bank; a pit holding 0 or 5
//! sends the bead to the opponent's bank. The game ends when every pit is empty; the
//! larger bank wins (ties are possible).
//!
//! The position is the seven pits alone. The banks are not part of it: what is still to
//! be won from here — the margin the player to move can force over the rest of the game —
//! depends only on the pits, since both players have the same moves and a move's beads go
//! to "the mover" or "the opponent" whoever moves. Who is to move and what each bank holds
//! are kept by whoever plays the game (the match, the contest mode), and added to the
//! margin from here to give the final banks. For the same reason the ring may be rotated
//! freely: positions that are rotations of each other are merged
//! ([`GameRules::canonical`]), a seventh of the positions.

use super::family::{
    squash, Bound, Drawing, GameRules, Grundy, Indexing, Kind, Patterns, Pos, Scores, Searching,
};
use super::heap::write_list;
use super::spec::{Args, Built, Entry, Options, SpecError};

/// The pits in the ring.
pub const PITS: usize = 7;

/// The most beads a pit can hold: a pit holding 5 never receives one (it gives one while
/// beads remain in hand, and sends the last one away).
pub const MOST_IN_A_PIT: u64 = 5;

/// What one move does: the pits after it, the beads it banks for the mover and those it
/// sends to the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sowing {
    /// The pits after the move.
    pub pits: [u64; PITS],
    /// Beads into the mover's bank.
    pub mine: u64,
    /// Beads into the opponent's bank.
    pub theirs: u64,
}

/// Sows pit `i` (0-based) of `pits`; `None` if it is empty.
#[must_use]
pub fn sow(pits: &[u64; PITS], i: usize) -> Option<Sowing> {
    let mut p = *pits;
    let mut hand = p[i];
    if hand == 0 {
        return None;
    }
    p[i] = 0;
    let (mut j, mut mine, mut theirs) = (i, 0, 0);
    while hand > 0 {
        j = (j + 1) % PITS;
        if hand > 1 {
            if p[j] == MOST_IN_A_PIT {
                p[j] -= 1;
                mine += 1;
            } else {
                p[j] += 1;
                hand -= 1;
            }
        } else {
            if (1..=4).contains(&p[j]) {
                mine += p[j] + 1;
                p[j] = 0;
            } else {
                theirs += 1;
            }
            hand = 0;
        }
    }
    Some(Sowing {
        pits: p,
        mine,
        theirs,
    })
}

/// The family; a position is the seven pit counts, pit 1 first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ioiwari;

fn pits_of(pos: &Pos) -> [u64; PITS] {
    let mut p = [0; PITS];
    for (slot, &w) in p.iter_mut().zip(pos.iter()) {
        *slot = w;
    }
    p
}

/// The least rotation of the ring.
fn least_rotation(p: &[u64; PITS]) -> [u64; PITS] {
    let mut best = *p;
    for k in 1..PITS {
        let mut r = [0; PITS];
        for (j, slot) in r.iter_mut().enumerate() {
            *slot = p[(j + k) % PITS];
        }
        if r < best {
            best = r;
        }
    }
    best
}

impl Ioiwari {
    /// The sowing that turns `from` into `to` (up to rotation), and the pit emptied.
    /// Among reachable positions no two moves of one position lead to rotations of one
    /// another with different banks (checked by a test over every position reachable from
    /// every legal start), so this is the move's effect.
    fn sowing(&self, from: &Pos, to: &Pos) -> Option<(usize, Sowing)> {
        let p = pits_of(from);
        let target = least_rotation(&pits_of(to));
        let exact = pits_of(to);
        let all: Vec<(usize, Sowing)> = (0..PITS)
            .filter_map(|i| sow(&p, i).map(|s| (i, s)))
            .collect();
        all.iter()
            .find(|(_, s)| s.pits == exact)
            .or_else(|| all.iter().find(|(_, s)| least_rotation(&s.pits) == target))
            .copied()
    }

    /// Every legal start (2 to 4 beads a pit, 20 in all), one per class of rotations —
    /// as the greatest rotation, in decreasing order.
    #[must_use]
    pub fn starts() -> Vec<[u64; PITS]> {
        let mut out = Vec::new();
        let mut p = [2u64; PITS];
        loop {
            if p.iter().sum::<u64>() == 20 {
                let mut greatest = p;
                for k in 1..PITS {
                    let r: [u64; PITS] = std::array::from_fn(|j| p[(j + k) % PITS]);
                    greatest = greatest.max(r);
                }
                if greatest == p {
                    out.push(p);
                }
            }
            // The next of 3^7 assignments of 2..=4.
            let mut i = 0;
            while i < PITS && p[i] == 4 {
                p[i] = 2;
                i += 1;
            }
            if i == PITS {
                break;
            }
            p[i] += 1;
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        out
    }
}

impl GameRules for Ioiwari {
    fn name(&self) -> String {
        "ioiwari".into()
    }

    fn kind(&self) -> Kind {
        Kind::Score
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        write_list(pos, out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let p = pits_of(pos);
        out.extend((0..PITS).filter_map(|i| sow(&p, i).map(|s| Pos::from_slice(&s.pits))));
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        Pos::from_slice(&least_rotation(&pits_of(pos)))
    }

    fn bound(&self, pos: &Pos) -> Bound {
        // Each pit holds 0..=5; the beads on the board never increase.
        let beads: u64 = pos.iter().sum();
        let mut count = 0u128;
        let mut ways = vec![0u128; beads as usize + 1];
        ways[0] = 1;
        for _ in 0..PITS {
            let mut next = vec![0u128; beads as usize + 1];
            for (s, &w) in ways.iter().enumerate() {
                for add in 0..=MOST_IN_A_PIT as usize {
                    if s + add <= beads as usize {
                        next[s + add] += w;
                    }
                }
            }
            ways = next;
        }
        for w in ways {
            count += w;
        }
        Bound {
            positions: count,
            moves: PITS as u128,
        }
    }
}

impl Drawing for Ioiwari {
    /// The seven pits in a row, pit 1 on the left, each with its beads (the banks are
    /// the points taken, kept by the match).
    fn picture(&self, pos: &Pos) -> Option<super::family::Picture> {
        Some(super::family::Picture {
            rows: 1,
            columns: PITS as u32,
            cells: pits_of(pos).iter().map(u64::to_string).collect(),
            look: super::family::Look::Pits,
        })
    }

    /// The pit emptied.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.sowing(from, to).map(|(i, _)| (0, i as u32))
    }

    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match self.sowing(from, to) {
            Some((i, _)) => format!("pit {}", i + 1),
            None => "no move".into(),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = squash(text);
        match self.sowing(from, to) {
            Some((i, _)) => {
                let label = (i + 1).to_string();
                said == format!("pit{label}") || said == format!("p{label}")
            }
            None => false,
        }
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let p = pits_of(pos);
        let cells: Vec<String> = p.iter().map(ToString::to_string).collect();
        Some(format!("pit   1 2 3 4 5 6 7\nbeads {}", cells.join(" ")))
    }
}

impl Scores for Ioiwari {
    fn gain(&self, from: &Pos, to: &Pos) -> i64 {
        self.sowing(from, to).map_or(0, |(_, s)| s.mine as i64)
    }

    fn gift(&self, from: &Pos, to: &Pos) -> i64 {
        self.sowing(from, to).map_or(0, |(_, s)| s.theirs as i64)
    }
}

impl Indexing for Ioiwari {}

impl Searching for Ioiwari {}

impl Patterns for Ioiwari {}

impl Grundy for Ioiwari {}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    let position = match args.position() {
        None => None,
        Some(items) => {
            args.arity(items, &[PITS], "ioiwari(4,3,2,4,2,3,2)")?;
            let mut pits = Pos::new();
            for p in items {
                let beads = args.natural(p, "a pit")?;
                if beads > MOST_IN_A_PIT {
                    return Err(args.error_at(
                        p.at(),
                        format!("a pit holds at most {MOST_IN_A_PIT} beads, not {beads}"),
                    ));
                }
                pits.push(beads);
            }
            Some(pits)
        }
    };
    Ok(Built::new(Ioiwari, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "ioiwari",
    examples: &["ioiwari(4,3,2,4,2,3,2)"],
    small: &["ioiwari(1,0,2,1,0,1,1)"],
    shape: "ioiwari(p1,…,p7): IOI 2001 mancala, seven pits in a ring and two banks; score = beads banked",
    build,
    options: Options::NONE,
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sowing_by_the_rules() {
        // Pit 1 of 4 3 2 4 2 3 2: three beads into pits 2, 3, 4; the last lands on pit 5
        // (2 beads): those and it go to the bank.
        let s = sow(&[4, 3, 2, 4, 2, 3, 2], 0).unwrap();
        assert_eq!(s.pits, [0, 4, 3, 5, 0, 3, 2]);
        assert_eq!((s.mine, s.theirs), (3, 0));
        // A pit of 5 on the way gives a bead to the bank, the hand keeps its beads; the
        // last bead on an empty pit goes to the opponent.
        let s = sow(&[2, 5, 0, 0, 0, 0, 0], 0).unwrap();
        assert_eq!(s.pits, [0, 4, 1, 0, 0, 0, 0]);
        assert_eq!((s.mine, s.theirs), (1, 1));
        assert!(sow(&[0, 1, 0, 0, 0, 0, 0], 0).is_none());
    }

    #[test]
    fn fifty_one_starts_up_to_rotation() {
        let starts = Ioiwari::starts();
        assert_eq!(starts.len(), 51);
        assert!(starts.iter().all(|s| s.iter().sum::<u64>() == 20));
    }
}
