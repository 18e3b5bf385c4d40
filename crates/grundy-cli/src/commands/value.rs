//! `grundy value SPEC`: the combinatorial game value of a position — its canonical form
//! as CGSuite writes it and its outcome class — and of a sum, the sum of its parts'
//! values; its mean and temperature. The library values it ([`report::value`]); this
//! file prints it.

use std::path::Path;

use anyhow::{Context as _, Result};
use grundy::cgt::{self, Context, Spelling};
use grundy::report;

use crate::args::spec as parse_spec;
use crate::cli::Common;
use crate::progress::finish_progress;

/// The command.
pub fn run(spec: &str, ascii: bool, thermograph: Option<&Path>, common: &Common) -> Result<u8> {
    let spec = parse_spec(spec)?;
    let spelling = if ascii {
        Spelling::Ascii
    } else {
        Spelling::Unicode
    };
    let limits = common.limits();
    let mut context =
        Context::new(common.max_memory.saturating_mul(1 << 20)).with_cancel(limits.control.cancel);
    let valued = report::value::valuation(&spec, &limits, &mut context);
    finish_progress();
    let valued = valued.with_context(|| format!("cannot value `{spec}`"))?;
    if let Some(out) = thermograph {
        let drawn = cgt::thermograph(&context.table, valued.total, &mut Default::default())
            .with_context(|| format!("no thermograph for `{spec}`"))?;
        let title = cgt::write(&mut context.table, valued.total, spelling);
        grundy_plot::write_thermograph(&drawn, &title, out)?;
    }
    let found = report::value::words(&spec, &valued, &mut context, spelling);
    if common.json {
        outln!("{}", serde_json::to_string(&found)?);
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
    Ok(0)
}
