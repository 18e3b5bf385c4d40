//! A single part too large for tables, answered by its family's proved rule of the
//! special method (Whinihan/Schwenk, Wythoff) in O(log n): outcome and every winning
//! move, without remoteness.

use super::{Analysis, Context, Method, Move, Play, Report};
use crate::game::Outcome;
use crate::games::Pos;
use crate::Error;

pub(super) struct ByRule;

impl Analysis for ByRule {
    fn name(&self) -> &'static str {
        "rule"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        let Some(part) = ctx.spec.single() else {
            return Ok(None);
        };
        let rule = match ctx.play {
            Play::Normal => part.family.rule(),
            Play::Misere => part.family.misere_rule(),
        };
        let Some(rule) = rule.filter(|r| r.applies(&part.position)) else {
            return Ok(None);
        };
        let lost = rule.is_loss(&part.position);
        let to_move = |p: Pos, outcome: Outcome| Move {
            outcome,
            ..ctx.typed_move(&[p])
        };
        let winning: Vec<Move> = rule
            .winning_moves(&part.position)
            .into_iter()
            .map(|p| to_move(p, Outcome::Win))
            .collect();
        let mut moves = winning.clone();
        if moves.is_empty() {
            if let Some(p) = part.family.some_move(&part.position) {
                moves.push(to_move(p, Outcome::Loss));
            }
        }
        let outcome = if lost { Outcome::Loss } else { Outcome::Win };
        Ok(Some(Report {
            winning_moves: winning.into_iter().map(|m| m.spec).collect(),
            moves,
            moves_truncated: true,
            rule: Some(rule.theorem()),
            ..Report::new(ctx.spec.to_string(), outcome, Method::Rule)
        }))
    }
}
