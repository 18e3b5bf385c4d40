//! A worker's positions of a tier with moves inside it, kept for the in-tier rounds in
//! as few bytes as those rounds read: a win/loss position's moves out of the tier folded
//! into 6 bytes (the library's [`Outside`] takes 40), its count of moves inside in 4, and
//! each move inside as its child's rank in 4 (8 past 2^32 ranks) where the library's
//! [`grundy::tier::solve::Pending`] keeps 16 bytes a move and 16 a position besides. The
//! positions are numbered by their places ([`Asked`]), so no rank is kept for them.
//!
//! A batch of solving keeps its positions in a [`Batch`] (with their places, in order);
//! the tier's [`Waiting`] takes the batches' positions merged in order of place.

use grundy::game::Best;
use grundy::tier::solve::Outside;

use crate::asked::Asked;

/// A win/loss position's moves out of its tier, folded as [`Outside`] folds them, in 6
/// bytes: the quickest loss and the slowest win among the children (each a remoteness
/// plus one, 0 for none: a record's remoteness is at most
/// [`grundy::tier::record::MAX_REMOTENESS`], so it fits), whether one is a draw and
/// whether a move keeps the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    loss: u16,
    win: u16,
    /// Bit 0: a child is a draw; bit 1: a move keeps the turn.
    flags: u8,
}

impl Folded {
    /// The fold of a win/loss game's `o` (its `best` is a score game's, not kept).
    pub fn pack(o: &Outside) -> Folded {
        let plus_one = |x: Option<u32>| x.map_or(0, |x| u16::try_from(x + 1).unwrap_or(u16::MAX));
        Folded {
            loss: plus_one(o.loss),
            win: plus_one(o.win),
            flags: u8::from(o.draw) | u8::from(o.again) << 1,
        }
    }

    /// The same fold as an [`Outside`].
    pub fn unpack(self) -> Outside {
        Outside {
            loss: self.loss(),
            win: self.win(),
            draw: self.draw(),
            again: self.again(),
            best: Best::default(),
        }
    }

    pub fn loss(self) -> Option<u32> {
        self.loss.checked_sub(1).map(u32::from)
    }

    pub fn win(self) -> Option<u32> {
        self.win.checked_sub(1).map(u32::from)
    }

    pub fn draw(self) -> bool {
        self.flags & 1 != 0
    }

    pub fn again(self) -> bool {
        self.flags & 2 != 0
    }
}

/// The children's ranks of moves inside a tier: 4 bytes each when the tier has at most
/// 2^32 ranks, else 8.
#[derive(Debug, Clone)]
enum Children {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Children {
    fn new(size: u64) -> Children {
        if size <= 1 << 32 {
            Children::Narrow(Vec::new())
        } else {
            Children::Wide(Vec::new())
        }
    }

    /// Appends `rank`, below the tier's size.
    #[inline]
    fn push(&mut self, rank: u64) {
        match self {
            Children::Narrow(v) => v.push(rank as u32),
            Children::Wide(v) => v.push(rank),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> u64 {
        match self {
            Children::Narrow(v) => u64::from(v[i]),
            Children::Wide(v) => v[i],
        }
    }

    fn extend_from(&mut self, other: &Children, from: usize, to: usize) {
        match (self, other) {
            (Children::Narrow(a), Children::Narrow(b)) => a.extend_from_slice(&b[from..to]),
            (Children::Wide(a), Children::Wide(b)) => a.extend_from_slice(&b[from..to]),
            (a, b) => {
                for i in from..to {
                    a.push(b.get(i));
                }
            }
        }
    }
}

/// Positions' moves out of a tier, folded, by number.
#[derive(Debug, Clone)]
pub struct Folds {
    scored: bool,
    /// Win/loss games: by position, its moves out of the tier.
    folded: Vec<Folded>,
    /// Score games: by position, the best margin through its moves out of the tier.
    best: Vec<Best<i64>>,
}

impl Folds {
    fn new(scored: bool) -> Folds {
        Folds {
            scored,
            folded: Vec::new(),
            best: Vec::new(),
        }
    }

    fn push(&mut self, out: &Outside) {
        if self.scored {
            self.best.push(out.best);
        } else {
            self.folded.push(Folded::pack(out));
        }
    }

    /// Position `i`'s moves out of the tier, as an [`Outside`].
    #[cfg(test)]
    pub fn outside(&self, i: usize) -> Outside {
        if self.scored {
            Outside {
                best: self.best[i],
                ..Outside::default()
            }
        } else {
            self.folded[i].unpack()
        }
    }

    /// Folds into position `i` a move out of the tier, or inside to a final child, as
    /// [`Outside::add`] does. `None` if there is no position `i`.
    pub fn add(&mut self, i: usize, rec: u16, again: bool, gain: i32) -> Option<()> {
        if self.scored {
            let best = self.best.get_mut(i)?;
            let mut o = Outside {
                best: *best,
                ..Outside::default()
            };
            o.add(rec, again, gain, true);
            *best = o.best;
        } else {
            let f = self.folded.get_mut(i)?;
            let mut o = f.unpack();
            o.add(rec, again, gain, false);
            *f = Folded::pack(&o);
        }
        Some(())
    }

    /// Win/loss games: folds into position `i` a child inside lost (`won` false) or won
    /// in `x`, as [`Folds::add`] folds its record; the fold after. `None` if there is no
    /// position `i` or `x` is past a record's remoteness.
    #[inline]
    pub fn told(&mut self, i: usize, won: bool, x: u32) -> Option<Folded> {
        if x > grundy::tier::record::MAX_REMOTENESS {
            return None;
        }
        let f = self.folded.get_mut(i)?;
        let plus_one = x as u16 + 1;
        if won {
            f.win = f.win.max(plus_one);
        } else if f.loss == 0 || plus_one < f.loss {
            f.loss = plus_one;
        }
        Some(*f)
    }

    /// Win/loss games: the folds, by position.
    pub fn folded(&self) -> &[Folded] {
        &self.folded
    }

    /// Score games: the best margins through the moves out of the tier, by position.
    pub fn best(&self) -> &[Best<i64>] {
        &self.best
    }

    fn push_from(&mut self, other: &Folds, i: usize) {
        if self.scored {
            self.best.push(other.best[i]);
        } else {
            self.folded.push(other.folded[i]);
        }
    }

    fn clear(&mut self) {
        self.folded.clear();
        self.best.clear();
    }
}

/// Positions' moves inside a tier, by number.
#[derive(Debug, Clone)]
pub struct Moves {
    scored: bool,
    /// The tier's ranks: every child inside is below.
    size: u64,
    /// By position, its number of moves inside the tier.
    counts: Vec<u32>,
    /// By move, in order of position: the child's rank.
    children: Children,
    /// Score games: by move, its gain and whether it keeps the turn.
    moves: Vec<(i32, bool)>,
}

impl Moves {
    fn new(scored: bool, size: u64) -> Moves {
        Moves {
            scored,
            size,
            counts: Vec::new(),
            children: Children::new(size),
            moves: Vec::new(),
        }
    }

    fn push(
        &mut self,
        inside: impl Iterator<Item = (u64, i32, bool)> + Clone,
    ) -> Result<(), Refused> {
        let mut n = 0usize;
        for (rank, _, again) in inside.clone() {
            if rank >= self.size {
                return Err(Refused::Rank(rank));
            }
            if again && !self.scored {
                return Err(Refused::Again);
            }
            n += 1;
        }
        let n = u32::try_from(n).map_err(|_| Refused::Moves(n))?;
        for (rank, gain, again) in inside {
            self.children.push(rank);
            if self.scored {
                self.moves.push((gain, again));
            }
        }
        self.counts.push(n);
        Ok(())
    }

    /// By position, its number of moves inside.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Calls `f` on every move inside: its position's number, the child's rank, the gain
    /// and whether it keeps the turn (0 and false for a win/loss game), in order.
    #[inline]
    pub fn each<E>(
        &self,
        mut f: impl FnMut(usize, u64, i32, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut m = 0usize;
        for (i, &n) in self.counts.iter().enumerate() {
            let end = m + n as usize;
            if self.scored {
                for (k, &(gain, again)) in (m..end).zip(&self.moves[m..end]) {
                    f(i, self.children.get(k), gain, again)?;
                }
            } else {
                match &self.children {
                    Children::Narrow(v) => {
                        for &c in &v[m..end] {
                            f(i, u64::from(c), 0, false)?;
                        }
                    }
                    Children::Wide(v) => {
                        for &c in &v[m..end] {
                            f(i, c, 0, false)?;
                        }
                    }
                }
            }
            m = end;
        }
        Ok(())
    }

    /// Appends position `i` of `other`, whose first move inside is `other`'s move `m`.
    fn push_from(&mut self, other: &Moves, i: usize, m: usize) {
        let n = other.counts[i];
        let end = m + n as usize;
        self.children.extend_from(&other.children, m, end);
        if self.scored {
            self.moves.extend_from_slice(&other.moves[m..end]);
        }
        self.counts.push(n);
    }

    fn clear(&mut self) {
        self.counts.clear();
        match &mut self.children {
            Children::Narrow(v) => v.clear(),
            Children::Wide(v) => v.clear(),
        }
        self.moves.clear();
    }
}

/// Positions with moves inside a tier, by number: each one's moves out of the tier folded
/// and its moves inside.
#[derive(Debug, Clone)]
pub struct Rows {
    pub folds: Folds,
    pub moves: Moves,
}

/// A position [`Rows::push`] refuses.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// A move inside to this rank, past the tier's.
    Rank(u64),
    /// A move inside a win/loss game's tier keeps the turn.
    Again,
    /// This many moves inside, past a count's 32 bits.
    Moves(usize),
}

impl Rows {
    /// No position, of a tier of `size` ranks.
    pub fn new(scored: bool, size: u64) -> Rows {
        Rows {
            folds: Folds::new(scored),
            moves: Moves::new(scored, size),
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.moves.counts.len()
    }

    /// Appends a position: its moves out of the tier folded (`out`), its moves inside
    /// (rank, gain, whether the turn is kept). Nothing is appended if it is refused.
    pub fn push(
        &mut self,
        out: &Outside,
        inside: impl Iterator<Item = (u64, i32, bool)> + Clone,
    ) -> Result<(), Refused> {
        self.moves.push(inside)?;
        self.folds.push(out);
        Ok(())
    }

    fn push_from(&mut self, other: &Rows, i: usize, m: usize) {
        self.folds.push_from(&other.folds, i);
        self.moves.push_from(&other.moves, i, m);
    }

    fn clear(&mut self) {
        self.folds.clear();
        self.moves.clear();
    }
}

/// A batch's positions with moves inside the tier, in increasing order of place (the
/// places of the worker's arrays, in the order of the ranks).
#[derive(Debug, Clone)]
pub struct Batch {
    pub places: Vec<usize>,
    pub rows: Rows,
}

impl Batch {
    pub fn new(scored: bool, size: u64) -> Batch {
        Batch {
            places: Vec::new(),
            rows: Rows::new(scored, size),
        }
    }

    /// Appends a position at `place` (past the last), as [`Rows::push`].
    pub fn push(
        &mut self,
        place: usize,
        out: &Outside,
        inside: impl Iterator<Item = (u64, i32, bool)> + Clone,
    ) -> Result<(), Refused> {
        self.rows.push(out, inside)?;
        self.places.push(place);
        Ok(())
    }

    /// Empties it, its vectors kept.
    pub fn clear(&mut self) {
        self.places.clear();
        self.rows.clear();
    }
}

/// A worker's positions of a tier with moves inside it: their places, one bit each
/// ([`Asked`]: a position's number is a count of bits), and their [`Rows`] by number.
pub struct Waiting {
    /// Over the worker's places of the tier; made at the first position.
    places: Option<Asked>,
    len: usize,
    pub rows: Rows,
}

impl Waiting {
    /// None yet, over `len` places of a tier of `size` ranks.
    pub fn new(scored: bool, len: usize, size: u64) -> Waiting {
        Waiting {
            places: None,
            len,
            rows: Rows::new(scored, size),
        }
    }

    /// Appends the positions of `a` and `b`, each in increasing place (and past every
    /// place held), merged in order.
    pub fn append_merged(&mut self, a: &Batch, b: &Batch) {
        let total = a.places.len() + b.places.len();
        if total == 0 {
            return;
        }
        let len = self.len;
        let places = self.places.get_or_insert_with(|| Asked::new(len));
        let (mut i, mut j, mut ma, mut mb) = (0, 0, 0, 0);
        while i < a.places.len() || j < b.places.len() {
            if j == b.places.len() || (i < a.places.len() && a.places[i] < b.places[j]) {
                places.mark(a.places[i]);
                self.rows.push_from(&a.rows, i, ma);
                ma += a.rows.moves.counts[i] as usize;
                i += 1;
            } else {
                places.mark(b.places[j]);
                self.rows.push_from(&b.rows, j, mb);
                mb += b.rows.moves.counts[j] as usize;
                j += 1;
            }
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The places, sealed: [`Asked::index`] is a place's number, [`Asked::places`] lists
    /// them in order.
    pub fn seal(&mut self) -> Asked {
        let mut places = self.places.take().unwrap_or_else(|| Asked::new(0));
        places.seal(|_| ());
        places
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The simple way to merge two parts of a batch, each in increasing rank: every row
    /// of both, sorted by rank, appended to `into`.
    fn merge(
        into: &mut grundy::tier::solve::Pending,
        a: &grundy::tier::solve::Pending,
        b: &grundy::tier::solve::Pending,
    ) {
        let mut rows: Vec<(&grundy::tier::solve::Pending, usize)> = Vec::new();
        for p in [a, b] {
            rows.extend((0..p.ranks.len()).map(|i| (p, i)));
        }
        rows.sort_by_key(|&(p, i)| p.ranks[i]);
        for (p, i) in rows {
            let (rank, outside, moves) = (p.ranks[i], p.outside[i], p.moves(i));
            into.ranks.push(rank);
            into.outside.push(outside);
            into.inside.extend_from_slice(moves);
            into.ends.push(into.inside.len());
        }
    }

    /// Any record a tier holds, reached.
    fn recs() -> impl Strategy<Value = u16> {
        1u16..=u16::MAX
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Folding into the 6 bytes is folding into an `Outside`, move by move.
        #[test]
        fn a_fold_is_the_libraries_outside(
            moves in proptest::collection::vec((recs(), any::<bool>()), 0..20),
        ) {
            let mut o = Outside::default();
            let mut f = Folded::default();
            for &(rec, again) in &moves {
                o.add(rec, again, 0, false);
                let mut u = f.unpack();
                u.add(rec, again, 0, false);
                f = Folded::pack(&u);
                prop_assert_eq!(f.unpack(), o);
            }
        }

        /// The rows and their merge against the simple way: the library's `Pending`
        /// (ranks, `Outside`s, 16 bytes a move), each batch's two parts' rows sorted by
        /// rank.
        #[test]
        fn rows_merged_are_the_libraries_pending_merged(
            scored in any::<bool>(),
            wide in any::<bool>(),
            batches in proptest::collection::vec(
                proptest::collection::vec(
                    (any::<bool>(), 0u64..4, proptest::collection::vec((0u64..1000, -5i32..5, any::<bool>()), 0..5), proptest::collection::vec((recs(), any::<bool>(), -5i32..5), 0..4)),
                    0..12,
                ),
                0..4,
            ),
        ) {
            // Wide: ranks past 32 bits, kept in 8 bytes.
            let spread = if wide { 1u64 << 33 } else { 1 };
            let size = 1000 * spread;
            let mut want = grundy::tier::solve::Pending::default();
            let mut got = Waiting::new(scored, 64 * 1000, size);
            let mut place = 0usize;
            for batch in &batches {
                let (mut pa, mut pb) = (grundy::tier::solve::Pending::default(), grundy::tier::solve::Pending::default());
                let (mut ba, mut bb) = (Batch::new(scored, size), Batch::new(scored, size));
                for (to_b, gap, inside, outs) in batch {
                    place += *gap as usize + 1;
                    let mut o = Outside::default();
                    for &(rec, again, gain) in outs {
                        o.add(rec, again, gain, scored);
                    }
                    let inside: Vec<(u64, i32, bool)> = inside
                        .iter()
                        .map(|&(r, g, a)| (r * spread, if scored { g } else { 0 }, a && scored))
                        .collect();
                    let (p, b) = if *to_b { (&mut pb, &mut bb) } else { (&mut pa, &mut ba) };
                    p.ranks.push(place as u64);
                    p.outside.push(if scored { Outside { best: o.best, ..Outside::default() } } else { o });
                    p.inside.extend_from_slice(&inside);
                    p.ends.push(p.inside.len());
                    prop_assert_eq!(b.push(place, &o, inside.iter().copied()), Ok(()));
                }
                merge(&mut want, &pa, &pb);
                got.append_merged(&ba, &bb);
            }
            prop_assert_eq!(got.len(), want.ranks.len());
            let sealed = got.seal();
            for (i, &r) in want.ranks.iter().enumerate() {
                prop_assert_eq!(sealed.index(r as usize), Some(i));
            }
            let mut listed = Vec::new();
            sealed.places(|p| listed.push(p as u64));
            prop_assert_eq!(&listed, &want.ranks);
            let mut moves: Vec<(usize, u64, i32, bool)> = Vec::new();
            got.rows.moves.each(|i, c, g, a| {
                moves.push((i, c, g, a));
                Ok::<(), ()>(())
            }).unwrap();
            let mut expect = Vec::new();
            for i in 0..want.ranks.len() {
                prop_assert_eq!(got.rows.folds.outside(i), want.outside[i]);
                prop_assert_eq!(got.rows.moves.counts()[i] as usize, want.moves(i).len());
                for &(c, g, a) in want.moves(i) {
                    expect.push((i, c, g, a));
                }
            }
            prop_assert_eq!(moves, expect);
        }

        /// Folding a child's record into a row is `Outside::add`.
        #[test]
        fn add_is_the_libraries_add(
            scored in any::<bool>(),
            adds in proptest::collection::vec((recs(), any::<bool>(), -5i32..5), 0..10),
        ) {
            let mut rows = Rows::new(scored, 10);
            rows.push(&Outside::default(), std::iter::empty()).unwrap();
            let mut o = Outside::default();
            for &(rec, again, gain) in &adds {
                prop_assert_eq!(rows.folds.add(0, rec, again, gain), Some(()));
                o.add(rec, again, gain, scored);
                let o = if scored { Outside { best: o.best, ..Outside::default() } } else { o };
                prop_assert_eq!(rows.folds.outside(0), o);
            }
        }

        /// A child inside lost or won in `x`, folded by `Folds::told`, is its record
        /// folded by `Folds::add`; past a record's remoteness it is refused.
        #[test]
        fn told_is_add_of_the_record(
            start in (recs(), recs()),
            tells in proptest::collection::vec((any::<bool>(), 0u32..40), 0..10),
            far in grundy::tier::record::MAX_REMOTENESS + 1..u32::MAX,
        ) {
            let mut told = Rows::new(false, 10);
            told.push(&Outside::default(), std::iter::empty()).unwrap();
            for rec in [start.0, start.1] {
                told.folds.add(0, rec, false, 0).unwrap();
            }
            let mut added = told.clone();
            for &(won, x) in &tells {
                let value = if won { grundy::game::Value::Win(x) } else { grundy::game::Value::Loss(x) };
                let rec = grundy::tier::record::of_value(value).unwrap();
                added.folds.add(0, rec, false, 0).unwrap();
                let f = told.folds.told(0, won, x);
                prop_assert_eq!(f, Some(added.folds.folded()[0]));
            }
            prop_assert_eq!(told.folds.told(0, true, far), None);
            prop_assert_eq!(told.folds.told(1, false, 0), None);
        }
    }

    #[test]
    fn a_move_past_the_tier_is_refused() {
        let mut b = Batch::new(false, 10);
        let o = Outside::default();
        assert_eq!(
            b.push(3, &o, [(9, 0, false), (10, 0, false)].into_iter()),
            Err(Refused::Rank(10))
        );
        assert_eq!(b.places.len(), 0);
        assert_eq!(b.rows.len(), 0);
        assert_eq!(b.push(3, &o, [(9, 0, false)].into_iter()), Ok(()));
        assert_eq!(b.rows.moves.counts(), [1]);
        assert_eq!(
            b.push(4, &o, [(9, 0, true)].into_iter()),
            Err(Refused::Again)
        );
    }
}
