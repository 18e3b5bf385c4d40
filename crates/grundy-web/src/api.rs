//! The JSON API: request parsing, the bounded blocking runner, and the handlers. The answers
//! are the library's serialized reports and tables, as `grundy … --json` prints them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grundy::cgt::Context;
use grundy::games::{families, GrundySource, Spec};
use grundy::graph::answer::Goal;
use grundy::graph::Format;
use grundy::pattern;
use grundy::report::{self, Limits, TableError};
use serde::Deserialize;
use serde_json::{json, Value};

pub use crate::input::{parse_spec, GraphQuery, OlympiadQuery, MAX_SPEC};

use crate::error::ApiError;
use crate::Config;

pub type AppState = State<Arc<Config>>;
type Answer = Result<Json<Value>, ApiError>;

/// The README's green game: Billy keeps the soldier on his white fields 4 ⇄ 5, and field 3
/// can only go there; Ann wins from 1, 2 and 6.
pub const GREEN_EXAMPLE: &str = "3 3\n0 2 2 4\n1 1 1\n0 1 4\n0 2 5 1\n0 1 4\n0 1 1\n";

/// Runs `work` on the blocking pool with the limits of `config`, and stops it through the
/// library's cancel flag when the time limit passes or the client goes away.
pub async fn blocking<T: Send + 'static>(
    config: &Arc<Config>,
    work: impl FnOnce(&Limits<'_>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    followed(config, None, work).await
}

/// [`blocking`], the library's progress reports noted under `ticket` (when there is one)
/// for `/api/progress` until the answer is ready.
pub async fn followed<T: Send + 'static>(
    config: &Arc<Config>,
    ticket: Option<String>,
    work: impl FnOnce(&Limits<'_>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    /// Forgets the ticket when dropped: answered, timed out, or the client gone.
    struct EndOnDrop(Arc<Config>, Option<String>);
    impl Drop for EndOnDrop {
        fn drop(&mut self) {
            if let Some(ticket) = &self.1 {
                self.0.thinking.end(ticket);
            }
        }
    }
    if let Some(ticket) = &ticket {
        config.thinking.start(ticket);
    }
    let _ended = EndOnDrop(Arc::clone(config), ticket.clone());
    /// Sets the flag when dropped: when the answer is ready (harmless), on timeout, or when
    /// the request's future is dropped because the client left.
    struct CancelOnDrop(Arc<AtomicBool>);
    impl Drop for CancelOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(Arc::clone(&cancel));
    let limits_of = Arc::clone(config);
    // A timeout past any run (`--timeout 10^18`) is a deadline far ahead, not an overflow.
    let deadline = tokio::time::Instant::now() + config.timeout.min(FAR);
    // A permit to compute, held by the computation until it ends (after a timeout too:
    // the library stops at its next check of the cancel flag, its memory still held).
    let running = Arc::clone(&config.running);
    let Ok(Ok(permit)) = tokio::time::timeout_at(deadline, running.acquire_owned()).await else {
        return Err(ApiError::busy(config.timeout));
    };
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut limits = limits_of.limits(&cancel);
        let note = |stage: &str, done: u64| {
            if let Some(ticket) = &ticket {
                limits_of.thinking.note(ticket, stage, done);
            }
        };
        limits.control.progress = Some(&note);
        work(&limits)
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(answer)) => answer,
        // A panic stays in its request: the pool's thread unwinds, the server goes on, and
        // the client is told what failed.
        Ok(Err(join)) => Err(ApiError::internal(&join)),
        Err(_) => Err(ApiError::timeout(config.timeout)),
    }
}

/// The furthest deadline a request is given: about a hundred years.
const FAR: std::time::Duration = std::time::Duration::from_secs(100 * 365 * 24 * 3600);

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::bad_request(format!("bad query: {}", e.body_text())))
}

/// The body, refused past `max_body` with a 413 and a JSON reason.
pub fn body(config: &Config, b: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            format!(
                "too large: the request body is over the limit of {}",
                grundy::human_bytes(config.max_body as u64)
            ),
        )
    };
    match b {
        Ok(b) if b.len() > config.max_body => Err(too_large()),
        Ok(b) => Ok(b),
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(too_large()),
        Err(e) => Err(ApiError::bad_request(format!(
            "cannot read the request body: {}",
            e.body_text()
        ))),
    }
}

/// Answers unknown routes.
pub async fn not_found(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        format!(
            "no such page or endpoint: {}; the API is under /api/ (catalog, solve, variant, table, pattern, explore, play, progress, graph, olympiad)",
            echo(request.uri().path())
        ),
    )
}

/// Whether a `Host` value names this machine: `127.0.0.1`, `localhost` or `[::1]` (any
/// case), with an optional `:port` of digits only — nothing before, after or around it, so
/// that `127.0.0.1.evil.example` and `127.0.0.1:80.evil.example` are not.
pub fn is_local_host(host: &str) -> bool {
    let (name, port) = if host.starts_with('[') {
        match host.find(']') {
            Some(end) => host.split_at(end + 1),
            None => return false,
        }
    } else {
        match host.find(':') {
            Some(colon) => host.split_at(colon),
            None => (host, ""),
        }
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|p| {
            !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
        });
    port_ok
        && (name.eq_ignore_ascii_case("127.0.0.1")
            || name.eq_ignore_ascii_case("localhost")
            || name == "[::1]")
}

/// The one name a request is addressed to: its single `Host` header, or the authority of an
/// absolute URI when there is no header; `None` when there is neither, or two headers.
fn addressed_to(request: &Request) -> Option<String> {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok().map(str::to_string),
        (None, _) => request.uri().authority().map(|a| a.as_str().to_string()),
        (Some(_), Some(_)) => None,
    }
}

/// The longest path echoed back in an error, in characters.
const MAX_ECHO: usize = 200;

fn echo(path: &str) -> String {
    if path.chars().count() <= MAX_ECHO {
        path.to_string()
    } else {
        let cut: String = path.chars().take(MAX_ECHO).collect();
        format!("{cut}…")
    }
}

/// Answers only requests addressed to this machine by name (a page elsewhere that rebinds
/// its name to 127.0.0.1 gets nothing; so does a request that names no host), gives every
/// 405 the API's JSON error, and adds the headers that keep data from becoming markup.
pub async fn guard(request: Request, next: Next) -> Response {
    if !addressed_to(&request).is_some_and(|host| is_local_host(host.trim())) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "bad-host",
            "this server answers only requests addressed to 127.0.0.1, localhost or [::1] (with an optional port)",
        )
        .into_response();
    }
    let method = request.method().clone();
    let path = echo(request.uri().path());
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    if response.status() == StatusCode::METHOD_NOT_ALLOWED {
        // The router's own 405 has an empty body (and, under this layer, no `Allow`): give
        // it the documented JSON error and say what the route takes.
        let allow = if crate::POST_ROUTES.contains(&path.as_str()) {
            "POST"
        } else {
            "GET, HEAD"
        };
        response = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "bad-method",
            format!(
                "{method} is not allowed on {path}; use {}",
                allow.replace(", ", " or ")
            ),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
        ),
    );
    if api {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// A JSON number: exact up to `u64::MAX`, the nearest double past it (serde_json's numbers
/// hold no more).
fn number(n: u128) -> Value {
    u64::try_from(n).map_or_else(|_| json!(n as f64), |n| json!(n))
}

/// `GET /api/catalog`: the families, examples, the graph games' objectives (each format's
/// default), the limits (every one a JSON number), the tablebases.
pub async fn catalog(State(config): AppState) -> Json<Value> {
    Json(json!({
        "families": families()
            .map(|(name, shape)| json!({"name": name, "shape": shape}))
            .collect::<Vec<_>>(),
        "examples": grundy::games::examples(),
        "gallery": gallery(config.max_drawn),
        "graph_examples": [{"name": "green.txt", "format": "poi", "text": GREEN_EXAMPLE}],
        "objectives": Goal::ALL
            .iter()
            .map(|goal| json!({"name": goal.name(), "about": goal.about()}))
            .collect::<Vec<_>>(),
        "default_objectives": Format::ALL
            .iter()
            .map(|&format| json!({"format": format.name(), "objective": Goal::of_format(format).name()}))
            .collect::<Vec<_>>(),
        "limits": {
            "max_positions": config.max_positions,
            "max_memory": config.max_memory,
            "max_work": number(config.max_work),
            "timeout_seconds": config.timeout.as_secs_f64(),
            "max_body": config.max_body,
            "max_table": config.max_table,
            "max_drawn": config.max_drawn,
            "max_proof_heaps": config.max_proof_heaps,
        },
        "tablebases": config.tablebases.iter().map(crate::Tablebase::game).collect::<Vec<_>>(),
    }))
}

/// The gallery of the start page: every family of the registry with its shape, its rules
/// (the shape's words after the colon), its examples, its options, and the drawing of the
/// first position of it the family draws (of its examples, then its small specs; the first
/// when it draws none): `{"name", "shape", "rules", "examples", "options"?, "spec",
/// "picture" | "figure" | nothing}`.
fn gallery(max_drawn: usize) -> Vec<Value> {
    grundy::games::registry::entries()
        .map(|e| {
            let (shape, rules) = e.shape.split_once(": ").unwrap_or((e.shape, ""));
            let mut item = json!({
                "name": e.name,
                "shape": shape,
                "rules": rules,
                "examples": e.examples,
            });
            if let Some(options) = options_json(&e.options) {
                item["options"] = options;
            }
            // The first example (then small spec) the family draws; else the first.
            let samples: Vec<(Spec, Value)> = e
                .examples
                .iter()
                .chain(e.small)
                .filter_map(|s| s.parse::<Spec>().ok())
                .map(|spec| {
                    let drawn = crate::board::drawing_json(&spec, max_drawn);
                    (spec, drawn)
                })
                .collect();
            let sample = samples
                .iter()
                .find(|(_, drawn)| drawn.as_object().is_some_and(|d| !d.is_empty()))
                .or(samples.first());
            if let Some((spec, drawn)) = sample {
                item["spec"] = json!(spec.to_string());
                if let (Value::Object(item), Value::Object(drawn)) = (&mut item, drawn.clone()) {
                    item.extend(drawn);
                }
            }
            item
        })
        .collect()
}

/// A family's options as the gallery gives them: `{"template", "settings": [{"name",
/// "label", "choices": [{"value", "words"}], "default"}]}`; `None` for a family with one
/// form.
fn options_json(options: &grundy::games::Options) -> Option<Value> {
    if options.settings.is_empty() {
        return None;
    }
    let settings: Vec<Value> = options
        .settings
        .iter()
        .map(|s| {
            let choices: Vec<Value> = s
                .values
                .choices()
                .into_iter()
                .map(|(value, words)| json!({"value": value, "words": words}))
                .collect();
            json!({"name": s.name, "label": s.label, "choices": choices, "default": s.default})
        })
        .collect();
    Some(json!({"template": options.template, "settings": settings}))
}

/// `GET /api/variant?family=F&name=value…`: the spec the family's options make with those
/// values (the others at their defaults), checked by the spec parser: `{"family", "spec"}`.
/// A value not offered, or a combination the family refuses, is a 400 with the reason.
pub async fn variant(q: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Answer {
    let pairs = query(q)?;
    if pairs.len() > 32 || pairs.iter().any(|(k, v)| k.len() + v.len() > MAX_SPEC) {
        return Err(ApiError::bad_request("too many or too long options"));
    }
    let name = pairs
        .iter()
        .find(|(k, _)| k == "family")
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| ApiError::bad_request("missing the query parameter `family`"))?;
    let entry = grundy::games::registry::find(name)
        .ok_or_else(|| ApiError::bad_request(format!("no family `{}`", echo(name))))?;
    let chosen: Vec<(&str, &str)> = pairs
        .iter()
        .filter(|(k, _)| k != "family")
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let text = entry
        .options
        .spec(&chosen)
        .map_err(|why| ApiError::bad_request(format!("{}: {why}", entry.name)))?;
    // Read by the parser (a combination the family refuses is refused here), and given
    // back as made: `connect4[5x4]`, not the board it stands for.
    parse_spec(&text)?;
    Ok(Json(json!({"family": entry.name, "spec": text})))
}

#[derive(Deserialize)]
pub struct SpecQuery {
    spec: Option<String>,
    /// The page's word for this request, to ask `/api/progress` of it.
    ticket: Option<String>,
}

/// A request's ticket, checked.
fn ticket_of(ticket: Option<&str>) -> Result<Option<String>, ApiError> {
    ticket.map(crate::thinking::ticket).transpose()
}

#[derive(Deserialize)]
pub struct ProgressQuery {
    ticket: Option<String>,
}

/// `GET /api/progress?ticket=T`: how far the request that brought ticket `T` has got
/// (see [`crate::thinking::Board::json`]).
pub async fn progress(
    State(config): AppState,
    q: Result<Query<ProgressQuery>, QueryRejection>,
) -> Answer {
    let ticket = query(q)?
        .ticket
        .ok_or_else(|| ApiError::bad_request("missing the query parameter `ticket`"))?;
    let ticket = crate::thinking::ticket(&ticket)?;
    Ok(Json(config.thinking.json(&ticket)))
}

fn required(spec: Option<String>) -> Result<String, ApiError> {
    spec.ok_or_else(|| ApiError::bad_request("missing the query parameter `spec`"))
}

/// Solves `spec` within the limits (from a tablebase of the limits, if one holds it); the
/// report's JSON, with the board and each move's cell where the family draws one.
pub fn solve_json(spec: &Spec, limits: &Limits<'_>, config: &Config) -> Answer {
    let report = grundy::report::solve(spec, limits)
        .map_err(|e| ApiError::solve(e, &spec.to_string(), config.timeout))?;
    Ok(Json(crate::board::report_json(
        spec,
        &report,
        config.max_drawn,
    )))
}

/// `GET /api/solve?spec=S`: `grundy solve S --json`.
pub async fn solve(State(config): AppState, q: Result<Query<SpecQuery>, QueryRejection>) -> Answer {
    let q = query(q)?;
    let ticket = ticket_of(q.ticket.as_deref())?;
    let spec = parse_spec(&required(q.spec)?)?;
    let cfg = Arc::clone(&config);
    followed(&config, ticket, move |limits| {
        solve_json(&spec, limits, &cfg)
    })
    .await
}

/// `GET /api/value?spec=S`: `grundy value S --json`, the combinatorial game value of a
/// position or a sum (its canonical form, outcome class, mean and temperature), within
/// the server's memory and time limits.
pub async fn value(State(config): AppState, q: Result<Query<SpecQuery>, QueryRejection>) -> Answer {
    let q = query(q)?;
    let spec = parse_spec(&required(q.spec)?)?;
    let cfg = Arc::clone(&config);
    blocking(&config, move |limits| {
        value_json(&spec, limits)
            .map(Json)
            .map_err(|e| ApiError::solve(e, &spec.to_string(), cfg.timeout))
    })
    .await
}

/// The JSON of `grundy value --json` for `spec`, with `thermograph_svg`: the value's
/// thermograph drawn by grundy-plot (`null` where no font lets it be drawn).
fn value_json(spec: &Spec, limits: &Limits<'_>) -> Result<Value, grundy::Error> {
    let mut context = Context::new(limits.max_memory).with_control(&limits.control);
    let valued = report::value::valuation(spec, limits, &mut context)?;
    valuation_json(spec, &valued, &mut context)
}

/// [`value_json`] of a valuation already made in `context`.
fn valuation_json(
    spec: &Spec,
    valued: &report::value::Valuation,
    context: &mut Context,
) -> Result<Value, grundy::Error> {
    use grundy::cgt::{self, Spelling};
    let found = report::value::words(&spec.to_string(), valued, context, Spelling::Unicode);
    let drawn = cgt::thermograph(&context.table, valued.total, &mut Default::default())?;
    let svg = grundy_plot::thermograph_svg(&drawn, &found.value).ok();
    let mut json = serde_json::to_value(found).expect("a value serializes");
    json["thermograph_svg"] = json!(svg);
    Ok(json)
}

/// What Explore shows beside a position with a partizan part: its value, when every
/// part has one (a family that offers none, such as connect four, or a limit met:
/// `None`, and the page shows the outcome alone).
fn explore_value(spec: &Spec, limits: &Limits<'_>) -> Option<Value> {
    let partizan = spec
        .parts
        .iter()
        .any(|p| p.family.kind() == grundy::games::Kind::Partizan);
    if !partizan {
        return None;
    }
    value_json(spec, limits).ok()
}

#[derive(Deserialize)]
pub struct TableQuery {
    family: Option<String>,
    up_to: Option<String>,
}

/// A table's JSON: the command line's, plus `rule` — what the special method found for the
/// family (`grundy pattern --json`), or `null` when it found nothing (yet).
fn table_json(family: &str, up_to: u64, limits: &Limits<'_>, config: &Config) -> Answer {
    let table = report::table(family, up_to, limits).map_err(|e| match e {
        TableError::Spec(e) => ApiError::spec(&e),
        TableError::Solve(e) => ApiError::solve(e, family, config.timeout),
    })?;
    let mut value = serde_json::to_value(table).expect("a table serializes");
    let check = pattern_up_to(family, config);
    value["rule"] = match pattern::discover(family, check, &limits.control) {
        Ok(found) => serde_json::to_value(found).expect("a pattern serializes"),
        Err(grundy::Error::Cancelled) => return Err(ApiError::timeout(config.timeout)),
        Err(_) => Value::Null,
    };
    Ok(Json(value))
}

#[derive(Deserialize)]
pub struct PatternQuery {
    family: Option<String>,
    up_to: Option<String>,
}

/// `GET /api/pattern?family=F&up_to=N`: `grundy pattern F --up-to N --json`.
pub async fn pattern(
    State(config): AppState,
    q: Result<Query<PatternQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let family = family(q.family)?;
    let up_to = up_to(q.up_to.as_deref(), pattern_up_to(&family, &config), &config)?;
    let timeout = config.timeout;
    blocking(&config, move |limits| {
        match pattern::discover(&family, up_to, &limits.control) {
            Ok(found) => Ok(Json(
                serde_json::to_value(found).expect("a pattern serializes"),
            )),
            Err(grundy::Error::Unsupported(why)) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported",
                format!("no pattern for `{family}`: {why}"),
            )),
            Err(e) => Err(ApiError::solve(e, &family, timeout)),
        }
    })
    .await
}

/// How far the pattern finder looks when the request does not say: the command line's
/// default ([`pattern::default_up_to`]), within the page's limit on tables.
fn pattern_up_to(family: &str, config: &Config) -> u64 {
    pattern::default_up_to(family).min(config.max_table)
}

/// The `family` parameter: present and of a sane length.
fn family(family: Option<String>) -> Result<String, ApiError> {
    let family =
        family.ok_or_else(|| ApiError::bad_request("missing the query parameter `family`"))?;
    if family.len() > MAX_SPEC {
        return Err(ApiError::bad_request("the family is too long"));
    }
    Ok(family)
}

/// The `up_to` parameter: a whole number, `default` if absent, at most `max_table`.
fn up_to(text: Option<&str>, default: u64, config: &Config) -> Result<u64, ApiError> {
    let up_to = match text.map(str::trim) {
        None | Some("") => default,
        Some(t) => t.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!("up_to must be a whole number, not `{t}`"))
        })?,
    };
    if up_to > config.max_table {
        return Err(ApiError::too_large(format!(
            "too large: tables and patterns go up to {} here (asked for {up_to}); the command line (`grundy table`, `grundy pattern` with --up-to) goes further",
            config.max_table
        )));
    }
    Ok(up_to)
}

/// `GET /api/table?family=F&up_to=N`: `grundy table F --up-to N --json`.
pub async fn table(
    State(config): AppState,
    q: Result<Query<TableQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let family = family(q.family)?;
    let up_to = up_to(q.up_to.as_deref(), 30, &config)?;
    let cfg = Arc::clone(&config);
    blocking(&config, move |limits| {
        table_json(&family, up_to, limits, &cfg)
    })
    .await
}

/// The one-parameter families of a spec (those with a table), each with the largest
/// size it has.
fn heap_families(spec: &Spec) -> Vec<(String, u64)> {
    let mut found: Vec<(String, u64)> = Vec::new();
    for part in &spec.parts {
        let family = &part.family;
        if family.member(0).is_none() || family.grundy() == GrundySource::None {
            continue;
        }
        let largest = family
            .components(&part.position)
            .iter()
            .map(|c| family.grundy_size(c))
            .max()
            .unwrap_or(0);
        let name = part.family_name();
        match found.iter_mut().find(|(f, _)| *f == name) {
            Some((_, m)) => *m = (*m).max(largest),
            None => found.push((name, largest)),
        }
    }
    found
}

/// The smallest and largest table `/api/explore` shows.
const EXPLORE_TABLE: (u64, u64) = (30, 100);
/// The most families `/api/explore` tabulates.
const EXPLORE_FAMILIES: usize = 4;

/// `GET /api/explore?spec=S`: `{"report": …, "tables": [table + {"up_to"} or {"family", "error"}]}`.
pub async fn explore(
    State(config): AppState,
    q: Result<Query<SpecQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let ticket = ticket_of(q.ticket.as_deref())?;
    let spec = parse_spec(&required(q.spec)?)?;
    let cfg = Arc::clone(&config);
    followed(&config, ticket, move |limits| {
        // A sum with partizan parts is solved by its parts' values: valued once, for the
        // report and the value beside it.
        let mut context = Context::new(limits.max_memory).with_control(&limits.control);
        let summed = report::value::solve_sum_in(&spec, limits, &mut context)
            .map_err(|e| ApiError::solve(e, &spec.to_string(), cfg.timeout))?;
        let (report, valued) = match &summed {
            Some((report, valued)) => (
                crate::board::report_json(&spec, report, cfg.max_drawn),
                Some(valued),
            ),
            None => (solve_json(&spec, limits, &cfg)?.0, None),
        };
        let tables: Vec<Value> = heap_families(&spec)
            .into_iter()
            .take(EXPLORE_FAMILIES)
            .map(|(family, largest)| {
                let up_to = largest.clamp(EXPLORE_TABLE.0, EXPLORE_TABLE.1);
                match table_json(&family, up_to, limits, &cfg) {
                    Ok(Json(mut t)) => {
                        t["up_to"] = json!(up_to);
                        t
                    }
                    Err(e) => json!({"family": family, "error": e.message}),
                }
            })
            .collect();
        if limits.control.check().is_err() {
            return Err(ApiError::timeout(cfg.timeout));
        }
        let value = match valued {
            Some(valued) => valuation_json(&spec, valued, &mut context).ok(),
            None => explore_value(&spec, limits),
        };
        if limits.control.check().is_err() {
            return Err(ApiError::timeout(cfg.timeout));
        }
        Ok(Json(
            json!({"report": report, "tables": tables, "value": value}),
        ))
    })
    .await
}

/// `POST /api/play`: see [`crate::play`].
pub async fn play(State(config): AppState, b: Result<Bytes, BytesRejection>) -> Answer {
    let bytes = body(&config, b)?;
    let request: crate::play::PlayRequest = serde_json::from_slice(&bytes).map_err(|e| {
        let mut err = ApiError::bad_request(format!(
            "the body must be JSON {{\"spec\": …, \"move\"?: …, \"taken\"?: [you, grundy]}}: {e}"
        ));
        err.at = Some((e.line(), e.column()));
        err
    })?;
    let ticket = ticket_of(request.ticket.as_deref())?;
    let cfg = Arc::clone(&config);
    followed(&config, ticket, move |limits| {
        crate::play::reply(&request, limits, &cfg).map(Json)
    })
    .await
}

/// `POST /api/graph?name=&format=&objective=` with the file as the body: see
/// [`crate::graph`].
pub async fn graph(
    State(config): AppState,
    q: Result<Query<GraphQuery>, QueryRejection>,
    b: Result<Bytes, BytesRejection>,
) -> Answer {
    let q = query(q)?;
    let bytes = body(&config, b)?;
    let cfg = Arc::clone(&config);
    blocking(&config, move |limits| {
        crate::graph::solve(&q, bytes.to_vec(), &limits.control, &cfg).map(Json)
    })
    .await
}

/// `POST /api/olympiad?task=&name=` with the task's input as the body: see
/// [`crate::play::olympiad`].
pub async fn olympiad(
    State(config): AppState,
    q: Result<Query<OlympiadQuery>, QueryRejection>,
    b: Result<Bytes, BytesRejection>,
) -> Answer {
    let q = query(q)?;
    let task = crate::input::task(q.task.as_deref().unwrap_or(""))?;
    let name = crate::input::file_name(q.name.as_deref());
    let bytes = body(&config, b)?;
    let cfg = Arc::clone(&config);
    blocking(&config, move |limits| {
        let text = crate::input::decode(bytes.to_vec(), &name, &cfg)?;
        crate::play::olympiad(task, &text, &name, limits, &cfg).map(Json)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At most `running` computations at once, each keeping its permit until it has
    /// really stopped: one past its timeout but still winding down keeps the next
    /// request waiting, and a request that finds no permit within its time is refused
    /// as busy; once the first has ended, the next is answered.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn computations_at_once_are_bounded_and_a_stopped_one_holds_its_permit_until_it_ends() {
        let config = Arc::new(Config {
            timeout: std::time::Duration::from_millis(300),
            running: Arc::new(tokio::sync::Semaphore::new(1)),
            ..Config::default()
        });
        let (ended, end) = std::sync::mpsc::channel();
        let slow = blocking(&config, move |limits| -> Result<u32, ApiError> {
            let cancel = limits.control.cancel.expect("a cancel flag");
            while !cancel.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            // Stopping takes a while (a large table freed, say).
            std::thread::sleep(std::time::Duration::from_millis(700));
            let _ = ended.send(());
            Ok(1)
        })
        .await
        .unwrap_err();
        assert_eq!(slow.kind, "timeout", "{}", slow.message);
        let busy = blocking(&config, |_| Ok(2)).await.unwrap_err();
        assert_eq!(
            (busy.status, busy.kind),
            (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            "{}",
            busy.message
        );
        end.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the first computation ends");
        assert_eq!(blocking(&config, |_| Ok(3)).await, Ok(3));
    }

    /// A timeout too long for any clock (a user's `--timeout 10^18`) is a far deadline:
    /// the request is answered, not a panic of an overflowing instant.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_timeout_past_any_clock_answers() {
        let config = Arc::new(Config {
            timeout: std::time::Duration::MAX,
            ..Config::default()
        });
        assert_eq!(blocking(&config, |_| Ok(5)).await, Ok(5));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_one_computation_is_a_typed_error_and_the_next_is_answered() {
        let config = Arc::new(Config::default());
        let failed = blocking(&config, |_| -> Result<u32, ApiError> {
            panic!("a bug in one request")
        })
        .await
        .unwrap_err();
        assert_eq!(failed.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(failed.kind, "internal");
        assert!(failed.message.contains("panicked"), "{}", failed.message);
        assert!(
            failed.message.contains("a bug in one request"),
            "{}",
            failed.message
        );
        // The limits each computation gets: its own cancel flag, the configured budgets.
        let answered = blocking(&config, |limits| {
            assert!(limits.control.cancel.is_some());
            assert_eq!(limits.max_memory, Config::default().max_memory);
            Ok(7)
        })
        .await;
        assert_eq!(answered, Ok(7));
    }
}
