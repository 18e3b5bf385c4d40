//! Text and JSON renderings of the library's reports. No game logic here.

use std::fmt::Write as _;

use grundy::games::Spec;
use grundy::number::count;
use grundy::report::{self, Limits, Method, Report, Table};
use serde_json::{json, Value as Json};

/// An error and its causes, `: `-joined as `{:#}` would, but without a cause whose text the
/// message already holds (errors that print their source and also return it as their
/// `source()` would otherwise say it twice: "Is a directory (os error 21): Is a directory
/// (os error 21)"). Control characters other than line breaks (from a file name, say) are
/// escaped, so that no message writes raw binary to the terminal.
pub fn error_chain(e: &anyhow::Error) -> String {
    // A long input is echoed cut.
    grundy::games::cut_echoes(&grundy_io::error_chain(e.as_ref()))
}

/// A spec that did not parse, shown as every front end shows it ([`grundy::games::SpecError::render`])
/// and kept whole for `--json`'s line and column.
#[derive(Debug)]
pub struct BadSpec {
    /// The message with the caret under the column.
    pub rendered: String,
    /// 1-based line and column.
    pub at: (usize, usize),
}

impl BadSpec {
    /// The error of `text`, which did not parse.
    pub fn new(e: &grundy::games::SpecError, text: &str) -> BadSpec {
        BadSpec {
            rendered: e.render(text),
            at: (e.line, e.column),
        }
    }
}

impl std::fmt::Display for BadSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rendered)
    }
}

impl std::error::Error for BadSpec {}

/// An error with a hint after it (the flag that lifts a limit): shown as `error; hint`,
/// and of the error's kind under `--json`.
#[derive(Debug)]
pub struct Hinted {
    /// The error.
    pub error: anyhow::Error,
    /// What would lift it.
    pub hint: String,
}

impl std::fmt::Display for Hinted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; {}", error_chain(&self.error), self.hint)
    }
}

impl std::error::Error for Hinted {}

/// The flag that lifts `limit`, and the value it would need (`wanted`, in the limit's
/// unit; memories in MiB, rounded up), as the hint after a refusal says it.
pub fn limit_hint(limit: grundy::Limit, wanted: Option<u128>) -> String {
    limit.hint(wanted, grundy::Spelling::Flag)
}

/// `e` with the hint of the limit it is past, if a cause is a library refusal past a
/// limit a flag sets ([`grundy::Error::limit`]) and it has no hint yet.
pub fn with_limit_hint(e: anyhow::Error) -> anyhow::Error {
    if e.chain().any(|c| c.downcast_ref::<Hinted>().is_some()) {
        return e;
    }
    let limit = e.chain().find_map(|c| {
        c.downcast_ref::<grundy::Error>()
            .and_then(grundy::Error::limit)
    });
    match limit {
        Some((limit, wanted)) => anyhow::Error::new(Hinted {
            error: e,
            hint: limit_hint(limit, wanted),
        }),
        None => e,
    }
}

/// An error as `--json` prints it on standard error: `{"error": the message, "kind": a
/// stable word}`, with `line` and `column` for a spec, `need_bytes` for a limit, and for a
/// refusal past a limit a flag sets, `limit` ([`grundy::Limit::word`]), `wanted` (the
/// value that would let it through, where known) and `hint` (the flag). The
/// kinds: `bad-spec`, those of [`grundy::Error::kind`] (`too-large`, `cancelled`,
/// `unsupported`, `store`), `store` for a tablebase, `io` for the system, else `refused`.
pub fn error_json(e: &anyhow::Error) -> Json {
    let mut out = serde_json::json!({"error": error_chain(e), "kind": "refused"});
    for cause in e.chain() {
        if let Some(h) = cause.downcast_ref::<Hinted>() {
            let mut inner = error_json(&h.error);
            inner["error"] = error_chain(e).into();
            inner["hint"] = h.hint.clone().into();
            return inner;
        }
        if let Some(bad) = cause.downcast_ref::<BadSpec>() {
            out["kind"] = "bad-spec".into();
            out["line"] = bad.at.0.into();
            out["column"] = bad.at.1.into();
            break;
        }
        if let Some(g) = cause.downcast_ref::<grundy::Error>() {
            out["kind"] = g.kind().into();
            if let Some(n) = g.need() {
                out["need_bytes"] = n.into();
            }
            if let Some((limit, wanted)) = g.limit() {
                out["limit"] = limit.word().into();
                if let Some(w) = wanted {
                    out["wanted"] = u64::try_from(w).unwrap_or(u64::MAX).into();
                }
            }
            break;
        }
        // A solve refused in a tablebase is the solver's refusal: its cause says which.
        let solving = matches!(
            cause.downcast_ref::<grundy_tablebase::OpenError>(),
            Some(grundy_tablebase::OpenError::Solve { .. })
        );
        if !solving
            && (cause.downcast_ref::<grundy_tablebase::Error>().is_some()
                || cause
                    .downcast_ref::<grundy_tablebase::OpenError>()
                    .is_some())
        {
            out["kind"] = "store".into();
            break;
        }
        if cause.downcast_ref::<std::io::Error>().is_some() {
            out["kind"] = "io".into();
            break;
        }
    }
    out
}

/// The stable JSON of `grundy solve --json`: the library's serialization.
pub fn report_json(r: &Report) -> Json {
    serde_json::to_value(r).expect("a report serializes")
}

/// The text of `grundy solve`.
pub fn report_text(r: &Report) -> String {
    let mut s = String::new();
    let outcome = match r.outcome {
        grundy::game::Outcome::Win => "the player to move wins",
        grundy::game::Outcome::Loss => "the player to move loses",
        grundy::game::Outcome::Draw => "a draw",
    };
    let _ = write!(s, "{}: {outcome}", r.spec);
    if !r.play.is_normal() {
        let _ = write!(s, " in {} play", r.play.as_str());
    }
    match r.remoteness {
        Some(rem) if r.scores.is_none() => {
            let _ = write!(
                s,
                " ({} under perfect play)",
                count(rem.into(), "more move", "more moves")
            );
        }
        _ => {}
    }
    s.push('\n');
    if let Some([me, other]) = r.scores {
        let _ = writeln!(
            s,
            "scores: {me} for the player to move, {other} for the other"
        );
    }
    if let Some(g) = r.grundy {
        if r.components.is_empty() {
            let _ = writeln!(s, "Grundy value: {g}");
        } else {
            let parts: Vec<String> = r.components.iter().map(|c| c.grundy.to_string()).collect();
            let _ = writeln!(s, "Grundy value: {g} = {}", parts.join(" xor "));
            for c in &r.components {
                let _ = writeln!(s, "  {:<30} {}", c.spec, c.grundy);
            }
        }
    }
    if r.winning_moves.is_empty() {
        if r.moves.is_empty() {
            s.push_str("no move: the game is over\n");
        } else {
            s.push_str("no winning move\n");
        }
    } else {
        let label = if r.scores.is_some() {
            "best moves"
        } else {
            "winning moves"
        };
        let _ = writeln!(s, "{label} ({}), to:", r.winning_moves.len());
        if r.winning_moves_truncated {
            s.push_str("  (splits of a huge heap: one of each kind listed, their smaller part within the pre-period and two periods)\n");
        }
        // Two moves to one position (either end of a row of equal numbers) are one line.
        let mut listed: Vec<(&str, usize)> = Vec::new();
        for m in &r.winning_moves {
            match listed.iter_mut().find(|(p, _)| *p == m.as_str()) {
                Some((_, n)) => *n += 1,
                None => listed.push((m.as_str(), 1)),
            }
        }
        for (m, n) in listed {
            if n > 1 {
                let _ = writeln!(s, "  {m}  ({n} moves lead here)");
            } else {
                let _ = writeln!(s, "  {m}");
            }
        }
    }
    if matches!(
        r.method,
        Method::Tablebase | Method::Search | Method::Values
    ) && !r.moves.is_empty()
    {
        // A tablebase answers every move at once, and the proof search and the parts'
        // values value each move: list them with their values.
        s.push_str("every move, for the player who makes it:\n");
        for m in &r.moves {
            if let (Some([me, other]), Some(worse)) = (m.scores, m.worse_by) {
                let quality = if worse == 0 {
                    "best".to_string()
                } else {
                    format!("worse than the best by {worse}")
                };
                let _ = writeln!(s, "  {:<12} {quality}: {me} to {other} from here", m.name);
                continue;
            }
            let value = match (m.outcome, m.remoteness) {
                (grundy::game::Outcome::Win, Some(n)) => format!(
                    "wins, {}",
                    count(n.into(), "move to the end", "moves to the end")
                ),
                (grundy::game::Outcome::Loss, Some(n)) => format!(
                    "loses, {}",
                    count(n.into(), "move to the end", "moves to the end")
                ),
                (grundy::game::Outcome::Draw, _) => "draws".to_string(),
                (o, None) => o.as_str().to_string(),
            };
            let _ = writeln!(s, "  {:<12} {value}", m.name);
        }
    }
    match (r.method, r.positions) {
        (Method::Rule, _) => {
            let _ = writeln!(
                s,
                "(by a proved rule, too large to explore: {})",
                r.rule.as_deref().unwrap_or("")
            );
        }
        (Method::SpragueGrundy, _) => s.push_str(
            "(judged by Sprague–Grundy values: too large to explore whole, so no remoteness)\n",
        ),
        (Method::Values, _) => s.push_str(
            "(judged by the parts' combinatorial game values (`grundy value`), so no remoteness)\n",
        ),
        (Method::Search, _) if r.weak => {
            let _ = writeln!(
                s,
                "(a weak solution by search over {}: too large to explore whole, so the value of this position and of each move, without remoteness)",
                count(r.nodes.unwrap_or(0).into(), "node", "nodes")
            );
        }
        (Method::Search, _) => {
            let _ = writeln!(
                s,
                "(exact search over {}: too large to explore whole, so the value of this position and of each move, with remoteness)",
                count(r.nodes.unwrap_or(0).into(), "node", "nodes")
            );
        }
        (method, Some(p)) => {
            let _ = writeln!(
                s,
                "({} over {}{})",
                method.as_str(),
                count(p.into(), "position", "positions"),
                if r.up_to_symmetry {
                    " up to symmetry"
                } else {
                    ""
                }
            );
        }
        _ => {}
    }
    s
}

/// The stable JSON of `grundy table --json`: the library's serialization.
pub fn table_json(t: &Table) -> Json {
    serde_json::to_value(t).expect("a table serializes")
}

/// The text of `grundy table`: the losing positions, and the values in rows.
pub fn table_text(t: &Table) -> String {
    let mut s = String::new();
    let n = t.outcome.len().saturating_sub(1);
    let losing = t.losing();
    let _ = writeln!(
        s,
        "{} for heap sizes 0..={n}: {} losing (P-) positions",
        t.family,
        losing.len()
    );
    let shown: Vec<String> = losing.iter().take(200).map(ToString::to_string).collect();
    let more = if losing.len() > 200 { ", …" } else { "" };
    let _ = writeln!(s, "P-positions: {}{more}", shown.join(", "));
    if n <= 1000 {
        s.push_str("Grundy values, 12 to a row:\n");
        for (row, chunk) in t.grundy.chunks(12).enumerate() {
            let values: Vec<String> = chunk.iter().map(|g| format!("{g:>3}")).collect();
            let _ = writeln!(s, "{:>6}: {}", row * 12, values.join(""));
        }
    } else {
        s.push_str("(values: use --json)\n");
    }
    s
}

fn solve_text(text: &str, limits: &Limits<'_>) -> anyhow::Result<Report> {
    let spec: Spec = text.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(report::solve(&spec, limits)?)
}

fn list(values: impl IntoIterator<Item = u64>) -> String {
    values
        .into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The built-in example: the lecture notes' results at a glance, computed now.
pub fn tour(limits: &Limits<'_>) -> anyhow::Result<(String, Json)> {
    let mut s = String::new();
    let table =
        |family: &str, n: u64| report::table(family, n, limits).map_err(|e| anyhow::anyhow!("{e}"));

    let fib = table("multiple[2]", 100)?;
    let fib_losing: Vec<u64> = fib.losing().into_iter().filter(|&n| n > 0).collect();
    let mut fibonacci = vec![1u64, 2];
    while fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2] <= 100 {
        fibonacci.push(fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2]);
    }
    let _ = writeln!(
        s,
        "Seed 000, take-away game (take 1..2×last; first move anything but all):\n  losing starts n ≤ 100: {}\n  — {}.",
        list(fib_losing.iter().copied()),
        if fib_losing == fibonacci {
            "exactly the Fibonacci numbers"
        } else {
            "NOT the Fibonacci numbers: something is wrong"
        }
    );
    let triple = table("multiple[3]", 100)?;
    let _ = writeln!(
        s,
        "  the same with 1..3×last: {}",
        list(triple.losing().into_iter().filter(|&n| n > 0))
    );
    let four = solve_text("multiple[2](4)", limits)?;
    let _ = writeln!(
        s,
        "  state (4,3) is a {}: the winning move leaves {}.\n",
        four.outcome,
        four.winning_moves.join(", ")
    );

    let a = solve_text("nim(3,3,1)", limits)?;
    let b = solve_text("nim(3,3)", limits)?;
    let bounded = table("bounded-nim[3]", 12)?;
    let _ = writeln!(
        s,
        "Seed 003, Nim: nim(3,3,1) is a {} (Grundy {}; winning moves to {}); nim(3,3) is a {} (two equal heaps cancel).\n  bounded-nim[3], heaps 0..12: Grundy {} ({} h mod 4).\n",
        a.outcome,
        a.grundy.unwrap_or(0),
        a.winning_moves.join(", "),
        b.outcome,
        list(bounded.grundy.iter().copied()),
        if (0..).zip(&bounded.grundy).all(|(h, &g)| g == h % 4) {
            "="
        } else {
            "≠"
        },
    );

    let sum = solve_text("nim(3) + octal[0.77](12) + multiple[2](10)", limits)?;
    let _ = writeln!(
        s,
        "Sums: {} — Grundy {} = {}; the player to move {}s: {}.\n",
        sum.spec,
        sum.grundy.unwrap_or(0),
        sum.components
            .iter()
            .map(|c| format!("{} ({})", c.spec, c.grundy))
            .collect::<Vec<_>>()
            .join(" xor "),
        sum.outcome,
        sum.winning_moves
            .first()
            .map_or("no move".to_string(), |m| format!("move to {m}")),
    );

    let kayles = table("octal[0.77]", 35)?;
    let _ = writeln!(
        s,
        "Kayles (octal 0.77), heaps 0..35: {}",
        list(kayles.grundy.iter().copied())
    );
    let period = grundy::pattern::discover("octal[0.77]", 1 << 20, &limits.control)?;
    let _ = writeln!(
        s,
        "  the special method: {}{}.\n",
        period.rule,
        if period.proved {
            " — proved (Guy–Smith)"
        } else {
            " — not proved"
        }
    );

    let ends = solve_text("ends(4,7,2,9,5,2)", limits)?;
    let [me, other] = ends.scores.unwrap_or([0, 0]);
    let _ = writeln!(
        s,
        "IOI 1996 \"A Game\", ends(4,7,2,9,5,2): {me} {other} (first player, second player)."
    );

    let json = json!({
        "fibonacci_nim_losing": fib.losing().into_iter().filter(|&n| n > 0).collect::<Vec<_>>(),
        "multiple3_losing": triple.losing().into_iter().filter(|&n| n > 0).collect::<Vec<_>>(),
        "nim_3_3_1": report_json(&a),
        "nim_3_3": report_json(&b),
        "bounded_nim_3": table_json(&bounded),
        "sum": report_json(&sum),
        "kayles": table_json(&kayles),
        "ends": report_json(&ends),
    });
    Ok((s, json))
}

/// The text of `grundy pattern`.
pub fn pattern_text(p: &grundy::pattern::Pattern) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}: {}", p.family, p.kind);
    let _ = writeln!(s, "rule: {}", p.rule);
    if let (Some(period), Some(pre)) = (p.period, p.preperiod) {
        let _ = writeln!(
            s,
            "period {period} from heap {pre}{}",
            p.saltus
                .filter(|&x| x > 0)
                .map_or(String::new(), |x| format!(", saltus {x}"))
        );
    }
    let (shown, listed): (Vec<String>, usize) = if p.p_pairs.is_empty() {
        let shown = p.p_positions.iter().take(30).map(ToString::to_string);
        (shown.collect(), p.p_positions.len())
    } else {
        let shown = p
            .p_pairs
            .iter()
            .take(30)
            .map(|[a, b]| format!("({a}, {b})"));
        (shown.collect(), p.p_pairs.len())
    };
    if !shown.is_empty() {
        let more = if listed > shown.len() { ", …" } else { "" };
        let _ = writeln!(s, "losing positions: {}{more}", shown.join(", "));
    }
    match (&p.theorem, p.proved) {
        (Some(t), true) => {
            let _ = writeln!(
                s,
                "proved: {t}; checked against the general method up to {}",
                p.checked_up_to
            );
        }
        _ => {
            let _ = writeln!(
                s,
                "not proved; checked against the general method up to {}",
                p.checked_up_to
            );
        }
    }
    s
}

/// A family argument's table refused: a bad spec shown as the CLI shows one.
pub fn table_error(family: &str, e: report::TableError) -> anyhow::Error {
    match e {
        report::TableError::Spec(e) => anyhow::Error::new(BadSpec::new(&e, family)),
        // Kept as a cause: `--json` reads its kind and a limit's hint names its flag.
        report::TableError::Solve(e) => {
            anyhow::Error::new(e).context(format!("cannot tabulate `{family}`"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_not_repeated() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = grundy_io::ReadError::Io {
            path: "x".into(),
            source: io,
        };
        // `{:#}` says "gone" twice: the ReadError's text holds its source's.
        let e = anyhow::Error::new(e).context("cannot load");
        assert_eq!(format!("{e:#}"), "cannot load: cannot read x: gone: gone");
        assert_eq!(error_chain(&e), "cannot load: cannot read x: gone");
        let plain = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_chain(&plain), "outer: inner");
        let raw = anyhow::anyhow!("cannot read a\u{1b}[2Jb\0:\nnext line");
        assert_eq!(
            error_chain(&raw),
            "cannot read a\\u{1b}[2Jb\\u{0}:\nnext line"
        );
    }
}
