//! The ranks one worker sends another in a round (children to mark, or whose records it
//! asks), kept as one bit a place of the receiver's part of a tier: marking a rank twice
//! is free, the ranks come out sorted and distinct without a sort of the ranks, and the
//! place of a rank among those sent (where its record is in the answer, which comes back
//! in the order asked) is a count of bits, not a search.

/// 64 places: which are set, and (valid for the words listed, once sealed) how many are
/// set in earlier words; side by side, so that `index` reads one cache line.
#[derive(Clone, Copy, Default)]
struct Word {
    bits: u64,
    before: u64,
}

/// The places of one worker's part of one tier asked in this round.
///
/// `mark` sets a place's bit and lists its word the first time the word gets one;
/// `seal` puts the words in order (sorting the listed words when few, else scanning
/// all of them), counts the bits before each, and hands out the places in order;
/// `index` is then a place's position among them; `clear` empties the words listed.
pub struct Asked {
    words: Vec<Word>,
    /// The words with a bit set, each once (in order once sealed).
    touched: Vec<usize>,
    sealed: bool,
}

impl Asked {
    /// An empty set over `len` places.
    pub fn new(len: usize) -> Asked {
        let words = len.div_ceil(64);
        Asked {
            words: vec![Word::default(); words],
            touched: Vec::new(),
            sealed: false,
        }
    }

    /// The number of places it can hold (a multiple of 64).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.words.len() * 64
    }

    /// Whether nothing is marked.
    pub fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Marks `place` (less than [`Asked::len`]).
    #[inline]
    pub fn mark(&mut self, place: usize) {
        debug_assert!(!self.sealed, "marked after sealing");
        let word = &mut self.words[place / 64].bits;
        if *word == 0 {
            self.touched.push(place / 64);
        }
        *word |= 1 << (place % 64);
    }

    /// Puts the marked places in order, calls `each` on every one of them in increasing
    /// order, and returns their count; [`Asked::index`] answers after it.
    pub fn seal(&mut self, mut each: impl FnMut(usize)) -> usize {
        if self.touched.len() * 16 >= self.words.len() {
            // Dense: a scan of the words costs less than sorting the list of them.
            self.touched.clear();
            self.touched.extend(
                self.words
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.bits != 0)
                    .map(|(w, _)| w),
            );
        } else {
            self.touched.sort_unstable();
        }
        let mut count = 0u64;
        for &w in &self.touched {
            self.words[w].before = count;
            let mut b = self.words[w].bits;
            count += u64::from(b.count_ones());
            while b != 0 {
                each(w * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
        self.sealed = true;
        count as usize
    }

    /// The position of the marked `place` among the marked places, in increasing order
    /// (after [`Asked::seal`]); `None` if it is not marked.
    #[inline]
    pub fn index(&self, place: usize) -> Option<usize> {
        debug_assert!(self.sealed, "looked up before sealing");
        let Word { bits: b, before } = *self.words.get(place / 64)?;
        let bit = 1u64 << (place % 64);
        if b & bit == 0 {
            return None;
        }
        Some((before + u64::from((b & (bit - 1)).count_ones())) as usize)
    }

    /// Calls `each` on every marked place in increasing order (after [`Asked::seal`]).
    pub fn places(&self, mut each: impl FnMut(usize)) {
        debug_assert!(self.sealed, "listed before sealing");
        for &w in &self.touched {
            let mut b = self.words[w].bits;
            while b != 0 {
                each(w * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
    }

    /// Unmarks everything, for the next round.
    pub fn clear(&mut self) {
        if self.touched.len() * 4 >= self.words.len() {
            self.words.iter_mut().for_each(|w| w.bits = 0);
        } else {
            for &w in &self.touched {
                self.words[w].bits = 0;
            }
        }
        self.touched.clear();
        self.sealed = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The simple way: sort, deduplicate, search.
    fn check(len: usize, marks: &[usize]) -> Result<(), TestCaseError> {
        let mut a = Asked::new(len);
        for &m in marks {
            a.mark(m);
        }
        let mut want: Vec<usize> = marks.to_vec();
        want.sort_unstable();
        want.dedup();
        let mut got = Vec::new();
        let n = a.seal(|p| got.push(p));
        prop_assert_eq!(n, want.len());
        prop_assert_eq!(&got, &want);
        for p in 0..a.len() {
            prop_assert_eq!(a.index(p), want.binary_search(&p).ok());
        }
        let mut listed = Vec::new();
        a.places(|p| listed.push(p));
        prop_assert_eq!(&listed, &want);
        a.clear();
        prop_assert!(a.is_empty());
        prop_assert_eq!(a.seal(|_| ()), 0);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn sorted_distinct_and_indexed_as_a_search_finds_them(
            len in 1usize..3000,
            raw in proptest::collection::vec(any::<usize>(), 0..400),
            dense in any::<bool>(),
        ) {
            // Dense: marks crowded into a few words (the scan); sparse: spread (the sort).
            let span = if dense { len.min(200) } else { len };
            let marks: Vec<usize> = raw.iter().map(|r| r % span).collect();
            check(len, &marks)?;
        }
    }

    #[test]
    fn reused_after_clear() {
        let mut a = Asked::new(1000);
        for p in [5, 900, 5, 64, 63] {
            a.mark(p);
        }
        let mut got = Vec::new();
        assert_eq!(a.seal(|p| got.push(p)), 4);
        assert_eq!(got, [5, 63, 64, 900]);
        assert_eq!(a.index(64), Some(2));
        assert_eq!(a.index(65), None);
        a.clear();
        a.mark(999);
        got.clear();
        assert_eq!(a.seal(|p| got.push(p)), 1);
        assert_eq!(got, [999]);
        assert_eq!(a.index(999), Some(0));
        assert_eq!(a.index(5), None);
    }
}
