//! Chomp on an m × n bar: a move takes a cell and every cell above it and to its right;
//! the bottom-left cell is poisoned and may not be taken, so a player left with only it
//! cannot move and loses (normal play). Impartial; no formula is known, so its Grundy
//! values come from exploring. The first player wins every rectangle larger than 1 × 1
//! (strategy stealing), without a known winning move in general.
//!
//! A position is the length of each row from the bottom, non-increasing (a Young diagram
//! in the box); the diagrams in an m × n box are ranked densely by the combinatorial
//! number system, C(m + n, m) of them.

use super::family::{
    Bound, Drawing, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos, Ranked,
    Scores, Searching,
};
use super::heap::write_list;
use super::spec::{Args, Built, Entry, Options, Param, Setting, SpecError};

/// `chomp[rows x columns]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chomp {
    /// Rows of the bar.
    pub rows: u32,
    /// Columns of the bar.
    pub columns: u32,
}

/// The most cells a bar may have (ranks must index a table).
pub const MAX_CELLS: u64 = 400;

fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    r
}

impl Chomp {
    /// The full bar.
    #[must_use]
    pub fn start(&self) -> Pos {
        (0..self.rows).map(|_| u64::from(self.columns)).collect()
    }

    /// Every diagram in the box.
    #[must_use]
    pub fn size(&self) -> u128 {
        binomial(u64::from(self.rows + self.columns), u64::from(self.rows))
    }
}

impl GameRules for Chomp {
    fn name(&self) -> String {
        format!("chomp[{}x{}]", self.rows, self.columns)
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        let used = pos.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1);
        write_list(&pos[..used], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        for (i, &len) in pos.iter().enumerate() {
            for j in 0..len {
                if i == 0 && j == 0 {
                    continue;
                }
                let mut next = pos.clone();
                for l in next.iter_mut().skip(i) {
                    *l = (*l).min(j);
                }
                out.push(next);
            }
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        Bound {
            positions: self.size(),
            moves: pos.iter().map(|&l| u128::from(l)).sum(),
        }
    }
}

impl Drawing for Chomp {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        // The cell taken: the lowest row that changed, at its new length.
        match (0..from.len()).find(|&i| from[i] != to[i]) {
            Some(i) => format!("take row {} column {}", i + 1, to[i] + 1),
            None => "no change".into(),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        let name = super::family::squash(&self.move_name(from, to));
        said == name
            || Some(said)
                == (0..from.len())
                    .find(|&i| from[i] != to[i])
                    .map(|i| format!("{},{}", i + 1, to[i] + 1))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = String::new();
        for i in (0..pos.len()).rev() {
            for j in 0..self.columns as u64 {
                s.push(if i == 0 && j == 0 {
                    'x'
                } else if j < pos[i] {
                    '#'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        Some(s)
    }

    /// The bar from its top row down: `"#"` a square still there, `"x"` the poisoned
    /// one (bottom left), `""` a square eaten.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let rows = self.rows;
        let cells = (0..rows)
            .flat_map(|t| (0..self.columns).map(move |j| (rows - 1 - t, j)))
            .map(|(i, j)| {
                let len = pos.get(i as usize).copied().unwrap_or(0);
                match (i, j) {
                    (0, 0) => "x",
                    _ if u64::from(j) < len => "#",
                    _ => "",
                }
                .to_string()
            })
            .collect();
        Some(Picture::new(rows, self.columns, cells, Look::Bar))
    }

    /// The square taken: the lowest row that changed, at its new length.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let i = (0..from.len().min(to.len())).find(|&i| from[i] != to[i])?;
        let (row, column) = (u32::try_from(i).ok()?, u32::try_from(to[i]).ok()?);
        (row < self.rows && column < self.columns).then(|| (self.rows - 1 - row, column))
    }
}

impl Scores for Chomp {}

impl Indexing for Chomp {
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        (self.size() <= 1 << 32).then(|| Box::new(Diagrams(*self)) as Box<dyn Ranked>)
    }
}

impl Searching for Chomp {}

impl Patterns for Chomp {}

impl Grundy for Chomp {}

/// Diagrams ranked by the combinatorial number system: row lengths `l_0 ≥ … ≥ l_{m−1}`
/// become the increasing `c_i = l_{m−1−i} + i`, an m-subset of `0..n+m`, of rank
/// `Σ C(c_i, i + 1)`.
struct Diagrams(Chomp);

impl Ranked for Diagrams {
    fn size(&self) -> u64 {
        self.0.size() as u64
    }

    fn rank(&self, pos: &Pos) -> u64 {
        let m = pos.len();
        (0..m)
            .map(|i| binomial(pos[m - 1 - i] + i as u64, i as u64 + 1) as u64)
            .sum()
    }

    fn unrank(&self, mut rank: u64) -> Pos {
        let m = self.0.rows as usize;
        let mut pos: Pos = (0..m).map(|_| 0).collect();
        for i in (0..m).rev() {
            // the largest c with C(c, i + 1) ≤ rank
            let mut c = i as u64;
            while binomial(c + 1, i as u64 + 1) as u64 <= rank {
                c += 1;
            }
            rank -= binomial(c, i as u64 + 1) as u64;
            pos[m - 1 - i] = c - i as u64;
        }
        pos
    }

    /// Taking cells shortens rows, and the rank grows with every row length.
    fn descending(&self) -> bool {
        true
    }

    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let pos = self.unrank(rank);
        let mut children = Vec::new();
        self.0.moves(&pos, &mut children);
        out.extend(children.iter().map(|c| self.rank(c)));
    }
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("chomp[3x4]")?;
    let Param::Dims { a, b, at } = *param else {
        return Err(args.error_at(param.at(), "expected the bar's size, as in `chomp[3x4]`"));
    };
    if a == 0 || b == 0 || a.saturating_mul(b) > MAX_CELLS {
        return Err(args.error_at(
            at,
            format!("a bar of 1 to {MAX_CELLS} cells, as in `chomp[3x4]`"),
        ));
    }
    let family = Chomp {
        rows: a as u32,
        columns: b as u32,
    };
    let position = match args.position() {
        None => Some(family.start()),
        Some(items) => {
            if items.len() > a as usize {
                return Err(args.error_at(items[a as usize].at(), format!("the bar has {a} rows")));
            }
            let mut pos = Pos::new();
            for (i, p) in items.iter().enumerate() {
                let l = args.natural(p, "a row length")?;
                if l > b {
                    return Err(args.error_at(p.at(), format!("a row has at most {b} cells")));
                }
                if i > 0 && l > pos[i - 1] {
                    return Err(
                        args.error_at(p.at(), "rows are listed from the bottom and never grow")
                    );
                }
                pos.push(l);
            }
            if pos.first().is_none_or(|&l| l == 0) {
                return Err(args.error_at(
                    args.open_at(),
                    "the poisoned bottom-left cell is always on the bar",
                ));
            }
            pos.resize(a as usize, 0);
            Some(pos)
        }
    };
    Ok(Built::new(family, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "chomp",
        examples: &["chomp[3x4]"],
        small: &["chomp[3x3]", "chomp[2x4](4,2)"],
    shape: "chomp[m x n](l1,…): take a cell and all above and right of it; the bottom-left is poisoned (rows from the bottom; no position: the full bar)",
    build,
    options: Options {
        template: "chomp[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 7, "3"),
            Setting::range("columns", 1, 8, "4"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_the_diagrams() {
        let family = Chomp {
            rows: 3,
            columns: 4,
        };
        let ranked = Diagrams(family);
        assert_eq!(ranked.size(), 35);
        let mut seen = std::collections::HashSet::new();
        for r in 0..ranked.size() {
            let pos = ranked.unrank(r);
            assert!(
                pos.windows(2).all(|w| w[0] >= w[1]) && pos[0] <= 4,
                "{pos:?}"
            );
            assert_eq!(ranked.rank(&pos), r);
            assert!(seen.insert(pos));
        }
    }

    #[test]
    fn the_picture_is_the_bar_and_each_move_its_square() {
        let chomp = Chomp {
            rows: 2,
            columns: 3,
        };
        // Rows from the bottom: 3 squares, then 1.
        let pos = Pos::from_slice(&[3, 1]);
        let picture = chomp.picture(&pos).unwrap();
        assert_eq!(
            (picture.rows, picture.columns, picture.look),
            (2, 3, Look::Bar)
        );
        assert_eq!(picture.cells, ["#", "", "", "x", "#", "#"]);
        let mut moves = Vec::new();
        chomp.moves(&pos, &mut moves);
        let cells: Vec<_> = moves
            .iter()
            .map(|to| chomp.move_cell(&pos, to).unwrap())
            .collect();
        // Every square but the poisoned one, each once: a move is clicked at its square.
        assert_eq!(cells, [(1, 1), (1, 2), (0, 0)]);
        for (to, &(r, c)) in moves.iter().zip(&cells) {
            assert_eq!(picture.cells[(r * 3 + c) as usize], "#");
            assert_eq!(chomp.picture(to).unwrap().cells[(r * 3 + c) as usize], "");
        }
    }
}
