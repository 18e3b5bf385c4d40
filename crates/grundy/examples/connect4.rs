//! Pascal Pons' connect four test sets through the exact search, checking every score:
//!
//! ```sh
//! cargo run --release -p grundy --example connect4 -- FILE [--weak] [--threads N] [--first N]
//! ```
//!
//! `FILE` holds one position a line as the columns played (`4453`), optionally followed by
//! its score in Pons' convention (the published sets: `../shared/benchmarks/connect4/`).
//! One table is kept for every line, as Pons' `c4solver` keeps its own. Prints each line's
//! score (weak: its sign), then the count, the nodes and the time a position; exits 1 if a
//! score differs from the file's.

use std::time::Instant;

/// The allocator of the `grundy` binary (huge pages for the table), so that figures match
/// what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use grundy::explore::Control;
use grundy::games::Spec;
use grundy::search::exact::Options;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut options = Options::default();
    let mut first = usize::MAX;
    let mut quiet = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--weak" => options.weak = true,
            "--quiet" => quiet = true,
            "--threads" => {
                options.threads = it.next().and_then(|t| t.parse().ok()).expect("--threads N")
            }
            "--first" => first = it.next().and_then(|t| t.parse().ok()).expect("--first N"),
            "--entries" => {
                options.table_entries =
                    it.next().and_then(|t| t.parse().ok()).expect("--entries N");
            }
            f => file = Some(f.to_string()),
        }
    }
    let text = match file {
        Some(f) => std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e}")),
        None => std::io::read_to_string(std::io::stdin()).expect("standard input"),
    };
    let game: Spec = "connect4[7x6]".parse().expect("a spec");
    let family = &game.parts[0].family;
    let exact = family
        .exact()
        .expect("connect four offers the exact search");
    let table = exact.table(options.table_entries).expect("a table");
    let control = Control::default();
    let (mut count, mut nodes, mut wrong) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for line in text.lines().take(first) {
        let mut words = line.split_whitespace();
        let moves = words.next().unwrap_or("");
        let expected: Option<i32> = words.next().and_then(|s| s.parse().ok());
        let spec: Spec = format!("connect4[7x6]({moves})")
            .parse()
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let (found, n) = exact
            .solve(&spec.parts[0].position, &table, &options, &control)
            .expect("solved");
        nodes += n;
        count += 1;
        let got = found.score;
        let right = match expected {
            Some(e) if options.weak => e.signum() == got.signum(),
            Some(e) => e == got,
            None => true,
        };
        if !right {
            wrong += 1;
            eprintln!("{moves}: {got}, the file says {}", expected.unwrap_or(0));
        }
        if !quiet {
            println!("{moves} {got} {n}");
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{count} positions, {wrong} wrong, {nodes} nodes, {:.3} ms a position, {:.2} M nodes a second",
        seconds * 1e3 / count.max(1) as f64,
        nodes as f64 / seconds / 1e6
    );
    if wrong > 0 {
        std::process::exit(1);
    }
}
