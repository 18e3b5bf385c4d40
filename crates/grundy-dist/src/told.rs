//! A child tier's records held by a worker in another process, taken whole before a tier
//! is solved, so that the tier is labelled in one visit, as the library labels it: a
//! move abroad is one lookup, not a position kept until its children's records have been
//! asked for and told.
//!
//! The owner announces how many of its places are reached and, when its part holds at
//! most 256 distinct records, their table; from that both sides know the form the
//! receiver keeps, the smaller of two. Packed: a code a place, as few bits as name the
//! part's records and "unreached" (1, 2, 4 or 8), so that a record is one read from
//! memory and a lookup in a table of a few entries (connect four's parts have 3 to 10
//! records, and are held in half a byte a place, less than the other form). Sparse: a bit
//! a place with a count of the reached places before each word of them beside it, and
//! the reached places' records, one byte each by the table or two without one; two
//! reads. The owner sends its part in pieces of [`PIECE`] places, a round each, in the
//! form kept: packed, the codes as they will be held; sparse, the bits, then the reached
//! places' records in order. An unreached place reads as [`record::UNREACHED`], as it
//! would in the owner's own array.
//!
//! A worker holds its own records of a solved tier the same way ([`Part::of`]: the smaller
//! form, or the array itself where neither is smaller), and sends them on from that form
//! ([`Part::sender`]): the bytes a packed or sparse part holds are the bytes it travels as.

use grundy::tier::record;

use crate::codec::{self, Malformed, Reader};

/// Places of an owner's part sent a round (a multiple of 64, so that a packed piece
/// fills whole bytes): packed, at most 1 MiB a message; sparse, 128 KiB of bits and at
/// most 2 MiB of records.
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
    /// The announcement of `records` (an owner's array of a tier), and how its pieces
    /// are coded for [`put_piece`].
    #[must_use]
    pub fn of(records: &[u16]) -> (Announce, Coder) {
        // Branch-free: a store and an add a record.
        let mut seen = vec![false; 1 << 16];
        let mut unreached = 0usize;
        for &r in records {
            seen[usize::from(r)] = true;
            unreached += usize::from(r == record::UNREACHED);
        }
        let reached = (records.len() - unreached) as u64;
        let mut table: Vec<u16> = (0..=u16::MAX)
            .filter(|&r| r != record::UNREACHED && seen[usize::from(r)])
            .collect();
        if table.len() > 256 {
            // Two bytes a record.
            table.clear();
        }
        let a = Announce { reached, table };
        if a.table.is_empty() {
            return (a, Coder::Wide);
        }
        let packed = a.store(records.len()).0;
        // Packed, a code is one more than the record's index (0: unreached).
        let first = u8::from(packed.is_some());
        let mut code = Box::new([0u8; 1 << 16]);
        for (i, &r) in a.table.iter().enumerate() {
            code[usize::from(r)] = i as u8 + first;
        }
        let coder = match packed {
            Some(bits) => Coder::Packed { bits, code },
            None => Coder::Narrow(code),
        };
        (a, coder)
    }

    /// Bits a place when a part so announced is held packed (codes 1, 2, 4 or 8 bits
    /// wide, 0 for an unreached place), `None` when it cannot be (records of two bytes,
    /// or 256 of them and no code left for an unreached place).
    fn packed_bits(&self) -> Option<u32> {
        let codes = self.table.len() + 1;
        (!self.table.is_empty() && codes <= 256)
            .then(|| [1, 2, 4, 8].into_iter().find(|&b| codes <= 1 << b))
            .flatten()
    }

    /// How a receiver holds a part of `len` places so announced, and its bytes: packed
    /// (`Some(bits)`) when that is no larger than the reached places' bits and records.
    fn store(&self, len: usize) -> (Option<u32>, u64) {
        let words = len.div_ceil(64) as u64;
        let width = if self.table.is_empty() { 2 } else { 1 };
        // Saturating: an announcement from another process may claim any count (it is
        // refused by `Part::new`, not here).
        let sparse = (words * std::mem::size_of::<Word>() as u64)
            .saturating_add(self.reached.saturating_mul(width))
            .saturating_add(self.table.len() as u64 * 2);
        match self.packed_bits() {
            Some(bits) => {
                let packed =
                    (len as u64 * u64::from(bits)).div_ceil(8) + (self.table.len() as u64 + 1) * 2;
                if packed <= sparse {
                    (Some(bits), packed)
                } else {
                    (None, sparse)
                }
            }
            None => (None, sparse),
        }
    }

    /// Bytes a receiver holds for a part of `len` places so announced.
    #[must_use]
    pub fn bytes(&self, len: usize) -> u64 {
        self.store(len).1
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

/// How an owner codes the pieces of its part: as the receiver will hold it ([`Announce`]
/// tells it which).
pub enum Coder {
    /// A code a place, `bits` wide: by record, one more than its index in the table (0,
    /// unreached).
    Packed { bits: u32, code: Box<[u8; 1 << 16]> },
    /// A bit a place, then a byte a reached place: by record, its index in the table.
    Narrow(Box<[u8; 1 << 16]>),
    /// A bit a place, then two bytes a reached place.
    Wide,
}

/// Appends piece `k` of `records` (places `k·PIECE..`, none past the end). Packed: a code
/// a place, the first place in a byte's lowest bits. Else its words of bits, then the
/// records of its reached places, by code if there is a table.
pub fn put_piece(records: &[u16], k: usize, coder: &Coder, out: &mut Vec<u8>) {
    let start = (k * PIECE).min(records.len());
    let end = (start + PIECE).min(records.len());
    let piece = &records[start..end];
    if let Coder::Packed { bits, code } = coder {
        let per = (8 / bits) as usize;
        out.extend(piece.chunks(per).map(|places| {
            places.iter().enumerate().fold(0u8, |byte, (j, &r)| {
                byte | code[usize::from(r)] << (j as u32 * bits)
            })
        }));
        return;
    }
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
            match coder {
                Coder::Narrow(code) => out.push(code[usize::from(r)]),
                _ => out.extend_from_slice(&r.to_le_bytes()),
            }
            bits &= bits - 1;
        }
    }
}

/// A byte of codes with a code past the table, in [`Store::Packed`]'s check.
const BAD: u8 = u8::MAX;

/// 64 places of a part: which are reached, and how many are before them (one cache line
/// holds both).
#[derive(Debug, Clone, Copy)]
struct Word {
    bits: u64,
    before: u32,
}

/// How a part's records are held.
#[derive(Debug)]
enum Store {
    /// A code a place, `1 << shift` bits wide, 0 for an unreached place, else one more
    /// than the record's index in `table`; `codes[0]` is [`record::UNREACHED`].
    Packed {
        data: Vec<u8>,
        shift: u32,
        /// log2 of the codes a byte (`3 - shift`), and a code's mask: a lookup's
        /// arithmetic, worked out once.
        per: u32,
        mask: u8,
        /// By code, the record; as many as the table has and one more, then padded with
        /// [`record::UNREACHED`] to 256 (no code past the table is ever held: each byte
        /// is checked as it comes), so that a code indexes it with no bound to check.
        codes: Box<[u16; 256]>,
        /// The table's length and one (the codes that name something).
        named: usize,
        /// By byte as it comes, how many reached places it holds; [`BAD`] if a code in it
        /// is past the table (`named` or more).
        check: Box<[u8; 256]>,
    },
    /// A word of bits a 64 places, and the reached places' records in order: by code
    /// through `table` (`narrow`), or as they are (`wide`, `table` empty).
    Sparse {
        words: Vec<Word>,
        table: Vec<u16>,
        narrow: Vec<u8>,
        wide: Vec<u16>,
    },
    /// The owner's own array, as it is: a part held at home ([`Part::of`]) where neither
    /// other form is smaller (more than 256 distinct records, most places reached).
    Plain(Vec<u16>),
}

/// One owner's part of one tier: as received from abroad, or a worker's own array of a
/// solved tier held at home ([`Part::of`]).
#[derive(Debug)]
pub struct Part {
    store: Store,
    len: usize,
    reached: usize,
    /// Reached places received so far.
    held: usize,
    /// Pieces received so far.
    pieces: usize,
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
        let store = match a.store(len).0 {
            Some(bits) => {
                let named = a.table.len() + 1;
                let mut codes = Box::new([record::UNREACHED; 256]);
                codes[1..named].copy_from_slice(&a.table);
                let mut check = Box::new([0u8; 256]);
                for (v, c) in check.iter_mut().enumerate() {
                    let mut n = 0u8;
                    for j in 0..8 / bits {
                        let code = (v >> (j * bits)) & ((1 << bits) - 1);
                        if code >= named {
                            n = BAD;
                            break;
                        }
                        n += u8::from(code != 0);
                    }
                    *c = n;
                }
                Store::Packed {
                    // Zeroed: every place unreached until its piece comes.
                    data: vec![0; (len * bits as usize).div_ceil(8)],
                    shift: bits.trailing_zeros(),
                    per: 3 - bits.trailing_zeros(),
                    mask: ((1u16 << bits) - 1) as u8,
                    codes,
                    named,
                    check,
                }
            }
            None => {
                let mut narrow = Vec::new();
                let mut wide = Vec::new();
                if a.table.is_empty() {
                    wide.reserve_exact(reached);
                } else {
                    narrow.reserve_exact(reached);
                }
                Store::Sparse {
                    words: Vec::with_capacity(len.div_ceil(64)),
                    table: a.table,
                    narrow,
                    wide,
                }
            }
        };
        Some(Part {
            store,
            len,
            reached,
            held: 0,
            pieces: 0,
        })
    }

    /// Reads piece `k` (as [`put_piece`] wrote it).
    pub fn get_piece(&mut self, rd: &mut Reader<'_>, k: usize) -> Result<(), Malformed> {
        if k != self.pieces || k >= self.len.div_ceil(PIECE) {
            return Err(Malformed);
        }
        let start = k * PIECE;
        let end = (start + PIECE).min(self.len);
        let count = match &mut self.store {
            Store::Packed {
                data, shift, check, ..
            } => {
                let bits = 1usize << *shift;
                let got = rd.bytes(((end - start) * bits).div_ceil(8))?;
                let mut count = 0usize;
                for &v in got {
                    let n = check[usize::from(v)];
                    if n == BAD {
                        return Err(Malformed);
                    }
                    count += usize::from(n);
                }
                // No code past the part's last place.
                let used = (end - start) * bits % 8;
                if used != 0 && got.last().is_some_and(|&v| v >> used != 0) {
                    return Err(Malformed);
                }
                if self.held + count > self.reached {
                    return Err(Malformed);
                }
                // A piece starts at a byte: `PIECE` places fill whole bytes.
                let at = start * bits / 8;
                data[at..at + got.len()].copy_from_slice(got);
                count
            }
            Store::Sparse {
                words: held,
                table,
                narrow,
                wide,
            } => {
                let mut before = self.held;
                for w in 0..(end - start).div_ceil(64) {
                    let b = rd.bytes(8)?;
                    let word = u64::from_le_bytes(b.try_into().map_err(|_| Malformed)?);
                    // No bit past the part's last place.
                    let left = self.len - (start + w * 64);
                    if left < 64 && word >> left != 0 {
                        return Err(Malformed);
                    }
                    held.push(Word {
                        bits: word,
                        before: before as u32,
                    });
                    before += word.count_ones() as usize;
                }
                let count = before - self.held;
                if before > self.reached {
                    return Err(Malformed);
                }
                if table.is_empty() {
                    for _ in 0..count {
                        wide.push(rd.get_u16()?);
                    }
                } else {
                    let codes = rd.bytes(count)?;
                    if codes.iter().any(|&c| usize::from(c) >= table.len()) {
                        return Err(Malformed);
                    }
                    narrow.extend_from_slice(codes);
                }
                count
            }
            // Held whole from the start (its pieces all counted): refused above.
            Store::Plain(_) => return Err(Malformed),
        };
        self.held += count;
        self.pieces += 1;
        Ok(())
    }

    /// Whether every piece has come, with as many reached places as announced.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.pieces == self.len.div_ceil(PIECE) && self.held == self.reached
    }

    /// The record at `place`, [`record::UNREACHED`] if it is not reached; `None` past
    /// the part.
    #[inline(always)]
    #[must_use]
    pub fn get(&self, place: usize) -> Option<u16> {
        if place >= self.len {
            return None;
        }
        match &self.store {
            Store::Packed {
                data,
                shift,
                per,
                mask,
                codes,
                ..
            } => {
                let byte = data[place >> per];
                let at = (place & ((1 << per) - 1)) << shift;
                Some(codes[usize::from((byte >> at) & mask)])
            }
            Store::Sparse {
                words,
                table,
                narrow,
                wide,
            } => {
                let word = words[place / 64];
                let bit = 1u64 << (place % 64);
                if word.bits & bit == 0 {
                    return Some(record::UNREACHED);
                }
                let i = word.before as usize + (word.bits & (bit - 1)).count_ones() as usize;
                Some(if table.is_empty() {
                    wide[i]
                } else {
                    table[usize::from(narrow[i])]
                })
            }
            Store::Plain(records) => Some(records[place]),
        }
    }

    /// This worker's own array of a tier, `records`, held as a part told is held where
    /// that is smaller (a code of a few bits a place, or the reached places' bits and
    /// records), else as it is; read by [`Part::get`] either way, and sent on by
    /// [`Part::sender`] as [`put_piece`] would send `records`.
    #[must_use]
    pub fn of(records: Vec<u16>) -> Part {
        let len = records.len();
        let (a, coder) = Announce::of(&records);
        let pieces = len.div_ceil(PIECE);
        let reached = a.reached as usize;
        // Held plain where no other form is smaller, or where it cannot be told (more
        // places reached than a count of 32 bits holds).
        let part = (a.bytes(len) < len as u64 * 2)
            .then(|| Part::new(len, a))
            .flatten();
        let Some(mut part) = part else {
            return Part {
                store: Store::Plain(records),
                len,
                reached,
                held: reached,
                pieces,
            };
        };
        let mut piece = Vec::new();
        for k in 0..pieces {
            piece.clear();
            put_piece(&records, k, &coder, &mut piece);
            part.get_piece(&mut Reader::new(&piece), k)
                .expect("a piece of an array reads back");
        }
        debug_assert!(part.complete());
        part
    }

    /// The places this part holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// How this part is announced to a worker abroad, and its pieces written.
    #[must_use]
    pub fn sender(&self) -> (Announce, Sender<'_>) {
        let reached = self.reached as u64;
        match &self.store {
            Store::Packed { codes, named, .. } => (
                Announce {
                    reached,
                    table: codes[1..*named].to_vec(),
                },
                Sender::Held(self),
            ),
            Store::Sparse { table, .. } => (
                Announce {
                    reached,
                    table: table.clone(),
                },
                Sender::Held(self),
            ),
            Store::Plain(records) => {
                let (a, coder) = Announce::of(records);
                (a, Sender::Coded(records, coder))
            }
        }
    }
}

/// Writes the pieces of a part held at home, as [`put_piece`] codes its array.
pub enum Sender<'a> {
    /// Held as it is sent (packed or sparse): the bytes held, copied.
    Held(&'a Part),
    /// Held plain: its array, coded.
    Coded(&'a [u16], Coder),
}

impl Sender<'_> {
    /// Appends piece `k` (places `k·PIECE..`, none past the end).
    pub fn put_piece(&self, k: usize, out: &mut Vec<u8>) {
        let part = match self {
            Sender::Held(part) => part,
            Sender::Coded(records, coder) => return put_piece(records, k, coder, out),
        };
        let start = (k * PIECE).min(part.len);
        let end = (start + PIECE).min(part.len);
        if start == end {
            return;
        }
        match &part.store {
            Store::Packed { data, shift, .. } => {
                // A piece starts at a byte: `PIECE` places fill whole bytes.
                let bits = 1usize << shift;
                out.extend_from_slice(&data[start * bits / 8..(end * bits).div_ceil(8)]);
            }
            Store::Sparse {
                words,
                table,
                narrow,
                wide,
            } => {
                let (first, last) = (start / 64, end.div_ceil(64));
                for w in &words[first..last] {
                    out.extend_from_slice(&w.bits.to_le_bytes());
                }
                // The piece's reached places, in order: from the count before its first
                // word to the count before the next piece's.
                let from = words.get(first).map_or(part.held, |w| w.before as usize);
                let to = words.get(last).map_or(part.held, |w| w.before as usize);
                if table.is_empty() {
                    for r in &wide[from..to] {
                        out.extend_from_slice(&r.to_le_bytes());
                    }
                } else {
                    out.extend_from_slice(&narrow[from..to]);
                }
            }
            Store::Plain(_) => unreachable!("a part held plain is sent coded"),
        }
    }
}

#[cfg(test)]
impl Part {
    /// Bits a place, if packed.
    fn packed_bits(&self) -> Option<u32> {
        match &self.store {
            Store::Packed { shift, .. } => Some(1 << shift),
            Store::Sparse { .. } | Store::Plain(_) => None,
        }
    }
    /// The bytes held, as [`Announce::bytes`] counts them.
    fn bytes(&self) -> u64 {
        (match &self.store {
            Store::Packed { data, named, .. } => data.len() + named * 2,
            Store::Sparse {
                words,
                table,
                narrow,
                wide,
            } => {
                words.len() * std::mem::size_of::<Word>()
                    + table.len() * 2
                    + narrow.len()
                    + wide.len() * 2
            }
            Store::Plain(records) => records.len() * 2,
        }) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn send(records: &[u16]) -> Part {
        let (a, coder) = Announce::of(records);
        let mut head = Vec::new();
        a.put(&mut head);
        let a = Announce::get(&mut Reader::new(&head)).unwrap();
        let mut part = Part::new(records.len(), a).unwrap();
        for k in 0..records.len().div_ceil(PIECE) {
            let mut out = Vec::new();
            put_piece(records, k, &coder, &mut out);
            let mut rd = Reader::new(&out);
            part.get_piece(&mut rd, k).unwrap();
            assert!(rd.done());
        }
        assert!(part.complete());
        part
    }

    /// `records` held at home: it reads as the array, is held in the smaller of the
    /// three forms, and is announced and sent on exactly as the array would be.
    fn held_at_home(records: &[u16]) -> Part {
        let part = Part::of(records.to_vec());
        let len = records.len() as u64;
        let (a, coder) = Announce::of(records);
        assert_eq!(part.bytes(), a.bytes(records.len()).min(2 * len));
        assert_eq!(part.len(), records.len());
        for (p, &r) in records.iter().enumerate() {
            assert_eq!(part.get(p), Some(r));
        }
        assert_eq!(part.get(records.len()), None);
        let (announced, sender) = part.sender();
        assert_eq!(announced, a);
        for k in 0..records.len().div_ceil(PIECE) {
            let (mut held, mut coded) = (Vec::new(), Vec::new());
            sender.put_piece(k, &mut held);
            put_piece(records, k, &coder, &mut coded);
            assert!(held == coded, "piece {k} sent as the array's");
        }
        // Nothing past the last piece.
        let mut past = Vec::new();
        sender.put_piece(records.len().div_ceil(PIECE).max(1), &mut past);
        assert!(past.is_empty());
        part
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Every place reads as the owner's array, narrow (few records) or wide, told or
        /// held at home (where it is also announced and sent on as the array).
        #[test]
        fn a_part_reads_as_the_owners_array(
            raw in proptest::collection::vec(any::<u16>(), 0..1500),
            kinds in 1u16..600,
            unreached in 0u16..4,
        ) {
            let records: Vec<u16> = raw
                .iter()
                .map(|&r| if r % 4 < unreached { record::UNREACHED } else { r % kinds })
                .collect();
            let part = send(&records);
            // Held in the form announced, in the bytes announced.
            let (a, _) = Announce::of(&records);
            prop_assert_eq!(part.bytes(), a.bytes(records.len()));
            for (p, &r) in records.iter().enumerate() {
                prop_assert_eq!(part.get(p), Some(r));
            }
            prop_assert_eq!(part.get(records.len()), None);
            held_at_home(&records);
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
        let (a, coder) = Announce::of(&narrow);
        assert_eq!(a.table.len(), 7);
        assert!(matches!(coder, Coder::Packed { bits: 4, .. }));
        // Packed in 4 bits a place (seven records and "unreached"): smaller than a word
        // of bits a 64 places and a byte a reached place.
        assert_eq!(a.bytes(len), (len as u64).div_ceil(2) + 16);
        assert!(a.bytes(len) < len.div_ceil(64) as u64 * 16 + a.reached + 14);
        let part = send(&narrow);
        assert_eq!(part.packed_bits(), Some(4));
        for p in [0, 1, 2, PIECE - 1, PIECE, 2 * PIECE + 99] {
            assert_eq!(part.get(p), Some(narrow[p]));
        }
        // Held at home, packed the same, and sent on a piece at a time as the array.
        assert_eq!(held_at_home(&narrow).packed_bits(), Some(4));
        let wide: Vec<u16> = (1..=1000u16).collect();
        let (a, coder) = Announce::of(&wide);
        assert!(a.table.is_empty() && matches!(coder, Coder::Wide));
        assert_eq!(a.reached, 1000);
        assert_eq!(send(&wide).get(999), Some(1000));
    }

    #[test]
    fn arrays_of_several_pieces_held_at_home_sparse_or_plain() {
        let len = PIECE * 2 + 100;
        // (Packed: in the test above.) Sparse, by a table (one place in eight reached, 200 records) and wide (1000).
        for kinds in [200, 1000] {
            let sparse: Vec<u16> = (0..len)
                .map(|i| {
                    if i % 8 == 0 {
                        1 + (i / 8 % kinds) as u16
                    } else {
                        record::UNREACHED
                    }
                })
                .collect();
            let part = held_at_home(&sparse);
            assert!(part.packed_bits().is_none() && part.bytes() < len as u64);
        }
        // Plain: 1000 records, every place reached (the bits and two bytes a record
        // would be larger than the array).
        let plain: Vec<u16> = (0..len).map(|i| 1 + (i % 1000) as u16).collect();
        assert_eq!(held_at_home(&plain).bytes(), 2 * len as u64);
    }

    #[test]
    fn each_form_is_held_where_it_is_the_smaller() {
        // Every width of code: one record and "unreached" in a bit, ... 200 in a byte.
        for (kinds, bits) in [(1u16, 1), (3, 2), (15, 4), (200, 8)] {
            let records: Vec<u16> = (0..1000u16).map(|i| 1 + i % kinds).collect();
            let part = send(&records);
            assert_eq!(part.packed_bits(), Some(bits), "{kinds} records");
            assert!((0..1000).all(|p| part.get(p) == Some(records[p])));
        }
        // Few places reached, in a byte each packed: the bits and the reached records
        // are smaller.
        let sparse: Vec<u16> = (0..6400u16)
            .map(|i| {
                if i % 8 == 0 {
                    1 + (i / 8) % 200
                } else {
                    record::UNREACHED
                }
            })
            .collect();
        let part = send(&sparse);
        assert_eq!(part.packed_bits(), None);
        assert_eq!(part.bytes(), 100 * 16 + 800 + 200 * 2);
        assert!((0..6400).all(|p| part.get(p) == Some(sparse[p])));
        // 256 records leave no code for "unreached": sparse.
        let full: Vec<u16> = (0..512u16).map(|i| 1 + i % 256).collect();
        assert_eq!(send(&full).packed_bits(), None);
    }

    #[test]
    fn a_piece_that_does_not_fit_the_announcement_is_refused() {
        let records = vec![3u16; 100];
        let (a, coder) = Announce::of(&records);
        let mut out = Vec::new();
        put_piece(&records, 0, &coder, &mut out);
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
        // The same piece twice, or a piece past the part.
        let mut part = Part::new(100, a.clone()).unwrap();
        assert!(part.get_piece(&mut Reader::new(&out), 1).is_err());
        part.get_piece(&mut Reader::new(&out), 0).unwrap();
        assert!(part.get_piece(&mut Reader::new(&out), 0).is_err());
        assert!(part.get_piece(&mut Reader::new(&[]), 1).is_err());
        // A code past the table, packed (three codes in two bits: the fourth is none)...
        let two = |reached| Announce {
            reached,
            table: vec![3, 5],
        };
        let mut part = Part::new(100, two(100)).unwrap();
        assert_eq!(part.packed_bits(), Some(2));
        assert!(part.get_piece(&mut Reader::new(&[0xFF; 25]), 0).is_err());
        let mut part = Part::new(100, two(100)).unwrap();
        part.get_piece(&mut Reader::new(&[0x55; 25]), 0).unwrap();
        assert!(part.complete() && part.get(99) == Some(3));
        // ... and sparse.
        let many = Announce {
            reached: 100,
            table: (1..=200).collect(),
        };
        let mut part = Part::new(6400, many).unwrap();
        assert_eq!(part.packed_bits(), None);
        let mut bad = vec![0u8; 800];
        bad[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        bad.extend_from_slice(&[250u8; 64]);
        assert!(part.get_piece(&mut Reader::new(&bad), 0).is_err());
        // A code past the last place, packed, though no more are reached than announced.
        let mut part = Part::new(
            70,
            Announce {
                reached: 70,
                ..a.clone()
            },
        )
        .unwrap();
        assert_eq!(part.packed_bits(), Some(1));
        let mut past = vec![0xFF; 8];
        past.push(0b1111_0000);
        assert!(part.get_piece(&mut Reader::new(&past), 0).is_err());
        // More reached announced than places, or than any count holds: refused, and
        // its size counted without overflow.
        assert!(Part::new(10, a).is_none());
        let huge = Announce {
            reached: u64::MAX,
            table: Vec::new(),
        };
        assert_eq!(huge.bytes(100), u64::MAX);
        assert!(Part::new(100, huge).is_none());
    }
}
