//! Starting a run: threads of one process, or processes connected over TCP by timely's
//! own layout (process `i` connects to every process below it and accepts every one
//! above), after a handshake on each connection that refuses a process of another run.
//! A lost connection (timely's networking threads panic on one) becomes an error of every
//! worker, not a hang.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use grundy::tier::TierGame;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::worker::Worker;
use timely::WorkerConfig;

use crate::exchange::{LOST, LOST_WHY};
use crate::{Config, Error};

/// The protocol's version: bump it when a message changes.
const PROTOCOL: u32 = 3;
const MAGIC: &[u8; 8] = b"GRUNDYD1";

/// What every process of a run must agree on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// The game.
    pub game: String,
    /// Its ranking's version.
    pub ranking_version: u32,
    /// Its tiers' sizes, hashed.
    pub shape: u64,
    /// Processes.
    pub processes: u32,
    /// Worker threads in each.
    pub workers: u32,
    /// Ranks a slice.
    pub slice: u64,
    /// This build's protocol and crate version.
    pub build: String,
}

impl Fingerprint {
    /// The fingerprint of a run of `game` under `config`.
    #[must_use]
    pub fn of(game: &dyn TierGame, config: &Config) -> Fingerprint {
        let mut shape = Vec::new();
        for t in 0..game.tier_count() {
            shape.extend_from_slice(&game.tier_size(t).to_le_bytes());
        }
        shape.extend_from_slice(&u64::from(game.scored()).to_le_bytes());
        Fingerprint {
            game: game.id(),
            ranking_version: game.ranking_version(),
            shape: xxhash_rust::xxh3::xxh3_64(&shape),
            processes: config.cluster.processes() as u32,
            workers: config.workers as u32,
            slice: config.slice,
            build: format!(
                "protocol {PROTOCOL}, grundy-dist {}",
                env!("CARGO_PKG_VERSION")
            ),
        }
    }

    fn encode(&self, process: u32) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [
            PROTOCOL,
            process,
            self.processes,
            self.workers,
            self.ranking_version,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&self.shape.to_le_bytes());
        out.extend_from_slice(&self.slice.to_le_bytes());
        for text in [&self.game, &self.build] {
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        let mut framed = (out.len() as u32).to_le_bytes().to_vec();
        framed.extend_from_slice(&out);
        framed
    }

    /// Reads a peer's hello; `(its process, its fingerprint)`.
    fn read(stream: &mut TcpStream) -> Result<(u32, Fingerprint), String> {
        let mut len = [0u8; 4];
        stream
            .read_exact(&mut len)
            .map_err(|e| format!("no handshake: {e}"))?;
        let len = u32::from_le_bytes(len) as usize;
        if !(36..=1 << 16).contains(&len) {
            return Err(format!(
                "a handshake of {len} bytes: not a grundy-dist process"
            ));
        }
        let mut b = vec![0u8; len];
        stream
            .read_exact(&mut b)
            .map_err(|e| format!("a cut handshake: {e}"))?;
        if &b[..8] != MAGIC {
            return Err("not a grundy-dist process (no GRUNDYD1 hello)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
        if u32_at(8) != PROTOCOL {
            return Err(format!(
                "it speaks protocol {}, this build {PROTOCOL}",
                u32_at(8)
            ));
        }
        let mut at = 44;
        let mut text = || -> Result<String, String> {
            let n = b
                .get(at..at + 4)
                .map(|x| u32::from_le_bytes(x.try_into().expect("4")) as usize)
                .ok_or("a cut handshake")?;
            let s = b.get(at + 4..at + 4 + n).ok_or("a cut handshake")?;
            at += 4 + n;
            Ok(String::from_utf8_lossy(s).into_owned())
        };
        let game = text()?;
        let build = text()?;
        Ok((
            u32_at(12),
            Fingerprint {
                game,
                ranking_version: u32_at(24),
                shape: u64_at(28),
                processes: u32_at(16),
                workers: u32_at(20),
                slice: u64_at(36),
                build,
            },
        ))
    }

    /// Why a peer's fingerprint is not this run's, if it is not.
    fn differs(&self, other: &Fingerprint) -> Option<String> {
        if other.game != self.game {
            return Some(format!(
                "it solves {}, this process {}",
                other.game, self.game
            ));
        }
        if other.ranking_version != self.ranking_version || other.shape != self.shape {
            return Some(format!(
                "its {} has ranking version {} (tiers hashed {:016x}), this one's {} ({:016x}): another version of grundy",
                other.game, other.ranking_version, other.shape, self.ranking_version, self.shape
            ));
        }
        if other.processes != self.processes {
            return Some(format!(
                "it was started with --processes {}, this one with {}",
                other.processes, self.processes
            ));
        }
        if other.workers != self.workers {
            return Some(format!(
                "it runs --workers {}, this one {} (every process runs as many)",
                other.workers, self.workers
            ));
        }
        if other.build != self.build || other.slice != self.slice {
            return Some(format!("it is {}, this one {}", other.build, self.build));
        }
        None
    }
}

/// Installs (once) a panic hook that turns a panic of timely's networking threads into
/// [`LOST`] instead of a message on standard error; other panics go to the hook before.
fn watch_networking() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_owned();
            if name.starts_with("timely:") {
                let what = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| {
                        info.payload()
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_owned())
                    })
                    .unwrap_or_default();
                let mut why = LOST_WHY
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                why.get_or_insert(what);
                LOST.store(true, Ordering::Relaxed);
            } else {
                before(info);
            }
        }));
    });
}

/// Connects this process to every other, with the handshake on each connection.
fn connect(config: &Config, me: &Fingerprint) -> Result<Vec<Option<TcpStream>>, Error> {
    let cluster = &config.cluster;
    let n = cluster.processes();
    let i = cluster.process;
    let deadline = Instant::now() + cluster.connect_timeout;
    let hello = me.encode(i as u32);
    let shake = |mut s: TcpStream, expect: Option<usize>| -> Result<(usize, TcpStream), Error> {
        s.set_nodelay(true).ok();
        s.set_read_timeout(Some(cluster.connect_timeout)).ok();
        s.write_all(&hello)
            .map_err(|e| Error::Handshake(format!("cannot greet a process: {e}")))?;
        let (their, theirs) = Fingerprint::read(&mut s).map_err(|why| {
            Error::Handshake(format!("a process at {} was refused: {why}", peer(&s)))
        })?;
        let their = their as usize;
        if let Some(why) = me.differs(&theirs) {
            return Err(Error::Handshake(format!(
                "process {their} ({}) is not part of this run: {why}",
                peer(&s)
            )));
        }
        if expect.is_some_and(|e| e != their) || their >= n || their == i {
            return Err(Error::Handshake(format!(
                "the process at {} says it is process {their}; expected {}",
                peer(&s),
                expect.map_or("one above this".into(), |e| e.to_string())
            )));
        }
        s.set_read_timeout(None).ok();
        Ok((their, s))
    };
    let mut sockets: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let listener = TcpListener::bind(&cluster.addresses[i]).map_err(|e| {
        Error::Handshake(format!(
            "process {i} cannot listen on {}: {e}",
            cluster.addresses[i]
        ))
    })?;
    listener.set_nonblocking(true).ok();
    // Connect to those below; accept those above, in any order.
    for (j, address) in cluster.addresses.iter().enumerate().take(i) {
        let stream = loop {
            let tried = address
                .to_socket_addrs()
                .map_err(|e| Error::Handshake(format!("process {j}'s address {address}: {e}")))?
                .find_map(|a| TcpStream::connect_timeout(&a, Duration::from_secs(1)).ok());
            if let Some(s) = tried {
                break s;
            }
            if Instant::now() > deadline {
                return Err(Error::Handshake(format!(
                    "process {j} at {address} did not answer within {} s",
                    cluster.connect_timeout.as_secs()
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let (_, s) = shake(stream, Some(j))?;
        sockets[j] = Some(s);
    }
    while sockets.iter().skip(i + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).ok();
                let (j, s) = shake(s, None)?;
                if j < i || sockets[j].is_some() {
                    return Err(Error::Handshake(format!(
                        "process {j} connected twice or out of turn"
                    )));
                }
                sockets[j] = Some(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > deadline {
                    let missing: Vec<String> = (i + 1..n)
                        .filter(|&j| sockets[j].is_none())
                        .map(|j| format!("{j} ({})", cluster.addresses[j]))
                        .collect();
                    return Err(Error::Handshake(format!(
                        "process(es) {} did not connect within {} s",
                        missing.join(", "),
                        cluster.connect_timeout.as_secs()
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(Error::Handshake(format!("cannot accept: {e}"))),
        }
    }
    Ok(sockets)
}

fn peer(s: &TcpStream) -> String {
    s.peer_addr().map_or_else(|_| "?".into(), |a| a.to_string())
}

/// Runs `work` on every worker of this process, connected to the other processes;
/// returns the first worker's result (they agree), or the first error.
pub fn execute<T, F>(config: &Config, me: &Fingerprint, work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> Result<T, Error> + Send + Sync + 'static,
{
    watch_networking();
    LOST.store(false, Ordering::Relaxed);
    let threads = config.workers;
    let (builders, guard): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
        if config.cluster.processes() == 1 {
            let builders = ProcessBuilder::new_typed_vector(threads, Hooks::default().refill, None)
                .into_iter()
                .map(AllocatorBuilder::Process)
                .collect();
            (builders, Box::new(()))
        } else {
            let sockets = connect(config, me)?;
            let process = ProcessBuilder::new_typed_vector(threads, Hooks::default().refill, None);
            let (builders, guard) = initialize_networking_from_sockets(
                process,
                sockets,
                config.cluster.process,
                threads,
                Hooks::default(),
            )
            .map_err(|e| Error::Handshake(format!("cannot start timely's networking: {e}")))?;
            (
                builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
                Box::new(guard),
            )
        };
    let work = Arc::new(work);
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let guards = timely::execute::execute_from(builders, guard, WorkerConfig::default(), {
            let work = Arc::clone(&work);
            move |w| work(w)
        })
        .map_err(Error::Handshake)?;
        let results = guards.join();
        Ok::<_, Error>(results)
    }));
    let results = match joined {
        Ok(r) => r?,
        Err(_) => {
            return Err(Error::Lost(
                "a connection to another process was lost while shutting down".into(),
            ))
        }
    };
    let mut first: Option<T> = None;
    let mut error: Option<Error> = None;
    for r in results {
        match r {
            Ok(Ok(t)) => {
                first.get_or_insert(t);
            }
            Ok(Err(e)) => {
                // Prefer a worker's own error to the echo of it another worker reports.
                let own = !matches!(e, Error::Peer { .. });
                if error.is_none() || (own && matches!(error, Some(Error::Peer { .. }))) {
                    error = Some(e);
                }
            }
            Err(panic) => {
                error.get_or_insert(Error::Lost(format!("a worker thread panicked: {panic}")));
            }
        }
    }
    match (error, first) {
        (Some(e), _) => Err(e),
        (None, Some(t)) => Ok(t),
        (None, None) => Err(Error::Config("no worker ran".into())),
    }
}
