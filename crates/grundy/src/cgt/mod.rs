//! Combinatorial game values: canonical forms of short partizan games (Conway, *On
//! Numbers and Games*; Siegel, *Combinatorial Game Theory*), kept in one shared
//! [`Table`] where each distinct value is stored once and named by a [`GameId`].
//!
//! A value is built from its options with [`Table::game`], which simplifies as it goes
//! (dominated options removed, reversible ones bypassed), so every id is a canonical
//! form and equal values are equal ids. The table adds ([`Table::sum`]), negates,
//! compares (`≤`, hence `=`, `<` and `||`) and gives the outcome class ([`Class`]);
//! [`write()`] prints a value as CGSuite does; [`thermograph`] gives its mean and
//! temperature; [`atomic_weight`] and [`reduced_canonical_form`] what is left of a value
//! beside a remote star and modulo infinitesimals.
//!
//! ```
//! use grundy::cgt::{write, Class, Spelling, Table};
//!
//! let mut t = Table::new();
//! let (zero, star) = (t.zero(), t.star());
//! let up = t.game(&[zero], &[star]); // {0 | *} = ^
//! assert_eq!(write(&mut t, up, Spelling::Unicode), "^");
//! let up_star = t.sum(up, star).unwrap();
//! assert_eq!(write(&mut t, up_star, Spelling::Unicode), "^*");
//! assert_eq!(t.class(up_star), Class::N); // ^* is confused with 0
//! let one = t.integer(1).unwrap();
//! let minus_one = t.integer(-1).unwrap();
//! let pm_one = t.game(&[one], &[minus_one]);
//! assert_eq!(write(&mut t, pm_one, Spelling::Ascii), "+-1");
//! let twice = t.sum(pm_one, pm_one).unwrap(); // ±1 + ±1 = 0
//! assert_eq!(twice, zero);
//! ```
//!
//! Games are short (finitely many positions, no cycles): loopy games are not values here.

mod atomic;
mod context;
mod number;
mod print;
mod read;
mod reduce;
mod temper;
mod thermo;
mod value;

#[cfg(test)]
mod tests;

pub use atomic::{atomic_weight, is_all_small};
pub use context::Context;
pub use number::{Dyadic, MAX_EXP};
pub use print::{write, Spelling};
pub use read::{read, FormError};
pub use reduce::{is_infinitesimal, reduced_canonical_form};
pub use temper::{cool, freeze, heat, overheat};
pub use thermo::{thermograph, Thermograph, Wall};
pub use value::{Class, GameId, Table, MAX_NIMBER};
