//! `analyze --save-games DIR`: every game as a PGN file of its own
//! (`DIR/game-001.pgn`, numbered from 1 in the order of the run's games), so that a
//! designer can open any game in the REPL (`load DIR/game-042.pgn`) and see how a side
//! won. The tags name the players (`varsand depth 3`, `random`), the run's seed and
//! the game's own seed, besides the variant, its rule file and parameters.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{GameRecord, Player};
use crate::check::Overrides;
use crate::engine::Position;
use crate::pgn::{GameResult, PgnGame, RuleSource, recorded_path, text_hash, today};
use crate::rules::Rules;

/// Where and how the games of a run are saved.
pub struct SaveGames {
    dir: PathBuf,
    /// The tags every game of the run shares.
    template: PgnGame,
    /// How many digits the file numbers have.
    width: usize,
    rules: Arc<Rules>,
    /// The first file that could not be written, and why.
    first_error: Mutex<Option<String>>,
}

impl std::fmt::Debug for SaveGames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SaveGames({})", self.dir.display())
    }
}

impl SaveGames {
    /// Makes the folder (if need be) and the tags for a run of `games` games of the
    /// rule file `rule_file` read with `overrides`.
    pub fn new(
        dir: &Path,
        rule_file: &Path,
        overrides: &Overrides,
        rules: &Arc<Rules>,
        games: usize,
        seed: u64,
    ) -> Result<Self, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
        let text = std::fs::read_to_string(rule_file)
            .map_err(|e| format!("cannot read {}: {e}", rule_file.display()))?;
        let mut template = PgnGame::new();
        template.set_tag("Event", "varsand analyze");
        template.set_tag("Date", today());
        RuleSource {
            file: recorded_path(rule_file, &dir.join("game.pgn")),
            hash: Some(text_hash(&text)),
            overrides: overrides.clone(),
        }
        .tag(&mut template, rules);
        template.set_tag("Seed", seed.to_string());
        Ok(SaveGames {
            dir: dir.to_path_buf(),
            template,
            width: games.to_string().len(),
            rules: rules.clone(),
            first_error: Mutex::new(None),
        })
    }

    /// The first file that could not be written, and why.
    pub fn error(&self) -> Option<String> {
        self.first_error.lock().ok().and_then(|e| e.clone())
    }

    /// Writes game `i` (0-based) of the run, played by `players` (the first moved
    /// first) with the seed `game_seed`.
    pub(crate) fn write(&self, i: usize, game_seed: u64, rec: &GameRecord, players: &[Player; 2]) {
        let pgn = self.pgn(i, game_seed, rec, players);
        let path = self
            .dir
            .join(format!("game-{:0w$}.pgn", i + 1, w = self.width));
        if let Err(e) = crate::pgn::write_atomically(&path, pgn.to_text().as_bytes())
            && let Ok(mut first) = self.first_error.lock()
        {
            first.get_or_insert(format!("cannot write {}: {e}", path.display()));
        }
    }

    fn pgn(&self, i: usize, game_seed: u64, rec: &GameRecord, players: &[Player; 2]) -> PgnGame {
        let mut pgn = self.template.clone();
        pgn.set_tag("Round", (i + 1).to_string());
        let start = Position::start(self.rules.clone());
        // The person holding each colour at the end (a pie rule's swap exchanges them).
        let first_side = start.side_to_move().index();
        for (tag, side) in [("White", 0), ("Black", 1)] {
            let person = side ^ first_side ^ usize::from(rec.swapped);
            pgn.set_tag(tag, player_name(&players[person]));
        }
        pgn.set_tag("GameSeed", game_seed.to_string());
        pgn.set_tag("PlyCount", rec.moves.len().to_string());
        pgn.set_start(&start, None);
        // The ending in words, from the position the moves reach.
        let mut pos = start;
        for m in &rec.moves {
            if pos.play(m).is_err() {
                break;
            }
        }
        match pos.outcome() {
            Some(end) => pgn.set_end(Some(&end), &self.rules),
            None => {
                pgn.result = GameResult::won_by(rec.winner);
                pgn.set_tag("Termination", "adjudication");
                pgn.ending = Some(rec.reason.clone());
            }
        }
        pgn.moves = rec.moves.clone();
        pgn
    }
}

/// A player as the tags name it: `random`, `varsand depth 3`, `varsand 100 ms`.
fn player_name(p: &Player) -> String {
    match p {
        Player::Random => "random".into(),
        Player::Search(l) => {
            let parts: Vec<String> = [
                l.depth.map(|d| format!("depth {d}")),
                l.movetime.map(|t| format!("{} ms", t.as_millis())),
                l.nodes.map(|n| format!("{n} nodes")),
            ]
            .into_iter()
            .flatten()
            .collect();
            format!("varsand {}", parts.join(" "))
                .trim_end()
                .to_string()
        }
    }
}
