//! Blue-Red-Green Hackenbush: a picture of edges attached to the ground; **Left cuts a
//! blue or a green edge, Right a red or a green one**, and every edge no longer connected
//! to the ground falls. Who cannot cut loses. Partizan (*Winning Ways*, ch. 1–2 and 7).
//!
//! A position is the edges still standing, each a pair of nodes and a colour (node 0 is
//! the ground; at most 64 edges), and who is to move. It is written as stalks, each a
//! string of colours from the ground up — `hackenbush(BBR,RG)` — or as edges `a-b:C` —
//! `hackenbush(0-1:B,1-2:R,1-2:G)` — then `right` when Right is to move. Positions are
//! kept normalised (fallen edges dropped, nodes numbered in order of first appearance), so
//! each prints one way, as stalks when it is stalks.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of the values of its
//! components (the parts that share no node but the ground), each valued once per
//! [`Context`]: a blue-red stalk by Berlekamp's sign-expansion rule, a green picture by
//! the fusion and colon principles, anything else from its options, memoised.

use super::family::{squash, Bound, Drawing, Figure, GameRules, Pos, Stroke};
use super::partizan::{self, no_extras, RIGHT};
use super::spec::{Args, Built, Entry, Options, Param, SpecError};
use crate::cgt::{Context, Dyadic, GameId};
use crate::Error;

/// `hackenbush`: the rules, with no parameters (the position is the picture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hackenbush;

/// The most edges a position may have (one bit each in the valuation's masks).
pub const MAX_EDGES: usize = 64;

/// The memo's tag for Hackenbush components (the first word of each key); the fast
/// paths' switch is its lowest bit, so a computation without them never meets theirs.
const TAG: u64 = u64::from_le_bytes(*b"hackenb\0");

/// An edge's colour: whose it is to cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Left's.
    Blue = 1,
    /// Right's.
    Red = 2,
    /// Either's.
    Green = 3,
}

impl Colour {
    fn letter(self) -> char {
        match self {
            Colour::Blue => 'B',
            Colour::Red => 'R',
            Colour::Green => 'G',
        }
    }

    fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'B' => Some(Colour::Blue),
            'R' => Some(Colour::Red),
            'G' => Some(Colour::Green),
            _ => None,
        }
    }

    fn from_bits(bits: u64) -> Colour {
        match bits & 3 {
            1 => Colour::Blue,
            2 => Colour::Red,
            _ => Colour::Green,
        }
    }

    /// Whether `right` (else Left) may cut it.
    fn cut_by(self, right: bool) -> bool {
        self == Colour::Green || (self == Colour::Red) == right
    }

    /// The colour's name, as a figure gives it.
    fn word(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Red => "red",
            Colour::Green => "green",
        }
    }
}

/// One edge: its two nodes (0 the ground) and its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// One end (the smaller, once normalised).
    pub a: u8,
    /// The other end.
    pub b: u8,
    /// Whose it is.
    pub colour: Colour,
}

impl Edge {
    fn new(a: u8, b: u8, colour: Colour) -> Edge {
        Edge { a, b, colour }
    }

    fn write(self, out: &mut String) {
        out.push_str(&format!("{}-{}:{}", self.a, self.b, self.colour.letter()));
    }

    /// 16 bits: the nodes in 7 bits each (a normalised picture of 64 edges has at most
    /// 65 nodes), the colour in 2, never 0.
    fn pack(self) -> u64 {
        u64::from(self.a) | u64::from(self.b) << 7 | (self.colour as u64) << 14
    }

    fn unpack(bits: u64) -> Edge {
        Edge::new(
            (bits & 0x7f) as u8,
            (bits >> 7 & 0x7f) as u8,
            Colour::from_bits(bits >> 14),
        )
    }
}

/// The edges of a position, in order.
fn edges_of(pos: &Pos) -> Vec<Edge> {
    pos.iter()
        .skip(1)
        .flat_map(|&w| (0..4).map(move |i| w >> (16 * i) & 0xffff))
        .take_while(|&bits| bits != 0)
        .map(Edge::unpack)
        .collect()
}

/// Edges (normalised) as words, four to a word.
fn pack_edges(edges: &[Edge], out: &mut Pos) {
    for chunk in edges.chunks(4) {
        out.push(
            chunk
                .iter()
                .enumerate()
                .fold(0, |w, (i, e)| w | e.pack() << (16 * i)),
        );
    }
}

fn position(edges: &[Edge], mover: u64) -> Pos {
    let mut pos = Pos::from_slice(&[mover]);
    pack_edges(edges, &mut pos);
    pos
}

/// The edges still connected to the ground, in their order, nodes renumbered in order of
/// first appearance (the ground stays 0) and each edge written smaller node first. Applied
/// twice it changes nothing, so a position has one form.
///
/// # Complexity
/// O(E · d) for E edges and the picture's depth d.
fn normalise(edges: &[Edge]) -> Vec<Edge> {
    let reached = grounded(edges);
    let mut id = [u8::MAX; 256];
    id[0] = 0;
    let mut next = 1u8;
    let mut out = Vec::with_capacity(edges.len());
    for e in edges.iter().filter(|e| reached[e.a as usize]) {
        for node in [e.a, e.b] {
            if id[node as usize] == u8::MAX {
                id[node as usize] = next;
                next += 1;
            }
        }
        let (a, b) = (id[e.a as usize], id[e.b as usize]);
        out.push(Edge::new(a.min(b), a.max(b), e.colour));
    }
    out
}

/// The nodes connected to the ground (by node number, up to 2 · 64 edges' ends).
fn grounded(edges: &[Edge]) -> [bool; 256] {
    let mut reached = [false; 256];
    reached[0] = true;
    loop {
        let mut grew = false;
        for e in edges {
            let (a, b) = (e.a as usize, e.b as usize);
            if reached[a] != reached[b] {
                (reached[a], reached[b]) = (true, true);
                grew = true;
            }
        }
        if !grew {
            return reached;
        }
    }
}

/// The components of a normalised picture: the sets of edges that share no node but the
/// ground, each normalised (a loop at the ground is a component of its own).
fn components(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let mut taken = vec![false; edges.len()];
    let mut out = Vec::new();
    for first in 0..edges.len() {
        if taken[first] {
            continue;
        }
        // The component's nodes other than the ground, as bits.
        let mut nodes: u128 = (1u128 << edges[first].a | 1u128 << edges[first].b) & !1;
        let mut part = vec![first];
        taken[first] = true;
        if nodes != 0 {
            loop {
                let mut grew = false;
                for (i, e) in edges.iter().enumerate() {
                    let ends = (1u128 << e.a | 1u128 << e.b) & !1;
                    if !taken[i] && ends & nodes != 0 {
                        taken[i] = true;
                        part.push(i);
                        nodes |= ends;
                        grew = true;
                    }
                }
                if !grew {
                    break;
                }
            }
        }
        part.sort_unstable();
        let part: Vec<Edge> = part.into_iter().map(|i| edges[i]).collect();
        out.push(normalise(&part));
    }
    out
}

/// The picture without edge `i`, its fallen edges dropped.
fn cut(edges: &[Edge], i: usize) -> Vec<Edge> {
    let mut rest = edges.to_vec();
    rest.remove(i);
    normalise(&rest)
}

/// How many nodes a normalised picture has (the ground included).
fn node_count(edges: &[Edge]) -> usize {
    edges
        .iter()
        .map(|e| usize::from(e.b) + 1)
        .max()
        .unwrap_or(1)
}

/// The edges of a normalised picture that is one stalk, from the ground up; `None` if
/// it is not a single path from the ground.
fn stalk_order(edges: &[Edge]) -> Option<Vec<Edge>> {
    let n = node_count(edges);
    if edges.len() + 1 != n {
        return None;
    }
    let mut order = Vec::with_capacity(edges.len());
    let mut used = vec![false; edges.len()];
    let mut at = 0u8;
    for _ in 0..edges.len() {
        let mut found = edges
            .iter()
            .enumerate()
            .filter(|&(i, e)| !used[i] && (e.a == at || e.b == at));
        let (i, e) = found.next()?;
        if found.next().is_some() {
            return None;
        }
        used[i] = true;
        order.push(*e);
        at = if e.a == at { e.b } else { e.a };
    }
    Some(order)
}

/// The value of a blue-red stalk (colours from the ground up) by Berlekamp's
/// sign-expansion rule (*Winning Ways*, ch. 2, "Hackenbush strings"): the first run of
/// one colour counts ±1 an edge, then each edge after it ±1/2, ±1/4, …, blue plus and
/// red minus.
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers (a denominator past 2^62).
pub fn stalk_number(colours: &[Colour]) -> Result<Dyadic, Error> {
    let sign = |c: Colour| if c == Colour::Red { -1i128 } else { 1 };
    let Some(&first) = colours.first() else {
        return Ok(Dyadic::ZERO);
    };
    let run = colours.iter().take_while(|&&c| c == first).count();
    let tail = &colours[run..];
    let exp = u32::try_from(tail.len()).map_err(|_| Error::Overflow)?;
    let mut num = sign(first) * run as i128 * (1i128 << exp);
    for (j, &c) in tail.iter().enumerate() {
        num += sign(c) * (1i128 << (tail.len() - 1 - j));
    }
    Dyadic::new(num, exp).ok_or(Error::Overflow)
}

/// The nim value of a green picture (normalised) by the fusion principle (*Winning Ways*,
/// ch. 7): the nodes of each cycle fused into one (with the ground, if it is on the
/// cycle), which turns the cycle's edges into loops, each worth a single edge; then the
/// colon principle on the tree that is left: a node's branches, each one edge more than
/// the value above it, and its loops add in nim (XOR). A tree has no cycle to fuse.
///
/// # Complexity
/// O(E² · d): each edge asked whether it is a bridge by a search without it.
fn green_nimber(edges: &[Edge]) -> u32 {
    let n = node_count(edges);
    // Whether `from` still reaches `to` without edge `skip`.
    let reaches = |skip: usize, from: u8, to: u8| {
        let mut reached = 1u128 << from;
        loop {
            let before = reached;
            for (i, e) in edges.iter().enumerate() {
                let ends = 1u128 << e.a | 1u128 << e.b;
                if i != skip && reached & ends != 0 {
                    reached |= ends;
                }
            }
            if reached == before {
                return reached >> to & 1 == 1;
            }
        }
    };
    let bridge: Vec<bool> = (0..edges.len())
        .map(|i| edges[i].a != edges[i].b && !reaches(i, edges[i].a, edges[i].b))
        .collect();
    // The fused node of each node: the least node its cycles join it to.
    let mut fused: Vec<usize> = (0..n).collect();
    loop {
        let mut changed = false;
        for (e, _) in edges.iter().zip(&bridge).filter(|&(_, &b)| !b) {
            let (a, b) = (fused[e.a as usize], fused[e.b as usize]);
            if a != b {
                let least = a.min(b);
                for f in fused.iter_mut().filter(|f| **f == a || **f == b) {
                    *f = least;
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    fn above(
        edges: &[Edge],
        bridge: &[bool],
        fused: &[usize],
        node: usize,
        parent: Option<usize>,
    ) -> u32 {
        let mut x = 0;
        for (i, e) in edges.iter().enumerate() {
            let (a, b) = (fused[e.a as usize], fused[e.b as usize]);
            if a != node && b != node {
                continue;
            }
            if !bridge[i] {
                // A loop once fused: one edge over nothing.
                x ^= 1;
            } else if Some(i) != parent {
                let other = if a == node { b } else { a };
                x ^= 1 + above(edges, bridge, fused, other, Some(i));
            }
        }
        x
    }
    above(edges, &bridge, &fused, fused[0], None)
}

/// The value of a picture's edges (any order, fallen edges allowed), the sum of its
/// components', each valued once per `context`; `fast` takes the fast paths (blue-red
/// stalks, green pictures), else every component is valued from its options.
///
/// # Errors
/// [`Error::OverLimit`] past the memory `context` allows; [`Error::Cancelled`];
/// [`Error::Overflow`] past the range of the table's numbers (a stalk of more than 62
/// edges after its first run).
///
/// # Complexity
/// Exponential in the edges of the largest component in the worst case (one valuation
/// per subset reached); a blue-red stalk O(E), a green picture O(E² · d) for its depth d.
pub fn value(edges: &[Edge], fast: bool, context: &mut Context) -> Result<GameId, Error> {
    let mut total = context.table.zero();
    for part in components(&normalise(edges)) {
        let v = component_value(&part, fast, context)?;
        total = context.table.sum(total, v)?;
    }
    Ok(total)
}

/// The value of one normalised component.
fn component_value(edges: &[Edge], fast: bool, context: &mut Context) -> Result<GameId, Error> {
    if fast {
        if edges.iter().all(|e| e.colour != Colour::Green) {
            if let Some(order) = stalk_order(edges) {
                let colours: Vec<Colour> = order.iter().map(|e| e.colour).collect();
                let x = stalk_number(&colours)?;
                return Ok(context.table.number(x));
            }
        }
        if edges.iter().all(|e| e.colour == Colour::Green) {
            return Ok(context.table.nimber(green_nimber(edges)));
        }
    }
    let mut key = Pos::from_slice(&[TAG | u64::from(fast), edges.len() as u64]);
    pack_edges(edges, &mut key);
    if let Some(v) = context.recall(&key) {
        return Ok(v);
    }
    let mut sides = [Vec::new(), Vec::new()];
    for (right, side) in sides.iter_mut().enumerate() {
        for i in options(edges, right == 1) {
            side.push(value(&cut(edges, i), fast, context)?);
        }
    }
    let v = context.table.game(&sides[0], &sides[1]);
    context.remember(&key, v);
    context.check()?;
    Ok(v)
}

/// A normalised picture laid out for the page ([`Figure::Edges`]): each node at its
/// distance from the ground (the ground's own edges stand upright), the nodes a tree
/// from the ground, each subtree as wide as its leaves, side by side; a loop at the
/// ground in a column of its own. Edges between the same two points bow apart.
///
/// # Complexity
/// O(E · d) for E edges and the picture's depth d (the search from the ground scans the
/// edges once a level).
fn layout(edges: &[Edge]) -> Figure {
    let n = node_count(edges);
    // Depths and the tree's parents by a search from the ground, level by level.
    let mut depth = vec![u32::MAX; n];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    depth[0] = 0;
    let mut level = vec![0usize];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    while !level.is_empty() {
        let mut next = Vec::new();
        for &v in &level {
            for e in edges {
                let (a, b) = (usize::from(e.a), usize::from(e.b));
                let other = if a == v {
                    b
                } else if b == v {
                    a
                } else {
                    continue;
                };
                if depth[other] == u32::MAX {
                    depth[other] = depth[v] + 1;
                    children[v].push(other);
                    next.push(other);
                }
            }
        }
        order.extend(&level);
        level = next;
    }
    // Each subtree as wide as its leaves (a leaf one column), children left to right.
    let mut width = vec![1u32; n];
    for &v in order.iter().rev() {
        if !children[v].is_empty() {
            width[v] = children[v].iter().map(|&c| width[c]).sum();
        }
    }
    let mut start = vec![0u32; n];
    let mut x = vec![0u32; n];
    for &v in &order {
        let mut at = start[v];
        for &c in &children[v] {
            start[c] = at;
            at += width[c];
        }
        // The centre of the node's columns, in half columns.
        x[v] = 2 * start[v] + width[v];
    }
    let mut columns = if children[0].is_empty() { 0 } else { width[0] };
    let mut strokes: Vec<Stroke> = Vec::with_capacity(edges.len());
    for e in edges {
        let (a, b) = (usize::from(e.a), usize::from(e.b));
        let point = |v: usize| [x[v], depth[v]];
        let (from, to) = match (a, b) {
            (0, 0) => {
                columns += 1;
                let foot = [2 * columns - 1, 0];
                (foot, foot)
            }
            (0, b) => ([x[b], 0], point(b)),
            (a, b) if depth[a] <= depth[b] => (point(a), point(b)),
            (a, b) => (point(b), point(a)),
        };
        // The k-th edge between the same two points bows out: 0, 1, −1, 2, −2, …; loops
        // grow: 0, 1, 2, ….
        let k = strokes
            .iter()
            .filter(|s| (s.from, s.to) == (from, to) || (s.from, s.to) == (to, from))
            .count() as i32;
        let bend = if from == to {
            k
        } else if k % 2 == 1 {
            (k + 1) / 2
        } else {
            -(k / 2)
        };
        strokes.push(Stroke {
            from,
            to,
            colour: e.colour.word(),
            bend,
        });
    }
    Figure::Edges {
        height: depth
            .iter()
            .copied()
            .filter(|&d| d != u32::MAX)
            .max()
            .unwrap_or(0)
            .max(1),
        width: 2 * columns.max(1),
        edges: strokes,
    }
}

/// The edges the mover may cut, one of each set of identical edges (cutting either
/// leaves the same picture).
fn options(edges: &[Edge], right: bool) -> impl Iterator<Item = usize> + '_ {
    (0..edges.len())
        .filter(move |&i| edges[i].colour.cut_by(right) && !edges[..i].contains(&edges[i]))
}

/// The edges as stalks (`BBR`, `RG`) if the picture is stalks numbered as reading them
/// numbers them: each edge from the ground to a new node, or from the last node to a new
/// one.
fn as_stalks(edges: &[Edge]) -> Option<Vec<String>> {
    let mut stalks: Vec<String> = Vec::new();
    for (next, e) in (1u8..).zip(edges) {
        // A new node each time, hung from the ground or from the node just made.
        if e.b != next || (e.a != 0 && e.a + 1 != next) {
            return None;
        }
        if e.a == 0 {
            stalks.push(String::new());
        }
        stalks.last_mut()?.push(e.colour.letter());
    }
    Some(stalks)
}

impl GameRules for Hackenbush {
    fn name(&self) -> String {
        "hackenbush".into()
    }

    partizan::mover_at!(0);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let edges = edges_of(pos);
        let mut items: Vec<String> = match as_stalks(&edges) {
            Some(stalks) => stalks,
            None => edges
                .iter()
                .map(|e| {
                    let mut s = String::new();
                    e.write(&mut s);
                    s
                })
                .collect(),
        };
        if pos[0] == RIGHT {
            items.push("right".into());
        }
        out.push_str(&items.join(","));
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let edges = edges_of(pos);
        for i in options(&edges, pos[0] == RIGHT) {
            out.push(position(&cut(&edges, i), 1 - pos[0]));
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let edges = edges_of(pos).len() as u32;
        Bound {
            // Every subset of the edges, either mover.
            positions: 2u128.saturating_pow(edges + 1),
            moves: u128::from(edges),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(value(&edges_of(pos), true, context))
    }
}

impl Drawing for Hackenbush {
    /// `cut 1-2:R`: the edge cut, as the edges of `from` are written.
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let edges = edges_of(from);
        let after = edges_of(to);
        let Some(i) = options(&edges, from[0] == RIGHT).find(|&i| cut(&edges, i) == after) else {
            return "no move".into();
        };
        let mut name = "cut ".to_string();
        edges[i].write(&mut name);
        name
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = squash(text);
        let name = squash(&self.move_name(from, to));
        said == name || name.strip_prefix("cut").is_some_and(|edge| edge == said)
    }

    /// The edges standing on the ground, laid out ([`Figure::Edges`]): a stalk upright, a
    /// tree spread over its leaves, any picture by each node's distance from the ground.
    fn figure(&self, pos: &Pos) -> Option<Figure> {
        Some(layout(&edges_of(pos)))
    }

    /// The edge cut: the first whose cut leaves `to`.
    fn move_part(&self, from: &Pos, to: &Pos) -> Option<u32> {
        self.move_parts(from, to).first().copied()
    }

    /// Every edge the mover may cut to leave `to`: identical edges, and edges whose cut
    /// leaves the same picture (two equal stalks).
    fn move_parts(&self, from: &Pos, to: &Pos) -> Vec<u32> {
        let edges = edges_of(from);
        let after = edges_of(to);
        let right = from[0] == RIGHT;
        (0..edges.len())
            .filter(|&i| edges[i].colour.cut_by(right) && cut(&edges, i) == after)
            .map(|i| i as u32)
            .collect()
    }

    /// Stalks drawn upright side by side over the ground (`=`), else the edges listed;
    /// then who is to move.
    fn draw(&self, pos: &Pos) -> Option<String> {
        let edges = edges_of(pos);
        let mut s = String::new();
        match as_stalks(&edges) {
            Some(stalks) => {
                let height = stalks.iter().map(String::len).max().unwrap_or(0);
                for row in (0..height).rev() {
                    let line: Vec<String> = stalks
                        .iter()
                        .map(|st| st.chars().nth(row).map_or(' ', |c| c).to_string())
                        .collect();
                    s.push_str(line.join(" ").trim_end());
                    s.push('\n');
                }
                s.push_str(&"=".repeat((2 * stalks.len()).max(2) - 1));
                s.push('\n');
            }
            None => {
                s.push_str("edges (node 0 the ground):\n");
                for e in &edges {
                    s.push_str("  ");
                    e.write(&mut s);
                    s.push('\n');
                }
            }
        }
        s.push_str(if pos[0] == RIGHT {
            "Right (red) to move\n"
        } else {
            "Left (blue) to move\n"
        });
        Some(s)
    }
}

no_extras!(Hackenbush);

const EXAMPLE: &str = "`hackenbush(BBR,RG)` (stalks) or `hackenbush(0-1:B,1-2:R,1-2:G)` (edges)";

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    let Some(items) = args.position() else {
        return Ok(Built::new(Hackenbush, None));
    };
    let (items, mover) = match items.split_last() {
        Some((Param::Word { text, .. }, rest)) if text.eq_ignore_ascii_case("right") => {
            (rest, RIGHT)
        }
        Some((Param::Word { text, .. }, rest)) if text.eq_ignore_ascii_case("left") => (rest, 0),
        _ => (items, 0),
    };
    // Node numbers as written, densely renumbered (the ground kept 0) before normalising.
    let mut written: Vec<u64> = vec![0];
    let mut dense = |node: u64| -> u8 {
        let i = written.iter().position(|&n| n == node).unwrap_or_else(|| {
            written.push(node);
            written.len() - 1
        });
        i as u8
    };
    let edge_form = items
        .first()
        .is_some_and(|p| matches!(p, Param::Word { text, .. } if is_edge(text)));
    let mut edges: Vec<Edge> = Vec::new();
    let mut top = 0u8;
    for item in items {
        let Param::Word { text, at } = item else {
            return Err(args.error_at(
                item.at(),
                format!("expected a stalk or an edge, as in {EXAMPLE}"),
            ));
        };
        let at = *at;
        if is_edge(text) != edge_form {
            return Err(args.error_at(
                at,
                "write the picture as stalks (`BBR`) or as edges (`0-1:B`), not both",
            ));
        }
        let count = if edge_form { 1 } else { text.chars().count() };
        if edges.len() + count > MAX_EDGES {
            return Err(args.error_at(
                at,
                format!("at most {MAX_EDGES} edges: a larger picture is not valued or solved"),
            ));
        }
        if edge_form {
            let (a, b, colour) = read_edge(args, text, at)?;
            edges.push(Edge::new(dense(a), dense(b), colour));
        } else {
            let base = edges.len();
            for (i, c) in text.chars().enumerate() {
                let colour = Colour::from_letter(c).ok_or_else(|| {
                    args.error_at(
                        at + i,
                        format!(
                            "a stalk is edges `B` (blue, Left's), `R` (red, Right's) or `G` (green, either's), from the ground up; found `{c}`"
                        ),
                    )
                })?;
                let below = if i == 0 { 0 } else { top };
                top = (base + i + 1) as u8;
                edges.push(Edge::new(below, top, colour));
            }
        }
    }
    // Stalks stand by construction; an edge written off the ground is refused.
    let reached = grounded(&edges);
    if let Some(i) = edges.iter().position(|e| !reached[e.a as usize]) {
        return Err(args.error_at(
            items[i].at(),
            "this edge is not connected to the ground (node 0): every edge must stand",
        ));
    }
    let kept = normalise(&edges);
    Ok(Built::new(Hackenbush, Some(position(&kept, mover))))
}

/// Whether a position item is an edge (`0-1:B`) rather than a stalk.
fn is_edge(text: &str) -> bool {
    text.contains(['-', ':'])
}

/// The nodes and colour of an edge `a-b:C`.
fn read_edge(args: &Args<'_>, text: &str, at: usize) -> Result<(u64, u64, Colour), SpecError> {
    let shape =
        "an edge is two nodes and a colour, as in `0-1:B` (node 0 the ground; `B`, `R` or `G`)";
    let Some((nodes, colour)) = text.split_once(':') else {
        return Err(args.error_at(
            at + text.chars().count(),
            format!("expected `:` and a colour: {shape}"),
        ));
    };
    let Some((a, b)) = nodes.split_once('-') else {
        return Err(args.error_at(at + nodes.chars().count(), format!("expected `-`: {shape}")));
    };
    let node = |s: &str, at: usize| -> Result<u64, SpecError> {
        s.parse::<u64>()
            .ok()
            .filter(|&n| n < 1 << 32)
            .ok_or_else(|| args.error_at(at, format!("expected a node number below 2^32: {shape}")))
    };
    let a_at = at;
    let b_at = at + a.chars().count() + 1;
    let colour_at = at + nodes.chars().count() + 1;
    let a = node(a, a_at)?;
    let b = node(b, b_at)?;
    let mut letters = colour.chars();
    let colour = match (letters.next().and_then(Colour::from_letter), letters.next()) {
        (Some(c), None) => c,
        _ => {
            return Err(args.error_at(
                colour_at,
                format!("expected the colour `B`, `R` or `G`: {shape}"),
            ))
        }
    };
    Ok((a, b, colour))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "hackenbush",
    examples: &["hackenbush(BBR,RG)", "hackenbush(0-1:G,1-2:B,1-2:R,0-2:G,2-3:B)"],
    small: &["hackenbush(BRG,GB,RR)", "hackenbush(0-1:G,1-2:B,0-2:R,2-3:G,3-3:B,right)"],
    shape: "hackenbush(stalks or edges,right): Blue-Red-Green Hackenbush; Left cuts blue or green, Right red or green, what falls off the ground goes (stalks from the ground up: `BBR,RG`; edges: `0-1:B,1-2:G`, node 0 the ground; `right`: Right to move)",
    build,
    options: Options::NONE,
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgt::{write, Class, Spelling};
    use crate::games::Spec;
    use proptest::prelude::*;

    fn context() -> Context<'static> {
        Context::new(1 << 28)
    }

    /// A spec's value, printed as CGSuite does.
    fn value_of(spec: &str, context: &mut Context) -> String {
        let spec: Spec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
        let part = spec.single().unwrap();
        let g = part
            .family
            .cgt_value(&part.position, context)
            .unwrap()
            .unwrap();
        write(&mut context.table, g, Spelling::Ascii)
    }

    /// Both ways: with the fast paths and from the options alone.
    fn both(edges: &[Edge]) -> (String, String) {
        let (mut fast, mut slow) = (context(), context());
        let f = value(edges, true, &mut fast).unwrap();
        let s = value(edges, false, &mut slow).unwrap();
        (
            write(&mut fast.table, f, Spelling::Ascii),
            write(&mut slow.table, s, Spelling::Ascii),
        )
    }

    fn stalk(colours: &str) -> Vec<Edge> {
        colours
            .chars()
            .enumerate()
            .map(|(i, c)| Edge::new(i as u8, i as u8 + 1, Colour::from_letter(c).unwrap()))
            .collect()
    }

    /// Blue-red stalks, *Winning Ways* ch. 2 ("Hackenbush strings"; Berlekamp's rule):
    /// n blue edges are n, B R = 1/2, B R R = 1/4, B B R = 3/2, B R B = 3/4, R B = -1/2,
    /// and a stalk and its colours swapped cancel. Each is checked with the fast path and
    /// from the options alone.
    #[test]
    fn blue_red_stalks_have_their_published_values() {
        let mut c = context();
        for (spec, want) in [
            ("hackenbush()", "0"),
            ("hackenbush(B)", "1"),
            ("hackenbush(BBB)", "3"),
            ("hackenbush(R)", "-1"),
            ("hackenbush(BR)", "1/2"),
            ("hackenbush(BRR)", "1/4"),
            ("hackenbush(BBR)", "3/2"),
            ("hackenbush(BRB)", "3/4"),
            ("hackenbush(RB)", "-1/2"),
            ("hackenbush(BRRR)", "1/8"),
            ("hackenbush(BR,BR,R)", "0"),
            ("hackenbush(BBRB,RRBR)", "0"),
        ] {
            assert_eq!(value_of(spec, &mut c), want, "{spec}");
        }
        for colours in ["BR", "BRR", "BBR", "BRB", "RB", "RRBBRB"] {
            let (fast, slow) = both(&stalk(colours));
            assert_eq!(fast, slow, "{colours}");
        }
    }

    /// Green Hackenbush is Nim (*Winning Ways* ch. 7): a green stalk of n edges is *n;
    /// a tree is valued by the colon principle (branches at a node are replaced by one
    /// stalk of their nim sum: two single edges on one edge are `1 + (1 xor 1)`, *1;
    /// stalks of 1 and 2 on one edge `1 + (1 xor 2)`, *4); a cycle by the fusion principle
    /// (its nodes fused, its edges become loops: a triangle through the ground is three
    /// loops, *1; a square four, 0; a triangle on an edge `1 + 1`, *2).
    #[test]
    fn green_pictures_are_nimbers() {
        let mut c = context();
        for n in 0..=6 {
            let spec = format!("hackenbush({})", "G".repeat(n));
            let spec = if n == 0 { "hackenbush()".into() } else { spec };
            let want = match n {
                0 => "0".to_string(),
                1 => "*".to_string(),
                n => format!("*{n}"),
            };
            assert_eq!(value_of(&spec, &mut c), want, "{spec}");
            let (fast, slow) = both(&stalk(&"G".repeat(n)));
            assert_eq!(fast, slow);
        }
        // A fork: one edge, two on top of it: 1 + (1 xor 1) = 1.
        assert_eq!(value_of("hackenbush(0-1:G,1-2:G,1-3:G)", &mut c), "*");
        // One edge with stalks of 1 and 2 on top: 1 + (1 xor 2) = 4.
        assert_eq!(
            value_of("hackenbush(0-1:G,1-2:G,1-3:G,3-4:G)", &mut c),
            "*4"
        );
        // Fusion: a triangle through the ground is *1, a square 0, a triangle on a
        // stalk of one edge 1 + 1 = *2.
        assert_eq!(value_of("hackenbush(0-1:G,1-2:G,0-2:G)", &mut c), "*");
        assert_eq!(value_of("hackenbush(0-1:G,1-2:G,2-3:G,0-3:G)", &mut c), "0");
        assert_eq!(
            value_of("hackenbush(0-1:G,1-2:G,2-3:G,1-3:G)", &mut c),
            "*2"
        );
        // The same from the options alone.
        for cycle in [
            "hackenbush(0-1:G,1-2:G,0-2:G)",
            "hackenbush(0-1:G,1-2:G,2-3:G,0-3:G)",
            "hackenbush(0-1:G,1-2:G,2-3:G,1-3:G)",
        ] {
            let spec: Spec = cycle.parse().unwrap();
            let (fast, slow) = both(&edges_of(&spec.single().unwrap().position));
            assert_eq!(fast, slow, "{cycle}");
        }
    }

    /// Mixed pictures, worked by the rules and named by the definitions (Siegel,
    /// *Combinatorial Game Theory*, II.1: `^ = {0|*}`, `^* = {0,*|0}`): a blue edge on a
    /// green one is `{0,*|0} = ^*` (Left cuts either, Right only the green one), a red
    /// one `v*`; a green edge on a blue one `{0,1|1} = 1*`.
    #[test]
    fn a_blue_edge_on_a_green_one_is_up_star() {
        let mut c = context();
        assert_eq!(value_of("hackenbush(GB)", &mut c), "^*");
        assert_eq!(value_of("hackenbush(GR)", &mut c), "v*");
        assert_eq!(value_of("hackenbush(BG)", &mut c), "1*");
        assert_eq!(value_of("hackenbush(GB,GR)", &mut c), "0");
        assert_eq!(value_of("hackenbush(GB,G)", &mut c), "^");
        assert_eq!(value_of("hackenbush(GB,GB)", &mut c), "^^");
    }

    /// The printed position parses back to itself, as stalks when it is stalks, and a
    /// cut leaves its fallen edges behind.
    #[test]
    fn positions_print_as_stalks_or_edges() {
        let spec: Spec = "hackenbush(0-5:B,5-9:R,right)".parse().unwrap();
        assert_eq!(spec.to_string(), "hackenbush(BR,right)");
        let spec: Spec = "hackenbush(0-1:B,1-2:R,1-2:G)".parse().unwrap();
        assert_eq!(spec.to_string(), "hackenbush(0-1:B,1-2:R,1-2:G)");
        let part = spec.single().unwrap();
        let mut children = Vec::new();
        part.family.moves(&part.position, &mut children);
        // Left cuts the blue edge (all falls) or the green one.
        let shown: Vec<String> = children
            .iter()
            .map(|c| {
                Spec {
                    parts: vec![part.with(c.clone())],
                }
                .to_string()
            })
            .collect();
        assert_eq!(shown, ["hackenbush(right)", "hackenbush(BR,right)"]);
        let names: Vec<String> = children
            .iter()
            .map(|c| part.family.move_name(&part.position, c))
            .collect();
        assert_eq!(names, ["cut 0-1:B", "cut 1-2:G"]);
        assert!(part
            .family
            .names_move(&part.position, &children[1], "1-2:g"));
        let drawn = part.family.draw(&part.position).unwrap();
        assert!(drawn.contains("1-2:G") && drawn.contains("Left"), "{drawn}");
        let spec: Spec = "hackenbush(BBR,G)".parse().unwrap();
        let part = spec.single().unwrap();
        assert_eq!(
            part.family.draw(&part.position).unwrap(),
            "R\nB\nB G\n===\nLeft (blue) to move\n"
        );
    }

    #[test]
    fn bad_pictures_are_refused_with_where() {
        for (bad, column) in [
            ("hackenbush(BXR)", 13),
            ("hackenbush(3)", 12),
            ("hackenbush(BR,0-1:B)", 15),
            ("hackenbush(0-1:B,2-3:R)", 18),
            ("hackenbush(0-1:Q)", 16),
            ("hackenbush(0-1)", 15),
            ("hackenbush(0:B)", 13),
            ("hackenbush(0-x:B)", 14),
            ("hackenbush(0-99999999999:B)", 14),
            ("hackenbush[2](B)", 12),
            ("hackenbush(B,up)", 14),
        ] {
            let err = bad.parse::<Spec>().unwrap_err();
            assert_eq!(err.column, column, "{bad}: {err}");
        }
        let long = format!("hackenbush({})", "B".repeat(65));
        let err = long.parse::<Spec>().unwrap_err();
        assert!(err.message.contains("at most 64 edges"), "{err}");
        let edges: Vec<String> = (0..65).map(|i| format!("0-{}:G", i + 1)).collect();
        let err = format!("hackenbush({})", edges.join(","))
            .parse::<Spec>()
            .unwrap_err();
        assert!(err.message.contains("at most 64 edges"), "{err}");
        // 64 edges are read; a stalk of 64 is valued (its denominator 2^62 at most)
        // or refused as past the numbers, never a panic.
        let ok = format!("hackenbush({})", "B".repeat(64));
        assert_eq!(value_of(&ok, &mut context()), "64");
        let spec: Spec = format!("hackenbush(B{})", "R".repeat(63)).parse().unwrap();
        let part = spec.single().unwrap();
        let got = part
            .family
            .cgt_value(&part.position, &mut context())
            .unwrap();
        assert!(matches!(got, Err(Error::Overflow)), "{got:?}");
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        let spec: Spec = "hackenbush(0-1:B,1-2:R,2-3:G,3-1:B,0-3:R,2-4:G,4-5:R,5-0:B,1-5:G)"
            .parse()
            .unwrap();
        let part = spec.single().unwrap();
        let mut c = Context::new(2_000);
        let err = part
            .family
            .cgt_value(&part.position, &mut c)
            .unwrap()
            .unwrap_err();
        assert!(err.is_too_large(), "{err}");
    }

    /// A Hackenbush part adds to a Domineering one: `±1 + 1/2 = {3/2|-1/2}`.
    /// An edge of a figure as `(from, to, colour, bend)`.
    type Drawn = ([u32; 2], [u32; 2], &'static str, i32);

    /// A figure's edges, its width and its height.
    fn strokes(spec: &str) -> (Vec<Drawn>, u32, u32) {
        let spec: Spec = spec.parse().unwrap();
        let part = spec.single().unwrap();
        match part.family.figure(&part.position) {
            Some(Figure::Edges {
                edges,
                width,
                height,
            }) => (
                edges
                    .iter()
                    .map(|s| (s.from, s.to, s.colour, s.bend))
                    .collect(),
                width,
                height,
            ),
            other => panic!("{spec}: {other:?}"),
        }
    }

    /// Stalks stand upright side by side, one column each; a picture's nodes stand at
    /// their distance from the ground, two edges between the same nodes bow apart, and
    /// loops sit on their node (or on the ground, in a column of their own).
    #[test]
    fn pictures_are_laid_out_from_the_ground() {
        let (edges, width, height) = strokes("hackenbush(BBR,RG)");
        assert_eq!(
            edges,
            [
                ([1, 0], [1, 1], "blue", 0),
                ([1, 1], [1, 2], "blue", 0),
                ([1, 2], [1, 3], "red", 0),
                ([3, 0], [3, 1], "red", 0),
                ([3, 1], [3, 2], "green", 0),
            ]
        );
        assert_eq!((width, height), (4, 3));
        let (edges, width, height) = strokes("hackenbush(0-1:G,1-2:B,1-2:R,0-2:G,2-3:B)");
        assert_eq!(
            edges,
            [
                ([1, 0], [1, 1], "green", 0),
                ([1, 1], [3, 1], "blue", 0),
                ([1, 1], [3, 1], "red", 1),
                ([3, 0], [3, 1], "green", 0),
                ([3, 1], [3, 2], "blue", 0),
            ]
        );
        assert_eq!((width, height), (4, 2));
        // A tree spreads over its leaves: the trunk over the middle of its two branches.
        let (edges, width, _) = strokes("hackenbush(0-1:B,1-2:R,1-3:G)");
        assert_eq!(
            edges,
            [
                ([2, 0], [2, 1], "blue", 0),
                ([2, 1], [1, 2], "red", 0),
                ([2, 1], [3, 2], "green", 0),
            ]
        );
        assert_eq!(width, 4);
        let (edges, width, _) = strokes("hackenbush(0-1:G,1-1:B,1-1:R,0-0:B)");
        assert_eq!(
            edges,
            [
                ([1, 0], [1, 1], "green", 0),
                ([1, 1], [1, 1], "blue", 0),
                ([1, 1], [1, 1], "red", 1),
                ([3, 0], [3, 0], "blue", 0),
            ]
        );
        assert_eq!(width, 4);
    }

    /// A cut is clicked at its edge: every edge whose cut leaves the same picture.
    #[test]
    fn cuts_are_clicked_at_their_edges() {
        let parts = |spec: &str| -> Vec<(String, Option<u32>, Vec<u32>)> {
            let spec: Spec = spec.parse().unwrap();
            let part = spec.single().unwrap();
            let (family, pos) = (&part.family, &part.position);
            let mut children = Vec::new();
            family.moves(pos, &mut children);
            let figure = family.figure(pos).unwrap();
            children
                .iter()
                .map(|to| {
                    let all = family.move_parts(pos, to);
                    assert!(all.iter().all(|&p| (p as usize) < figure.parts()));
                    (family.move_name(pos, to), family.move_part(pos, to), all)
                })
                .collect()
        };
        // Left cuts blue and green: edges 0, 1, 3 and 4 of five.
        let left = parts("hackenbush(0-1:G,1-2:B,1-2:R,0-2:G,2-3:B)");
        assert_eq!(
            left.iter().map(|(_, p, _)| p.unwrap()).collect::<Vec<_>>(),
            [0, 1, 3, 4]
        );
        assert_eq!(left[1].0, "cut 1-2:B");
        // Right cuts red and green.
        let right = parts("hackenbush(0-1:G,1-2:B,1-2:R,0-2:G,2-3:B,right)");
        assert_eq!(
            right.iter().map(|(_, p, _)| p.unwrap()).collect::<Vec<_>>(),
            [0, 2, 3]
        );
        // Two equal stalks: either stalk's edge cuts "one of them".
        let twins = parts("hackenbush(B,B)");
        assert!(twins.iter().all(|(_, _, all)| all == &[0, 1]));
        // Identical edges: either one.
        let double = parts("hackenbush(0-1:B,0-1:B)");
        assert_eq!(double, [("cut 0-1:B".to_string(), Some(0), vec![0, 1])]);
    }

    #[test]
    fn sums_with_domineering() {
        use crate::report::Limits;
        let spec: Spec = "domineering[2x2] + hackenbush(BR)".parse().unwrap();
        let v =
            crate::report::value::value(&spec, &Limits::default(), &mut context(), Spelling::Ascii)
                .unwrap();
        assert_eq!(v.parts[1].value, "1/2");
        assert_eq!((v.value.as_str(), v.class), ("{3/2|-1/2}", "N"));
    }

    /// Random pictures: up to `max` edges among `nodes` nodes, normalised.
    fn pictures(
        max: usize,
        nodes: u8,
        colours: &'static [Colour],
    ) -> impl Strategy<Value = Vec<Edge>> {
        prop::collection::vec((0..nodes, 0..nodes, prop::sample::select(colours)), 1..=max)
            .prop_map(|raw| {
                normalise(
                    &raw.into_iter()
                        .map(|(a, b, c)| Edge::new(a, b, c))
                        .collect::<Vec<_>>(),
                )
            })
    }

    /// A random tree: each new node hangs from an earlier one.
    fn trees(max: usize) -> impl Strategy<Value = Vec<Edge>> {
        prop::collection::vec(any::<prop::sample::Index>(), 1..=max).prop_map(|parents| {
            parents
                .iter()
                .enumerate()
                .map(|(i, p)| Edge::new(p.index(i + 1) as u8, i as u8 + 1, Colour::Green))
                .collect()
        })
    }

    /// Whether the mover wins by play (plain minimax on the family's moves, no values).
    fn wins(pos: &Pos) -> bool {
        let mut children = Vec::new();
        Hackenbush.moves(pos, &mut children);
        children.iter().any(|c| !wins(c))
    }

    const ALL: &[Colour] = &[Colour::Blue, Colour::Red, Colour::Green];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Berlekamp's rule equals the values from the options on random blue-red stalks.
        #[test]
        fn the_sign_expansion_rule_is_the_value(colours in "[BR]{1,10}") {
            let (fast, slow) = both(&stalk(&colours));
            prop_assert_eq!(fast, slow);
        }

        /// The colon principle equals the values from the options on random green trees.
        #[test]
        fn the_colon_principle_is_the_value(tree in trees(9)) {
            let (fast, slow) = both(&tree);
            prop_assert_eq!(fast, slow);
        }

        /// The fusion principle equals the values from the options on random green
        /// pictures (cycles, loops and parallel edges among them).
        #[test]
        fn the_fusion_principle_is_the_value(edges in pictures(9, 5, &[Colour::Green])) {
            let (fast, slow) = both(&edges);
            prop_assert_eq!(fast, slow);
        }

        /// On random pictures, the fast paths (which take their stalks and trees) change
        /// nothing, and the value's outcome class is who wins by play, Left first and
        /// Right first.
        #[test]
        fn the_class_is_who_wins_by_play(edges in pictures(7, 5, ALL)) {
            let (fast, slow) = both(&edges);
            prop_assert_eq!(&fast, &slow);
            let mut c = context();
            let g = value(&edges, true, &mut c).unwrap();
            let left = wins(&position(&edges, 0));
            let right = wins(&position(&edges, RIGHT));
            prop_assert_eq!(c.table.class(g), Class::from_winners(left, right), "{}", fast);
        }

        /// Every picture prints and parses back to itself.
        #[test]
        fn pictures_round_trip(edges in pictures(8, 6, ALL), right in any::<bool>()) {
            let pos = position(&edges, u64::from(right));
            let mut text = String::new();
            Hackenbush.write_position(&pos, &mut text);
            let spec: Spec = format!("hackenbush({text})").parse().unwrap();
            prop_assert_eq!(&spec.single().unwrap().position, &pos, "{}", text);
        }
    }
}
