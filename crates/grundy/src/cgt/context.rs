//! What a valuation carries from position to position: the shared [`Table`], the
//! families' memos of positions already valued (keyed by words each family chooses),
//! the memory and positions the caller allows, the caller's cancel flag and progress.

use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use super::value::{GameId, Table};
use crate::explore::{Control, Progress};
use crate::{Error, Limit};

/// Positions memoised between two calls of the caller's progress.
const PROGRESS_EVERY: usize = 1 << 10;

/// The table of values, a memo of valued positions, a memory bound, a bound on the
/// positions valued, a cancel flag and a progress callback.
pub struct Context<'c> {
    /// The canonical forms.
    pub table: Table,
    memo: FxHashMap<Box<[u64]>, GameId>,
    memo_words: usize,
    max_bytes: u64,
    max_positions: u64,
    cancel: Option<&'c AtomicBool>,
    progress: Option<&'c Progress<'c>>,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("forms", &self.table.len())
            .field("positions", &self.memo.len())
            .field("max_bytes", &self.max_bytes)
            .field("max_positions", &self.max_positions)
            .finish_non_exhaustive()
    }
}

impl Context<'static> {
    /// A fresh table, allowed about `max_bytes` of memory for forms and memos (the
    /// caller's [`Limit::Memory`]).
    #[must_use]
    pub fn new(max_bytes: u64) -> Context<'static> {
        Context {
            table: Table::new(),
            memo: FxHashMap::default(),
            memo_words: 0,
            max_bytes,
            max_positions: u64::MAX,
            cancel: None,
            progress: None,
        }
    }
}

impl<'c> Context<'c> {
    /// This context under the caller's `control`: stopped by [`Context::check`] once its
    /// cancel flag is set (Ctrl-C, a web request's time limit) or past its
    /// `max_positions` positions valued, and its progress told the positions valued as
    /// they grow (stage `values`).
    #[must_use]
    pub fn with_control<'d>(self, control: &Control<'d>) -> Context<'d> {
        Context {
            table: self.table,
            memo: self.memo,
            memo_words: self.memo_words,
            max_bytes: self.max_bytes,
            max_positions: control.max_positions,
            cancel: control.cancel,
            progress: control.progress,
        }
    }

    /// The value memoised under `key` (a family's own words: its tag first, so families
    /// sharing a context do not collide).
    #[must_use]
    pub fn recall(&self, key: &[u64]) -> Option<GameId> {
        self.memo.get(key).copied()
    }

    /// Memoises `value` under `key`.
    pub fn remember(&mut self, key: &[u64], value: GameId) {
        if self.memo.insert(key.into(), value).is_none() {
            self.memo_words += key.len();
            if let Some(progress) = self.progress {
                if self.memo.len().is_multiple_of(PROGRESS_EVERY) {
                    progress("values", self.memo.len() as u64);
                }
            }
        }
    }

    /// Positions memoised.
    #[must_use]
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// About how many bytes the table and the memo hold.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        (self.table.bytes() + self.memo.len() * 48 + self.memo_words * 8) as u64
    }

    /// Refuses to go on past the memory or the positions allowed, or once cancelled: a
    /// family calls it after each position it values, so a computation stops within one
    /// position's growth of the bound.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past [`Limit::Memory`] or [`Limit::Positions`], with the
    /// bytes held; [`Error::Cancelled`] once the cancel flag is set.
    pub fn check(&self) -> Result<(), Error> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        let positions = self.memo.len() as u64;
        if positions > self.max_positions {
            return Err(Error::over(
                Limit::Positions,
                format!(
                    "valuing more than {} positions ({} forms so far)",
                    self.max_positions,
                    self.table.len()
                ),
                Some(u128::from(self.bytes())),
                None,
            ));
        }
        let bytes = self.bytes();
        if bytes > self.max_bytes {
            return Err(Error::over(
                Limit::Memory,
                format!(
                    "the table of game values ({} forms, {} positions) passed its {} bytes",
                    self.table.len(),
                    self.memo.len(),
                    self.max_bytes
                ),
                Some(u128::from(bytes)),
                None,
            ));
        }
        Ok(())
    }
}
