//! `grundy pattern FAMILY`: the special method's pattern of a family, or with `--features`
//! a rule over the family's position features.

use anyhow::{Context, Result};

use crate::cli::Common;
use crate::output;
use crate::progress::finish_progress;

/// The command.
pub fn run(
    family: &str,
    up_to: Option<u64>,
    features: bool,
    check: &[String],
    common: &Common,
) -> Result<u8> {
    if features {
        let found = grundy::pattern::features::discover_text(
            family,
            up_to.unwrap_or(24),
            check,
            &common.limits().control,
        );
        finish_progress();
        let found = found.with_context(|| format!("no rule over features for `{family}`"))?;
        outln!(
            "{family}: {}
found on {} positions by the general method, checked on {} more",
            found.rule.text,
            found.found_on,
            found.checked_on
        );
        return Ok(0);
    }
    let up_to = up_to.unwrap_or_else(|| grundy::pattern::default_up_to(family));
    let found = grundy::pattern::discover(family, up_to, &common.limits().control);
    finish_progress();
    let found = found.with_context(|| format!("no pattern for `{family}`"))?;
    if common.json {
        outln!("{}", serde_json::to_value(&found)?);
    } else {
        out!("{}", output::pattern_text(&found));
    }
    Ok(0)
}
