//! `grundy serve`: the web page of `grundy-web` on 127.0.0.1, with the tablebases given.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::progress::CANCEL;
use crate::tablebase;

/// The command: serves until Ctrl-C.
pub fn run(port: u16, max_positions: u64, dirs: &[PathBuf]) -> Result<u8> {
    let tablebases = dirs
        .iter()
        .map(|d| tablebase::open_dir(d))
        .collect::<Result<Vec<_>>>()?;
    let config = grundy_web::Config {
        max_positions,
        tablebases,
        ..grundy_web::Config::default()
    };
    grundy_web::serve(port, config, Some(&CANCEL), |addr| {
        println!("grundy: serving on http://{addr}/ (Ctrl-C stops)");
    })
    .with_context(|| format!("cannot serve on 127.0.0.1:{port} (--port picks another)"))?;
    Ok(0)
}
