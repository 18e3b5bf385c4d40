//! The shared table of canonical forms: every distinct value stored once, named by a
//! [`GameId`]; construction `{L | R}` that simplifies as it goes (dominated options
//! removed, reversible ones bypassed), so that equal values are equal ids; sum,
//! negation, comparison and outcome class, memoised.

use rustc_hash::FxHashMap;

use super::number::Dyadic;
use crate::Error;

/// A canonical form in a [`Table`]: two values are equal if and only if their ids are
/// (ids of one table only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(u32);

impl GameId {
    /// The id as an index into the table's arrays.
    #[must_use]
    pub fn as_usize(self) -> usize {
        self.0 as usize
    }

    /// The raw id.
    #[must_use]
    pub fn as_u32(self) -> u32 {
        self.0
    }
}

/// The outcome class of a game: who wins, as each player starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Left wins whoever starts (`G > 0`).
    L,
    /// Right wins whoever starts (`G < 0`).
    R,
    /// The second player wins (`G = 0`).
    P,
    /// The first player wins (`G || 0`).
    N,
}

impl Class {
    /// The class from who wins moving first: `(Left first wins, Right first wins)`.
    #[must_use]
    pub fn from_winners(left_first: bool, right_first: bool) -> Class {
        match (left_first, right_first) {
            (true, false) => Class::L,
            (false, true) => Class::R,
            (false, false) => Class::P,
            (true, true) => Class::N,
        }
    }

    /// The letter CGSuite writes: `L`, `R`, `P` or `N`.
    #[must_use]
    pub fn letter(self) -> &'static str {
        match self {
            Class::L => "L",
            Class::R => "R",
            Class::P => "P",
            Class::N => "N",
        }
    }
}

/// A form's Left and Right options, sorted: the key that makes each form stored once.
type Options = (Box<[GameId]>, Box<[GameId]>);

/// One canonical form and what is known of it at once from its options.
#[derive(Debug)]
struct Node {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
    /// Its value when it is a number.
    number: Option<Dyadic>,
    /// `n` when it is the nimber `*n` (0 is both `0` and `*0`).
    nimber: Option<u32>,
    /// Left's stop and Right's stop (the number reached when play stops, each moving
    /// first; a number's both stops are itself).
    stops: [Dyadic; 2],
    birthday: u32,
}

/// Every canonical form met so far, each once (hash-consed by its sorted options), and
/// the memos of comparison, sum and negation. Ids are dense `u32`s into its arrays.
///
/// The table only grows; [`Table::len`] and [`Table::memo_len`] say how far, so a caller
/// can refuse to go past its own bound (Domineering does).
#[derive(Debug)]
pub struct Table {
    nodes: Vec<Node>,
    /// The option ids of every node, counted as they are interned, so that
    /// [`Table::bytes`] (asked after every position a family values) is O(1).
    option_ids: usize,
    index: FxHashMap<Options, GameId>,
    leq: FxHashMap<(GameId, GameId), bool>,
    sums: FxHashMap<(GameId, GameId), GameId>,
    negs: FxHashMap<GameId, GameId>,
    numbers: FxHashMap<Dyadic, GameId>,
    /// `nimbers[n]` is `*n`, for the nimbers built so far.
    nimbers: Vec<GameId>,
}

impl Default for Table {
    fn default() -> Table {
        Table::new()
    }
}

/// The largest nimber built as a form where a number the user typed sets it (`*n`
/// holds n² option ids).
pub const MAX_NIMBER: u32 = 1024;

/// The most forms a table holds (ids are `u32`; a table this large would take tens of
/// GiB before that anyway).
const MAX_FORMS: usize = u32::MAX as usize;

/// A form `{left | right}` being simplified, not yet in the table, with the answers of
/// its comparisons against forms of the table so far: `below[g]` is `g ≤ G`, `above[h]`
/// is `G ≤ h`.
struct Form<'a> {
    left: &'a [GameId],
    right: &'a [GameId],
    below: FxHashMap<GameId, bool>,
    above: FxHashMap<GameId, bool>,
}

impl<'a> Form<'a> {
    fn new(left: &'a [GameId], right: &'a [GameId]) -> Form<'a> {
        Form {
            left,
            right,
            below: FxHashMap::default(),
            above: FxHashMap::default(),
        }
    }
}

impl Table {
    /// A table holding `0 = { | }`.
    #[must_use]
    pub fn new() -> Table {
        let mut table = Table {
            nodes: Vec::new(),
            option_ids: 0,
            index: FxHashMap::default(),
            leq: FxHashMap::default(),
            sums: FxHashMap::default(),
            negs: FxHashMap::default(),
            numbers: FxHashMap::default(),
            nimbers: Vec::new(),
        };
        table.intern(Vec::new(), Vec::new());
        table
    }

    /// How many canonical forms the table holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the table holds only 0 (never: 0 is made first).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// How many comparisons, sums and negations are memoised.
    #[must_use]
    pub fn memo_len(&self) -> usize {
        self.leq.len() + self.sums.len() + self.negs.len()
    }

    /// A rough count of the bytes the table holds (forms, options and memo entries).
    #[must_use]
    pub fn bytes(&self) -> usize {
        // A node, its index entry (keys are copies of the options), its number entry.
        self.nodes.len() * 120 + self.option_ids * 8 + self.memo_len() * 24
    }

    fn node(&self, g: GameId) -> &Node {
        &self.nodes[g.as_usize()]
    }

    /// Left's options of `g` (canonical, sorted by id).
    #[must_use]
    pub fn left(&self, g: GameId) -> &[GameId] {
        &self.node(g).left
    }

    /// Right's options of `g` (canonical, sorted by id).
    #[must_use]
    pub fn right(&self, g: GameId) -> &[GameId] {
        &self.node(g).right
    }

    /// The number `g` is, if it is one.
    #[must_use]
    pub fn number_of(&self, g: GameId) -> Option<Dyadic> {
        self.node(g).number
    }

    /// `n` if `g` is the nimber `*n`.
    #[must_use]
    pub fn nimber_of(&self, g: GameId) -> Option<u32> {
        self.node(g).nimber
    }

    /// Left's stop of `g`: where play stops (at a number) when Left starts, both playing
    /// their best for the stop.
    #[must_use]
    pub fn left_stop(&self, g: GameId) -> Dyadic {
        self.node(g).stops[0]
    }

    /// Right's stop of `g`.
    #[must_use]
    pub fn right_stop(&self, g: GameId) -> Dyadic {
        self.node(g).stops[1]
    }

    /// The birthday of `g`: the height of its canonical game tree.
    #[must_use]
    pub fn birthday(&self, g: GameId) -> u32 {
        self.node(g).birthday
    }

    /// `0`.
    #[must_use]
    pub fn zero(&self) -> GameId {
        GameId(0)
    }

    /// Stores a canonical form (options already canonical and simplified) once, and
    /// returns its id.
    fn intern(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        left.sort_unstable();
        right.sort_unstable();
        let key = (left.into_boxed_slice(), right.into_boxed_slice());
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let (left, right) = key;
        let number = self.number_from_options(&left, &right);
        let nimber = self.nimber_from_options(&left, &right);
        let stops = match number {
            Some(x) => [x, x],
            None => {
                // Canonical forms with an empty side are integers, so both sides have
                // options here; the fallback is never met.
                let ls = left.iter().map(|&l| self.right_stop(l)).max();
                let rs = right.iter().map(|&r| self.left_stop(r)).min();
                [ls.unwrap_or(Dyadic::ZERO), rs.unwrap_or(Dyadic::ZERO)]
            }
        };
        let birthday = left
            .iter()
            .chain(right.iter())
            .map(|&o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0);
        assert!(
            self.nodes.len() < MAX_FORMS,
            "more canonical forms than u32 ids"
        );
        let id = GameId(self.nodes.len() as u32);
        self.option_ids += left.len() + right.len();
        self.nodes.push(Node {
            left: left.clone(),
            right: right.clone(),
            number,
            nimber,
            stops,
            birthday,
        });
        if let Some(x) = number {
            self.numbers.insert(x, id);
        }
        self.index.insert((left, right), id);
        id
    }

    /// A canonical form's number, if it is one: at most one option a side, all numbers,
    /// the left below the right (then it is the simplest number between).
    fn number_from_options(&self, left: &[GameId], right: &[GameId]) -> Option<Dyadic> {
        if left.len() > 1 || right.len() > 1 {
            return None;
        }
        let l = match left.first() {
            Some(&l) => Some(self.number_of(l)?),
            None => None,
        };
        let r = match right.first() {
            Some(&r) => Some(self.number_of(r)?),
            None => None,
        };
        Dyadic::simplest_between(l, r)
    }

    /// A canonical form's nimber, if it is one: both sides `*0 … *(n−1)`.
    fn nimber_from_options(&self, left: &[GameId], right: &[GameId]) -> Option<u32> {
        if left != right {
            return None;
        }
        let mut values: Vec<u32> = left
            .iter()
            .map(|&o| self.nimber_of(o))
            .collect::<Option<_>>()?;
        values.sort_unstable();
        values
            .iter()
            .enumerate()
            .all(|(i, &v)| v as usize == i)
            .then_some(values.len() as u32)
    }

    /// The number `x`: `0 = { | }`, `n = {n−1 | }`, `−n = { | −n+1}`, `m/2^k = {(m−1)/2^k
    /// | (m+1)/2^k}` — each canonical as it stands.
    ///
    /// # Complexity
    /// O(|x| + k) forms made, the first time.
    pub fn number(&mut self, x: Dyadic) -> GameId {
        if let Some(&id) = self.numbers.get(&x) {
            return id;
        }
        let id = if x.is_integer() {
            let n = x.numerator();
            // Iteratively from the nearest integer already made, so large integers do not
            // recurse deeply.
            let step = if n > 0 { -1 } else { 1 };
            let mut k = n;
            while k != 0 && !self.numbers.contains_key(&integer(k)) {
                k += step;
            }
            let mut id = self.numbers[&integer(k)];
            while k != n {
                k -= step;
                id = if k > 0 {
                    self.intern(vec![id], Vec::new())
                } else {
                    self.intern(Vec::new(), vec![id])
                };
            }
            id
        } else {
            let (m, e) = (i128::from(x.numerator()), x.exponent());
            // The neighbours at the same denominator are simpler and in range.
            let lo = Dyadic::new(m - 1, e).unwrap_or(Dyadic::ZERO);
            let hi = Dyadic::new(m + 1, e).unwrap_or(Dyadic::ZERO);
            let (l, r) = (self.number(lo), self.number(hi));
            self.intern(vec![l], vec![r])
        };
        debug_assert_eq!(self.number_of(id), Some(x));
        id
    }

    /// The integer `n`.
    ///
    /// # Errors
    /// [`Error::Overflow`] past the range of [`Dyadic`].
    pub fn integer(&mut self, n: i64) -> Result<GameId, Error> {
        let x = Dyadic::integer(n).ok_or(Error::Overflow)?;
        Ok(self.number(x))
    }

    /// The nimber `*n`: `{0, *, …, *(n−1) | 0, *, …, *(n−1)}`.
    ///
    /// # Complexity
    /// O(n²) the first time (the options of each nimber below it), O(1) after.
    pub fn nimber(&mut self, n: u32) -> GameId {
        if self.nimbers.is_empty() {
            let zero = self.zero();
            self.nimbers.push(zero);
        }
        while self.nimbers.len() <= n as usize {
            let below = self.nimbers.clone();
            let next = self.intern(below.clone(), below);
            self.nimbers.push(next);
        }
        self.nimbers[n as usize]
    }

    /// `* = {0 | 0}`.
    pub fn star(&mut self) -> GameId {
        self.nimber(1)
    }

    /// `^ = {0 | *}`.
    pub fn up(&mut self) -> GameId {
        let (zero, star) = (self.zero(), self.star());
        self.intern(vec![zero], vec![star])
    }

    /// `v = {* | 0}`.
    pub fn down(&mut self) -> GameId {
        let (zero, star) = (self.zero(), self.star());
        self.intern(vec![star], vec![zero])
    }

    /// The canonical form of `{left | right}`, whose options are values of this table:
    /// numbers by the simplicity rule, else dominated options removed and reversible
    /// ones bypassed until neither is left (Siegel, *Combinatorial Game Theory*, II.2).
    ///
    /// # Complexity
    /// Each round compares every pair of options on a side and every option's
    /// counter-options with the game (each comparison memoised, recursive in the
    /// birthdays); a bypass makes the next round.
    pub fn game(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        if let Some(x) = self.number_game(left, right) {
            return self.number(x);
        }
        let (mut l, mut r) = (left.to_vec(), right.to_vec());
        loop {
            self.keep_undominated(&mut l, true);
            self.keep_undominated(&mut r, false);
            if self.bypass_left(&mut l, &r) || self.bypass_right(&l, &mut r) {
                continue;
            }
            break;
        }
        self.intern(l, r)
    }

    /// The number `{left | right}` is when all options are numbers, each left one below
    /// each right one (the simplicity rule); `None` otherwise.
    fn number_game(&self, left: &[GameId], right: &[GameId]) -> Option<Dyadic> {
        let mut low: Option<Dyadic> = None;
        for &l in left {
            let x = self.number_of(l)?;
            low = Some(low.map_or(x, |y| y.max(x)));
        }
        let mut high: Option<Dyadic> = None;
        for &r in right {
            let x = self.number_of(r)?;
            high = Some(high.map_or(x, |y| y.min(x)));
        }
        Dyadic::simplest_between(low, high)
    }

    /// Keeps a side's options that no other option dominates (for Left, none greater;
    /// for Right, none less), each once.
    fn keep_undominated(&mut self, side: &mut Vec<GameId>, left: bool) {
        side.sort_unstable();
        side.dedup();
        let mut keep = Vec::with_capacity(side.len());
        for (i, &a) in side.iter().enumerate() {
            let dominated = side.iter().enumerate().any(|(j, &b)| {
                // Distinct canonical ids are distinct values, so `≤` is `<` here.
                j != i && if left { self.leq(a, b) } else { self.leq(b, a) }
            });
            if !dominated {
                keep.push(a);
            }
        }
        *side = keep;
    }

    /// Bypasses one reversible Left option of `G = {l | r}`: an `A` with some `A^R ≤ G`
    /// is replaced by the Left options of that `A^R`. Returns whether one was.
    fn bypass_left(&mut self, l: &mut Vec<GameId>, r: &[GameId]) -> bool {
        let mut form = Form::new(l, r);
        for i in 0..l.len() {
            let a = l[i];
            for j in 0..self.right(a).len() {
                let ar = self.right(a)[j];
                if self.id_leq_form(ar, &mut form) {
                    l.swap_remove(i);
                    l.extend_from_slice(&self.nodes[ar.as_usize()].left);
                    return true;
                }
            }
        }
        false
    }

    /// Bypasses one reversible Right option of `G = {l | r}`: a `B` with some `B^L ≥ G`
    /// is replaced by the Right options of that `B^L`.
    fn bypass_right(&mut self, l: &[GameId], r: &mut Vec<GameId>) -> bool {
        let mut form = Form::new(l, r);
        for i in 0..r.len() {
            let b = r[i];
            for j in 0..self.left(b).len() {
                let bl = self.left(b)[j];
                if self.form_leq_id(&mut form, bl) {
                    r.swap_remove(i);
                    r.extend_from_slice(&self.nodes[bl.as_usize()].right);
                    return true;
                }
            }
        }
        false
    }

    /// `G ≤ h` for the form `G = {l | r}` not in the table: no `G^L ≥ h` and no
    /// `h^R ≤ G`. Memoised on `h` in `form`, as `leq` is on pairs, so that the two
    /// comparisons visit each follower of `h` once for `G`, not once for each path to it
    /// (a bound on the work; no case measured here needed it since sums with numbers and
    /// nimbers no longer come through the simplification).
    fn form_leq_id(&mut self, form: &mut Form<'_>, h: GameId) -> bool {
        if let Some(&known) = form.above.get(&h) {
            return known;
        }
        let mut answer = true;
        for k in 0..form.left.len() {
            if self.leq(h, form.left[k]) {
                answer = false;
                break;
            }
        }
        if answer {
            for j in 0..self.right(h).len() {
                let hr = self.right(h)[j];
                if self.id_leq_form(hr, form) {
                    answer = false;
                    break;
                }
            }
        }
        form.above.insert(h, answer);
        answer
    }

    /// `g ≤ G` for the form `G = {l | r}` not in the table: no `G^R ≤ g` and no
    /// `g^L ≥ G`. Memoised on `g` in `form`.
    fn id_leq_form(&mut self, g: GameId, form: &mut Form<'_>) -> bool {
        if let Some(&known) = form.below.get(&g) {
            return known;
        }
        let mut answer = true;
        for k in 0..form.right.len() {
            if self.leq(form.right[k], g) {
                answer = false;
                break;
            }
        }
        if answer {
            for j in 0..self.left(g).len() {
                let gl = self.left(g)[j];
                if self.form_leq_id(form, gl) {
                    answer = false;
                    break;
                }
            }
        }
        form.below.insert(g, answer);
        answer
    }

    /// `g ≤ h` (Left is no better off in `g` than in `h`): no `g^L ≥ h` and no `h^R ≤ g`;
    /// numbers compared as numbers.
    ///
    /// # Complexity
    /// Memoised on the pair; each pair costs its options' comparisons once.
    pub fn leq(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let (Some(x), Some(y)) = (self.number_of(g), self.number_of(h)) {
            return x <= y;
        }
        if let Some(&known) = self.leq.get(&(g, h)) {
            return known;
        }
        let mut answer = true;
        for i in 0..self.left(g).len() {
            let gl = self.left(g)[i];
            if self.leq(h, gl) {
                answer = false;
                break;
            }
        }
        if answer {
            for j in 0..self.right(h).len() {
                let hr = self.right(h)[j];
                if self.leq(hr, g) {
                    answer = false;
                    break;
                }
            }
        }
        self.leq.insert((g, h), answer);
        answer
    }

    /// `g ≥ h`.
    pub fn geq(&mut self, g: GameId, h: GameId) -> bool {
        self.leq(h, g)
    }

    /// `g < h`.
    pub fn less(&mut self, g: GameId, h: GameId) -> bool {
        self.leq(g, h) && g != h
    }

    /// `g || h`: confused, neither `≤` nor `≥`.
    pub fn confused(&mut self, g: GameId, h: GameId) -> bool {
        !self.leq(g, h) && !self.leq(h, g)
    }

    /// The outcome class of `g`: `L` if `g > 0`, `R` if `g < 0`, `P` if `g = 0`, `N` if
    /// `g || 0`.
    pub fn class(&mut self, g: GameId) -> Class {
        let zero = self.zero();
        // Left moving first wins iff not g ≤ 0; Right moving first wins iff not g ≥ 0.
        let left_first = !self.leq(g, zero);
        let right_first = !self.leq(zero, g);
        Class::from_winners(left_first, right_first)
    }

    /// `−g`: the players' options swapped and negated (canonical as it stands).
    pub fn neg(&mut self, g: GameId) -> GameId {
        if let Some(x) = self.number_of(g) {
            return self.number(x.negate());
        }
        if let Some(&n) = self.negs.get(&g) {
            return n;
        }
        let left: Vec<GameId> = self.node(g).right.to_vec();
        let right: Vec<GameId> = self.node(g).left.to_vec();
        let l = left.into_iter().map(|o| self.neg(o)).collect();
        let r = right.into_iter().map(|o| self.neg(o)).collect();
        let n = self.intern(l, r);
        self.negs.insert(g, n);
        self.negs.insert(n, g);
        n
    }

    /// `g + h`, in canonical form: numbers added as numbers, else `{g^L + h, g + h^L |
    /// g^R + h, g + h^R}` simplified.
    ///
    /// # Errors
    /// [`Error::Overflow`] if a number in it leaves the range of [`Dyadic`].
    ///
    /// # Complexity
    /// Memoised on the pair; without the memo, the product of the two game trees.
    pub fn sum(&mut self, g: GameId, h: GameId) -> Result<GameId, Error> {
        let zero = self.zero();
        if g == zero {
            return Ok(h);
        }
        if h == zero {
            return Ok(g);
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        let s = if let (Some(x), Some(y)) = (self.number_of(g), self.number_of(h)) {
            self.number(x.checked_add(y).ok_or(Error::Overflow)?)
        } else if let (Some(a), Some(b)) = (self.nimber_of(g), self.nimber_of(h)) {
            // *a + *b = *(a XOR b) (Sprague–Grundy): without it the sum's options are
            // simplified one bypass at a time, a high power of the nimbers' size.
            self.nimber(a ^ b)
        } else if self.number_of(h).is_some() {
            self.translate(g, h)?
        } else if self.number_of(g).is_some() {
            self.translate(h, g)?
        } else {
            let mut left = Vec::new();
            let mut right = Vec::new();
            for i in 0..self.left(g).len() {
                let gl = self.left(g)[i];
                left.push(self.sum(gl, h)?);
            }
            for i in 0..self.left(h).len() {
                let hl = self.left(h)[i];
                left.push(self.sum(g, hl)?);
            }
            for i in 0..self.right(g).len() {
                let gr = self.right(g)[i];
                right.push(self.sum(gr, h)?);
            }
            for i in 0..self.right(h).len() {
                let hr = self.right(h)[i];
                right.push(self.sum(g, hr)?);
            }
            self.game(&left, &right)
        };
        self.sums.insert(key, s);
        Ok(s)
    }

    /// `g + x` for a canonical `g` that is not a number and a number `x`, by the number
    /// translation theorem: `{g^L + x | g^R + x}`, each option translated alike. Adding a
    /// number keeps every comparison between options and every reversal (`a ≤ b` iff
    /// `a + x ≤ b + x`), so the translated form is canonical as it stands: no option is
    /// compared, and `*n + x` costs the `n` translated options, not the `n³`
    /// comparisons of a simplification.
    ///
    /// # Errors
    /// As [`Table::sum`].
    fn translate(&mut self, g: GameId, x: GameId) -> Result<GameId, Error> {
        let mut left = Vec::with_capacity(self.left(g).len());
        for i in 0..self.left(g).len() {
            let gl = self.left(g)[i];
            left.push(self.sum(gl, x)?);
        }
        let mut right = Vec::with_capacity(self.right(g).len());
        for i in 0..self.right(g).len() {
            let gr = self.right(g)[i];
            right.push(self.sum(gr, x)?);
        }
        Ok(self.intern(left, right))
    }

    /// `g − h`.
    ///
    /// # Errors
    /// As [`Table::sum`].
    pub fn sub(&mut self, g: GameId, h: GameId) -> Result<GameId, Error> {
        let minus_h = self.neg(h);
        self.sum(g, minus_h)
    }

    /// The sum of many values (0 for none).
    ///
    /// # Errors
    /// As [`Table::sum`].
    pub fn sum_all(&mut self, parts: &[GameId]) -> Result<GameId, Error> {
        parts
            .iter()
            .try_fold(self.zero(), |total, &part| self.sum(total, part))
    }
}

fn integer(n: i64) -> Dyadic {
    // Integers the table makes step by one from integers already in range.
    Dyadic::integer(n).unwrap_or(Dyadic::ZERO)
}
