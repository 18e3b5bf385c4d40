//! The open family interface: everything the analyzer, `table`, `pattern`, `play`, the
//! command line and the web page know about a game, in small capability traits bundled
//! into one object-safe trait ([`Family`]: [`GameRules`] and [`Drawing`] required,
//! [`Scores`], [`Indexing`], [`Searching`], [`Patterns`] and [`Grundy`] optional), and a
//! position of one family or a sum of several ([`Spec`]).
//!
//! A family instance is the rules with their parameters (`octal[0.77]`, `multiple[2]`,
//! `chomp[3x4]`); a position is a short list of words ([`Pos`]) whose meaning only the
//! family knows (heap sizes, `[stones, limit]`, a packed board). Nothing outside the
//! family's own file interprets them.

use std::fmt;
use std::sync::Arc;

use smallvec::SmallVec;

use super::code;
use crate::explore::Control;
use crate::game::{Outcome, Player};
use crate::search::exact::{self, Searchable, Table};
use crate::sequence::period::Period;
use crate::tier::TierGame;
use crate::Error;

/// A position of one family: words only the family interprets.
pub type Pos = SmallVec<[u64; 4]>;

/// What kind of game a family is, which decides the methods that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Both players have the same moves: Sprague–Grundy values, sums.
    Impartial,
    /// The players have different moves (boards with two colours); win, loss or draw.
    Partizan,
    /// The players collect points; the larger total wins (minimax on the margin).
    Score,
}

/// Upper bounds on what exploring a position may meet, to refuse up front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// Positions reachable (an upper bound; saturating).
    pub positions: u128,
    /// Moves from any reachable position (an upper bound; saturating).
    pub moves: u128,
}

/// What a Grundy table of a family would cost: bytes of memory and elementary steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    /// Bytes of memory.
    pub bytes: u128,
    /// Elementary steps.
    pub work: u128,
}

/// Where the Grundy values of a family's components come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrundySource {
    /// No Grundy values (partizan and score games).
    None,
    /// A formula: [`Grundy::grundy_formula`], at any size.
    Formula,
    /// Each component is one heap of a heap game with these finite rules: the sequence
    /// engine (`crate::octal`) tabulates them, or proves their period.
    Heaps(code::Rules),
    /// The family tabulates its own values ([`Grundy::grundy_table`]).
    Table,
}

/// The Grundy values of a family's components, as an oracle built once.
pub trait Values: Send + Sync {
    /// The Grundy value of one component.
    fn value(&self, component: &Pos) -> u64;
    /// The proved period of a heap game's values, when that is what answers.
    fn period(&self) -> Option<&Period> {
        None
    }
}

/// A proved rule of the special method: outcome and winning moves at any size, in
/// O(log n) or so.
pub trait ProvedRule: Send + Sync {
    /// The theorem, in one line.
    fn theorem(&self) -> String;
    /// Whether the player to move at `pos` loses.
    fn is_loss(&self, pos: &Pos) -> bool;
    /// Every winning move from `pos`: the positions they lead to.
    fn winning_moves(&self, pos: &Pos) -> Vec<Pos>;
    /// Whether the rule speaks of `pos` (default: of every position of the family). A
    /// rule of some positions only (circular games: circles of 3 and more) leaves the
    /// others to the other methods.
    fn applies(&self, _pos: &Pos) -> bool {
        true
    }
}

/// Where the special method starts for a family (`grundy pattern`).
#[derive(Debug)]
pub enum PatternSource {
    /// Nothing to look for.
    None,
    /// A known closed form, stated as it is.
    Known(Discovery),
    /// A heap game with finite rules: find (and prove) the period of its values.
    Period(code::Rules),
    /// The family searches its own rule: the general method on its small members, a
    /// shape of rule fitted to the losing positions, the rule checked against them (the
    /// k-fold take-away game's recurrences, Wythoff's Beatty pairs).
    Search(Box<dyn RuleSearch>),
}

/// A family's own search for its rule ([`PatternSource::Search`]): the general method
/// run on every position up to a size, the losing positions fitted by a shape of rule,
/// and the rule checked on every one of them.
pub trait RuleSearch: fmt::Debug + Send + Sync {
    /// How far the search looks when not told.
    fn default_up_to(&self) -> u64;
    /// What checking every position up to `up_to` costs, with what it computes ("the
    /// general method's table"), so that a search too large is refused up front.
    fn cost(&self, up_to: u64) -> (&'static str, Cost);
    /// The rule found and checked up to `up_to`.
    ///
    /// # Errors
    /// [`Error::Cancelled`]; [`Error::TooLarge`]; [`Error::Unsupported`] if the rule
    /// found disagrees with the general method somewhere (reported with the position).
    fn discover(&self, up_to: u64, control: &Control<'_>) -> Result<Discovery, Error>;
}

/// What rule discovery found for a family.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// The family, as written.
    pub family: String,
    /// `"periodic"`, `"arithmetic-periodic"`, `"recurrence"`, `"beatty"` or `"none"`.
    pub kind: &'static str,
    /// `(period, preperiod, saltus)` for periodic kinds.
    pub period: Option<(u64, u64, u64)>,
    /// The first losing positions of a one-number family (heap sizes, starts).
    pub p_positions: Vec<u64>,
    /// The first losing positions of a two-pile family, both piles (`(a, b)`, `a ≤ b`).
    pub p_pairs: Vec<[u64; 2]>,
    /// One line a person can read.
    pub rule: String,
    /// Whether a theorem proves the rule for every size.
    pub proved: bool,
    /// The theorem, when `proved`.
    pub theorem: Option<String>,
    /// Every position up to this size was checked against the general method.
    pub checked_up_to: u64,
}

/// Positions numbered densely: `rank`, `unrank`, `size` with `u64` ranks, so that tables
/// are indexed by rank — no hash map, no `Vec` of positions. Ranks of canonical
/// positions; with symmetries, the canonical rank is the least image's.
pub trait Ranked: Send + Sync {
    /// Every rank is below this.
    fn size(&self) -> u64;
    /// The rank of (the canonical form of) `pos`.
    fn rank(&self, pos: &Pos) -> u64;
    /// The position of a rank.
    fn unrank(&self, rank: u64) -> Pos;
    /// Appends the rank of the position after each move from `rank`, in move order.
    fn moves(&self, rank: u64, out: &mut Vec<u64>);
    /// The declared outcome of a terminal position (as [`GameRules::terminal`]).
    fn terminal(&self, _rank: u64) -> Option<Outcome> {
        None
    }
    /// Whether every move goes to a smaller rank (the game is then acyclic, and solved in
    /// one pass of increasing rank with no graph kept). A solver checks it on every move
    /// and falls back to the general method if it is broken.
    fn descending(&self) -> bool {
        false
    }
    /// The ranks after each move from `rank` into `out`, cleared first (none from a
    /// terminal rank), and whether each is below `rank`: a solver of one pass by rank
    /// ([`Ranked::descending`]) gives up where one is not.
    fn moves_below(&self, rank: u64, out: &mut Vec<u64>) -> bool {
        out.clear();
        if self.terminal(rank).is_none() {
            self.moves(rank, out);
        }
        out.iter().all(|&c| c < rank)
    }
    /// A score game's points on the move from `from` to the child `to` (one of
    /// [`Ranked::moves`]): `[gain, gift]`, as [`Scores::gain`] and [`Scores::gift`] give
    /// them, so that minimax runs on ranks with no position built
    /// ([`crate::report::minimax_ranked`]: O(1) a position where a position is long, as
    /// `ends`' rows are). `None` (the default): not offered; minimax explores positions.
    fn points(&self, _from: u64, _to: u64) -> Option<[i64; 2]> {
        None
    }
    /// Whether a rank stands for a position and its images under the board's symmetries
    /// (then the positions a solver counts are counted up to symmetry, and reports say
    /// so). Default: no.
    fn symmetric(&self) -> bool {
        false
    }
}

/// A board as a grid of cells, for pictures: the web page draws it and colours the cell of
/// each move by its value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Picture {
    /// Rows, the top one first.
    pub rows: u32,
    /// Columns, the left one first.
    pub columns: u32,
    /// What each cell shows, row by row from the top: `""` empty, `"X"` or `"O"` a piece
    /// of the first or second player, a number (seeds in a pit), or a short label (what
    /// each [`Look`] puts in its cells says there).
    pub cells: Vec<String>,
    /// How the cells are drawn: as the game's players know its board.
    pub look: Look,
}

impl Picture {
    /// A picture of `rows` × `columns` cells (what each shows, row by row from the top),
    /// drawn with `look`.
    #[must_use]
    pub fn new(rows: u32, columns: u32, cells: Vec<String>, look: Look) -> Picture {
        Picture {
            rows,
            columns,
            cells,
            look,
        }
    }
}

/// How the web page draws a [`Picture`]'s cells: the board's own look. The geometry
/// (rows, columns, which cell a move is clicked at) is the picture's; the look only says
/// what a cell looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Look {
    /// Square cells marked `X` or `O` (tic-tac-toe, the m,n,k-games).
    Marks,
    /// Round holes in an upright frame, `X` and `O` discs of two colours (connect four).
    Discs,
    /// Hexagons, each row half a cell right of the one above, so the board is a rhombus;
    /// `X` joins the top and bottom sides, `O` the left and right (hex).
    Hexes,
    /// Cubes showing `X`, `O` or blank (Quixo): a move is clicked at the cube taken.
    Cubes,
    /// A chocolate bar from the top row down: `"#"` a square still there, `"x"` the
    /// poisoned one, `""` a square eaten (Chomp).
    Bar,
    /// Dots and boxes on a (2r + 1) × (2c + 1) grid: `"+"` a dot (even row and column),
    /// `"-"` or `"|"` a line drawn between two dots (`""` not yet), `"#"` a box taken.
    Lines,
    /// Pits of seeds, each cell a count. With two rows, North's pits along the top and
    /// South's below, the first and last columns are the stores (North's on the left,
    /// South's on the right; a store's cell is `""` where the position does not say what
    /// it holds); with one row, a row of pits (Ioiwari).
    Pits,
    /// A row of numbers to take from either end (IOI 1996 "A Game").
    Numbers,
    /// Heaps of tokens side by side, one column a heap standing on the last row: `"o"` a
    /// token, `""` none; the last row says each heap's size. A move is clicked at the
    /// lowest token it takes (heap games, Fibonacci nim, Wythoff's piles).
    Heaps,
    /// Circles and rows of tokens, one grid row each, in the position's order (circular
    /// take-and-break games): `"c"` a token of a circle, drawn around a ring clockwise from
    /// the top; `"o"` a token of a row, drawn in a line from the left; `""` none (the
    /// grid is as wide as the largest). A move is clicked at a token it takes: on a circle
    /// the last of those it takes clockwise from the top, on a row the first from the left.
    Rings,
    /// A strip of cells, the row of a one-row grid: `"T"` one of Left's toads (facing
    /// right), `"F"` one of Right's frogs (facing left), `""` an empty cell (Toads and
    /// Frogs). A move is clicked at the piece that moves.
    Strip,
}

/// A position drawn as a figure that is not a grid (the web page draws it): a token on a
/// directed graph, or a convex polygon cut into triangles. Each move is clicked at one
/// element of it ([`Drawing::move_part`]): a vertex of the graph, a triangle of the polygon.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Figure {
    /// A token on a directed graph whose vertices are owned by a player (IOI 2001
    /// "Score"). Vertices are 0-based here; `names` says how people number them.
    Graph {
        /// What each vertex is called (its number in the task's input).
        names: Vec<String>,
        /// The owner of each vertex: 1 or 2.
        owners: Vec<u8>,
        /// What each vertex holds (its value), as shown inside it.
        labels: Vec<String>,
        /// The arrows, `[from, to]`.
        arrows: Vec<[u32; 2]>,
        /// The vertex the game starts and ends on.
        start: u32,
        /// The token's vertex.
        token: u32,
        /// The scores of players 1 and 2 so far.
        scores: [u64; 2],
        /// The player to move: 1 or 2.
        to_move: u8,
    },
    /// A convex polygon, vertices 0..n−1 clockwise, cut into triangles by diagonals
    /// (POI 1999 "Polygons"); triangle 0 is the black one.
    Polygon {
        /// The polygon's vertices.
        vertices: u32,
        /// Every triangle of the triangulation, by its vertices.
        triangles: Vec<[u32; 3]>,
        /// Whether each triangle is still there.
        left: Vec<bool>,
    },
    /// Coloured edges standing on the ground (Hackenbush), laid out by the family: each
    /// edge from one point to another of a grid whose `x` counts half columns from the
    /// left and `y` levels above the ground (`y = 0` is on the ground). Part `i` is edge
    /// `i`.
    Edges {
        /// The edges, in the position's order.
        edges: Vec<Stroke>,
        /// The half columns the picture spans (every `x` is below it).
        width: u32,
        /// The levels the picture rises to (every `y` is at most it).
        height: u32,
    },
    /// Pieces of cake scored into unit squares, side by side (Cutcake): each piece
    /// `[rows, columns]`. Its score lines are the parts, numbered piece by piece: in a
    /// piece of `r × c`, first the `c − 1` vertical lines from the left (line `k` between
    /// columns `k` and `k + 1`), then the `r − 1` horizontal lines from the top.
    Cake {
        /// Each piece's rows and columns.
        pieces: Vec<[u32; 2]>,
    },
}

/// One edge of a [`Figure::Edges`]: its ends on the figure's grid, its colour, and how it
/// bends (0 straight; `±k` the k-th of several edges between the same two points, bowed
/// to one side or the other; a loop, `from == to`, drawn as a ring above its point).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stroke {
    /// One end, `[x, y]` (the lower one).
    pub from: [u32; 2],
    /// The other end, `[x, y]`.
    pub to: [u32; 2],
    /// Whose edge it is: `"blue"` (Left's), `"red"` (Right's) or `"green"` (either's).
    pub colour: &'static str,
    /// 0 for a straight edge, else which way and how far it bows.
    pub bend: i32,
}

impl Figure {
    /// How many elements a move may be clicked at ([`Drawing::move_part`] is below it):
    /// vertices of a graph, triangles of a polygon, edges, score lines of cake.
    #[must_use]
    pub fn parts(&self) -> usize {
        match self {
            Figure::Graph { names, .. } => names.len(),
            Figure::Polygon { triangles, .. } => triangles.len(),
            Figure::Edges { edges, .. } => edges.len(),
            Figure::Cake { pieces } => pieces
                .iter()
                .map(|&[r, c]| (r + c).saturating_sub(2) as usize)
                .sum(),
        }
    }
}

/// A family's positions for the exact search ([`crate::search::exact`]), object-safe:
/// what [`Searching::exact`] offers. A family implements [`Boards`] on its own boards and
/// gets this for free.
pub trait Exact: Send + Sync {
    /// A fresh transposition table of about `entries` entries for this game. A table
    /// belongs to the game that made it: the caller keeps it between searches of the
    /// same game (a game in progress, a list of positions) and so keeps what was proved.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the memory cannot be had.
    fn table(&self, entries: u64) -> Result<Table, Error>;

    /// The value of `pos` and of each of its moves, `children` (the family's moves from
    /// it, in its order).
    ///
    /// # Errors
    /// As [`crate::search::exact::analyse`].
    fn analyse(
        &self,
        pos: &Pos,
        children: &[Pos],
        table: &Table,
        options: &exact::Options,
        control: &Control<'_>,
    ) -> Result<exact::Analysis, Error>;

    /// The value of `pos` alone, and the nodes visited.
    ///
    /// # Errors
    /// As [`crate::search::exact::solve`].
    fn solve(
        &self,
        pos: &Pos,
        table: &Table,
        options: &exact::Options,
        control: &Control<'_>,
    ) -> Result<(exact::Found, u64), Error>;
}

/// A family's boards for the exact search: its [`Searchable`] game and the board of each
/// of its positions.
pub trait Boards: Searchable + Send {
    /// The board of a position of the family.
    fn board(&self, pos: &Pos) -> Self::Board;
}

impl<B: Boards> Exact for B {
    fn table(&self, entries: u64) -> Result<Table, Error> {
        Table::new(entries, self.key_bits(), self.score_range())
    }

    fn analyse(
        &self,
        pos: &Pos,
        children: &[Pos],
        table: &Table,
        options: &exact::Options,
        control: &Control<'_>,
    ) -> Result<exact::Analysis, Error> {
        let boards: Vec<B::Board> = children.iter().map(|c| self.board(c)).collect();
        exact::analyse(self, &self.board(pos), &boards, table, options, control)
    }

    fn solve(
        &self,
        pos: &Pos,
        table: &Table,
        options: &exact::Options,
        control: &Control<'_>,
    ) -> Result<(exact::Found, u64), Error> {
        exact::solve(self, &self.board(pos), table, options, control)
    }
}

/// A family's game from its start, split into tiers for the tier solver and tablebases
/// ([`crate::tier`]): the tiered game itself (the supertrait), and the map between
/// positions and `(tier, rank)`.
pub trait Tiers: TierGame {
    /// The tier and rank of (the canonical form of) `pos`; `None` if `pos` is not a
    /// position of this game (it cannot arise from the start).
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)>;
    /// The position of a rank (a canonical one, where the family merges symmetries).
    fn position(&self, tier: u32, rank: u64) -> Pos;
}

impl<'a> dyn Tiers + 'a {
    /// The tiered game, for the solver.
    #[must_use]
    pub fn game(&self) -> &(dyn TierGame + 'a) {
        self
    }
}

/// One family of games, implemented once in its own file: every capability trait below,
/// bundled. Nothing implements it by hand: a type that implements the seven traits is a
/// family.
///
/// | trait | required? | what it holds |
/// | --- | --- | --- |
/// | [`GameRules`] | required (5 required methods) | name, kind, positions as text, moves, bounds; who moves, terminal outcomes, canonical forms |
/// | [`Drawing`] | required (`move_name`) | how people see it: move names, text drawings, the web page's grid or figure |
/// | [`Scores`] | optional | score games' points |
/// | [`Indexing`] | optional | a dense ranking, tiers for the tier solver and tablebases |
/// | [`Searching`] | optional | the proof search's move order, the exact search |
/// | [`Patterns`] | optional | the special method: members, where discovery starts, features, a proved rule |
/// | [`Grundy`] | optional | components of sums and where their Grundy values come from |
///
/// An optional trait a family does not need is one empty line, `impl Scores for Chomp {}`:
/// every method has a default that says "not offered". The traits are separate so that a
/// family's file says, by its `impl` blocks, what it offers; they are bundled so that one
/// object (`Arc<dyn Family>`, what the registry hands out) answers everything and no
/// caller asks which traits a family has. Object-safe.
pub trait Family: GameRules + Drawing + Scores + Indexing + Searching + Patterns + Grundy {}

impl<T> Family for T where T: GameRules + Drawing + Scores + Indexing + Searching + Patterns + Grundy
{}

/// **Required.** The rules of a family: what it is called, its positions as a spec writes
/// them, the moves, and bounds for refusing up front. `name`, `kind`, `write_position`,
/// `moves` and `bound` are required; the rest have defaults that fit an impartial game
/// under normal play with no symmetries.
pub trait GameRules:
    Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe + fmt::Debug
{
    /// **Required.** The family as written in a spec, with its parameters: `octal[0.77]`.
    fn name(&self) -> String;

    /// **Required.** What kind of game this is.
    fn kind(&self) -> Kind;

    /// **Required.** Writes the position's argument list as a spec shows it (inside the
    /// parentheses).
    fn write_position(&self, pos: &Pos, out: &mut String);

    /// **Required.** Appends the position after each legal move from `pos`, in the order
    /// a person sees them. Moves from a terminal position are not asked for.
    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>);

    /// **Required.** Upper bounds on the positions reachable from `pos` and on the moves
    /// of each.
    fn bound(&self, pos: &Pos) -> Bound;

    /// Optional. The canonical form of `pos` (heaps sorted, boards reduced by symmetry),
    /// used to merge positions while exploring. The default: `pos` itself.
    fn canonical(&self, pos: &Pos) -> Pos {
        pos.clone()
    }

    /// Optional. Who is to move at `pos` (impartial games may leave the default, the
    /// first player).
    fn to_move(&self, _pos: &Pos) -> Player {
        Player::First
    }

    /// Optional. Whether some moves keep the turn (the same player moves again). Then
    /// [`GameRules::to_move`] is authoritative, and a child's value is negated only when
    /// the mover changes. The default: no move does.
    fn keeps_turn(&self) -> bool {
        false
    }

    /// Optional. The outcome for the player to move if the game ends at `pos` by its own
    /// rule (not by lack of moves); `None` (the default): play on, and no move is a loss
    /// (normal play). Score games end where there is no move.
    fn terminal(&self, _pos: &Pos) -> Option<Outcome> {
        None
    }

    /// Optional. How many moves `pos` has, at most, without listing them (for huge
    /// heaps). The default: the bound's.
    fn move_count(&self, pos: &Pos) -> u128 {
        self.bound(pos).moves
    }

    /// Optional. One legal move, without listing them all; `None` without moves. The
    /// default lists the moves.
    fn some_move(&self, pos: &Pos) -> Option<Pos> {
        let mut out = Vec::new();
        self.moves(pos, &mut out);
        out.into_iter().next()
    }

    /// Optional. Whether one move turns `from` into `to`. The default lists the moves.
    fn is_move(&self, from: &Pos, to: &Pos) -> bool {
        let target = self.canonical(to);
        let mut out = Vec::new();
        self.moves(from, &mut out);
        out.iter().any(|c| self.canonical(c) == target)
    }

    /// Optional. Reads a position as [`GameRules::write_position`] writes it. Families
    /// built from a file have no registry entry, so no spec can name their positions: a
    /// front end that keeps such a game as text between requests reads them back with
    /// this (through [`Spec::at`]). `None` (the default) where the family offers no
    /// reader.
    ///
    /// # Errors
    /// Inside `Some`: why `text` is not a position of this family.
    fn read_position(&self, _text: &str) -> Option<Result<Pos, String>> {
        None
    }

    /// Optional, with [`GameRules::cgt_value`]. The same board as `pos` with `mover` to
    /// move, for a partizan family whose positions say who moves (Domineering): what a
    /// sum of partizan parts writes for the parts not moved in, since the turn passes in
    /// all of them. `None` (the default): not offered.
    fn with_mover(&self, _pos: &Pos, _mover: Player) -> Option<Pos> {
        None
    }

    /// Optional. The combinatorial game value of `pos` ([`crate::cgt`]: its canonical
    /// form, Left the first player, normal play), whoever is to move at `pos` — a value
    /// belongs to the board, not the turn. `None` (the default): not offered.
    ///
    /// # Errors
    /// Inside `Some`: [`Error::OverLimit`] past the memory `context` allows.
    fn cgt_value(
        &self,
        _pos: &Pos,
        _context: &mut crate::cgt::Context,
    ) -> Option<Result<crate::cgt::GameId, Error>> {
        None
    }
}

/// **Required.** How people see a family: the name of each move (required), other ways to
/// type it, and drawings — text for the terminal, a grid or a figure for the web page
/// (optional, none by default).
pub trait Drawing: GameRules {
    /// **Required.** The move `from` → `to` as a person names it: "take 2 from heap 3",
    /// "column 4".
    fn move_name(&self, from: &Pos, to: &Pos) -> String;

    /// Optional. Whether `text` names the move `from` → `to` (case and spaces ignored).
    /// The default compares with [`Drawing::move_name`].
    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        squash(&self.move_name(from, to)) == squash(text)
    }

    /// Optional. A drawing of the position as text, for boards.
    fn draw(&self, _pos: &Pos) -> Option<String> {
        None
    }

    /// Optional. The position as a grid of cells, for pictures (boards).
    fn picture(&self, _pos: &Pos) -> Option<Picture> {
        None
    }

    /// Optional. The cell of [`Drawing::picture`] a person clicks to make the move
    /// `from` → `to`: `(row, column)`.
    fn move_cell(&self, _from: &Pos, _to: &Pos) -> Option<(u32, u32)> {
        None
    }

    /// Optional. Where the move `from` → `to` ends when that is not where it is clicked
    /// ([`Drawing::move_cell`]): the cell a Quixo cube is pushed back in at. The web page
    /// draws the move as an arrow there, and takes a drag from the one cell to the other.
    /// Default: none.
    fn move_end(&self, _from: &Pos, _to: &Pos) -> Option<(u32, u32)> {
        None
    }

    /// Optional. The cells of [`Drawing::picture`] that won the game, as `(row, column)`:
    /// every line a player's marks fill, in a position a line ended (tic-tac-toe, the
    /// m,n,k-games, connect four, Quixo), or the chain that joined a Hex player's sides.
    /// The web page marks them. Default: none.
    fn winning_cells(&self, _pos: &Pos) -> Vec<(u32, u32)> {
        Vec::new()
    }

    /// Optional. The picture of `pos` once the players have taken `taken` points, shown
    /// where the board keeps them (Kalah's stores: the position does not say how the
    /// seeds off the board are split, the game in progress does). Default: the picture.
    fn picture_taken(&self, pos: &Pos, _taken: crate::game::ByPlayer<i64>) -> Option<Picture> {
        self.picture(pos)
    }

    /// Optional. The cells of [`Drawing::picture`] the move `from` → `to` claims for its
    /// mover (the boxes it completes in dots and boxes), as `(row, column)`: who owns
    /// them is the game's history, not the position, so the web page colours each by
    /// the player whose move claimed it. Default: none.
    fn claimed_cells(&self, _from: &Pos, _to: &Pos) -> Vec<(u32, u32)> {
        Vec::new()
    }

    /// Optional. The position as a [`Figure`] (a graph with a token, a cut polygon), for
    /// positions that are not grids.
    fn figure(&self, _pos: &Pos) -> Option<Figure> {
        None
    }

    /// Optional. The element of [`Drawing::figure`] a person clicks to make the move
    /// `from` → `to`: the vertex the token goes to, the triangle cut off.
    fn move_part(&self, _from: &Pos, _to: &Pos) -> Option<u32> {
        None
    }

    /// Optional. Every element of [`Drawing::figure`] at which the move `from` → `to` may
    /// be clicked, [`Drawing::move_part`] first: where several elements make the same
    /// move (two equal stalks of Hackenbush, a cake's cut at either end), each of them.
    /// Default: `move_part` alone.
    fn move_parts(&self, from: &Pos, to: &Pos) -> Vec<u32> {
        self.move_part(from, to).into_iter().collect()
    }
}

/// Optional. Score games' points (`kind() = Score`): what a move collects, what the end
/// gives, what a move hands the opponent, and what is still to take. Every default is 0
/// or not known, which is right for the other kinds.
pub trait Scores: GameRules {
    /// The points the mover collects by moving `from` → `to`. Default 0.
    fn gain(&self, _from: &Pos, _to: &Pos) -> i64 {
        0
    }

    /// The points the player to move collects when the game ends at `pos`. Default 0.
    fn final_gain(&self, _pos: &Pos) -> i64 {
        0
    }

    /// The points the move `from` → `to` puts in the opponent's total (Ioiwari's last
    /// bead sent to the other bank). Default 0.
    fn gift(&self, _from: &Pos, _to: &Pos) -> i64 {
        0
    }

    /// For games whose points all end up taken by one player or the other, whatever the
    /// play (Kalah's seeds, the boxes of dots and boxes): the points the two together
    /// still take from `pos` to the end. A tablebase keeps only margins; with this its
    /// reads give both totals. `None` (the default): not known, and a tablebase of the
    /// game is not read for reports.
    fn points_left(&self, _pos: &Pos) -> Option<i64> {
        None
    }
}

/// Optional. Positions numbered densely: a ranking of what a root reaches (tables
/// indexed by rank, no hash map), and tiers (the tier solver, tablebases). `None` by
/// default: positions are explored through a hash map, and no tablebase is kept.
pub trait Indexing: GameRules {
    /// A dense ranking of every position reachable from `root`, when the family has one.
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        None
    }

    /// The game from the family's start position, split into tiers, when the family
    /// offers it (board games): what `--tablebase` solves and keeps.
    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        None
    }
}

/// Optional. What the searches of boards too large to explore use: the proof search's
/// move order, and the family's own exact search.
pub trait Searching: GameRules {
    /// How promising the move `from` → `to` looks to a search that tries the best moves
    /// first (the proof search, [`crate::search`]): higher first, ties in the order of
    /// [`GameRules::moves`]. The default, 0 for every move, keeps that order. Hex and
    /// connect four try the centre first.
    fn move_priority(&self, _from: &Pos, _to: &Pos) -> i32 {
        0
    }

    /// The exact search of this family's positions ([`Exact`]): the value of a position
    /// and of each move with its remoteness, by negamax on the family's own boards, where
    /// the game is too large to explore. `None` (the default): the proof search answers,
    /// with outcomes only.
    fn exact(&self) -> Option<Box<dyn Exact + '_>> {
        None
    }
}

/// Optional. Where the special method (`grundy pattern`, tables) starts for a family:
/// its one-parameter members, what discovery looks for, the features rules speak of, and
/// a proved rule at any size. The defaults offer none of them.
pub trait Patterns: GameRules {
    /// The n-th member of a one-parameter family (heap n, n stones), for tables and
    /// patterns; `None` if the family has no such parameter.
    fn member(&self, _n: u64) -> Option<Pos> {
        None
    }

    /// Where the special method starts.
    fn pattern(&self) -> PatternSource {
        PatternSource::None
    }

    /// Named numeric features of a position, for the special method's rules over
    /// features (`pattern::features`): Nim's heaps, a circle's size. Empty (the default)
    /// where the family names none, or for positions the rules do not speak of.
    fn features(&self, _pos: &Pos) -> Vec<(String, u64)> {
        Vec::new()
    }

    /// The proved rule of the special method, when one answers every size.
    fn rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        None
    }

    /// The proved rule of misère play (the player who cannot move wins), when one
    /// answers every size: misère Nim's (Bouton). `None` (the default): not offered.
    fn misere_rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        None
    }
}

/// Optional. Sums and their Grundy values: the independent components of a position, and
/// where each component's value comes from. The defaults: a position is one component,
/// with no Grundy value of its own (`values` then explores it).
pub trait Grundy: GameRules {
    /// The independent components of `pos` for a sum (each heap of a heap game alone),
    /// in order. The default: `pos` is one component.
    fn components(&self, pos: &Pos) -> Vec<Pos> {
        vec![pos.clone()]
    }

    /// The position made of these components (the inverse of [`Grundy::components`]).
    fn assemble(&self, components: &[Pos]) -> Pos {
        components.iter().flat_map(|c| c.iter().copied()).collect()
    }

    /// Where Grundy values come from. Default [`GrundySource::None`].
    fn grundy(&self) -> GrundySource {
        GrundySource::None
    }

    /// The Grundy value of a component, for [`GrundySource::Formula`].
    fn grundy_formula(&self, _component: &Pos) -> u64 {
        0
    }

    /// The size a Grundy oracle needs to cover `component` (heap, stones, larger pile).
    /// The default: its largest word.
    fn grundy_size(&self, component: &Pos) -> u64 {
        component.iter().copied().max().unwrap_or(0)
    }

    /// What [`Grundy::grundy_table`] would cost to `size`.
    fn grundy_cost(&self, _size: u64) -> Cost {
        Cost::default()
    }

    /// For [`GrundySource::Table`]: the values of every component up to `size`.
    ///
    /// # Errors
    /// [`Error::Cancelled`], [`Error::Overflow`].
    fn grundy_table(&self, _size: u64, _control: &Control<'_>) -> Result<Box<dyn Values>, Error> {
        Err(Error::Unsupported(format!(
            "`{}` has no Grundy table",
            self.name()
        )))
    }

    /// Appends every move of `component` to a position of Grundy value `target`.
    /// The default lists the moves; families with huge components override it (Nim
    /// moves straight to the target). Sets `truncated` when only some are listed.
    fn moves_to_value(
        &self,
        component: &Pos,
        target: u64,
        values: &dyn Values,
        out: &mut Vec<Pos>,
        _truncated: &mut bool,
    ) {
        let mut children = Vec::new();
        self.moves(component, &mut children);
        for child in children {
            let value = self
                .components(&child)
                .iter()
                .fold(0, |acc, c| acc ^ values.value(c));
            if value == target {
                out.push(child);
            }
        }
    }
}

/// Lowercase without spaces, for comparing what a person typed.
#[must_use]
pub fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One part of a spec: a position in one family.
#[derive(Clone)]
pub struct Part {
    /// The rules.
    pub family: Arc<dyn Family>,
    /// The position.
    pub position: Pos,
}

impl Part {
    /// The family as written, with its parameters: `octal[0.77]`.
    #[must_use]
    pub fn family_name(&self) -> String {
        self.family.name()
    }

    /// Whether the Sprague–Grundy theory applies.
    #[must_use]
    pub fn is_impartial(&self) -> bool {
        self.family.kind() == Kind::Impartial
    }

    /// The components of this part for a sum, each as a part of its own.
    #[must_use]
    pub fn components(&self) -> Vec<Part> {
        self.family
            .components(&self.position)
            .into_iter()
            .map(|position| Part {
                family: Arc::clone(&self.family),
                position,
            })
            .collect()
    }

    /// The same family at another position.
    #[must_use]
    pub fn with(&self, position: Pos) -> Part {
        Part {
            family: Arc::clone(&self.family),
            position,
        }
    }
}

impl fmt::Debug for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut args = String::new();
        self.family.write_position(&self.position, &mut args);
        write!(f, "{}({args})", self.family.name())
    }
}

impl PartialEq for Part {
    fn eq(&self, other: &Part) -> bool {
        self.position == other.position && self.family.name() == other.family.name()
    }
}

impl Eq for Part {}

impl std::hash::Hash for Part {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.family.name().hash(state);
        self.position.hash(state);
    }
}

/// A position: one part, or the disjunctive sum of several.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The parts, in the order written.
    pub parts: Vec<Part>,
}

impl Spec {
    /// The position `text` of this one-part spec's family, written as a spec of it is
    /// (`family(position)`): how a game built from a file (IOI 2001 "Score", a large
    /// triangulation) is read back between a front end's requests, the family kept by
    /// the caller. The position is read by [`GameRules::read_position`] and must be one
    /// the family reaches: the family's own check.
    ///
    /// # Errors
    /// A [`SpecError`](super::SpecError) at the column of what is wrong: another family's name, a
    /// position the family does not read.
    pub fn at(&self, text: &str) -> Result<Spec, super::SpecError> {
        let error = |column: usize, message: String| super::SpecError {
            line: 1,
            column,
            message,
        };
        let Some(part) = self.single() else {
            return Err(error(1, "a sum's positions are read as specs".into()));
        };
        let name = part.family.name();
        let text = text.trim();
        let Some(inner) = text
            .strip_prefix(name.as_str())
            .and_then(|t| t.strip_prefix('('))
        else {
            let shown: String = text.chars().take(40).collect();
            return Err(error(
                1,
                format!(
                    "expected a position of this game, `{}(…)`, found `{}`",
                    name.chars().take(40).collect::<String>(),
                    shown.escape_debug()
                ),
            ));
        };
        let column = name.chars().count() + 2;
        let Some(inner) = inner.strip_suffix(')') else {
            return Err(error(
                column + inner.chars().count(),
                "expected `)` at the end of the position".into(),
            ));
        };
        match part.family.read_position(inner) {
            None => Err(error(
                column,
                format!("`{name}` does not read its positions back"),
            )),
            Some(Err(message)) => Err(error(column, message)),
            Some(Ok(position)) => Ok(Spec {
                parts: vec![part.with(position)],
            }),
        }
    }

    /// Whether every part is impartial.
    #[must_use]
    pub fn is_impartial(&self) -> bool {
        self.parts.iter().all(Part::is_impartial)
    }

    /// Every component of the sum, in order (heaps split out).
    #[must_use]
    pub fn components(&self) -> Vec<Part> {
        self.parts.iter().flat_map(Part::components).collect()
    }

    /// The spec with part `i` moved to `position`.
    #[must_use]
    pub fn with_part(&self, i: usize, position: Pos) -> Spec {
        let mut parts = self.parts.clone();
        parts[i] = parts[i].with(position);
        Spec { parts }
    }

    /// The only part, if there is one.
    #[must_use]
    pub fn single(&self) -> Option<&Part> {
        match self.parts.as_slice() {
            [part] => Some(part),
            _ => None,
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

/// Whether one move turns `from` into `to`: the same families, one part changed by one
/// of its moves.
#[must_use]
pub fn is_move(from: &Spec, to: &Spec) -> bool {
    if from.parts.len() != to.parts.len()
        || from
            .parts
            .iter()
            .zip(&to.parts)
            .any(|(a, b)| a.family.name() != b.family.name())
    {
        return false;
    }
    let changed: Vec<usize> = (0..from.parts.len())
        .filter(|&i| {
            let f = &from.parts[i].family;
            f.canonical(&from.parts[i].position) != f.canonical(&to.parts[i].position)
        })
        .collect();
    match changed.as_slice() {
        [i] => from.parts[*i]
            .family
            .is_move(&from.parts[*i].position, &to.parts[*i].position),
        _ => false,
    }
}
