//! Boards for the page: a report's JSON with the position's picture
//! ([`grundy::games::Family::picture`]) and, on each move, the cell it is clicked at
//! ([`grundy::games::Family::move_cell`]). The page draws the grid and colours each move's
//! cell by the move's value; it knows no game. Below the handlers, like `input`.

use grundy::games::{Part, Spec};
use grundy::report::{Move, Report};
use serde_json::{json, Value};

/// `report` (of the position `spec`) as JSON, with `"picture": {rows, columns, cells,
/// skew}` when the position is one board that draws itself, and `"cell": [row, column]`
/// on each move that has a cell in it.
pub fn report_json(spec: &Spec, report: &Report) -> Value {
    let mut value = serde_json::to_value(report).expect("a report serializes");
    let Some((part, picture)) = picture(spec) else {
        return value;
    };
    if let Some(moves) = value["moves"].as_array_mut() {
        for (m, v) in report.moves.iter().zip(moves) {
            if let Some(cell) = cell(part, &picture, m) {
                v["cell"] = cell;
            }
        }
    }
    value["picture"] = serde_json::to_value(picture).expect("a picture serializes");
    value
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

/// The cell of the move `m` from `spec`, for the record of a move played.
pub fn move_cell(spec: &Spec, m: &Move) -> Option<Value> {
    let (part, picture) = picture(spec)?;
    cell(part, &picture, m)
}
