//! What the page is told: the state of the game as JSON, with the board drawn, the
//! legal moves (so that the page knows which squares a piece may reach, and which
//! moves share a target and need a choice), the moves played, the rules in words and
//! the rule file's diagnostics.

use std::sync::Arc;

use serde::Serialize;

use crate::engine::explain::with_article;
use crate::engine::{Move, MoveShape, Position};
use crate::render::diagram::{self, symbol_of};
use crate::render::svg::{Token, face};
use crate::rules::{Cell, Rules, Side, code, kind_of};

use super::game::{Game, Tone, result_text};

/// The game as the page draws it.
#[derive(Serialize)]
pub struct State {
    /// Bumped by every change: the page redraws when it differs from the one it has.
    pub version: u64,
    /// The game's name.
    pub title: String,
    pub file: String,
    pub players: [String; 2],
    pub to_move: String,
    /// The board and the hands, as one SVG element.
    pub svg: String,
    pub moves: Vec<MoveView>,
    /// The moves played, in order.
    pub history: Vec<String>,
    /// The moves `redo` would play, the next one first.
    pub redo: Vec<String>,
    /// Who won and why, once the game is over.
    pub result: Option<String>,
    /// The position string.
    pub fen: String,
    /// The rules in words, but for the pieces: they are `pieces`.
    pub rules: String,
    /// Every kind of piece, as a card.
    pub pieces: Vec<PieceCard>,
    /// The rule file's diagnostics, while it does not check.
    pub problems: Option<String>,
    /// What the last reload of the rule file did.
    pub notice: Option<String>,
    /// How to show it: `done`, `warning` (a replay stopped before a move, the rest
    /// kept for redo) or `trouble` (the rule file did not load).
    pub notice_tone: Option<Tone>,
}

/// One legal move, as the page offers it.
#[derive(Serialize)]
pub struct MoveView {
    /// The text to send back to play it.
    pub text: String,
    /// The square it starts from (not for drops, passes and the swap).
    pub from: Option<String>,
    /// The square it ends on (not for exits, passes and the swap).
    pub to: Option<String>,
    /// For a drop, the symbol of the piece taken from the hand.
    pub drop: Option<String>,
    /// The square its second part puts terrain on (an arrow, the duck), if it has one:
    /// the page asks for it after the first part's squares.
    pub then: Option<String>,
    /// What it does, in words, for a choice between moves with the same squares.
    pub label: String,
}

impl State {
    /// The state of the game, the board drawn from the second player's side if
    /// `flipped`.
    pub fn of(game: &mut Game, flipped: bool) -> State {
        let rules = game.rules().clone();
        let history = game.record().to_vec();
        let redo = game.redo_line().cloned().collect();
        let problems = game.problems().map(str::to_string);
        let (notice, notice_tone) = match game.notice() {
            Some((text, tone)) => (Some(text.to_string()), Some(tone)),
            None => (None, None),
        };
        let (version, file) = (game.version(), game.path().display().to_string());
        let pieces = game.cards();
        let pos = game.position();
        let result = pos.outcome().map(|end| result_text(&rules, &end));
        let moves = match result {
            Some(_) => Vec::new(),
            None => pos.legal_moves().iter().map(|&m| view(pos, m)).collect(),
        };
        State {
            version,
            title: rules.name.clone(),
            file,
            players: rules.players.clone().map(|p| p.name),
            to_move: rules.players[pos.side_to_move()].name.clone(),
            svg: super::board::svg(pos, flipped),
            moves,
            history,
            redo,
            result,
            fen: pos.fen(),
            rules: crate::describe::describe_game(&rules),
            pieces,
            problems,
            notice,
            notice_tone,
        }
    }
}

/// A kind of piece as the rules panel shows it.
#[derive(Serialize, Clone)]
pub struct PieceCard {
    pub name: String,
    /// Its letter as position strings write it.
    pub symbol: String,
    /// The player who alone has it, if one.
    pub owner: Option<String>,
    pub value: Option<i64>,
    /// Its glyphs (`glyph`), each player's once.
    pub glyphs: Vec<String>,
    /// How the board draws it, as a small SVG element (both players' forms for a piece
    /// of both).
    pub picture: String,
    /// What it does, a line for each way it moves.
    pub moves: Vec<String>,
    /// Where it moves and captures from a central square (`render --piece`).
    pub diagram: String,
}

/// The cards of every kind of piece.
pub fn cards(rules: &Arc<Rules>) -> Vec<PieceCard> {
    (0..rules.pieces.len())
        .map(|kind| {
            let p = &rules.pieces[kind];
            PieceCard {
                name: p.name.clone(),
                symbol: symbol_of(rules, kind),
                owner: p.owner.map(|o| rules.players[o].name.clone()),
                value: p.value,
                glyphs: p.glyph.iter().flatten().fold(Vec::new(), |mut all, g| {
                    if !all.contains(g) {
                        all.push(g.clone());
                    }
                    all
                }),
                picture: picture(rules, kind),
                moves: crate::describe::piece_lines(rules, kind),
                diagram: diagram::svg(rules, &diagram::diagram(rules, kind)),
            }
        })
        .collect()
}

/// A piece's tokens side by side, as the board draws them: its owner's, or both
/// players'.
fn picture(rules: &Rules, kind: usize) -> String {
    let sides: Vec<Side> = match rules.pieces[kind].owner {
        Some(o) => vec![o],
        None => Side::BOTH.to_vec(),
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"40\" viewBox=\"0 0 {w} 40\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
        w = 40 * sides.len()
    );
    for (i, &side) in sides.iter().enumerate() {
        s += &Token {
            centre: (20.0 + 40.0 * i as f64, 20.0),
            r: 16.0,
            side,
            face: face(rules, code(kind, side)),
            badge: None,
            stacked: false,
            attrs: "class=\"card-token\"",
            title: "",
        }
        .draw();
    }
    s + "</svg>\n"
}

/// A legal move with its squares and words.
fn view(pos: &Position, m: Move) -> MoveView {
    let rules = pos.rules();
    let square = |cell: Option<Cell>| cell.map(|c| rules.geometry.name(c).to_string());
    let shape = pos.shape(m);
    let dropped = match shape {
        MoveShape::Drop { piece, .. } => Some(piece),
        _ => None,
    };
    MoveView {
        text: pos.move_text(m),
        from: square(m.origin()),
        to: square(m.target()),
        drop: dropped.map(|kind| rules.code_symbol(code(kind, pos.side_to_move()))),
        then: square(m.second_part()),
        label: label(pos, shape),
    }
}

/// What a move does, in words: what tells apart moves between the same squares.
fn label(pos: &Position, shape: MoveShape) -> String {
    let rules = pos.rules();
    let name = |code| with_article(&rules.pieces[kind_of(code)].name);
    match shape {
        MoveShape::Swap => "take over the first player's side".into(),
        MoveShape::Pass => "pass".into(),
        MoveShape::Exit { .. } => "leave the board".into(),
        MoveShape::Castle { .. } => "castle".into(),
        MoveShape::Drop { piece, .. } => format!(
            "place {} from the hand",
            with_article(&rules.pieces[piece].name)
        ),
        MoveShape::Rifle { .. } => "capture without moving".into(),
        MoveShape::Gate {
            piece,
            castling,
            at,
            ..
        } => format!(
            "{}bring {} from the hand onto {}",
            if castling.is_some() {
                "castle and "
            } else {
                ""
            },
            name(piece),
            rules.geometry.name(at)
        ),
        MoveShape::Step {
            becomes: Some(face),
            ..
        } => format!("become {}", name(face)),
        MoveShape::Step { from, .. } => format!("stay {}", name(pos.piece_at(from))),
    }
}
