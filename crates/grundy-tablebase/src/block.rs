//! The records of one block as a version-2 file holds them (`docs/tablebase-format.md`,
//! "Blocks"): which ranks are reached, as a bitmap, apart from the values of the reached
//! ones; the values taken one or two ranks at a time (a group: two neighbouring ranks are
//! often one board with either player to move), each group replaced by its place in a
//! table of the block's groups, packed in as few bits as the table allows. The bitmap and
//! the codes are one zstd frame each.
//!
//! Everything depends on the block's records alone, so a block is the same bytes whoever
//! encodes it (the distributed solver's workers encode the blocks of the ranks they own).

use crate::format::compress_bound;

/// The zstd level blocks are written with (read: any); see the measurements in
/// `docs/tablebase-format.md`.
pub const LEVEL: i32 = 9;

/// Bytes of the values frame's count of table entries.
const COUNT: usize = 4;

/// Bits a code takes with a table of `k` entries: none when one entry is all there is.
const fn code_bits(k: usize) -> u32 {
    match k {
        0..=1 => 0,
        2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        17..=256 => 8,
        _ => 16,
    }
}

/// Bytes of `m` codes of `bits` bits: packed lowest first, `8 / bits` to a byte; 16-bit
/// codes as two planes (the low bytes, then the high bytes).
const fn codes_len(m: usize, bits: u32) -> usize {
    match bits {
        0 => 0,
        16 => 2 * m,
        b => m.div_ceil(8 / b as usize),
    }
}

/// The most bytes a block of `records` records takes in a file: zstd's bound for each of
/// its two frames at their largest (every group reached, a table entry for each).
#[must_use]
pub fn max_len(records: u64) -> u64 {
    // Groups of one rank make the longest bitmap and the longest codes; a table entry is
    // two bytes a rank whatever the group.
    let bitmap = 1 + records.div_ceil(8);
    let values = COUNT as u64 + 2 * records + 2 * records;
    compress_bound(bitmap) + compress_bound(values)
}

/// Encodes blocks one after another with one zstd context and reused scratch space.
pub struct Encoder {
    zstd: zstd::bulk::Compressor<'static>,
    /// Occurrences of each record value (groups of one), zeroed after each block.
    counts: Vec<u32>,
    /// Each value's code (groups of one).
    codes: Vec<u16>,
    /// Groups of two as `a | b << 16`, then sorted, for counting.
    keys: Vec<u32>,
    /// `(count, key)` of each distinct group.
    table: Vec<(u32, u32)>,
    /// `(key, code)` of each distinct group of two, by key.
    by_key: Vec<(u32, u16)>,
    /// The code of each reached group, in order.
    list: Vec<u16>,
    bitmap: Vec<u8>,
    values: Vec<u8>,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder").finish_non_exhaustive()
    }
}

impl Encoder {
    /// An encoder at the level files are written with.
    ///
    /// # Errors
    /// zstd's own failure, as text.
    pub fn new() -> Result<Encoder, String> {
        Ok(Encoder {
            zstd: zstd::bulk::Compressor::new(LEVEL).map_err(|e| e.to_string())?,
            counts: vec![0; 1 << 16],
            codes: vec![0; 1 << 16],
            keys: Vec::new(),
            table: Vec::new(),
            by_key: Vec::new(),
            list: Vec::new(),
            bitmap: Vec::new(),
            values: Vec::new(),
        })
    }

    /// The bytes of one block of `records`, as a file holds them.
    ///
    /// # Errors
    /// zstd's own failure, as text.
    pub fn encode(&mut self, records: &[u16]) -> Result<Vec<u8>, String> {
        // Groups of one or of two ranks, whichever an estimate of their cost says is
        // smaller (the codes' order-0 entropy and the table); groups of two are ruled out
        // when their table would pass 2^16 entries (single values never do).
        self.singles(records);
        let one = estimate(&self.table, 1);
        self.pairs(records);
        let group = if self.table.len() <= 1 << 16 && estimate(&self.table, 2) < one {
            2
        } else {
            1
        };
        self.encode_in(records, group)
    }

    /// The bytes of one block of `records` in groups of `group` ranks (`2` only when the
    /// block has at most 2^16 distinct pairs).
    fn encode_in(&mut self, records: &[u16], group: usize) -> Result<Vec<u8>, String> {
        if group == 1 {
            self.singles(records);
        } else {
            self.pairs(records);
        }
        self.lay_out(records, group);
        let mut out = self.zstd.compress(&self.bitmap).map_err(|e| e.to_string())?;
        let values = self.zstd.compress(&self.values).map_err(|e| e.to_string())?;
        out.extend_from_slice(&values);
        Ok(out)
    }

    /// The distinct groups of one rank, most frequent first (ties by value), in
    /// `self.table`; `self.counts` is left zeroed.
    fn singles(&mut self, records: &[u16]) {
        self.table.clear();
        for &r in records {
            if r != 0 {
                let c = &mut self.counts[usize::from(r)];
                if *c == 0 {
                    self.table.push((0, u32::from(r)));
                }
                *c += 1;
            }
        }
        for e in &mut self.table {
            e.0 = std::mem::take(&mut self.counts[e.1 as usize]);
        }
        sort_table(&mut self.table);
    }

    /// The distinct groups of two ranks in `self.table`, as [`Encoder::singles`].
    fn pairs(&mut self, records: &[u16]) {
        self.keys.clear();
        self.keys.extend(records.chunks(2).map(pair_key).filter(|&k| k != 0));
        self.keys.sort_unstable();
        self.table.clear();
        for &k in &self.keys {
            match self.table.last_mut() {
                Some(last) if last.1 == k => last.0 += 1,
                _ => self.table.push((1, k)),
            }
        }
        sort_table(&mut self.table);
    }

    /// The bitmap and values frames' contents for groups of `group` ranks, whose table
    /// `self.table` holds.
    fn lay_out(&mut self, records: &[u16], group: usize) {
        let groups = records.len().div_ceil(group);
        self.bitmap.clear();
        self.bitmap.push(group as u8);
        self.bitmap.resize(1 + groups.div_ceil(8), 0);
        let k = self.table.len();
        self.values.clear();
        self.values.extend_from_slice(&(k as u32).to_le_bytes());
        for &(_, key) in &self.table {
            self.values.extend_from_slice(&(key as u16).to_le_bytes());
            if group == 2 {
                self.values.extend_from_slice(&((key >> 16) as u16).to_le_bytes());
            }
        }
        // Each group's code: by a table indexed by value for groups of one, by binary
        // search among the entries sorted by key for groups of two.
        self.by_key.clear();
        if group == 1 {
            for (code, &(_, v)) in self.table.iter().enumerate() {
                self.codes[v as usize] = code as u16;
            }
        } else {
            self.by_key.extend(
                self.table
                    .iter()
                    .enumerate()
                    .map(|(code, &(_, key))| (key, code as u16)),
            );
            self.by_key.sort_unstable();
        }
        self.list.clear();
        for (i, chunk) in records.chunks(group).enumerate() {
            let key = if group == 1 {
                u32::from(chunk[0])
            } else {
                pair_key(chunk)
            };
            if key == 0 {
                continue;
            }
            self.bitmap[1 + i / 8] |= 1 << (i % 8);
            self.list.push(if group == 1 {
                self.codes[key as usize]
            } else {
                let at = self
                    .by_key
                    .binary_search_by_key(&key, |e| e.0)
                    .expect("every group is in the table");
                self.by_key[at].1
            });
        }
        match code_bits(k) {
            0 => {}
            16 => {
                self.values.extend(self.list.iter().map(|&c| c as u8));
                self.values.extend(self.list.iter().map(|&c| (c >> 8) as u8));
            }
            bits => {
                for codes in self.list.chunks(8 / bits as usize) {
                    let byte = codes
                        .iter()
                        .enumerate()
                        .fold(0u8, |b, (x, &c)| b | (c as u8) << (x as u32 * bits));
                    self.values.push(byte);
                }
            }
        }
    }
}

/// `a | b << 16` for a group of two ranks (the second `0` past the block's end).
fn pair_key(chunk: &[u16]) -> u32 {
    u32::from(chunk[0]) | u32::from(chunk.get(1).copied().unwrap_or(0)) << 16
}

/// Most frequent first, ties by key.
fn sort_table(table: &mut [(u32, u32)]) {
    table.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
}

/// Bytes the codes would take at their order-0 entropy, plus the table.
fn estimate(table: &[(u32, u32)], group: usize) -> f64 {
    let n: f64 = table.iter().map(|e| f64::from(e.0)).sum();
    let bits: f64 = table
        .iter()
        .map(|e| {
            let c = f64::from(e.0);
            c * (n / c).log2()
        })
        .sum();
    bits / 8.0 + (table.len() * 2 * group) as f64
}

/// A block decoded: its bitmap with counts to find a reached rank's code at once, its
/// table and its codes.
#[derive(Debug, Clone, Default)]
pub struct Block {
    records: usize,
    group: usize,
    /// The bitmap as words, lowest group first.
    words: Vec<u64>,
    /// Reached groups before each word.
    before: Vec<u32>,
    /// The table: `group` records an entry.
    table: Vec<u16>,
    bits: u32,
    /// The codes as stored.
    codes: Vec<u8>,
    /// The number of codes.
    reached: usize,
}

/// Why a block's bytes are not a block of its records.
pub type Damage = String;

impl Block {
    /// Decodes the bytes of a block of `records` records, checking that they hold exactly
    /// that: two frames, a bitmap of the block's groups, a table and a code for each
    /// reached group, every code in the table. `scratch` is reused between blocks.
    ///
    /// # Errors
    /// What is wrong, as text.
    pub fn decode(
        raw: &[u8],
        records: usize,
        zstd: &mut zstd::bulk::Decompressor<'_>,
        scratch: &mut Vec<u8>,
        into: &mut Block,
    ) -> Result<(), Damage> {
        let first = zstd::zstd_safe::find_frame_compressed_size(raw)
            .map_err(|e| format!("no bitmap frame ({})", zstd::zstd_safe::get_error_name(e)))?;
        let (bitmap_frame, values_frame) = raw.split_at(first);
        // The bitmap: groups of one rank make the longest.
        scratch.clear();
        scratch.reserve(1 + records.div_ceil(8));
        let got = zstd
            .decompress_to_buffer(bitmap_frame, scratch)
            .map_err(|e| format!("zstd refuses its bitmap: {e}"))?;
        let group = match scratch.first() {
            Some(&g @ (1 | 2)) => usize::from(g),
            Some(g) => return Err(format!("groups of {g} ranks (1 or 2)")),
            None => return Err("an empty bitmap frame".into()),
        };
        let groups = records.div_ceil(group);
        if got != 1 + groups.div_ceil(8) {
            return Err(format!(
                "a bitmap of {} bytes, not {} for {groups} groups",
                got - 1,
                groups.div_ceil(8)
            ));
        }
        into.records = records;
        into.group = group;
        into.words.clear();
        into.before.clear();
        let mut reached = 0u32;
        for chunk in scratch[1..].chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            into.before.push(reached);
            let word = u64::from_le_bytes(w);
            reached += word.count_ones();
            into.words.push(word);
        }
        if groups % 64 != 0 {
            let last = into.words.last().copied().unwrap_or(0);
            if last >> (groups % 64) != 0 {
                return Err("bits set past the block's last group".into());
            }
        }
        let m = reached as usize;
        into.reached = m;
        // The values: at most a table entry and a 16-bit code for each reached group.
        let most = COUNT + m * 2 * group + 2 * m;
        scratch.clear();
        scratch.reserve(most);
        let got = zstd
            .decompress_to_buffer(values_frame, scratch)
            .map_err(|e| format!("zstd refuses its values: {e}"))?;
        let rest = zstd::zstd_safe::find_frame_compressed_size(values_frame)
            .map_err(|e| format!("no values frame ({})", zstd::zstd_safe::get_error_name(e)))?;
        if rest != values_frame.len() {
            return Err(format!(
                "{} bytes after its values frame",
                values_frame.len() - rest
            ));
        }
        if got < COUNT {
            return Err(format!("a values frame of {got} bytes"));
        }
        let k = u32::from_le_bytes(scratch[..COUNT].try_into().expect("4 bytes")) as usize;
        let most_k = if group == 1 { m.min((1 << 16) - 1) } else { m.min(1 << 16) };
        if k > most_k || (k == 0) != (m == 0) {
            return Err(format!(
                "a table of {k} entries for {m} reached groups"
            ));
        }
        let bits = code_bits(k);
        let want = COUNT + 2 * group * k + codes_len(m, bits);
        if got != want {
            return Err(format!(
                "a values frame of {got} bytes, not {want} for {k} entries and {m} codes"
            ));
        }
        into.table.clear();
        into.table.extend(
            scratch[COUNT..COUNT + 2 * group * k]
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]])),
        );
        if let Some(e) = into.table.chunks(group).position(|e| e.iter().all(|&r| r == 0)) {
            return Err(format!("table entry {e} is unreached"));
        }
        into.bits = bits;
        into.codes.clear();
        into.codes.extend_from_slice(&scratch[COUNT + 2 * group * k..]);
        // Every code names an entry; padding bits of the last byte are zero.
        if bits != 0 {
            for j in 0..m {
                let c = into.code(j);
                if c >= k {
                    return Err(format!("code {c} of a table of {k} entries"));
                }
            }
            if bits < 8 && m % (8 / bits as usize) != 0 {
                let last = into.codes.last().copied().unwrap_or(0);
                let used = (m % (8 / bits as usize)) as u32 * bits;
                if last >> used != 0 {
                    return Err("bits set past the last code".into());
                }
            }
        }
        Ok(())
    }

    /// The code of the `j`th reached group.
    fn code(&self, j: usize) -> usize {
        match self.bits {
            0 => 0,
            16 => usize::from(u16::from_le_bytes([
                self.codes[j],
                self.codes[self.reached + j],
            ])),
            b => {
                let per = 8 / b as usize;
                let byte = self.codes[j / per];
                usize::from((byte >> ((j % per) as u32 * b)) & ((1u16 << b) - 1) as u8)
            }
        }
    }

    /// The number of records.
    #[must_use]
    pub fn records(&self) -> usize {
        self.records
    }

    /// The record at `i` (below [`Block::records`]).
    #[must_use]
    pub fn get(&self, i: usize) -> u16 {
        let g = i / self.group;
        let (w, b) = (g / 64, g % 64);
        let word = self.words[w];
        if word >> b & 1 == 0 {
            return 0;
        }
        let j = self.before[w] as usize + (word & ((1u64 << b) - 1)).count_ones() as usize;
        self.table[self.code(j) * self.group + i % self.group]
    }

    /// Every record, into `out` (exactly [`Block::records`] long).
    pub fn expand(&self, out: &mut [u16]) {
        assert_eq!(out.len(), self.records);
        out.fill(0);
        let mut j = 0;
        for (w, &word) in self.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let g = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let entry = self.code(j) * self.group;
                j += 1;
                for (x, o) in out[g * self.group..]
                    .iter_mut()
                    .take(self.group)
                    .enumerate()
                {
                    *o = self.table[entry + x];
                }
            }
        }
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode(bytes: &[u8], n: usize) -> Result<Block, Damage> {
        let mut zstd = zstd::bulk::Decompressor::new().unwrap();
        let mut block = Block::default();
        Block::decode(bytes, n, &mut zstd, &mut Vec::new(), &mut block)?;
        Ok(block)
    }

    /// Records from an alphabet of `distinct` values (0, unreached, among them), so that
    /// every width of code is met.
    fn records(distinct: u16) -> impl Strategy<Value = Vec<u16>> {
        (
            prop::collection::vec(any::<u16>(), 1..=usize::from(distinct)),
            prop::collection::vec(any::<prop::sample::Index>(), 0..600),
        )
            .prop_map(|(alphabet, picks)| {
                picks.into_iter().map(|i| *i.get(&alphabet)).collect()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Every record comes back, by `get` and by `expand`, in groups of one, of two and
        /// of the encoder's choice.
        #[test]
        fn blocks_round_trip(
            r in prop_oneof![records(2), records(3), records(5), records(17), records(300), records(2000)],
            mostly_unreached in any::<bool>(),
        ) {
            let mut r = r;
            if mostly_unreached {
                r.iter_mut().enumerate().filter(|(i, _)| i % 7 != 0).for_each(|(_, x)| *x = 0);
            }
            let mut enc = Encoder::new().unwrap();
            for group in [None, Some(1), Some(2)] {
                let bytes = match group {
                    None => enc.encode(&r).unwrap(),
                    Some(g) => enc.encode_in(&r, g).unwrap(),
                };
                prop_assert!(bytes.len() as u64 <= max_len(r.len() as u64));
                let block = decode(&bytes, r.len()).unwrap();
                let mut out = vec![1; r.len()];
                block.expand(&mut out);
                prop_assert_eq!(&out, &r);
                for (i, &x) in r.iter().enumerate() {
                    prop_assert_eq!(block.get(i), x);
                }
                // The same records give the same bytes.
                let again = match group {
                    None => enc.encode(&r).unwrap(),
                    Some(g) => enc.encode_in(&r, g).unwrap(),
                };
                prop_assert_eq!(again, bytes);
            }
        }
    }

    #[test]
    fn every_width_of_code_is_written_and_read() {
        let mut enc = Encoder::new().unwrap();
        for (distinct, bits) in [(1u16, 0), (2, 1), (4, 2), (16, 4), (256, 8), (257, 16), (65_535, 16)] {
            // Each value 1..=distinct, one after another, then again: every one reached.
            let r: Vec<u16> = (0..2 * u32::from(distinct)).map(|i| (i % u32::from(distinct)) as u16 + 1).collect();
            let bytes = enc.encode_in(&r, 1).unwrap();
            let block = decode(&bytes, r.len()).unwrap();
            assert_eq!(block.bits, bits, "{distinct} values");
            assert_eq!(block.table.len(), usize::from(distinct));
            let mut out = vec![0; r.len()];
            block.expand(&mut out);
            assert_eq!(out, r);
        }
    }

    #[test]
    fn neighbours_that_go_together_are_coded_as_pairs() {
        // A board with either player to move, whose two records go together: 4 pairs,
        // where one rank at a time sees 8 values.
        let r: Vec<u16> = (0..4096u32)
            .flat_map(|i| {
                let v = [5u16, 9, 13, 17][(i.wrapping_mul(2_654_435_761) >> 30) as usize];
                [v, v + 1]
            })
            .collect();
        let bytes = Encoder::new().unwrap().encode(&r).unwrap();
        let block = decode(&bytes, r.len()).unwrap();
        assert_eq!((block.group, block.table.len() / 2), (2, 4));
        // An empty block and one of a single unreached rank.
        for r in [vec![], vec![0u16]] {
            let bytes = Encoder::new().unwrap().encode(&r).unwrap();
            let block = decode(&bytes, r.len()).unwrap();
            assert_eq!((block.reached, block.table.len()), (0, 0));
        }
    }
}
