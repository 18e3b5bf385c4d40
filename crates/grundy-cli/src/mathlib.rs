//! The four functions of the C math library the binary calls (through `f64::ln`, `log2`,
//! `log10` and `powf`, in its dependencies and once in the tablebase's size estimate), from
//! the `libm` crate instead: with none of its symbols left to resolve, the linker drops
//! `libm.so` (it links with `--as-needed`), and each start no longer maps and relocates it —
//! about 340 KB of the peak memory of a small solve (its resolvers of CPU-specific variants
//! are run at load time, each on a page of its own).
//!
//! Linux with glibc only, where the system library is a separate `libm.so`.

/// `log` for the binary (natural logarithm).
#[no_mangle]
pub extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

/// `log2` for the binary.
#[no_mangle]
pub extern "C" fn log2(x: f64) -> f64 {
    libm::log2(x)
}

/// `log10` for the binary.
#[no_mangle]
pub extern "C" fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// `pow` for the binary.
#[no_mangle]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    /// Exact where the result is exact, the edge cases as C's, and each function the
    /// inverse of `pow` to within rounding.
    #[test]
    fn exact_and_close() {
        assert_eq!(super::log2(8.0), 3.0);
        assert_eq!(super::log10(1000.0), 3.0);
        assert_eq!(super::pow(10.0, 6.0), 1e6);
        assert_eq!(super::pow(2.0, -3.0), 0.125);
        assert_eq!(super::log(1.0), 0.0);
        assert!(super::log(-1.0).is_nan());
        assert_eq!(super::log(0.0), f64::NEG_INFINITY);
        for i in 1..2000 {
            let x = f64::from(i) * 0.37;
            let e = std::f64::consts::E;
            assert!((super::pow(e, super::log(x)) - x).abs() <= 1e-12 * x, "{x}");
            assert!(
                (super::pow(2.0, super::log2(x)) - x).abs() <= 1e-12 * x,
                "{x}"
            );
            assert!(
                (super::pow(10.0, super::log10(x)) - x).abs() <= 1e-12 * x,
                "{x}"
            );
        }
    }
}
