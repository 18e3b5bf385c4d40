//! `grundy value SPEC`: the combinatorial game value of a position — its canonical form
//! as CGSuite writes it and its outcome class — and of a sum, the sum of its parts'
//! values; its mean and temperature, its atomic weight where it has one and its reduced canonical form; cooled or
//! heated when asked. With `--form`, SPEC is a value in CGSuite's notation. The library
//! values and transforms it ([`report::value`], [`cgt`]); this file prints it.

use std::path::Path;

use anyhow::{Context as _, Result};
use grundy::cgt::{self, Context, GameId, Spelling};
use grundy::games::SpecError;
use grundy::report;

use crate::args::spec as parse_spec;
use crate::cli::Common;
use crate::output::BadSpec;
use crate::progress::finish_progress;

/// What the command was asked besides the value.
pub struct Asked<'a> {
    /// `+-` for `±`.
    pub ascii: bool,
    /// Where to draw the thermograph.
    pub thermograph: Option<&'a Path>,
    /// The spec is a form in CGSuite's notation.
    pub form: bool,
    /// Cool the value by this number.
    pub cool: Option<&'a str>,
    /// Heat the value by this form.
    pub heat: Option<&'a str>,
}

/// `text` read as a form, its error shown with a caret under the column.
fn read_form(context: &mut Context, text: &str, what: &str) -> Result<GameId> {
    cgt::read(&mut context.table, text).map_err(|e| {
        let e = SpecError {
            line: 1,
            column: e.column,
            message: e.message,
        };
        anyhow::Error::new(BadSpec::new(&e, text)).context(format!("cannot read {what}"))
    })
}

/// The command.
pub fn run(spec: &str, asked: &Asked<'_>, common: &Common) -> Result<u8> {
    let spelling = if asked.ascii {
        Spelling::Ascii
    } else {
        Spelling::Unicode
    };
    let limits = common.limits();
    let mut context =
        Context::new(common.max_memory.saturating_mul(1 << 20)).with_control(&limits.control);
    let (text, valued) = if asked.form {
        let g = read_form(&mut context, spec, "the form")?;
        let valued = report::value::valued(vec![(spec.trim().to_string(), g)], &mut context);
        (spec.trim().to_string(), valued)
    } else {
        let parsed = parse_spec(spec)?;
        let valued = report::value::valuation(&parsed, &limits, &mut context);
        finish_progress();
        (parsed.to_string(), valued)
    };
    let valued = valued.with_context(|| format!("cannot value `{text}`"))?;
    let mut tempered = Vec::new();
    if let Some(t) = asked.cool {
        let by = read_form(&mut context, t, "the cooling temperature")?;
        let Some(x) = context.table.number_of(by) else {
            anyhow::bail!("cannot cool by `{t}`: the temperature must be a number");
        };
        let cooled = cgt::cool(&mut context.table, valued.total, x)
            .with_context(|| format!("cannot cool `{text}` by {t}"))?;
        tempered.push(("cooled", x.to_string(), cooled));
    }
    if let Some(t) = asked.heat {
        let by = read_form(&mut context, t, "the heating temperature")?;
        let heated = cgt::heat(&mut context.table, valued.total, by)
            .with_context(|| format!("cannot heat `{text}` by {t}"))?;
        let by = cgt::write(&mut context.table, by, spelling);
        tempered.push(("heated", by, heated));
    }
    if let Some(out) = asked.thermograph {
        let drawn = cgt::thermograph(&context.table, valued.total, &mut Default::default())
            .with_context(|| format!("no thermograph for `{text}`"))?;
        let title = cgt::write(&mut context.table, valued.total, spelling);
        grundy_plot::write_thermograph(&drawn, &title, out)?;
    }
    let found = report::value::words(&text, &valued, &mut context, spelling);
    let tempered: Vec<(&str, String, String)> = tempered
        .into_iter()
        .map(|(how, by, g)| (how, by, cgt::write(&mut context.table, g, spelling)))
        .collect();
    if common.json {
        let mut json = serde_json::to_value(&found)?;
        for (how, by, value) in &tempered {
            json[*how] = serde_json::json!({ "by": by, "value": value });
        }
        outln!("{json}");
        return Ok(0);
    }
    if found.parts.len() > 1 {
        for part in &found.parts {
            outln!("{}: {} ({})", part.spec, part.value, part.class);
        }
    }
    outln!("{}: {}", found.spec, found.value);
    outln!("outcome class {}: {}", found.class, found.winner);
    outln!("mean {}, temperature {}", found.mean, found.temperature);
    if let Some(w) = &found.atomic_weight {
        outln!("atomic weight {w}");
    }
    // Said where it is not the value itself (numbers, and games with no infinitesimal
    // part to drop).
    if let Some(r) = found
        .reduced_canonical_form
        .as_ref()
        .filter(|&r| *r != found.value)
    {
        outln!("reduced canonical form {r}");
    }
    for (how, by, value) in &tempered {
        outln!("{how} by {by}: {value}");
    }
    Ok(0)
}
