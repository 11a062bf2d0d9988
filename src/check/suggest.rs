//! Help lines for a misspelt name, shared by the passes that resolve names (below
//! them all, so that no pass imports another for them).

use crate::diagnostic::closest;
use crate::model::Player;

/// The players' names, as candidates for a misspelt one.
pub(crate) fn player_names(players: &[Player; 2]) -> Vec<&str> {
    players.iter().map(|p| p.name.as_str()).collect()
}

/// The help line for an unknown name: the closest candidate, or the candidates.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    what: &str,
) -> String {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    match closest(name, candidates.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None if candidates.is_empty() => format!("no {what} is declared yet"),
        None => format!(
            "declared {what}s: {}",
            crate::diagnostic::list_candidates(candidates)
        ),
    }
}
