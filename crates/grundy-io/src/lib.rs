//! The edge where files and uploads become text: reading a file, gunzipping it (bounded,
//! so a gzip bomb is refused, not inflated), and checking that it is UTF-8. The front ends
//! use it; the library `grundy` takes text and never reads a file itself.
//!
//! ```
//! let text = grundy_io::decode_text(b"parity 0;\n0 0 0 0;\n".to_vec(), false, "x".as_ref()).unwrap();
//! assert!(text.starts_with("parity"));
//! ```
#![forbid(unsafe_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A limit in bytes as a person reads it: whole MiB where it is one, else bytes.
fn limit_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Why a file could not be read as text.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file looked compressed but did not decompress.
    #[error("cannot gunzip {}: {source}", path.display())]
    Gzip {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes inflate past the limit the caller set (a gzip bomb, or just too big).
    #[error("too large: {} inflates to more than the limit of {}", path.display(), limit_text(*limit))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The (decompressed) bytes are not UTF-8.
    #[error("{} is not UTF-8 text: invalid byte at line {line}, byte offset {offset}", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the first invalid byte.
        line: usize,
        /// Its byte offset.
        offset: usize,
    },
}

/// An error and its causes, `: `-joined, but without a cause whose text the message already
/// holds (errors that print their source and also return it as their `source()` would
/// otherwise say it twice: "Is a directory (os error 21): Is a directory (os error 21)").
/// Control characters other than line breaks (from a file name, say) are escaped, so that
/// no message writes raw binary to a terminal. Every front end shows errors this way.
#[must_use]
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = String::new();
    let mut cause = Some(e);
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
        cause = c.source();
    }
    if out.chars().any(|c| c.is_control() && c != '\n') {
        out = out
            .chars()
            .map(|c| {
                if c.is_control() && c != '\n' {
                    format!("\\u{{{:x}}}", u32::from(c))
                } else {
                    c.to_string()
                }
            })
            .collect();
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

/// Whether `bytes` start with the gzip magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The most text [`read_text`] and [`decode_text`] hold, once gunzipped: 1 GiB, the front
/// ends' default (`--max-input 1024`, `max_input=1024`). A gzip file inflates at most about
/// 1000 times, so a file of a few megabytes can claim gigabytes: past this it is refused.
pub const MAX_TEXT_BYTES: u64 = 1 << 30;

/// Reads a text file, gunzipping it first if its name ends in `.gz` or its first bytes are the
/// gzip magic number. Concatenated gzip members are read as one stream. At most
/// [`MAX_TEXT_BYTES`] (see [`read_text_limited`]).
///
/// # Errors
/// As [`read_text_limited`].
pub fn read_text(path: impl AsRef<Path>) -> Result<String, ReadError> {
    read_text_limited(path, MAX_TEXT_BYTES)
}

/// [`read_text`] that never reads or inflates more than `max_bytes`: a file larger than
/// that, or a gzip file that inflates past it, is refused with [`ReadError::TooLarge`]
/// before it is held whole.
///
/// # Errors
/// As [`decode_text_limited`]; [`ReadError::Io`] if the file cannot be read.
pub fn read_text_limited(path: impl AsRef<Path>, max_bytes: u64) -> Result<String, ReadError> {
    let path = path.as_ref();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            // Room for the file's size at once: `read_to_end` behind a `take` does not know
            // it and grows by doubling, and the allocator keeps what each doubling leaves
            // (a 36 MB parity game held 64 MiB before it was parsed).
            let size = f.metadata().map_or(0, |m| m.len());
            bytes
                .reserve_exact(usize::try_from(size.min(max_bytes.saturating_add(1))).unwrap_or(0));
            f.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)
        })
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit: max_bytes,
        });
    }
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
        || is_gzip(&bytes);
    decode_text_limited(bytes, gz, path, max_bytes)
}

/// Turns bytes (from a file or standard input) into text, gunzipping first if `gzip` is set or
/// the bytes start with the gzip magic number. `path` only names the source in errors. At
/// most [`MAX_TEXT_BYTES`] once gunzipped.
///
/// # Errors
/// As [`decode_text_limited`].
pub fn decode_text(bytes: Vec<u8>, gzip: bool, path: &Path) -> Result<String, ReadError> {
    decode_text_limited(bytes, gzip, path, MAX_TEXT_BYTES)
}

/// Inflates the gzip stream `compressed` (members concatenated read as one), stopping as
/// soon as it passes `max_bytes`: `Ok(None)` then. What it holds never passes `max_bytes`
/// and a piece of [`INFLATE_PIECE`] (its room doubles, but never past the limit), so a
/// bomb costs the limit at most, whatever it claims.
fn inflate(
    compressed: impl Read,
    max_bytes: u64,
    guess: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let most = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(guess.min(most));
    let mut decoder = flate2::read::MultiGzDecoder::new(compressed);
    let mut piece = vec![0u8; INFLATE_PIECE];
    loop {
        let n = match decoder.read(&mut piece) {
            Ok(0) => return Ok(Some(out)),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if (out.len() + n) as u64 > max_bytes {
            return Ok(None);
        }
        if out.capacity() - out.len() < n {
            // Doubling, capped at the limit (`read_to_end` would double past it).
            let room = out.capacity().max(n).min(most - out.len());
            out.reserve_exact(room);
        }
        out.extend_from_slice(&piece[..n]);
    }
}

/// How much [`inflate`] reads from the decoder at a time.
const INFLATE_PIECE: usize = 1 << 16;

/// [`decode_text`] that refuses to inflate past `max_bytes` (for untrusted uploads).
///
/// # Errors
/// [`ReadError::TooLarge`] past the limit, else as [`decode_text`].
pub fn decode_text_limited(
    bytes: Vec<u8>,
    gzip: bool,
    path: &Path,
    max_bytes: u64,
) -> Result<String, ReadError> {
    let bytes = if gzip || is_gzip(&bytes) {
        // Sized by what the input can hold, never past the limit: the limit itself may be
        // far more than is needed.
        let guess = bytes.len().saturating_mul(4).min(1 << 30);
        inflate(&bytes[..], max_bytes, guess)
            .map_err(|source| ReadError::Gzip {
                path: path.to_path_buf(),
                source,
            })?
            .ok_or_else(|| ReadError::TooLarge {
                path: path.to_path_buf(),
                limit: max_bytes,
            })?
    } else {
        bytes
    };
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ReadError::NotUtf8 {
            path: path.to_path_buf(),
            line,
            offset,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_past_the_limit_are_refused() {
        let dir = std::env::temp_dir().join(format!("grundy-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.txt");
        std::fs::write(&path, "parity 0;\n").unwrap();
        assert_eq!(read_text_limited(&path, 100).unwrap(), "parity 0;\n");
        assert!(matches!(
            read_text_limited(&path, 5),
            Err(ReadError::TooLarge { limit: 5, .. })
        ));
        assert!(matches!(
            read_text_limited(dir.join("absent"), 5),
            Err(ReadError::Io { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A gzip member of `len` zero bytes, made here: a thousandfold bomb in miniature.
    fn zeros_gz(len: usize) -> Vec<u8> {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&vec![0u8; len]).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn a_gzip_bomb_is_refused_at_the_limit_not_inflated() {
        // 64 MiB of zeros in some 64 KiB: refused at a limit of 1 MiB.
        let bomb = zeros_gz(64 << 20);
        assert!(bomb.len() < 256 << 10, "{}", bomb.len());
        let err =
            decode_text_limited(bomb.clone(), false, Path::new("bomb.gz"), 1 << 20).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit, .. } if limit == 1 << 20));
        assert_eq!(
            err.to_string(),
            "too large: bomb.gz inflates to more than the limit of 1 MiB"
        );
        // Within the limit it is read whole.
        let dir = std::env::temp_dir().join(format!("grundy-io-bomb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bomb.gz");
        std::fs::write(&path, &bomb).unwrap();
        assert_eq!(read_text_limited(&path, 64 << 20).unwrap().len(), 64 << 20);
        assert!(matches!(
            read_text_limited(&path, (64 << 20) - 1),
            Err(ReadError::TooLarge { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        // An endless stream of members (a bomb with no end): stopped at the limit, having
        // held no more than the limit. Inflating it whole would never return.
        struct Endless(Vec<u8>, usize);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len() - self.1);
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 = (self.1 + n) % self.0.len();
                Ok(n)
            }
        }
        let limit = 3 << 20;
        let endless = Endless(zeros_gz(1 << 20), 0);
        assert!(inflate(endless, limit, 0).unwrap().is_none());
        // The room kept doubles but stops at the limit: 1 MiB + 1 byte fits in 1 MiB + 1.
        let out = inflate(&zeros_gz((1 << 20) + 1)[..], (1 << 20) + 1, 1)
            .unwrap()
            .unwrap();
        assert_eq!(out.len(), (1 << 20) + 1);
        assert_eq!(out.capacity(), (1 << 20) + 1);
    }

    #[test]
    fn gzip_bytes() {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"parity 0;\n0 0 0 0;\n").unwrap();
        let gz = enc.finish().unwrap();
        assert!(is_gzip(&gz));
        let text = decode_text(gz, false, Path::new("x")).unwrap();
        assert_eq!(text, "parity 0;\n0 0 0 0;\n");
        assert!(matches!(
            decode_text(b"not gz".to_vec(), true, Path::new("x")),
            Err(ReadError::Gzip { .. })
        ));
        assert!(matches!(
            decode_text(vec![b'a', b'\n', 0xff], false, Path::new("x")),
            Err(ReadError::NotUtf8 {
                line: 2,
                offset: 2,
                ..
            })
        ));
    }
}
