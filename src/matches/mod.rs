//! `varsand match`: two UCI engines play games of any rule file against each other,
//! varsand keeping the rules.
//!
//! Each engine is a child process ([`engine::Engine`]). Before each game both get
//! `ucinewgame` and must answer `isready`; for each move the engine to move gets
//! `position startpos moves ...` (every move from the start, so that it sees the
//! repetitions) and `go` with its limits. Its answer is read as a move of the
//! position: a move varsand does not find legal, no move (`(none)`, `0000`) while
//! legal moves remain, no answer in time, or an engine that exits, loses the game,
//! and the PGN's closing comment says why. Otherwise the game ends by the file's end
//! rules (checked before every move, as analysis does), or as a draw at the move cap.
//!
//! The match starts only when both engines answer `uci`: a command that does not
//! start, or an engine that does not speak UCI, is an error before any game. An
//! engine that fails in a game (it exits, or does not answer in time) is stopped and
//! started again for the next one.
//!
//! Openings: with `openings_plies` K, before each pair of games K random legal plies
//! are drawn (seeded), and the pair plays them with each engine on each side. Colours
//! alternate from game to game: engine 1 moves first in the odd-numbered games.

pub mod command;
pub mod engine;
mod score;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::check::Overrides;
use crate::engine::{GameEnd, Move, Position};
use crate::ids::Side;
use crate::pgn::{GameResult, PgnGame, RuleSource};
use crate::rules::Rules;
use crate::search::{Ends, Rng};

pub use command::split as split_command;
use engine::{Engine, Failure, Reply, StartError};
pub use score::{Elo, Score};

/// What an engine is told in `go`: any of a time, a depth and a node count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoLimits {
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl GoLimits {
    /// The limits in words, as `go` takes them: `depth 3`, `movetime 100 nodes 5000`.
    pub fn words(&self) -> String {
        let parts: Vec<String> = [
            self.movetime_ms.map(|m| format!("movetime {m}")),
            self.depth.map(|d| format!("depth {d}")),
            self.nodes.map(|n| format!("nodes {n}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        parts.join(" ")
    }

    /// How long to wait for the engine's move: its time, and the timeout on top.
    fn wait(&self, timeout: Duration) -> Duration {
        Duration::from_millis(self.movetime_ms.unwrap_or(0)).saturating_add(timeout)
    }
}

/// What to play.
pub struct Options {
    /// The rule file as given, and as the PGN records it.
    pub file: PathBuf,
    pub rules: Arc<Rules>,
    pub rules_hash: String,
    pub overrides: Overrides,
    /// The two engines' command lines, split into words.
    pub engines: [Vec<String>; 2],
    pub limits: [GoLimits; 2],
    pub games: usize,
    /// Random plies before each pair of games (0: every game from the setup).
    pub openings_plies: usize,
    /// A game still going after this many plies is a draw ("adjudication").
    pub max_plies: usize,
    pub seed: u64,
    /// How long an engine may take to answer `uci`, `isready`, or `go` beyond its
    /// movetime.
    pub timeout: Duration,
    /// The `UCI_Variant` to set in engines that have the option; `None`: one read
    /// from the game's name ([`variant_candidates`]).
    pub variant: Option<String>,
    /// Where to write the games (rewritten after each game).
    pub pgn: Option<PathBuf>,
}

/// How a match went.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    /// The engines' names (made distinct), and their limits.
    pub engines: [String; 2],
    pub limits: [String; 2],
    pub games: u64,
    /// From the first engine's view.
    pub score: Score,
    pub elo: Elo,
    /// How the games ended (the end rule's words, or the engine's failure), counted.
    pub endings: BTreeMap<String, u64>,
}

impl Report {
    /// The summary as text, in cutechess-cli's terms.
    pub fn text(&self) -> String {
        let [a, b] = &self.engines;
        let s = &self.score;
        let mean = s.mean().unwrap_or(0.0);
        // (-0.0 prints as +0.0.)
        let signed = |x: f64| format!("{:+.1}", x + 0.0);
        let elo = match (self.elo.diff, self.elo.margin) {
            (Some(d), Some(m)) => format!(
                "{} +/- {m:.1} (95% interval {} to {})",
                signed(d),
                signed(self.elo.low.unwrap_or(d)),
                signed(self.elo.high.unwrap_or(d))
            ),
            (Some(d), None) => format!("{} (the interval reaches infinity)", signed(d)),
            (None, _) if s.games() == 0 => "none (no game played)".to_string(),
            (None, _) => "infinite (one engine scored every point)".to_string(),
        };
        let los = self
            .elo
            .los
            .map_or(String::new(), |l| format!(", LOS {:.1}%", l * 100.0));
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(why, n)| format!("{why} {n}"))
            .collect();
        // Names made distinct by their limits already say them.
        let with_limits = |name: &str, limits: &str| {
            if name.ends_with(limits) {
                name.to_string()
            } else {
                format!("{name} ({limits})")
            }
        };
        format!(
            "{game}: {la} vs {lb}, {n} games\n\
             Score of {a} vs {b}: {w} - {l} - {d} [{mean:.3}] {n}\n\
             score {points}/{n} for {a}\n\
             Elo difference: {elo}{los}\n\
             games ended: {endings}\n",
            game = self.game,
            la = with_limits(a, &self.limits[0]),
            lb = with_limits(b, &self.limits[1]),
            n = self.games,
            w = s.wins,
            l = s.losses,
            d = s.draws,
            points = s.points(),
            endings = endings.join(", "),
        )
    }
}

/// The names an engine may know the game by, for `UCI_Variant`: the one `varsand uci`
/// announces ([`crate::session::variant_name`]: `my_big_game` for "My Big Game"), the
/// game's name in lower case without spaces or punctuation (`mybiggame`), then the
/// same without its last word (`mybig`: Fairy-Stockfish names some variants so).
pub fn variant_candidates(rules: &Rules) -> Vec<String> {
    let squash = |words: &[&str]| -> String {
        words
            .concat()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let words: Vec<&str> = rules.name.split_whitespace().collect();
    let mut out = vec![crate::session::variant_name(rules), squash(&words)];
    if words.len() > 1 {
        out.push(squash(&words[..words.len() - 1]));
    }
    out.retain(|c| !c.is_empty());
    out.dedup();
    out
}

/// One engine of the match: its command, the running process and what was chosen
/// for it.
struct Seat {
    argv: Vec<String>,
    engine: Option<Engine>,
    limits: GoLimits,
    /// The `UCI_Variant` value it is given, if it has the option.
    variant: Option<String>,
    name: String,
}

/// How a game ended.
enum Ending {
    /// By the file's rules.
    Rules(GameEnd),
    /// At the move cap: a draw.
    Cap,
    /// An engine lost it: the seat, the side it played, PGN's `Termination`, the
    /// tally's word and the reason.
    Forfeit {
        seat: usize,
        side: usize,
        termination: &'static str,
        kind: &'static str,
        why: String,
    },
}

/// A game in progress: the position and the moves (as text, for `position` and the
/// PGN), and who plays which side.
struct Game {
    pos: Position,
    moves: Vec<String>,
    notes: Vec<(usize, String)>,
    /// The seat that moves first.
    first: usize,
    first_side: usize,
    start_swapped: bool,
}

impl Game {
    fn new(rules: &Arc<Rules>, first: usize) -> Self {
        let pos = Position::start(rules.clone());
        Game {
            first_side: pos.side_to_move().index(),
            start_swapped: pos.swapped(),
            pos,
            moves: Vec::new(),
            notes: Vec::new(),
            first,
        }
    }

    /// The seat playing `side` now (a pie rule's `swap` exchanges the sides).
    fn seat_of(&self, side: usize) -> usize {
        let person = side ^ self.first_side ^ usize::from(self.pos.swapped() != self.start_swapped);
        person ^ self.first
    }

    fn play(&mut self, m: Move) {
        self.moves.push(self.pos.move_text(m));
        self.pos.make(m);
    }

    /// `position startpos moves ...`.
    fn position_command(&self) -> String {
        if self.moves.is_empty() {
            "position startpos".into()
        } else {
            format!("position startpos moves {}", self.moves.join(" "))
        }
    }
}

/// Plays the match; progress goes to `progress`. `Err`: the match could not start
/// (an engine that does not start or speak UCI, a variant it does not have, a PGN
/// file that cannot be written).
pub fn run(opts: &Options, progress: &mut dyn Write) -> Result<Report, String> {
    let mut runner = Runner::new(opts, progress)?;
    runner.play_all()
}

/// The match being played.
struct Runner<'a> {
    opts: &'a Options,
    seats: [Seat; 2],
    ends: Ends,
    rng: Rng,
    progress: &'a mut dyn Write,
    score: Score,
    endings: BTreeMap<String, u64>,
    pgn_text: String,
}

impl<'a> Runner<'a> {
    fn new(opts: &'a Options, progress: &'a mut dyn Write) -> Result<Self, String> {
        // A PGN file that cannot be written is found before any game is played.
        if let Some(path) = &opts.pgn {
            crate::pgn::write_atomically(path, b"")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        let mut seats = Vec::new();
        for (i, argv) in opts.engines.iter().enumerate() {
            let engine = Engine::start(argv, opts.timeout).map_err(|e| match e {
                StartError::Spawn(text) => format!("engine {}: {text}", i + 1),
                StartError::Handshake(f) => {
                    format!("engine {} (`{}`) {}", i + 1, argv.join(" "), f.what)
                }
            })?;
            let variant = choose_variant(&engine, opts, progress)
                .map_err(|e| format!("engine {} ({}): {e}", i + 1, engine.name))?;
            seats.push(Seat {
                argv: argv.clone(),
                name: engine.name.clone(),
                engine: Some(engine),
                limits: opts.limits[i].clone(),
                variant,
            });
        }
        let [mut a, mut b]: [Seat; 2] = seats.try_into().map_err(|_| "two engines".to_string())?;
        distinguish(&mut a, &mut b);
        Ok(Runner {
            opts,
            seats: [a, b],
            ends: Ends::new(&opts.rules),
            rng: Rng::new(opts.seed),
            progress,
            score: Score::default(),
            endings: BTreeMap::new(),
            pgn_text: String::new(),
        })
    }

    fn play_all(&mut self) -> Result<Report, String> {
        let mut opening = Vec::new();
        for i in 0..self.opts.games {
            if i % 2 == 0 {
                opening = random_opening(&self.opts.rules, self.opts.openings_plies, &mut self.rng);
            }
            let (game, ending) = self.play_game(i, &opening);
            self.record(i, &game, &ending)?;
        }
        for seat in &mut self.seats {
            if let Some(e) = seat.engine.take() {
                e.quit();
            }
        }
        Ok(Report {
            game: self.opts.rules.name.clone(),
            engines: [self.seats[0].name.clone(), self.seats[1].name.clone()],
            limits: [self.seats[0].limits.words(), self.seats[1].limits.words()],
            games: self.score.games(),
            score: self.score,
            elo: self.score.elo(),
            endings: self.endings.clone(),
        })
    }

    /// Plays game `i` (0-based) from the opening.
    fn play_game(&mut self, i: usize, opening: &[String]) -> (Game, Ending) {
        let mut game = Game::new(&self.opts.rules, i % 2);
        for person in 0..2 {
            let seat = person ^ game.first;
            if let Err(f) = self.ready(seat) {
                let side = person ^ game.first_side;
                return (game, self.failed(seat, side, f));
            }
        }
        for text in opening {
            match game.pos.parse_move(text) {
                Ok(m) => game.play(m),
                Err(_) => break,
            }
        }
        if !opening.is_empty() {
            let n = game.moves.len();
            game.notes.push((n, format!("opening: {n} random plies")));
        }
        let ending = self.play_out(&mut game);
        (game, ending)
    }

    /// Plays the game to its end.
    fn play_out(&mut self, game: &mut Game) -> Ending {
        let mut legal: Vec<Move> = Vec::with_capacity(64);
        loop {
            game.pos.legal_moves_into(&mut legal);
            if let Some(end) = self.ends.game_end(&mut game.pos, &legal) {
                return Ending::Rules(end);
            }
            if game.moves.len() >= self.opts.max_plies {
                return Ending::Cap;
            }
            let side = game.pos.side_to_move().index();
            let seat = game.seat_of(side);
            let reply = match self.ask(seat, game) {
                Ok(r) => r,
                Err(f) => return self.failed(seat, side, f),
            };
            let name = &self.seats[seat].name;
            let Some(text) = reply.best else {
                return Ending::Forfeit {
                    seat,
                    side,
                    termination: "rules infraction",
                    kind: "no move",
                    why: format!(
                        "{name} gave no move (`bestmove (none)`) with {} legal moves",
                        legal.len()
                    ),
                };
            };
            match game.pos.parse_move(&text) {
                Ok(m) => {
                    game.play(m);
                    if let Some(e) = reply.eval {
                        game.notes.push((game.moves.len(), e));
                    }
                }
                Err(_) => {
                    return Ending::Forfeit {
                        seat,
                        side,
                        termination: "rules infraction",
                        kind: "illegal move",
                        why: format!(
                            "{name} played the illegal move {text}: {}",
                            game.pos.why_illegal(&text)
                        ),
                    };
                }
            }
        }
    }

    /// Makes sure the seat's engine runs (starting it again after a failure), and
    /// gets it ready for a new game.
    fn ready(&mut self, seat: usize) -> Result<(), Failure> {
        let timeout = self.opts.timeout;
        let s = &mut self.seats[seat];
        if s.engine.as_mut().is_some_and(Engine::has_exited) {
            s.engine = None;
        }
        if s.engine.is_none() {
            let _ = writeln!(self.progress, "note: starting {} again", s.name);
            let e = Engine::start(&s.argv, timeout).map_err(|e| match e {
                StartError::Spawn(text) => Failure {
                    what: text,
                    timeout: false,
                },
                StartError::Handshake(f) => f,
            })?;
            s.engine = Some(e);
        }
        let variant = s.variant.clone();
        let engine = s.engine.as_mut().ok_or_else(not_running)?;
        engine.new_game(variant.as_deref(), timeout)
    }

    /// Asks the seat's engine for its move.
    fn ask(&mut self, seat: usize, game: &Game) -> Result<Reply, Failure> {
        let s = &mut self.seats[seat];
        let go = format!("go {}", s.limits.words());
        let wait = s.limits.wait(self.opts.timeout);
        let engine = s.engine.as_mut().ok_or_else(not_running)?;
        engine.best_move(&game.position_command(), go.trim_end(), wait)
    }

    /// The ending of a game an engine failed in; the engine is stopped (it is started
    /// again for the next game).
    fn failed(&mut self, seat: usize, side: usize, f: Failure) -> Ending {
        self.seats[seat].engine = None;
        Ending::Forfeit {
            seat,
            side,
            termination: if f.timeout {
                "time forfeit"
            } else {
                "abandoned"
            },
            kind: if f.timeout {
                "no answer in time"
            } else {
                "engine failure"
            },
            why: format!("{} {}", self.seats[seat].name, f.what),
        }
    }

    /// Scores a finished game, writes the PGN and says it on the progress output.
    fn record(&mut self, i: usize, game: &Game, ending: &Ending) -> Result<(), String> {
        let rules = &self.opts.rules;
        let (winner_side, winner_seat) = match ending {
            Ending::Rules(end) => (
                end.winner.map(Side::index),
                end.winner.map(|w| game.seat_of(w.index())),
            ),
            Ending::Cap => (None, None),
            Ending::Forfeit { seat, side, .. } => (Some(side ^ 1), Some(seat ^ 1)),
        };
        self.score.add(winner_seat.map(|s| s == 0));
        let (kind, why, termination) = match ending {
            Ending::Rules(end) => (end.reason.words(rules), end.describe(rules), "normal"),
            Ending::Cap => (
                "move cap".to_string(),
                format!(
                    "{} plies without an end: a draw by adjudication",
                    self.opts.max_plies
                ),
                "adjudication",
            ),
            Ending::Forfeit {
                kind,
                why,
                termination,
                ..
            } => (kind.to_string(), why.clone(), *termination),
        };
        *self.endings.entry(kind).or_default() += 1;
        let mut pgn = self.pgn_game(i, game);
        pgn.result = GameResult::won_by(winner_side);
        pgn.set_tag("Termination", termination);
        pgn.ending = Some(why.clone());
        if !self.pgn_text.is_empty() {
            self.pgn_text.push('\n');
        }
        self.pgn_text += &pgn.to_text();
        if let Some(path) = &self.opts.pgn {
            crate::pgn::write_atomically(path, self.pgn_text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        let _ = writeln!(
            self.progress,
            "game {}/{}: {} - {} {} ({why}); score of {}: {}/{}",
            i + 1,
            self.opts.games,
            self.seats[game.seat_of(0)].name,
            self.seats[game.seat_of(1)].name,
            pgn.result.text(),
            self.seats[0].name,
            self.score.points(),
            self.score.games(),
        );
        Ok(())
    }

    /// The game's PGN, without its result.
    fn pgn_game(&self, i: usize, game: &Game) -> PgnGame {
        let opts = self.opts;
        let mut pgn = PgnGame::new();
        pgn.set_tag("Event", "varsand match");
        pgn.set_tag("Date", crate::pgn::today());
        pgn.set_tag("Round", (i + 1).to_string());
        for (tag, side) in [("White", 0), ("Black", 1)] {
            pgn.set_tag(tag, self.seats[game.seat_of(side)].name.as_str());
        }
        let file = match &opts.pgn {
            Some(out) => crate::pgn::recorded_path(&opts.file, out),
            None => opts.file.clone(),
        };
        RuleSource {
            file,
            hash: Some(opts.rules_hash.clone()),
            overrides: opts.overrides.clone(),
        }
        .tag(&mut pgn, &opts.rules);
        for (tag, side) in [("WhiteLimits", 0), ("BlackLimits", 1)] {
            pgn.set_tag(tag, self.seats[game.seat_of(side)].limits.words());
        }
        pgn.set_tag("PlyCount", game.moves.len().to_string());
        let start = Position::start(opts.rules.clone());
        pgn.set_start(&start, None);
        pgn.moves = game.moves.clone();
        pgn.notes = game.notes.clone();
        pgn
    }
}

fn not_running() -> Failure {
    Failure {
        what: "is not running".into(),
        timeout: false,
    }
}

/// The `UCI_Variant` an engine is given: the one asked for (which it must have), else
/// the first of [`variant_candidates`] it has; `None` if it has no such option.
fn choose_variant(
    engine: &Engine,
    opts: &Options,
    progress: &mut dyn Write,
) -> Result<Option<String>, String> {
    let Some(known) = &engine.variants else {
        return Ok(None);
    };
    if let Some(v) = &opts.variant {
        if known.contains(v) {
            return Ok(Some(v.clone()));
        }
        return Err(format!("its UCI_Variant option has no value `{v}`"));
    }
    let candidates = variant_candidates(&opts.rules);
    let chosen = candidates.iter().find(|c| known.contains(c)).cloned();
    // (An engine of one variant has nothing else to play.)
    if chosen.is_none() && known.len() > 1 {
        let _ = writeln!(
            progress,
            "note: {} knows no variant called {} (tried {}): it plays its default; --variant NAME chooses one",
            engine.name,
            opts.rules.name,
            candidates.join(", ")
        );
    }
    Ok(chosen)
}

/// Makes the two engines' names distinct: by their limits if those differ, else by
/// their number.
fn distinguish(a: &mut Seat, b: &mut Seat) {
    if a.name != b.name {
        return;
    }
    if a.limits != b.limits {
        a.name = format!("{} {}", a.name, a.limits.words());
        b.name = format!("{} {}", b.name, b.limits.words());
    } else {
        a.name += " (1)";
        b.name += " (2)";
    }
}

/// `plies` random legal plies from the setup, stopping before a ply that would leave
/// a finished game.
fn random_opening(rules: &Arc<Rules>, plies: usize, rng: &mut Rng) -> Vec<String> {
    let ends = Ends::new(rules);
    let mut pos = Position::start(rules.clone());
    let mut legal = Vec::new();
    let mut texts = Vec::new();
    for _ in 0..plies {
        pos.legal_moves_into(&mut legal);
        if ends.game_end(&mut pos, &legal).is_some() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        texts.push(pos.move_text(m));
        pos.make(m);
    }
    pos.legal_moves_into(&mut legal);
    if ends.game_end(&mut pos, &legal).is_some() {
        texts.pop();
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_limits_read_as_go_takes_them() {
        let l = GoLimits {
            movetime_ms: Some(100),
            depth: None,
            nodes: Some(5000),
        };
        assert_eq!(l.words(), "movetime 100 nodes 5000");
        assert_eq!(l.wait(Duration::from_secs(1)), Duration::from_millis(1100));
    }
}
