//! Fallible allocation of the tables whose size comes from the input (a rank table, the
//! moves of an exploration): asked of the allocator first, so that running out is a
//! refusal with the figures ([`Error::TooLarge`]), never an abort of the process.

use std::collections::TryReserveError;

use crate::Error;

/// The refusal for `bytes` the allocator would not give to `what`.
fn refused(what: &str, bytes: u128, _e: TryReserveError) -> Error {
    Error::TooLarge {
        what: format!("out of memory for {what}"),
        need: Some(u64::try_from(bytes).unwrap_or(u64::MAX)),
    }
}

/// A vector of `len` copies of `value`, or a refusal if the memory cannot be had.
///
/// # Errors
/// [`Error::TooLarge`] with the bytes asked for.
pub(crate) fn filled<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|e| refused(what, bytes_of::<T>(len), e))?;
    v.resize(len, value);
    Ok(v)
}

/// Room for `extra` more elements in `v` (amortized, as `Vec::reserve`), or a refusal.
///
/// # Errors
/// [`Error::TooLarge`] with the bytes the vector would then take.
#[inline]
pub(crate) fn reserve<T>(v: &mut Vec<T>, extra: usize, what: &str) -> Result<(), Error> {
    if v.capacity() - v.len() >= extra {
        return Ok(());
    }
    v.try_reserve(extra)
        .map_err(|e| refused(what, bytes_of::<T>(v.len().saturating_add(extra)), e))
}

/// A copy of `slice`, or a refusal.
///
/// # Errors
/// [`Error::TooLarge`] with the bytes of the copy.
pub(crate) fn copied<T: Copy>(slice: &[T], what: &str) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(slice.len())
        .map_err(|e| refused(what, bytes_of::<T>(slice.len()), e))?;
    v.extend_from_slice(slice);
    Ok(v)
}

/// Room for `extra` more entries in a hash map, or a refusal.
///
/// # Errors
/// [`Error::TooLarge`] with an estimate of the map's bytes then.
#[inline]
pub(crate) fn reserve_map<K: Eq + std::hash::Hash, V, S: std::hash::BuildHasher>(
    map: &mut std::collections::HashMap<K, V, S>,
    extra: usize,
    what: &str,
) -> Result<(), Error> {
    map.try_reserve(extra).map_err(|e| {
        // A table of buckets of key, value and a control byte, at most 8/7 full.
        let entries = map.len().saturating_add(extra) as u128;
        let bucket = (std::mem::size_of::<(K, V)>() + 1) as u128;
        refused(what, entries * 8 / 7 * bucket, e)
    })
}

fn bytes_of<T>(len: usize) -> u128 {
    (len as u128).saturating_mul(std::mem::size_of::<T>() as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_table_is_refused_with_its_size() {
        // More than any address space: the allocator refuses, the process goes on.
        let e = filled(usize::MAX / 8, 0u64, "a test table").unwrap_err();
        match e {
            Error::TooLarge { what, need } => {
                assert!(what.contains("a test table"), "{what}");
                assert!(need.unwrap() > 1 << 60);
            }
            other => panic!("{other:?}"),
        }
        let mut v = vec![1u32];
        assert!(reserve(&mut v, usize::MAX / 2, "moves").is_err());
        assert_eq!(v, [1]);
        let mut map = std::collections::HashMap::<u64, u32>::new();
        assert!(reserve_map(&mut map, usize::MAX / 4, "ids").is_err());
        assert_eq!(filled(3, 7u8, "t").unwrap(), [7, 7, 7]);
        assert_eq!(copied(&[1, 2], "t").unwrap(), [1, 2]);
    }
}
