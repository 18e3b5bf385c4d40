//! A deterministic xorshift generator for unit tests that sweep many pseudo-random cases
//! (the integration tests use proptest).

/// Marsaglia's xorshift64 from a fixed nonzero seed.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        debug_assert_ne!(seed, 0, "xorshift never leaves 0");
        Rng(seed)
    }

    /// The next number below `m` (`m > 0`).
    pub(crate) fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}
