//! Canonical forms as CGSuite writes them: numbers (`0`, `-2`, `3/4`), nimbers (`*`,
//! `*2`), numbers plus ups and a nimber (`^`, `v`, `^^*`, `1v3`, `1/2*`), the switches
//! `±x`, and otherwise `{L|R}`; a general form that is the only option on its side
//! drops its braces and the bars are counted (`{2||1|0}` is `{2 | {1|0}}`), one among
//! others keeps them (`{0,{2|0}|-2}`). The ASCII spelling writes `+-` for `±`.

use super::number::Dyadic;
use super::value::{GameId, Table};

/// How `±` is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spelling {
    /// `±1` (CGSuite's own).
    #[default]
    Unicode,
    /// `+-1`, for terminals and files that keep to ASCII.
    Ascii,
}

/// The ups and nimber tried when recognising `x + n·^ + *m`: up to `MAX_UPS` ups or
/// downs, with nimbers below `MAX_NIMBER` (`x + *m` alone is recognised for every `m`).
/// Larger ones print as `{L|R}`, which is still right.
const MAX_UPS: i32 = 8;
const MAX_NIMBER: u32 = 8;

/// `g` as CGSuite writes it.
///
/// # Complexity
/// Recognising ups costs up to `MAX_UPS · MAX_NIMBER` sums of small games, memoised in
/// the table; each option of a general form is written the same way.
pub fn write(table: &mut Table, g: GameId, spelling: Spelling) -> String {
    let (text, bars) = piece(table, g, spelling);
    if bars > 0 {
        format!("{{{text}}}")
    } else {
        text
    }
}

/// `g` written, with the bars of its outer `{…}` if it is a general form (0 otherwise);
/// a general form's text is without its braces.
fn piece(table: &mut Table, g: GameId, spelling: Spelling) -> (String, usize) {
    if let Some(short) = short_form(table, g, spelling) {
        return (short, 0);
    }
    let mut bars = 1;
    let mut sides = [String::new(), String::new()];
    for (side, text) in sides.iter_mut().enumerate() {
        let options: Vec<GameId> = if side == 0 {
            table.left(g).to_vec()
        } else {
            table.right(g).to_vec()
        };
        let mut parts = Vec::new();
        let alone = options.len() == 1;
        for o in options {
            let (t, b) = piece(table, o, spelling);
            if b > 0 && !alone {
                // Among other options a general form keeps its braces (bars alone would
                // not say where it ends).
                parts.push(format!("{{{t}}}"));
            } else {
                bars = bars.max(b + 1);
                parts.push(t);
            }
        }
        *text = parts.join(",");
    }
    let [left, right] = sides;
    (format!("{left}{}{right}", "|".repeat(bars)), bars)
}

/// A number, `x + n·^ + *m`, or `±x`: the forms that need no braces.
fn short_form(table: &mut Table, g: GameId, spelling: Spelling) -> Option<String> {
    if let Some(x) = table.number_of(g) {
        return Some(x.to_string());
    }
    if let Some(n) = table.nimber_of(g) {
        return Some(star(n));
    }
    if let Some(text) = uptimal(table, g) {
        return Some(text);
    }
    // ±x: {x | −x} with x a positive number.
    if let ([l], [r]) = (table.left(g), table.right(g)) {
        if let (Some(a), Some(b)) = (table.number_of(*l), table.number_of(*r)) {
            if a > Dyadic::ZERO && b == a.negate() {
                let pm = match spelling {
                    Spelling::Unicode => "±",
                    Spelling::Ascii => "+-",
                };
                return Some(format!("{pm}{a}"));
            }
        }
    }
    None
}

fn star(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "*".into(),
        _ => format!("*{n}"),
    }
}

/// `x + n·^ + *m` (for small n and m) as `x^^*m`: `^`, `^^`, `^3`, `v`, `vv`, `v3`.
fn uptimal(table: &mut Table, g: GameId) -> Option<String> {
    let x = table.left_stop(g);
    if table.right_stop(g) != x {
        return None;
    }
    let minus_x = table.number(x.negate());
    let rest = table.sum(g, minus_x).ok()?;
    let up = table.up();
    // `x + *m` for any `m`, at once; with ups, the nimbers up to `MAX_NIMBER`.
    let nimbers = match table.nimber_of(rest) {
        Some(m) => m..m + 1,
        None => 0..MAX_NIMBER,
    };
    for m in nimbers {
        let nim = table.nimber(m);
        let minus_nim = nim; // *m is its own negative
        let ups = table.sum(rest, minus_nim).ok()?;
        let mut multiple = table.zero();
        for n in 0..=MAX_UPS {
            if n > 0 {
                multiple = table.sum(multiple, up).ok()?;
            }
            let down = table.neg(multiple);
            let found = if ups == multiple {
                Some(n)
            } else if ups == down {
                Some(-n)
            } else {
                None
            };
            if let Some(n) = found {
                let number = if x == Dyadic::ZERO && (n != 0 || m != 0) {
                    String::new()
                } else {
                    x.to_string()
                };
                let arrows = match n {
                    0 => String::new(),
                    1 => "^".into(),
                    2 => "^^".into(),
                    -1 => "v".into(),
                    -2 => "vv".into(),
                    n if n > 0 => format!("^{n}"),
                    n => format!("v{}", -n),
                };
                return Some(format!("{number}{arrows}{}", star(m)));
            }
        }
    }
    None
}
