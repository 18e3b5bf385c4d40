//! The bytes of messages: LEB128 varints, ranks sorted and sent as gaps, records as two
//! little-endian bytes.

/// Appends `v` as a LEB128 varint (7 bits a byte).
pub fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a signed number, zigzag-coded.
pub fn put_signed(out: &mut Vec<u8>, v: i64) {
    put(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Reads the bytes of a message in order.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// A message that does not decode: another build sent it, or it was cut.
#[derive(Debug)]
pub struct Malformed;

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    pub fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    pub fn get(&mut self) -> Result<u64, Malformed> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or(Malformed)?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Malformed)
    }

    pub fn get_signed(&mut self) -> Result<i64, Malformed> {
        let v = self.get()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    pub fn get_u16(&mut self) -> Result<u16, Malformed> {
        let b = self.bytes.get(self.at..self.at + 2).ok_or(Malformed)?;
        self.at += 2;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// What is left.
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = &self.bytes[self.at.min(self.bytes.len())..];
        self.at = self.bytes.len();
        rest
    }

    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], Malformed> {
        let b = self
            .bytes
            .get(self.at..self.at.checked_add(n).ok_or(Malformed)?)
            .ok_or(Malformed)?;
        self.at += n;
        Ok(b)
    }
}

/// Appends sorted, distinct `ranks` as their count and the gaps between them.
pub fn put_ranks(out: &mut Vec<u8>, ranks: &[u64]) {
    put(out, ranks.len() as u64);
    let mut last = 0;
    for &r in ranks {
        put(out, r - last);
        last = r;
    }
}

/// Reads what [`put_ranks`] wrote into `into` (cleared first).
pub fn get_ranks(r: &mut Reader<'_>, into: &mut Vec<u64>) -> Result<(), Malformed> {
    into.clear();
    let n = r.get()?;
    let mut last = 0u64;
    for _ in 0..n {
        last = last.checked_add(r.get()?).ok_or(Malformed)?;
        into.push(last);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_ranks_round_trip() {
        let mut out = Vec::new();
        for v in [0u64, 1, 127, 128, 300, u64::MAX] {
            put(&mut out, v);
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
            put_signed(&mut out, v);
        }
        put_ranks(&mut out, &[3, 4, 1000, 1 << 40]);
        let mut r = Reader::new(&out);
        for v in [0u64, 1, 127, 128, 300, u64::MAX] {
            assert_eq!(r.get().unwrap(), v);
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(r.get_signed().unwrap(), v);
        }
        let mut ranks = Vec::new();
        get_ranks(&mut r, &mut ranks).unwrap();
        assert_eq!(ranks, [3, 4, 1000, 1 << 40]);
        assert!(r.done());
        assert!(Reader::new(&[0x80]).get().is_err());
    }
}
