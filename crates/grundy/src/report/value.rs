//! The combinatorial game value of a spec ([`crate::cgt`]): each part's canonical form —
//! a partizan part's from its family ([`crate::games::GameRules::cgt_value`]), an
//! impartial part's the nimber of its Grundy value, found by [`super::solve`] — and
//! their sum, its outcome class, mean and temperature. What `grundy value`, the web page's
//! `/api/value` and Python's `value` show; the front ends only format it.

use crate::cgt::{self, Class, Context, Dyadic, GameId, Spelling};
use crate::games::{Kind, Part, Spec};
use crate::Error;

use super::Limits;

/// The largest nimber built as a form (`*n` holds n² option ids).
pub const MAX_NIMBER: u32 = 1024;

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
    let ids: Vec<GameId> = parts.iter().map(|&(_, v)| v).collect();
    let total = context.table.sum_all(&ids)?;
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
    let mut parts = Vec::with_capacity(found.parts.len());
    for (text, id) in &found.parts {
        let class = context.table.class(*id);
        parts.push(PartValue {
            spec: text.clone(),
            value: cgt::write(&mut context.table, *id, spelling),
            class: class.letter(),
        });
    }
    Ok(ValueReport {
        spec: spec.to_string(),
        value: cgt::write(&mut context.table, found.total, spelling),
        class: found.class.letter(),
        winner: winner(found.class),
        mean: found.mean.to_string(),
        temperature: found.temperature.to_string(),
        parts,
        forms: context.table.len(),
    })
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
    match u32::try_from(grundy) {
        Ok(n) if n <= MAX_NIMBER => Ok(context.table.nimber(n)),
        _ => Err(Error::Unsupported(format!(
            "a Grundy value of {grundy}: nimbers past *{MAX_NIMBER} are not built as forms"
        ))),
    }
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
        let mut context = Context::new(1 << 26).with_cancel(Some(&cancel));
        let got = valuation(&spec, &Limits::default(), &mut context);
        assert!(matches!(got, Err(Error::Cancelled)), "{got:?}");
    }
}
