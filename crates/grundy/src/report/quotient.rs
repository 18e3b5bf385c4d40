//! Misère play of a sum of heaps of one take-and-break game too large to explore whole,
//! judged by the game's misère quotient over heaps up to the largest one
//! ([`crate::pattern::misere`], Plambeck and Siegel): the sum is lost for the player to
//! move when the product of its heaps' elements lies in the P-portion, and a move wins when
//! it leads to such a sum — the special method of misère play, as the Sprague–Grundy
//! theorem is normal play's. No remoteness.

use super::{listable, Analysis, Context, Method, Move, Play, Report, MAX_LISTED_MOVES};
use crate::game::{Game, Outcome};
use crate::games::{GrundySource, Pos};
use crate::pattern::misere::{code_of, quotient, Limits, Quotient, MAX_HEAP};
use crate::Error;

pub(super) struct ByQuotient;

/// The largest heap a quotient is tried for here (at most [`MAX_HEAP`]), and the most
/// memory it may take: what answers in seconds at worst. Dawson's Kayles' quotient over
/// heaps up to 25 (order 144) takes 0.5 s and 9 MB; up to 30 (order 360) about 5 s and
/// 20 MB.
const MOST_HEAP: u64 = 32;
const MOST_MEMORY: u64 = 64 << 20;
const _: () = assert!(MOST_HEAP <= MAX_HEAP);

impl Analysis for ByQuotient {
    fn name(&self) -> &'static str {
        "misère quotient"
    }

    fn answer(&self, ctx: &mut Context<'_, '_>) -> Result<Option<Report>, Error> {
        if ctx.play != Play::Misere {
            return Ok(None);
        }
        // Every part a heap game of the same rules.
        let mut rules = None;
        for part in &ctx.spec.parts {
            let GrundySource::Heaps(r) = part.family.grundy() else {
                return Ok(None);
            };
            if *rules.get_or_insert_with(|| r.clone()) != r {
                return Ok(None);
            }
        }
        let Some(rules) = rules else {
            return Ok(None);
        };
        let largest = ctx.root.iter().flatten().copied().max().unwrap_or(0);
        if largest > MOST_HEAP {
            return Ok(None);
        }
        let code = code_of(&rules)?;
        let limits = Limits {
            max_states: ctx.limits.control.max_positions,
            max_memory: ctx.limits.max_memory.min(MOST_MEMORY),
            cancel: ctx.limits.control.cancel,
        };
        // A quotient past these bounds leaves the general method's refusal to speak (it
        // says what exploring would need); `grundy pattern --misere` computes larger ones.
        let q = match quotient(&code, largest.max(1), &limits) {
            Ok(q) => q,
            Err(e) if e.is_too_large() => return Ok(None),
            Err(e) => return Err(e),
        };
        let loses = |position: &[Pos]| q.loses(&heaps(position));
        let lost = loses(&ctx.root)?;
        let mut children = Vec::new();
        ctx.game.moves(&ctx.root, &mut children);
        let most = MAX_LISTED_MOVES.min(listable(&ctx.root));
        let mut moves = Vec::new();
        let mut winning = Vec::new();
        let mut winning_truncated = false;
        for child in &children {
            // A move wins for its mover when the sum it leaves is lost; only a listed move
            // is named.
            let wins = loses(child)?;
            if wins {
                if winning.len() < most {
                    winning.push(ctx.game.spec(child).to_string());
                } else {
                    winning_truncated = true;
                }
            }
            if moves.len() < most {
                moves.push(Move {
                    outcome: if wins { Outcome::Win } else { Outcome::Loss },
                    ..ctx.typed_move(child)
                });
            }
        }
        let outcome = if lost { Outcome::Loss } else { Outcome::Win };
        Ok(Some(Report {
            winning_moves: winning,
            moves_truncated: moves.len() < children.len(),
            moves,
            rule: Some(theorem(&q, ctx.spec.parts[0].family.name())),
            winning_moves_truncated: winning_truncated,
            ..Report::new(ctx.spec.to_string(), outcome, Method::Rule)
        }))
    }
}

/// Every heap of a sum's position, part after part.
fn heaps(position: &[Pos]) -> Vec<u64> {
    position.iter().flatten().copied().collect()
}

/// What the answer rests on, in one line.
fn theorem(q: &Quotient, family: String) -> String {
    format!(
        "the misère quotient of {family} over heaps up to {} (Plambeck and Siegel): order {}, {} of its elements P-positions; a sum is lost iff the product of its heaps' elements is one of them",
        q.up_to(),
        q.order(),
        q.p_portion().len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Spec;
    use crate::games::SumGame;
    use crate::report::{solve_in, Limits};
    use std::collections::BTreeMap;

    /// The quotient's answer to `spec` in misère play, asked directly (the chain asks it
    /// only of sums too large to explore).
    fn by_quotient(spec: &Spec) -> Report {
        let limits = Limits::default();
        let (game, root) = SumGame::new(spec).unwrap();
        let mut ctx = Context {
            spec,
            limits: &limits,
            game,
            root,
            play: Play::Misere,
            oracles: None,
            refused: None,
        };
        ByQuotient
            .answer(&mut ctx)
            .unwrap()
            .expect("a sum of one heap game")
    }

    fn outcomes(report: &Report) -> BTreeMap<String, Outcome> {
        report
            .moves
            .iter()
            .map(|m| (m.spec.clone(), m.outcome))
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// On sums small enough to explore, the quotient gives the general method's
        /// outcome and every move's (Dawson's Kayles, Kayles, 0.137, a subtraction game;
        /// heaps up to 11 in one or two parts).
        #[test]
        fn the_quotient_agrees_with_the_general_method(
            game in 0usize..4,
            heaps in proptest::collection::vec(0u64..12, 1..4),
            split in proptest::bool::ANY,
        ) {
            let family = ["octal[0.07]", "octal[0.77]", "octal[0.137]", "subtraction[1,3,4]"][game];
            let list = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            let text = if split && heaps.len() > 1 {
                format!("{family}({}) + {family}({})", list(&heaps[..1]), list(&heaps[1..]))
            } else {
                format!("{family}({})", list(&heaps))
            };
            let spec: Spec = text.parse().unwrap();
            let general = solve_in(&spec, Play::Misere, &Limits::default()).unwrap();
            proptest::prop_assert_eq!(general.method, Method::Retrograde);
            let quick = by_quotient(&spec);
            proptest::prop_assert_eq!(quick.outcome, general.outcome, "{}", text);
            proptest::prop_assert_eq!(outcomes(&quick), outcomes(&general), "{}", text);
        }
    }

    /// A sum too large to explore is answered by the quotient, with its winning moves,
    /// each of which leaves a sum the quotient says is lost.
    #[test]
    fn a_sum_too_large_to_explore_is_judged_by_its_quotient() {
        let spec: Spec = "octal[0.07](15,16,17,18,19,20)".parse().unwrap();
        let report = solve_in(&spec, Play::Misere, &Limits::default()).unwrap();
        assert_eq!(report.method, Method::Rule);
        assert!(report.rule.as_deref().unwrap().contains("misère quotient"));
        let winning: Vec<&Move> = report
            .moves
            .iter()
            .filter(|m| m.outcome == Outcome::Win)
            .collect();
        assert_eq!(report.outcome == Outcome::Win, !winning.is_empty());
        for m in winning {
            let after: Spec = m.spec.parse().unwrap();
            assert_eq!(by_quotient(&after).outcome, Outcome::Loss, "{}", m.spec);
        }
        // A sum of two games is left to the other methods.
        let mixed: Spec = "octal[0.07](15,16,17,18,19,20) + octal[0.77](3)"
            .parse()
            .unwrap();
        assert!(solve_in(&mixed, Play::Misere, &Limits::default()).is_err());
    }
}
