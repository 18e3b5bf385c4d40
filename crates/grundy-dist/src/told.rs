//! A child tier's records held by a worker in another process, taken whole before a tier
//! is solved, so that the tier is labelled in one visit, as the library labels it: a
//! move abroad is one lookup, not a position kept until its children's records have been
//! asked for and told.
//!
//! The owner sends its part in pieces of [`PIECE`] places, a round each: for each piece,
//! one bit a place (reached or not), then the records of the reached places in order, one
//! byte each when its part holds at most 256 distinct records (a table of them announced
//! first), else two. The receiver keeps the bits, a count of the reached places before
//! each word of them, beside it, and the records: the record of a place is two reads
//! from memory, a word and a record. An unreached place reads as [`record::UNREACHED`], as it would in the
//! owner's own array.

use grundy::tier::record;

use crate::codec::{self, Malformed, Reader};

/// Places of an owner's part sent a round (a multiple of 64): 128 KiB of bits and at most
/// 1 MiB of records a message.
pub const PIECE: usize = 1 << 20;

/// What an owner announces of its part of one tier before sending it: how many of its
/// places are reached, and the table of their distinct records when one byte names each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announce {
    pub reached: u64,
    /// By code, the record; empty when the records go as two bytes each.
    pub table: Vec<u16>,
}

impl Announce {
    /// The announcement of `records` (an owner's array of a tier), and the code of each
    /// record for [`put_piece`] (`None`: two bytes each).
    #[must_use]
    pub fn of(records: &[u16]) -> (Announce, Option<Box<[u8; 1 << 16]>>) {
        // Branch-free: a store and an add a record.
        let mut seen = vec![false; 1 << 16];
        let mut unreached = 0usize;
        for &r in records {
            seen[usize::from(r)] = true;
            unreached += usize::from(r == record::UNREACHED);
        }
        let reached = (records.len() - unreached) as u64;
        let table: Vec<u16> = (0..=u16::MAX)
            .filter(|&r| r != record::UNREACHED && seen[usize::from(r)])
            .collect();
        if table.len() > 256 {
            return (
                Announce {
                    reached,
                    table: Vec::new(),
                },
                None,
            );
        }
        let mut code = Box::new([0u8; 1 << 16]);
        for (i, &r) in table.iter().enumerate() {
            code[usize::from(r)] = i as u8;
        }
        (Announce { reached, table }, Some(code))
    }

    /// Bytes a receiver holds for a part of `len` places so announced.
    #[must_use]
    pub fn bytes(&self, len: usize) -> u64 {
        let words = len.div_ceil(64) as u64;
        let width = if self.table.is_empty() { 2 } else { 1 };
        words * std::mem::size_of::<Word>() as u64
            + self.reached * width
            + self.table.len() as u64 * 2
    }

    pub fn put(&self, out: &mut Vec<u8>) {
        codec::put(out, self.reached);
        codec::put(out, self.table.len() as u64);
        for &r in &self.table {
            out.extend_from_slice(&r.to_le_bytes());
        }
    }

    pub fn get(rd: &mut Reader<'_>) -> Result<Announce, Malformed> {
        let reached = rd.get()?;
        let n = rd.get()?;
        if n > 256 {
            return Err(Malformed);
        }
        let mut table = Vec::with_capacity(n as usize);
        for _ in 0..n {
            table.push(rd.get_u16()?);
        }
        Ok(Announce { reached, table })
    }
}

/// Appends piece `k` of `records` (places `k·PIECE..`, none past the end): its words of
/// bits, then the records of its reached places, coded by `code` if given.
pub fn put_piece(records: &[u16], k: usize, code: Option<&[u8; 1 << 16]>, out: &mut Vec<u8>) {
    let start = (k * PIECE).min(records.len());
    let end = (start + PIECE).min(records.len());
    let piece = &records[start..end];
    let words: Vec<u64> = piece
        .chunks(64)
        .map(|chunk| {
            let mut word = 0u64;
            for (i, &r) in chunk.iter().enumerate() {
                word |= u64::from(r != record::UNREACHED) << i;
            }
            word
        })
        .collect();
    for word in &words {
        out.extend_from_slice(&word.to_le_bytes());
    }
    // The reached places' records: a word's set bits in turn (none for a word of
    // unreached places).
    for (k, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let r = piece[k * 64 + bits.trailing_zeros() as usize];
            match code {
                Some(code) => out.push(code[usize::from(r)]),
                None => out.extend_from_slice(&r.to_le_bytes()),
            }
            bits &= bits - 1;
        }
    }
}

/// 64 places of a part: which are reached, and how many are before them (one cache line
/// holds both).
#[derive(Debug, Clone, Copy)]
struct Word {
    bits: u64,
    before: u32,
}

/// One owner's part of one tier, as received.
#[derive(Debug, Default)]
pub struct Part {
    words: Vec<Word>,
    /// By code, the record (empty: `wide` holds the records).
    table: Vec<u16>,
    narrow: Vec<u8>,
    wide: Vec<u16>,
    len: usize,
    reached: usize,
}

impl Part {
    /// Room for a part of `len` places so announced; `None` if the announcement cannot
    /// be one of such a part (more places reached than it has, or more than a count of
    /// 32 bits holds).
    #[must_use]
    pub fn new(len: usize, a: Announce) -> Option<Part> {
        let reached = usize::try_from(a.reached).ok()?;
        if reached > len || a.reached > u64::from(u32::MAX) {
            return None;
        }
        let words = len.div_ceil(64);
        let mut part = Part {
            words: Vec::with_capacity(words),
            len,
            reached,
            ..Part::default()
        };
        if a.table.is_empty() {
            part.wide.reserve_exact(reached);
        } else {
            part.narrow.reserve_exact(reached);
            part.table = a.table;
        }
        Some(part)
    }

    fn held(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }

    /// Reads piece `k` (as [`put_piece`] wrote it).
    pub fn get_piece(&mut self, rd: &mut Reader<'_>, k: usize) -> Result<(), Malformed> {
        let start = (k * PIECE).min(self.len);
        let end = (start + PIECE).min(self.len);
        if self.words.len() != start / 64 {
            return Err(Malformed);
        }
        let mut count = 0usize;
        for w in 0..(end - start).div_ceil(64) {
            let b = rd.bytes(8)?;
            let word = u64::from_le_bytes(b.try_into().map_err(|_| Malformed)?);
            // No bit past the part's last place.
            let left = self.len - (start + w * 64);
            if left < 64 && word >> left != 0 {
                return Err(Malformed);
            }
            self.words.push(Word {
                bits: word,
                before: (self.held() + count) as u32,
            });
            count += word.count_ones() as usize;
        }
        if self.held() + count > self.reached {
            return Err(Malformed);
        }
        if self.table.is_empty() {
            for _ in 0..count {
                self.wide.push(rd.get_u16()?);
            }
        } else {
            let codes = rd.bytes(count)?;
            if codes.iter().any(|&c| usize::from(c) >= self.table.len()) {
                return Err(Malformed);
            }
            self.narrow.extend_from_slice(codes);
        }
        Ok(())
    }

    /// Whether every piece has come, with as many reached places as announced.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.words.len() == self.len.div_ceil(64) && self.held() == self.reached
    }

    /// The record at `place`, [`record::UNREACHED`] if it is not reached; `None` past
    /// the part.
    #[inline(always)]
    #[must_use]
    pub fn get(&self, place: usize) -> Option<u16> {
        if place >= self.len {
            return None;
        }
        let word = self.words[place / 64];
        let bit = 1u64 << (place % 64);
        if word.bits & bit == 0 {
            return Some(record::UNREACHED);
        }
        let i = word.before as usize + (word.bits & (bit - 1)).count_ones() as usize;
        Some(if self.table.is_empty() {
            self.wide[i]
        } else {
            self.table[usize::from(self.narrow[i])]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn send(records: &[u16]) -> Part {
        let (a, code) = Announce::of(records);
        let mut head = Vec::new();
        a.put(&mut head);
        let a = Announce::get(&mut Reader::new(&head)).unwrap();
        let mut part = Part::new(records.len(), a).unwrap();
        for k in 0..records.len().div_ceil(PIECE).max(1) {
            let mut out = Vec::new();
            put_piece(records, k, code.as_deref(), &mut out);
            let mut rd = Reader::new(&out);
            part.get_piece(&mut rd, k).unwrap();
            assert!(rd.done());
        }
        assert!(part.complete());
        part
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Every place reads as the owner's array, narrow (few records) or wide.
        #[test]
        fn a_part_reads_as_the_owners_array(
            raw in proptest::collection::vec(any::<u16>(), 0..700),
            kinds in 1u16..400,
            unreached in 0u16..4,
        ) {
            let records: Vec<u16> = raw
                .iter()
                .map(|&r| if r % 4 < unreached { record::UNREACHED } else { r % kinds })
                .collect();
            let part = send(&records);
            for (p, &r) in records.iter().enumerate() {
                prop_assert_eq!(part.get(p), Some(r));
            }
            prop_assert_eq!(part.get(records.len()), None);
        }
    }

    #[test]
    fn pieces_of_a_large_part_and_the_width_chosen() {
        let len = PIECE * 2 + 100;
        let narrow: Vec<u16> = (0..len)
            .map(|i| {
                if i % 3 == 0 {
                    record::UNREACHED
                } else {
                    (i % 7 + 1) as u16
                }
            })
            .collect();
        let (a, code) = Announce::of(&narrow);
        assert_eq!(a.table.len(), 7);
        assert!(code.is_some());
        assert_eq!(a.bytes(len), len.div_ceil(64) as u64 * 16 + a.reached + 14);
        let part = send(&narrow);
        for p in [0, 1, 2, PIECE - 1, PIECE, 2 * PIECE + 99] {
            assert_eq!(part.get(p), Some(narrow[p]));
        }
        let wide: Vec<u16> = (1..=1000u16).collect();
        let (a, code) = Announce::of(&wide);
        assert!(a.table.is_empty() && code.is_none());
        assert_eq!(a.reached, 1000);
        assert_eq!(send(&wide).get(999), Some(1000));
    }

    #[test]
    fn a_piece_that_does_not_fit_the_announcement_is_refused() {
        let records = vec![3u16; 100];
        let (a, code) = Announce::of(&records);
        let mut out = Vec::new();
        put_piece(&records, 0, code.as_deref(), &mut out);
        // Fewer reached announced than the bits say.
        let short = Announce {
            reached: 99,
            ..a.clone()
        };
        let mut part = Part::new(100, short).unwrap();
        assert!(part.get_piece(&mut Reader::new(&out), 0).is_err());
        // A bit past the part's end.
        let seventy = Announce {
            reached: 70,
            ..a.clone()
        };
        let mut part = Part::new(70, seventy).unwrap();
        assert!(part.get_piece(&mut Reader::new(&out), 0).is_err());
        // The same piece twice.
        let mut part = Part::new(100, a.clone()).unwrap();
        part.get_piece(&mut Reader::new(&out), 0).unwrap();
        assert!(part.get_piece(&mut Reader::new(&out), 0).is_err());
        // More reached announced than places.
        assert!(Part::new(10, a).is_none());
    }
}
