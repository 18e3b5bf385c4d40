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

/// Reads a text file, gunzipping it first if its name ends in `.gz` or its first bytes are the
/// gzip magic number. Concatenated gzip members are read as one stream.
pub fn read_text(path: impl AsRef<Path>) -> Result<String, ReadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
        || is_gzip(&bytes);
    decode_text(bytes, gz, path)
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
        .and_then(|f| f.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes))
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
/// the bytes start with the gzip magic number. `path` only names the source in errors.
pub fn decode_text(bytes: Vec<u8>, gzip: bool, path: &Path) -> Result<String, ReadError> {
    decode_text_limited(bytes, gzip, path, u64::MAX)
}

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
        let mut out =
            Vec::with_capacity(guess.min(usize::try_from(max_bytes).unwrap_or(usize::MAX)));
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|source| ReadError::Gzip {
                path: path.to_path_buf(),
                source,
            })?;
        if out.len() as u64 > max_bytes {
            return Err(ReadError::TooLarge {
                path: path.to_path_buf(),
                limit: max_bytes,
            });
        }
        out
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
