//! A request stopped by the time limit stops its computation too, not only its answer:
//! after the `timeout` refusal the process's CPU time stands still. Its own test binary,
//! so that no other test's work is counted.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use grundy_web::{router, Config};
use http_body_util::BodyExt as _;
use tower::ServiceExt as _;

/// The CPU time this process has used, user and system, from `/proc/self/stat` (clock
/// ticks of 10 ms).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime are the 14th
    // and 15th of the whole line, the 12th and 13th after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Requests whose computation runs for far longer than the limit, each through another
/// long loop: an exploration and its labelling, the exact search, the engine's reply in
/// play, a Grundy table, a pattern's period search.
const LONG: &[(&str, &str)] = &[
    (
        "GET",
        "/api/solve?spec=subtraction%5B1%2C2%2C3%5D(1000%2C1000)",
    ),
    ("GET", "/api/solve?spec=connect4%5B7x6%5D"),
    ("POST", "/api/play"),
    ("GET", "/api/table?family=octal%5B0.6%5D&up_to=100000"),
    ("GET", "/api/pattern?family=octal%5B0.6%5D&up_to=100000"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_request_stops_computing() {
    if cpu_time().is_none() {
        eprintln!("skipped: no /proc/self/stat to read the CPU time from");
        return;
    }
    let app = router(Config {
        timeout: Duration::from_millis(300),
        ..Config::default()
    });
    for &(method, uri) in LONG {
        let body = if method == "POST" {
            Body::from(r#"{"spec": "connect4[7x6]"}"#)
        } else {
            Body::empty()
        };
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, "127.0.0.1:8080")
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .unwrap();
        let start = Instant::now();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let text = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&text);
        if status == StatusCode::OK {
            // Answered within the limit after all (a faster machine): nothing to stop.
            eprintln!("{uri}: answered in {:?}", start.elapsed());
            continue;
        }
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{uri}: {text}");
        assert!(text.contains("\"timeout\""), "{uri}: {text}");
        // The loop notices the flag at its next check; then nothing more is computed.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let before = cpu_time().unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
        let spent = cpu_time().unwrap() - before;
        assert!(
            spent < Duration::from_millis(250),
            "{uri}: {spent:?} of CPU in the second after its timeout: the computation goes on"
        );
    }
}
