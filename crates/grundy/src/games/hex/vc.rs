//! H-search (Anshelevich, "A hierarchical approach to computer Hex", 2002): a player's
//! virtual connections between their edges, built from the board up.
//!
//! The nodes are the player's two edges (each with the chains on it), their other chains,
//! and every empty cell (an end that holds as if the player had a stone there). Between
//! two nodes:
//!
//! - a virtual connection (VC) with carrier C, a set of empty cells not holding either
//!   end: the player joins the two ends playing inside C alone, the opponent moving
//!   first;
//! - a semi-connection (SC) with carrier C and a key k in C: the same with the player
//!   moving first (the key, which leaves a VC on the rest of C).
//!
//! Rules: two nodes next to each other, a VC with no carrier; AND: VCs x–u and u–y with
//! disjoint carriers (x outside the second, y outside the first) make a VC x–y when u is
//! a chain of the player's, an SC x–y with key u when u is an empty cell (carrier both
//! carriers and u); OR: SCs x–y whose carriers have no cell in common make a VC x–y on
//! the union of their carriers (the opponent's stone misses one of them, whose key the
//! player takes). The lists of each pair are bounded ([`MAX_VCS`], [`MAX_SCS`]: the
//! smallest carriers kept, none a superset of another), so what is found holds but
//! some may be missed.

use super::Hex;
use std::cell::RefCell;

/// Most VCs kept for one pair of nodes.
const MAX_VCS: usize = 4;

/// Most SCs kept for one pair of nodes.
const MAX_SCS: usize = 8;

/// Most SCs one OR combines.
const MAX_OR: usize = 4;

/// Most nodes (edges, chains and empty cells); a board with more is not searched.
const MAX_NODES: usize = 64;

/// A semi-connection: its carrier and its key (one cell of the carrier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Semi {
    pub carrier: u64,
    pub key: u64,
}

/// What H-search found between a player's two edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Edges {
    /// The smallest carrier of a VC found, if any.
    pub vc: Option<u64>,
    /// The SCs found (the smallest carriers, none a superset of another).
    pub scs: [Semi; MAX_SCS],
    pub scs_len: usize,
}

impl Edges {
    /// The SCs found.
    pub fn semis(&self) -> &[Semi] {
        &self.scs[..self.scs_len]
    }
}

/// Every connection H-search found, for the tests: the ends' cells (for an edge, its
/// row or column; a chain, its stones; an empty cell, itself), and the VCs and SCs of
/// each pair.
/// Adds `new` to the first `len` entries of `list` (a pair's connections), which hold no
/// carrier containing another: not at all if one of them has a carrier inside `new`'s;
/// else the entries whose carriers contain `new`'s are dropped, and `new` is kept — in
/// place of the one with the largest carrier when the list is full, if `new`'s is
/// smaller. Returns the entries kept, or `None` when `new` is not.
fn keep_minimal<T: Copy>(
    list: &mut [T],
    len: usize,
    new: T,
    carrier: impl Fn(&T) -> u64,
) -> Option<usize> {
    let c = carrier(&new);
    if list[..len].iter().any(|e| carrier(e) & !c == 0) {
        return None;
    }
    let mut kept = 0;
    for at in 0..len {
        if c & !carrier(&list[at]) != 0 {
            list[kept] = list[at];
            kept += 1;
        }
    }
    if kept < list.len() {
        list[kept] = new;
        return Some(kept + 1);
    }
    let (at, largest) = list
        .iter()
        .enumerate()
        .map(|(at, e)| (at, carrier(e).count_ones()))
        .max_by_key(|&(_, ones)| ones)?;
    if c.count_ones() >= largest {
        return None;
    }
    list[at] = new;
    Some(kept)
}

#[cfg(test)]
pub(super) struct Found {
    pub ends: Vec<u64>,
    /// Each node's empty cell (0 for edges and chains).
    pub cells: Vec<u64>,
    pub vcs: Vec<(usize, usize, u64)>,
    pub scs: Vec<(usize, usize, Semi)>,
}

/// The lists of one H-search, kept per thread between calls.
struct Lists {
    len: usize,
    /// Each node's empty cell (0 for edges and chains).
    bit: [u64; MAX_NODES],
    /// The chains' nodes (AND through them makes VCs).
    chains: u64,
    /// The empty cells' nodes (AND through them makes SCs).
    cells: u64,
    /// For each node, the nodes it has a VC with.
    adj: [u64; MAX_NODES],
    vc_len: Vec<u8>,
    vcs: Vec<[u64; MAX_VCS]>,
    sc_len: Vec<u8>,
    scs: Vec<[Semi; MAX_SCS]>,
    queue: Vec<(u8, u8, u64)>,
    /// Where to stop.
    stop: Stop,
    done: bool,
}

/// Where H-search stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// At the first VC between the edges.
    Vc,
    /// At the first SC or VC between the edges.
    Semi,
    /// Never: every connection it can find (the tests').
    #[cfg(test)]
    Never,
}

thread_local! {
    static LISTS: RefCell<Lists> = RefCell::new(Lists::new());
}

#[inline]
fn pair(i: usize, j: usize) -> usize {
    if i < j {
        i * MAX_NODES + j
    } else {
        j * MAX_NODES + i
    }
}

impl Lists {
    fn new() -> Lists {
        Lists {
            len: 0,
            bit: [0; MAX_NODES],
            chains: 0,
            cells: 0,
            adj: [0; MAX_NODES],
            vc_len: vec![0; MAX_NODES * MAX_NODES],
            vcs: vec![[0; MAX_VCS]; MAX_NODES * MAX_NODES],
            sc_len: vec![0; MAX_NODES * MAX_NODES],
            scs: vec![[Semi::default(); MAX_SCS]; MAX_NODES * MAX_NODES],
            queue: Vec::new(),
            stop: Stop::Vc,
            done: false,
        }
    }

    /// Whether a connection between the edges (a semi-connection with `semi`) ends the
    /// search.
    #[inline]
    fn stops(&self, semi: bool) -> bool {
        match self.stop {
            Stop::Vc => !semi,
            Stop::Semi => true,
            #[cfg(test)]
            Stop::Never => false,
        }
    }

    fn clear(&mut self, len: usize) {
        for i in 0..len {
            for j in i + 1..len {
                self.vc_len[pair(i, j)] = 0;
                self.sc_len[pair(i, j)] = 0;
            }
        }
        self.len = len;
        self.adj[..len].fill(0);
        self.queue.clear();
        self.done = false;
    }

    /// Adds a VC between `i` and `j` unless one with a subset of its carrier is known.
    fn add_vc(&mut self, i: usize, j: usize, carrier: u64) {
        let p = pair(i, j);
        let len = usize::from(self.vc_len[p]);
        let Some(kept) = keep_minimal(&mut self.vcs[p], len, carrier, |&c| c) else {
            return;
        };
        self.vc_len[p] = kept as u8;
        self.adj[i] |= 1 << j;
        self.adj[j] |= 1 << i;
        if p == pair(0, 1) && self.stops(false) {
            self.done = true;
        }
        self.queue.push((i as u8, j as u8, carrier));
    }

    /// Adds an SC between `i` and `j` unless a VC or an SC with a subset of its carrier is
    /// known, then tries the OR rule with it.
    fn add_sc(&mut self, i: usize, j: usize, carrier: u64, key: u64) {
        let p = pair(i, j);
        let vcs = usize::from(self.vc_len[p]);
        if self.vcs[p][..vcs].iter().any(|&c| c & !carrier == 0) {
            return;
        }
        let len = usize::from(self.sc_len[p]);
        let new = Semi { carrier, key };
        let Some(kept) = keep_minimal(&mut self.scs[p], len, new, |s| s.carrier) else {
            return;
        };
        self.sc_len[p] = kept as u8;
        if p == pair(0, 1) && self.stops(true) {
            self.done = true;
            return;
        }
        // OR: the new one with up to MAX_OR − 1 others, their carriers' intersection
        // empty.
        let list = self.scs[p];
        if let Some(union) = or(&list[..kept], carrier, carrier, MAX_OR - 1, 0) {
            self.add_vc(i, j, union);
        }
    }

    /// The AND rule on the VC `end`–`mid` with carrier `c` and each VC from `mid`.
    fn and(&mut self, end: usize, mid: usize, c: u64) {
        let through_chain = self.chains >> mid & 1 != 0;
        if !through_chain && self.cells >> mid & 1 == 0 {
            return;
        }
        let end_bit = self.bit[end];
        let mid_bit = self.bit[mid];
        let mut others = self.adj[mid] & !(1u64 << end);
        while others != 0 && !self.done {
            let z = others.trailing_zeros() as usize;
            others &= others - 1;
            let z_bit = self.bit[z];
            if c & z_bit != 0 {
                continue;
            }
            // What it would make contains `c`: nothing new if `end`–`z` has a VC inside it.
            let q = pair(end, z);
            if self.vcs[q][..usize::from(self.vc_len[q])]
                .iter()
                .any(|&known| known & !c == 0)
            {
                continue;
            }
            let p = pair(mid, z);
            let list = self.vcs[p];
            for &c2 in &list[..usize::from(self.vc_len[p])] {
                if c & c2 != 0 || end_bit & c2 != 0 {
                    continue;
                }
                if through_chain {
                    self.add_vc(end, z, c | c2);
                } else {
                    self.add_sc(end, z, c | c2 | mid_bit, mid_bit);
                }
                if self.done {
                    return;
                }
            }
        }
    }

    /// Runs the rules until nothing new is found (or the edges are joined).
    fn run(&mut self) {
        let mut at = 0;
        while at < self.queue.len() && !self.done {
            let (i, j, c) = self.queue[at];
            at += 1;
            let (i, j) = (usize::from(i), usize::from(j));
            self.and(i, j, c);
            self.and(j, i, c);
        }
    }
}

/// The union of `inter`'s SC and some of `list` (from `from`, at most `more` of them)
/// whose carriers have no cell in common, if there are such.
fn or(list: &[Semi], inter: u64, union: u64, more: usize, from: usize) -> Option<u64> {
    if inter == 0 {
        return Some(union);
    }
    if more == 0 {
        return None;
    }
    for (at, s) in list.iter().enumerate().skip(from) {
        let next = inter & s.carrier;
        // Only those that take a cell out of the intersection.
        if next != inter {
            if let Some(u) = or(list, next, union | s.carrier, more - 1, at + 1) {
                return Some(u);
            }
        }
    }
    None
}

/// What H-search is asked of one player: joining their two edges `a` and `z` (their rows
/// or columns) with their `stones` and the `empty` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Crossing {
    /// The player's stones.
    pub(super) stones: u64,
    /// The empty cells.
    pub(super) empty: u64,
    /// One edge.
    pub(super) a: u64,
    /// The other edge.
    pub(super) z: u64,
}

/// H-search of `crossing`: the VCs and SCs found between the edges. `stop` says when it
/// ends. `None` when the board has too many nodes.
pub(super) fn edges(hex: &Hex, crossing: Crossing, stop: Stop) -> Option<Edges> {
    LISTS.with(|lists| {
        let l = &mut *lists.borrow_mut();
        build(hex, crossing, stop, l)?;
        l.run();
        let p = pair(0, 1);
        let vcs = &l.vcs[p][..usize::from(l.vc_len[p])];
        let mut out = Edges {
            vc: vcs.iter().copied().min_by_key(|c| c.count_ones()),
            ..Edges::default()
        };
        out.scs_len = usize::from(l.sc_len[p]);
        out.scs = l.scs[p];
        Some(out)
    })
}

/// Every VC and SC found (not stopping at the edges), for the tests.
#[cfg(test)]
pub(super) fn all(hex: &Hex, crossing: Crossing) -> Option<Found> {
    LISTS.with(|lists| {
        let l = &mut *lists.borrow_mut();
        let ends = build(hex, crossing, Stop::Never, l)?;
        l.run();
        let mut found = Found {
            ends,
            cells: l.bit[..l.len].to_vec(),
            vcs: Vec::new(),
            scs: Vec::new(),
        };
        for i in 0..l.len {
            for j in i + 1..l.len {
                let p = pair(i, j);
                for &c in &l.vcs[p][..usize::from(l.vc_len[p])] {
                    found.vcs.push((i, j, c));
                }
                for &s in &l.scs[p][..usize::from(l.sc_len[p])] {
                    found.scs.push((i, j, s));
                }
            }
        }
        Some(found)
    })
}

/// Lays out the nodes and the VCs with no carrier; returns each node's cells (an edge:
/// its row; a chain: its stones; an empty cell: itself), `None` with too many nodes.
fn build(hex: &Hex, crossing: Crossing, stop: Stop, l: &mut Lists) -> Option<Vec<u64>> {
    let Crossing {
        stones,
        empty,
        a,
        z,
    } = crossing;
    let flood = |seed: u64| {
        let mut reached = seed;
        loop {
            let next = reached | (hex.neighbours(reached) & stones);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    };
    let on_a = flood(stones & a);
    let on_z = flood(stones & z);
    let mut chains = [0u64; MAX_NODES];
    let mut len = 2;
    let mut rest = stones & !on_a & !on_z;
    while rest != 0 {
        let chain = flood(rest & rest.wrapping_neg());
        rest &= !chain;
        chains[len] = chain;
        len += 1;
    }
    let first_cell = len;
    if len + empty.count_ones() as usize > MAX_NODES {
        return None;
    }
    len += empty.count_ones() as usize;
    l.clear(len);
    l.stop = stop;
    l.bit = [0; MAX_NODES];
    l.chains = ((1u64 << first_cell) - 1) & !3;
    l.cells = if len == 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    } & !((1u64 << first_cell) - 1);
    let mut node_of = [0u8; 64];
    let mut rest = empty;
    let mut node = first_cell;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        l.bit[node] = 1 << c;
        node_of[c] = node as u8;
        node += 1;
    }
    // Next to each other: a VC with no carrier.
    let near_a = a | hex.neighbours(on_a);
    let near_z = z | hex.neighbours(on_z);
    let mut rest = empty;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let cell = 1u64 << c;
        let u = usize::from(node_of[c]);
        if near_a & cell != 0 {
            l.add_vc(0, u, 0);
        }
        if near_z & cell != 0 {
            l.add_vc(1, u, 0);
        }
        let around = hex.neighbours(cell);
        for (j, &chain) in chains.iter().enumerate().take(first_cell).skip(2) {
            if around & chain != 0 {
                l.add_vc(j, u, 0);
            }
        }
        let mut next = around & empty & !(cell | (cell - 1));
        while next != 0 {
            let d = next.trailing_zeros() as usize;
            next &= next - 1;
            l.add_vc(u, usize::from(node_of[d]), 0);
        }
    }
    // A board on which the edges are joined already: done.
    if on_a & on_z != 0 {
        l.add_vc(0, 1, 0);
        l.done = true;
    }
    let mut ends = vec![a | on_a, z | on_z];
    ends.extend_from_slice(&chains[2..first_cell]);
    ends.extend((first_cell..len).map(|u| l.bit[u]));
    Some(ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Whether the player holding `mine` joins `from` and `to` (cells: a chain of theirs
    /// holding one of `from` and one of `to`) playing in `free` alone, the opponent taking
    /// the other cells of `free` (`mover`: whether the player moves first).
    fn joins(
        hex: &Hex,
        mine: u64,
        free: u64,
        from: u64,
        to: u64,
        mover: bool,
        memo: &mut HashMap<(u64, u64, u64, u64, bool), bool>,
    ) -> bool {
        let mut reached = mine & from;
        loop {
            let next = reached | (hex.neighbours(reached) & mine);
            if next == reached {
                break;
            }
            reached = next;
        }
        if reached & to != 0 {
            return true;
        }
        if free == 0 {
            return false;
        }
        if let Some(&w) = memo.get(&(mine, free, from, to, mover)) {
            return w;
        }
        let mut rest = free;
        let mut won = !mover;
        while rest != 0 {
            let c = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if mover {
                if joins(hex, mine | c, free & !c, from, to, false, memo) {
                    won = true;
                    break;
                }
            } else if !joins(hex, mine, free & !c, from, to, true, memo) {
                won = false;
                break;
            }
        }
        memo.insert((mine, free, from, to, mover), won);
        won
    }

    /// A board of `n` × `n` from a shuffle of its cells, the first `stones` taken in turn.
    fn board(hex: &Hex, order: &[u32], stones: usize) -> (u64, u64) {
        let (mut x, mut o) = (0u64, 0u64);
        for (i, &cell) in order
            .iter()
            .filter(|&&c| c < hex.cells)
            .take(stones)
            .enumerate()
        {
            if i % 2 == 0 {
                x |= 1 << cell;
            } else {
                o |= 1 << cell;
            }
        }
        (x, o)
    }

    /// Checks every VC and SC H-search finds for both players on `(x, o)` whose carrier
    /// has at most `most` cells against the game on its carrier; returns how many.
    fn check(hex: &Hex, x: u64, o: u64, most: u32) -> usize {
        let empty = hex.full & !(x | o);
        let mut checked = 0;
        for (mine, a, z) in [(x, hex.top, hex.bottom), (o, hex.left, hex.right)] {
            let Some(found) = all(
                hex,
                Crossing {
                    stones: mine,
                    empty,
                    a,
                    z,
                },
            ) else {
                continue;
            };
            let ends = &found.ends;
            // The player's stones, the empty ends taken as theirs.
            let cells = &found.cells;
            let with = |i: usize, j: usize| mine | cells[i] | cells[j];
            let mut memo = HashMap::new();
            for &(i, j, c) in &found.vcs {
                assert_eq!(c & !empty, 0);
                assert_eq!(c & (cells[i] | cells[j]), 0, "{i} {j}");
                if c.count_ones() <= most {
                    let m = with(i, j);
                    assert!(
                        joins(hex, m, c, ends[i], ends[j], false, &mut memo),
                        "VC n {} {x:x} {o:x} {i} {j} {c:x} ends {:x?} cells {:x?}",
                        hex.n,
                        ends,
                        cells
                    );
                    checked += 1;
                }
            }
            for &(i, j, s) in &found.scs {
                assert_eq!(s.key.count_ones(), 1);
                assert_ne!(s.carrier & s.key, 0);
                assert_eq!(s.carrier & !empty, 0);
                assert_eq!(s.carrier & (cells[i] | cells[j]), 0);
                if s.carrier.count_ones() <= most {
                    let m = with(i, j);
                    assert!(
                        joins(
                            hex,
                            m | s.key,
                            s.carrier & !s.key,
                            ends[i],
                            ends[j],
                            false,
                            &mut memo
                        ),
                        "SC n {} {x:x} {o:x} {i} {j} {s:?} ends {:x?}",
                        hex.n,
                        ends
                    );
                    checked += 1;
                }
            }
        }
        checked
    }

    fn shuffle() -> impl Strategy<Value = Vec<u32>> {
        Just((0..25).collect::<Vec<u32>>()).prop_shuffle()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Every VC H-search finds joins its ends on its carrier with the opponent moving
        /// first; every SC with its key played first.
        #[test]
        fn every_connection_found_holds(n in 3u32..=5, order in shuffle(), stones in 0usize..16) {
            let hex = Hex::new(n);
            let (x, o) = board(&hex, &order, stones);
            check(&hex, x, o, 9);
        }
    }

    /// The empty 3 × 3 board: X's VC between top and bottom (the centre and its bridges),
    /// and the templates every H-search knows: a second-row cell's two cells on the edge.
    #[test]
    fn the_empty_3x3_board_has_a_semi_connection() {
        let hex = Hex::new(3);
        let crossing = |stones: u64| Crossing {
            stones,
            empty: hex.full & !stones,
            a: hex.top,
            z: hex.bottom,
        };
        let found = edges(&hex, crossing(0), Stop::Semi).unwrap();
        assert!(found.vc.is_some() || found.scs_len > 0);
        let found = edges(&hex, crossing(1 << 4), Stop::Vc);
        let c = found.unwrap().vc.expect("the centre's VC");
        assert_eq!(c.count_ones(), 4);
        assert!(check(&hex, 1 << 4, 0, 9) > 50);
    }
}
