//! `grundy help [COMMAND…]`: the help of grundy or of a command, as `--help` prints it.

use crate::cli::Cli;
use anyhow::Result;

/// The command: 0, or 2 for a command that does not exist.
pub fn run(command: Vec<String>) -> Result<u8> {
    let args = std::iter::once("grundy".to_string())
        .chain(command)
        .chain(std::iter::once("--help".to_string()));
    match Cli::parse_from_args(args) {
        Err(e) => {
            e.print()?;
            Ok(if e.use_stderr() { 2 } else { 0 })
        }
        Ok(_) => Ok(0),
    }
}
