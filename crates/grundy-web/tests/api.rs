//! The JSON API, end to end through the router: every endpoint, bad input (4xx with the
//! reason, never a 500), oversized requests, timeouts, concurrent requests, escaping — and
//! one real server on a port the system picks.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use grundy_web::{router, Config};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use tower::ServiceExt as _;

struct Answer {
    status: StatusCode,
    content_type: String,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// Sends `request` as a browser would, addressed to `127.0.0.1` (unless it names a host
/// itself or is marked `Bare` to name none).
async fn send(app: &Router, mut request: Request<Body>) -> Answer {
    if request.extensions().get::<Bare>().is_none() && !request.headers().contains_key(header::HOST)
    {
        request
            .headers_mut()
            .insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
    }
    let response = app.clone().oneshot(request).await.expect("a response");
    let status = response.status();
    let headers = response.headers().clone();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        content_type,
        headers,
        text: String::from_utf8(bytes.to_vec()).expect("UTF-8"),
    }
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

/// Marks a request to be sent without a `Host` header.
#[derive(Clone, Copy)]
struct Bare;

async fn get(app: &Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn solve(app: &Router, spec: &str) -> Answer {
    get(app, &format!("/api/solve?spec={}", encode(spec))).await
}

async fn post(app: &Router, uri: &str, body: impl Into<Body>) -> Answer {
    send(app, Request::post(uri).body(body.into()).unwrap()).await
}

async fn play(app: &Router, body: Value) -> Answer {
    post(app, "/api/play", body.to_string()).await
}

async fn graph(app: &Router, query: &str, body: impl Into<Body>) -> Answer {
    post(app, &format!("/api/graph?{query}"), body).await
}

fn app() -> Router {
    router(Config::default())
}

/// Asserts a refusal: the status, the kind, JSON, and words in the message.
fn refused(a: &Answer, status: StatusCode, kind: &str, words: &str) -> Value {
    assert_eq!(a.status, status, "{}", a.text);
    assert!(
        a.content_type.starts_with("application/json"),
        "{}",
        a.content_type
    );
    let v = a.json();
    assert_eq!(v["kind"], kind, "{v}");
    let message = v["error"].as_str().expect("a message");
    assert!(message.contains(words), "{message:?} lacks {words:?}");
    v
}

// ---------------------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_page_and_its_assets_are_served_from_the_binary() {
    let app = app();
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let a = get(&app, path).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        assert!(
            a.content_type.starts_with(kind),
            "{path}: {}",
            a.content_type
        );
        // No CDN, no external font or script: everything comes from this server (the SVG
        // namespace is a name, not an address that is fetched).
        let text = a.text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"),
            "{path} refers to another host"
        );
        assert_eq!(a.headers["x-content-type-options"], "nosniff");
        let csp = a.headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{csp}");
    }
    let page = get(&app, "/").await.text;
    assert!(page.contains("<script src=\"/app.js\" defer></script>"));
    let script = get(&app, "/app.js").await.text;
    // The script builds the DOM from text only.
    for unsafe_sink in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
    ] {
        assert!(!script.contains(unsafe_sink), "app.js uses {unsafe_sink}");
    }
}

#[tokio::test]
async fn unknown_routes_and_methods_are_4xx() {
    let app = app();
    refused(
        &get(&app, "/nope").await,
        StatusCode::NOT_FOUND,
        "not-found",
        "/nope",
    );
    refused(
        &get(&app, "/api/nope").await,
        StatusCode::NOT_FOUND,
        "not-found",
        "/api/",
    );
}

#[tokio::test]
async fn a_wrong_method_is_a_405_with_the_json_error() {
    let app = app();
    // Every route, with a method it does not take: the documented error, never an empty
    // body, and the `Allow` header that says what it takes.
    for (method, uri, allowed) in [
        ("GET", "/api/play", "POST"),
        ("GET", "/api/graph", "POST"),
        ("POST", "/api/solve?spec=nim(1)", "GET"),
        ("POST", "/api/catalog", "GET"),
        ("DELETE", "/api/table", "GET"),
        ("PUT", "/api/pattern", "GET"),
        ("PATCH", "/api/explore", "GET"),
        ("POST", "/", "GET"),
        ("DELETE", "/app.js", "GET"),
        ("PUT", "/style.css", "GET"),
        ("POST", "/favicon.svg", "GET"),
    ] {
        let a = send(
            &app,
            Request::builder()
                .method(method)
                .uri(uri)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        let v = refused(&a, StatusCode::METHOD_NOT_ALLOWED, "bad-method", method);
        let message = v["error"].as_str().unwrap();
        assert!(message.contains(allowed), "{uri}: {message}");
        assert!(
            a.headers[header::ALLOW].to_str().unwrap().contains(allowed),
            "{uri}"
        );
        assert_eq!(a.headers["x-content-type-options"], "nosniff");
    }
}

#[tokio::test]
async fn only_local_host_names_are_answered() {
    let app = app();
    let request = |host: &str| {
        Request::get("/api/catalog")
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap()
    };
    for host in [
        "127.0.0.1:8080",
        "localhost:1",
        "LOCALHOST",
        "[::1]:80",
        "127.0.0.1",
    ] {
        assert_eq!(
            send(&app, request(host)).await.status,
            StatusCode::OK,
            "{host}"
        );
    }
    for host in [
        "evil.example",
        "evil.example:8080",
        "127.0.0.1.evil.example",
        "localhost.evil",
        // A port must be digits and nothing else.
        "127.0.0.1:18080.evil.com",
        "localhost:80@evil.example",
        "127.0.0.1:",
        "127.0.0.1:80:81",
        "127.0.0.1:8o",
        "[::1]:80.evil.example",
        "[::1].evil.example",
        "[::1",
        "::1",
        "127.0.0.1 evil.example",
        "",
    ] {
        refused(
            &send(&app, request(host)).await,
            StatusCode::FORBIDDEN,
            "bad-host",
            "127.0.0.1",
        );
    }
    // No Host header at all, for the page and for the API; and two of them.
    for uri in ["/", "/api/catalog", "/api/solve?spec=nim(1)", "/nope"] {
        let mut bare = Request::get(uri).body(Body::empty()).unwrap();
        bare.extensions_mut().insert(Bare);
        refused(
            &send(&app, bare).await,
            StatusCode::FORBIDDEN,
            "bad-host",
            "127.0.0.1",
        );
    }
    let two = Request::get("/api/catalog")
        .header(header::HOST, "127.0.0.1")
        .header(header::HOST, "evil.example")
        .body(Body::empty())
        .unwrap();
    refused(
        &send(&app, two).await,
        StatusCode::FORBIDDEN,
        "bad-host",
        "127.0.0.1",
    );
    // A wrong method to a wrong host is refused for the host first.
    let post = Request::post("/api/solve")
        .header(header::HOST, "evil.example")
        .body(Body::empty())
        .unwrap();
    refused(
        &send(&app, post).await,
        StatusCode::FORBIDDEN,
        "bad-host",
        "127.0.0.1",
    );
}

// ---------------------------------------------------------------------------------------
// Catalog, solve, table, explore
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn catalog_lists_families_examples_and_limits() {
    let a = get(&app(), "/api/catalog").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.headers["cache-control"], "no-store");
    let v = a.json();
    let names: Vec<&str> = v["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    for family in ["nim", "octal", "multiple", "wythoff", "ends"] {
        assert!(names.contains(&family), "{names:?}");
    }
    assert!(v["examples"]
        .as_array()
        .unwrap()
        .contains(&json!("nim(3,4,5)")));
    assert_eq!(v["graph_examples"][0]["format"], "poi");
    assert_eq!(v["limits"]["max_positions"], 2_000_000);
    // Every limit is a JSON number, none a string.
    let limits = v["limits"].as_object().unwrap();
    for name in [
        "max_positions",
        "max_memory",
        "max_work",
        "timeout_seconds",
        "max_body",
        "max_table",
        "max_drawn",
        "max_proof_heaps",
    ] {
        assert!(limits[name].is_number(), "{name}: {}", limits[name]);
    }
    for (name, value) in limits {
        assert!(value.is_number(), "{name}: {value}");
    }
    assert_eq!(v["limits"]["max_work"], 2_000_000_000u64);
    assert_eq!(v["limits"]["max_proof_heaps"], 1u64 << 20);
}

#[tokio::test]
async fn the_options_panel_comes_from_the_library() {
    let app = app();
    let catalog = get(&app, "/api/catalog").await.json();
    let gallery = catalog["gallery"].as_array().unwrap();
    // Each family's options are its registry entry's: every setting's choices and default.
    for g in gallery {
        let entry = grundy::games::registry::find(g["name"].as_str().unwrap()).unwrap();
        if entry.options.settings.is_empty() {
            assert!(g.get("options").is_none(), "{}", g["name"]);
            continue;
        }
        let o = &g["options"];
        assert_eq!(o["template"], entry.options.template);
        for (s, v) in entry
            .options
            .settings
            .iter()
            .zip(o["settings"].as_array().unwrap())
        {
            assert_eq!(v["name"], s.name);
            assert_eq!(v["label"], s.label);
            assert_eq!(v["default"], s.default);
            let values: Vec<String> = s.values.choices().into_iter().map(|(v, _)| v).collect();
            let offered: Vec<&str> = v["choices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["value"].as_str().unwrap())
                .collect();
            assert_eq!(offered, values, "{}", s.name);
        }
        // The defaults make a spec, which solves as any.
        let made = get(
            &app,
            &format!("/api/variant?family={}", g["name"].as_str().unwrap()),
        )
        .await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.text);
        assert_eq!(made.json()["spec"], entry.options.spec(&[]).unwrap());
    }
    let connect4 = gallery.iter().find(|g| g["name"] == "connect4").unwrap();
    let names: Vec<&str> = connect4["options"]["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["columns", "rows"]);
    let made = get(&app, "/api/variant?family=connect4&columns=5&rows=4")
        .await
        .json();
    assert_eq!(made, json!({"family": "connect4", "spec": "connect4[5x4]"}));
    let made = get(&app, "/api/variant?family=kalah&seeds=2").await.json();
    assert_eq!(made["spec"], "kalah[3,2]");
    let made = get(&app, "/api/variant?family=octal&code=0.07&heap=9")
        .await
        .json();
    assert_eq!(made["spec"], "octal[0.07](9)");
    // A value not offered, a name that is no option, a family with none, a combination
    // the family refuses: 400 with the reason.
    let a = get(&app, "/api/variant?family=connect4&columns=70").await;
    refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "`70` is not a choice of columns: 3, 4",
    );
    let a = get(&app, "/api/variant?family=connect4&depth=2").await;
    refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "no option `depth`: the options are columns, rows",
    );
    let a = get(&app, "/api/variant?family=tictactoe").await;
    refused(&a, StatusCode::BAD_REQUEST, "bad-request", "has no options");
    let a = get(&app, "/api/variant?family=nosuch%3Cb%3E").await;
    refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "no family `nosuch<b>`",
    );
    let a = get(&app, "/api/variant?family=mnk&m=2&n=2&k=4").await;
    refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "k is at most the longer side",
    );
    let a = get(&app, "/api/variant?columns=4").await;
    refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "missing the query parameter `family`",
    );
}

#[tokio::test]
async fn the_objectives_come_from_the_library_not_the_page() {
    use grundy::graph::answer::Goal;
    use grundy::graph::Format;
    let app = app();
    let v = get(&app, "/api/catalog").await.json();
    // Every goal the library knows, in its order, with its words: a goal added there is
    // offered here with no change to the page.
    let listed: Vec<(String, String)> = v["objectives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().into(),
                g["about"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = Goal::ALL
        .iter()
        .map(|g| (g.name().into(), g.about().into()))
        .collect();
    assert_eq!(listed, want);
    let defaults = v["default_objectives"].as_array().unwrap();
    assert_eq!(defaults.len(), Format::ALL.len());
    for (d, format) in defaults.iter().zip(Format::ALL) {
        assert_eq!(d["format"], format.name());
        assert_eq!(d["objective"], Goal::of_format(format).name());
    }
    // The page lists none by hand: the script fills the list from the catalog.
    let page = get(&app, "/").await.text;
    for goal in Goal::ALL {
        assert!(
            !page.contains(&format!("value=\"{}\"", goal.name())),
            "the page names the objective {goal} by hand"
        );
    }
}

#[tokio::test]
async fn solve_answers_the_command_lines_json() {
    let a = solve(&app(), "nim(3,4,5)").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let v = a.json();
    // The same JSON as `grundy solve --json` (the library's serialization), plus the
    // heaps the page draws: the picture, and each move's cell; and the family's name in
    // the registry (for the options panel).
    let spec = "nim(3,4,5)".parse().unwrap();
    let expected =
        serde_json::to_value(grundy::report::solve(&spec, &Default::default()).unwrap()).unwrap();
    let mut plain = v.clone();
    assert_eq!(plain["picture"]["look"], "heaps");
    plain.as_object_mut().unwrap().remove("picture");
    assert_eq!(
        plain.as_object_mut().unwrap().remove("family"),
        Some(json!("nim"))
    );
    for m in plain["moves"].as_array_mut().unwrap() {
        assert!(m["cell"].is_array(), "{m}");
        m.as_object_mut().unwrap().remove("cell");
    }
    assert_eq!(plain, expected);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["winning_moves"], json!(["nim(1,4,5)"]));
    assert_eq!(
        v["components"],
        json!([{"spec": "nim(3)", "grundy": 3}, {"spec": "nim(4)", "grundy": 4}, {"spec": "nim(5)", "grundy": 5}])
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 12);
    let winning: Vec<&Value> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["outcome"] == "win")
        .collect();
    assert_eq!(winning.len(), 1);
    assert_eq!(winning[0]["grundy"], 0);
    assert!(winning[0]["remoteness"].is_u64());
}

#[tokio::test]
async fn solve_handles_sums_huge_heaps_and_score_games() {
    let app = app();
    let v = solve(&app, "nim(3) + octal[0.77](12) + multiple[2](10)")
        .await
        .json();
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["method"], "retrograde");
    let v = solve(&app, "nim(10^18,12345,7)").await.json();
    assert_eq!(v["method"], "sprague-grundy");
    assert_eq!(v["remoteness"], Value::Null);
    assert_eq!(v["winning_moves"], json!(["nim(12350,12345,7)"]));
    let v = solve(&app, "ends(4,7,2,9,5,2)").await.json();
    assert_eq!(v["scores"], json!([18, 11]));
}

/// A board too large to explore is searched exactly, with remoteness (Pons' test set
/// L3_R1, first line: score −1), and asked again it is answered from the server's table.
#[tokio::test]
async fn connect_four_seven_by_six_is_searched_exactly() {
    let app = app();
    let spec = "connect4[7x6](2252576253462244111563365343671351441)";
    for _ in 0..2 {
        let v = solve(&app, spec).await.json();
        assert_eq!(v["method"], "search");
        assert_eq!(
            (&v["outcome"], &v["remoteness"]),
            (&json!("loss"), &json!(4))
        );
        assert_eq!(v["moves"][1]["remoteness"], 2);
        assert!(v.get("weak").is_none(), "{v}");
    }
}

#[tokio::test]
async fn bad_specs_are_400_with_line_and_column() {
    let app = app();
    let v = refused(
        &solve(&app, "nim(3,,1)").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "bad spec at line 1, column 7: expected a number, found `,`",
    );
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(1), json!(7))
    );
    refused(
        &solve(&app, "nmi(3)").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "did you mean `nim`?",
    );
    refused(
        &solve(&app, "nim(3").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "line 1",
    );
    refused(
        &solve(&app, "   ").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "give a spec",
    );
    refused(
        &get(&app, "/api/solve").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "`spec`",
    );
    let long = format!("nim({})", vec!["1"; 6000].join(","));
    refused(
        &solve(&app, &long).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "at most 10000",
    );
    refused(
        &solve(&app, "ends(1) + nim(2)").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported",
        "score game",
    );
}

#[tokio::test]
async fn a_spec_with_markup_comes_back_as_json_text() {
    let app = app();
    let spec = "<script>alert(1)</script>";
    let a = solve(&app, spec).await;
    let v = refused(
        &a,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "bad spec at line 1, column 1",
    );
    assert!(!a.content_type.contains("html"));
    assert_eq!(a.headers["x-content-type-options"], "nosniff");
    // Whatever of the spec the message quotes, it is a JSON string, not markup.
    assert!(v["error"].is_string());
    let a = solve(&app, "nim(1) + </script><img src=x onerror=alert(1)>").await;
    refused(&a, StatusCode::BAD_REQUEST, "bad-spec", "column 10");
    let a = graph(
        &app,
        &format!("name={}", encode("<b>x</b>.txt")),
        "2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n",
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.content_type.starts_with("application/json"));
    assert_eq!(a.json()["name"], "<b>x</b>.txt");
}

#[tokio::test]
async fn oversized_requests_are_refused_as_too_large() {
    let small = router(Config {
        max_positions: 1_000,
        ..Config::default()
    });
    // 0.6 shows no period within the heaps grundy computed (`octal::UNPROVED`): refused
    // at once under this budget, and the table is refused.
    let short_proofs = router(Config {
        max_proof_heaps: 20_000,
        ..Config::default()
    });
    refused(
        &solve(&short_proofs, "octal[0.6](10^12)").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "too large",
    );
    let row = (1..=100)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    refused(
        &solve(&small, &format!("ends({row})")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "too large: up to 5151 positions (limit 1000)",
    );
    let little_work = router(Config {
        max_positions: 1_000,
        max_work: 100_000,
        ..Config::default()
    });
    refused(
        &solve(&little_work, "octal[0.6](60000)").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "cannot solve `octal[0.6](60000)`: too large: no formula is known here",
    );
    // Small requests still pass under the small limit.
    assert_eq!(solve(&small, "nim(3,4,5)").await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_request_past_the_time_limit_is_stopped() {
    let app = router(Config {
        timeout: Duration::from_millis(200),
        ..Config::default()
    });
    let start = Instant::now();
    refused(
        &solve(&app, "subtraction[1,2,3](1000,1000)").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "timeout",
        "time limit of 0.2 s",
    );
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_request_does_not_block_the_others() {
    let app = app();
    let slow = {
        let app = app.clone();
        tokio::spawn(async move { solve(&app, "subtraction[1,2,3](1000,1000)").await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let start = Instant::now();
    let fast: Vec<Answer> = futures_join(&app).await;
    assert!(fast.iter().all(|a| a.status == StatusCode::OK));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(
        !slow.is_finished(),
        "the slow request should still be running"
    );
    let slow = slow.await.unwrap();
    assert_eq!(slow.status, StatusCode::OK, "{}", slow.text);
    assert_eq!(slow.json()["method"], "retrograde");
}

/// Several quick requests at once.
async fn futures_join(app: &Router) -> Vec<Answer> {
    let mut handles = Vec::new();
    for spec in [
        "nim(3,4,5)",
        "multiple[2](8)",
        "kayles(3,9)",
        "wythoff(3,5)",
    ] {
        let app = app.clone();
        handles.push(tokio::spawn(async move { solve(&app, spec).await }));
    }
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn tables_mirror_the_command_line_with_a_place_for_the_rule() {
    let app = app();
    let a = get(&app, "/api/table?family=multiple[2]&up_to=30").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let v = a.json();
    assert_eq!(v["family"], "multiple[2]");
    assert_eq!(
        v["grundy"],
        json!([
            0, 0, 0, 0, 3, 0, 4, 4, 0, 5, 5, 5, 6, 0, 6, 6, 7, 7, 7, 7, 7, 0, 8, 8, 8, 8, 8, 8, 8,
            8, 8
        ])
    );
    assert_eq!(v["outcome"][8], "loss");
    // The rule the special method found for the family, as `grundy pattern --json`.
    assert_eq!(v["rule"]["kind"], "recurrence");
    assert_eq!(v["rule"]["proved"], true);
    assert_eq!(
        v["rule"]["p_positions"].as_array().unwrap()[..5],
        [1, 2, 3, 5, 8]
    );
    let v = get(&app, "/api/table?family=octal%5B0.77%5D").await.json();
    assert_eq!(
        v["grundy"].as_array().unwrap().len(),
        31,
        "up_to defaults to 30"
    );
    assert!(
        v["rule"].is_null() || v["rule"]["rule"].is_string(),
        "a place for the rule"
    );

    refused(
        &get(&app, "/api/table").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "`family`",
    );
    refused(
        &get(&app, "/api/table?family=nim&up_to=ten").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "whole number",
    );
    refused(
        &get(&app, "/api/table?family=nim&up_to=-1").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "whole number",
    );
    refused(
        &get(&app, "/api/table?family=nim(3)").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "without a position",
    );
    refused(
        &get(&app, "/api/table?family=octal%5B0.8%5D").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "line 1",
    );
    refused(
        &get(&app, "/api/table?family=wythoff").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported",
        "not a one-parameter family",
    );
    refused(
        &get(&app, "/api/table?family=nim&up_to=100001").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "tables and patterns go up to 100000 here",
    );
    refused(
        &get(&app, "/api/table?family=multiple%5B2%5D&up_to=100000").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "too large",
    );
}

#[tokio::test]
async fn patterns_mirror_the_command_line() {
    let app = app();
    let v = get(&app, "/api/pattern?family=multiple%5B2%5D")
        .await
        .json();
    assert_eq!(v["kind"], "recurrence");
    assert_eq!(v["checked_up_to"], 2000);
    assert!(v["theorem"].as_str().unwrap().contains("Zeckendorf"));
    let v = get(&app, "/api/pattern?family=bounded-nim%5B3%5D&up_to=20")
        .await
        .json();
    assert_eq!(
        (v["period"].clone(), v["rule"].clone()),
        (json!(4), json!("G(n) = n mod 4"))
    );
    assert_eq!(
        get(&app, "/api/pattern?family=wythoff&up_to=100")
            .await
            .json()["kind"],
        "beatty"
    );
    refused(
        &get(&app, "/api/pattern?family=ends").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported",
        "no pattern for `ends`",
    );
    refused(
        &get(&app, "/api/pattern").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "`family`",
    );
    refused(
        &get(&app, "/api/pattern?family=nim&up_to=1e9").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "whole number",
    );
    refused(
        &get(&app, "/api/pattern?family=nim&up_to=1000000").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "too large",
    );
}

#[tokio::test]
async fn explore_gives_the_report_and_the_tables_of_one_heap_families() {
    let app = app();
    let v = get(&app, "/api/explore?spec=nim(3,4,5)").await.json();
    assert_eq!(v["report"]["grundy"], 2);
    assert_eq!(v["tables"].as_array().unwrap().len(), 1);
    assert_eq!(v["tables"][0]["family"], "nim");
    assert_eq!(v["tables"][0]["up_to"], 30);
    assert_eq!(v["tables"][0]["rule"]["theorem"], "Bouton (1901)");
    let spec = encode("octal[0.77](12) + multiple[2](50) + wythoff(3,5) + nim(1000)");
    let v = get(&app, &format!("/api/explore?spec={spec}")).await.json();
    let families: Vec<(&str, u64)> = v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["family"].as_str().unwrap(), t["up_to"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        families,
        [("octal[0.77]", 30), ("multiple[2]", 50), ("nim", 100)]
    );
    let v = get(&app, "/api/explore?spec=ends(1,2,3)").await.json();
    assert_eq!(v["tables"], json!([]));
    refused(
        &get(&app, "/api/explore?spec=nim(").await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "line 1, column 5",
    );
}

// ---------------------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_engine_replies_and_says_why() {
    let app = app();
    // As in the README's `grundy play 'multiple[2](8)'`.
    let v = play(
        &app,
        json!({"spec": "multiple[2](8)", "move": "multiple[2](7,2)"}),
    )
    .await
    .json();
    assert_eq!(v["position"], "multiple[2](7,2)");
    assert_eq!(v["your_move"]["outcome"], "loss");
    assert_eq!(v["best_move"], "multiple[2](5)");
    assert_eq!(
        v["explanation"],
        "leaves Grundy value 0: you lose, in 4 more moves at most"
    );
    assert_eq!(v["next"]["spec"], "multiple[2](5)");
    assert_eq!(v["next"]["outcome"], "loss");
    assert_eq!(v["over"], false);
    assert_eq!(v["winner"], Value::Null);
    // The engine moves first.
    let v = play(&app, json!({"spec": "nim(3,4,5)"})).await.json();
    assert_eq!(v["best_move"], "nim(1,4,5)");
    assert!(v.get("your_move").is_none());
}

/// Plays a whole game through the API: the human takes `pick` of each report.
async fn whole_game(app: &Router, start: &str, pick: impl Fn(&Value) -> String) -> Value {
    let mut report = solve(app, start).await.json();
    for _ in 0..100 {
        let to = pick(&report);
        let a = play(app, json!({"spec": report["spec"], "move": to})).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let v = a.json();
        if let Some(best) = v["best_move"].as_str() {
            // The engine's move is the perfect one: its fastest win, else its slowest loss.
            let moves = v["report"]["moves"].as_array().unwrap();
            let chosen = moves.iter().find(|m| m["spec"] == best).unwrap();
            let key = |m: &Value| {
                let r = m["remoteness"].as_i64().unwrap();
                if m["outcome"] == "win" {
                    1_000 - r
                } else {
                    r - 1_000
                }
            };
            assert_eq!(key(chosen), moves.iter().map(key).max().unwrap(), "{v}");
        }
        if v["over"] == true {
            return v;
        }
        report = v["next"].clone();
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_whole_game_of_fibonacci_nim_is_lost_and_a_won_one_is_won() {
    let app = app();
    let first = |r: &Value| r["moves"][0]["spec"].as_str().unwrap().to_string();
    let v = whole_game(&app, "multiple[2](8)", first).await;
    assert_eq!(v["winner"], "grundy");
    assert_eq!(v["message"], "you cannot move and lose: grundy wins.");
    assert_eq!(v["next"]["moves"], json!([]));

    let winning = |r: &Value| r["winning_moves"][0].as_str().unwrap().to_string();
    let v = whole_game(&app, "multiple[2](10)", winning).await;
    assert_eq!(v["winner"], "you");
    assert_eq!(v["message"], "grundy cannot move and loses: you win.");
    assert_eq!(v["best_move"], Value::Null);
}

#[tokio::test]
async fn score_games_keep_the_points() {
    let app = app();
    let v = play(&app, json!({"spec": "ends(1,5)", "move": "ends(5)"}))
        .await
        .json();
    assert_eq!(v["best_move"], "ends()");
    assert_eq!(v["taken"], json!([1, 5]));
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "grundy");
    assert_eq!(v["message"], "final scores: you 1, grundy 5: grundy wins.");
    let v = play(
        &app,
        json!({"spec": "ends(4,7,2)", "move": "ends(4,7)", "taken": [10, 0]}),
    )
    .await
    .json();
    assert_eq!(v["best_move"], "ends(4)");
    assert_eq!(v["taken"], json!([12, 7]));
    assert_eq!(v["over"], false);
}

#[tokio::test]
async fn bad_moves_and_bodies_are_400() {
    let app = app();
    refused(
        &play(&app, json!({"spec": "nim(3,4,5)", "move": "nim(3,4,6)"})).await,
        StatusCode::BAD_REQUEST,
        "bad-move",
        "`nim(3,4,6)` is not one move from `nim(3,4,5)`",
    );
    refused(
        &play(&app, json!({"spec": "nim(3,4,5)", "move": "nim(3,4,5)"})).await,
        StatusCode::BAD_REQUEST,
        "bad-move",
        "is not one move",
    );
    let v = refused(
        &play(&app, json!({"spec": "nim(3,4,5)", "move": "nim(3,,4)"})).await,
        StatusCode::BAD_REQUEST,
        "bad-move",
        "not a move: bad spec at line 1, column 7",
    );
    assert_eq!(v["column"], 7);
    refused(
        &play(&app, json!({"spec": "nim(3"})).await,
        StatusCode::BAD_REQUEST,
        "bad-spec",
        "line 1",
    );
    refused(
        &play(&app, json!({"move": "nim(3)"})).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "missing field `spec`",
    );
    refused(
        &play(&app, json!({"spec": "nim(3)", "colour": 1})).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "unknown field `colour`",
    );
    let v = refused(
        &post(&app, "/api/play", "{\"spec\": ").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "must be JSON",
    );
    assert_eq!(v["line"], 1);
    refused(
        &post(&app, "/api/play", vec![0xff, 0xfe]).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "must be JSON",
    );
    refused(
        &play(
            &app,
            json!({"spec": "ends(9223372036854775807,1)", "move": "ends(1)", "taken": [1, 0]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported",
        "64 bits",
    );
}

#[tokio::test]
async fn a_finished_position_is_reported_over() {
    let app = app();
    let v = play(&app, json!({"spec": "nim(1)", "move": "nim(0)"}))
        .await
        .json();
    assert_eq!(
        (v["over"].clone(), v["winner"].clone()),
        (json!(true), json!("you"))
    );
    let v = play(&app, json!({"spec": "nim(0)"})).await.json();
    assert_eq!(v["winner"], "you", "grundy to move without a move loses");
}

// ---------------------------------------------------------------------------------------
// Graph games
// ---------------------------------------------------------------------------------------

const GREEN: &str = "2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n";

#[tokio::test]
async fn a_green_game_is_solved_and_drawn() {
    let a = graph(&app(), "name=green.txt", GREEN).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let v = a.json();
    assert_eq!(v["format"], "poi");
    assert_eq!(v["objective"], "buchi");
    assert_eq!(v["players"], json!(["Ann", "Billy"]));
    assert_eq!(
        (v["vertices"].clone(), v["edges"].clone()),
        (json!(3), json!(5))
    );
    // Billy loops on field 3 forever: Ann wins from 1 and 2 only (the CLI's JSON fields).
    assert_eq!(v["won_by_0"], json!([1, 2]));
    assert_eq!(v["won_by_1"], json!([3]));
    assert_eq!(v["counts"], json!([2, 1]));
    assert_eq!(v["strategy"], json!([[1, 2], [2, 1], [3, 3]]));
    assert_eq!(v["solution"], "2\n1\n2\n1 -> 2\n2 -> 1\n3 -> 3\n");
    assert_eq!(v["verified"], true);
    assert_eq!(v["solution_name"], "green.txt.sol");
    let arena = &v["arena"];
    assert_eq!(
        arena["vertices"][1],
        json!({"file_id": 2, "owner": 0, "priority": 2, "accepting": true, "winner": 0})
    );
    assert_eq!(arena["edges"].as_array().unwrap().len(), 5);
    assert_eq!(
        arena["edges"][0],
        json!({"from_index": 0, "to_index": 1, "strategy": true})
    );
}

#[tokio::test]
async fn gzipped_uploads_are_read_and_bombs_refused() {
    use flate2::write::GzEncoder;
    let gz = |text: &[u8]| {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let v = graph(&app(), "name=green.txt.gz", gz(GREEN.as_bytes()))
        .await
        .json();
    assert_eq!(v["won_by_0"], json!([1, 2]));
    let small = router(Config {
        max_body: 10_000,
        ..Config::default()
    });
    let bomb = gz(&vec![b' '; 1_000_000]);
    assert!(bomb.len() < 10_000);
    refused(
        &graph(&small, "name=bomb.gz", bomb).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too-large",
        "inflates to more than",
    );
    refused(
        &graph(&small, "", vec![b' '; 20_000]).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too-large",
        "request body",
    );
    refused(
        &graph(&app(), "name=x.gz", vec![0x1f, 0x8b, 1, 2, 3]).await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "cannot gunzip x.gz",
    );
}

#[tokio::test]
async fn bad_graph_files_are_400_with_line_and_column() {
    let app = app();
    let v = refused(
        &graph(&app, "name=g.txt", "2 1\n0 2 2 3\n1 1 9\n0 2 3 1\n").await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "g.txt, line 3, column 5: ",
    );
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(3), json!(5))
    );
    refused(
        &graph(&app, "", "").await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "pasted text is empty",
    );
    refused(
        &graph(&app, "name=b.bin", vec![b'1', b'\n', 0xff]).await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "not UTF-8 text: invalid byte at line 2",
    );
    refused(
        &graph(&app, "format=xml", GREEN).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "unknown format `xml`",
    );
    refused(
        &graph(&app, "objective=win", GREEN).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "unknown objective `win`",
    );
}

/// Bad queries and files the graph endpoint meets: each a 4xx of its kind with the
/// reason, never a 500, and a limit refused names what lifts it.
#[tokio::test]
async fn the_graph_endpoint_refuses_bad_input_with_the_reason() {
    let app = app();
    refused(
        &graph(&app, "algorithm=quantum", GREEN).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "quantum",
    );
    // A digraph whose header alone asks for a billion vertices: refused before anything
    // is allocated, naming the server's knob.
    refused(
        &graph(&app, "name=huge.txt", "1000000000 1\n0 1\n").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "grundy serve --max-positions N",
    );
    // Bytes that claim to be gzip and are not.
    refused(
        &graph(&app, "name=g.gz", vec![0x1f, 0x8b, 0, 1, 2, 3]).await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "cannot gunzip",
    );
    // A PGSolver arena asked for a token game's question it cannot answer, and an edge
    // to a vertex the file never declares.
    let a = graph(&app, "format=pgsolver", "parity 1;\n0 0 0 1;\n1 1 1 0;\n").await;
    assert!(
        a.status.is_success() || a.status.is_client_error(),
        "{}",
        a.text
    );
    refused(
        &graph(&app, "format=pgsolver", "parity 1;\n0 0 0 7;\n").await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "line",
    );
    // A format that does not match the text.
    refused(
        &graph(&app, "format=poi", "3 2\n0 1\n1 2\n").await,
        StatusCode::BAD_REQUEST,
        "bad-file",
        "(read as poi)",
    );
    // Nothing of it is a 500, and the server answers the next request.
    assert_eq!(solve(&app, "nim(3,4,5)").await.status, StatusCode::OK);
}

#[tokio::test]
async fn token_games_on_digraphs() {
    let app = app();
    let v = graph(&app, "name=path.txt", "3 2\n0 1\n1 2\n").await.json();
    assert_eq!(v["format"], "digraph");
    assert_eq!(v["objective"], "token");
    assert_eq!(v["outcome"], json!(["loss", "win", "loss"]));
    assert_eq!(v["remoteness"], json!([2, 1, 0]));
    assert_eq!(v["grundy"], json!([0, 1, 0]));
    assert_eq!(v["counts"], json!({"win": 1, "loss": 2, "draw": 0}));
    assert_eq!(v["file_ids"], json!([0, 1, 2]));
    // Each drawn vertex carries its outcome, remoteness and generalised Grundy value.
    assert_eq!(
        v["arena"]["vertices"][1],
        json!({"file_id": 1, "outcome": "win", "remoteness": 1, "grundy": 1})
    );
    // A token game on a green-game file: the ids are the file's fields, from 1.
    let v = graph(&app, "objective=token", GREEN).await.json();
    let ids: Vec<u64> = (1..=v["vertices"].as_u64().unwrap()).collect();
    assert_eq!(v["file_ids"], json!(ids));
    assert_eq!(v["arena"]["vertices"][0]["file_id"], 1);
    for key in ["outcome", "remoteness", "grundy"] {
        assert_eq!(v[key].as_array().unwrap().len(), ids.len(), "{key}");
    }
    // A loop is a draw, with an infinite Grundy value.
    let v = graph(&app, "", "2 2\n0 1\n1 0\n").await.json();
    assert_eq!(v["outcome"], json!(["draw", "draw"]));
    assert_eq!(v["grundy"], json!(["inf{}", "inf{}"]));
    assert_eq!(
        v["arena"]["vertices"][0],
        json!({"file_id": 0, "outcome": "draw", "remoteness": null, "grundy": "inf{}"})
    );
    refused(
        &graph(&app, "", "100000000 0\n").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too-large",
        "declares 100000000 vertices",
    );
    refused(
        &graph(&app, "objective=buchi", "3 2\n0 1\n1 2\n").await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "only the objective token",
    );
}

const PG: &str = "parity 2;\n0 2 0 1;\n1 1 1 0,2;\n2 3 1 2;\n";

#[tokio::test]
async fn pgsolver_arenas_by_parity_and_by_objectives() {
    let app = app();
    // Parity (the default for PGSolver): 2 loops on odd 3, and player 1 reaches it from 1.
    let v = graph(&app, "name=g.pg", PG).await.json();
    assert_eq!(v["objective"], "parity");
    assert_eq!(v["won_by_0"], json!([]));
    assert_eq!(v["won_by_1"], json!([0, 1, 2]));
    assert_eq!(v["verified"], true);
    assert_eq!(v["solution"], "paritysol 2;\n0 1;\n1 1 2;\n2 1 2;\n");
    assert_eq!(v["solution_name"], "g.pg.sol");
    // A green game read as a parity game (green 2, white 1) agrees with Büchi.
    let buchi = graph(&app, "", GREEN).await.json();
    let parity = graph(&app, "objective=parity", GREEN).await.json();
    assert_eq!(parity["won_by_0"], buchi["won_by_0"]);
    let v = graph(&app, "name=g.pg&objective=reach", PG).await.json();
    assert_eq!(v["format"], "pgsolver");
    assert_eq!(v["players"], json!(["player 0", "player 1"]));
    // F = the even priorities = {0}: vertex 0 is in F; player 1 at 1 escapes to 2's loop.
    assert_eq!(v["won_by_0"], json!([0]));
    assert_eq!(v["won_by_1"], json!([1, 2]));
    assert!(v["solution"]
        .as_str()
        .unwrap()
        .starts_with("paritysol 2;\n"));
    let v = graph(&app, "objective=buchi&format=pgsolver", PG)
        .await
        .json();
    assert_eq!(v["objective"], "buchi");
    // Every parity algorithm the command line offers, by its name there; the regions agree.
    for algorithm in ["tangle", "zielonka", "fpj"] {
        let v = graph(&app, &format!("name=g.pg&algorithm={algorithm}"), PG)
            .await
            .json();
        assert_eq!(v["won_by_1"], json!([0, 1, 2]), "{algorithm}");
        assert_eq!(v["verified"], true, "{algorithm}");
    }
    refused(
        &graph(&app, "algorithm=quick", PG).await,
        StatusCode::BAD_REQUEST,
        "bad-request",
        "unknown parity algorithm",
    );
}

#[tokio::test]
async fn large_arenas_get_counts_and_a_download_not_a_drawing() {
    // 200 fields in a ring: Ann's 1..=100, Billy's 101..=200, field 1 green.
    let mut text = String::from("100 100\n");
    for i in 1..=200 {
        text.push_str(&format!("{} 1 {}\n", u8::from(i == 1), i % 200 + 1));
    }
    let v = graph(&app(), "name=ring.txt", text).await.json();
    assert_eq!(v["vertices"], 200);
    assert!(v.get("arena").is_none());
    assert!(v["not_drawn"]
        .as_str()
        .unwrap()
        .contains("too many to draw"));
    assert_eq!(v["counts"], json!([200, 0]));
    assert_eq!(v["solution"].as_str().unwrap().lines().next(), Some("200"));
}

// ---------------------------------------------------------------------------------------
// A real server
// ---------------------------------------------------------------------------------------

static STOP: AtomicBool = AtomicBool::new(false);

#[test]
fn serve_listens_on_a_port_the_system_picks_and_stops() {
    let (tx, rx) = std::sync::mpsc::channel();
    let server = std::thread::spawn(move || {
        grundy_web::serve(0, Config::default(), Some(&STOP), move |addr| {
            tx.send(addr).unwrap();
        })
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("an address");
    assert!(addr.ip().is_loopback());
    assert_ne!(addr.port(), 0);
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/solve?spec=nim(3,4,5) HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(
        response.contains("\"winning_moves\":[\"nim(1,4,5)\"]"),
        "{response}"
    );
    // Over the wire too: a request that names no host, or a host that only starts like
    // this one, is refused with the JSON error.
    for head in [
        "GET /api/catalog HTTP/1.0\r\n".to_string(),
        format!(
            "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1:{}.evil.com\r\nConnection: close\r\n",
            addr.port()
        ),
    ] {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "{head}\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(
            response.contains(" 403 Forbidden\r\n"),
            "{head}: {response}"
        );
        assert!(response.contains("\"kind\":\"bad-host\""), "{response}");
    }
    STOP.store(true, Ordering::SeqCst);
    server.join().unwrap().unwrap();
}

/// Explore sends a position's value beside its report when a part is partizan and every
/// part has a value, with the thermograph as SVG; impartial positions and families
/// without values send `null`.
#[tokio::test]
async fn explore_sends_the_value_of_a_partizan_position() {
    let app = app();
    let a = get(
        &app,
        &format!("/api/explore?spec={}", encode("domineering[2x3]")),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let v = a.json();
    assert_eq!(v["value"]["value"], "{2|-1/2}");
    assert_eq!(v["value"]["mean"], "3/4");
    assert_eq!(v["value"]["temperature"], "5/4");
    match v["value"]["thermograph_svg"].as_str() {
        Some(svg) => assert!(
            svg.contains("<svg") && svg.contains("temperature 5/4"),
            "{svg}"
        ),
        None => assert!(v["value"]["thermograph_svg"].is_null()),
    }
    for spec in ["nim(3)", "connect4[4x4]"] {
        let a = get(&app, &format!("/api/explore?spec={}", encode(spec))).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert!(a.json()["value"].is_null(), "{spec}: {}", a.text);
    }
    // A sum is solved by its parts' values, valued once for both: the report is
    // `/api/solve`'s and the value `/api/value`'s.
    let sum = encode("domineering[2x3] + domineering[3x2] + nim(1)");
    let explored = get(&app, &format!("/api/explore?spec={sum}")).await;
    assert_eq!(explored.status, StatusCode::OK, "{}", explored.text);
    let mut explored = explored.json();
    let solved = get(&app, &format!("/api/solve?spec={sum}")).await.json();
    let mut valued = get(&app, &format!("/api/value?spec={sum}")).await.json();
    assert_eq!(explored["report"], solved);
    assert_eq!(explored["report"]["method"], "values");
    // The table Explore valued in also holds the moves' sums: more forms.
    let forms = explored["value"]["forms"].take();
    assert!(forms.as_u64() > valued["forms"].take().as_u64(), "{forms}");
    assert_eq!(explored["value"], valued);
    assert_eq!(explored["value"]["value"], "*");
}

/// `/api/value`: `grundy value --json` — a sum's value from its parts; a family without
/// values refused by name; a valuation past the time limit stopped.
#[tokio::test]
async fn values_are_the_command_lines_and_bounded_in_time() {
    let app = app();
    let a = get(
        &app,
        &format!(
            "/api/value?spec={}",
            encode("domineering[2x3] + domineering[3x2] + nim(1)")
        ),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let v = a.json();
    assert_eq!(v["value"], "*");
    assert_eq!(v["class"], "N");
    // * is infinitesimal: it reduces to 0, and as a nimber its weight (0) is not said.
    assert_eq!(v["reduced_canonical_form"], "0");
    assert!(v.get("atomic_weight").is_none(), "{v}");
    assert_eq!(v["parts"][0]["value"], "{2|-1/2}");
    refused(
        &get(&app, "/api/value?spec=kalah%5B3%2C2%5D").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported",
        "domineering",
    );
    let quick = router(Config {
        timeout: Duration::from_millis(200),
        ..Config::default()
    });
    let start = Instant::now();
    refused(
        &get(&quick, "/api/value?spec=domineering%5B6x6%5D").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "timeout",
        "time limit of 0.2 s",
    );
    assert!(start.elapsed() < Duration::from_secs(2));
}
