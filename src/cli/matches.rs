//! `varsand match FILE --engine CMD --engine CMD`: two UCI engines play under the
//! file's rules; its arguments, checked, and the run.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::check::Overrides;
use crate::matches::{GoLimits, Options, split_command};
use crate::session::{MAX_MOVETIME_MS, MAX_PERFT_DEPTH};

/// The most games of one match: at a few games a second, a month.
const MAX_GAMES: u64 = 10_000_000;
/// The most random opening plies.
const MAX_OPENING_PLIES: u64 = 1000;
/// The longest game before adjudication.
const MAX_PLIES: u64 = 10_000_000;
/// The most nodes a move: beyond, a depth or a time says it better.
const MAX_NODES: u64 = 1_000_000_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// The rule file the games are played under (varsand keeps the rules).
    file: PathBuf,
    /// An engine's command line, split like a shell does (give it twice: engine 1,
    /// then engine 2).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// How many games (colours alternate; each opening is played twice).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Time per move in milliseconds (`go movetime`): once for both engines, or twice
    /// (engine 1, engine 2). 100 when no limit is given.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: Vec<u64>,
    /// Depth per move (`go depth`): once for both engines, or twice.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..=MAX_PERFT_DEPTH as u64))]
    depth: Vec<u64>,
    /// Nodes per move (`go nodes`): once for both engines, or twice.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Vec<u64>,
    /// The words after `go`, such as "depth 4" or "nodes 2000 movetime 500": once for
    /// both engines, or twice (engine 1, engine 2), so that each may have limits of
    /// its own kind. Instead of --movetime, --depth and --nodes.
    #[arg(long, value_name = "LIMITS", conflicts_with_all = ["movetime", "depth", "nodes"])]
    go: Vec<String>,
    /// Random legal plies before each pair of games; 0 plays every game from the setup.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=MAX_OPENING_PLIES))]
    openings_plies: u64,
    /// A game still going after this many plies is a draw (adjudication).
    #[arg(long, value_name = "P", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_PLIES))]
    max_plies: u64,
    /// The seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How long an engine may take to answer `uci` or `isready`, or `go` beyond its
    /// movetime, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    timeout: u64,
    /// The `UCI_Variant` value for engines that have the option (by default read from
    /// the game's name).
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "OUT")]
    pgn: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    set: Vec<(String, i64)>,
}

/// `varsand match`: plays the match, prints the summary; progress on standard error.
pub fn run(args: Args) -> ExitCode {
    let json = args.json;
    let opts = match options(args) {
        Ok(o) => o,
        Err(e) => {
            let _ = std::io::stderr().write_all(e.as_bytes());
            return ExitCode::FAILURE;
        }
    };
    let report = match crate::matches::run(&opts, &mut std::io::stderr()) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = if json {
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        report.text()
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // Nobody reads the summary any more: nothing to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// The match's options from the arguments; `Err`: what to print (a whole message).
fn options(args: Args) -> Result<Options, String> {
    let [a, b] = &args.engines[..] else {
        return Err(format!(
            "error: give two engines, --engine CMD --engine CMD (not {})\n",
            args.engines.len()
        ));
    };
    let argv = |cmd: &str| split_command(cmd).map_err(|e| format!("error: {e}\n"));
    let engines = [argv(a)?, argv(b)?];
    let limits = limits(&args).map_err(|e| format!("error: {e}\n"))?;
    let overrides: Overrides = args.set.iter().cloned().collect();
    let (rules, rules_hash) =
        crate::session::load_hashed(&args.file, &overrides, crate::session::stderr_color())?;
    Ok(Options {
        file: args.file,
        rules,
        rules_hash,
        overrides,
        engines,
        limits,
        games: usize::try_from(args.games).map_err(|_| "error: too many games\n")?,
        openings_plies: args.openings_plies as usize,
        max_plies: usize::try_from(args.max_plies)
            .map_err(|_| "error: --max-plies is too large\n")?,
        seed: args.seed,
        timeout: Duration::from_millis(args.timeout),
        variant: args.variant,
        pgn: args.pgn,
    })
}

/// Each engine's limits: a limit given once is both engines', given twice the first
/// engine's and then the second's. With none, 100 ms a move.
fn limits(args: &Args) -> Result<[GoLimits; 2], String> {
    if !args.go.is_empty() {
        return match &args.go[..] {
            [both] => parse_go(both).map(|l| [l.clone(), l]),
            [a, b] => Ok([parse_go(a)?, parse_go(b)?]),
            more => Err(format!(
                "--go is given {} times: give it once (both engines) or twice (engine 1, then engine 2)",
                more.len()
            )),
        };
    }
    let per_engine = |values: &[u64], name: &str| -> Result<[Option<u64>; 2], String> {
        match *values {
            [] => Ok([None, None]),
            [v] => Ok([Some(v), Some(v)]),
            [a, b] => Ok([Some(a), Some(b)]),
            _ => Err(format!(
                "--{name} is given {} times: give it once (both engines) or twice (engine 1, then engine 2)",
                values.len()
            )),
        }
    };
    let movetime = per_engine(&args.movetime, "movetime")?;
    let depth = per_engine(&args.depth, "depth")?;
    let nodes = per_engine(&args.nodes, "nodes")?;
    let mut out = [0, 1].map(|i| GoLimits {
        movetime_ms: movetime[i],
        depth: depth[i].map(|d| d as u32),
        nodes: nodes[i],
    });
    for l in &mut out {
        if *l == GoLimits::default() {
            l.movetime_ms = Some(DEFAULT_MOVETIME_MS);
        }
    }
    Ok(out)
}

/// `--go "depth 4 nodes 2000"`: pairs of a limit's name and its value, each name at
/// most once, the values in the ranges of --movetime, --depth and --nodes.
fn parse_go(text: &str) -> Result<GoLimits, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() || !words.len().is_multiple_of(2) {
        return Err(format!(
            "--go \"{text}\": write limits and their values, such as \"depth 4\" or \"movetime 100 nodes 5000\""
        ));
    }
    let mut limits = GoLimits::default();
    for pair in words.chunks(2) {
        let (name, value) = (pair[0], pair[1]);
        let (most, slot_set) = match name {
            "movetime" => (MAX_MOVETIME_MS, limits.movetime_ms.is_some()),
            "depth" => (MAX_PERFT_DEPTH as u64, limits.depth.is_some()),
            "nodes" => (MAX_NODES, limits.nodes.is_some()),
            _ => {
                return Err(format!(
                    "--go \"{text}\": `{name}` is not a limit (movetime, depth or nodes)"
                ));
            }
        };
        if slot_set {
            return Err(format!("--go \"{text}\": `{name}` is given twice"));
        }
        let n = value
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=most).contains(n))
            .ok_or_else(|| {
                format!("--go \"{text}\": {name} must be a whole number from 1 to {most}")
            })?;
        match name {
            "movetime" => limits.movetime_ms = Some(n),
            "depth" => limits.depth = Some(n as u32),
            _ => limits.nodes = Some(n),
        }
    }
    Ok(limits)
}

/// The time per move when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 100;

/// One `--set NAME=VALUE`.
fn parse_set(text: &str) -> Result<(String, i64), String> {
    let (k, v) = text
        .split_once('=')
        .ok_or_else(|| format!("write NAME=VALUE, not `{text}`"))?;
    let v = v
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{v}` is not a whole number"))?;
    Ok((k.trim().to_string(), v))
}
