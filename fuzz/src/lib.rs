//! The properties the fuzz targets check, one function per target. Each takes arbitrary bytes,
//! must never panic on its own, and panics (a finding) when a property fails:
//!
//! - `spec`: a spec that parses prints to text that parses to an equal spec, and printing is
//!   stable; a number of `grundy::number`'s grammar prints back to itself.
//! - `poi`, `pgsolver`, `digraph`: a parsed arena re-serialises and re-parses equal; its
//!   size is within what the text can hold; every error has a line and column inside the
//!   text and shows no control character; detection and the solution parsers never panic.
//! - `seq`: checking a sequence file and reading it agree (complete exactly when it reads,
//!   the same number of heaps and the same largest value), and never claim more heaps than
//!   there are bytes.
//! - `tablebase`: the header and index parser of tier files, on the bytes as given and on the
//!   same bytes with every checksum recomputed (so that mutations get past the checksums to
//!   the structural checks): a file that parses is laid out exactly as its index says, every
//!   byte in the header, the index or one block, and its blocks decode to their records or
//!   are refused; errors are printable.
//!
//! The corpus-replay test (`tests/corpus.rs`) also bounds each input's peak allocation.

use grundy::graph::{self as g, Arena, ParseError};

/// Text from bytes: invalid UTF-8 becomes U+FFFD, so every input reaches the parsers.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// An error must point inside the text (one past its last character at most) and show only
/// printable characters.
fn check_error(text: &str, e: &ParseError) {
    assert!(e.line >= 1 && e.column >= 1, "{e:?}");
    let lines = text.split('\n').count().max(1);
    assert!(e.line <= lines, "line {} of {lines}: {e}", e.line);
    let line = text.split('\n').nth(e.line - 1).unwrap_or("");
    assert!(
        e.column <= line.chars().count() + 1,
        "column {} of a {}-character line: {e}",
        e.column,
        line.chars().count()
    );
    let shown = e.to_string();
    assert!(
        !shown.chars().any(char::is_control),
        "control characters in {shown:?}"
    );
    assert!(shown.len() < 1000, "a {}-byte message", shown.len());
}

/// A small arena for the solution parsers to read against.
fn small_arena() -> Arena {
    g::parse_pgsolver("parity 2;\n0 1 0 1;\n1 2 1 0,2;\n2 3 0 2;\n").expect("a valid game")
}

fn exercise_solutions(text: &str) {
    let a = small_arena();
    if let Err(e) = g::parse_pgsolver_solution(text, &a) {
        check_error(text, &e);
    }
    if let Err(e) = g::parse_poi_answer(text, a.len()) {
        check_error(text, &e);
    }
    let _ = g::parse_poi_solution(text, &a);
    let _ = g::detect(text);
}

/// The spec target.
pub fn spec(data: &[u8]) {
    let text = text(data);
    if let Ok(spec) = text.parse::<grundy::games::Spec>() {
        let printed = spec.to_string();
        let again: grundy::games::Spec = printed
            .parse()
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, spec, "{text:?} printed as {printed:?}");
        assert_eq!(again.to_string(), printed, "printing is not stable");
    }
    if let Ok(n) = grundy::number::parse_number(&text) {
        assert_eq!(grundy::number::parse_number(&n.to_string()), Ok(n));
    }
}

/// The POI target.
pub fn poi(data: &[u8]) {
    let text = text(data);
    match g::parse_poi(&text) {
        Ok(a) => {
            // A field is at least `z k s` and two separators.
            assert!(a.len() * 5 <= text.len() + 1, "{} fields", a.len());
            let written = g::write_poi(&a).expect("a parsed green game is writable");
            assert_eq!(g::parse_poi(&written).as_ref(), Ok(&a), "{written:?}");
        }
        Err(e) => check_error(&text, &e),
    }
    exercise_solutions(&text);
}

/// The PGSolver target.
pub fn pgsolver(data: &[u8]) {
    let text = text(data);
    match g::parse_pgsolver(&text) {
        Ok(a) => {
            // Every vertex statement ends in `;`, one more for the header.
            let statements = text.matches(';').count();
            assert!(a.len() < statements.max(1), "{} vertices", a.len());
            let written = g::write_pgsolver(&a).expect("a parsed game has no dead ends");
            assert_eq!(g::parse_pgsolver(&written).as_ref(), Ok(&a), "{written:?}");
            if let Ok(sol) = g::parse_pgsolver_solution(&text, &a) {
                assert_eq!(sol.winner.len(), a.len());
            }
        }
        Err(e) => check_error(&text, &e),
    }
    exercise_solutions(&text);
}

/// The plain-digraph target.
pub fn digraph(data: &[u8]) {
    let text = text(data);
    match g::parse_digraph(&text) {
        Ok(a) => {
            assert!(a.len() as u64 <= g::digraph_vertex_limit(a.edge_count() as u64));
            assert!(
                a.edge_count() * 4 <= text.len() + 1,
                "{} edges",
                a.edge_count()
            );
            let written = g::write_digraph(&a);
            assert_eq!(g::parse_digraph(&written).as_ref(), Ok(&a), "{written:?}");
        }
        Err(e) => check_error(&text, &e),
    }
    match g::parse_detect(&text) {
        Ok((_, a)) => assert!(a.len() <= text.len() + 4096),
        Err(e) => check_error(&text, &e),
    }
}

/// The `.seq` target.
pub fn seq(data: &[u8]) {
    seq_file(data);
    // With every checksum of a version-3 file recomputed, so that changes reach the
    // structure behind them.
    let mut sealed = data.to_vec();
    grundy::octal::reseal(&mut sealed);
    seq_file(&sealed);
}

fn seq_file(data: &[u8]) {
    let info = grundy::octal::inspect_sequence(&mut &data[..]);
    let read = grundy::octal::read_sequence(&mut &data[..]);
    match (&info, &read) {
        (Ok(info), Ok(values)) => {
            assert!(
                info.complete,
                "read a file inspect calls incomplete: {info:?}"
            );
            assert_eq!(values.len() as u64, info.heaps);
            assert_eq!(values.max(), info.max);
        }
        (Ok(info), Err(e)) => assert!(!info.complete, "a complete file does not read: {e}"),
        (Err(_), Ok(_)) => panic!("read a file inspect refuses"),
        (Err(_), Err(_)) => {}
    }
    if let Ok(info) = info {
        assert!(info.heaps <= data.len() as u64, "{info:?}");
        if let Some(reason) = info.incomplete_reason() {
            assert!(!reason.chars().any(char::is_control));
        }
    }
    if let Err(e) = read {
        let shown = e.to_string();
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(shown.len() < 1000);
    }
}

/// The tier-file target.
pub fn tablebase(data: &[u8]) {
    tier_layout(data);
    let mut sealed = data.to_vec();
    grundy_tablebase::format::reseal(&mut sealed);
    tier_layout(&sealed);
}

fn tier_layout(data: &[u8]) {
    use grundy_tablebase::format::{self, Header, Layout};
    let header = Header::parse(data);
    let layout = match Layout::parse(data, None) {
        Ok(layout) => layout,
        Err(e) => {
            let shown = e.to_string();
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
            assert!(shown.len() < 1000, "a {}-byte message", shown.len());
            return;
        }
    };
    let (h, start) = header.expect("a file that parses has a header that parses");
    assert_eq!(h, layout.header);
    assert_eq!(layout.blocks(), h.blocks());
    let mut at = (start + format::index_len(layout.version, layout.index.len())) as u64;
    for e in &layout.index {
        assert_eq!(e.offset, at, "{e:?}");
        assert!(e.len > 0);
        at += u64::from(e.len);
    }
    assert_eq!(at, data.len() as u64, "bytes outside the blocks");
    // Decoding allocates a few bytes a record of a block (its records, its planes or its
    // bitmap, codes and table): only blocks that stay proportional to the input are decoded.
    let records = h.block_records as usize;
    if 4 * records > 256 * data.len() {
        return;
    }
    let mut decoder = format::Decoder::new().expect("a zstd context");
    let (mut decoded, mut out) = (format::Decoded::default(), Vec::new());
    for block in 0..layout.blocks().min(64) {
        let ranks = h.block_ranks(block);
        out.resize((ranks.end - ranks.start) as usize, 0);
        let result = format::decode_block(&layout, data, block, &mut decoder, &mut decoded);
        if result.is_ok() {
            decoded.expand(&mut out);
        }
        if let Err(e) = result {
            let shown = e.to_string();
            assert!(
                shown.contains(&format!("block {block} of {}", layout.blocks())),
                "{shown}"
            );
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
        }
    }
}
