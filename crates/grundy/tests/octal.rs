//! Grundy sequences at scale and their periods (module `grundy::octal`):
//!
//! - the rare-value engine against the naive mex (`HeapFamily::table`) on random octal
//!   codes, with and without the period shortcut; hexadecimal codes against a brute force
//!   over `Code::options`; subtraction sets and closures against direct mexes;
//! - every period the engine *proves* is checked again far past the proof on the naive
//!   values (soundness of the Guy–Smith bound as implemented);
//! - the published periods and pre-periods of many octal games (Winning Ways ch. 4,
//!   Gangolli & Plambeck 1989, Flammenkamp's tables, the OEIS);
//! - streaming to a file and reading back; widening from one byte to two.
//!
//! The large published games (.376, .354) are `#[ignore]`d here and timed by the example
//! instead: `cargo run --release -p grundy --example octal -- prove 0.376 0.354`, or
//! `cargo test --release -p grundy --test octal -- --ignored`.

use grundy::explore::Control;
use grundy::games::HeapFamily;
use grundy::octal::{
    grundy_of_game, grundy_sequence, prove_octal_period, prove_period, prove_subtraction_period,
    read_sequence, required_len, write_sequence, Code, Rules, Solver, Values,
};
use grundy::pattern::period::{find_period, preperiod};
use grundy::Error;
use proptest::prelude::*;

/// The naive O(n²) reference of the library.
fn naive_octal(code: &str, len: u64) -> Vec<u64> {
    let family = HeapFamily::Octal(code.parse::<Code>().expect("octal code"));
    family
        .table(len - 1, &Control::default())
        .expect("naive table")
        .into_iter()
        .map(u64::from)
        .collect()
}

/// A brute force over the options `Code::options` lists (three-heap splits included).
fn brute_code(code: &Code, len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    let mut options = Vec::new();
    for n in 0..len as u64 {
        options.clear();
        code.options(n, &mut options);
        let seen: std::collections::BTreeSet<u64> = options
            .iter()
            .map(|heaps| heaps.iter().fold(0, |acc, &h| acc ^ g[h as usize]))
            .collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

fn engine(code: &str, len: u64, shortcut: bool) -> Vec<u64> {
    let mut solver = Solver::new(&code.parse().unwrap()).with_shortcut(shortcut);
    solver.extend_to(len, &Control::default()).unwrap();
    solver.values().to_vec()
}

fn code_text(d0: u8, digits: &[u8]) -> String {
    let body: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    format!("{d0}.{body}")
}

fn allows_a_move(d0: u8, digits: &[u8]) -> bool {
    d0 != 0 || digits.iter().any(|&d| d != 0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The rare-value engine equals the naive mex on random octal codes, with the period
    /// shortcut (values past a proof are copied) and without it.
    #[test]
    fn sparse_engine_equals_naive_mex(
        d0 in prop::sample::select(vec![0u8, 4]),
        digits in prop::collection::vec(0u8..8, 1..6),
        len in 2u64..700,
    ) {
        prop_assume!(allows_a_move(d0, &digits));
        let code = code_text(d0, &digits);
        let naive = naive_octal(&code, len);
        prop_assert_eq!(&engine(&code, len, false), &naive, "{} without shortcut", code);
        prop_assert_eq!(&engine(&code, len, true), &naive, "{} with shortcut", code);
    }

    /// Hexadecimal codes (three-heap splits) against the brute force over options.
    #[test]
    fn hexadecimal_codes_equal_brute_force(
        d0 in prop::sample::select(vec![0u8, 4, 8, 12]),
        digits in prop::collection::vec(0u8..16, 1..4),
        len in 2usize..70,
    ) {
        prop_assume!(allows_a_move(d0, &digits));
        let mut all = vec![d0];
        all.extend(&digits);
        let code = Code::from_digits(&all).unwrap();
        let brute = brute_code(&code, len);
        let fast = grundy_sequence(&Rules::Code(code.clone()), len as u64, &Control::default()).unwrap();
        prop_assert_eq!(fast.to_vec(), brute, "{}", code);
    }

    /// Subtraction sets against the library's direct table; the proved period holds on
    /// values computed far past the proof.
    #[test]
    fn subtraction_sets_and_their_periods(
        set in prop::collection::btree_set(1u64..12, 1..5),
    ) {
        let set: Vec<u64> = set.into_iter().collect();
        let period = prove_subtraction_period(&set, &Control::default()).unwrap();
        prop_assert!(period.proved);
        let len = required_len(&Rules::subtraction(&set).unwrap(), period.preperiod, period.period) + 5 * period.period + 50;
        let family = HeapFamily::Subtraction(set.clone());
        let naive: Vec<u64> = family.table(len - 1, &Control::default()).unwrap().into_iter().map(u64::from).collect();
        let fast = grundy_sequence(&Rules::subtraction(&set).unwrap(), len, &Control::default()).unwrap();
        prop_assert_eq!(&fast.to_vec(), &naive);
        let (s, p) = (period.preperiod, period.period);
        prop_assert_eq!(preperiod(&naive, p, 0), s, "{:?}", set);
        // The least period: no proper divisor works from s.
        for q in 1..p {
            if p % q == 0 {
                prop_assert!(preperiod(&naive, q, 0) > s);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Every proved period really holds, far past the heaps the proof looked at, and is
    /// the least one with the least pre-period.
    #[test]
    fn proved_periods_hold_far_past_the_proof(
        d0 in prop::sample::select(vec![0u8, 4]),
        digits in prop::collection::vec(0u8..8, 1..5),
    ) {
        prop_assume!(allows_a_move(d0, &digits));
        let code = code_text(d0, &digits);
        let control = Control { max_positions: 3000, ..Control::default() };
        let Ok(period) = prove_period(&code.parse().unwrap(), &control) else {
            return Ok(()); // not proved within 3000 heaps: nothing to check
        };
        prop_assert!(period.proved);
        let (s, p) = (period.preperiod, period.period);
        let len = (period.checked_up_to + 1) * 2 + 4 * p;
        prop_assume!(len <= 12_000);
        let naive = naive_octal(&code, len);
        prop_assert_eq!(preperiod(&naive, p, 0), s, "{} {:?}", code, period);
        for q in 1..p {
            if p % q == 0 {
                prop_assert!(preperiod(&naive, q, 0) > s, "{} has a shorter period {}", code, q);
            }
        }
    }
}

/// Published periods: (code, pre-period = first heap of the periodic part, period).
///
/// Sources: Winning Ways ch. 4 (Kayles .77 period 12 from heap 71; Dawson's chess .137
/// period 34, last exception 51); OEIS A071435 (.177, last exception 496), A071434
/// (.1377, last exception 140), A071452 (.11377, last exception 186); A. Flammenkamp,
/// "Sprague-Grundy values of octal games" (wwwhomes.uni-bielefeld.de/achim/octal.html),
/// also tabulated by T. Czajka's octal-games (SolvedGames.md, TrivialGames.md), whose
/// "prefix" is the pre-period here. Dawson's Kayles .07 has the values of .137 shifted by
/// one heap (OEIS A002187), so its last exception is heap 52 and its pre-period 53.
const PUBLISHED: &[(&str, u64, u64)] = &[
    ("0.77", 71, 12),
    ("0.137", 52, 34),
    ("0.07", 53, 34),
    ("0.4", 54, 34),
    ("0.17", 33, 34),
    ("0.44", 143, 24),
    ("0.53", 11, 9),
    ("0.54", 3, 7),
    ("0.34", 7, 8),
    ("0.15", 1, 10),
    ("0.017", 15, 60),
    ("0.044", 214, 36),
    ("0.045", 189, 32),
    ("0.051", 48, 48),
    ("0.055", 259, 148),
    ("0.116", 139, 96),
    ("0.124", 122, 62),
    ("0.134", 60, 62),
    ("0.141", 14, 11),
    ("0.152", 2, 48),
    ("0.153", 16, 14),
    ("0.173", 21, 40),
    ("0.176", 24, 8),
    ("0.226", 21, 5),
    ("0.373", 2, 28),
    ("0.375", 37, 18),
    ("0.524", 1, 52),
    ("4.005", 31, 79),
    ("4.024", 2, 60),
    ("4.102", 8, 10),
    ("4.304", 25, 21),
    ("4.444", 143, 24),
    ("4.726", 5, 16),
    ("4.766", 19, 20),
    ("0.177", 497, 20),
    ("0.1377", 141, 24),
    ("0.11377", 187, 32),
    ("0.45", 498, 20),
    ("0.156", 3479, 349),
    ("0.356", 7315, 142),
    ("0.644", 3256, 442),
    ("0.165", 5181, 1550),
    // Gangolli & Plambeck (1989): .16 period 149459, last exception 105350; .127 period 4,
    // last exception 46577; .56 period 144 (pre-period as in Czajka's table).
    ("0.16", 105_351, 149_459),
    ("0.127", 46_578, 4),
    ("0.56", 326_640, 144),
];

#[test]
fn published_periods_are_found_and_proved() {
    let control = Control {
        max_positions: 2_000_000,
        ..Control::default()
    };
    for &(code, s, p) in PUBLISHED {
        let period = prove_octal_period(&code.parse().unwrap(), &control)
            .unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(
            (
                period.preperiod,
                period.period,
                period.saltus,
                period.proved
            ),
            (s, p, 0, true),
            "{code}"
        );
        let needed = required_len(&Rules::Code(code.parse().unwrap()), s, p);
        assert!(period.checked_up_to + 1 >= needed, "{code}: {period:?}");
    }
}

/// Gangolli & Plambeck 1989; Czajka's table. About 10 s in release mode.
#[test]
#[ignore = "long: cargo test --release -p grundy --test octal -- --ignored"]
fn published_long_preperiods() {
    let control = Control {
        max_positions: 1 << 26,
        ..Control::default()
    };
    for (code, s, p) in [("0.376", 2_268_248, 4), ("0.354", 10_061_916, 1180)] {
        let period = prove_octal_period(&code.parse().unwrap(), &control).unwrap();
        assert_eq!(
            (period.preperiod, period.period, period.proved),
            (s, p, true),
            "{code}"
        );
    }
}

#[test]
fn kayles_matches_oeis_and_is_copied_past_the_proof() {
    // OEIS A002186, n = 0..=23.
    let start = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
    ];
    let mut solver = Solver::new(&"0.77".parse().unwrap());
    solver.extend_to(10_000_000, &Control::default()).unwrap();
    let stats = solver.stats();
    assert!(
        stats.computed < 1000 && stats.copied > 9_999_000,
        "{stats:?}"
    );
    let period = solver.period().unwrap();
    assert_eq!((period.preperiod, period.period), (71, 12));
    let g = solver.into_values();
    assert_eq!(g.bytes_per_heap(), 1);
    assert_eq!(&g.to_vec()[..24], &start);
    let naive = naive_octal("0.77", 3000);
    for n in (0..10_000_000).step_by(9973) {
        let reference = if n < 3000 {
            naive[n]
        } else {
            naive[71 + (n - 71) % 12]
        };
        assert_eq!(u64::from(g.get(n)), reference, "heap {n}");
    }
}

#[test]
fn find_period_on_computed_sequences() {
    let g = grundy_sequence(&"0.77".parse().unwrap(), 1000, &Control::default()).unwrap();
    let p = find_period(&g.to_vec()).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.saltus, p.proved),
        (71, 12, 0, false)
    );
    // Nim as a game given by its options: arithmetic-periodic, G(n + 1) = G(n) + 1.
    let nim = |n: u64, out: &mut Vec<(u64, u64)>| out.extend((0..n).map(|h| (h, 0)));
    let g = grundy_of_game(&nim, 300, &Control::default()).unwrap();
    assert_eq!(g.to_vec(), (0..300).collect::<Vec<u64>>());
    assert_eq!(g.bytes_per_heap(), 2);
    let p = find_period(&g.to_vec()).unwrap();
    assert_eq!((p.preperiod, p.period, p.saltus), (0, 1, 1));
    // Move to any smaller heap of the same parity: G(n) = ⌊n/2⌋, period 2 with saltus 1.
    // (No finite octal code is arithmetic periodic: Horrocks & Nowakowski 2003.)
    let halves = |n: u64, out: &mut Vec<(u64, u64)>| {
        out.extend((0..n).filter(|h| (n - h).is_multiple_of(2)).map(|h| (h, 0)));
    };
    let g = grundy_of_game(&halves, 200, &Control::default())
        .unwrap()
        .to_vec();
    assert_eq!(&g[..6], &[0, 0, 1, 1, 2, 2]);
    let p = find_period(&g).unwrap();
    assert_eq!((p.preperiod, p.period, p.saltus), (0, 2, 1));
}

#[test]
fn closures_equal_codes() {
    // Kayles as a closure.
    let kayles = |n: u64, out: &mut Vec<(u64, u64)>| {
        for k in 1..=n.min(2) {
            let m = n - k;
            out.push((m, 0));
            out.extend((1..=m / 2).map(|a| (a, m - a)));
        }
    };
    let g = grundy_of_game(&kayles, 2000, &Control::default()).unwrap();
    assert_eq!(g.to_vec(), naive_octal("0.77", 2000));
    let bad = |n: u64, out: &mut Vec<(u64, u64)>| out.push((n, 0));
    assert!(matches!(
        grundy_of_game(&bad, 3, &Control::default()),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn values_widen_past_255() {
    // Take 1..=400 tokens: G(n) = n mod 401.
    let digits = vec![3u8; 400];
    let code = format!(
        "0.{}",
        digits.iter().map(|d| d.to_string()).collect::<String>()
    );
    let g = grundy_sequence(&code.parse().unwrap(), 1500, &Control::default()).unwrap();
    assert_eq!(g.bytes_per_heap(), 2);
    assert!(g
        .to_vec()
        .iter()
        .enumerate()
        .all(|(n, &v)| v == n as u64 % 401));
    // With splits and long codes: compare with the naive mex past 255.
    let code = format!("0.{}", "7".repeat(300));
    let naive = naive_octal(&code, 700);
    assert!(naive.iter().any(|&v| v > 255));
    assert_eq!(engine(&code, 700, false), naive);
}

#[test]
fn sequences_stream_to_a_file_and_back() {
    let rules: Rules = "0.16".parse().unwrap();
    let mut bytes = Vec::new();
    let written = write_sequence(&rules, 300_000, &mut bytes, &Control::default()).unwrap();
    assert_eq!(written.len, 300_000);
    assert!(written.period.is_none());
    // A byte a value, and a checksum a chunk.
    assert!(bytes.len() < 300_000 + 300_000 / 100, "{}", bytes.len());
    let back = read_sequence(&mut bytes.as_slice()).unwrap();
    assert_eq!(
        back,
        grundy_sequence(&rules, 300_000, &Control::default()).unwrap()
    );
    // Dawson's Kayles to ten million heaps: the period is proved early and the rest is
    // written from it without being held.
    let mut bytes = Vec::new();
    let written = write_sequence(
        &"0.07".parse().unwrap(),
        10_000_000,
        &mut bytes,
        &Control::default(),
    )
    .unwrap();
    assert!(written.held < 10_000, "{written:?}");
    assert_eq!(written.period.map(|p| p.period), Some(34));
    let back = read_sequence(&mut bytes.as_slice()).unwrap();
    assert_eq!(back.len(), 10_000_000);
    assert_eq!(back.get(9_999_999), back.get(9_999_999 - 34));
    assert!(matches!(
        read_sequence(&mut &b"NOTASEQ!...."[..]),
        Err(grundy::octal::FileError::Format(_))
    ));
    let wide = Values::U16(vec![0, 300, 2]);
    assert_eq!(wide.max(), 300);
}

#[test]
fn sequence_files_say_what_they_hold_and_whether_complete() {
    use grundy::octal::{inspect_sequence, FileError};
    let rules: Rules = "0.77".parse().unwrap();
    let mut bytes = Vec::new();
    write_sequence(&rules, 3_000_000, &mut bytes, &Control::default()).unwrap();
    let info = inspect_sequence(&mut bytes.as_slice()).unwrap();
    assert_eq!(info.version, 3);
    assert_eq!(info.rules.as_deref(), Some("0.77"));
    assert_eq!(
        (info.promised, info.heaps, info.complete),
        (Some(3_000_000), 3_000_000, true)
    );
    assert_eq!(
        u64::from(info.max),
        grundy_sequence(&rules, 3_000_000, &Control::default())
            .unwrap()
            .max() as u64
    );
    // Cut anywhere: never an error for inspect (it says how far it got), always one for read.
    for cut in [bytes.len() - 1, bytes.len() - 5, 1_500_000, 40] {
        let info = inspect_sequence(&mut &bytes[..cut]).unwrap();
        assert!(!info.complete, "cut at {cut}");
        assert!(info.heaps <= 3_000_000);
        assert!(info
            .incomplete_reason()
            .unwrap()
            .contains("of the 3000000 heaps"));
        match read_sequence(&mut &bytes[..cut]) {
            Err(FileError::Format(m)) => assert!(m.starts_with("incomplete"), "{m}"),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    // A cut inside the header, bytes after the end marker, a chunk claiming 2^32 values
    // (refused, not allocated), an unknown version.
    assert!(inspect_sequence(&mut &bytes[..14]).is_err());
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(inspect_sequence(&mut extra.as_slice()).is_err());
    let mut huge = bytes[..bytes.len() - 5].to_vec();
    huge.truncate(12 + 4 + 4 + 8 + 8);
    huge.extend_from_slice(&[1, 255, 255, 255, 255]);
    assert!(
        matches!(inspect_sequence(&mut huge.as_slice()), Err(FileError::Format(m)) if m.contains("counts 1..="))
    );
    let mut v9 = bytes.clone();
    v9[8] = 9;
    assert!(
        matches!(inspect_sequence(&mut v9.as_slice()), Err(FileError::Format(m)) if m.contains("version 9"))
    );
    // A flipped byte anywhere (header, values, end marker) fails a checksum: damaged, for
    // inspect and read alike, never a complete file with a wrong value.
    for at in [
        13,
        30,
        40,
        bytes.len() / 2,
        bytes.len() - 20,
        bytes.len() - 10,
    ] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x04;
        match inspect_sequence(&mut flipped.as_slice()) {
            Err(FileError::Format(m)) => assert!(
                m.contains("checksum") || m.contains("header") || m.contains("chunk"),
                "byte {at}: {m}"
            ),
            other => panic!("byte {at}: {other:?}"),
        }
        assert!(read_sequence(&mut flipped.as_slice()).is_err(), "byte {at}");
    }
    // Resealed after a flip, the file is whole again (the fuzz target's way past the
    // checksums): complete, one value changed.
    let mut flipped = bytes.clone();
    let at = bytes.len() / 2;
    flipped[at] ^= 0x01;
    grundy::octal::reseal(&mut flipped);
    let changed = read_sequence(&mut flipped.as_slice()).unwrap();
    let original = read_sequence(&mut bytes.as_slice()).unwrap();
    assert_eq!(changed.len(), original.len());
    assert_eq!(
        (0..original.len())
            .filter(|&i| changed.get(i) != original.get(i))
            .count(),
        1
    );
    // Version 2 files (no checksums) still read.
    let mut v2 = b"GRUNDYSQ".to_vec();
    v2.extend_from_slice(&2u32.to_le_bytes());
    v2.extend_from_slice(&4u32.to_le_bytes());
    v2.extend_from_slice(b"0.77");
    v2.extend_from_slice(&3u64.to_le_bytes());
    v2.extend_from_slice(&[1, 3, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0]);
    let info = inspect_sequence(&mut v2.as_slice()).unwrap();
    assert_eq!((info.version, info.heaps, info.complete), (2, 3, true));
    assert_eq!(
        read_sequence(&mut v2.as_slice()).unwrap().to_vec(),
        [0, 1, 2]
    );
    // Version 1 files (no rules, no promised count) still read.
    let mut v1 = b"GRUNDYSQ".to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&[1, 3, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0]);
    let info = inspect_sequence(&mut v1.as_slice()).unwrap();
    assert_eq!(
        (info.rules, info.heaps, info.max, info.complete),
        (None, 3, 2, true)
    );
    assert_eq!(
        read_sequence(&mut v1.as_slice()).unwrap().to_vec(),
        vec![0, 1, 2]
    );
}

#[test]
fn unproved_periods_report_their_candidate() {
    // 0.6 is not known to be periodic (Czajka: still open past 2^21 heaps).
    let control = Control {
        max_positions: 20_000,
        ..Control::default()
    };
    match prove_octal_period(&"0.6".parse().unwrap(), &control) {
        Err(Error::TooLarge { what, .. }) => assert!(what.contains("0.6"), "{what}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn rules_parse_and_convert() {
    let r: Rules = "{1, 3,4}".parse().unwrap();
    assert_eq!(r, Rules::Subtraction(vec![1, 3, 4]));
    assert_eq!(r.to_string(), "{1,3,4}");
    assert_eq!("S(2,1)".parse::<Rules>().unwrap().to_string(), "{1,2}");
    assert!("{0,1}".parse::<Rules>().is_err());
    assert!("0.9".parse::<Rules>().is_ok());
    let family = HeapFamily::Octal("0.77".parse().unwrap());
    assert_eq!(family.rules().unwrap().to_string(), "0.77");
    assert_eq!(
        HeapFamily::BoundedNim(3).rules().unwrap(),
        Rules::Subtraction(vec![1, 2, 3])
    );
    assert!(HeapFamily::Nim.rules().is_none());
    // S = {1, 2, 3}: G(n) = n mod 4 from heap 0.
    let p = prove_subtraction_period(&[1, 2, 3], &Control::default()).unwrap();
    assert_eq!((p.preperiod, p.period, p.proved), (0, 4, true));
}

/// The engine against the naive mex on the hard games of the issue and on every
/// three-digit octal code, further than the quick property test goes.
#[test]
#[ignore = "long: cargo test --release -p grundy --test octal -- --ignored"]
fn long_agreement_with_naive_mex() {
    for code in [
        "0.6", "0.16", "0.127", "0.376", "0.354", "0.56", "0.1777", "0.644", "4.7",
    ] {
        let len = 40_000;
        assert_eq!(engine(code, len, false), naive_octal(code, len), "{code}");
    }
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            for d3 in 0..8u8 {
                for d0 in [0u8, 4] {
                    if !allows_a_move(d0, &[d1, d2, d3]) {
                        continue;
                    }
                    let code = code_text(d0, &[d1, d2, d3]);
                    let naive = naive_octal(&code, 3000);
                    assert_eq!(engine(&code, 3000, false), naive, "{code}");
                    assert_eq!(engine(&code, 3000, true), naive, "{code} with shortcut");
                }
            }
        }
    }
}

/// `octal::UNPROVED` says what the proof search finds: every listed game has no period
/// proved within its heaps. Recomputed in full here (minutes in release).
#[test]
#[ignore = "long: cargo test -p grundy --release --test octal -- --ignored no_period_within"]
fn no_period_within_the_listed_heaps() {
    for &(code, heaps) in grundy::octal::UNPROVED {
        let rules: Rules = code.parse().unwrap();
        let found = Solver::new(&rules).prove(heaps, &Control::default());
        assert!(
            matches!(found, Err(Error::TooLarge { .. })),
            "{code}: {found:?}"
        );
    }
}

/// A listed game is refused at once, with what is known, whatever the size asked; its
/// first heaps (cheap to check here) hold no proof either, and a game not listed is
/// still proved (Kayles, 0.77).
#[test]
fn listed_games_are_refused_at_once() {
    use grundy::report::{self, Limits};
    for &(code, heaps) in grundy::octal::UNPROVED {
        let rules: Rules = code.parse().unwrap();
        assert_eq!(grundy::octal::unproved_within(&rules), Some(heaps));
        assert!(Solver::new(&rules)
            .prove(1 << 12, &Control::default())
            .is_err());
        let spec: grundy::games::Spec = format!("octal[{code}](10^12)").parse().unwrap();
        // No heap is computed: a search would report its progress.
        let worked = std::sync::atomic::AtomicBool::new(false);
        let progress = |_: &str, _: u64| worked.store(true, std::sync::atomic::Ordering::Relaxed);
        let limits = Limits {
            control: Control {
                progress: Some(&progress),
                ..Limits::default().control
            },
            ..Limits::default()
        };
        let refused = report::solve(&spec, &limits).unwrap_err();
        let text = refused.to_string();
        assert!(
            text.contains(&format!(
                "grundy's search over its first {heaps} heaps finds none"
            )),
            "{text}"
        );
        assert!(!worked.load(std::sync::atomic::Ordering::Relaxed), "{code}");
    }
    assert_eq!(
        grundy::octal::unproved_within(&"0.77".parse().unwrap()),
        None
    );
    let kayles: grundy::games::Spec = "octal[0.77](10^12)".parse().unwrap();
    assert!(report::solve(&kayles, &Limits::default()).is_ok());
}
