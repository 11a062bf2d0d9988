//! `varsand tune FILE`: learn the evaluation's weights from games; its arguments, the
//! run, and the report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::analyze::GameConfig;
use crate::check::Overrides;
use crate::engine::Position;
use crate::pgn::GameResult;
use crate::rules::Rules;
use crate::search::learned::{self, Header, values_path};
use crate::search::network::{
    HEADING as NET_HEADING, MAX_BOUND, MAX_HIDDEN, Network, Perspective, WORDS as NET_WORDS,
};
use crate::search::{Eval, Limits};
use crate::tune::net::NetOptions;
use crate::tune::teacher::Teacher;
use crate::tune::{Game, Layout, RoyalTerms, SelfPlay, Tuned};

/// The most self-play games of one run.
const MAX_GAMES: u64 = 1_000_000;
/// The most random opening plies.
const MAX_OPENING_PLIES: u64 = 1000;
/// The longest self-play game before it is called a draw.
const MAX_PLIES: u64 = 100_000;
/// The largest node limit per self-play move.
const MAX_NODES: u64 = 1_000_000_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// The rule file; the weights go beside it, as GAME.values.
    file: PathBuf,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Search depth per self-play move.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    depth: u64,
    /// Also stop each self-play move's search after this many nodes (whichever of
    /// this and --depth comes first): where positions have thousands of moves, a
    /// depth costs hours of self-play, a node limit bounds it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// Random plies at the start of each game (among the sound moves), so games differ.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=MAX_OPENING_PLIES))]
    opening_plies: u64,
    /// Games still going after this many plies are draws.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=MAX_PLIES))]
    max_plies: u64,
    /// The seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for self-play; 0 for every core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Learn from the games of these PGN files instead of self-play.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Where to write the weights (default: GAME.values beside GAME.var).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Print the report only; write no file.
    #[arg(long)]
    dry_run: bool,
    /// Label the positions with this UCI engine's scores instead of the games' results
    /// (its command line, e.g. "fairy-stockfish").
    #[arg(long, value_name = "COMMAND")]
    teacher: Option<String>,
    /// The teacher's search per position (the words after `go`).
    #[arg(long, value_name = "LIMITS", default_value = "nodes 2000")]
    teacher_go: String,
    /// The teacher's UCI_Variant (default: the game's name, as `match` finds it).
    #[arg(long, value_name = "NAME")]
    teacher_variant: Option<String>,
    /// Fit a bonus per piece kind and distance to each side's royal piece (where each
    /// side has one).
    #[arg(long)]
    royal_distances: bool,
    /// Fit a bonus per piece kind and square within two steps of its own royal piece,
    /// and another around the enemy's (where each side has one): shelter and attack.
    #[arg(long)]
    around_royals: bool,
    /// Fit a constant for having the move (the side to move's edge, which the search
    /// adds to every evaluation: in games with drops the initiative is worth much).
    #[arg(long)]
    tempo: bool,
    /// Fit how much of the threats count (the largest against the opponent, the
    /// largest and second largest against the side to move: pieces that stand to be
    /// lost), in sixteenths, instead of the search's defaults.
    #[arg(long)]
    threats: bool,
    /// Keep the teacher's labels in this file: read them from it when it exists
    /// (the same games, the same teacher), else write them there, so that fits of
    /// other layouts reuse one labelling.
    #[arg(long, value_name = "FILE", requires = "teacher")]
    labels: Option<PathBuf>,
    /// Instead of the linear weights, learn a network of this many hidden units as a
    /// correction of the evaluation in the values file (which it keeps, adding the
    /// network at its end): fit the values first, then the network on top of them.
    #[arg(long, value_name = "HIDDEN", value_parser = clap::value_parser!(u64).range(1..=MAX_HIDDEN as u64))]
    network: Option<u64>,
    /// The most the network may add to or take from the evaluation, in centipawns
    /// (its output is squashed smoothly into this range).
    #[arg(long, default_value_t = 150.0, requires = "network", value_parser = parse_bound)]
    network_bound: f32,
    /// The most passes over the positions while learning the network.
    #[arg(long, default_value_t = 40, requires = "network", value_parser = clap::value_parser!(u64).range(1..=1000))]
    epochs: u64,
}

/// `varsand tune`: plays or reads the games, fits, writes the file, prints the report.
pub fn run(args: Args) -> ExitCode {
    match tune(&args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprint!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn tune(args: &Args) -> Result<String, String> {
    let (rules, hash) = crate::session::load_hashed(&args.file, &Overrides::new(), false)?;
    let games = if args.pgn.is_empty() {
        play(&rules, args)
    } else {
        read_pgn(&rules, &args.pgn)?
    };
    let royal = RoyalTerms {
        distances: args.royal_distances,
        around: args.around_royals,
    };
    let layout = Layout::with_royal_terms(&rules, args.teacher.is_some(), royal)
        .with_tempo(args.tempo)
        .with_threats(&rules, args.threats);
    let mut samples = crate::tune::samples(&layout, &games);
    if let Some(command) = &args.teacher {
        samples = match &args.labels {
            Some(path) if path.exists() => read_labels(path, games.len(), samples)?,
            _ => teach(&rules, args, command, &games, samples)?,
        };
        if let Some(path) = args.labels.as_ref().filter(|p| !p.exists()) {
            write_labels(path, games.len(), &samples)?;
        }
    }
    if samples.is_empty() {
        return Err("error: the games have no quiet positions to learn from\n".into());
    }
    if let Some(hidden) = args.network {
        return tune_network(&rules, args, (&games, &samples), hidden as usize);
    }
    eprintln!(
        "fitting {} weights to {} positions of {} games{}",
        layout.len(),
        samples.len(),
        games.len(),
        if layout.mirrored {
            " (squares tied left to right)"
        } else {
            ""
        }
    );
    let mut step = |i: usize, loss: f64| eprintln!("  step {i}: mean loss {loss:.5}");
    let taught = args.teacher.is_some();
    let tuned = crate::tune::tune(&rules, &layout, &samples, (games.len(), taught), &mut step);
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| values_path(&args.file));
    let mut report = report(&rules, &tuned);
    if !args.dry_run {
        let header = Header {
            rules: file_name(&args.file),
            hash,
        };
        let notes: Vec<String> = tuned
            .value_se
            .iter()
            .map(|se| se.map(|s| format!("± {s:.0}")).unwrap_or_default())
            .collect();
        let text = tuned.learned.to_text(&rules, &header, &notes);
        crate::pgn::write_atomically(&out, text.as_bytes()).map_err(|e| e + "\n")?;
        report += &format!("wrote {}\n", out.display());
    }
    Ok(report)
}

/// `--network`: learns the network on top of the values file's evaluation and writes
/// the file again with the network at its end (its other lines as they were).
fn tune_network(
    rules: &Arc<Rules>,
    args: &Args,
    (games, samples): (&[Game], &[crate::tune::Sample]),
    hidden: usize,
) -> Result<String, String> {
    let path = args
        .output
        .clone()
        .unwrap_or_else(|| values_path(&args.file));
    let (learned, warning) = crate::search::learned::load_file(rules, &args.file, &path, true);
    let Some(mut learned) = learned else {
        let why = warning.unwrap_or_default();
        return Err(format!(
            "error: the network corrects the evaluation of a values file, and {} gives none ({why}): fit the values first with `varsand tune {}`\n",
            path.display(),
            args.file.display()
        ));
    };
    learned.network = None;
    let eval = Arc::new(crate::search::Eval::with_learned(rules, &learned));
    let searcher = crate::search::Searcher::with_eval(rules.clone(), eval, 1);
    let shape = Network::zeros(rules, Perspective::of(rules), hidden, args.network_bound);
    let net_samples = crate::tune::net::net_samples(&shape, &searcher, games, samples);
    eprintln!(
        "learning a network of {hidden} hidden units ({} weights) from {} positions",
        shape.w1.len() + 2 * hidden + 1,
        net_samples.len()
    );
    let opts = NetOptions {
        hidden,
        bound: args.network_bound,
        max_epochs: args.epochs as usize,
        seed: args.seed,
    };
    let mut epoch = |i: usize, train: f64, held: f64| {
        eprintln!("  epoch {i}: mean loss {train:.5}, held out {held:.5}");
    };
    let (net, r) = crate::tune::net::train(rules, &net_samples, &opts, &mut epoch);
    let mut report = format!(
        "network: {hidden} hidden units, {} epochs; held-out log loss {:.5} with the values alone, {:.5} with the network ({} positions held out, {} learned from; K = {:.6})\n",
        r.epochs, r.held_out_before, r.held_out_after, r.held_out_positions, r.train_positions, r.k
    );
    if !args.dry_run {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))?;
        let text = without_network(&text) + &net.to_text(rules);
        crate::pgn::write_atomically(&path, text.as_bytes()).map_err(|e| e + "\n")?;
        report += &format!("wrote {}\n", path.display());
    }
    Ok(report)
}

/// `--network-bound`: 1 to [`MAX_BOUND`] centipawns.
fn parse_bound(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|b| (1.0..=MAX_BOUND).contains(b))
        .ok_or_else(|| format!("`{text}`: the bound is 1 to {MAX_BOUND} centipawns"))
}

/// A values file's text up to its network (which the file keeps last).
fn without_network(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let word = line.split_whitespace().next().unwrap_or("");
        if line.starts_with(NET_HEADING) || NET_WORDS.contains(&word) {
            break;
        }
        out += line;
        out += "\n";
    }
    out
}

/// The first line of a labels file.
const LABELS_MAGIC: &str = "varsand-labels 1";

/// Writes the teacher's labels: how many games, then one `game ply label` line per
/// position.
fn write_labels(path: &Path, games: usize, samples: &[crate::tune::Sample]) -> Result<(), String> {
    let mut text = format!("{LABELS_MAGIC}\ngames {games}\n");
    for s in samples {
        text += &format!("{} {} {}\n", s.game, s.ply, s.result);
    }
    crate::pgn::write_atomically(path, text.as_bytes()).map_err(|e| e + "\n")
}

/// The samples labelled from a labels file; the positions it lacks are dropped (the
/// teacher gave them no score). A file of another number of games, or that labels
/// none of these positions, is an error.
fn read_labels(
    path: &Path,
    games: usize,
    samples: Vec<crate::tune::Sample>,
) -> Result<Vec<crate::tune::Sample>, String> {
    let bad = |what: &str| format!("error: {}: {what}\n", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| bad(&e.to_string()))?;
    let mut lines = text.lines();
    if lines.next() != Some(LABELS_MAGIC) {
        return Err(bad(&format!("the first line is not `{LABELS_MAGIC}`")));
    }
    let count = format!("games {games}");
    if lines.next() != Some(count.as_str()) {
        return Err(bad(&format!(
            "labels other games (not `{count}`): remove it to label these"
        )));
    }
    let mut labels = std::collections::HashMap::new();
    for (i, line) in lines.enumerate() {
        let parsed = (|| {
            let mut w = line.split_whitespace();
            let game: u32 = w.next()?.parse().ok()?;
            let ply: u32 = w.next()?.parse().ok()?;
            let label: f64 = w.next()?.parse().ok().filter(|p| (0.0..=1.0).contains(p))?;
            Some(((game, ply), label))
        })();
        let (key, label) =
            parsed.ok_or_else(|| bad(&format!("line {}: not `game ply label`", i + 3)))?;
        labels.insert(key, label);
    }
    let labelled: Vec<_> = samples
        .into_iter()
        .filter_map(|mut s| {
            s.result = *labels.get(&(s.game, s.ply))?;
            Some(s)
        })
        .collect();
    if labelled.is_empty() {
        return Err(bad("it labels none of these games' positions"));
    }
    Ok(labelled)
}

/// The rule file's name without its folder.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// The samples labelled by the teacher's scores, with a progress bar on a terminal.
fn teach(
    rules: &Arc<Rules>,
    args: &Args,
    command: &str,
    games: &[Game],
    samples: Vec<crate::tune::Sample>,
) -> Result<Vec<crate::tune::Sample>, String> {
    let argv =
        crate::matches::command::split(command).map_err(|e| format!("error: --teacher: {e}\n"))?;
    if argv.is_empty() {
        return Err("error: --teacher: an empty command\n".into());
    }
    if args.teacher_go.split_whitespace().next().is_none() {
        return Err("error: --teacher-go: no limits (e.g. \"nodes 2000\")\n".into());
    }
    let teacher = Teacher {
        argv,
        go: args.teacher_go.clone(),
        variant: args.teacher_variant.clone(),
        threads: threads(args),
    };
    eprintln!(
        "the teacher scores {} positions (go {})",
        samples.len(),
        teacher.go
    );
    let bar = progress(games.len() as u64, "teacher");
    let labelled = crate::tune::teacher::label(rules, games, samples, &teacher, &|| bar.inc(1))
        .map_err(|e| format!("error: {e}\n"));
    bar.finish_and_clear();
    labelled
}

/// The threads asked for, or every core.
fn threads(args: &Args) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if args.threads == 0 {
        cores
    } else {
        args.threads.min(4 * cores)
    }
}

/// A progress bar of `len` games on a terminal (hidden elsewhere).
fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what} {{bar:40}} {{pos}}/{{len}} games, {{elapsed}} elapsed, {{eta}} left"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The self-play games, with a progress bar on a terminal.
fn play(rules: &Arc<Rules>, args: &Args) -> Vec<Game> {
    let opts = SelfPlay {
        games: args.games as usize,
        limits: Limits {
            depth: Some(args.depth as u32),
            movetime: None,
            nodes: args.nodes,
        },
        seed: args.seed,
        threads: threads(args),
        config: GameConfig {
            max_plies: args.max_plies as usize,
            opening_plies: args.opening_plies as usize,
            ..GameConfig::default()
        },
    };
    let bar = progress(args.games, "self-play");
    let eval = Arc::new(Eval::new(rules));
    let games = crate::tune::self_play(rules, &eval, &opts, &|| bar.inc(1));
    bar.finish_and_clear();
    games
}

/// The finished games of PGN files, from their start positions.
fn read_pgn(rules: &Arc<Rules>, files: &[PathBuf]) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for file in files {
        let text = crate::session::read_text(file).map_err(|e| format!("error: {e}\n"))?;
        let read = crate::pgn::read_games(&text)
            .map_err(|e| format!("error: {}: {e}\n", file.display()))?;
        for g in read {
            if g.result == GameResult::Unfinished {
                continue;
            }
            let start = match g.tag("FEN") {
                Some(fen) => Position::from_fen(rules.clone(), fen)
                    .map_err(|e| format!("error: {}: bad FEN tag: {e}\n", file.display()))?,
                None => Position::start(rules.clone()),
            };
            games.push(Game {
                start,
                moves: g.moves.clone(),
                winner: g.result.winner(),
            });
        }
    }
    if games.is_empty() {
        return Err("error: the PGN files hold no finished game\n".into());
    }
    Ok(games)
}

/// The report: the fit, then the values with their uncertainty.
fn report(rules: &Rules, t: &Tuned) -> String {
    let eval = Eval::new(rules);
    let mut out = format!(
        "{}: {} positions of {} games; K = {:.5} per centipawn; mean log loss {:.4} → {:.4}\n",
        rules.name(),
        t.positions,
        t.games,
        t.k,
        t.loss_before,
        t.loss_after
    );
    let names: Vec<String> = (0..rules.pieces.len())
        .map(|k| format!("{} ({})", rules.pieces[k].name, learned::symbol(rules, k)))
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(5);
    out += &format!(
        "  {:<width$} {:>8} {:>14} {:>14}\n",
        "piece", "rules'", "learned", "in hand"
    );
    for (k, name) in names.iter().enumerate() {
        let with_se = |v: i32, se: Option<f64>| match se {
            Some(s) => format!("{v} ± {s:.0}"),
            None => format!("{v} (prior)"),
        };
        let hand = match t.hand_se[k] {
            Some(se) => with_se(t.learned.hand[k], Some(se)),
            None => "-".into(),
        };
        out += &format!(
            "  {:<width$} {:>8} {:>14} {:>14}\n",
            name,
            eval.values[k],
            with_se(t.learned.values[k], t.value_se[k]),
            hand
        );
    }
    out += &match t.mobility_unbounded {
        Some(w) => format!(
            "  mobility: 0 per move, held (the fit wanted {w:.1}: fewer moves better, which plays badly; rules': {})\n",
            crate::search::eval::MOBILITY
        ),
        None => format!(
            "  mobility: {} ± {:.1} per move (rules': {})\n",
            t.learned.mobility,
            t.mobility_se,
            crate::search::eval::MOBILITY
        ),
    };
    if let Some([them, us, second]) = t.learned.threats {
        let [d_them, d_us, d_second] = crate::search::threats::THREAT_WEIGHTS;
        out += &format!(
            "  threats, sixteenths: {them} of the largest against the opponent, {us} of the largest and {second} of the second largest against the side to move (defaults: {d_them}, {d_us}, {d_second})\n"
        );
    }
    if t.learned.tempo != 0 || t.tempo_se > 0.0 {
        out += &format!(
            "  having the move: {:+} ± {:.0}\n",
            t.learned.tempo, t.tempo_se
        );
    }
    out += &format!(
        "  the first player's edge: {:+.0} ± {:.0} (fitted, not used in play)\n",
        t.edge, t.edge_se
    );
    out += "  (± one standard error, from the fit's curvature with positions grouped by game)\n";
    out
}
