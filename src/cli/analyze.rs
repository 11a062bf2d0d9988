//! `varsand analyze FILE`: self-play games, summarised.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use super::{emit, emit_err};
use crate::analyze::{GameConfig, Options, SaveGames};
use crate::search::Limits;
use crate::session::{MAX_MOVETIME_MS, MAX_PERFT_DEPTH, load_file, parse_overrides, stderr_color};

/// The most games `analyze` plays in one run: a billion random games take days.
const MAX_GAMES: u64 = 1_000_000_000;
/// The most threads `analyze` runs, whatever the number of cores.
const MAX_THREADS: usize = 256;
/// The longest game `analyze` plays before calling it a draw.
const MAX_MAX_PLIES: u64 = 10_000_000;
/// The most random opening plies.
const MAX_OPENING_PLIES: u64 = 1000;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// How many games to play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Search depth per move, in plies (the default, 3, when no --movetime).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..=MAX_PERFT_DEPTH as u64))]
    depth: Option<u64>,
    /// Search time per move, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: Option<u64>,
    /// Uniformly random games, as fast as possible (playouts per second).
    #[arg(long, conflicts_with_all = ["depth", "movetime", "vs_random"])]
    random: bool,
    /// The search against a random mover, taking each colour in turn.
    #[arg(long)]
    vs_random: bool,
    /// Threads (games run in parallel); 0 for every core. At most 4 per core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The seed of the random plies; the same seed and depth give the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies at the start of each game (among the sound moves), so games differ.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(0..=MAX_OPENING_PLIES))]
    opening_plies: u64,
    /// Games still going after this many plies end as a draw ("move cap").
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_MAX_PLIES))]
    max_plies: u64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the report's charts as an SVG picture in this file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// Write every game as a PGN file in this folder (game-001.pgn, ...).
    #[arg(long, value_name = "DIR")]
    save_games: Option<PathBuf>,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// The learned weights to evaluate with: a values file, or `none` for the
    /// rules' own evaluation (default: GAME.values beside the rule file, if fresh).
    #[arg(long, value_name = "FILE|none")]
    values: Option<PathBuf>,
}

/// `varsand analyze`: self-play games, summarised.
pub fn run(args: Args) -> ExitCode {
    let Args {
        file,
        games,
        depth,
        movetime,
        random,
        vs_random,
        threads,
        seed,
        opening_plies,
        max_plies,
        json,
        svg,
        save_games,
        set,
        values,
    } = args;
    let overrides = match parse_overrides(&set) {
        Ok(o) => o,
        Err(e) => {
            emit_err(&e);
            return ExitCode::FAILURE;
        }
    };
    let rules = match load_file(&file, &overrides, stderr_color()) {
        Ok(r) => r,
        Err(e) => {
            emit_err(&e);
            return ExitCode::FAILURE;
        }
    };
    let save_games = match save_games
        .map(|dir| SaveGames::new(&dir, &file, &overrides, &rules, games as usize, seed))
        .transpose()
    {
        Ok(s) => s.map(Arc::new),
        Err(e) => {
            emit_err(&format!("error: {e}\n"));
            return ExitCode::FAILURE;
        }
    };
    let limits = (!random).then(|| Limits {
        depth: depth
            .map(|d| d as u32)
            .or(if movetime.is_none() { Some(3) } else { None }),
        movetime: movetime.map(std::time::Duration::from_millis),
        nodes: None,
    });
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let most = cores.saturating_mul(4).min(MAX_THREADS);
    let threads = match threads {
        0 => cores.min(MAX_THREADS),
        t if t > most => {
            emit_err(&format!(
                "note: --threads {t} is more than this machine can use; running {most} (4 per core, at most {MAX_THREADS})\n"
            ));
            most
        }
        t => t,
    };
    let opts = Options {
        games: games as usize,
        limits,
        threads,
        seed,
        config: GameConfig {
            max_plies: max_plies as usize,
            opening_plies: opening_plies as usize,
            save_games: save_games.clone(),
            ..GameConfig::default()
        },
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        versus_random: vs_random,
    };
    let eval = super::evaluation(&rules, &file, values.as_deref());
    let report = crate::analyze::analyze_with(&rules, eval, &opts);
    if let Some(Err(e)) = svg
        .as_deref()
        .map(|path| crate::render::write_chart(path, &report))
    {
        emit_err(&e);
        return ExitCode::FAILURE;
    }
    if json {
        emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ));
    } else {
        emit(&report.text());
    }
    if let Some(e) = save_games.and_then(|s| s.error()) {
        emit_err(&format!("error: {e}\n"));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
