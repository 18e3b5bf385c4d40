//! Value parsers for numeric flags: every number on the command line accepts the spec's forms
//! (`1000`, `1_000`, `10^18`, `1e6`), through [`grundy::number`]; and the spec parser's
//! errors shown as the CLI shows them.

use grundy::games::Spec;
use grundy::number::parse_number_max;

use crate::output;

fn parse<T: TryFrom<u128>>(text: &str, max: u128) -> Result<T, String> {
    let value = parse_number_max(text, max).map_err(|e| e.to_string())?;
    T::try_from(value).map_err(|_| format!("`{text}` is too large"))
}

/// A `u16` flag (a port).
pub fn u16_arg(text: &str) -> Result<u16, String> {
    parse(text, u16::MAX.into())
}

/// A `u32` flag.
pub fn u32_arg(text: &str) -> Result<u32, String> {
    parse(text, u32::MAX.into())
}

/// A `u64` flag.
pub fn u64_arg(text: &str) -> Result<u64, String> {
    parse(text, u64::MAX.into())
}

/// A `u128` flag.
pub fn u128_arg(text: &str) -> Result<u128, String> {
    parse(text, u128::MAX)
}

/// A spec argument, its error pointing at the column.
pub fn spec(text: &str) -> anyhow::Result<Spec> {
    text.parse::<Spec>()
        .map_err(|e| anyhow::Error::new(output::BadSpec::new(&e, text)))
}
