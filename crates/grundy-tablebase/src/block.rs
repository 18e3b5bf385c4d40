//! The records of one block as a version-2 file holds them (`docs/tablebase-format.md`,
//! "Blocks"): which ranks are reached, as a bitmap, apart from the values of the reached
//! ones; the values taken one or two ranks at a time (a group: two neighbouring ranks are
//! often one board with either player to move), each group replaced by its place in a
//! table of the block's groups, packed in as few bits as the table allows. The bitmap and
//! the codes are one zstd frame each.
//!
//! Everything depends on the block's records alone, so a block is the same bytes whoever
//! encodes it (the distributed solver's workers encode the blocks of the ranks they own).

/// The most bytes zstd may take for `raw` bytes of input (its `ZSTD_COMPRESSBOUND`); a block
/// longer than this was not written by zstd.
#[must_use]
pub const fn compress_bound(raw: u64) -> u64 {
    raw + (raw >> 8)
        + if raw < (128 << 10) {
            ((128 << 10) - raw) >> 11
        } else {
            0
        }
}

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
    counts: Box<[u32; 1 << 16]>,
    /// Each value's code (groups of one).
    codes: Box<[u16; 1 << 16]>,
    /// Groups of two as `a | b << 16`: their counts, then their codes.
    pairs: PairTable,
    /// `(count, key)` of each distinct group.
    table: Vec<(u32, u32)>,
    /// The table of groups of one, kept while groups of two are counted.
    kept: Vec<(u32, u32)>,
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
        Encoder::with_level(LEVEL)
    }

    /// An encoder at another zstd level: for measurements (`examples/models.rs`); files
    /// are written at [`LEVEL`], so that a block is the same bytes whoever writes it.
    ///
    /// # Errors
    /// zstd's own failure, as text.
    pub fn with_level(level: i32) -> Result<Encoder, String> {
        Ok(Encoder {
            zstd: zstd::bulk::Compressor::new(level).map_err(|e| e.to_string())?,
            counts: boxed(),
            codes: boxed(),
            pairs: PairTable::new(),
            table: Vec::new(),
            kept: Vec::new(),
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
        std::mem::swap(&mut self.table, &mut self.kept);
        let group = if self.pairs(records) && estimate(&self.table, 2) < one {
            2
        } else {
            std::mem::swap(&mut self.table, &mut self.kept);
            1
        };
        self.compress(records, group)
    }

    /// The bytes of one block of `records` in groups of `group` ranks (`2` only when the
    /// block has at most 2^16 distinct pairs), whatever the estimate says.
    #[cfg(test)]
    fn encode_in(&mut self, records: &[u16], group: usize) -> Result<Vec<u8>, String> {
        if group == 1 {
            self.singles(records);
        } else {
            assert!(
                self.pairs(records),
                "groups of two with at most 2^16 distinct"
            );
        }
        self.compress(records, group)
    }

    /// Lays out and compresses `records` in groups of `group`, whose table is ready.
    fn compress(&mut self, records: &[u16], group: usize) -> Result<Vec<u8>, String> {
        self.lay_out(records, group);
        let mut out = self
            .zstd
            .compress(&self.bitmap)
            .map_err(|e| e.to_string())?;
        let values = self
            .zstd
            .compress(&self.values)
            .map_err(|e| e.to_string())?;
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

    /// The distinct groups of two ranks in `self.table`, as [`Encoder::singles`], each
    /// key's code left in `self.pairs`; `false` (and no table) past 2^16 of them.
    fn pairs(&mut self, records: &[u16]) -> bool {
        self.pairs.clear();
        self.table.clear();
        for chunk in records.chunks(2) {
            let key = pair_key(chunk);
            if key != 0 && !self.pairs.add(key) {
                return false;
            }
        }
        self.table.extend(self.pairs.entries());
        sort_table(&mut self.table);
        for (code, &(_, key)) in self.table.iter().enumerate() {
            self.pairs.set(key, code as u32);
        }
        true
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
                self.values
                    .extend_from_slice(&((key >> 16) as u16).to_le_bytes());
            }
        }
        // Each group's code: by a table indexed by value for groups of one, from the
        // hash table of pairs for groups of two.
        if group == 1 {
            for (code, &(_, v)) in self.table.iter().enumerate() {
                self.codes[v as usize] = code as u16;
            }
        }
        let Encoder {
            bitmap,
            list,
            codes,
            pairs,
            ..
        } = self;
        list.clear();
        // Eight groups a byte of the bitmap.
        for (byte, eight) in bitmap[1..].iter_mut().zip(records.chunks(8 * group)) {
            let mut b = 0u8;
            if group == 1 {
                for (x, &r) in eight.iter().enumerate() {
                    if r != 0 {
                        b |= 1 << x;
                        list.push(codes[usize::from(r)]);
                    }
                }
            } else {
                for (x, pair) in eight.chunks(2).enumerate() {
                    let key = pair_key(pair);
                    if key != 0 {
                        b |= 1 << x;
                        list.push(pairs.get(key) as u16);
                    }
                }
            }
            *byte = b;
        }
        match code_bits(k) {
            0 => {}
            16 => {
                self.values.extend(self.list.iter().map(|&c| c as u8));
                self.values
                    .extend(self.list.iter().map(|&c| (c >> 8) as u8));
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

/// A zeroed array on the heap, indexed by a record value without a bounds check.
fn boxed<T: Copy + Default>() -> Box<[T; 1 << 16]> {
    vec![T::default(); 1 << 16]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("2^16 entries"))
}

/// A hash table from the nonzero keys of pairs to a number (a count, then a code), of at
/// most 2^16 keys: open addressing in 2^17 slots, so never more than half full.
struct PairTable {
    slots: Box<[(u32, u32); 1 << PairTable::BITS]>,
    /// The slots in use, to clear them (a block touches few of them).
    used: Vec<u32>,
}

impl PairTable {
    const BITS: u32 = 17;

    fn new() -> PairTable {
        PairTable {
            slots: vec![(0, 0); 1 << Self::BITS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("2^17 slots")),
            used: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for &i in &self.used {
            self.slots[i as usize] = (0, 0);
        }
        self.used.clear();
    }

    /// The slot of `key`: where it is, or the empty one where it goes.
    fn slot(&self, key: u32) -> usize {
        let mask = (1 << Self::BITS) - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> (32 - Self::BITS)) as usize;
        loop {
            let k = self.slots[i & mask].0;
            if k == key || k == 0 {
                return i & mask;
            }
            i += 1;
        }
    }

    /// Counts one more `key`; `false`, counting nothing, if it would be key 2^16 + 1.
    fn add(&mut self, key: u32) -> bool {
        let i = self.slot(key);
        if self.slots[i].0 == 0 {
            if self.used.len() == 1 << 16 {
                return false;
            }
            self.slots[i].0 = key;
            self.used.push(i as u32);
        }
        self.slots[i].1 += 1;
        true
    }

    /// `(count, key)` of every key.
    fn entries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.used.iter().map(|&i| {
            let (key, n) = self.slots[i as usize];
            (n, key)
        })
    }

    fn set(&mut self, key: u32, value: u32) {
        let i = self.slot(key);
        self.slots[i].1 = value;
    }

    fn get(&self, key: u32) -> u32 {
        self.slots[self.slot(key)].1
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
    /// The code of each reached group, in order.
    codes: Vec<u16>,
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
        let most_k = if group == 1 {
            m.min((1 << 16) - 1)
        } else {
            m.min(1 << 16)
        };
        if k > most_k || (k == 0) != (m == 0) {
            return Err(format!("a table of {k} entries for {m} reached groups"));
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
        if let Some(e) = into
            .table
            .chunks(group)
            .position(|e| e.iter().all(|&r| r == 0))
        {
            return Err(format!("table entry {e} is unreached"));
        }
        into.bits = bits;
        // Every code names an entry; padding bits of the last byte are zero.
        let packed = &scratch[COUNT + 2 * group * k..];
        into.codes.clear();
        match bits {
            0 => into.codes.resize(m, 0),
            16 => {
                let (low, high) = packed.split_at(m);
                into.codes.extend(
                    low.iter()
                        .zip(high)
                        .map(|(&l, &h)| u16::from_le_bytes([l, h])),
                );
            }
            b => {
                let per = 8 / b as usize;
                let mask = ((1u16 << b) - 1) as u8;
                for &byte in packed {
                    for x in 0..per as u32 {
                        into.codes.push(u16::from(byte >> (x * b) & mask));
                    }
                }
                if into.codes[m..].iter().any(|&c| c != 0) {
                    return Err("bits set past the last code".into());
                }
                into.codes.truncate(m);
            }
        }
        if let Some(&c) = into.codes.iter().find(|&&c| usize::from(c) >= k.max(1)) {
            return Err(format!("code {c} of a table of {k} entries"));
        }
        Ok(())
    }

    /// The code of the `j`th reached group.
    fn code(&self, j: usize) -> usize {
        usize::from(self.codes[j])
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

    /// Calls `each(i, record)` for every record of the block that is not `0`, by
    /// increasing `i`, without expanding the block: a partial tier read a position at a
    /// time.
    ///
    /// # Errors
    /// The first error `each` returns, which stops the walk.
    pub fn for_each_reached<E>(
        &self,
        mut each: impl FnMut(usize, u16) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut codes = self.codes.iter();
        for (w, &word) in self.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let g = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let code = usize::from(*codes.next().expect("a code for each reached group"));
                let entry = &self.table[code * self.group..(code + 1) * self.group];
                for (x, &r) in entry.iter().enumerate() {
                    let i = g * self.group + x;
                    // A group of two may hang past the block's end, its missing record 0.
                    if r != 0 && i < self.records {
                        each(i, r)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Every record, into `out` (exactly [`Block::records`] long).
    pub fn expand(&self, out: &mut [u16]) {
        assert_eq!(out.len(), self.records);
        out.fill(0);
        let mut codes = self.codes.iter();
        for (w, &word) in self.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let g = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let code = usize::from(*codes.next().expect("a code for each reached group"));
                if self.group == 1 {
                    out[g] = self.table[code];
                } else {
                    let entry = &self.table[2 * code..2 * code + 2];
                    out[2 * g] = entry[0];
                    if let Some(o) = out.get_mut(2 * g + 1) {
                        *o = entry[1];
                    }
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
            .prop_map(|(alphabet, picks)| picks.into_iter().map(|i| *i.get(&alphabet)).collect())
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
        for (distinct, bits) in [
            (1u16, 0),
            (2, 1),
            (4, 2),
            (16, 4),
            (256, 8),
            (257, 16),
            (65_535, 16),
        ] {
            // Each value 1..=distinct, one after another, then again: every one reached.
            let r: Vec<u16> = (0..2 * u32::from(distinct))
                .map(|i| (i % u32::from(distinct)) as u16 + 1)
                .collect();
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
