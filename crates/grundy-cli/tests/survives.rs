//! Nothing a user types takes grundy down, checked per class over the whole registry: for
//! every registered family (a family added later is covered with no change here), its
//! examples, random specs built from them, and adversarial ones — huge numbers, long
//! inputs, impossible positions, deep nesting — go through the library (this test binary,
//! run again as a child), the command line (`grundy solve|table|pattern`) and the web
//! server (`grundy serve`), each under a 1 GiB address-space limit. Each gets an answer or
//! a clean refusal (the library's `Err`, exit code 1 or 2 with a message, a 4xx with a
//! kind) within a few seconds: never a panic, an abort or a signal.
//!
//! The default run takes about a minute on two cores. A larger random sweep is
//! `GRUNDY_SWEEP=200 cargo test --release -p grundy-cli --test survives -- --ignored sweep_everything`
//! (`GRUNDY_SEED` picks other random specs).
#![cfg(target_os = "linux")]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use grundy::games::{registry, Spec};
use grundy::report::{self, Limits};

/// The address space every run gets, in KiB: 1 GiB.
const LIMIT_KIB: u64 = 1 << 20;

/// The most one spec may take in a test build on a busy machine (most take milliseconds).
const DEADLINE: Duration = Duration::from_secs(20);

/// What the issue calls "a few seconds": a slower answer is reported, not failed (the
/// machine is shared).
const FEW: Duration = Duration::from_secs(5);

/// Random specs per default run (beside the examples and the adversarial ones).
const RANDOM: usize = 6;

/// A small deterministic generator (SplitMix64), so a failure names a spec that fails
/// again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A number as a user might write one: small, round, huge, or past every integer type.
    fn number(&mut self) -> String {
        match self.below(8) {
            0 => self.below(4).to_string(),
            1 => self.below(30).to_string(),
            2 => self.below(1000).to_string(),
            3 => format!("10^{}", self.below(40)),
            4 => format!("2^{}", self.below(130)),
            5 => (self.next() >> self.below(64)).to_string(),
            6 => "1".repeat(1 + self.below(60)),
            _ => format!("{}", self.next() % 100_000),
        }
    }
}

/// `text` with every number inside the brackets `open`…`close` replaced by `with()`.
fn replace_numbers(
    text: &str,
    open: char,
    close: char,
    mut with: impl FnMut() -> String,
) -> String {
    let mut out = String::new();
    let mut inside = false;
    let mut in_number = false;
    for c in text.chars() {
        if c == open {
            inside = true;
        } else if c == close {
            inside = false;
        }
        if inside && c.is_ascii_digit() {
            if !in_number {
                out.push_str(&with());
                in_number = true;
            }
            continue;
        }
        in_number = false;
        out.push(c);
    }
    out
}

/// `text` with its position's characters (inside the parentheses) mixed: a random
/// character of the position put at random places, some dropped, some doubled — boards
/// that cannot arise, rows of the wrong length, counts that do not add up.
fn scramble(rng: &mut Rng, text: &str) -> String {
    let Some(open) = text.find('(') else {
        return text.to_string();
    };
    let (head, position) = text.split_at(open + 1);
    let mut chars: Vec<char> = position.trim_end_matches(')').chars().collect();
    if chars.is_empty() {
        return text.to_string();
    }
    let alphabet: Vec<char> = chars.clone();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len());
        match rng.below(3) {
            0 => chars[at] = *rng.pick(&alphabet),
            1 if chars.len() > 1 => {
                chars.remove(at);
            }
            _ => chars.insert(at, *rng.pick(&alphabet)),
        }
    }
    format!("{head}{})", chars.into_iter().collect::<String>())
}

/// The specs of every registered family: examples and small specs as they are; huge
/// numbers as the position, the parameters and both; random numbers and scrambled
/// positions; long positions; and a few specs of no family (deep nesting, long sums).
fn specs(seed: u64, random: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut specs = Vec::new();
    let huge = ["0", "10^9", "10^18", "10^40", "99999999999999999999999"];
    for entry in registry::entries() {
        let mut bases: Vec<String> = entry
            .examples
            .iter()
            .chain(entry.small)
            .map(|s| s.to_string())
            .collect();
        bases.push(entry.name.to_string());
        specs.extend(bases.iter().cloned());
        for h in huge {
            specs.push(format!("{}({h})", entry.name));
            specs.push(format!("{}({h},{h})", entry.name));
            let example = &bases[0];
            let position = replace_numbers(example, '(', ')', || h.to_string());
            // The position twice over: equal huge components.
            if let Some((head, inside)) = position.split_once('(') {
                let inside = inside.trim_end_matches(')');
                specs.push(format!("{head}({inside},{inside})"));
            }
            specs.push(position);
            let params = replace_numbers(example, '[', ']', || h.to_string());
            specs.push(params.clone());
            specs.push(replace_numbers(&params, '(', ')', || h.to_string()));
        }
        for _ in 0..random {
            let base = rng.pick(&bases).clone();
            let numbers = replace_numbers(&base, '[', ']', || rng.number());
            let numbers = replace_numbers(&numbers, '(', ')', || rng.number());
            specs.push(numbers);
            specs.push(scramble(&mut rng, &base));
        }
        // Long positions: 10 000 numbers, and a board written 200 times over.
        let row = (1..=10_000).map(|i| i.to_string()).collect::<Vec<_>>();
        specs.push(format!("{}({})", entry.name, row.join(",")));
        if let Some((head, position)) = bases[0].split_once('(') {
            let position = position.trim_end_matches(')');
            specs.push(format!("{head}({})", vec![position; 200].join("/")));
        }
        specs.push(format!("{}[{}]", entry.name, row[..2000].join(",")));
    }
    // No family: deep nesting, long sums, a huge code, noise.
    specs.push(format!("{}nim(1){}", "(".repeat(5000), ")".repeat(5000)));
    specs.push(format!("nim{}", "[".repeat(5000)));
    specs.push(format!("nim({})", "(".repeat(5000)));
    specs.push(vec!["nim(1)"; 5000].join("+"));
    specs.push(vec!["octal[0.77](30)"; 500].join(" + "));
    specs.push(format!("octal[0.{}](10^8)", "7".repeat(2000)));
    specs.push("x".repeat(40_000));
    for _ in 0..random {
        let noise: String = (0..1 + rng.below(40))
            .map(|_| *rng.pick(&"nim(),[]+x.o0123456789^e_ -/|".chars().collect::<Vec<_>>()))
            .collect();
        specs.push(noise);
    }
    specs.sort();
    specs.dedup();
    specs
}

/// The seed and the count of random specs: the default run's, or the environment's.
fn sweep() -> (u64, usize) {
    let seed = std::env::var("GRUNDY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24);
    let random = std::env::var("GRUNDY_SWEEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(RANDOM);
    (seed, random)
}

/// `program args…` under the address-space limit, its standard streams piped.
fn limited(program: &str, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits for `child` at most `deadline`, killing it past that: its status (`None` if
/// killed), standard output and error.
fn finish(mut child: Child, deadline: Duration) -> (Option<ExitStatus>, String, String) {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(mut stdout) = stdout {
            let _ = stdout.read_to_end(&mut s);
        }
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.read_to_end(&mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (status, text(out.join().unwrap()), text(err.join().unwrap()))
}

/// At most 100 characters of `text`, for messages.
fn cut(text: &str) -> String {
    let short: String = text.chars().take(100).collect();
    if short.len() < text.len() {
        format!("{short}… ({} bytes)", text.len())
    } else {
        short
    }
}

/// Why one run of the command line was not an answer or a clean refusal, if it was not.
fn judge(what: &str, status: Option<ExitStatus>, took: Duration, stderr: &str) -> Option<String> {
    let Some(status) = status else {
        return Some(format!("{what}: still running after {took:?}"));
    };
    match status.code() {
        Some(0) => None,
        Some(1 | 2) if stderr.contains("panicked") => {
            Some(format!("{what}: panicked: {}", cut(stderr)))
        }
        Some(1 | 2) if stderr.trim().is_empty() => Some(format!("{what}: refused with no message")),
        Some(1 | 2) => None,
        _ => Some(format!("{what}: {status}: {}", cut(stderr))),
    }
}

/// The child's side of [`library_under_the_limit`]: solves every spec of the file
/// `GRUNDY_SPECS` names with the default limits, one line a spec. Without it, nothing.
#[test]
#[ignore = "run by library_under_the_limit as a child"]
fn library_child() {
    let Ok(file) = std::env::var("GRUNDY_SPECS") else {
        return;
    };
    let text = std::fs::read_to_string(file).unwrap();
    let mut err = std::io::stderr();
    for spec in text.lines() {
        // Named before it runs: an abort leaves it as the last line.
        writeln!(err, "start {spec}").unwrap();
        let start = Instant::now();
        let answer = std::panic::catch_unwind(|| {
            spec.parse::<Spec>()
                .map(|s| report::solve(&s, &Limits::default()).map(|r| r.method))
        });
        let verdict = match answer {
            Ok(Err(_)) => "parse-error".to_string(),
            Ok(Ok(Ok(method))) => format!("{method:?}"),
            Ok(Ok(Err(e))) => format!("refused: {}", cut(&e.to_string())),
            Err(_) => "PANIC".to_string(),
        };
        writeln!(err, "done {:?} {verdict}", start.elapsed()).unwrap();
    }
}

/// The library: every spec through `report::solve`, in a child under the limit.
#[test]
fn library_under_the_limit() {
    let (seed, random) = sweep();
    library(seed, random);
}

fn library(seed: u64, random: usize) {
    let specs = specs(seed, random);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("specs");
    std::fs::write(&file, specs.join("\n")).unwrap();
    let me = std::env::current_exe().unwrap();
    let mut command = limited(
        me.to_str().unwrap(),
        &[
            "--exact",
            "library_child",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ],
    );
    command.env("GRUNDY_SPECS", &file);
    let started = Instant::now();
    let child = command.spawn().unwrap();
    let budget = DEADLINE * 4 + FEW * specs.len() as u32 / 10;
    let (status, _, stderr) = finish(child, budget);
    let mut failures = Vec::new();
    let mut last = "";
    let mut answered = 0;
    let mut other = String::new();
    for line in stderr.lines() {
        if !line.starts_with("start ") && !line.starts_with("done ") {
            other.push_str(&cut(line));
            other.push('\n');
        }
        if let Some(spec) = line.strip_prefix("start ") {
            last = spec;
        } else if let Some(done) = line.strip_prefix("done ") {
            answered += 1;
            if done.contains("PANIC") {
                failures.push(format!("{} panicked", cut(last)));
            }
            eprintln!("{}: {done}", cut(last));
        }
    }
    match status {
        Some(s) if s.success() => {}
        Some(s) => failures.push(format!("{s} during {}: {other}", cut(last))),
        None => failures.push(format!(
            "still running after {:?}: {}",
            started.elapsed(),
            cut(last)
        )),
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(answered, specs.len());
}

/// The command line: `grundy solve SPEC --json` for every spec, and `table` and `pattern`
/// of every family up to huge sizes.
#[test]
fn command_line_under_the_limit() {
    let (seed, random) = sweep();
    command_line(seed, random);
}

fn command_line(seed: u64, random: usize) {
    let grundy = env!("CARGO_BIN_EXE_grundy");
    let mut runs: Vec<Vec<String>> = specs(seed, random)
        .into_iter()
        .map(|s| vec!["solve".into(), s, "--json".into()])
        .collect();
    for entry in registry::entries() {
        for up_to in ["10^6", "10^18", "99999999999999999999999"] {
            for command in ["table", "pattern"] {
                runs.push(vec![
                    command.into(),
                    entry.name.into(),
                    "--up-to".into(),
                    up_to.into(),
                ]);
            }
        }
    }
    let mut failures = Vec::new();
    let mut answered = 0;
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let what = format!("grundy {}", cut(&args.join(" ")));
        let start = Instant::now();
        let child = limited(grundy, &args).spawn().unwrap();
        let (status, _, stderr) = finish(child, DEADLINE);
        let took = start.elapsed();
        if took > FEW {
            eprintln!("slow: {what}: {took:?}");
        }
        answered += usize::from(status.is_some_and(|s| s.success()));
        failures.extend(judge(&what, status, took, &stderr));
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        answered > runs.len() / 10,
        "{answered} of {} answered",
        runs.len()
    );
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

/// The status and body of one request, or why there was none.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        addr.port(),
        body.len()
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
        .ok_or_else(|| format!("no status line: {}", cut(&response)))?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("");
    Ok((status, body.to_string()))
}

/// The web server: `grundy serve` under the limit is sent every spec to solve, explore
/// and play, and every family to tabulate; each is answered or refused with a 4xx and a
/// kind, and the server is still there at the end.
#[test]
fn web_server_under_the_limit() {
    let (seed, random) = sweep();
    web(seed, random);
}

fn web(seed: u64, random: usize) {
    let grundy = env!("CARGO_BIN_EXE_grundy");
    let mut server = limited(grundy, &["serve", "--port", "0"]).spawn().unwrap();
    let mut errors = server.stderr.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = errors.read_to_string(&mut s);
        s
    });
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let first = lines.next().expect("a line").unwrap();
    let addr: SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|a| {
            a.trim_end_matches(|c| c != '/')
                .trim_end_matches('/')
                .split('/')
                .next()
        })
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let mut requests: Vec<(&str, String, String)> = Vec::new();
    for spec in specs(seed, random) {
        // The server refuses a request line of more than its limit on its own; long ones
        // go in the body of play.
        if spec.len() < 4000 {
            requests.push((
                "GET",
                format!("/api/solve?spec={}", encode(&spec)),
                String::new(),
            ));
            requests.push((
                "GET",
                format!("/api/explore?spec={}", encode(&spec)),
                String::new(),
            ));
        }
        requests.push((
            "POST",
            "/api/play".into(),
            serde_json::json!({ "spec": spec }).to_string(),
        ));
        let first = serde_json::json!({ "spec": spec, "move": "1" }).to_string();
        requests.push(("POST", "/api/play".into(), first));
    }
    for entry in registry::entries() {
        for up_to in ["10^5", "10^18"] {
            for route in ["table", "pattern"] {
                requests.push((
                    "GET",
                    format!("/api/{route}?family={}&up_to={}", entry.name, encode(up_to)),
                    String::new(),
                ));
            }
        }
    }
    let mut failures = Vec::new();
    let mut answered = 0;
    for (method, path, body) in &requests {
        let what = format!("{method} {} {}", cut(path), cut(body));
        let start = Instant::now();
        match request(addr, method, path, body) {
            Ok((200, _)) => answered += 1,
            Ok((400..=499, body)) => {
                let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
                if json["kind"].as_str().is_none_or(str::is_empty) {
                    failures.push(format!("{what}: no kind in {}", cut(&body)));
                }
            }
            Ok((status, body)) => failures.push(format!("{what}: {status} {}", cut(&body))),
            Err(e) => {
                failures.push(format!("{what}: {e}"));
                if server.try_wait().unwrap().is_some() {
                    break;
                }
            }
        }
        let took = start.elapsed();
        if took > FEW {
            eprintln!("slow: {what}: {took:?}");
        }
    }
    let alive = server.try_wait().unwrap();
    let last = request(addr, "GET", "/api/solve?spec=nim(3,4,5)", "");
    // The most address space the server held (the shell exec'd it: same process).
    let peak = std::fs::read_to_string(format!("/proc/{}/status", server.id()))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmPeak:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
    let _ = server.kill();
    let _ = server.wait();
    let stderr = drain.join().unwrap();
    assert!(
        alive.is_none(),
        "the server ended: {alive:?} {}",
        cut(&stderr)
    );
    assert!(matches!(last, Ok((200, _))), "{last:?}");
    assert!(failures.is_empty(), "{failures:#?}");
    // Under `ulimit -v` the requests computing at once share half the address space,
    // and the server's threads share a heap a core rather than reserving 64 MiB each: its
    // peak stays well inside the limit (it came within 50 MiB of it, and a run on a busy
    // machine, with a thread more, went past it), so no request can make it abort.
    assert!(
        stderr.contains("half of the 1.0 GiB"),
        "the server did not bound its requests by the address space: {}",
        cut(&stderr)
    );
    let peak = peak.expect("the server's VmPeak");
    assert!(
        peak <= LIMIT_KIB * 3 / 4,
        "the server's address space reached {peak} KiB of {LIMIT_KIB}"
    );
    // Most are refused, but the examples are answered: the requests were well formed.
    assert!(
        answered > requests.len() / 10,
        "{answered} of {} answered",
        requests.len()
    );
}

/// The larger sweep: more random specs through all three.
#[test]
#[ignore = "minutes: GRUNDY_SWEEP=200 cargo test --release -p grundy-cli --test survives -- --ignored sweep_everything"]
fn sweep_everything() {
    let (seed, random) = sweep();
    library(seed, random);
    command_line(seed, random);
    web(seed, random);
}
