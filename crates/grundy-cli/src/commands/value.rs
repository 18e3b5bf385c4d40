//! `grundy value SPEC`: the combinatorial game value of a position — its canonical form
//! as CGSuite writes it and its outcome class — and of a sum, the sum of its parts'
//! values; its mean and temperature. Partizan parts are valued by their family (`domineering`); impartial parts
//! are the nimbers of their Grundy values.

use anyhow::{bail, Context as _, Result};
use grundy::cgt::{self, Class, Context, GameId, Spelling};
use grundy::games::{Kind, Part, Spec};
use grundy::report;

use crate::args::spec as parse_spec;
use crate::cli::Common;
use crate::progress::finish_progress;

/// The largest nimber built as a form (`*n` holds n² option ids).
const MAX_NIMBER: u32 = 1024;

/// The command.
pub fn run(spec: &str, ascii: bool, common: &Common) -> Result<u8> {
    let spec = parse_spec(spec)?;
    let spelling = if ascii {
        Spelling::Ascii
    } else {
        Spelling::Unicode
    };
    let mut context = Context::new(common.max_memory.saturating_mul(1 << 20));
    let mut parts = Vec::with_capacity(spec.parts.len());
    for part in &spec.parts {
        let value = part_value(part, &mut context, common)
            .with_context(|| format!("cannot value `{}`", part_text(part)))?;
        parts.push((part_text(part), value));
    }
    let values: Vec<GameId> = parts.iter().map(|&(_, v)| v).collect();
    let total = context
        .table
        .sum_all(&values)
        .with_context(|| format!("cannot add the values of `{spec}`"))?;
    let class = context.table.class(total);
    let text = cgt::write(&mut context.table, total, spelling);
    let thermograph = cgt::thermograph(&context.table, total, &mut Default::default())
        .with_context(|| format!("no thermograph for `{spec}`"))?;
    let (mean, temperature) = (
        thermograph.mean.to_string(),
        thermograph.temperature.to_string(),
    );
    if common.json {
        let mut json_parts = Vec::new();
        for (part, value) in &parts {
            let class = context.table.class(*value);
            json_parts.push(serde_json::json!({
                "spec": part,
                "value": cgt::write(&mut context.table, *value, spelling),
                "class": class.letter(),
            }));
        }
        outln!(
            "{}",
            serde_json::json!({
                "spec": spec.to_string(),
                "value": text,
                "class": class.letter(),
                "winner": winner(class),
                "mean": mean,
                "temperature": temperature,
                "parts": json_parts,
                "forms": context.table.len(),
            })
        );
        return Ok(0);
    }
    if parts.len() > 1 {
        for (part, value) in &parts {
            let class = context.table.class(*value);
            let part_value = cgt::write(&mut context.table, *value, spelling);
            outln!("{part}: {part_value} ({})", class.letter());
        }
    }
    outln!("{spec}: {text}");
    outln!("outcome class {}: {}", class.letter(), winner(class));
    outln!("mean {mean}, temperature {temperature}");
    Ok(0)
}

/// One part's value: its family's, or the nimber of an impartial part's Grundy value.
fn part_value(part: &Part, context: &mut Context, common: &Common) -> Result<GameId> {
    if let Some(value) = part.family.cgt_value(&part.position, context) {
        return Ok(value?);
    }
    if part.family.kind() != Kind::Impartial {
        bail!(
            "`{}` has no combinatorial game value in grundy yet (partizan families with values: domineering)",
            part.family.name()
        );
    }
    let alone = Spec {
        parts: vec![part.clone()],
    };
    let report = report::solve(&alone, &common.limits());
    finish_progress();
    let Some(grundy) = report?.grundy else {
        bail!("no Grundy value for an impartial part");
    };
    // *n has n options a side, each a nimber below it: n² words.
    let n = match u32::try_from(grundy) {
        Ok(n) if n <= MAX_NIMBER => n,
        _ => bail!("a Grundy value of {grundy}: nimbers past *{MAX_NIMBER} are not built as forms"),
    };
    Ok(context.table.nimber(n))
}

fn part_text(part: &Part) -> String {
    Spec {
        parts: vec![part.clone()],
    }
    .to_string()
}

/// Who wins, in words.
fn winner(class: Class) -> &'static str {
    match class {
        Class::L => "Left wins, whoever starts",
        Class::R => "Right wins, whoever starts",
        Class::P => "the second player wins",
        Class::N => "the first player wins",
    }
}
