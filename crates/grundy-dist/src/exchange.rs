//! Rounds on timely: every worker hands a message to any others, closes the round's epoch,
//! and steps the dataflow until timely's progress tracking says the epoch is complete
//! everywhere, so every message of the round has reached its worker. Each round also sums
//! a few counters over all workers and carries any worker's error, so every worker leaves a
//! loop (or the run) in the same round.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_bytes::ByteBuf;
use timely::dataflow::channels::pact::Exchange as ByKey;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandleVec as InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::codec::{self, Reader};
use crate::Error;

/// A message: to worker, from worker, bytes. The sender's number with [`COUNTERS`] set
/// marks a round's counters (and error), without it the payload handed to `round`, so
/// that neither is copied to put a kind in front of it. The bytes are a `ByteBuf`, so that
/// between processes timely's serde writes and reads them whole (a `Vec<u8>` goes a byte
/// at a time: on connect4[5x5] over two processes that was 3.7% of the CPU).
type Msg = (u32, u32, ByteBuf);

/// The bit of a message's sender that marks a round's counters.
const COUNTERS: u32 = 1 << 31;

/// The counters a round sums.
pub const SUMS: usize = 8;

/// Messages and bytes sent (bytes: the payload and the 16 bytes of its envelope as timely
/// serialises it: two worker numbers and a length).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Traffic {
    /// Rounds.
    pub rounds: u64,
    /// Messages between workers (the round's counters included).
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Bytes to workers of other processes: what crosses a network.
    pub remote_bytes: u64,
}

impl Traffic {
    /// Both added.
    #[must_use]
    pub fn plus(&self, o: &Traffic) -> Traffic {
        Traffic {
            rounds: self.rounds + o.rounds,
            messages: self.messages + o.messages,
            bytes: self.bytes + o.bytes,
            remote_bytes: self.remote_bytes + o.remote_bytes,
        }
    }

    /// The traffic since `earlier`.
    #[must_use]
    pub fn since(&self, earlier: &Traffic) -> Traffic {
        Traffic {
            rounds: self.rounds - earlier.rounds,
            messages: self.messages - earlier.messages,
            bytes: self.bytes - earlier.bytes,
            remote_bytes: self.remote_bytes - earlier.remote_bytes,
        }
    }
}

/// Set when a thread of timely's networking panics (a connection lost), with what it said.
pub static LOST: AtomicBool = AtomicBool::new(false);
/// What the panicking networking thread said.
pub static LOST_WHY: Mutex<Option<String>> = Mutex::new(None);

/// What every worker learns at the end of a round.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Messages from other workers (and itself), by sender.
    pub inbox: Vec<(u32, Vec<u8>)>,
    /// The counters, summed over the workers.
    pub sums: [u64; SUMS],
    /// The largest of the workers' `max`.
    pub max: u64,
}

/// One worker's end of the rounds.
pub struct Rounds {
    input: InputHandle<u64, Msg>,
    probe: ProbeHandle<u64>,
    /// What has arrived, with its round: a worker that has seen a round end may send the
    /// next round's messages before this one has seen it.
    inbox: Rc<RefCell<Vec<(u64, Msg)>>>,
    pub me: u32,
    pub peers: u32,
    threads: u32,
    pub traffic: Traffic,
    timeout: Duration,
}

impl Rounds {
    pub fn new(worker: &mut Worker, threads: usize, timeout: Duration) -> Rounds {
        let mut input = InputHandle::new();
        let inbox: Rc<RefCell<Vec<(u64, Msg)>>> = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&inbox);
        let probe = worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    ByKey::new(|m: &Msg| u64::from(m.0)),
                    "inbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let time = cap.least().copied().unwrap_or_default();
                                sink.borrow_mut().extend(data.drain(..).map(|m| (time, m)));
                            });
                        }
                    },
                )
                .probe()
                .0
        });
        Rounds {
            input,
            probe,
            inbox,
            me: worker.index() as u32,
            peers: worker.peers() as u32,
            threads: threads as u32,
            traffic: Traffic::default(),
            timeout,
        }
    }

    /// The process of worker `w`.
    pub fn process_of(&self, w: u32) -> u32 {
        w / self.threads
    }

    fn send(&mut self, to: u32, bytes: Vec<u8>, kind: u32) {
        let len = bytes.len() as u64 + 16;
        self.traffic.messages += 1;
        self.traffic.bytes += len;
        if self.process_of(to) != self.process_of(self.me) {
            self.traffic.remote_bytes += len;
        }
        self.input.send((to, self.me | kind, ByteBuf::from(bytes)));
    }

    /// One round: `out[w]` goes to worker `w` (nothing if empty), with this worker's
    /// counters, largest value and error; returns what the others sent and the sums, or
    /// the first worker's error (by worker number) if any had one.
    pub fn round(
        &mut self,
        worker: &mut Worker,
        out: Vec<Vec<u8>>,
        sums: [u64; SUMS],
        max: u64,
        error: Option<&Error>,
    ) -> Result<Outcome, Error> {
        debug_assert!(out.is_empty() || out.len() == self.peers as usize);
        for (to, bytes) in out.into_iter().enumerate() {
            if !bytes.is_empty() {
                self.send(to as u32, bytes, 0);
            }
        }
        let mut status = Vec::new();
        for s in sums {
            codec::put(&mut status, s);
        }
        codec::put(&mut status, max);
        if let Some(e) = error {
            status.extend_from_slice(e.to_string().as_bytes());
        }
        for to in 0..self.peers {
            self.send(to, status.clone(), COUNTERS);
        }
        self.traffic.rounds += 1;
        let this = *self.input.time();
        self.input.advance_to(this + 1);
        let started = Instant::now();
        while self.probe.less_than(self.input.time()) {
            worker.step_or_park(Some(Duration::from_millis(100)));
            if LOST.load(Ordering::Relaxed) {
                let why = LOST_WHY
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone()
                    .unwrap_or_default();
                return Err(Error::Lost(format!(
                    "the connection to another process was lost ({why}); it may have died: rerun the same command on every process to resume"
                )));
            }
            if started.elapsed() > self.timeout {
                return Err(Error::Lost(format!(
                    "no answer from the other workers for {} s; a process may hang: rerun the same command on every process to resume",
                    self.timeout.as_secs()
                )));
            }
        }
        let mut got: Vec<Msg> = Vec::new();
        self.inbox.borrow_mut().retain_mut(|(time, m)| {
            if *time == this {
                got.push(std::mem::take(m));
                false
            } else {
                true
            }
        });
        got.sort_by_key(|m| m.1 & !COUNTERS);
        let mut outcome = Outcome::default();
        let mut first_error: Option<(u32, String)> = None;
        for (_, tagged, bytes) in got {
            let from = tagged & !COUNTERS;
            if from >= self.peers {
                return Err(Error::Lost(format!(
                    "a message from worker {from}, of {} workers",
                    self.peers
                )));
            }
            match tagged & COUNTERS {
                0 => outcome.inbox.push((from, bytes.into_vec())),
                _ => {
                    let mut r = Reader::new(&bytes);
                    let mut read = || -> Result<&[u8], codec::Malformed> {
                        for s in &mut outcome.sums {
                            *s += r.get()?;
                        }
                        outcome.max = outcome.max.max(r.get()?);
                        Ok(r.rest())
                    };
                    let Ok(text) = read() else {
                        return Err(Error::Lost(format!(
                            "worker {from} sent a round's counters that do not decode"
                        )));
                    };
                    if !text.is_empty() && first_error.is_none() {
                        first_error = Some((from, String::from_utf8_lossy(text).into_owned()));
                    }
                }
            }
        }
        if let Some((worker, message)) = first_error {
            return Err(Error::Peer {
                worker: worker as usize,
                process: self.process_of(worker) as usize,
                message,
            });
        }
        Ok(outcome)
    }

    /// Closes the dataflow: after the last round, or (`failed`) dropped at once so that
    /// timely does not wait for workers that will not come.
    pub fn close(self, worker: &mut Worker, failed: bool) {
        drop(self.input);
        if failed {
            for id in worker.installed_dataflows() {
                worker.drop_dataflow(id);
            }
        }
    }
}
