//! grundy-web: a local web page to explore any game grundy can solve and to play it against
//! perfect strategy, over a JSON API that mirrors the command line's JSON.
//!
//! The page (`assets/`: one HTML file, one script, one style sheet) is embedded in the binary
//! and only presents what the API answers: no game logic runs in the browser. Every request
//! that computes runs on tokio's blocking pool under the [`Config`]'s limits — positions,
//! memory, work and a wall-clock timeout that stops the library through its cancel flag — so
//! that one large request neither stalls the server nor blocks the others. Positions of a
//! game the [`Config`] has a [`Tablebase`] of are read from it instead of searched.
//!
//! ```
//! use axum::body::Body;
//! use axum::http::{Request, StatusCode};
//! use tower::ServiceExt as _;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let app = grundy_web::router(grundy_web::Config::default());
//! let response = app
//!     .oneshot(
//!         Request::get("/api/solve?spec=nim(3,4,5)")
//!             .header("host", "127.0.0.1:8080") // only loopback names are answered
//!             .body(Body::empty())
//!             .unwrap(),
//!     )
//!     .await
//!     .unwrap();
//! assert_eq!(response.status(), StatusCode::OK);
//! # });
//! ```
//!
//! Routes (the README's "Web page" section documents the JSON):
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /` , `/app.js`, `/style.css`, `/favicon.svg` | the page |
//! | `GET /api/catalog` | the families, example specs, the gallery (every family with its rules, examples, options and the drawing of the first), an example green game, the limits, the tablebases |
//! | `GET /api/variant?family=F&name=value…` | the spec a family's options (the gallery's `options`) make with those values |
//! | `GET /api/solve?spec=S` | `grundy solve S --json`, plus the family's name, a board's picture and each move's cell |
//! | `GET /api/table?family=F&up_to=N` | `grundy table F --up-to N --json`, plus `rule` |
//! | `GET /api/pattern?family=F&up_to=N` | `grundy pattern F --up-to N --json` |
//! | `GET /api/explore?spec=S` | the report and the tables of its one-heap families |
//! | `POST /api/play` | the engine's reply to a move, with the reason in one line, and each move's value (the value history) |
//! | `GET /api/progress?ticket=T` | how far the request that brought ticket `T` (`/api/explore`, `/api/solve`, `/api/play`) has got: the library's stage and count, the seconds so far |
//! | `POST /api/graph?name=&format=&objective=` | a game on a graph (POI, PGSolver, digraph), solved |
//! | `POST /api/olympiad?task=&name=` | a contest task's input (IOI 2001 "Score" board, POI 1999 "Polygons" triangulation) read by the library, solved, with its figure; played through `/api/play` with `"board"` |
#![forbid(unsafe_code)]

mod api;
mod assets;
mod board;
mod error;
mod graph;
mod input;
mod play;
mod thinking;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use grundy::explore::Control;
use grundy::report::Limits;

pub use error::ApiError;
pub use grundy::report::Tablebase;
pub use thinking::Board as Thinking;
pub use tokio::sync::Semaphore;

/// What one request may use, and the tablebases requests are answered from. A request
/// past a limit is refused with a 4xx and the reason.
#[derive(Debug, Clone)]
pub struct Config {
    /// Positions one exploration may create (default 2 000 000, as the command line). A
    /// position past it is judged by Grundy values or a proved rule, without remoteness,
    /// and refused when neither fits the memory and work limits.
    pub max_positions: u64,
    /// Bytes a Grundy table, or the positions an exploration keeps, may take (default 1 GiB).
    pub max_memory: u64,
    /// Elementary steps a Grundy table may take (default 2·10^9, a few seconds).
    pub max_work: u128,
    /// Wall-clock time one request may compute before it is stopped (default 20 s).
    pub timeout: Duration,
    /// The largest request body, e.g. an uploaded graph file, in bytes; also the most a
    /// gzipped upload may inflate to (default 16 MiB).
    pub max_body: usize,
    /// The largest heap size `/api/table` tabulates and `/api/pattern` checks (default
    /// 100 000).
    pub max_table: u64,
    /// The most vertices of an arena the page draws; larger ones get counts and a
    /// download (default 150).
    pub max_drawn: usize,
    /// Heaps a heap game may compute to prove its period when a heap is too large to
    /// tabulate (default 2^20, as the command line).
    pub max_proof_heaps: u64,
    /// Solved games to answer from (default none): a position of a game one of them
    /// holds is read from its tiers with no search (`report::lookup`), in Explore and
    /// in Play; any other is solved as usual, under the limits above.
    pub tablebases: Vec<Tablebase>,
    /// The exact search's tables, shared by every request (a game in Play asks of the
    /// same board again and again): at most two games' tables of 64 MiB each.
    pub search_cache: std::sync::Arc<grundy::report::SearchCache>,
    /// How far each request that brought a ticket has got, for `/api/progress` (shared
    /// by every request; empty at the start).
    pub thinking: std::sync::Arc<Thinking>,
    /// The computations that may run at once, a permit each (default: one a core, at
    /// least two, so that one slow request holds up no other). A computation keeps its
    /// permit until it has really stopped, after a timeout too, so the memory requests
    /// hold together stays within this many times `max_memory`; a request that finds
    /// none free within its timeout is refused as busy (503).
    pub running: std::sync::Arc<tokio::sync::Semaphore>,
}

/// The computations that run at once by default: one a core, at least two.
pub fn default_running() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_positions: 2_000_000,
            max_memory: 1 << 30,
            max_work: 2_000_000_000,
            timeout: Duration::from_secs(20),
            max_body: 16 << 20,
            max_table: 100_000,
            max_drawn: 150,
            max_proof_heaps: 1 << 20,
            tablebases: Vec::new(),
            search_cache: std::sync::Arc::default(),
            thinking: std::sync::Arc::default(),
            running: std::sync::Arc::new(tokio::sync::Semaphore::new(default_running())),
        }
    }
}

impl Config {
    /// The library's limits for one request, stopped through `cancel`.
    fn limits<'a>(&'a self, cancel: &'a AtomicBool) -> Limits<'a> {
        Limits {
            control: Control {
                max_positions: self.max_positions,
                cancel: Some(cancel),
                progress: None,
            },
            max_memory: self.max_memory,
            max_work: self.max_work,
            max_proof_heaps: self.max_proof_heaps,
            tablebases: &self.tablebases,
            search_cache: Some(&self.search_cache),
            // The proof search stops at the request's timeout, if not before.
            ..Limits::default()
        }
    }
}

/// The routes that take `POST`; every other route takes `GET` (and `HEAD`). A 405 says so in
/// its `Allow` header.
const POST_ROUTES: &[&str] = &[PLAY, GRAPH, OLYMPIAD];
const PLAY: &str = "/api/play";
const GRAPH: &str = "/api/graph";
const OLYMPIAD: &str = "/api/olympiad";

/// The application: the page and the API, with `config`'s limits.
pub fn router(config: Config) -> Router {
    let max_body = config.max_body;
    let state = Arc::new(config);
    let api = Router::new()
        .route("/api/catalog", get(api::catalog))
        .route("/api/solve", get(api::solve))
        .route("/api/variant", get(api::variant))
        .route("/api/table", get(api::table))
        .route("/api/pattern", get(api::pattern))
        .route("/api/value", get(api::value))
        .route("/api/explore", get(api::explore))
        .route(PLAY, post(api::play))
        .route("/api/progress", get(api::progress))
        .route(GRAPH, post(api::graph))
        .route(OLYMPIAD, post(api::olympiad))
        .with_state(state)
        // The handlers take the body as bytes and refuse more than `max_body` themselves,
        // with a JSON reason; this outer limit only keeps a runaway body from being read.
        .layer(DefaultBodyLimit::max(max_body.saturating_add(1)));
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::icon))
        .merge(api)
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn(api::guard))
}

/// Serves the page on `127.0.0.1:port` (port 0: one the system picks) until `stop` turns
/// true, calling `ready` with the address once it listens. Runs its own tokio runtime.
///
/// # Errors
/// The port cannot be bound, or the runtime cannot start.
pub fn serve(
    port: u16,
    config: Config,
    stop: Option<&'static AtomicBool>,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router(config))
            .with_graceful_shutdown(async move {
                loop {
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
            .await
    })
}
