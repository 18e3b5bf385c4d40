//! `grundy pattern FAMILY`: the special method's pattern of a family, with `--features`
//! a rule over the family's position features, or with `--misere` the misère quotient of
//! a take-and-break game.

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

/// `pattern --misere`: the misère quotient of a take-and-break game over heaps up to N.
pub fn misere(family: &str, up_to: Option<u64>, common: &Common) -> Result<u8> {
    use grundy::pattern::misere as quotient;
    let Some(n) = up_to else {
        anyhow::bail!("--misere needs --up-to N: the largest heap the quotient speaks of");
    };
    let parsed =
        grundy::games::parse_family(family).map_err(|e| anyhow::anyhow!("{}", e.render(family)))?;
    let grundy::games::GrundySource::Heaps(rules) = parsed.grundy() else {
        anyhow::bail!(
            "a misère quotient is computed for take-and-break games (octal[…], subtraction[…]); `{family}` is not one"
        );
    };
    let code = quotient::code_of(&rules)?;
    let limits = quotient::Limits {
        max_states: common.max_positions,
        max_memory: common.max_memory.saturating_mul(1 << 20),
        cancel: Some(&crate::progress::CANCEL),
    };
    let q = quotient::quotient(&code, n, &limits)
        .with_context(|| format!("no misère quotient of `{family}` up to heap {n}"))?;
    let p: Vec<String> = q.p_portion().iter().map(|&x| q.name(x)).collect();
    let heaps: Vec<String> = (0..=n)
        .map(|h| q.element(h).map(|x| q.name(x)))
        .collect::<Result<_, _>>()?;
    let (candidates, states) = q.work();
    if common.json {
        let order = q.order();
        let table: Vec<&[u32]> = q.table().chunks(order).collect();
        let relations: Vec<[String; 2]> = q.relations().into_iter().map(|(l, r)| [l, r]).collect();
        let value = serde_json::json!({
            "family": family,
            "play": "misère",
            "up_to": n,
            "order": order,
            "p_portion": p,
            "generators": q.generator_heaps(),
            "relations": relations,
            "presentation": q.presentation(),
            "heaps": heaps,
            "elements": (0..order as u32).map(|x| q.name(x)).collect::<Vec<_>>(),
            "table": table,
            "candidates": candidates,
            "states": states,
        });
        outln!("{value}");
        return Ok(0);
    }
    outln!(
        "{family} in misère play, heaps up to {n}: a quotient of order {}, {} of its elements P-positions",
        q.order(),
        p.len()
    );
    outln!("presentation: {}", q.presentation());
    let gens: Vec<String> = q
        .generator_heaps()
        .iter()
        .map(|&h| format!("{} = heap {h}", heaps[h]))
        .collect();
    outln!("generators: {}", gens.join(", "));
    outln!("P-portion: {}", p.join(", "));
    outln!("heaps → elements:");
    for (h, name) in heaps.iter().enumerate().skip(1) {
        outln!("  {h:>3}: {name}");
    }
    outln!(
        "(verified: {candidates} candidates tried, the last proved over {states} states of sums; a sum of heaps ≤ {n} is classified by multiplying its heaps' elements)"
    );
    Ok(0)
}
