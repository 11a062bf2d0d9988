//! What the command line gives every front end alike: parameters (`--set`), a position
//! (`--fen`, `--moves`), the limits on the numbers a user types, and the name a game
//! goes by between engines (the protocols and `match`).

use std::path::Path;

use crate::check::Overrides;
use crate::engine::Position;
use crate::rules::Rules;

/// The deepest `perft` the REPL and the command line run. Perft grows about
/// 30-fold a ply in chess: depth 10 is already hours; past 64 a request is a typo.
pub const MAX_PERFT_DEPTH: usize = crate::perft::MAX_DEPTH;
/// The longest time per move the computer may be given: a day, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 24 * 60 * 60 * 1000;

/// The parameters of `--set NAME=VALUE` (or `PLAYER.NAME=VALUE`) arguments; the
/// error is a line ready to print.
pub fn parse_overrides(set: &[String]) -> Result<Overrides, String> {
    let mut overrides = Overrides::new();
    for pair in set {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("error: --set wants NAME=VALUE, not `{pair}`\n"))?;
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("error: --set {name}: `{value}` is not a whole number\n"))?;
        overrides.insert(name.trim().to_string(), value);
    }
    Ok(overrides)
}

/// The position a command line names: the setup, or `--fen`, then `--moves` played
/// from it. The error is a line ready to print, with the reason a move is illegal.
pub fn position_from_args(
    file: &Path,
    overrides: &Overrides,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Position, String> {
    let rules = super::load_file(file, overrides, super::stderr_color())?;
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("error: bad --fen: {e}\n"))?,
        None => Position::start(rules),
    };
    for m in moves.iter().flat_map(|m| m.split_whitespace()) {
        if pos.play(m).is_err() {
            return Err(format!(
                "error: --moves: `{m}` is not legal: {} (position {})\n",
                pos.why_illegal(m),
                pos.fen()
            ));
        }
    }
    Ok(pos)
}

/// The game's name as the protocols announce it by default (`UCI_Variant`, XBoard's
/// `variants`): lower case, each run of other characters than letters and digits
/// turned into one `_` ("My Game (12x12)" is `my_game_12x12`), as interfaces expect
/// identifiers there.
pub fn variant_name(rules: &Rules) -> String {
    let mut out = String::new();
    for c in rules.name().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("game");
    }
    out
}
