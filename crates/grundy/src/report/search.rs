//! The proof search ([`crate::search`]) where the general method refuses for size: the
//! value of a board and of each of its moves, without remoteness — a weak solution. It
//! answers win/loss/draw boards (partizan games); impartial games too large to explore are
//! judged by their Grundy values or a proved rule, whose refusals say what they would need.

use super::{Analysis, Context, Method, Move, Report, MAX_LISTED_MOVES};
use crate::game::{Game, Outcome};
use crate::games::Kind;
use crate::search::{search, Options};
use crate::Error;

pub(super) struct Search;

impl Analysis for Search {
    fn name(&self) -> &'static str {
        "search"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        let Some(part) = ctx.spec.single() else {
            return Ok(None);
        };
        if part.family.kind() != Kind::Partizan || ctx.limits.max_search_nodes == 0 {
            return Ok(None);
        }
        let options = Options {
            max_nodes: ctx.limits.max_search_nodes,
            memory: ctx.limits.search_memory,
            ..Options::default()
        };
        let searched = match search(&ctx.game, &ctx.root, &options, &ctx.limits.control) {
            Ok(s) => s,
            // What the exhaustive method would need, then what the search tried.
            Err(Error::TooLarge { what, need }) => {
                return Err(Error::TooLarge {
                    what: match &ctx.refused {
                        Some(before) => format!("{before}; {what}"),
                        None => what,
                    },
                    need,
                })
            }
            Err(e) => return Err(e),
        };
        let mut children = Vec::new();
        if ctx.game.terminal(&ctx.root).is_none() {
            ctx.game.moves(&ctx.root, &mut children);
        }
        let mut moves = Vec::new();
        let mut winning_moves = Vec::new();
        for (child, &outcome) in children.iter().zip(&searched.moves) {
            if outcome == Outcome::Win {
                winning_moves.push(ctx.game.spec(child).to_string());
            }
            if moves.len() < MAX_LISTED_MOVES {
                moves.push(Move {
                    outcome,
                    ..ctx.typed_move(child)
                });
            }
        }
        Ok(Some(Report {
            spec: ctx.spec.to_string(),
            outcome: searched.outcome,
            remoteness: None,
            winning_moves,
            grundy: None,
            components: Vec::new(),
            scores: None,
            moves_truncated: children.len() > moves.len(),
            moves,
            method: Method::Search,
            positions: None,
            nodes: Some(searched.nodes),
            winning_moves_truncated: false,
            rule: None,
        }))
    }
}
