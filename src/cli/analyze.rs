//! `varsand analyze FILE`: self-play games, summarised; a parameter swept over a
//! range (`--sweep`), two files or settings compared (`--against`), games played
//! until the first player's score is known to a precision (`--precision`); one
//! shard of a run (`--shard K/N`), and the shards' reports merged (`analyze merge`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use super::{emit, emit_err};
use crate::analyze::{
    GameConfig, Merged, Options, Report, SaveGames, Shard, SweepRange, SweepReport, Until, compare,
    parse_sweep,
};
use crate::check::Overrides;
use crate::search::Limits;
use crate::session::{
    MAX_MOVETIME_MS, MAX_PERFT_DEPTH, load_file, parse_overrides, read_text, stderr_color,
};

/// The most games `analyze` plays in one run: a billion random games take days.
const MAX_GAMES: u64 = 1_000_000_000;
/// The most threads `analyze` runs, whatever the number of cores.
const MAX_THREADS: usize = 256;
/// The longest game `analyze` plays before calling it a draw.
const MAX_MAX_PLIES: u64 = 10_000_000;
/// The most random opening plies.
const MAX_OPENING_PLIES: u64 = 1000;
/// The finest and the coarsest precision a run may be asked for.
const MIN_PRECISION: f64 = 0.001;
const MAX_PRECISION: f64 = 0.5;

/// A precision: a number in MIN_PRECISION..=MAX_PRECISION.
fn precision(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if (MIN_PRECISION..=MAX_PRECISION).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{text} is not in {MIN_PRECISION}..={MAX_PRECISION} (the half-width of the 95% interval on the first player's score)"
        ))
    }
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    #[arg(required = true)]
    file: Option<PathBuf>,
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
    /// Play until the 95% interval on the first player's score is narrower than this
    /// on each side (0.02: ±2 points), or the budget of games runs out.
    #[arg(long, value_name = "HALF-WIDTH", value_parser = precision)]
    precision: Option<f64>,
    /// With --precision: the most games to play.
    #[arg(long, default_value_t = 10_000, requires = "precision", value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    budget: u64,
    /// Run the analysis for each value of a parameter: NAME=FROM..TO[:STEP] (NAME may
    /// be PLAYER.NAME, one side only).
    #[arg(long, value_name = "NAME=FROM..TO[:STEP]", conflicts_with_all = ["save_games", "against", "against_set"])]
    sweep: Option<String>,
    /// Compare with another rule file: the same openings and seeds, each difference
    /// with its interval.
    #[arg(long, value_name = "B.var", conflicts_with = "save_games")]
    against: Option<PathBuf>,
    /// Compare with another setting (on top of --set), of this file or of --against.
    #[arg(
        long = "against-set",
        value_name = "NAME=VALUE",
        conflicts_with = "save_games"
    )]
    against_set: Vec<String>,
    /// Play shard K of N of the games only (K from 1), each with the seed the whole
    /// run gives it; `varsand analyze merge` adds the shards' --json reports up to
    /// the whole run's.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, conflicts_with_all = ["precision", "against", "against_set"])]
    shard: Option<Shard>,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Merge the --json reports of a run's shards (`analyze --shard K/N --json`, every
    /// K once) into the report of the whole run.
    Merge(MergeArgs),
}

#[derive(clap::Args)]
struct MergeArgs {
    /// The shards' JSON reports.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the merged report as JSON.
    #[arg(long)]
    json: bool,
}

/// `varsand analyze`: self-play games, summarised.
pub fn run(args: Args) -> ExitCode {
    let Args {
        action,
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
        precision,
        budget,
        sweep,
        against,
        against_set,
        shard,
    } = args;
    let file = match (action, file) {
        (Some(Action::Merge(m)), _) => return run_merge(&m),
        (None, Some(file)) => file,
        // clap requires the file when there is no subcommand.
        (None, None) => return ExitCode::FAILURE,
    };
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
        .map(|dir| {
            let most = if precision.is_some() { budget } else { games };
            SaveGames::new(&dir, &file, &overrides, &rules, most as usize, seed)
        })
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
    let threads = thread_count(threads);
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
    let until = precision.map(|precision| Until {
        precision,
        budget: budget as usize,
    });
    let run_one = |rules: &Arc<crate::Rules>, file: &std::path::Path| -> Report {
        let eval = super::evaluation(rules, file, values.as_deref());
        match (until, shard) {
            (Some(u), _) => crate::analyze::analyze_until(rules, eval, &opts, u),
            (None, Some(s)) => crate::analyze::analyze_shard(rules, eval, &opts, s),
            (None, None) => crate::analyze::analyze_with(rules, eval, &opts),
        }
    };
    if let Some(sweep) = sweep {
        return run_sweep(&sweep, &file, &overrides, &run_one, json, svg.as_deref());
    }
    if against.is_some() || !against_set.is_empty() {
        if svg.is_some() {
            emit_err("error: --svg draws one analysis or a sweep, not a comparison\n");
            return ExitCode::FAILURE;
        }
        let other = against.unwrap_or_else(|| file.clone());
        return run_comparison(
            (&rules, &file, &overrides),
            &other,
            &against_set,
            &run_one,
            json,
        );
    }
    let report = run_one(&rules, &file);
    if let Some(Err(e)) = svg
        .as_deref()
        .map(|path| crate::render::write_chart(path, &report))
    {
        emit_err(&e);
        return ExitCode::FAILURE;
    }
    emit_report(&report, || report.text(), json);
    if let Some(e) = save_games.and_then(|s| s.error()) {
        emit_err(&format!("error: {e}\n"));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The threads to play on: every core for 0, at most 4 per core (said when cut).
fn thread_count(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let most = cores.saturating_mul(4).min(MAX_THREADS);
    match asked {
        0 => cores.min(MAX_THREADS),
        t if t > most => {
            emit_err(&format!(
                "note: --threads {t} is more than this machine can use; running {most} (4 per core, at most {MAX_THREADS})\n"
            ));
            most
        }
        t => t,
    }
}

/// `--against` / `--against-set`: the analysis of `a` (rules, file, settings) and of
/// `other` under the same settings plus `against_set`, compared.
fn run_comparison(
    (rules, file, overrides): (&Arc<crate::Rules>, &std::path::Path, &Overrides),
    other: &std::path::Path,
    against_set: &[String],
    run_one: &dyn Fn(&Arc<crate::Rules>, &std::path::Path) -> Report,
    json: bool,
) -> ExitCode {
    let mut b_overrides = overrides.clone();
    match parse_overrides(against_set) {
        Ok(o) => b_overrides.extend(o),
        Err(e) => {
            emit_err(&e.replace("--set", "--against-set"));
            return ExitCode::FAILURE;
        }
    }
    let b_rules = match load_file(other, &b_overrides, stderr_color()) {
        Ok(r) => r,
        Err(e) => {
            emit_err(&e);
            return ExitCode::FAILURE;
        }
    };
    let a = run_one(rules, file);
    let b = run_one(&b_rules, other);
    let c = compare(&label(file, overrides), &a, &label(other, &b_overrides), &b);
    emit_report(&c, || c.text(), json);
    ExitCode::SUCCESS
}

/// A report as pretty JSON or as its `text`.
fn emit_report(report: &impl serde::Serialize, text: impl FnOnce() -> String, json: bool) {
    if json {
        emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(report).unwrap_or_default()
        ));
    } else {
        emit(&text());
    }
}

/// A file and its settings, as a comparison names them.
fn label(file: &std::path::Path, overrides: &Overrides) -> String {
    let mut s = file.display().to_string();
    for (k, v) in overrides {
        s += &format!(" --set {k}={v}");
    }
    s
}

/// `--sweep NAME=FROM..TO[:STEP]`: one analysis per value, the same seeds for each.
fn run_sweep(
    sweep: &str,
    file: &std::path::Path,
    overrides: &Overrides,
    run_one: &dyn Fn(&Arc<crate::Rules>, &std::path::Path) -> Report,
    json: bool,
    svg: Option<&std::path::Path>,
) -> ExitCode {
    let range: SweepRange = match parse_sweep(sweep) {
        Ok(r) => r,
        Err(e) => {
            emit_err(&e);
            return ExitCode::FAILURE;
        }
    };
    // Every value is checked (range, name) before any game is played.
    let mut all = Vec::new();
    for value in range.values() {
        let mut o = overrides.clone();
        o.insert(range.name.clone(), value);
        match load_file(file, &o, stderr_color()) {
            Ok(r) => all.push((value, r)),
            Err(e) => {
                emit_err(&format!("--sweep {}={value}:\n{e}", range.name));
                return ExitCode::FAILURE;
            }
        }
    }
    let reports: Vec<(i64, Report)> = all
        .iter()
        .map(|(value, rules)| (*value, run_one(rules, file)))
        .collect();
    let report = SweepReport::new(&range.name, &reports);
    if let Some(Err(e)) = svg.map(|path| crate::render::write_sweep_chart(path, &report)) {
        emit_err(&e);
        return ExitCode::FAILURE;
    }
    emit_report(&report, || report.text(), json);
    ExitCode::SUCCESS
}

/// `analyze merge FILES...`: the shards' reports as the whole run's.
fn run_merge(args: &MergeArgs) -> ExitCode {
    let mut texts = Vec::new();
    for path in &args.files {
        match read_text(path) {
            Ok(text) => texts.push((path.display().to_string(), text)),
            Err(e) => {
                emit_err(&format!("error: {e}\n"));
                return ExitCode::FAILURE;
            }
        }
    }
    match crate::analyze::merge(&texts) {
        Ok(Merged::Report(r)) => emit_report(&r, || r.text(), args.json),
        Ok(Merged::Sweep(s)) => emit_report(&s, || s.text(), args.json),
        Err(e) => {
            emit_err(&format!("error: {e}\n"));
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
