//! Contest boards through the API: an IOI 2001 "Score" board and a POI 1999 "Polygons"
//! triangulation uploaded in the task's own input format (`POST /api/olympiad`), read by
//! the library's readers, solved as the library solves them, drawn as figures, and played
//! through `/api/play` with the board; bad files refused with their line and column, and
//! boards past the library's limits with the limit.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use grundy::contest::{self, Task};
use grundy_web::{router, Config};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use tower::ServiceExt as _;

/// A 4-position board (the README's): owners 1 2 1 2, values 1 3 4 2.
const BOARD: &str = "4\n0 1 1 0\n1 0 0 1\n0 0 0 1\n1 0 0 0\n1 2 1 2\n1 3 4 2\n";
/// An 8-gon in six triangles, the black one (0 3 5) with no side on the boundary.
const OCTAGON: &str = "8\n0 3 5\n0 1 2\n0 2 3\n3 4 5\n5 6 7\n5 7 0\n";

/// The status and JSON of a request addressed to 127.0.0.1.
async fn send(app: &Router, mut request: Request<Body>) -> (StatusCode, Value) {
    request
        .headers_mut()
        .insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
    let response = app.clone().oneshot(request).await.expect("a response");
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, value)
}

async fn upload(app: &Router, task: &str, name: &str, text: &str) -> (StatusCode, Value) {
    let uri = format!("/api/olympiad?task={task}&name={name}");
    send(
        app,
        Request::post(uri)
            .body(Body::from(text.to_string()))
            .unwrap(),
    )
    .await
}

async fn ok(app: &Router, task: &str, text: &str) -> Value {
    let (status, value) = upload(app, task, "board.txt", text).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    value
}

async fn play(app: &Router, body: Value) -> (StatusCode, Value) {
    send(
        app,
        Request::post("/api/play")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

fn app() -> Router {
    router(Config::default())
}

/// The library's report of a task's start, as `grundy olympiad NAME --solve` gives it.
fn library(task: Task, text: &str) -> Value {
    let analysis = contest::analyze(task, text).unwrap();
    serde_json::to_value(analysis.report.expect("solved")).unwrap()
}

#[tokio::test]
async fn a_score_board_is_solved_as_the_library_solves_it_and_drawn() {
    let app = app();
    let a = ok(&app, "ioi2001-score", BOARD).await;
    assert_eq!(a["task"], "ioi2001-score");
    assert_eq!(a["input"], BOARD);
    let r = &a["report"];
    let want = library(Task::Ioi2001Score, BOARD);
    for key in ["spec", "outcome", "remoteness", "winning_moves"] {
        assert_eq!(r[key], want[key], "{key}");
    }
    assert_eq!(r["outcome"], "win");
    assert_eq!(r["winning_moves"], json!(["score-board(3,1,0)"]));
    let f = &r["figure"];
    assert_eq!(f["kind"], "graph");
    assert_eq!(f["names"], json!(["1", "2", "3", "4"]));
    assert_eq!(f["owners"], json!([1, 2, 1, 2]));
    assert_eq!(f["labels"], json!(["1", "3", "4", "2"]));
    assert_eq!(
        f["arrows"],
        json!([[0, 1], [0, 2], [1, 0], [1, 3], [2, 3], [3, 0]])
    );
    assert_eq!((&f["token"], &f["scores"]), (&json!(0), &json!([0, 0])));
    // Each move is clicked at the position the token goes to.
    for m in r["moves"].as_array().unwrap() {
        let to: u64 = m["name"].as_str().unwrap()[3..].parse().unwrap();
        assert_eq!(m["part"], json!(to - 1), "{m}");
    }
}

#[tokio::test]
async fn a_score_board_is_played_to_the_end_through_the_match() {
    let app = app();
    let a = ok(&app, "ioi2001-score", BOARD).await;
    let board = json!({"task": "ioi2001-score", "text": BOARD});
    // You move first (player 1, the owner of position 1) and take the winning move each
    // time; the engine answers; the figure follows every move, both scores kept.
    let mut spec = a["spec"].as_str().unwrap().to_string();
    let mut report = a["report"].clone();
    let mut moves = 0;
    loop {
        let best = report["winning_moves"][0].as_str().unwrap().to_string();
        let (status, reply) = play(
            &app,
            json!({"spec": spec, "move": best, "board": board.clone()}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        moves += 1;
        let played = reply["played"].as_array().unwrap();
        assert_eq!(played[0]["by"], "you");
        assert_eq!(played[0]["outcome"], "win");
        // The vertex of each move played is where the token is after it.
        let last = played.last().unwrap();
        let shown = if reply["next"].is_null() {
            &reply["report"]
        } else {
            &reply["next"]
        };
        assert_eq!(shown["figure"]["token"], last["part"], "{reply}");
        if reply["over"] == true {
            assert_eq!(reply["winner"], "you");
            // Player 1 scored 1 then 4, player 2 scored 2 (position 4): 4 to 2.
            assert_eq!(shown["figure"]["scores"], json!([4, 2]));
            assert_eq!(shown["spec"], "score-board(1,4,2)");
            break;
        }
        spec = shown["spec"].as_str().unwrap().to_string();
        report = shown.clone();
        assert!(moves < 10, "the game goes on");
    }
    // The engine moving first plays player 1's winning move itself.
    let (status, reply) = play(&app, json!({"spec": a["spec"], "board": board})).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["best_move"], "score-board(3,1,0)");
}

#[tokio::test]
async fn a_triangulation_is_solved_drawn_and_played() {
    let app = app();
    let a = ok(&app, "poi1999-polygon", OCTAGON).await;
    let r = &a["report"];
    let want = library(Task::Poi1999Polygon, OCTAGON);
    for key in ["spec", "outcome", "remoteness", "winning_moves", "grundy"] {
        assert_eq!(r[key], want[key], "{key}");
    }
    // Six triangles, the black one inside: the rule says the first player wins, as the
    // general method does.
    assert_eq!(r["outcome"], "win");
    assert!(a["rule"].as_str().unwrap().ends_with("TAK"), "{a}");
    let f = &r["figure"];
    assert_eq!(f["kind"], "polygon");
    assert_eq!(f["vertices"], 8);
    assert_eq!(f["triangles"][0], json!([0, 3, 5]));
    assert_eq!(f["left"], json!(vec![true; 6]));
    // The ears (triangles 2, 4, 5 by number) are the moves, each at its triangle.
    let mut parts: Vec<u64> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["part"].as_u64().unwrap())
        .collect();
    parts.sort_unstable();
    assert_eq!(parts, [1, 3, 4]);
    // Cut triangle 4 (3 4 5): it is gone from the figure, and so is the engine's cut.
    let cut = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["part"] == 3)
        .unwrap();
    let board = json!({"task": "poi1999-polygon", "text": OCTAGON});
    let (status, reply) = play(
        &app,
        json!({"spec": a["spec"], "move": cut["spec"], "board": board}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let played = reply["played"].as_array().unwrap();
    assert_eq!(played.len(), 2);
    let left = &reply["next"]["figure"]["left"];
    assert_eq!(left[3], false);
    let theirs = played[1]["part"].as_u64().unwrap() as usize;
    assert_eq!(left[theirs], false);
    assert_eq!(
        left.as_array()
            .unwrap()
            .iter()
            .filter(|b| **b == true)
            .count(),
        4
    );
}

#[tokio::test]
async fn bad_files_are_refused_with_line_and_column() {
    let app = app();
    for (task, text, at, words) in [
        (
            "ioi2001-score",
            "4\n0 1 x",
            (2, 5),
            "expected an arrow (0 or 1), found `x`",
        ),
        ("ioi2001-score", "2\n0 1\n1 0\n1 3\n", (4, 3), "an owner"),
        (
            "ioi2001-score",
            "2\n0 1\n1 0\n1 2\n1 1\n",
            (5, 3),
            "value 1 is given twice",
        ),
        (
            "poi1999-polygon",
            "5\n0 1 2\n0 2 x\n",
            (3, 5),
            "expected a vertex",
        ),
        (
            "poi1999-polygon",
            "5\n0 1 2\n0 2 3\n0 3 4\n9\n",
            (5, 1),
            "expected the end",
        ),
    ] {
        let (status, e) = upload(&app, task, "bad.txt", text).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
        assert_eq!(e["kind"], "bad-file");
        assert_eq!(
            (e["line"].as_u64(), e["column"].as_u64()),
            (Some(at.0), Some(at.1)),
            "{e}"
        );
        let message = e["error"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("bad.txt, line {}, column {}: ", at.0, at.1)),
            "{message}"
        );
        assert!(message.contains(words), "{message}");
    }
    // An empty file, an unknown task.
    let (status, e) = upload(&app, "ioi2001-score", "empty.txt", " \n").await;
    assert_eq!(
        (status, e["kind"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-file"))
    );
    let (status, e) = upload(&app, "ioi2002-xor", "x.txt", BOARD).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"].as_str().unwrap().contains("ioi2001-score"),
        "{e}"
    );
}

#[tokio::test]
async fn boards_past_the_librarys_limits_are_refused_with_the_limit() {
    let app = app();
    let (status, e) = upload(&app, "ioi2001-score", "big.txt", "5001\n0 1\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("at most 5000, found 5001"),
        "{e}"
    );
    let (status, e) = upload(&app, "poi1999-polygon", "big.txt", "2000000\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"].as_str().unwrap().contains("at most 1048576"),
        "{e}"
    );
    // The body limit holds for uploads, and for the board brought back to /api/play.
    let small = router(Config {
        max_body: 64,
        ..Config::default()
    });
    let long = format!("{BOARD}{}", " ".repeat(100));
    let (status, e) = upload(&small, "ioi2001-score", "long.txt", &long).await;
    assert_eq!(
        (status, e["kind"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too-large"))
    );
    assert!(e["error"].as_str().unwrap().contains("64 B"), "{e}");
}

#[tokio::test]
async fn a_large_board_is_not_drawn_and_a_large_polygon_gets_its_rule() {
    // A fan of 40 triangles from vertex 0, the black one at the end: too many positions
    // for the general method under this limit, so the rule answers; too many vertices to
    // draw under this one.
    let mut fan = String::from("42\n0 40 41\n");
    for i in 1..40 {
        fan.push_str(&format!("0 {i} {}\n", i + 1));
    }
    let app = router(Config {
        max_positions: 10_000,
        max_drawn: 20,
        ..Config::default()
    });
    let a = ok(&app, "poi1999-polygon", &fan).await;
    assert!(a["report"].is_null(), "{a}");
    assert!(
        a["not_solved"].as_str().unwrap().contains("too large"),
        "{a}"
    );
    assert_eq!(
        a["rule"].as_str(),
        contest::Task::Poi1999Polygon.rule(&fan).unwrap().as_deref()
    );
    assert!(
        a["not_drawn"].as_str().unwrap().contains("42 vertices"),
        "{a}"
    );
    // Not solved but drawn, with no moves, where it is small enough to draw.
    let drawn = router(Config {
        max_positions: 10_000,
        ..Config::default()
    });
    let a = ok(&drawn, "poi1999-polygon", &fan).await;
    assert!(a["report"].is_null());
    assert_eq!(a["figure"]["kind"], "polygon");
    assert_eq!(a["figure"]["left"], json!(vec![true; 40]));
    // A board of 25 positions in a ring through 1, drawn only under a larger limit.
    let n = 25;
    let mut ring = format!("{n}\n");
    for i in 0..n {
        let row: Vec<&str> = (0..n)
            .map(|j| if j == (i + 1) % n { "1" } else { "0" })
            .collect();
        ring.push_str(&row.join(" "));
        ring.push('\n');
    }
    ring.push_str(&vec!["1"; n].join(" "));
    ring.push('\n');
    let values: Vec<String> = (1..=n).map(|v| v.to_string()).collect();
    ring.push_str(&values.join(" "));
    let a = ok(&app, "ioi2001-score", &ring).await;
    assert!(a["report"]["figure"].is_null());
    assert!(
        a["report"]["not_drawn"]
            .as_str()
            .unwrap()
            .contains("25 vertices"),
        "{a}"
    );
    let a = ok(&router(Config::default()), "ioi2001-score", &ring).await;
    assert_eq!(a["report"]["figure"]["names"].as_array().unwrap().len(), n);
}

#[tokio::test]
async fn positions_of_a_board_are_read_back_and_checked() {
    let app = app();
    let board = json!({"task": "ioi2001-score", "text": BOARD});
    for (spec, words) in [
        ("score-board(9,0,0)", "the token's position is 1 to 4"),
        ("score-board(2,3,0)", "player 1's score cannot be 3"),
        ("score-board(2,1)", "`C,s1,s2`"),
        ("nim(3)", "expected a position of this game"),
    ] {
        let (status, e) = play(&app, json!({"spec": spec, "board": board.clone()})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
        assert_eq!(e["kind"], "bad-spec");
        assert!(e["error"].as_str().unwrap().contains(words), "{spec}: {e}");
        assert_eq!(e["line"], 1);
    }
    // A board that does not read is refused as a file, with its place.
    let (status, e) = play(
        &app,
        json!({"spec": "score-board(1,0,0)", "board": {"task": "ioi2001-score", "text": "4\n0 1 x"}}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(5))
    );
    // A polygon's position: the triangles left, one polygon with the black one.
    let board = json!({"task": "poi1999-polygon", "text": OCTAGON});
    let name = "polygon[8,0,3,5,0,1,2,0,2,3,3,4,5,5,6,7,5,7,0]";
    let (status, e) = play(
        &app,
        json!({"spec": format!("{name}(1,2,6)"), "board": board.clone()}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("triangle 2 is cut off"),
        "{e}"
    );
    let (status, r) = play(
        &app,
        json!({"spec": format!("{name}(1,3,4)"), "board": board}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(
        r["report"]["figure"]["left"],
        json!([true, false, true, true, false, false])
    );
}
