//! `grundy table --write` and `grundy check`: Grundy sequences on disk (the format is in
//! `docs/seq-format.md`).

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use grundy::explore::Control;
use grundy::octal::{FileError, Rules, SeqInfo};
use serde_json::json;

/// Where the file is written until it is whole: a hidden name in the same directory, so that
/// the rename is atomic and an interrupted run leaves nothing under the final name.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "sequence".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.part-{}", std::process::id()))
}

fn write_error(path: &Path, e: FileError) -> anyhow::Error {
    match e {
        FileError::Io(io) => anyhow!("cannot write {}: {io}", path.display()),
        other => anyhow!("{other}"),
    }
}

/// Streams the values of heaps `0..len` to `path`: to a temporary name in the same directory,
/// renamed when complete (a device or pipe such as `/dev/stdout` is written in place).
pub fn write(
    rules: &Rules,
    len: u64,
    path: &Path,
    control: &Control<'_>,
) -> Result<grundy::octal::Written> {
    if path.is_dir() {
        bail!("cannot write {}: it is a directory", path.display());
    }
    let in_place = path.exists() && !path.is_file();
    let target = if in_place {
        path.to_path_buf()
    } else {
        temporary(path)
    };
    let file = if in_place {
        std::fs::OpenOptions::new().write(true).open(&target)
    } else {
        File::create(&target)
    }
    .with_context(|| format!("cannot write {}", path.display()))?;
    let mut out = BufWriter::new(file);
    let result = grundy::octal::write_sequence(rules, len, &mut out, control)
        .map_err(|e| write_error(path, e))
        .and_then(|w| {
            let file = out
                .into_inner()
                .map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error()))?;
            if !in_place {
                file.sync_all()
                    .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
            }
            Ok(w)
        });
    if in_place {
        return result;
    }
    match result {
        Ok(w) => {
            std::fs::rename(&target, path).map_err(|e| {
                let _ = std::fs::remove_file(&target);
                anyhow!("cannot write {}: {e}", path.display())
            })?;
            Ok(w)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&target);
            Err(e)
        }
    }
}

/// The family a file's rules belong to, as a spec writes it.
fn family(rules: &str) -> String {
    match rules.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        Some(set) => format!("subtraction[{set}]"),
        None => format!("octal[{rules}]"),
    }
}

/// `grundy check FILE`: 0 if the file is a complete sequence, 1 if it is one cut short,
/// an error if it is not a sequence file.
pub fn check(path: &Path, as_json: bool) -> Result<u8> {
    let file = File::open(path).map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
    let info: SeqInfo = grundy::octal::inspect_sequence(&mut std::io::BufReader::new(file))
        .map_err(|e| match e {
            FileError::Io(io) => anyhow!("cannot read {}: {io}", path.display()),
            other => anyhow!("{}: {other}", path.display()),
        })?;
    let family = info.rules.as_deref().map(family);
    let reason = info.incomplete_reason();
    if as_json {
        outln!(
            "{}",
            json!({
                "file": path.display().to_string(),
                "complete": info.complete,
                "family": family,
                "rules": info.rules,
                "version": info.version,
                "heaps": info.heaps,
                "promised": info.promised,
                "largest": info.max,
                "reason": reason,
            })
        );
    } else {
        let what = family.map_or("an unrecorded family (a version 1 file)".into(), |f| {
            format!("`{f}`")
        });
        let range = match info.heaps {
            0 => "no heaps".to_string(),
            h => format!("heaps 0..={}", h - 1),
        };
        match reason {
            None => outln!(
                "{}: complete: the Grundy values of {what}, {range} (largest value {})",
                path.display(),
                info.max
            ),
            Some(r) => outln!(
                "{}: incomplete: the Grundy values of {what}, {range} so far; {r}",
                path.display()
            ),
        }
    }
    Ok(u8::from(!info.complete))
}
