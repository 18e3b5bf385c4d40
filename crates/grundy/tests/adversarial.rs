//! Nothing a user types takes the library down: for every family of the registry, specs
//! with huge numbers (10^8, 10^12, 10^18 as heaps, positions and parameters) go through
//! `report::solve` with the default limits, and each gets an answer or a refusal (an
//! `Err`) — never a panic — within a few seconds, with no cancel flag to stop it: a spec
//! too large is refused up front by its estimate.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use grundy::games::{registry, Spec};
use grundy::report::{self, Limits, Method};

/// The most one spec may take, in a test build on a busy machine: most take milliseconds;
/// the slowest, a period proof stopped by its budget of steps (a 200-digit octal code),
/// 4 s here on an idle machine and 1.3 s in a release build, but past 20 s at a load of
/// 7 on 2 cores (a CI run beside three builds, 2026-12-04): the deadline catches hangs,
/// not slowness, which the release benchmarks measure.
const DEADLINE: Duration = Duration::from_secs(60);

const HUGE: &[&str] = &["10^8", "10^12", "10^18"];

/// `text` with every number inside the brackets `open`…`close` replaced by `with`.
fn replace_numbers(text: &str, open: char, close: char, with: &str) -> String {
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
                out.push_str(with);
                in_number = true;
            }
            continue;
        }
        in_number = false;
        out.push(c);
    }
    out
}

/// The adversarial specs of every registered family: its examples with huge numbers as
/// the position, as the parameters, and both; its name with a huge position.
fn adversarial() -> Vec<String> {
    let mut specs = Vec::new();
    for entry in registry::entries() {
        for huge in HUGE {
            specs.push(format!("{}({huge})", entry.name));
            specs.push(format!("{}({huge},{huge})", entry.name));
            for example in entry.examples {
                specs.push(replace_numbers(example, '(', ')', huge));
                let params = replace_numbers(example, '[', ']', huge);
                specs.push(params.clone());
                specs.push(replace_numbers(&params, '(', ')', huge));
                if !example.contains('(') {
                    specs.push(format!("{example}({huge})"));
                }
            }
        }
    }
    // The sizes the issue reported: a heap the general method could not hold, sums of
    // them, a long row, a huge code.
    specs.extend(
        [
            "nim(10^8)",
            "nim(10^5)",
            "nim(10^7,10^7)",
            "nim(10^8) + octal[0.77](10^8)",
            "bounded-nim[10^8](10^8)",
            "wythoff(10^4,10^4)",
            "subtraction[1,10^8](10^8)",
        ]
        .map(String::from),
    );
    specs.push(format!(
        "ends({})",
        (1..=1000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    ));
    specs.push(format!("octal[0.{}](10^8)", "7".repeat(200)));
    specs.sort();
    specs.dedup();
    specs
}

/// Solves `text` on a thread of its own: `Ok(None)` if it does not parse, the method or
/// the refusal otherwise; `Err` with what went wrong if it panicked or took too long.
fn attempt(text: &str) -> Result<Option<Result<Method, grundy::Error>>, String> {
    let Ok(spec) = text.parse::<Spec>() else {
        return Ok(None);
    };
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let answer =
            std::panic::catch_unwind(|| report::solve(&spec, &Limits::default()).map(|r| r.method));
        let _ = tx.send(answer);
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(Ok(answer)) => Ok(Some(answer)),
        Ok(Err(_)) => Err(format!("`{text}` panicked")),
        Err(_) => Err(format!(
            "`{text}` took more than {} s ({:?} so far)",
            DEADLINE.as_secs(),
            start.elapsed()
        )),
    }
}

#[test]
fn huge_numbers_in_every_family_are_answered_or_refused_in_seconds() {
    let specs = adversarial();
    assert!(specs.len() > 100, "{} specs", specs.len());
    let mut failures = Vec::new();
    let mut parsed = 0;
    for text in &specs {
        let start = Instant::now();
        match attempt(text) {
            Ok(Some(_)) => parsed += 1,
            Ok(None) => {}
            Err(why) => failures.push(why),
        }
        let took = start.elapsed();
        if took > Duration::from_secs(1) {
            eprintln!("{text}: {took:?}");
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // Many of them are specs the parser accepts: the analyzer itself was tried. (Board
    // families refuse a huge board in the parser, with its limit: Domineering, Cutcake,
    // Toads and Frogs, Clobber, Snort, Col.)
    assert!(
        parsed > specs.len() / 4,
        "{parsed} of {} parsed",
        specs.len()
    );
}

#[test]
fn a_formula_or_a_rule_answers_at_every_size() {
    // Exploring these whole would take minutes and gigabytes: each answers by its formula
    // or its proved rule instead, whatever the size.
    for (text, method) in [
        ("nim(10^8)", Method::SpragueGrundy),
        ("nim(10^5)", Method::SpragueGrundy),
        ("nim(10^9)", Method::SpragueGrundy),
        ("nim(10^4,10^4,3)", Method::SpragueGrundy),
        ("bounded-nim[10^6](10^6)", Method::SpragueGrundy),
        ("wythoff(10^4,10^4)", Method::Rule),
        // The mirror rule `grundy pattern` proves (was: "no formula is known here").
        ("circular[0.77](10^9)", Method::Rule),
        ("circular[0.77](10^9,10^9)", Method::Rule),
    ] {
        let start = Instant::now();
        let answer = attempt(text).unwrap().expect("parses");
        assert_eq!(answer, Ok(method), "{text}");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{text}: {:?}",
            start.elapsed()
        );
    }
    // Small ones are still explored, for their remoteness.
    let report = report::solve(&"nim(3,4,5)".parse().unwrap(), &Limits::default()).unwrap();
    assert_eq!(report.method, Method::Retrograde);
    assert_eq!(report.remoteness, Some(11));
    let report = report::solve(&"nim(1000)".parse().unwrap(), &Limits::default()).unwrap();
    assert_eq!(report.method, Method::Retrograde);
}

#[test]
fn a_long_row_is_solved_on_its_intervals() {
    // A row of 1000 numbers: 500 501 intervals of one row, O(1) each (was: each position
    // held its row, 4 GiB estimated, refused; before that 48 s and 3.9 GB).
    let row = (1..=1000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let spec: Spec = format!("ends({row})").parse().unwrap();
    let start = Instant::now();
    let report = report::solve(&spec, &Limits::default()).expect("answered");
    let took = start.elapsed();
    assert_eq!(report.method, Method::Minimax);
    assert_eq!(report.positions, Some(500_501));
    // The first player takes 1000, then every other number from the right: 250 500.
    assert_eq!(report.scores, Some([250_500, 250_000]));
    assert_eq!(report.remoteness, Some(1000));
    assert!(took < Duration::from_secs(2), "{took:?}");
    // Past the positions allowed (2000 numbers: 2 001 001 intervals) it is refused at once,
    // with the limit.
    let row = (1..=2000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let spec: Spec = format!("ends({row})").parse().unwrap();
    let start = Instant::now();
    match report::solve(&spec, &Limits::default()) {
        Err(e) if e.is_too_large() => {
            let what = e.too_large_what().unwrap();
            assert!(what.contains("(limit 2000000)"), "{what}");
            assert_eq!(
                e.limit().map(|l| l.0),
                Some(grundy::Limit::Positions),
                "{e}"
            );
        }
        other => panic!("{:?}", other.map(|r| r.method)),
    }
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn two_equal_circles_name_the_circle_opened() {
    // Was: a panic (subtract with overflow) naming a move of `circular[0.77](10^9,10^9)`:
    // the circle opened was looked for as one no longer there, and two equal circles
    // leave one.
    let report =
        report::solve(&"circular[0.77](5,5)".parse().unwrap(), &Limits::default()).unwrap();
    assert!(!report.moves.is_empty());
    for m in &report.moves {
        assert!(m.name.contains("circle of 5"), "{}", m.name);
    }
    let report = report::solve(
        &"circular[0.77](10^9,10^9)".parse().unwrap(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(report.outcome, grundy::game::Outcome::Loss);
    assert!(
        report.moves[0].name.contains("circle of 1000000000"),
        "{}",
        report.moves[0].name
    );
}
