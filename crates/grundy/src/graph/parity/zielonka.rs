//! Zielonka's recursive algorithm, run on an explicit stack of frames.
//!
//! A frame solves a subgame `G`: with `p` its top priority and `α = p mod 2`, it attracts
//! for `α` to the vertices of top priority (`A`), solves `G \ A` in a child frame, and then
//! either `α` wins all of `G` (the opponent won nothing in the child), or the opponent's
//! attractor `B` of what it won is removed from `G` as the opponent's, and the frame starts
//! over on `G \ B`. The second recursive call of the textbook algorithm is that loop, so the
//! stack holds one frame per nested top priority: at most the number of distinct priorities,
//! on the heap.
//!
//! Subgames are contiguous segments of one permutation of the vertices: a frame moves `A` to
//! the front of its segment (the child gets the rest) and each `B` to the back. One
//! membership mask tracks the subgame being worked on; a frame restores its segment in the
//! mask when it returns. All attractors share one [`Layers`] scratch.
//!
//! On-the-fly compression: the targets are all vertices above the top priority of the
//! opponent's parity, not just those of top priority; a subgame with one parity only is won
//! by that parity's player at once.
//!
//! Two shortcuts after the child returns with an opponent region `W'` and `B = Attr(W')`:
//! if `B` misses `A`, then `A` is still the attractor of the same heads in `G \ B`, so the
//! frame keeps it and only the child's part is solved again; and if moreover `B = W'`, the
//! textbook algorithm would solve `G \ B` again only to find `α` winning all of it, so the
//! frame finishes at once. The second shortcut makes Friedmann's exponential family
//! polynomial (1 501 frames for 5 000 vertices); the family of Gazda and Willemse stays
//! exponential.
//!
//! # Complexity
//! Exponential in the number of distinct priorities in the worst case; each frame step costs
//! O(subgame + its edges). O(n + m) space besides the arena.

use super::{Local, NONE};
use crate::explore::Control;
use crate::graph::arena::Arena;
use crate::graph::attractor::Layers;
use crate::Error;

/// One subgame being solved: its segment `perm[lo..end]`, of which `perm[lo..hi]` is still
/// unsolved (the opponent's regions `B` were moved behind `hi`); `perm[lo..a_end]` is the
/// current attractor `A` of player `alpha`, and the child solves `perm[a_end..hi]`.
#[derive(Debug, Clone, Copy)]
struct Frame {
    lo: u32,
    hi: u32,
    end: u32,
    a_end: u32,
    alpha: u8,
}

struct Solver<'a> {
    arena: &'a Arena,
    perm: Vec<u32>,
    pos: Vec<u32>,
    in_game: Vec<bool>,
    layers: Layers,
    out: Local,
    scratch: Vec<u32>,
}

impl Solver<'_> {
    /// Swaps `v` into position `i` of the permutation.
    #[inline]
    fn place(&mut self, i: u32, v: u32) {
        let j = self.pos[v as usize];
        let u = self.perm[i as usize];
        self.perm[i as usize] = v;
        self.perm[j as usize] = u;
        self.pos[v as usize] = i;
        self.pos[u as usize] = j;
    }

    /// The first successor of `v` inside the current subgame.
    #[inline]
    fn any_move(&self, v: u32) -> u32 {
        self.arena
            .successors(v)
            .iter()
            .copied()
            .find(|&w| self.in_game[w as usize])
            .unwrap_or(NONE)
    }

    /// Starts (or restarts) frame `f` on `perm[lo..hi]`. Returns the child frame to push, or
    /// `None` if the frame finished (all of it solved).
    fn enter(&mut self, f: &mut Frame) -> Option<Frame> {
        let (lo, hi) = (f.lo as usize, f.hi as usize);
        if lo == hi {
            return None;
        }
        // Top priority of each parity.
        let mut top = [None::<u32>; 2];
        for &v in &self.perm[lo..hi] {
            let p = self.arena.priority(v);
            let slot = &mut top[(p & 1) as usize];
            if !matches!(*slot, Some(t) if t >= p) {
                *slot = Some(p);
            }
        }
        let (alpha, threshold) = match top {
            [Some(e), Some(o)] if e > o => (0u8, Some(o)),
            [Some(e), Some(_)] => (1u8, Some(e)),
            [Some(_), None] => (0, None),
            _ => (1, None),
        };
        let Some(threshold) = threshold else {
            // One parity only: its player wins every play that stays here.
            for i in lo..hi {
                let v = self.perm[i];
                self.out.winner[v as usize] = alpha;
                self.out.strategy[v as usize] = if self.arena.owner(v) == alpha {
                    self.any_move(v)
                } else {
                    NONE
                };
            }
            return None;
        };
        // A = Attr_alpha(vertices above every priority of the opponent's parity).
        let members = &self.perm[lo..hi];
        self.layers.open(self.arena, members, &self.in_game);
        for &v in members {
            if self.arena.priority(v) > threshold {
                self.layers.seed(v, true);
            }
        }
        self.layers.attract(self.arena, alpha);
        self.scratch.clear();
        self.scratch.extend_from_slice(self.layers.queue());
        for &v in &self.scratch {
            if self.arena.owner(v) == alpha {
                // Heads (distance 0) get NONE here and a move once the frame is done.
                self.out.strategy[v as usize] =
                    self.layers.move_toward(self.arena, v).unwrap_or(NONE);
            }
        }
        self.layers.close(&self.perm[lo..hi]);
        let a = std::mem::take(&mut self.scratch);
        for (i, &v) in a.iter().enumerate() {
            self.place(f.lo + i as u32, v);
            self.in_game[v as usize] = false;
        }
        f.alpha = alpha;
        f.a_end = f.lo + a.len() as u32;
        self.scratch = a;
        Some(Frame {
            lo: f.a_end,
            hi: f.hi,
            end: f.hi,
            a_end: f.hi,
            alpha: 0,
        })
    }

    /// Marks `perm[lo..a_end]` (A) won by `alpha`; `alpha`'s heads get a move inside the
    /// current subgame.
    fn finish_attractor(&mut self, f: &Frame) {
        for i in f.lo..f.a_end {
            let v = self.perm[i as usize];
            self.out.winner[v as usize] = f.alpha;
            if self.arena.owner(v) == f.alpha && self.out.strategy[v as usize] == NONE {
                self.out.strategy[v as usize] = self.any_move(v);
            }
        }
    }

    /// The child of `f` has returned (its segment is `perm[a_end..hi]`, solved): decides
    /// whether `f` is finished, must start over on its shrunken segment, or can keep its
    /// attractor `A` and solve a smaller child at once.
    fn resume(&mut self, f: &mut Frame) -> Next {
        let alpha = f.alpha;
        let beta = 1 - alpha;
        for i in f.lo..f.a_end {
            self.in_game[self.perm[i as usize] as usize] = true;
        }
        self.scratch.clear();
        for i in f.a_end..f.hi {
            let v = self.perm[i as usize];
            if self.out.winner[v as usize] == beta {
                self.scratch.push(v);
            }
        }
        if self.scratch.is_empty() {
            // alpha wins all of G: the child's region, and A by attraction to the heads.
            self.finish_attractor(f);
            return Next::Finished;
        }
        let won = self.scratch.len();
        // B = Attr_beta(what beta won in G \ A) is beta's in G too; remove it.
        let members = &self.perm[f.lo as usize..f.hi as usize];
        self.layers.open(self.arena, members, &self.in_game);
        for &v in &self.scratch {
            self.layers.seed(v, true);
        }
        self.layers.attract(self.arena, beta);
        self.scratch.clear();
        self.scratch.extend_from_slice(self.layers.queue());
        let mut touches_a = false;
        for &v in &self.scratch {
            self.out.winner[v as usize] = beta;
            touches_a |= self.pos[v as usize] < f.a_end;
            if self.arena.owner(v) == beta {
                if let Some(w) = self.layers.move_toward(self.arena, v) {
                    self.out.strategy[v as usize] = w;
                }
            }
        }
        self.layers.close(&self.perm[f.lo as usize..f.hi as usize]);
        let b = std::mem::take(&mut self.scratch);
        for (i, &v) in b.iter().enumerate() {
            self.place(f.hi - 1 - i as u32, v);
            self.in_game[v as usize] = false;
        }
        f.hi -= b.len() as u32;
        let grew = b.len() > won;
        self.scratch = b;
        if touches_a {
            return Next::Restart;
        }
        // B misses A, so A is still the attractor of the same heads in G \ B.
        if !grew {
            // B is exactly what beta won: G \ B = A + alpha's region of the child, which the
            // textbook algorithm would solve again only to find alpha winning all of it.
            self.finish_attractor(f);
            return Next::Finished;
        }
        // Only the child's part shrank: solve it again, keeping A.
        for i in f.lo..f.a_end {
            self.in_game[self.perm[i as usize] as usize] = false;
        }
        Next::Descend(Frame {
            lo: f.a_end,
            hi: f.hi,
            end: f.hi,
            a_end: f.hi,
            alpha: 0,
        })
    }
}

/// What a frame does after its child returns.
enum Next {
    Finished,
    Restart,
    Descend(Frame),
}

/// Solves `arena` (no dead ends) by Zielonka's algorithm: the winner of every vertex and, where
/// the owner wins, its move.
pub(super) fn solve(arena: &Arena, control: &Control) -> Result<Local, Error> {
    let n = arena.len();
    let mut s = Solver {
        arena,
        perm: (0..n as u32).collect(),
        pos: (0..n as u32).collect(),
        in_game: vec![true; n],
        layers: Layers::new(n),
        out: Local::new(n),
        scratch: Vec::new(),
    };
    let mut stack = vec![Frame {
        lo: 0,
        hi: n as u32,
        end: n as u32,
        a_end: 0,
        alpha: 0,
    }];
    let mut returning = false;
    let mut steps = 0u32;
    while let Some(&top) = stack.last() {
        steps = steps.wrapping_add(1);
        if steps % 256 == 0 {
            control.check()?;
        }
        let mut f = top;
        let next = if returning {
            s.resume(&mut f)
        } else {
            Next::Restart
        };
        let child = match next {
            Next::Finished => None,
            Next::Restart => s.enter(&mut f),
            Next::Descend(child) => Some(child),
        };
        if let Some(child) = child {
            *stack.last_mut().expect("non-empty") = f;
            stack.push(child);
            returning = false;
            continue;
        }
        for i in f.lo..f.end {
            s.in_game[s.perm[i as usize] as usize] = true;
        }
        stack.pop();
        returning = true;
    }
    Ok(s.out)
}
