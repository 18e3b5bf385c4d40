//! `grundy graph`: games on graphs read from files — the POI green game, PGSolver parity
//! games, token games on plain digraphs — and `grundy graph verify`.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use clap::builder::PossibleValue;
use clap::{Args, Subcommand, ValueEnum};
use grundy::explore::Control;
use grundy::graph::answer::{self, Answer, AnswerError, Goal, QuestionError, Regions, TokenValues};
use grundy::graph::objectives::Solution;
use grundy::graph::parity::{ParityAlgorithm, UnknownAlgorithm};
use grundy::graph::{self as g, Arena, Format};

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
        /// Print JSON: `{"valid": true|false, "vertices": N, "reason"?: why it is rejected}`.
        #[arg(long)]
        json: bool,
    },
}

// How much text a game or solution file may hold.
// (Not a doc comment: see `Command`'s `defer`.)
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
    /// What player 0 (Ann) wants (default by format: the help says which).
    #[arg(long, value_enum, help = objective_help())]
    pub objective: Option<GoalArg>,
    /// The priorities of the set F for reach / safety / buchi / cobuchi (default: the
    /// even ones; in a POI file, green).
    #[arg(long, value_delimiter = ',', value_name = "P,…", value_parser = crate::args::u32_arg)]
    pub accepting: Vec<u32>,
    /// Also print a positional winning strategy for each player on its region.
    #[arg(long)]
    pub strategy: bool,
    /// The parity algorithm: tangle (tangle learning), zielonka, fpj (fixpoint iteration
    /// with justifications).
    #[arg(long, value_parser = parse_algorithm, default_value_t = ParityAlgorithm::default())]
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

/// A goal as the command line names it: the library's names and words.
#[derive(Clone, Copy)]
pub struct GoalArg(pub Goal);

const GOALS: [GoalArg; Goal::ALL.len()] = {
    let mut out = [GoalArg(Goal::Token); Goal::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = GoalArg(Goal::ALL[i]);
        i += 1;
    }
    out
};

impl ValueEnum for GoalArg {
    fn value_variants<'a>() -> &'a [Self] {
        &GOALS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.about()))
    }
}

/// `--objective`'s help, with each format's default goal.
fn objective_help() -> String {
    let defaults: Vec<String> = Format::ALL
        .iter()
        .map(|&f| format!("{} for {f} files", Goal::of_format(f)))
        .collect();
    format!(
        "What player 0 (Ann) wants. Default: {}",
        defaults.join(", ")
    )
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
    let got = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        grundy_io::decode_text_limited(bytes, false, path, limit)
    } else {
        grundy_io::read_text_limited(path, limit)
    };
    got.map_err(|e| match e {
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
        json,
    }) = args.action
    {
        return verify(&game, &solution, format, input, json);
    }
    let a = args.solve;
    let Some(path) = a.file.as_deref() else {
        bail!("give a game file: grundy graph FILE (or grundy graph verify GAME SOLUTION)");
    };
    let (format, arena) = load(path, a.format, a.input)?;
    let goal = a.objective.map_or_else(|| Goal::of_format(format), |g| g.0);
    let options = answer::Options {
        accepting: a.accepting.clone(),
        algorithm: a.algorithm,
        sum: a.sum.iter().map(|&v| g::FileId(u64::from(v))).collect(),
    };
    match answer::solve(&arena, format, goal, &options, control) {
        Ok(Answer::Token(values)) => print_token_values(&arena, &values, a.json),
        Ok(Answer::Regions(solution)) => {
            print_solution(&arena, format, &solution, a.strategy, a.json)?;
            Ok(0)
        }
        Err(AnswerError::Question(QuestionError::NoOwners)) => bail!(
            "a plain digraph has no owners or colours: only --objective {} applies",
            Goal::Token
        ),
        Err(AnswerError::Question(QuestionError::SumWithoutTokens)) => {
            bail!("--sum is for token games (--objective {})", Goal::Token)
        }
        Err(AnswerError::Solve(grundy::Error::Unsupported(why))) if goal == Goal::Token => {
            bail!("--sum: {why}")
        }
        Err(AnswerError::Solve(e)) => Err(e.into()),
    }
}

fn print_solution(
    arena: &Arena,
    format: Format,
    solution: &Solution,
    strategy: bool,
    json: bool,
) -> Result<()> {
    if json {
        outln!(
            "{}",
            serde_json::to_value(Regions::new(arena, solution, strategy))?
        );
        return Ok(());
    }
    match format {
        Format::Poi if strategy => {
            let chosen = answer::winners_moves(arena, solution);
            out!(
                "{}",
                g::write_poi_solution(arena, &solution.winner, &chosen)
            )
        }
        Format::Poi => out!("{}", g::write_poi_answer(&solution.winner)),
        // Written a piece at a time, never held whole; the writer keeps only the winners'
        // moves.
        _ => g::write_pgsolver_solution_to(
            &mut std::io::stdout().lock(),
            arena,
            &solution.winner,
            strategy.then_some(&solution.strategy[..]),
        )?,
    }
    Ok(())
}

fn print_token_values(arena: &Arena, values: &TokenValues, json: bool) -> Result<i32> {
    if json {
        outln!("{}", serde_json::to_value(values)?);
        return Ok(0);
    }
    outln!("vertex outcome remoteness grundy");
    for v in arena.vertices() {
        let rem = values.remoteness[v as usize].map_or("-".to_string(), |r| r.to_string());
        outln!(
            "{} {} {} {}",
            arena.file_id(v),
            values.outcome[v as usize],
            rem,
            values.grundy[v as usize]
        );
    }
    if let Some(t) = &values.sum {
        let list: Vec<String> = t.vertices.iter().map(ToString::to_string).collect();
        outln!(
            "sum of tokens on {}: value {}, a {} for the player to move",
            list.join(", "),
            t.grundy,
            t.outcome
        );
    }
    Ok(0)
}

fn verify(
    game: &Path,
    solution: &Path,
    format: Option<Format>,
    input: InputArgs,
    json: bool,
) -> Result<i32> {
    let (format, arena) = load(game, format, input)?;
    let text = read(solution, input)?;
    let result = answer::verify_solution(&arena, format, &text).map_err(|e| match e {
        answer::SolutionError::Parse(e) => {
            anyhow!("{}:{}:{}: {}", solution.display(), e.line, e.column, e.kind)
        }
        other => anyhow!("{other}"),
    })?;
    if json {
        let mut out = serde_json::json!({
            "valid": result.is_ok(),
            "vertices": arena.len(),
        });
        if let Err(e) = &result {
            out["reason"] = e.to_string().into();
        }
        outln!("{out}");
        return Ok(i32::from(result.is_err()));
    }
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
