//! The combinatorial game value of a spec ([`crate::cgt`]): each part's canonical form —
//! a partizan part's from its family ([`crate::games::GameRules::cgt_value`]), an
//! impartial part's the nimber of its Grundy value, found by [`super::solve`] — and
//! their sum, its outcome class, mean and temperature. What `grundy value`, the web page's
//! `/api/value` and Python's `value` show; the front ends only format it.

use crate::cgt::{self, Class, Context, Dyadic, GameId, Spelling};
use crate::game::{Outcome, Player};
use crate::games::{Kind, Part, Pos, Spec};
use crate::Error;

use super::{Limits, Method, Move, Report};

pub use crate::cgt::MAX_NIMBER;

/// The value of a spec, as ids of the context's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Valuation {
    /// Each part, as written, with its value.
    pub parts: Vec<(String, GameId)>,
    /// The sum of the parts' values.
    pub total: GameId,
    /// The sum's outcome class.
    pub class: Class,
    /// The sum's mean value.
    pub mean: Dyadic,
    /// The sum's temperature (negative for numbers, as CGSuite gives it).
    pub temperature: Dyadic,
}

/// One part of a [`ValueReport`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PartValue {
    /// The part, as written.
    pub spec: String,
    /// Its canonical form, as CGSuite writes it.
    pub value: String,
    /// Its outcome class: `L`, `R`, `P` or `N`.
    pub class: &'static str,
}

/// A [`Valuation`] in words: the JSON of `grundy value --json` and of `/api/value`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueReport {
    /// The spec, as written.
    pub spec: String,
    /// The sum's canonical form.
    pub value: String,
    /// Its outcome class: `L`, `R`, `P` or `N`.
    pub class: &'static str,
    /// Who wins, in words.
    pub winner: &'static str,
    /// The mean value.
    pub mean: String,
    /// The temperature.
    pub temperature: String,
    /// The atomic weight ([`cgt::atomic_weight`]), for an infinitesimal value other than
    /// a nimber (a nimber's is 0) that has one: every all-small value, and the other
    /// infinitesimals CGSuite finds atomic. `None` otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub atomic_weight: Option<String>,
    /// The reduced canonical form ([`cgt::reduced_canonical_form`]): the simplest game
    /// infinitesimally close to the value (`None` only past the range of the table's
    /// numbers).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reduced_canonical_form: Option<String>,
    /// Each part's value (one part: the spec itself).
    pub parts: Vec<PartValue>,
    /// Distinct canonical forms the table holds after the valuation.
    pub forms: usize,
}

/// Values `spec` in `context`'s table: its parts, their sum, the sum's class, mean and
/// temperature.
///
/// # Errors
/// [`Error::Unsupported`] for a part of a partizan or score family that offers no value,
/// or an impartial part whose Grundy value passes `*`[`MAX_NIMBER`]; [`Error::OverLimit`]
/// past the memory `context` allows; what [`super::solve`] refuses for an impartial part;
/// [`Error::Overflow`] past the range of the table's numbers.
pub fn valuation(
    spec: &Spec,
    limits: &Limits<'_>,
    context: &mut Context,
) -> Result<Valuation, Error> {
    let mut parts = Vec::with_capacity(spec.parts.len());
    for part in &spec.parts {
        let text = part_text(part);
        let value = part_value(part, limits, context)?;
        parts.push((text, value));
    }
    valued(parts, context)
}

/// The [`Valuation`] of parts already valued (each part as written, with its value):
/// their sum, its class, mean and temperature. How `grundy value --form` values a form
/// read by [`cgt::read`].
///
/// # Errors
/// [`Error::Overflow`] past the range of the table's numbers; [`Error::OverLimit`] past
/// the memory `context` allows.
pub fn valued(parts: Vec<(String, GameId)>, context: &mut Context) -> Result<Valuation, Error> {
    let ids: Vec<GameId> = parts.iter().map(|&(_, v)| v).collect();
    let total = context.table.sum_all(&ids)?;
    context.check()?;
    let class = context.table.class(total);
    let thermograph = cgt::thermograph(&context.table, total, &mut Default::default())?;
    Ok(Valuation {
        parts,
        total,
        class,
        mean: thermograph.mean,
        temperature: thermograph.temperature,
    })
}

/// Whether `grundy value` values the positions of the registry's `entry`: a partizan
/// family whose first small member [`valuation`] values (the board games of two players,
/// tic-tac-toe or hex, have no canonical form here), as the CLI's help lists them.
#[must_use]
pub fn values_entry(entry: &crate::games::spec::Entry) -> bool {
    entry.small.first().is_some_and(|small| {
        let Ok(spec) = small.parse::<Spec>() else {
            return false;
        };
        let partizan = spec.parts.iter().all(|p| p.family.kind() == Kind::Partizan);
        let mut context = Context::new(1 << 24);
        partizan && valuation(&spec, &Limits::default(), &mut context).is_ok()
    })
}

/// [`valuation`] in words, spelt as asked.
///
/// # Errors
/// As [`valuation`].
pub fn value(
    spec: &Spec,
    limits: &Limits<'_>,
    context: &mut Context,
    spelling: Spelling,
) -> Result<ValueReport, Error> {
    let found = valuation(spec, limits, context)?;
    Ok(words(&spec.to_string(), &found, context, spelling))
}

/// A [`Valuation`] of `spec` (made in `context`) in words.
#[must_use]
pub fn words(
    spec: &str,
    found: &Valuation,
    context: &mut Context,
    spelling: Spelling,
) -> ValueReport {
    let mut parts = Vec::with_capacity(found.parts.len());
    for (text, id) in &found.parts {
        let class = context.table.class(*id);
        parts.push(PartValue {
            spec: text.clone(),
            value: cgt::write(&mut context.table, *id, spelling),
            class: class.letter(),
        });
    }
    // Nimbers (0 among them) weigh 0: said only of the other infinitesimals, those that
    // have a weight (an error here is the refusal of a game that is not atomic).
    let nimber = context.table.nimber_of(found.total).is_some();
    let atomic_weight = if !nimber && cgt::is_infinitesimal(&context.table, found.total) {
        cgt::atomic_weight(&mut context.table, found.total)
            .ok()
            .map(|w| cgt::write(&mut context.table, w, spelling))
    } else {
        None
    };
    let reduced_canonical_form = cgt::reduced_canonical_form(&mut context.table, found.total)
        .ok()
        .map(|r| cgt::write(&mut context.table, r, spelling));
    ValueReport {
        spec: spec.to_string(),
        value: cgt::write(&mut context.table, found.total, spelling),
        atomic_weight,
        reduced_canonical_form,
        class: found.class.letter(),
        winner: winner(found.class),
        mean: found.mean.to_string(),
        temperature: found.temperature.to_string(),
        parts,
        forms: context.table.len(),
    }
}

/// Solves a sum with partizan parts by its parts' values (method `values`): who is to
/// move is the partizan parts' common mover; the mover wins iff the sum's class lets the
/// first player of that side win (Left: `L` or `N`; Right: `R` or `N`); a move in part
/// `i` to a child wins iff the sum with part `i` replaced by the child is `≥ 0` for Left
/// (`≤ 0` for Right): each child valued alone, as Sprague–Grundy values a move in an
/// impartial sum. The turn passes in every part, so the parts not moved in are written
/// with the new mover ([`crate::games::GameRules::with_mover`]). No remoteness.
///
/// `Ok(None)` for a spec of one part or of impartial parts alone (the chain answers).
///
/// # Errors
/// [`Error::Unsupported`] for a score part, a partizan part without values, or parts
/// that disagree on who is to move; as [`valuation`].
pub fn solve_sum(spec: &Spec, limits: &Limits<'_>) -> Result<Option<Report>, Error> {
    let mut context = Context::new(limits.max_memory).with_control(&limits.control);
    Ok(solve_sum_in(spec, limits, &mut context)?.map(|(report, _)| report))
}

/// [`solve_sum`] in the caller's `context`, with the sum's [`Valuation`] beside the
/// report: how a caller that shows both (the web page's Explore) values the parts once.
///
/// # Errors
/// As [`solve_sum`].
pub fn solve_sum_in(
    spec: &Spec,
    limits: &Limits<'_>,
    context: &mut Context,
) -> Result<Option<(Report, Valuation)>, Error> {
    if spec.parts.len() < 2 || spec.parts.iter().all(Part::is_impartial) {
        return Ok(None);
    }
    if let Some(part) = spec.parts.iter().find(|p| p.family.kind() == Kind::Score) {
        return Err(Error::Unsupported(format!(
            "`{}` is a score game: it can be solved alone, not as part of a sum",
            part_text(part)
        )));
    }
    let partizan: Vec<&Part> = spec.parts.iter().filter(|p| !p.is_impartial()).collect();
    let mover = partizan[0].family.to_move(&partizan[0].position);
    if let Some(other) = partizan
        .iter()
        .find(|p| p.family.to_move(&p.position) != mover)
    {
        return Err(Error::Unsupported(format!(
            "the parts disagree on who is to move: `{}` and `{}`",
            part_text(partizan[0]),
            part_text(other)
        )));
    }
    let next = mover.other();
    // The parts as they stand after a move elsewhere: the turn passed.
    let mut passed: Vec<Pos> = Vec::with_capacity(spec.parts.len());
    for part in &spec.parts {
        if part.is_impartial() {
            passed.push(part.position.clone());
            continue;
        }
        let Some(pos) = part.family.with_mover(&part.position, next) else {
            return Err(Error::Unsupported(format!(
                "`{}` cannot be written with the other player to move, so a sum cannot name its moves",
                part.family.name()
            )));
        };
        passed.push(pos);
    }
    let found = valuation(spec, limits, context)?;
    let values: Vec<GameId> = found.parts.iter().map(|&(_, v)| v).collect();
    let left = mover == Player::First;
    let zero = context.table.zero();
    let mut moves = Vec::new();
    let mut children = Vec::new();
    for (i, part) in spec.parts.iter().enumerate() {
        // Every move is valued one by one: a part of more moves than that (a Nim heap of
        // 10^18) is refused before they are listed.
        let count = part.family.move_count(&part.position);
        if count > MAX_SUM_MOVES {
            return Err(Error::TooLarge {
                what: format!(
                    "part {} of `{spec}` has up to {count} moves, more than the {MAX_SUM_MOVES} \
                     a sum with partizan parts values one by one (`grundy value` gives the \
                     sum's value)",
                    i + 1
                ),
                need: None,
            });
        }
        children.clear();
        part.family.moves(&part.position, &mut children);
        // An impartial part's children: their Grundy values from one solve of the part
        // (its report values every move), not a solve each.
        let known = impartial_children(part, limits)?;
        for child in &children {
            let moved = part.with(child.clone());
            let mut now = values.clone();
            now[i] = match known.get(&part_text(&moved)) {
                Some(&g) => nimber_form(g, context)?,
                None => part_value(&moved, limits, context)?,
            };
            let total = context.table.sum_all(&now)?;
            let wins = if left {
                context.table.geq(total, zero)
            } else {
                context.table.leq(total, zero)
            };
            let to = Spec {
                parts: spec
                    .parts
                    .iter()
                    .zip(&passed)
                    .enumerate()
                    .map(|(j, (p, pos))| {
                        if j == i {
                            moved.clone()
                        } else {
                            p.with(pos.clone())
                        }
                    })
                    .collect(),
            };
            moves.push(Move {
                spec: to.to_string(),
                to,
                name: format!(
                    "{} in part {}",
                    part.family.move_name(&part.position, child),
                    i + 1
                ),
                gain: None,
                gift: None,
                again: false,
                outcome: if wins { Outcome::Win } else { Outcome::Loss },
                remoteness: None,
                grundy: None,
                scores: None,
                worse_by: None,
            });
        }
    }
    let first_wins = match found.class {
        Class::N => true,
        Class::P => false,
        Class::L => left,
        Class::R => !left,
    };
    let winning_moves: Vec<String> = moves
        .iter()
        .filter(|m| m.outcome == Outcome::Win)
        .map(|m| m.spec.clone())
        .collect();
    if first_wins == winning_moves.is_empty() {
        return Err(Error::Unsupported(format!(
            "the parts' values of `{spec}` disagree with its moves' (a family's values are wrong)"
        )));
    }
    let outcome = if first_wins {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let report = Report {
        winning_moves,
        moves,
        ..Report::new(spec.to_string(), outcome, Method::Values)
    };
    Ok(Some((report, found)))
}

/// The Grundy value of each position an impartial part moves to, by its spec, from one
/// solve of the part (empty for a partizan part, or where the report lists only some).
fn impartial_children(
    part: &Part,
    limits: &Limits<'_>,
) -> Result<std::collections::HashMap<String, u64>, Error> {
    if !part.is_impartial() {
        return Ok(std::collections::HashMap::new());
    }
    let alone = Spec {
        parts: vec![part.clone()],
    };
    let report = super::solve(&alone, limits)?;
    Ok(report
        .moves
        .iter()
        .filter_map(|m| Some((m.spec.clone(), m.grundy?)))
        .collect())
}

/// The most moves of one part that [`solve_sum_in`] values one by one.
const MAX_SUM_MOVES: u128 = 1 << 16;

/// The nimber `*g` as a form, refused past `*`[`MAX_NIMBER`].
fn nimber_form(g: u64, context: &mut Context) -> Result<GameId, Error> {
    match u32::try_from(g) {
        Ok(n) if n <= MAX_NIMBER => Ok(context.table.nimber(n)),
        _ => Err(Error::Unsupported(format!(
            "a Grundy value of {g}: nimbers past *{MAX_NIMBER} are not built as forms"
        ))),
    }
}

/// One part's value: its family's, or the nimber of an impartial part's Grundy value.
fn part_value(part: &Part, limits: &Limits<'_>, context: &mut Context) -> Result<GameId, Error> {
    if let Some(value) = part.family.cgt_value(&part.position, context) {
        return value;
    }
    if part.family.kind() != Kind::Impartial {
        return Err(Error::Unsupported(format!(
            "`{}` has no combinatorial game value in grundy yet (partizan families with values: {})",
            part.family.name(),
            valued_families().join(", ")
        )));
    }
    let alone = Spec {
        parts: vec![part.clone()],
    };
    let Some(grundy) = super::solve(&alone, limits)?.grundy else {
        return Err(Error::Unsupported(format!(
            "no Grundy value for `{}`",
            part_text(part)
        )));
    };
    nimber_form(grundy, context)
}

/// The registered partizan families that offer values, by name: those whose examples
/// are valued by their family.
fn valued_families() -> Vec<&'static str> {
    let mut context = Context::new(1 << 24);
    crate::games::registry::entries()
        .filter(|entry| {
            entry.examples.first().is_some_and(|example| {
                example.parse::<Spec>().is_ok_and(|spec| {
                    spec.parts.iter().all(|p| {
                        p.family.kind() != Kind::Impartial
                            && p.family.cgt_value(&p.position, &mut context).is_some()
                    })
                })
            })
        })
        .map(|entry| entry.name)
        .collect()
}

fn part_text(part: &Part) -> String {
    Spec {
        parts: vec![part.clone()],
    }
    .to_string()
}

/// Who wins a game of `class`, in words.
#[must_use]
pub fn winner(class: Class) -> &'static str {
    match class {
        Class::L => "Left wins, whoever starts",
        Class::R => "Right wins, whoever starts",
        Class::P => "the second player wins",
        Class::N => "the first player wins",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valued(text: &str) -> Result<ValueReport, Error> {
        let spec: Spec = text.parse().unwrap();
        let mut context = Context::new(1 << 26);
        value(&spec, &Limits::default(), &mut context, Spelling::Ascii)
    }

    /// A Domineering rectangle and its transpose are negatives; impartial parts are
    /// nimbers of their Grundy values (octal 0.77 of 4: G = 1).
    #[test]
    fn sums_of_unlike_parts() {
        let v = valued("domineering[2x3] + domineering[3x2]").unwrap();
        assert_eq!((v.value.as_str(), v.class), ("0", "P"));
        assert_eq!(v.parts[0].value, "{2|-1/2}");
        let v = valued("domineering[2x2] + nim(3) + octal[0.77](4)").unwrap();
        assert_eq!(v.parts[1].value, "*3");
        assert_eq!(v.parts[2].value, "*");
        // ±1 + *3 + * = ±1 + *2 = {1*2 | -1*2}: first player wins, mean 0, temperature 1.
        assert_eq!((v.value.as_str(), v.class), ("{1*2|-1*2}", "N"));
        assert_eq!((v.mean.as_str(), v.temperature.as_str()), ("0", "1"));
    }

    /// A large nimber plus a number is written `x*n` and reached without simplifying
    /// the sum option by option (`nim(20) + 3/2` took half a minute, and its text grew
    /// as 2^20 before `x*n` was recognised past `*7`); a sum with a part of more moves
    /// than it values one by one is refused, not listed (a Nim heap of 10^18 panicked).
    #[test]
    fn large_nimbers_sum_at_once_and_huge_parts_are_refused() {
        let v = valued("nim(300) + hackenbush(BBR)").unwrap();
        assert_eq!((v.value.as_str(), v.class), ("3/2*300", "L"));
        assert_eq!(v.reduced_canonical_form.as_deref(), Some("3/2"));
        let v = valued("nim(200) + nim(100) + hackenbush(B)").unwrap();
        assert_eq!(v.value, format!("1*{}", 200 ^ 100));
        let spec: Spec = "nim(10^18,10^18) + hackenbush(BBR)".parse().unwrap();
        match solve_sum(&spec, &Limits::default()) {
            Err(Error::TooLarge { what, .. }) => assert!(what.contains("part 1"), "{what}"),
            other => panic!("{:?}", other.map(|r| r.map(|r| r.outcome))),
        }
    }

    /// A partizan family without values is refused, naming those that have them.
    #[test]
    fn a_family_without_values_is_refused_by_name() {
        let err = valued("kalah[3,2]").unwrap_err().to_string();
        assert!(
            err.contains("`kalah[3,2]`") && err.contains("domineering"),
            "{err}"
        );
    }

    /// A cancelled context stops the valuation (the web's time limit, Ctrl-C).
    #[test]
    fn a_cancelled_valuation_stops() {
        let cancel = std::sync::atomic::AtomicBool::new(true);
        let spec: Spec = "domineering[4x4]".parse().unwrap();
        let control = crate::explore::Control::cancelled_by(&cancel);
        let mut context = Context::new(1 << 26).with_control(&control);
        let got = valuation(&spec, &Limits::default(), &mut context);
        assert!(matches!(got, Err(Error::Cancelled)), "{got:?}");
    }

    /// A valuation stops past the caller's positions, and tells its progress as the
    /// positions valued grow.
    #[test]
    fn a_valuation_is_bounded_by_its_positions_and_tells_its_progress() {
        use crate::explore::Control;
        let spec: Spec = "domineering[4x5]".parse().unwrap();
        let told = std::sync::Mutex::new(Vec::new());
        let progress =
            |stage: &str, done: u64| told.lock().unwrap().push((stage.to_string(), done));
        let control = Control {
            progress: Some(&progress),
            ..Control::default()
        };
        let mut context = Context::new(1 << 28).with_control(&control);
        valuation(&spec, &Limits::default(), &mut context).unwrap();
        let valued = context.memo_len() as u64;
        let told = told.into_inner().unwrap();
        assert!(!told.is_empty(), "{valued} positions, no progress");
        assert!(told.iter().all(|(stage, _)| stage == "values"), "{told:?}");
        assert!(told.windows(2).all(|w| w[0].1 < w[1].1), "{told:?}");
        assert!(told.last().unwrap().1 <= valued);

        let few = Control {
            max_positions: valued / 2,
            ..Control::default()
        };
        let mut context = Context::new(1 << 28).with_control(&few);
        let got = valuation(&spec, &Limits::default(), &mut context);
        assert!(
            matches!(
                got,
                Err(Error::OverLimit {
                    limit: crate::Limit::Positions,
                    ..
                })
            ),
            "{got:?}"
        );
        assert!(context.memo_len() as u64 <= valued / 2 + 1);
        let enough = Control {
            max_positions: valued,
            ..Control::default()
        };
        let mut context = Context::new(1 << 28).with_control(&enough);
        assert!(valuation(&spec, &Limits::default(), &mut context).is_ok());
    }

    /// Whether the player to move wins `parts` (one position each, the partizan ones with
    /// `mover` to move) by play of the whole: the brute-force reference.
    fn wins_by_play(spec: &Spec, mover: Player) -> bool {
        let mut children = Vec::new();
        for (i, part) in spec.parts.iter().enumerate() {
            let here = part
                .family
                .with_mover(&part.position, mover)
                .unwrap_or_else(|| part.position.clone());
            children.clear();
            part.family.moves(&here, &mut children);
            for child in children.clone() {
                let next = spec.with_part(i, child);
                if !wins_by_play(&next, mover.other()) {
                    return true;
                }
            }
        }
        false
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// The sum's outcome and every move's, from the parts' values, equal play of the
        /// whole sum, on random small Domineering boards with a Nim heap beside them.
        #[test]
        fn a_sum_judged_by_values_is_judged_as_play_judges_it(
            a in 0u32..64, b in 0u32..64, heap in 0u32..3, right in proptest::bool::ANY,
        ) {
            let board = |bits: u32, rows: u32, columns: u32| -> String {
                (0..rows)
                    .map(|r| {
                        (0..columns)
                            .map(|c| if bits >> (r * columns + c) & 1 == 1 { 'x' } else { '.' })
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
                    .join("/")
            };
            let turn = if right { ",right" } else { "" };
            let text = format!(
                "domineering[2x3]({}{turn}) + domineering[3x2]({}{turn}) + nim({heap})",
                board(a, 2, 3),
                board(b, 3, 2)
            );
            let spec: Spec = text.parse().unwrap();
            let mover = if right { Player::Second } else { Player::First };
            let report = solve_sum(&spec, &Limits::default()).unwrap().unwrap();
            proptest::prop_assert_eq!(
                report.outcome == Outcome::Win,
                wins_by_play(&spec, mover),
                "{}", text
            );
            for m in &report.moves {
                // After the move the opponent is to move: the move wins iff they lose.
                proptest::prop_assert_eq!(
                    m.outcome == Outcome::Win,
                    !wins_by_play(&m.to, mover.other()),
                    "{} then {}", text, m.name
                );
            }
        }
    }
}
