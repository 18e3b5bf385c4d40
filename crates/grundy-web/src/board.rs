//! Boards for the page: a report's JSON with the position's picture
//! ([`grundy::games::Drawing::picture`]) and, on each move, the cell it is clicked at
//! ([`grundy::games::Drawing::move_cell`]); or, for a position that is not a grid, its figure
//! ([`grundy::games::Drawing::figure`]: a token on a graph, a cut polygon, coloured edges, pieces of cake) and on each move
//! the vertex or triangle it is clicked at ([`grundy::games::Drawing::move_part`]). A sum
//! `A + B` whose parts draw themselves gets each part's picture, side by side, and on each
//! move the part it changes and its cell there. The page draws the grid or the figure and
//! colours each move's place by the move's value; it knows no game. Below the handlers,
//! like `input`.

use grundy::game::ByPlayer;
use grundy::games::{Figure, Part, Spec};
use grundy::report::{Move, Report};
use serde_json::{json, Value};

/// `report` (of the position `spec`) as JSON, with `"family"` (the registry's name of a
/// one-part position's family), `"picture": {rows, columns, cells,
/// look, won?}` when the position is one board that draws itself, and `"cell": [row, column]`
/// on each move that has a cell in it (and `"end": [row, column]` where it ends elsewhere:
/// a Quixo cube pushed back in; `"claims": [[row, column], …]` and `"claimed_by": "first" |
/// "second"` where it takes cells for its mover: dots and boxes' boxes). A sum of parts
/// some of which draw themselves
/// gets `"boards": [{"spec", "figure"? | "picture"?}]`, a part each drawn as it is alone,
/// and `"board": k, "cell"` on each move clicked in part k's picture (`"board": k, "part",
/// "parts"?` in its figure).
///
/// A figure comes as `"figure": {"kind": "graph" | "polygon" | "edges" | "cake", …}` with
/// `"part": k` on each move (the vertex, triangle, edge or score line clicked) and
/// `"parts": [k, …]` where several make the same move, when it has at most `max_drawn`
/// vertices, edges or score lines (and a graph at most `8 · max_drawn` arrows); a larger
/// one is left out, and `"not_drawn"` says why.
pub fn report_json(spec: &Spec, report: &Report, max_drawn: usize) -> Value {
    report_taken_json(spec, report, max_drawn, None)
}

/// [`report_json`] of a position in a game in progress, where the players have taken
/// `taken` points so far: the picture shows them where the board keeps them
/// ([`grundy::games::Drawing::picture_taken`]: Kalah's stores).
pub fn report_taken_json(
    spec: &Spec,
    report: &Report,
    max_drawn: usize,
    taken: Option<ByPlayer<i64>>,
) -> Value {
    let mut value = serde_json::to_value(report).expect("a report serializes");
    if let Some(family) = registry_family(spec) {
        value["family"] = json!(family);
    }
    if let Some((part, figure)) = figure(spec, max_drawn) {
        match figure {
            Ok(figure) => {
                if let Some(moves) = value["moves"].as_array_mut() {
                    for (m, v) in report.moves.iter().zip(moves) {
                        if let Some(k) = figure_part(part, m) {
                            v["part"] = json!(k);
                        }
                        let parts = figure_parts(part, m);
                        if parts.len() > 1 {
                            v["parts"] = json!(parts);
                        }
                    }
                }
                value["figure"] = serde_json::to_value(figure).expect("a figure serializes");
            }
            Err(why) => value["not_drawn"] = json!(why),
        }
        return value;
    }
    if spec.parts.len() > 1 {
        if let Some(boards) = boards(spec, max_drawn) {
            if let Some(moves) = value["moves"].as_array_mut() {
                for (m, v) in report.moves.iter().zip(moves) {
                    let Some(k) = changed_part(spec, m) else {
                        continue;
                    };
                    if boards[k].get("figure").is_some() {
                        let part = &spec.parts[k];
                        let to = &m.to.parts[k].position;
                        let parts = part.family.move_parts(&part.position, to);
                        if let Some(&first) = parts.first() {
                            v["board"] = json!(k);
                            v["part"] = json!(first);
                            if parts.len() > 1 {
                                v["parts"] = json!(parts);
                            }
                        }
                    } else if let Some((k, cell)) = sum_cell(spec, m) {
                        v["board"] = json!(k);
                        v["cell"] = cell;
                    }
                }
            }
            value["boards"] = Value::Array(boards);
        }
        return value;
    }
    let Some((part, picture)) = picture(spec) else {
        return value;
    };
    let picture = match taken {
        Some(taken) => part
            .family
            .picture_taken(&part.position, taken)
            .unwrap_or(picture),
        None => picture,
    };
    if let Some(moves) = value["moves"].as_array_mut() {
        for (m, v) in report.moves.iter().zip(moves) {
            if let Some(cell) = cell(part, &picture, m) {
                v["cell"] = cell;
            }
            if let Some(end) = end(part, &picture, m) {
                v["end"] = end;
            }
            if let Some(to) = m.to.single() {
                let claims = part.family.claimed_cells(&part.position, &to.position);
                if !claims.is_empty() {
                    v["claims"] = json!(claims.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>());
                    v["claimed_by"] = json!(player_name(part.family.to_move(&part.position)));
                }
            }
        }
    }
    value["picture"] = picture_json(part, picture);
    value
}

/// The registry's name of the family of a one-part position (`octal` for
/// `octal[0.77](12)`), for the page's options panel.
fn registry_family(spec: &Spec) -> Option<&'static str> {
    let name = spec.single()?.family_name();
    let head = name.split('[').next().unwrap_or(&name);
    grundy::games::registry::find(head).map(|e| e.name)
}

/// A player as the page names one: `first` (the player who moves first) or `second`.
fn player_name(player: grundy::game::Player) -> &'static str {
    match player {
        grundy::game::Player::First => "first",
        grundy::game::Player::Second => "second",
    }
}

/// A picture as JSON, with `"won": [[row, column], …]`, the cells of the line that ended
/// the game, when one did ([`grundy::games::Drawing::winning_cells`]).
fn picture_json(part: &Part, picture: grundy::games::Picture) -> Value {
    let mut value = serde_json::to_value(picture).expect("a picture serializes");
    let won = part.family.winning_cells(&part.position);
    if !won.is_empty() {
        value["won"] = json!(won.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>());
    }
    value
}

/// The figure of a one-part position, if its family draws one: `Err` with why when it
/// has more than `max_drawn` vertices (or a graph more than `8 · max_drawn` arrows).
fn figure(spec: &Spec, max_drawn: usize) -> Option<(&Part, Result<Figure, String>)> {
    let part = spec.single()?;
    let figure = part.family.figure(&part.position)?;
    let (count, noun, arrows) = match &figure {
        Figure::Graph { names, arrows, .. } => (names.len(), "vertices", arrows.len()),
        Figure::Polygon { vertices, .. } => (*vertices as usize, "vertices", 0),
        Figure::Edges { edges, .. } => (edges.len(), "edges", 0),
        Figure::Cake { .. } => (figure.parts(), "score lines", 0),
    };
    if count > max_drawn || arrows > 8 * max_drawn {
        let arrows = if arrows > 0 {
            format!(" and {arrows} arrows")
        } else {
            String::new()
        };
        return Some((
            part,
            Err(format!(
                "{count} {noun}{arrows}: too many to draw here (at most {max_drawn})"
            )),
        ));
    }
    Some((part, Ok(figure)))
}

/// The figure of `spec` alone, for a position not solved: `{"figure"}` or `{"not_drawn"}`
/// (empty when the family draws none).
pub fn figure_json(spec: &Spec, max_drawn: usize) -> Value {
    match figure(spec, max_drawn) {
        None => json!({}),
        Some((_, Ok(f))) => json!({"figure": f}),
        Some((_, Err(why))) => json!({"not_drawn": why}),
    }
}

/// The drawing of `spec` alone, with no moves, as its report draws it (a figure first):
/// `{"figure"}`, `{"not_drawn"}`, `{"picture"}`, or empty when its family draws none (the
/// gallery's pictures).
pub fn drawing_json(spec: &Spec, max_drawn: usize) -> Value {
    match (figure_json(spec, max_drawn), picture(spec)) {
        (figure, _) if figure.as_object().is_some_and(|f| !f.is_empty()) => figure,
        (_, Some((part, p))) => json!({"picture": picture_json(part, p)}),
        (nothing, None) => nothing,
    }
}

/// The board of a one-part position, if its family draws one.
fn picture(spec: &Spec) -> Option<(&Part, grundy::games::Picture)> {
    let part = spec.single()?;
    let picture = part.family.picture(&part.position)?;
    Some((part, picture))
}

/// Where move `m` from `part` is clicked, as `[row, column]`: a cell of `picture`, or
/// `None` (a move with no cell, or one the picture does not contain).
fn cell(part: &Part, picture: &grundy::games::Picture, m: &Move) -> Option<Value> {
    let to = m.to.single()?;
    let (row, column) = part.family.move_cell(&part.position, &to.position)?;
    (row < picture.rows && column < picture.columns).then(|| json!([row, column]))
}

/// Where move `m` from `part` ends when that is not the cell it is clicked at (a Quixo
/// cube pushed back in), as `[row, column]` of `picture`.
fn end(part: &Part, picture: &grundy::games::Picture, m: &Move) -> Option<Value> {
    let to = m.to.single()?;
    let (row, column) = part.family.move_end(&part.position, &to.position)?;
    (row < picture.rows && column < picture.columns).then(|| json!([row, column]))
}

/// The parts of a sum, side by side: `[{"spec", "figure"? | "picture"?}]`, a part drawn
/// as it is alone (its figure where it has one of at most `max_drawn` elements, else its
/// picture); `None` when no part is drawn.
fn boards(spec: &Spec, max_drawn: usize) -> Option<Vec<Value>> {
    let mut drawn = false;
    let boards = spec
        .parts
        .iter()
        .map(|part| {
            let mut board = json!({"spec": part.to_string()});
            let alone = Spec {
                parts: vec![part.clone()],
            };
            if let Some((_, Ok(f))) = figure(&alone, max_drawn) {
                board["figure"] = serde_json::to_value(f).expect("a figure serializes");
                drawn = true;
            } else if let Some(p) = part.family.picture(&part.position) {
                board["picture"] = picture_json(part, p);
                drawn = true;
            }
            board
        })
        .collect();
    drawn.then_some(boards)
}

/// The part of the sum `spec` that move `m` changes: in a sum with partizan parts the turn
/// passes in every part, so a part whose board is the same with the other player to move
/// ([`grundy::games::GameRules::with_mover`]) is not the one moved in.
fn changed_part(spec: &Spec, m: &Move) -> Option<usize> {
    let to = &m.to.parts;
    if to.len() != spec.parts.len() {
        return None;
    }
    spec.parts.iter().zip(to).position(|(a, b)| {
        let passed = a
            .family
            .with_mover(&a.position, b.family.to_move(&b.position));
        a.position != b.position && passed.as_ref() != Some(&b.position)
    })
}

/// The part of the sum `spec` that move `m` changes, and the cell of its picture the move
/// is clicked at.
fn sum_cell(spec: &Spec, m: &Move) -> Option<(usize, Value)> {
    let to = &m.to.parts;
    let k = changed_part(spec, m)?;
    let part = &spec.parts[k];
    let picture = part.family.picture(&part.position)?;
    let (row, column) = part.family.move_cell(&part.position, &to[k].position)?;
    (row < picture.rows && column < picture.columns).then(|| (k, json!([row, column])))
}

/// The cell of the move `m` from `spec`, for the record of a move played: `(cell, the
/// part of a sum it is in)`.
pub fn move_cell(spec: &Spec, m: &Move) -> Option<(Value, Option<usize>)> {
    if spec.parts.len() > 1 {
        return sum_cell(spec, m).map(|(k, cell)| (cell, Some(k)));
    }
    let (part, picture) = picture(spec)?;
    cell(part, &picture, m).map(|cell| (cell, None))
}

/// The cells of the picture of `spec` (one part) that move `m` claims for its mover (the
/// boxes a line completes), as `[[row, column], …]`; `None` when it claims none.
pub fn move_claims(spec: &Spec, m: &Move) -> Option<Value> {
    let part = spec.single()?;
    let to = m.to.single()?;
    let cells = part.family.claimed_cells(&part.position, &to.position);
    (!cells.is_empty()).then(|| json!(cells.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>()))
}

/// The vertex or triangle of the figure of `part` that move `m` is clicked at.
fn figure_part(part: &Part, m: &Move) -> Option<u32> {
    let to = m.to.single()?;
    part.family.move_part(&part.position, &to.position)
}

/// Every element of the figure of `part` at which move `m` may be clicked (two equal
/// stalks, a cut from either side of a piece), the first its `part`.
fn figure_parts(part: &Part, m: &Move) -> Vec<u32> {
    m.to.single()
        .map(|to| part.family.move_parts(&part.position, &to.position))
        .unwrap_or_default()
}

/// The element of the figure of `spec` the move `m` is clicked at, for the record of a
/// move played.
pub fn move_part(spec: &Spec, m: &Move) -> Option<Value> {
    figure_part(spec.single()?, m).map(|k| json!(k))
}
