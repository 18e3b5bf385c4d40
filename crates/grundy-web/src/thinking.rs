//! Work in progress, by ticket: how far a request that computes has got (the library's
//! progress reports, a stage and a count), for `GET /api/progress?ticket=T`, which the page
//! asks while it waits on a reply and shows as "thinking". A ticket is a word the page
//! makes up for one request; a request without one reports nowhere. Below the handlers,
//! like `input`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use serde_json::{json, Value};

use crate::error::ApiError;

/// The most requests followed at once; past it a new ticket is not followed (its request
/// is answered all the same).
const MAX_TICKETS: usize = 256;
/// The longest ticket.
const MAX_TICKET: usize = 64;

/// What each ticket's request has done so far.
#[derive(Debug, Default)]
pub struct Board {
    tickets: Mutex<HashMap<String, Note>>,
}

#[derive(Debug)]
struct Note {
    stage: String,
    done: u64,
    since: Instant,
}

impl Board {
    /// Follows `ticket`'s request from now on (unless too many are followed already).
    pub fn start(&self, ticket: &str) {
        let mut tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        if tickets.len() < MAX_TICKETS {
            tickets.insert(
                ticket.to_string(),
                Note {
                    stage: String::new(),
                    done: 0,
                    since: Instant::now(),
                },
            );
        }
    }

    /// The library's report for `ticket`: `done` of `stage`.
    pub fn note(&self, ticket: &str, stage: &str, done: u64) {
        let mut tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(note) = tickets.get_mut(ticket) {
            if note.stage != stage {
                note.stage = stage.to_string();
            }
            note.done = done;
        }
    }

    /// Forgets `ticket`: its request is answered.
    pub fn end(&self, ticket: &str) {
        let mut tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        tickets.remove(ticket);
    }

    /// `{"ticket", "working": true, "stage", "done", "seconds"}` while `ticket`'s request
    /// computes (`stage` empty until the library first reports), `{"ticket", "working":
    /// false}` otherwise.
    pub fn json(&self, ticket: &str) -> Value {
        let tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        match tickets.get(ticket) {
            Some(note) => json!({
                "ticket": ticket,
                "working": true,
                "stage": note.stage,
                "done": note.done,
                "seconds": note.since.elapsed().as_secs_f64(),
            }),
            None => json!({"ticket": ticket, "working": false}),
        }
    }
}

/// A ticket as a request brings it: 1 to 64 letters, digits, `-` or `_`.
pub fn ticket(text: &str) -> Result<String, ApiError> {
    let ok = !text.is_empty()
        && text.len() <= MAX_TICKET
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err(ApiError::bad_request(
            "a ticket is 1 to 64 letters, digits, `-` or `_`",
        ))
    }
}
