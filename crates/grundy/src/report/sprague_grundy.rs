//! Impartial sums too large to explore whole, judged by the Sprague–Grundy values of
//! their components (no remoteness): the winning moves change one component of value
//! `g` into one of value `g xor total`.

use super::{listable, Analysis, Context, Method, Move, Report, MAX_LISTED_MOVES};
use crate::game::{Game, Outcome};
use crate::games::{Pos, Values};
use crate::Error;

pub(super) struct SpragueGrundy;

impl Analysis for SpragueGrundy {
    fn name(&self) -> &'static str {
        "sprague-grundy"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        if !ctx.spec.is_impartial() {
            return Ok(None);
        }
        let (components, total) = ctx.components()?;
        let oracles = ctx.oracles()?;
        let mut truncated = false;
        let winning = winning_positions(ctx, &oracles, total, &mut truncated);
        let grundy_move = |child: &[Pos], g: u64| Move {
            outcome: if g == 0 { Outcome::Win } else { Outcome::Loss },
            grundy: Some(g),
            ..ctx.typed_move(child)
        };
        let move_count = ctx
            .spec
            .parts
            .iter()
            .map(|p| p.family.move_count(&p.position))
            .fold(0u128, u128::saturating_add);
        // Each move listed holds the whole position after it: a long sum lists fewer.
        let most = MAX_LISTED_MOVES.min(listable(&ctx.root));
        let (moves, moves_truncated) = if move_count <= most as u128 {
            let mut children = Vec::new();
            ctx.game.moves(&ctx.root, &mut children);
            let moves = children
                .iter()
                .map(|c| grundy_move(c, Context::value_of(&oracles, &ctx.game, c)))
                .collect();
            (moves, false)
        } else {
            let mut listed: Vec<Move> = winning
                .iter()
                .take(most)
                .map(|c| grundy_move(c, 0))
                .collect();
            if listed.is_empty() {
                if let Some(c) = some_move(ctx) {
                    listed.push(grundy_move(&c, Context::value_of(&oracles, &ctx.game, &c)));
                }
            }
            (listed, true)
        };
        let outcome = if total == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        Ok(Some(Report {
            winning_moves: winning
                .iter()
                .map(|c| ctx.game.spec(c).to_string())
                .collect(),
            grundy: Some(total),
            components: if components.len() > 1 {
                components
            } else {
                Vec::new()
            },
            moves,
            moves_truncated,
            winning_moves_truncated: truncated,
            ..Report::new(ctx.spec.to_string(), outcome, Method::SpragueGrundy)
        }))
    }
}

/// One legal move of the sum without listing them all, if any.
fn some_move(ctx: &Context<'_, '_>) -> Option<Vec<Pos>> {
    ctx.spec.parts.iter().enumerate().find_map(|(i, part)| {
        let next = part.family.some_move(&part.position)?;
        let mut child = ctx.root.clone();
        child[i] = next;
        Some(child)
    })
}

/// Every position a winning move of the sum leads to, by the Sprague–Grundy theorem; in a
/// sum so long that they would hold more than [`super::MAX_LISTED_WORDS`] numbers, the first
/// that fit (`truncated` is then set). Was: `dawson(1,2,…,10000)` listed every one, 23 GB.
fn winning_positions(
    ctx: &Context<'_, '_>,
    oracles: &[Box<dyn Values>],
    total: u64,
    truncated: &mut bool,
) -> Vec<Vec<Pos>> {
    let mut found = Vec::new();
    if total == 0 {
        return found;
    }
    let most = listable(&ctx.root);
    for (i, part) in ctx.spec.parts.iter().enumerate() {
        let family = &part.family;
        let comps = family.components(&part.position);
        for (j, comp) in comps.iter().enumerate() {
            let target = oracles[i].value(comp) ^ total;
            let mut children = Vec::new();
            family.moves_to_value(comp, target, &*oracles[i], &mut children, truncated);
            for child in children {
                if found.len() >= most {
                    *truncated = true;
                    return found;
                }
                let mut parts: Vec<Pos> = comps[..j].to_vec();
                parts.extend(family.components(&child));
                parts.extend_from_slice(&comps[j + 1..]);
                let mut position = ctx.root.clone();
                position[i] = family.assemble(&parts);
                found.push(position);
            }
        }
    }
    found
}
