//! What a valuation carries from position to position: the shared [`Table`], the
//! families' memos of positions already valued (keyed by words each family chooses),
//! the memory the caller allows, and the caller's cancel flag.

use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use super::value::{GameId, Table};
use crate::{Error, Limit};

/// The table of values, a memo of valued positions, a memory bound and a cancel flag.
#[derive(Debug)]
pub struct Context<'c> {
    /// The canonical forms.
    pub table: Table,
    memo: FxHashMap<Box<[u64]>, GameId>,
    memo_words: usize,
    max_bytes: u64,
    cancel: Option<&'c AtomicBool>,
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
            cancel: None,
        }
    }
}

impl<'c> Context<'c> {
    /// This context, stopped by [`Context::check`] once `cancel` is set (the caller's
    /// [`crate::explore::Control::cancel`]: Ctrl-C, a web request's time limit).
    #[must_use]
    pub fn with_cancel<'d>(self, cancel: Option<&'d AtomicBool>) -> Context<'d> {
        Context {
            table: self.table,
            memo: self.memo,
            memo_words: self.memo_words,
            max_bytes: self.max_bytes,
            cancel,
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

    /// Refuses to go on past the memory allowed, or once cancelled: a family calls it
    /// after each position it values, so a computation stops within one position's
    /// growth of the bound.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past [`Limit::Memory`], with the bytes held;
    /// [`Error::Cancelled`] once the cancel flag is set.
    pub fn check(&self) -> Result<(), Error> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
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
