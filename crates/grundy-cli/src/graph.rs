//! `grundy graph`: games on graphs read from files — the POI green game, PGSolver parity
//! games, token games on plain digraphs — and `grundy graph verify`.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use clap::{Args, Subcommand, ValueEnum};
use grundy::explore::Control;
use grundy::graph::objectives::{self, Objective, Solution};
use grundy::graph::parity::{self, ParityAlgorithm, UnknownAlgorithm};
use grundy::graph::token::{self, Loopy};
use grundy::graph::{self as g, Arena, Format};
use serde_json::{json, Value as Json};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct GraphArgs {
    #[command(subcommand)]
    pub action: Option<GraphAction>,
    #[command(flatten)]
    pub solve: SolveArgs,
}

#[derive(Subcommand)]
pub enum GraphAction {
    /// Check a claimed solution without trusting any solver.
    Verify {
        /// The game (POI or PGSolver; `-` for standard input).
        game: PathBuf,
        /// The solution: a PGSolver `paritysol` file, or a POI answer followed by
        /// `field -> successor` lines.
        solution: PathBuf,
        /// The game's format (detected if absent).
        #[arg(long, value_parser = parse_format)]
        format: Option<Format>,
        #[command(flatten)]
        input: InputArgs,
    },
}

/// How much text a game or solution file may hold.
#[derive(Args, Clone, Copy)]
pub struct InputArgs {
    /// Most text a file may hold once gunzipped, in MiB (a gzip file of a few megabytes can
    /// inflate to gigabytes).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = crate::args::u64_arg)]
    pub max_input: u64,
}

#[derive(Args)]
pub struct SolveArgs {
    /// The game file (`.gz` is read as gzip; `-` for standard input).
    pub file: Option<PathBuf>,
    /// The format: poi, pgsolver or digraph (detected if absent).
    #[arg(long, value_parser = parse_format)]
    pub format: Option<Format>,
    /// What player 0 (Ann) wants. Default: buchi for POI files, parity for PGSolver,
    /// token for digraphs.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
    /// The priorities of the set F for reach / safety / buchi / cobuchi (default: the
    /// even ones; in a POI file, green).
    #[arg(long, value_delimiter = ',', value_name = "P,…", value_parser = crate::args::u32_arg)]
    pub accepting: Vec<u32>,
    /// Also print a positional winning strategy for each player on its region.
    #[arg(long)]
    pub strategy: bool,
    /// The parity algorithm: tangle (tangle learning, default), zielonka, fpj
    /// (fixpoint iteration with justifications).
    #[arg(long, value_parser = parse_algorithm, default_value = "tangle")]
    pub algorithm: ParityAlgorithm,
    /// Token games: judge the sum of tokens on these vertices.
    #[arg(long, value_delimiter = ',', value_name = "V,…", value_parser = crate::args::u32_arg)]
    pub sum: Vec<u32>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ObjectiveArg {
    /// Reach F.
    Reach,
    /// Stay in F.
    Safety,
    /// Visit F infinitely often.
    Buchi,
    /// Eventually stay in F.
    Cobuchi,
    /// Max-even parity (PGSolver's convention).
    Parity,
    /// Token game: who cannot move loses, endless play draws.
    Token,
}

fn parse_algorithm(text: &str) -> Result<ParityAlgorithm, String> {
    text.parse().map_err(|e: UnknownAlgorithm| e.to_string())
}

fn parse_format(text: &str) -> Result<Format, String> {
    text.parse().map_err(|e: g::UnknownFormat| e.to_string())
}

/// Reads a file (`-`: standard input) as text, gunzipping it if its name ends in `.gz` or it
/// starts with the gzip magic number; never reads or inflates more than `--max-input`.
fn read(path: &Path, input: InputArgs) -> Result<String> {
    let limit = input.max_input.saturating_mul(1 << 20);
    let too_large = || {
        anyhow!(
            "too large: {} holds more than the limit of {} (once gunzipped); raise it with \
             --max-input MIB",
            path.display(),
            grundy::human_bytes(limit)
        )
    };
    let mut bytes = Vec::new();
    let cap = limit.saturating_add(1);
    let got = if path == Path::new("-") {
        std::io::stdin().lock().take(cap).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(cap).read_to_end(&mut bytes))
    };
    got.map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    let gzip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
        || grundy_io::is_gzip(&bytes);
    grundy_io::decode_text_limited(bytes, gzip, path, limit).map_err(|e| match e {
        grundy_io::ReadError::TooLarge { .. } => too_large(),
        other => anyhow!("{other}"),
    })
}

fn load(path: &Path, format: Option<Format>, input: InputArgs) -> Result<(Format, Arena)> {
    let text = read(path, input)?;
    let format = format.unwrap_or_else(|| g::detect(&text));
    let arena = g::parse(&text, format).map_err(|e| {
        anyhow!(
            "{}:{}:{}: {} (read as {format})",
            path.display(),
            e.line,
            e.column,
            e.kind
        )
    })?;
    Ok((format, arena))
}

pub fn run(args: GraphArgs, control: &Control<'_>) -> Result<i32> {
    if let Some(GraphAction::Verify {
        game,
        solution,
        format,
        input,
    }) = args.action
    {
        return verify(&game, &solution, format, input);
    }
    let a = args.solve;
    let Some(path) = a.file.as_deref() else {
        bail!("give a game file: grundy graph FILE (or grundy graph verify GAME SOLUTION)");
    };
    let (format, arena) = load(path, a.format, a.input)?;
    let objective = a.objective.unwrap_or(match format {
        Format::Poi => ObjectiveArg::Buchi,
        Format::Digraph => ObjectiveArg::Token,
        Format::PgSolver => ObjectiveArg::Parity,
    });
    if objective == ObjectiveArg::Token {
        return token_game(&arena, &a, control);
    }
    if format == Format::Digraph {
        bail!("a plain digraph has no owners or colours: only --objective token applies");
    }
    if !a.sum.is_empty() {
        bail!("--sum is for token games (--objective token)");
    }
    if objective == ObjectiveArg::Parity {
        let solution = parity::solve_parity(&arena, a.algorithm, control)?;
        print_solution(&arena, format, &solution, a.strategy, a.json)?;
        return Ok(0);
    }
    let accepting: Vec<bool> = arena
        .priorities()
        .iter()
        .map(|p| {
            if a.accepting.is_empty() {
                p % 2 == 0
            } else {
                a.accepting.contains(p)
            }
        })
        .collect();
    let objective = match objective {
        ObjectiveArg::Reach => Objective::Reachability,
        ObjectiveArg::Safety => Objective::Safety,
        ObjectiveArg::Buchi => Objective::Buchi,
        ObjectiveArg::Cobuchi => Objective::CoBuchi,
        ObjectiveArg::Token | ObjectiveArg::Parity => unreachable!("handled above"),
    };
    let solution = objectives::solve(&arena, objective, &accepting, control)?;
    print_solution(&arena, format, &solution, a.strategy, a.json)?;
    Ok(0)
}

fn print_solution(
    arena: &Arena,
    format: Format,
    solution: &Solution,
    strategy: bool,
    json: bool,
) -> Result<()> {
    let ids = |p: u8| -> Vec<u64> {
        solution
            .won_by(p)
            .into_iter()
            .map(|v| arena.file_id(v))
            .collect()
    };
    let chosen: Vec<Option<u32>> = arena
        .vertices()
        .map(|v| {
            solution.strategy[v as usize].filter(|_| arena.owner(v) == solution.winner[v as usize])
        })
        .collect();
    if json {
        let mut o = json!({"won_by_0": ids(0), "won_by_1": ids(1)});
        if strategy {
            o["strategy"] = chosen
                .iter()
                .enumerate()
                .filter_map(|(v, s)| s.map(|w| json!([arena.file_id(v as u32), arena.file_id(w)])))
                .collect();
        }
        outln!("{o}");
        return Ok(());
    }
    let none = vec![None; arena.len()];
    let shown = if strategy { &chosen } else { &none };
    match format {
        Format::Poi if strategy => {
            out!("{}", g::write_poi_solution(arena, &solution.winner, shown))
        }
        Format::Poi => out!("{}", g::write_poi_answer(&solution.winner)),
        _ => out!(
            "{}",
            g::write_pgsolver_solution(arena, &solution.winner, shown)?
        ),
    }
    Ok(())
}

fn token_game(arena: &Arena, a: &SolveArgs, control: &Control<'_>) -> Result<i32> {
    let succ = arena.successor_csr();
    let reverse = arena.reverse();
    let labels = token::outcomes(succ, reverse, control)?;
    let gamma = token::generalized_grundy(succ, reverse, control)?;
    let dense: Vec<u32> = a
        .sum
        .iter()
        .map(|&v| {
            arena
                .dense_id(u64::from(v))
                .ok_or_else(|| anyhow!("--sum: no vertex {v}"))
        })
        .collect::<Result<_>>()?;
    let total = (!dense.is_empty()).then(|| {
        token::sum(
            &dense
                .iter()
                .map(|&v| gamma[v as usize].clone())
                .collect::<Vec<Loopy>>(),
        )
    });
    if a.json {
        let mut o = json!({
            "outcome": arena.vertices().map(|v| labels.value(v).outcome().as_str()).collect::<Vec<_>>(),
            "remoteness": arena.vertices().map(|v| labels.value(v).remoteness()).collect::<Vec<_>>(),
            "grundy": gamma.iter().map(loopy_json).collect::<Vec<_>>(),
        });
        if let Some(t) = &total {
            o["sum"] = json!({"vertices": a.sum, "grundy": loopy_json(t), "outcome": t.outcome().as_str()});
        }
        outln!("{o}");
        return Ok(0);
    }
    outln!("vertex outcome remoteness grundy");
    for v in arena.vertices() {
        let value = labels.value(v);
        let rem = value
            .remoteness()
            .map_or("-".to_string(), |r| r.to_string());
        outln!(
            "{} {} {} {}",
            arena.file_id(v),
            value.outcome(),
            rem,
            gamma[v as usize]
        );
    }
    if let Some(t) = total {
        let list: Vec<String> = a.sum.iter().map(ToString::to_string).collect();
        outln!(
            "sum of tokens on {}: value {t}, a {} for the player to move",
            list.join(", "),
            t.outcome()
        );
    }
    Ok(0)
}

fn loopy_json(v: &Loopy) -> Json {
    match v {
        Loopy::Finite(g) => json!(g),
        Loopy::Infinite(_) => json!(v.to_string()),
    }
}

fn verify(game: &Path, solution: &Path, format: Option<Format>, input: InputArgs) -> Result<i32> {
    let (format, arena) = load(game, format, input)?;
    let text = read(solution, input)?;
    let result = match format {
        Format::Poi => {
            let (winner, strategy) = g::parse_poi_solution(&text, &arena).map_err(|e| {
                anyhow!("{}:{}:{}: {}", solution.display(), e.line, e.column, e.kind)
            })?;
            g::verify_buchi(&arena, &winner, &strategy)
        }
        Format::PgSolver => {
            let claimed = g::parse_pgsolver_solution(&text, &arena).map_err(|e| {
                anyhow!("{}:{}:{}: {}", solution.display(), e.line, e.column, e.kind)
            })?;
            g::verify_pg_solution(&arena, &claimed)
        }
        Format::Digraph => bail!("token games on digraphs have no solution file to verify"),
    };
    match result {
        Ok(()) => {
            outln!(
                "ok: the claimed regions and strategies are a correct solution ({})",
                grundy::number::count(arena.len() as u128, "vertex", "vertices")
            );
            Ok(0)
        }
        Err(e) => {
            outln!("rejected: {e}");
            Ok(1)
        }
    }
}
