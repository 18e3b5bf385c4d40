//! The server outlives every request: a real server on a port the system picks is sent
//! the requests that used to take it down or hold it for minutes (a Nim heap of 10^8, a
//! row of 1000 numbers, Wythoff's game on 10^4 × 10^4, a huge octal code), each answered
//! or refused with a 4xx and a kind within seconds; then a normal request, answered.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use grundy_web::Config;
use serde_json::Value;

static STOP: AtomicBool = AtomicBool::new(false);

/// The most one request may take here (the server's own time budget is shorter).
const DEADLINE: Duration = Duration::from_secs(15);

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

/// The status and the JSON body of `GET path`, or why there was none.
fn get(addr: SocketAddr, path: &str) -> Result<(u16, Value), String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .map_err(|e| format!("write: {e}"))?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|e| format!("read: {e}"))?;
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status line: {response:?}"))?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .ok_or("no body")?;
    let json = serde_json::from_str(body).map_err(|e| format!("not JSON ({e}): {body}"))?;
    Ok((status, json))
}

#[test]
fn bad_requests_are_answered_or_refused_and_the_next_is_answered() {
    let (tx, rx) = std::sync::mpsc::channel();
    let config = Config {
        timeout: Duration::from_secs(5),
        ..Config::default()
    };
    let server = std::thread::spawn(move || {
        grundy_web::serve(0, config, Some(&STOP), move |addr| {
            tx.send(addr).unwrap();
        })
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("an address");
    let row = (1..=1000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let octal = format!("octal[0.{}](100000000)", "7".repeat(2000));
    let bad = [
        format!("/api/solve?spec={}", encode("nim(100000000)")),
        format!("/api/explore?spec={}", encode("nim(100000000)")),
        format!("/api/solve?spec={}", encode("nim(10^7,10^7)")),
        format!("/api/solve?spec={}", encode(&format!("ends({row})"))),
        format!("/api/explore?spec={}", encode(&format!("ends({row})"))),
        format!("/api/solve?spec={}", encode("wythoff(10^4,10^4)")),
        format!("/api/solve?spec={}", encode(&octal)),
        format!("/api/solve?spec={}", encode("octal[0.77](10^12)")),
        format!("/api/table?family=nim&up_to={}", encode("10^12")),
    ];
    for path in &bad {
        let start = Instant::now();
        let (status, json) = get(addr, path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let took = start.elapsed();
        let shown: String = path.chars().take(80).collect();
        assert!(took < DEADLINE, "{shown}: {took:?}");
        match status {
            200 => assert!(json.get("error").is_none(), "{shown}: {json}"),
            400..=499 => {
                let kind = json["kind"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{shown}: {json}"));
                assert!(!kind.is_empty(), "{shown}: {json}");
                assert!(json["error"].as_str().is_some(), "{shown}: {json}");
            }
            _ => panic!("{shown}: {status} {json}"),
        }
        eprintln!("{shown}: {status} in {took:?}");
    }
    // What the issue reported: nim(10^8) took the server down; now its formula answers.
    let (status, json) = get(
        addr,
        &format!("/api/solve?spec={}", encode("nim(100000000)")),
    )
    .unwrap();
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["grundy"], 100_000_000u64, "{json}");
    let (status, json) = get(
        addr,
        &format!("/api/solve?spec={}", encode(&format!("ends({row})"))),
    )
    .unwrap();
    // A row of 1000 numbers: once refused, now solved on its 500 501 intervals.
    assert_eq!(status, 200, "{}", json["error"]);
    assert_eq!(json["scores"], serde_json::json!([250_500, 250_000]));
    // And the server is still there.
    let (status, json) = get(addr, "/api/solve?spec=nim(3,4,5)").unwrap();
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["winning_moves"], serde_json::json!(["nim(1,4,5)"]));
    assert_eq!(json["remoteness"], 11);
    STOP.store(true, Ordering::SeqCst);
    server.join().unwrap().unwrap();
}
