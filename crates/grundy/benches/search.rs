//! The proof search's two methods on boards too large to explore, each checked against the
//! answer the tier solver (or the theorem) gives: the time, the nodes and the table.
//!
//! `cargo bench -p grundy --bench search -- [alpha-beta|proof-number] SPEC…` (default:
//! both methods on hex[4], connect4[5x4] and connect4[6x4]; hex[5] is named to run).

use std::time::Instant;

use grundy::explore::Control;
use grundy::game::Outcome;
use grundy::games::{Spec, SumGame};
use grundy::search::{search, Method, Options};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut methods = Vec::new();
    let mut specs = Vec::new();
    for a in &args {
        match a.as_str() {
            "alpha-beta" => methods.push(Method::AlphaBeta),
            "proof-number" => methods.push(Method::ProofNumber),
            spec => specs.push(spec.to_string()),
        }
    }
    if methods.is_empty() {
        methods = vec![Method::ProofNumber, Method::AlphaBeta];
    }
    if specs.is_empty() {
        specs = ["hex[4]", "connect4[5x4]", "connect4[6x4]"]
            .map(String::from)
            .to_vec();
    }
    for text in &specs {
        let spec: Spec = text.parse().expect("a spec");
        let (game, root) = SumGame::new(&spec).expect("one part");
        let mut agreed = None;
        for &method in &methods {
            let options = Options {
                max_nodes: 2_000_000_000,
                method,
                ..Options::default()
            };
            let start = Instant::now();
            let got = search(&game, &root, &options, &Control::default()).expect("an answer");
            let seconds = start.elapsed().as_secs_f64();
            // Known values: hex is a first-player win (strategy stealing); connect four
            // 4×4 and 5×4 are draws (the tier solver, README). Both methods must agree.
            let want = match text.as_str() {
                t if t.starts_with("hex[") && !t.contains('(') => Some(Outcome::Win),
                "connect4[4x4]" | "connect4[5x4]" => Some(Outcome::Draw),
                _ => None,
            };
            if let Some(w) = want {
                assert_eq!(got.outcome, w, "{text}");
            }
            if let Some(before) = &agreed {
                assert_eq!(&got.moves, before, "{text}: the methods disagree");
            }
            agreed = Some(got.moves.clone());
            println!(
                "{text} {method:?}: {} ({:?}), {} nodes, {:.2} s, {:.2} M nodes/s, {} entries in {} MiB",
                got.outcome,
                got.moves,
                got.nodes,
                seconds,
                got.nodes as f64 / seconds / 1e6,
                got.stored,
                got.table_bytes >> 20
            );
        }
    }
}
