//! The general method: explore every reachable position and label it won, lost or drawn
//! with its remoteness (the one retrograde engine; right on cycles). Ranked families are
//! explored by rank, with no position stored and no forward graph kept; the others
//! through a hash map of positions.

use super::{Analysis, Context, Method, Move, Report, MAX_LISTED_MOVES};
use crate::explore::{explore, explore_ranked};
use crate::game::{Game, Outcome, Value};
use crate::games::Kind;
use crate::solve::{label_by_degree, label_explored};
use crate::Error;

pub(super) struct Retrograde;

/// How much looser than the position budget a family's bound may be before exploring is
/// not even tried (bounds are upper bounds, often far above what is reached).
const BOUND_SLACK: u128 = 64;

impl Analysis for Retrograde {
    fn name(&self) -> &'static str {
        "retrograde"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        if ctx
            .spec
            .parts
            .iter()
            .any(|p| p.family.kind() == Kind::Score)
        {
            return Ok(None);
        }
        let cap = u128::from(ctx.limits.control.max_positions);
        let bound = ctx
            .spec
            .parts
            .iter()
            .map(|p| p.family.bound(&p.position).positions)
            .fold(1u128, u128::saturating_mul);
        if bound > cap.saturating_mul(BOUND_SLACK) {
            return Err(Error::TooLarge {
                what: format!(
                    "up to {} positions to explore (limit {cap})",
                    super::sci(bound)
                ),
                need: None,
            });
        }
        let labelled = label(ctx)?;
        let value = labelled.root;
        // Grundy values, where the oracles can be had (impartial games).
        let (grundy, components, oracles) = if ctx.spec.is_impartial() {
            match ctx.components() {
                Ok((components, total)) => (Some(total), components, Some(ctx.oracles()?)),
                Err(Error::TooLarge { .. } | Error::Unsupported(_)) => (None, Vec::new(), None),
                Err(e) => return Err(e),
            }
        } else {
            (None, Vec::new(), None)
        };
        if let Some(g) = grundy {
            debug_assert_eq!(
                value.outcome() == Outcome::Win,
                g != 0,
                "Sprague–Grundy and retrograde analysis disagree on {}",
                ctx.spec
            );
        }
        let mut children = Vec::new();
        if ctx.game.terminal(&ctx.root).is_none() {
            ctx.game.moves(&ctx.root, &mut children);
        }
        let mut moves: Vec<Move> = Vec::new();
        let mut winning_moves = Vec::new();
        for (i, child) in children.iter().enumerate() {
            let child_value = labelled.children[i];
            let again = ctx.game.keeps_turn(&ctx.root, child);
            let mine = if again {
                match child_value {
                    Value::Win(r) => Value::Win(r + 1),
                    Value::Loss(r) => Value::Loss(r + 1),
                    Value::Draw => Value::Draw,
                }
            } else {
                child_value.parent()
            };
            if mine.outcome() == Outcome::Win {
                winning_moves.push(ctx.game.spec(child).to_string());
            }
            if moves.len() < MAX_LISTED_MOVES {
                moves.push(Move {
                    outcome: mine.outcome(),
                    remoteness: mine.remoteness(),
                    grundy: oracles
                        .as_ref()
                        .map(|o| Context::value_of(o, &ctx.game, child)),
                    ..ctx.typed_move(child)
                });
            }
        }
        Ok(Some(Report {
            spec: ctx.spec.to_string(),
            outcome: value.outcome(),
            remoteness: value.remoteness(),
            winning_moves,
            grundy,
            components: if components.len() > 1 {
                components
            } else {
                Vec::new()
            },
            scores: None,
            moves_truncated: children.len() > moves.len(),
            moves,
            method: Method::Retrograde,
            positions: Some(labelled.positions),
            rule: None,
            winning_moves_truncated: false,
        }))
    }
}

/// The root's value, the value of each of its children in move order, and the count.
struct Labelled {
    root: Value,
    children: Vec<Value>,
    positions: u64,
}

fn label(ctx: &Context<'_, '_>) -> Result<Labelled, Error> {
    let control = &ctx.limits.control;
    if let Some(part) = ctx.spec.single() {
        if let Some(ranked) = part.family.ranking(&part.position) {
            let family = &part.family;
            let root = ranked.rank(&part.position);
            let explored = explore_ranked(
                ranked.size(),
                root,
                |r, out| ranked.moves(r, out),
                |r| ranked.terminal(r).is_some(),
                control,
            )?;
            let mover: Option<Vec<u8>> = family.keeps_turn().then(|| {
                explored
                    .ranks
                    .iter()
                    .map(|&r| family.to_move(&ranked.unrank(r)).index() as u8)
                    .collect()
            });
            let labels = label_by_degree(
                |v| u64::from(explored.degrees[v as usize]),
                &explored.reverse,
                |v| ranked.terminal(explored.ranks[v as usize]),
                mover.as_deref(),
                control,
            )?;
            let mut children = Vec::new();
            if family.terminal(&part.position).is_none() {
                family.moves(&part.position, &mut children);
            }
            let values = children
                .iter()
                .map(|c| {
                    let id = explored
                        .id(ranked.rank(c))
                        .expect("every child of the root was explored");
                    labels.value(id)
                })
                .collect();
            return Ok(Labelled {
                root: labels.value(0),
                children: values,
                positions: explored.len() as u64,
            });
        }
    }
    let explored = explore(&ctx.game, &ctx.root, control)?;
    let positions = explored.len() as u64;
    let solution = label_explored(&ctx.game, explored, control)?;
    let children = solution.moves(0).map(|(_, v)| v).collect();
    Ok(Labelled {
        root: solution.root_value(),
        children,
        positions,
    })
}
