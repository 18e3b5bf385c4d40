//! The command line's definitions (clap): the commands, their arguments and the flags
//! they share ([`Common`]), as `--help` shows them.

use std::path::PathBuf;

use std::ffi::OsString;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use grundy::explore::Control;
use grundy::games::Family;
use grundy::report::Limits;

use crate::progress::{progress, CANCEL};
use crate::{args, graph, tablebase};

/// Which games against the engine `grundy book --lines` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The engine moving first.
    First,
    /// The engine moving second.
    Second,
    /// Either.
    Both,
}

impl From<Engine> for grundy::report::book::Sides {
    fn from(engine: Engine) -> Self {
        match engine {
            Engine::First => Self::First,
            Engine::Second => Self::Second,
            Engine::Both => Self::Both,
        }
    }
}

/// Solve two-player games of perfect information: outcomes, remoteness, winning moves,
/// Sprague–Grundy values, sums.
#[derive(Parser)]
#[command(name = "grundy", version, about, long_about = None, disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command line parsed. The long help's lists of families are asked of the library
    /// (members built, small positions valued: milliseconds), so they are written only when
    /// `--help` is on the line, not at every start.
    pub fn parse_from_args(
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Result<Cli, clap::Error> {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let mut command = Cli::command();
        if args.iter().any(|arg| arg == "--help") {
            command = with_family_lists(command);
        }
        let matches = command.try_get_matches_from(args)?;
        Cli::from_arg_matches(&matches)
    }
}

/// The commands that take a spec, each with the families it takes listed after its long
/// help.
fn with_family_lists(command: clap::Command) -> clap::Command {
    let families = families_help();
    let tabulated = tabulated_help();
    command
        .mut_subcommand("solve", |c| c.after_long_help(families.clone()))
        .mut_subcommand("play", |c| c.after_long_help(families))
        .mut_subcommand("value", |c| c.after_long_help(partizan_help()))
        .mut_subcommand("table", |c| c.after_long_help(tabulated.clone()))
        .mut_subcommand("plot", |c| c.after_long_help(tabulated))
        .mut_subcommand("pattern", |c| c.after_long_help(patterns_help()))
}

/// The subcommands. Each one's arguments are built only when it is the one run
/// (`defer`): building every subcommand's at each start took about 300 KB of a small
/// run's peak memory, a twentieth of it (a parity game of a few vertices; see the README's
/// parity memory). Deferred arguments are added after the subcommand's own help, so the
/// structs flattened into a subcommand carry no doc comment: it would replace that help.
#[derive(Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Solve a position: outcome, remoteness, every winning move, Grundy values, scores.
    ///
    /// SPEC is `family[params](position)`, parts joined by `+`: `nim(3,3,1)`,
    /// `octal[0.77](12)`, `chomp[3x4]`, `tictactoe(x.o/.x./...)`, `nim(3) + octal[0.77](12)`.
    /// `--help` lists every family.
    Solve {
        /// The position (with --positions: the game, and FILE its positions).
        spec: String,
        /// Solve each line of FILE (`-`: standard input) as a position of the game SPEC,
        /// written as inside a spec's parentheses (connect four: the columns played; any
        /// words after the first are ignored, so Pons' test sets are read as they are),
        /// with one search table kept for all: a line each, `position outcome remoteness`
        /// (`-` for none), or with --json an object a line.
        #[arg(long, value_name = "FILE")]
        positions: Option<PathBuf>,
        #[command(flatten)]
        solving: Solving,
    },
    /// The combinatorial game value of a position: its canonical form as CGSuite writes it
    /// (`±1`, `{2|-1/2}`, `^*`, `3/4`), its outcome class (L, R, P, N), mean and
    /// temperature, its atomic weight (an infinitesimal that has one) and reduced canonical
    /// form (the simplest game infinitesimally close, where not the value itself); of a sum
    /// `A + B`, each part's value and their sum. Impartial parts are the nimbers of their
    /// Grundy values; `--help` lists the partizan families.
    Value {
        /// The position: `domineering[2x3]`, `domineering[2x3] + domineering[3x2]`,
        /// `hackenbush(BBR,RG)`; with `--form`, a value, which may begin with `-` (`-3/2`).
        #[arg(allow_hyphen_values = true)]
        spec: String,
        /// Write `+-` for `±`.
        #[arg(long)]
        ascii: bool,
        /// Draw the value's thermograph into FILE (`.svg` or `.png`): the walls of Left's
        /// and Right's stops as the game cools, meeting at its temperature, the mast at its
        /// mean.
        #[arg(long, value_name = "FILE")]
        thermograph: Option<PathBuf>,
        /// SPEC is a game value in CGSuite's notation, not a position: `{2||1|0}`,
        /// `^*`, `±1` (or `+-1`), `3/4`, `*2`, sums `^ + *2 - 1/4`, parentheses `{1|0} - (^ + *)`.
        #[arg(long)]
        form: bool,
        /// Also the value cooled by T (a number above -1): `{G^L_T - T | G^R_T + T}`
        /// until the game freezes at its mean.
        #[arg(long, value_name = "T", allow_hyphen_values = true)]
        cool: Option<String>,
        /// Also the value heated by T (any game value in CGSuite's notation):
        /// `{G^L + T | G^R - T}`, numbers left alone.
        #[arg(long, value_name = "T", allow_hyphen_values = true)]
        heat: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Build a board's book: the exact search's value (with remoteness) of every position
    /// play reaches in its first tiers, kept in DIR in the tablebase format, so that
    /// `solve`, `play`, `query`, `serve` and Python, given `--tablebase DIR`, answer those
    /// positions at once. Only tier DEPTH's positions are searched (one table for all, on
    /// every thread); the earlier tiers follow from them. Tiers DIR holds are reused: a
    /// deeper book searches its new last tier only, and a stopped build resumes.
    ///
    /// With `--lines`, the book of the lines of play against the engine instead, for `play`
    /// and the web page: every position the engine is to move at (moving first or second)
    /// whose moves cost the search more than `--hard-nodes` nodes (with the build's table,
    /// or with a fresh one as play may have), with each move's value,
    /// and the positions the engine's move there leads to, each reply valued — followed
    /// move by move to tier DEPTH. What costs the search less is left to it in play.
    Book {
        /// The board, at its start: connect4[7x6], tictactoe, mnk[4,4,4], hex[4], dots[2x2].
        spec: String,
        /// The last tier (pieces placed, marks made) the book holds.
        #[arg(long, value_name = "D", value_parser = args::u32_arg)]
        depth: u32,
        /// The book's directory (checked by `grundy check DIR`).
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Worker threads, each searching one position at a time (0: every core).
        #[arg(long, value_name = "N", default_value_t = 0, value_parser = args::u32_arg)]
        threads: u32,
        /// The book of the lines of play against the engine (partial tiers), not of every
        /// position of the first tiers.
        #[arg(long)]
        lines: bool,
        /// With --lines: a position whose moves the search values in more nodes than this
        /// (with the build's table, or with a fresh one) is held, with its moves, and the
        /// lines through it followed: what play searches costs at most this many nodes.
        #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = args::u64_arg, requires = "lines")]
        hard_nodes: u64,
        /// With --lines: the games it is for, the engine moving first, second, or either.
        #[arg(long, value_name = "SIDE", value_enum, default_value_t = Engine::Both, requires = "lines")]
        engine: Engine,
        /// Most memory the book's tiers may hold, in MiB (with --lines: the positions held,
        /// 72 bytes each at most); refused up front past it.
        #[arg(long, value_name = "MIB", default_value_t = 16384, value_parser = args::u64_arg)]
        max_tier_memory: u64,
        #[command(flatten)]
        common: Common,
    },
    /// Read a board's value and every move's from a tablebase built by `solve
    /// --tablebase`, with no search (for scripts: `--json`). Refused if the tablebase does
    /// not hold the position's tiers.
    Query {
        /// The position.
        spec: String,
        /// The tablebase directory.
        #[arg(long, value_name = "DIR")]
        tablebase: PathBuf,
        /// Read the tier files of DIR too (repeatable): the directories the other processes
        /// of a distributed solve wrote (when each had its own), queried as one tablebase
        /// without copying them.
        #[arg(long, value_name = "DIR")]
        also: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Outcome and Grundy value of every heap size 0..=N of a one-heap family.
    ///
    /// `--help` lists the families with a table.
    Table {
        /// The family, without a position: `bounded-nim[3]`, `octal[0.77]`.
        family: String,
        /// The largest heap size.
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: u64,
        /// Octal and subtraction games: stream the Grundy values to FILE (grundy's
        /// chunked binary format, docs/seq-format.md) instead of printing them; the
        /// part past a proved period is written without being held in memory.
        #[arg(long, value_name = "FILE")]
        write: Option<std::path::PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Play against perfect strategy in the terminal.
    Play {
        /// The starting position.
        spec: String,
        /// Let grundy move first.
        #[arg(long)]
        engine_first: bool,
        #[command(flatten)]
        solving: Solving,
    },
    /// Games on graphs: the POI green game (Büchi), PGSolver parity games, reachability,
    /// safety, co-Büchi; token games on plain digraphs. `grundy graph verify GAME
    /// SOLUTION` checks a claimed solution.
    Graph(graph::GraphArgs),
    /// The special method: find the pattern of a family (losing positions, a rule that
    /// plays in O(log n)), check it against the general method, prove it where a
    /// theorem applies.
    ///
    /// `--help` lists the families it studies, with how far each looks by default.
    Pattern {
        /// The family.
        family: String,
        /// How far to look: the general method's check of a family that searches its own
        /// rule, the heaps a period proof may compute for a heap game (each family's
        /// default is listed below).
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: Option<u64>,
        /// Search a rule over the family's position features (heaps, a circle's size, a
        /// polygon's triangles): FAMILY is then a family with members (searched on 1..=N/2,
        /// checked to N; N defaults to 24) or a position (searched on what it reaches).
        #[arg(long)]
        features: bool,
        /// With --features and a position: also check the rule on what this position
        /// reaches (repeatable).
        #[arg(long, value_name = "SPEC")]
        check: Vec<String>,
        /// Misère play: the misère quotient (Plambeck and Siegel) of a take-and-break
        /// game (`octal[…]`, `subtraction[…]`) over the sums of heaps up to N (--up-to,
        /// required): its order, P-portion, a presentation and each heap's element.
        /// Bounded by --max-positions (states of a verification) and --max-memory.
        #[arg(long, conflicts_with = "features")]
        misere: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Draw the Grundy sequence of a one-heap family (SVG, or PNG with a system font).
    ///
    /// `--help` lists the families with a table.
    Plot {
        /// The family, without a position: `bounded-nim[3]`, `octal[0.77]`.
        family: String,
        /// The largest heap size.
        #[arg(long, value_name = "N", value_parser = args::u64_arg)]
        up_to: u64,
        /// The output file, `.svg` or `.png`.
        #[arg(short, long, value_name = "FILE")]
        output: std::path::PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// Serve the web page on 127.0.0.1: explore, play, graph games; JSON under /api/.
    Serve {
        /// The port (0: one the system picks); the address is printed when it listens.
        #[arg(long, default_value_t = 8080, value_parser = args::u16_arg)]
        port: u16,
        /// Most positions one request may explore (a larger sum is judged by Grundy values).
        #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = args::u64_arg)]
        max_positions: u64,
        /// Most memory a Grundy table, or the positions an exploration keeps, may take in
        /// one request, in MiB; when `ulimit -v` bounds the server, at most half of it
        /// shared by the requests that may compute at once.
        #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = args::u64_arg)]
        max_memory: u64,
        /// Seconds one request may compute before it is stopped and refused.
        #[arg(long, value_name = "SECONDS", default_value_t = 20, value_parser = args::u64_arg)]
        timeout: u64,
        /// Requests that may compute at once (default: one a core, at least two); another
        /// waits for one of them to end, and is refused as busy past its timeout.
        #[arg(long, value_name = "N")]
        max_running: Option<usize>,
        /// Answer a board game from the tablebase in DIR (built by `solve --tablebase`);
        /// repeat for several games.
        #[arg(long, value_name = "DIR")]
        tablebase: Vec<PathBuf>,
    },
    /// Check a file written by `table --write` (whether it is complete, and what family and
    /// heaps it holds) or a tablebase directory (every block of every tier file read and
    /// checked, each damaged file named): exit 0 if sound, 1 if not.
    Check {
        /// The file, or the tablebase's directory.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the help of grundy, or of a command (`grundy help graph verify`).
    Help {
        /// The command.
        command: Vec<String>,
    },
    /// Contest mode: an olympiad task of the seeds played as a contestant's program
    /// is run — the task's input on standard input, then one move a line against the
    /// judge: ioi1996-game, ioi2001-ioiwari, ioi2001-score, poi1999-polygon.
    Olympiad {
        /// The task.
        name: String,
        /// Print the analysis of the task's start (read from standard input) instead of
        /// playing.
        #[arg(long)]
        solve: bool,
    },
    /// A tour of the lecture notes' results, computed now.
    Tour {
        #[command(flatten)]
        common: Common,
    },
}

/// Every family of the registry with its shape, for the help of the commands that take a
/// spec: a family added to the registry is listed with no change here.
fn families_help() -> String {
    family_list("Families (the spec's `family[params](position)`):", |_| {
        Some(String::new())
    })
}

/// The families of the registry that `table` and `plot` take (a member of every size and
/// Grundy values, as `report::tabulates` says), with their shapes.
fn tabulated_help() -> String {
    family_list(
        "Families with a table (the family part of the shape):",
        |family| grundy::report::tabulates(family).then(String::new),
    )
}

/// The families of the registry that `pattern` studies (as `pattern::studies` says), each
/// with its shape and how far it looks by default.
fn patterns_help() -> String {
    family_list(
        "Families studied (the family part of the shape):",
        |family| {
            grundy::pattern::studies(family).then(|| {
                let reach = grundy::pattern::default_reach(family);
                format!("\n      --up-to {reach} by default")
            })
        },
    )
}

/// The partizan families of the registry whose positions `grundy value` values
/// (`report::value::values_entry`).
fn partizan_help() -> String {
    let mut text = String::from("Partizan families (the spec's `family[params](position)`):");
    for entry in grundy::games::registry::entries() {
        if grundy::report::value::values_entry(entry) {
            text.push_str("\n  ");
            text.push_str(entry.shape);
        }
    }
    text
}

/// `title`, then the shape of every family of the registry that `note` keeps (asked of a
/// member built from its entry, `games::samples`), each followed by what `note` adds.
fn family_list(title: &str, note: impl Fn(&dyn Family) -> Option<String>) -> String {
    let mut text = String::from(title);
    for (shape, family) in grundy::games::samples() {
        if let Some(more) = note(&*family) {
            text.push_str("\n  ");
            text.push_str(shape);
            text.push_str(&more);
        }
    }
    text
}

// How `solve` and `play` solve a position: the rules of play, the shared flags, and
// where the solved tiers are kept.
// (Not a doc comment: see `Command`'s `defer`.)
#[derive(Args)]
pub struct Solving {
    /// Misère play: the player who cannot move wins (impartial games and sums of them,
    /// explored whole: misère sums do not follow Grundy values; misère Nim by Bouton's
    /// rule at any size; take-and-break sums by their misère quotient).
    #[arg(long)]
    pub misere: bool,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub store: tablebase::StoreArgs,
}

#[derive(Args, Clone, Copy)]
pub struct Common {
    /// Print JSON instead of text: for solve, table, pattern and tour. Accepted but without
    /// effect for play, plot and table --write (they print no result to parse); serve takes
    /// no --json.
    #[arg(long)]
    pub json: bool,
    /// Most positions to explore (a larger sum is judged by Grundy values alone), or to
    /// value (`grundy value`: the regions of a board valued).
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = args::u64_arg)]
    pub max_positions: u64,
    /// Most memory a Grundy table, or the positions an exploration keeps, may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 4096, value_parser = args::u64_arg)]
    pub max_memory: u64,
    /// Most elementary steps a Grundy table may take.
    #[arg(long, value_name = "STEPS", default_value_t = 20_000_000_000, value_parser = args::u128_arg)]
    pub max_work: u128,
    /// Most heaps computed to prove a heap game's period when a heap is too large to
    /// tabulate.
    #[arg(long, value_name = "HEAPS", default_value_t = 1 << 20, value_parser = args::u64_arg)]
    pub max_proof_heaps: u64,
    /// Most positions the proof search may visit on a board too large to explore, before
    /// it gives up (0: no proof search).
    #[arg(long, value_name = "N", default_value_t = grundy::search::Options::default().max_nodes, value_parser = args::u64_arg)]
    pub max_nodes: u64,
    /// Most memory of the proof search's transposition table, in MiB (it starts small and
    /// doubles up to this).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = args::u64_arg)]
    pub search_memory: u64,
    /// Most memory of the exact search's table, in MiB (it starts at 512 KiB and doubles
    /// as the search needs, up to this).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = args::u64_arg)]
    pub search_table: u64,
    /// Most positions the exact search may visit (every thread together), on a board whose
    /// family offers it (connect four, hex, m,n,k-games, dots and boxes), before it gives
    /// up (0: no exact search).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_exact_nodes, value_parser = args::u64_arg)]
    pub max_exact_nodes: u64,
    /// The exact search proves only win, draw or loss, not how far the end is (a weak
    /// solution: faster).
    #[arg(long)]
    pub weak: bool,
}

impl Common {
    /// The library's limits these flags set, with the CLI's cancel flag and progress line.
    pub fn limits(&self) -> Limits<'static> {
        Limits {
            control: Control {
                max_positions: self.max_positions,
                cancel: Some(&CANCEL),
                progress: Some(&progress),
            },
            max_memory: self.max_memory.saturating_mul(1 << 20),
            max_work: self.max_work,
            max_proof_heaps: self.max_proof_heaps,
            tablebases: &[],
            max_search_nodes: self.max_nodes,
            search_memory: self.search_memory.saturating_mul(1 << 20),
            max_exact_nodes: self.max_exact_nodes,
            exact_table: self.search_table.saturating_mul(1 << 20),
            weak: self.weak,
            ..Limits::default()
        }
    }
}
