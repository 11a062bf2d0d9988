//! The `varsand` command line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand};

use varsand::check::Overrides;
use varsand::perft::Perft;
use varsand::repl::{MAX_MOVETIME_MS, MAX_PERFT_DEPTH};
use varsand::{Position, Rules};

/// The most games `analyze` plays in one run: a billion random games take days.
const MAX_GAMES: u64 = 1_000_000_000;
/// The most threads `analyze` runs, whatever the number of cores.
const MAX_THREADS: usize = 256;
/// The longest game `analyze` plays before calling it a draw.
const MAX_MAX_PLIES: u64 = 10_000_000;
/// The most random opening plies.
const MAX_OPENING_PLIES: u64 = 1000;

#[derive(Parser)]
#[command(
    name = "varsand",
    version,
    about = "Write a board game's rules, then check, play and analyse it"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How `check` prints problems.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
}

/// The arguments of `uci` and `xboard`.
/// `varsand analyze`'s arguments.
#[derive(clap::Args)]
struct AnalyzeArgs {
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

#[derive(clap::Args)]
struct ProtocolArgs {
    file: PathBuf,
    /// The learned weights to evaluate with: a values file, or `none` for the
    /// rules' own evaluation (default: GAME.values beside the rule file, if fresh).
    #[arg(long, value_name = "FILE|none")]
    values: Option<PathBuf>,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// The name to announce the game under (UCI_Variant, XBoard's variants); by
    /// default the game's name in lower case, words joined by `_`.
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Check rule files and report every problem (errors and warnings).
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Fail on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// How to print the problems: `human` (underlined snippets) or `json`.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Explain a diagnostic code (`varsand explain unknown-piece`): what it means, a
    /// wrong example and the fix. Without a code, list the codes.
    Explain { code: Option<String> },
    /// A language server for editors, on standard input and output.
    Lsp,
    /// Play a variant: an interactive session (type `help` inside).
    Play {
        file: PathBuf,
        /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Start from this position string instead of the setup.
        #[arg(long)]
        fen: Option<String>,
        /// Seed of the computer player's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The computer's thinking time per move, in milliseconds (`time MS` inside).
        #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
        movetime: Option<u64>,
        /// Accept positions that cannot arise in a game (for composed problems): the
        /// side not to move in check, a side without its royal piece.
        #[arg(long)]
        any_position: bool,
    },
    /// The game on a web page at http://127.0.0.1:PORT/ (printed first): click to move;
    /// the page follows the rule file as it is edited.
    Serve {
        file: PathBuf,
        /// The port to listen on, on 127.0.0.1 only; 0 for any free port.
        #[arg(long, default_value_t = varsand::serve::DEFAULT_PORT)]
        port: u16,
        /// The computer's thinking time per move, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = varsand::serve::DEFAULT_MOVETIME_MS, value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
        movetime: u64,
    },
    /// Self-play analysis: many games by the computer (or random movers), summarised.
    Analyze(AnalyzeArgs),
    /// Learn the evaluation's piece values, square bonuses and mobility weight from
    /// self-play (or PGN) games; write them beside the rules as GAME.values.
    Tune(varsand::tune::cli::TuneArgs),
    /// Draw a position as an SVG picture (standard output without -o).
    Render {
        file: PathBuf,
        /// Draw this position string instead of the setup.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first, separated by spaces (the last one is marked).
        #[arg(long)]
        moves: Option<String>,
        /// Draw from the second player's side.
        #[arg(long)]
        flip: bool,
        /// Write the picture to this file (`-` for standard output, as without it).
        #[arg(short, long, value_name = "OUT.svg")]
        output: Option<PathBuf>,
        /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
    },
    /// Play two UCI engines against each other on a rule file (varsand keeps the
    /// rules); print the score and the Elo difference.
    Match(varsand::matches::cli::MatchArgs),
    /// Be an engine for graphical interfaces over the UCI protocol (standard input and
    /// output).
    Uci(ProtocolArgs),
    /// Be an engine for WinBoard and XBoard over the XBoard protocol (version 2).
    Xboard(ProtocolArgs),
    /// Count the leaf nodes of the move tree, per first move (Stockfish's format).
    Perft {
        file: PathBuf,
        /// Plies to count (at most 64).
        #[arg(value_parser = clap::value_parser!(u64).range(0..=MAX_PERFT_DEPTH as u64))]
        depth: u64,
        /// Start from this position string instead of the setup.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first, separated by spaces.
        #[arg(long)]
        moves: Option<String>,
        /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            files,
            deny_warnings,
            format,
        } => check_files(&files, deny_warnings, format),
        Command::Explain { code } => explain(code.as_deref()),
        Command::Lsp => match varsand::lsp::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                emit_err(&format!("error: {e}\n"));
                ExitCode::FAILURE
            }
        },
        Command::Play {
            file,
            set,
            fen,
            seed,
            movetime,
            any_position,
        } => {
            let overrides = match parse_overrides(&set) {
                Ok(o) => o,
                Err(e) => {
                    emit_err(&e);
                    return ExitCode::FAILURE;
                }
            };
            match varsand::repl::run(file, overrides, seed, fen, movetime, any_position) {
                Ok(true) => ExitCode::SUCCESS,
                // A script in which a command failed (its errors are on stderr).
                Ok(false) => ExitCode::FAILURE,
                Err(e) => {
                    emit_err(&e);
                    ExitCode::FAILURE
                }
            }
        }
        Command::Serve {
            file,
            port,
            movetime,
        } => serve(file, port, movetime),
        Command::Uci(args) => engine_protocol(varsand::protocol::Protocol::Uci, &args),
        Command::Xboard(args) => engine_protocol(varsand::protocol::Protocol::Xboard, &args),
        Command::Match(args) => varsand::matches::cli::run(args),
        Command::Perft {
            file,
            depth,
            fen,
            moves,
            set,
        } => match perft(&file, depth as usize, fen, moves, &set) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                emit_err(&e);
                ExitCode::FAILURE
            }
        },
        Command::Render {
            file,
            fen,
            moves,
            flip,
            output,
            set,
        } => match parse_overrides(&set).and_then(|o| {
            varsand::render::cli::render(
                &file,
                &o,
                fen.as_deref(),
                moves.as_deref(),
                flip,
                output.as_deref(),
            )
        }) {
            Ok(svg) => {
                emit(svg.as_deref().unwrap_or(""));
                ExitCode::SUCCESS
            }
            Err(e) => {
                emit_err(&e);
                ExitCode::FAILURE
            }
        },
        Command::Analyze(args) => analyze(args),
        Command::Tune(args) => varsand::tune::cli::run(args),
    }
}

/// `varsand analyze`: self-play games, summarised.
fn analyze(args: AnalyzeArgs) -> ExitCode {
    let AnalyzeArgs {
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
    use varsand::analyze::{GameConfig, Options, SaveGames};
    use varsand::search::Limits;
    let overrides = match parse_overrides(&set) {
        Ok(o) => o,
        Err(e) => {
            emit_err(&e);
            return ExitCode::FAILURE;
        }
    };
    let rules = match load(&file, &overrides) {
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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
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
    let eval = evaluation(&rules, &file, values.as_deref());
    let report = varsand::analyze::analyze_with(&rules, eval, &opts);
    if let Some(Err(e)) = svg
        .as_deref()
        .map(|path| varsand::render::cli::write_chart(path, &report))
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

/// Reads and checks a rule file; on failure, the rendered diagnostics.
fn load(path: &Path, overrides: &Overrides) -> Result<Arc<Rules>, String> {
    let color = std::env::var_os("NO_COLOR").is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    varsand::repl::load_file(path, overrides, color)
}

/// `uci`, `xboard`: the engine protocols on standard input and output.
fn engine_protocol(protocol: varsand::protocol::Protocol, args: &ProtocolArgs) -> ExitCode {
    let file = &args.file;
    let session = parse_overrides(&args.set)
        .and_then(|o| load(file, &o))
        .and_then(|rules| {
            let name = file.display().to_string();
            let eval = evaluation(&rules, file, args.values.as_deref());
            varsand::protocol::Session::new(rules, &name, args.variant.as_deref())
                .map(|s| s.with_eval(eval))
        });
    match session {
        Ok(session) => {
            varsand::protocol::run(protocol, session);
            ExitCode::SUCCESS
        }
        Err(e) => {
            emit_err(&e);
            ExitCode::FAILURE
        }
    }
}

/// The evaluation for rules read from `file`: with the learned weights of `values`
/// (`none`: without), by default those beside the file when fresh. Warnings (a stale
/// or unreadable values file, which is then ignored) go to standard error.
fn evaluation(rules: &Rules, file: &Path, values: Option<&Path>) -> Arc<varsand::search::Eval> {
    use varsand::search::{Eval, learned};
    let eval = match values {
        Some(v) if v.as_os_str() == "none" => Eval::new(rules),
        Some(v) => {
            let (learned, warning) = learned::load_file(rules, file, v, true);
            if let Some(w) = warning {
                emit_err(&format!("{w}\n"));
            }
            learned.map_or_else(|| Eval::new(rules), |l| Eval::with_learned(rules, &l))
        }
        None => learned::eval_beside(rules, file),
    };
    Arc::new(eval)
}

/// `check`: every file's problems; fails on an error (or a warning, if denied).
fn check_files(files: &[PathBuf], deny_warnings: bool, format: Format) -> ExitCode {
    let color = std::env::var_os("NO_COLOR").is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut ok = true;
    let mut json = Vec::new();
    for f in files {
        let source = match varsand::repl::read_text(f) {
            Ok(s) => s,
            Err(e) => {
                emit_err(&format!("{e}\n"));
                ok = false;
                continue;
            }
        };
        let checked = varsand::check::check_source(&source, &Overrides::new());
        let failed =
            checked.rules.is_none() || (deny_warnings && checked.warnings().next().is_some());
        ok &= !failed;
        let name = f.display().to_string();
        match format {
            Format::Json => {
                if let serde_json::Value::Array(list) =
                    varsand::diagnostic::to_json(&checked.problems, &name, &source)
                {
                    json.extend(list);
                }
            }
            Format::Human => {
                if !checked.problems.is_empty() {
                    emit_err(&varsand::repl::render_problems(
                        &checked.problems,
                        f,
                        &source,
                        color,
                    ));
                }
                if !failed {
                    emit(&format!("ok: {name}\n"));
                }
            }
        }
    }
    if format == Format::Json {
        emit(&format!("{}\n", serde_json::Value::Array(json)));
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `explain CODE`: the error index's section, or the list of codes.
fn explain(code: Option<&str>) -> ExitCode {
    let Some(code) = code else {
        let list: Vec<String> = varsand::errors_index::codes()
            .map(|c| format!("varsand::{c}"))
            .collect();
        emit(&format!("{}\n", list.join("\n")));
        return ExitCode::SUCCESS;
    };
    match varsand::errors_index::explain(code) {
        Some(text) => {
            let code = code.trim().strip_prefix("varsand::").unwrap_or(code.trim());
            emit(&format!("varsand::{code}\n\n{text}\n"));
            ExitCode::SUCCESS
        }
        None => {
            let codes: Vec<&str> = varsand::errors_index::codes().collect();
            let hint = varsand::diagnostic::closest(code.trim_start_matches("varsand::"), codes)
                .map(|c| format!(": did you mean `{c}`?"))
                .unwrap_or_else(|| ": `varsand explain` lists the codes".into());
            emit_err(&format!("error: no diagnostic is called `{code}`{hint}\n"));
            ExitCode::FAILURE
        }
    }
}

/// `serve`: the web board, until the process is stopped.
fn serve(file: PathBuf, port: u16, movetime_ms: u64) -> ExitCode {
    let options = varsand::serve::Options {
        file,
        port,
        movetime_ms,
    };
    match varsand::serve::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            emit_err(&e);
            ExitCode::FAILURE
        }
    }
}

fn parse_overrides(set: &[String]) -> Result<Overrides, String> {
    let mut o = Overrides::new();
    for s in set {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("error: --set wants NAME=VALUE, not `{s}`\n"))?;
        let v: i64 = v
            .trim()
            .parse()
            .map_err(|_| format!("error: --set {k}: `{v}` is not a whole number\n"))?;
        o.insert(k.trim().to_string(), v);
    }
    Ok(o)
}

fn perft(
    file: &Path,
    depth: usize,
    fen: Option<String>,
    moves: Option<String>,
    set: &[String],
) -> Result<(), String> {
    let rules = load(file, &parse_overrides(set)?)?;
    let mut pos = match &fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("error: bad --fen: {e}\n"))?,
        None => Position::start(rules),
    };
    for m in moves.iter().flat_map(|m| m.split_whitespace()) {
        if pos.play(m).is_err() {
            // The reason the REPL gives for the same move.
            return Err(format!(
                "error: --moves: `{m}` is not legal: {} (position {})\n",
                pos.why_illegal(m),
                pos.fen()
            ));
        }
    }
    let start = Instant::now();
    let mut perft = Perft::new();
    let divide = perft.divide(&mut pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let mut text = String::new();
    for (m, n) in &divide {
        text += &format!("{m}: {n}\n");
    }
    text += &format!("\nNodes searched: {total}\n");
    emit(&text);
    let secs = elapsed.as_secs_f64();
    emit_err(&format!(
        "time {:.3} s, {:.0} nodes/s\n",
        secs,
        total as f64 / secs.max(1e-9)
    ));
    Ok(())
}

/// Writes to standard output. When the reader has gone (a closed pipe, as in
/// `varsand perft FILE 6 | head -1`), the program ends quietly with status 0: nobody
/// reads the rest. Any other write error ends it with status 1.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        emit_err(&format!("error: cannot write the output: {e}\n"));
        std::process::exit(1);
    }
}

/// Writes to standard error, ignoring failure (there is nowhere left to report it).
fn emit_err(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
