//! Saved games: the REPL's `save` writes a PGN game ([`crate::pgn`]) with the rule
//! file, its hash and parameters and any start position in its tags; `load` reads one
//! back, from a save of any version (older saves recorded the rule file's path in the
//! `Variant` tag and one `Set` tag per parameter) or from a PGN file of many games.
//!
//! The rule file is recorded relative to the saved game when the two share a folder
//! above the root (`../games/my_game.var`), else by its absolute path; `RulesHash` is
//! the hash of the rule text the game was played under, so that loading can tell that
//! the file changed since (older saves have none, and load as before).

use std::path::Path;

use crate::check::Overrides;
use crate::engine::{GameEnd, Position};
use crate::pgn::{PgnGame, RuleSource, read_games};
use crate::rules::Rules;

pub use crate::pgn::recorded_path as variant_path;

pub struct SavedGame {
    /// The rule file as recorded; `None` when the tags name none (a game from another
    /// tool): the game is then read under the session's rules if its `Variant` is
    /// the session's game.
    pub variant: Option<String>,
    /// The game's name, from the `Variant` tag of a current save.
    pub name: Option<String>,
    /// The hash of the rule text when the game was saved ([`text_hash`]).
    pub rules_hash: Option<String>,
    pub overrides: Overrides,
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// How many games the file holds.
    pub games_in_file: usize,
}

/// What `save` records of a session.
pub struct SaveRequest<'a> {
    /// The rule file, as recorded (see [`variant_path`]).
    pub variant: &'a Path,
    pub rules_hash: &'a str,
    pub overrides: &'a Overrides,
    /// The start position, when it is not the file's setup.
    pub fen: Option<&'a str>,
    pub moves: &'a [String],
    pub rules: &'a std::sync::Arc<Rules>,
    pub end: Option<&'a GameEnd>,
}

/// The saved game as PGN text.
pub fn write(save: &SaveRequest) -> String {
    let mut game = PgnGame::new();
    game.set_tag("Event", "varsand play");
    game.set_tag("Date", crate::pgn::today());
    let source = RuleSource {
        file: save.variant.to_path_buf(),
        hash: Some(save.rules_hash.to_string()),
        overrides: save.overrides.clone(),
    };
    source.tag(&mut game, save.rules);
    // The start position numbers the moves (a game may start with the second player).
    let start = save
        .fen
        .and_then(|f| Position::from_fen(save.rules.clone(), f).ok())
        .unwrap_or_else(|| Position::start(save.rules.clone()));
    game.set_start(&start, save.fen);
    game.set_end(save.end, save.rules);
    game.set_tag("PlyCount", save.moves.len().to_string());
    game.moves = save.moves.to_vec();
    game.to_text()
}

/// Reads game `number` (1-based) of a saved file.
pub fn read(text: &str, number: usize) -> Result<SavedGame, String> {
    let games = read_games(text).map_err(|e| e.to_string())?;
    let count = games.len();
    if count == 0 {
        return Err("no game in the file (a PGN game has tags, moves and a result)".into());
    }
    let Some(game) = games.into_iter().nth(number.wrapping_sub(1)) else {
        return Err(format!(
            "there is no game {number}: the file holds {count} game{}",
            if count == 1 { "" } else { "s" }
        ));
    };
    let source = RuleSource::from_tags(&game)?;
    let fen = game.tag("FEN").map(str::to_string);
    Ok(SavedGame {
        name: game.tag("Variant").map(str::to_string),
        variant: source.as_ref().map(|s| s.file.display().to_string()),
        rules_hash: source.as_ref().and_then(|s| s.hash.clone()),
        overrides: source.map(|s| s.overrides).unwrap_or_default(),
        fen,
        moves: game.moves,
        games_in_file: count,
    })
}
