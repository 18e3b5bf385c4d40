//! Boards through the API: a board's picture and each move's cell, the values on them
//! equal to the library's report, the value history of a game (one entry a move, as the
//! library's `Match` judges it), and answers from a tablebase equal to the search's.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use grundy::explore::Control;
use grundy::games::Spec;
use grundy::play::Match;
use grundy::report::{self, Limits};
use grundy::tier::{self, MemoryStore, Options};
use grundy_web::{router, Config, Tablebase};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use tower::ServiceExt as _;

/// The JSON of a request that must succeed, addressed to 127.0.0.1.
async fn send(app: &Router, mut request: Request<Body>) -> Value {
    request
        .headers_mut()
        .insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
    let response = app.clone().oneshot(request).await.expect("a response");
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    assert_eq!(status, StatusCode::OK, "{text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

async fn solve(app: &Router, spec: &str) -> Value {
    let uri = format!("/api/solve?spec={}", encode(spec));
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn play(app: &Router, body: Value) -> Value {
    let request = Request::post("/api/play")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, request).await
}

fn app() -> Router {
    router(Config::default())
}

fn cells(picture: &Value) -> Vec<String> {
    picture["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c.as_str().expect("a cell is text").to_string())
        .collect()
}

fn cell_of(m: &Value) -> (usize, usize) {
    let c = m["cell"]
        .as_array()
        .unwrap_or_else(|| panic!("no cell: {m}"));
    (
        c[0].as_u64().unwrap() as usize,
        c[1].as_u64().unwrap() as usize,
    )
}

/// Every move of a placing game (tic-tac-toe, connect four) has a cell, no two the same,
/// and the position it leads to is the picture with that one empty cell now holding the
/// mover's piece.
async fn moves_place_a_piece_at_their_cell(app: &Router, spec: &str, piece: &str) -> Value {
    let r = solve(app, spec).await;
    let picture = &r["picture"];
    let (rows, columns) = (
        picture["rows"].as_u64().unwrap() as usize,
        picture["columns"].as_u64().unwrap() as usize,
    );
    let before = cells(picture);
    assert_eq!(before.len(), rows * columns, "{picture}");
    let mut seen = std::collections::BTreeSet::new();
    for m in r["moves"].as_array().unwrap() {
        let (row, column) = cell_of(m);
        assert!(row < rows && column < columns, "{m}");
        assert!(seen.insert((row, column)), "two moves at one cell: {m}");
        let i = row * columns + column;
        assert_eq!(before[i], "", "{spec}: a move at a full cell: {m}");
        let after = cells(&solve(app, m["spec"].as_str().unwrap()).await["picture"]);
        let mut want = before.clone();
        want[i] = piece.to_string();
        assert_eq!(after, want, "{spec} → {}", m["spec"]);
    }
    r
}

/// The outcome and remoteness of each move, by spec.
fn values(moves: &Value) -> Vec<(String, Value, Value)> {
    moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["spec"].as_str().unwrap().to_string(),
                m["outcome"].clone(),
                m["remoteness"].clone(),
            )
        })
        .collect()
}

/// The same values from the library's own report.
fn library_values(spec: &str) -> Vec<(String, Value, Value)> {
    let spec: Spec = spec.parse().unwrap();
    let report = report::solve(&spec, &Limits::default()).unwrap();
    report
        .moves
        .iter()
        .map(|m| (m.spec.clone(), json!(m.outcome), json!(m.remoteness)))
        .collect()
}

#[tokio::test]
async fn tic_tac_toe_has_its_picture_and_a_cell_for_each_move() {
    let app = app();
    let r = moves_place_a_piece_at_their_cell(&app, "tictactoe", "X").await;
    assert_eq!(
        r["picture"],
        json!({"rows": 3, "columns": 3, "cells": ["", "", "", "", "", "", "", "", ""], "look": "marks"})
    );
    assert_eq!(r["moves"].as_array().unwrap().len(), 9);
    assert_eq!(values(&r["moves"]), library_values("tictactoe"));
    // Rows from the top, as written: X at the top left, O in the middle; O to move.
    let spec = "tictactoe(x../.o./..x)";
    let r = moves_place_a_piece_at_their_cell(&app, spec, "O").await;
    assert_eq!(
        cells(&r["picture"]),
        ["X", "", "", "", "O", "", "", "", "X"]
    );
    assert_eq!(values(&r["moves"]), library_values(spec));
    // O must take an edge: a corner loses to X's fork.
    let corner = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| cell_of(m) == (0, 2))
        .unwrap();
    assert_eq!(corner["outcome"], "loss", "{corner}");
    let edge = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| cell_of(m) == (0, 1))
        .unwrap();
    assert_eq!(edge["outcome"], "draw", "{edge}");
}

#[tokio::test]
async fn connect_four_moves_land_at_the_bottom_of_their_column() {
    let app = app();
    let r = moves_place_a_piece_at_their_cell(&app, "connect4[4x4]", "X").await;
    assert_eq!(r["picture"]["rows"], 4);
    assert_eq!(r["picture"]["columns"], 4);
    assert_eq!(r["picture"]["look"], "discs");
    let landed: Vec<_> = r["moves"].as_array().unwrap().iter().map(cell_of).collect();
    assert_eq!(landed, [(3, 0), (3, 1), (3, 2), (3, 3)], "the bottom row");
    assert_eq!(values(&r["moves"]), library_values("connect4[4x4]"));
    // Columns 2, 3, 2 played: O to move; a disc lands on top of what is there.
    let spec = "connect4[4x4](232)";
    let r = moves_place_a_piece_at_their_cell(&app, spec, "O").await;
    assert_eq!(
        cells(&r["picture"]),
        ["", "", "", "", "", "", "", "", "", "X", "", "", "", "X", "O", ""]
    );
    let landed: Vec<_> = r["moves"].as_array().unwrap().iter().map(cell_of).collect();
    assert_eq!(landed, [(3, 0), (1, 1), (2, 2), (3, 3)]);
    assert_eq!(values(&r["moves"]), library_values(spec));
    // Explore shows the same board.
    let uri = format!("/api/explore?spec={}", encode(spec));
    let explored = send(&app, Request::get(uri).body(Body::empty()).unwrap()).await;
    assert_eq!(explored["report"], r);
}

#[tokio::test]
async fn games_too_large_to_draw_have_no_picture() {
    let app = app();
    for spec in [
        "circular[0.77](65,3)",
        "nim(25,4)",
        "circular[0.77](65) + nim(25)",
    ] {
        let r = solve(&app, spec).await;
        assert!(r.get("picture").is_none(), "{spec}: {r}");
        assert!(r.get("boards").is_none(), "{spec}: {r}");
        for m in r["moves"].as_array().unwrap() {
            assert!(m.get("cell").is_none(), "{spec}: {m}");
        }
    }
    // A Game's row is drawn: a move takes the number at one end.
    let r = solve(&app, "ends(1,2,3)").await;
    assert_eq!(r["picture"]["cells"], json!(["1", "2", "3"]), "{r}");
    let cells: Vec<&Value> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["cell"])
        .collect();
    assert_eq!(cells, [&json!([0, 0]), &json!([0, 2])]);
}

#[tokio::test]
async fn the_line_that_ended_the_game_is_in_the_picture() {
    let app = app();
    let r = solve(&app, "tictactoe(xxx/oo./...)").await;
    assert_eq!(r["picture"]["won"], json!([[0, 0], [0, 1], [0, 2]]), "{r}");
    let r = solve(&app, "connect4[4x4](1212121)").await;
    assert_eq!(r["picture"]["won"], json!([[0, 0], [1, 0], [2, 0], [3, 0]]));
    // None while the game goes on; a game ended by the player's move says it in `next`.
    let r = solve(&app, "tictactoe(xx./oo./...)").await;
    assert!(r["picture"].get("won").is_none(), "{r}");
    let reply = play(
        &app,
        json!({"spec": "tictactoe(xx./oo./...)", "move": "c1"}),
    )
    .await;
    assert_eq!(reply["over"], true, "{reply}");
    let after = if reply["next"].is_null() {
        &reply["report"]
    } else {
        &reply["next"]
    };
    assert_eq!(
        after["picture"]["won"],
        json!([[0, 0], [0, 1], [0, 2]]),
        "{reply}"
    );
}

#[tokio::test]
async fn kalah_stores_hold_what_each_side_took_and_boxes_are_claimed_by_their_move() {
    let app = app();
    // Kalah: you are South and sow pit 2, its last seed in your store; then grundy is to
    // move as North. The stores show the match's totals: North's at the top left, South's
    // at the bottom right.
    let reply = play(&app, json!({"spec": "kalah[3,3]", "move": "pit 2"})).await;
    let report = &reply["report"];
    let stores = |r: &Value| {
        let cells = cells(&r["picture"]);
        [cells[0].clone(), cells[cells.len() - 1].clone()]
    };
    assert_eq!(stores(report), ["0", "1"], "{reply}");
    // The start, before anything is taken: both empty, as the page has them.
    assert_eq!(stores(&solve(&app, "kalah[3,3]").await), ["", ""]);
    // Dots and boxes to the end, the points taken carried from request to request as the
    // page does: every box claimed once, at its cell, by the move that closed it; each
    // side's boxes are what the match says it took.
    let start = solve(&app, "dots[1x2]").await;
    let mut body = json!({"spec": "dots[1x2]", "move": start["moves"][0]["spec"]});
    let mut claimed = std::collections::BTreeMap::new();
    let last = loop {
        let reply = play(&app, body).await;
        for e in reply["played"].as_array().unwrap() {
            for cell in e["claims"].as_array().into_iter().flatten() {
                assert!(claimed.insert(cell.to_string(), e["by"].clone()).is_none());
            }
        }
        if reply["over"] == true {
            break reply;
        }
        body = if reply["next"].is_object() {
            let next = &reply["next"];
            json!({"spec": next["spec"], "move": next["moves"][0]["spec"], "taken": reply["taken"]})
        } else {
            json!({"spec": reply["best_move"], "taken": reply["taken"]})
        };
    };
    let cells: Vec<&String> = claimed.keys().collect();
    assert_eq!(cells, ["[1,1]", "[1,3]"], "{last}");
    let by = |who: &str| claimed.values().filter(|b| *b == who).count() as u64;
    assert_eq!(
        json!([by("you"), by("grundy")]),
        last["taken"],
        "{claimed:?} {last}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_with_a_ticket_reports_its_progress_until_answered() {
    // Time enough for a loaded machine: the answer must come, not be cut.
    let app = router(Config {
        timeout: std::time::Duration::from_secs(300),
        ..Config::default()
    });
    let progress = |ticket: &str| {
        let app = app.clone();
        let uri = format!("/api/progress?ticket={ticket}");
        async move { send(&app, Request::get(uri).body(Body::empty()).unwrap()).await }
    };
    assert_eq!(
        progress("nobody").await,
        json!({"ticket": "nobody", "working": false})
    );
    // Seconds of exploring and labelling: its stage and count are seen while it runs.
    let solving = tokio::spawn({
        let app = app.clone();
        async move {
            let uri = format!("/api/solve?spec={}&ticket=t-1", encode("chomp[8x8]"));
            send(&app, Request::get(uri).body(Body::empty()).unwrap()).await
        }
    });
    let mut seen = Vec::new();
    while !solving.is_finished() {
        let p = progress("t-1").await;
        if p["working"] == true && p["stage"] != "" {
            seen.push(p);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let answer = solving.await.unwrap();
    assert_eq!(answer["outcome"], "win", "{answer}");
    assert!(!seen.is_empty(), "no progress seen");
    assert!(
        seen.iter()
            .all(|p| !p["stage"].as_str().unwrap().is_empty()),
        "{seen:?}"
    );
    assert_eq!(
        progress("t-1").await["working"],
        false,
        "forgotten once answered"
    );
    // A ticket that is not a word is refused.
    let request = Request::get("/api/progress?ticket=a%20b")
        .header(header::HOST, "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn heaps_are_stacks_of_tokens_and_a_sum_draws_its_parts_side_by_side() {
    let app = app();
    // nim(3,1): two stacks on a row of sizes; a move at the lowest token it takes.
    let r = solve(&app, "nim(3,1)").await;
    assert_eq!(r["picture"]["look"], "heaps", "{r}");
    assert_eq!(cells(&r["picture"]), ["o", "", "o", "", "o", "o", "3", "1"]);
    let at: Vec<(String, Value)> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap().to_string(), m["cell"].clone()))
        .collect();
    assert!(
        at.contains(&("take 3 from heap 1".into(), json!([2, 0]))),
        "{at:?}"
    );
    assert!(
        at.contains(&("take 1 from heap 2".into(), json!([2, 1]))),
        "{at:?}"
    );
    // A sum: each part's board (a circle's ring among the heaps), each move in the part
    // it changes, at its cell there, a token; the value history says the same.
    let spec = "nim(2) + circular[0.77](5) + kayles(3)";
    let r = solve(&app, spec).await;
    assert!(r.get("picture").is_none());
    let boards = r["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 3);
    assert_eq!(boards[0]["spec"], "nim(2)");
    assert_eq!(boards[0]["picture"]["look"], "heaps");
    assert_eq!(boards[1]["picture"]["look"], "rings");
    assert_eq!(boards[2]["spec"], "octal[0.77](3)");
    for m in r["moves"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let k = m["board"]
            .as_u64()
            .unwrap_or_else(|| panic!("no board: {m}"));
        assert!(name.ends_with(&format!("in part {}", k + 1)), "{m}");
        let (row, column) = cell_of(m);
        let picture = &boards[k as usize]["picture"];
        let columns = picture["columns"].as_u64().unwrap() as usize;
        let token = if k == 1 { "c" } else { "o" };
        assert_eq!(picture["cells"][row * columns + column], token, "{m}");
    }
    let reply = play(&app, json!({"spec": spec, "move": "take 2 in part 1"})).await;
    let mine = &reply["played"][0];
    assert_eq!(
        (&mine["board"], &mine["cell"]),
        (&json!(0), &json!([1, 0])),
        "{reply}"
    );
}

/// Plays `start` to the end through the API, the person taking the first move listed
/// each time (as a click on the first coloured cell would), and checks every reply
/// against a `Match` of the library's played alongside: each move made adds one entry to
/// the value history, with the value `Match` gives it. The history and the last reply.
async fn whole_game(app: &Router, start: &str, engine_first: bool) -> (Vec<Value>, Value) {
    let limits = Limits::default();
    let mut library = Match::new(start.parse().unwrap(), !engine_first, &limits).unwrap();
    let mut history: Vec<Value> = Vec::new();
    let mut moves = 0;
    let mut body = json!({ "spec": start });
    let mut reply = Value::Null;
    if !engine_first {
        reply = solve(app, start).await;
    }
    loop {
        let mine = if engine_first && moves == 0 {
            None
        } else {
            let from = if moves == 0 { &reply } else { &reply["next"] };
            let first = from["moves"][0]["spec"].as_str().unwrap().to_string();
            body = json!({ "spec": from["spec"], "move": first });
            Some(first)
        };
        reply = play(app, body.clone()).await;
        let played = reply["played"].as_array().expect("played").clone();
        let mut expected = 0;
        if let Some(first) = mine {
            let view = library.view();
            let m = view.moves.iter().find(|m| m.spec == first).unwrap().clone();
            let e = &played[expected];
            assert_eq!(e["by"], "you");
            assert_eq!(e["spec"], json!(m.spec));
            assert_eq!(
                (&e["outcome"], &e["remoteness"]),
                (&json!(m.outcome), &json!(m.remoteness))
            );
            library.play(&m, &limits).unwrap();
            expected += 1;
        }
        let view = library.view();
        if let Some(done) = library.engine_move(&limits).unwrap() {
            let m = view.moves.iter().find(|m| m.to == done.mv.to).unwrap();
            let e = &played[expected];
            assert_eq!(e["by"], "grundy");
            assert_eq!(e["spec"], json!(m.spec));
            assert_eq!(reply["best_move"], json!(m.spec));
            assert_eq!(
                (&e["outcome"], &e["remoteness"]),
                (&json!(m.outcome), &json!(m.remoteness))
            );
            expected += 1;
        }
        assert_eq!(played.len(), expected, "one entry a move: {reply}");
        for e in &played {
            // Who is winning after the move, for the chart's colour.
            let by = e["by"].as_str().unwrap();
            let other = if by == "you" { "grundy" } else { "you" };
            let winning = match e["outcome"].as_str().unwrap() {
                "win" => json!(by),
                "loss" => json!(other),
                _ => Value::Null,
            };
            assert_eq!(e["winning"], winning, "{e}");
        }
        moves += played.len();
        history.extend(played);
        assert_eq!(history.len(), moves);
        if reply["over"] == true {
            assert!(library.verdict().is_some());
            return (history, reply);
        }
        assert!(moves < 100, "the game ends");
    }
}

#[tokio::test]
async fn the_value_history_grows_by_one_a_move() {
    let app = app();
    let (history, last) = whole_game(&app, "tictactoe", false).await;
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("the game is over"),
        "{last}"
    );
    assert!(history.len() >= 5 && history.len() <= 9, "{history:?}");
    // Every move is at a cell of the board, alternately by you and by grundy.
    for (i, e) in history.iter().enumerate() {
        assert_eq!(e["by"], if i % 2 == 0 { "you" } else { "grundy" });
        let (r, c) = cell_of(e);
        assert!(r < 3 && c < 3);
    }
    // Grundy first: its move alone is the first entry.
    let (history, _) = whole_game(&app, "connect4[4x3]", true).await;
    assert_eq!(history[0]["by"], "grundy");
    // Circles are drawn: each move at a token it takes, on the ring or the row.
    let (history, _) = whole_game(&app, "circular[0.77](2,3)", false).await;
    assert!(!history.is_empty());
    assert!(history.iter().all(|e| e["cell"].is_array()), "{history:?}");
    // Heaps are drawn: each move at its token.
    let (history, _) = whole_game(&app, "nim(2,3)", false).await;
    assert!(history.iter().all(|e| e["cell"].is_array()), "{history:?}");
    assert_eq!(history[0]["spec"], "nim(1,3)");
    assert_eq!(
        history[0]["outcome"], "loss",
        "nim(1,3) is not the winning move"
    );
}

/// `value` with every `method` and `positions` field taken out: what a tablebase and a
/// search must agree on.
fn without_method(mut value: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("method");
                map.remove("positions");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

#[tokio::test]
async fn answers_from_a_tablebase_equal_the_search() {
    let start: Spec = "connect4[4x4]".parse().unwrap();
    let family = &start.single().unwrap().family;
    let tiers = family.tiers().unwrap();
    let mut store = MemoryStore::default();
    tier::solve(
        tiers.game(),
        &mut store,
        &Options::default(),
        &|_| {},
        &Control::default(),
    )
    .unwrap();
    let with = router(Config {
        tablebases: vec![Tablebase::new(tiers.game(), store)],
        ..Config::default()
    });
    let without = app();
    let catalog = send(
        &with,
        Request::get("/api/catalog").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(catalog["tablebases"], json!(["connect4[4x4]"]));
    for spec in [
        "connect4[4x4]",
        "connect4[4x4](2)",
        "connect4[4x4](2323)",
        "connect4[4x4](112233)",
    ] {
        let read = solve(&with, spec).await;
        assert_eq!(read["method"], "tablebase", "{spec}");
        let searched = solve(&without, spec).await;
        assert_eq!(searched["method"], "retrograde", "{spec}");
        assert_eq!(without_method(read), without_method(searched), "{spec}");
    }
    // A game through the tablebase: the same replies, moves and history as by search.
    for body in [
        json!({"spec": "connect4[4x4]"}),
        json!({"spec": "connect4[4x4]", "move": "connect4[4x4](2)"}),
        json!({"spec": "connect4[4x4](23)", "move": "3"}),
    ] {
        let read = play(&with, body.clone()).await;
        assert_eq!(read["report"]["method"], "tablebase", "{body}");
        let searched = play(&without, body.clone()).await;
        assert_eq!(without_method(read), without_method(searched), "{body}");
    }
    // Another board is still solved by search; a position play never reaches (X's four,
    // and O moved after) is refused with the reason, as a bad spec.
    let other = solve(&with, "connect4[4x3]").await;
    assert_eq!(other["method"], "retrograde");
    let uri = format!(
        "/api/solve?spec={}",
        encode("connect4[4x4](o.../ooo./xxxx/oxxo)")
    );
    let mut request = Request::get(uri).body(Body::empty()).unwrap();
    request
        .headers_mut()
        .insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
    let response = with.clone().oneshot(request).await.expect("a response");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let refused: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(refused["kind"], "bad-spec");
    assert!(
        refused["error"].as_str().unwrap().contains("cannot arise"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_move_the_report_does_not_list_is_valued_once_played() {
    // Judged by Grundy values at once, not explored first.
    let app = router(Config {
        max_positions: 1_000,
        ..Config::default()
    });
    // Two heaps of 10 000: more moves than a report lists. Every move loses (equal heaps).
    let start = "nim(10000,10000)";
    let r = solve(&app, start).await;
    assert_eq!(r["moves_truncated"], true);
    let unlisted = "nim(10000,5)";
    assert!(
        r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["spec"] != unlisted),
        "{unlisted} is listed"
    );
    let reply = play(&app, json!({"spec": start, "move": unlisted})).await;
    let mine = &reply["played"][0];
    assert_eq!(mine["spec"], unlisted);
    assert_eq!(mine["outcome"], "loss", "{mine}");
    assert_eq!(mine["winning"], "grundy");
    assert_eq!(reply["your_move"]["outcome"], "loss");
    assert_eq!(reply["your_move"]["judgement"], "a losing move");
    assert_eq!(reply["best_move"], "nim(5,5)");
    assert_eq!(reply["played"][1]["outcome"], "win");
}

/// Every move of `r` has its own cell on the picture, of a cell that shows `shows`; the
/// cells of the moves in order.
fn own_cells(r: &Value, shows: &[&str]) -> Vec<(usize, usize)> {
    let columns = r["picture"]["columns"].as_u64().unwrap() as usize;
    let before = cells(&r["picture"]);
    r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let (row, column) = cell_of(m);
            let label = &before[row * columns + column];
            assert!(shows.contains(&label.as_str()), "{m}: at {label:?}");
            (row, column)
        })
        .collect()
}

#[tokio::test]
async fn chomp_is_a_bar_and_each_move_its_square() {
    let app = app();
    let r = solve(&app, "chomp[2x3]").await;
    assert_eq!(r["picture"]["look"], "bar");
    // The top row first; the poisoned square at the bottom left.
    assert_eq!(cells(&r["picture"]), ["#", "#", "#", "x", "#", "#"]);
    let at = own_cells(&r, &["#"]);
    assert_eq!(at.len(), 5);
    let distinct: std::collections::BTreeSet<_> = at.iter().collect();
    assert_eq!(distinct.len(), 5, "one move a square");
    // The square at the top right taken: only it goes.
    let m = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| cell_of(m) == (0, 2))
        .unwrap();
    let after = solve(&app, m["spec"].as_str().unwrap()).await;
    assert_eq!(cells(&after["picture"]), ["#", "#", "", "x", "#", "#"]);
}

#[tokio::test]
async fn quixo_is_its_cubes_and_each_move_the_cube_taken() {
    let app = app();
    let r = solve(&app, "quixo[3](x.o/.../...,x)").await;
    assert_eq!(r["picture"]["look"], "cubes");
    assert_eq!(cells(&r["picture"]), ["X", "", "O", "", "", "", "", "", ""]);
    // Taken from the border, blank or X's own, never O's; a cube has two or three moves,
    // each named from it.
    let at = own_cells(&r, &["", "X"]);
    for (m, (row, column)) in r["moves"].as_array().unwrap().iter().zip(&at) {
        assert!([0, 2].contains(row) || [0, 2].contains(column), "{m}");
        let name = format!("{}{}", (b'a' + *column as u8) as char, row + 1);
        assert!(m["name"].as_str().unwrap().starts_with(&name), "{m}");
        // It ends where the cube goes back in, the cell its name ends with.
        let end = m["end"].as_array().unwrap_or_else(|| panic!("no end: {m}"));
        let (er, ec) = (end[0].as_u64().unwrap(), end[1].as_u64().unwrap());
        let end_name = format!("{}{}", (b'a' + ec as u8) as char, er + 1);
        assert!(m["name"].as_str().unwrap().ends_with(&end_name), "{m}");
        assert_ne!((er as usize, ec as usize), (*row, *column), "{m}");
    }
    // Pushes that leave one board are one move, at the first cube in reading order.
    let distinct: std::collections::BTreeSet<_> = at.iter().collect();
    assert_eq!(at.len(), 10);
    assert_eq!(distinct.len(), 4);
}

#[tokio::test]
async fn kalah_has_its_stores_and_dots_its_lines() {
    let app = app();
    let r = solve(&app, "kalah[3,3]").await;
    assert_eq!(r["picture"]["look"], "pits");
    assert_eq!(
        cells(&r["picture"]),
        ["", "3", "3", "3", "", "", "3", "3", "3", ""]
    );
    // South moves first: its pits, the bottom row between the stores.
    assert_eq!(own_cells(&r, &["3"]), [(1, 1), (1, 2), (1, 3)]);
    let r = solve(&app, "dots[1x1]").await;
    assert_eq!(r["picture"]["look"], "lines");
    assert_eq!(
        cells(&r["picture"]),
        ["+", "", "+", "", "", "", "+", "", "+"]
    );
    assert_eq!(own_cells(&r, &[""]).len(), 4);
}

#[tokio::test]
async fn the_gallery_draws_every_family_of_the_registry() {
    let app = app();
    let request = Request::get("/api/catalog").body(Body::empty()).unwrap();
    let catalog = send(&app, request).await;
    let gallery = catalog["gallery"].as_array().unwrap();
    let names: Vec<&str> = gallery
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = grundy::games::families().map(|(name, _)| name).collect();
    assert_eq!(names, registry);
    for g in gallery {
        assert!(!g["rules"].as_str().unwrap().is_empty(), "{g}");
        // Every family is drawn in the gallery as on its page: the same picture or figure
        // /api/solve gives its first example.
        let spec = g["spec"].as_str().unwrap_or_else(|| panic!("no spec: {g}"));
        let solved = solve(&app, spec).await;
        assert_eq!(g.get("picture"), solved.get("picture"), "{spec}");
        assert_eq!(g.get("figure"), solved.get("figure"), "{spec}");
    }
    // A family whose first example is too large to draw shows one it draws: Fibonacci
    // nim's heap of 30 is past the tokens drawn, its small spec's is not.
    let multiple = gallery.iter().find(|g| g["name"] == "multiple").unwrap();
    assert_eq!(multiple["spec"], "multiple[2](13)");
    assert_eq!(multiple["picture"]["look"], "heaps");
    for name in [
        "domineering",
        "chomp",
        "quixo",
        "connect4",
        "hex",
        "dots",
        "kalah",
        "ioiwari",
        "tictactoe",
        "circular",
        "toads",
        "clobber",
    ] {
        let g = gallery.iter().find(|g| g["name"] == name).unwrap();
        assert!(g["picture"].is_object(), "{name} has no picture: {g}");
    }
    for (name, kind) in [
        ("polygon", "polygon"),
        ("hackenbush", "edges"),
        ("cutcake", "cake"),
    ] {
        let g = gallery.iter().find(|g| g["name"] == name).unwrap();
        assert_eq!(g["figure"]["kind"], kind, "{g}");
    }
    // Every family is drawn.
    for g in gallery {
        assert!(g["picture"].is_object() || g["figure"].is_object(), "{g}");
    }
}

/// Hackenbush's edges and Cutcake's pieces come as figures, each move at its edge or
/// score line, and at every one that makes it (`parts`); circles as rings, the strip as
/// a strip, each move at a token or piece.
#[tokio::test]
async fn the_partizan_pictures_and_circles_are_drawn() {
    let app = app();
    let r = solve(&app, "hackenbush(B,B,RG)").await;
    let f = &r["figure"];
    assert_eq!(f["kind"], "edges", "{r}");
    assert_eq!(f["edges"].as_array().unwrap().len(), 4);
    assert_eq!(
        f["edges"][0],
        json!({"from": [1, 0], "to": [1, 1], "colour": "blue", "bend": 0})
    );
    assert_eq!((&f["width"], &f["height"]), (&json!(6), &json!(2)));
    // Left's moves: either blue stalk (one move), or the green edge.
    let moves: Vec<(&str, &Value, Option<&Value>)> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), &m["part"], m.get("parts")))
        .collect();
    assert_eq!(
        moves,
        [
            ("cut 0-1:B", &json!(0), Some(&json!([0, 1]))),
            ("cut 0-1:B", &json!(0), Some(&json!([0, 1]))),
            ("cut 3-4:G", &json!(3), None),
        ]
    );
    let r = solve(&app, "cutcake(2x4,right)").await;
    assert_eq!(r["figure"], json!({"kind": "cake", "pieces": [[2, 4]]}));
    assert_eq!(r["moves"][0]["part"], 3, "{r}");
    let r = solve(&app, "cutcake(2x4)").await;
    let parts: Vec<(&Value, Option<&Value>)> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (&m["part"], m.get("parts")))
        .collect();
    assert_eq!(
        parts,
        [(&json!(0), Some(&json!([0, 2]))), (&json!(1), None)]
    );
    // A move played is recorded at its part.
    let reply = play(
        &app,
        json!({"spec": "cutcake(2x4)", "move": "cut 2x4 into 2x2 + 2x2"}),
    )
    .await;
    assert_eq!(reply["played"][0]["part"], 1, "{reply}");
    // In a sum, each part is drawn as it is alone: figures too, each move in its part.
    let r = solve(&app, "hackenbush(B,R) + cutcake(1x3) + nim(1)").await;
    let boards = r["boards"].as_array().expect("boards");
    assert_eq!(boards[0]["figure"]["kind"], "edges", "{r}");
    assert_eq!(boards[1]["figure"]["kind"], "cake", "{r}");
    assert_eq!(boards[2]["picture"]["look"], "heaps", "{r}");
    let placed: Vec<(&str, &Value, &Value, Option<&Value>)> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let at = m.get("part").or_else(|| m.get("cell")).unwrap();
            (m["name"].as_str().unwrap(), &m["board"], at, m.get("parts"))
        })
        .collect();
    assert_eq!(
        placed,
        [
            ("cut 0-1:B in part 1", &json!(0), &json!(0), None),
            (
                "cut 1x3 into 1x1 + 1x2 in part 2",
                &json!(1),
                &json!(0),
                Some(&json!([0, 1]))
            ),
            ("take 1 in part 3", &json!(2), &json!([0, 0]), None),
        ]
    );
    let r = solve(&app, "circular[0.77](4)").await;
    assert_eq!(r["picture"]["look"], "rings");
    assert_eq!(r["picture"]["cells"], json!(["c", "c", "c", "c"]));
    let r = solve(&app, "toads(T.F)").await;
    assert_eq!(r["picture"]["look"], "strip");
    assert_eq!(r["moves"][0]["cell"], json!([0, 0]), "{r}");
}

#[tokio::test]
async fn a_move_that_closes_a_box_says_which_and_for_whom_in_explore_too() {
    let app = app();
    // Three sides of the left box drawn, the first player to move: `h a2` closes it.
    let r = solve(&app, "dots[1x2](ha1,hb1,va1,vb1,first)").await;
    let closing = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "h a2")
        .unwrap();
    assert_eq!(closing["claims"], json!([[1, 1]]));
    assert_eq!(closing["claimed_by"], "first");
    for m in r["moves"].as_array().unwrap() {
        if m["name"] != "h a2" {
            assert!(
                m.get("claims").is_none() && m.get("claimed_by").is_none(),
                "{m}"
            );
        }
    }
    // The second player's closing move is the second player's.
    let r = solve(&app, "dots[1x2](ha1,hb1,va1,vb1,second)").await;
    let closing = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "h a2")
        .unwrap();
    assert_eq!(closing["claimed_by"], "second");
}

#[tokio::test]
async fn a_report_names_the_family_of_its_registry() {
    let app = app();
    for (spec, family) in [
        ("connect4[4x4]", "connect4"),
        ("kayles(9)", "octal"),
        ("nim(3,4,5)", "nim"),
        ("bounded-nim[3](10)", "bounded-nim"),
        ("kalah[2,2]", "kalah"),
    ] {
        assert_eq!(solve(&app, spec).await["family"], family, "{spec}");
    }
    assert!(solve(&app, "nim(3) + kayles(4)")
        .await
        .get("family")
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exact_search_says_how_many_first_moves_it_has_valued() {
    let app = router(Config {
        timeout: std::time::Duration::from_secs(300),
        ..Config::default()
    });
    let solving = tokio::spawn({
        let app = app.clone();
        async move {
            let uri = format!("/api/solve?spec={}&ticket=c4", encode("connect4[5x5]"));
            send(&app, Request::get(uri).body(Body::empty()).unwrap()).await
        }
    });
    let mut stages = Vec::new();
    while !solving.is_finished() {
        let uri = "/api/progress?ticket=c4".to_string();
        let p = send(&app, Request::get(uri).body(Body::empty()).unwrap()).await;
        if let Some(stage) = p["stage"].as_str().filter(|s| !s.is_empty()) {
            if stages.last().is_none_or(|s| s != stage) {
                stages.push(stage.to_string());
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let answer = solving.await.unwrap();
    assert_eq!(answer["method"], "search", "{answer}");
    // "search, k of n moves valued", k rising (n: the columns, mirror images once).
    let ks: Vec<u32> = stages
        .iter()
        .filter_map(|s| {
            s.strip_prefix("search, ")?
                .split(" of ")
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert!(!ks.is_empty(), "{stages:?}");
    assert!(ks.windows(2).all(|w| w[0] < w[1]), "{stages:?}");
    assert!(stages.iter().all(|s| s.starts_with("search")), "{stages:?}");
}
