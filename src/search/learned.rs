//! Learned evaluation weights (`varsand tune`), kept in a `GAME.values` file beside
//! `GAME.var`: a value per piece kind on the board and in hand, a bonus per piece
//! kind and square, and the mobility weight. They replace the derived values,
//! positional bonuses and mobility weight of [`super::Eval`]; the terms that follow
//! the rules (the goal term, the hunt) stay.
//!
//! The file is plain text, one fact a line, `#` starting a comment:
//!
//! ```text
//! varsand-values 1
//! rules GAME.var
//! hash fnv1a64:0123456789abcdef
//! mobility 3
//! tempo 20               # optional: for having the move
//! threats 2 2 12         # optional: sixteenths of the threats that count (see below)
//! value 95 X            # its name ± 4
//! hand 120 X             # its name
//! squares 0 X            # then one line per rank, the top rank first
//!   0 0 0 ...
//! end-squares 0 X        # optional: the bonuses in the end game, laid out alike
//!   0 0 0 ...
//! toward X 0 9 7 5 ...   # optional: X 0, 1, 2... steps from the enemy royal piece
//! guard X 0 4 2 0 ...    # optional: the same from its own royal piece
//! around-own X           # optional: then 5 lines of 5, the squares ahead first
//!   0 0 0 0 0
//!   ...
//! around-enemy X         # optional: the same around the enemy royal piece
//!   ...
//! crowd-own 0 5 9 ...    # optional: by 0, 1, 2... pieces in the grid of the own
//! crowd-enemy 0 -3 ...   #   royal piece, and in the enemy's
//! network 32 flip 150    # optional, last: a learned network (see below)
//!   ...
//! ```
//!
//! With `network` (written by `varsand tune --network`), a small network
//! ([`super::network`]) is added to the evaluation: its lines close the file.
//!
//! With `threats` (written by `varsand tune --threats`), the threat term weighs the
//! largest threat against the opponent, the largest against the side to move and the
//! second largest against it by these sixteenths (for and against the side to move)
//! instead of [`super::threats::THREAT_WEIGHTS`].
//!
//! With `toward` and `guard` (written by `varsand tune --royal-distances`), where each
//! side has one royal piece, a piece gains the row's entry at its Chebyshev distance
//! (in steps, from 0) to the enemy's royal piece and to its own: a learned
//! tropism and shelter, per kind. A row shorter than the board's longest distance
//! repeats its last entry.
//!
//! With `around-own` and `around-enemy` (written by `varsand tune --around-royals`),
//! where each side has one royal piece, a piece standing within two steps of a royal
//! piece on its board gains the grid's entry at its place relative to it: the royal
//! piece in the middle, seen from the piece owner's side (the first line is two
//! ranks ahead of it, toward the opponent's side; the second player's pieces see the
//! grid turned half a turn, as their moves are). The shelter of one's own royal piece
//! and the attackers of the enemy's, per kind and square, where the distances only
//! count steps. With them, `crowd-own` and `crowd-enemy` give a side a bonus by how
//! many of its pieces (royal pieces aside) stand in the grid around its own royal
//! piece and around the enemy's: where the grid's squares add up, the crowd says
//! how much more several attackers (or defenders) together are worth than each alone.
//! A row shorter than [`CROWD_MOST`] + 1 repeats its last entry.
//!
//! With `end-squares`, a piece's bonus is tapered: the `squares` one with every piece
//! of the setup on the board, the `end-squares` one with none, in between by the
//! material left (the phase of [`super::structure`]).
//!
//! Pieces are named by their symbol in position strings (as their owner writes it:
//! names may repeat, as the faces of two-faced pieces' do, symbols may not).
//! Squares are seen from the first player's side; the second player's bonus on a
//! square is the first player's on the square turned half a turn (as its moves are).
//! The `hash` is the rule text's ([`crate::pgn::text_hash`]): a file fitted to another
//! text is stale, and ignored with a warning.

use std::path::{Path, PathBuf};

use super::network::{Network, WORDS as NET_WORDS};
use crate::ids::Side;
use crate::model::Geometry;
use crate::rules::{Cell, Rules};

/// The first line of a values file, naming the format's version.
const MAGIC: &str = "varsand-values 1";
/// The largest weight a file may give, in centipawns (a thousand pawns): larger ones
/// are typing errors, and sums of them must stay out of the mate range.
pub const MAX_WEIGHT: i32 = 100_000;

/// The largest threat weight a file may give, in sixteenths (four times the threat:
/// beyond that the term would outweigh the material it measures).
pub const MAX_THREAT_WEIGHT: i32 = 64;

/// The learned weights of one game, per piece kind in the rules' order.
#[derive(Debug, Clone, PartialEq)]
pub struct Learned {
    /// On the board, in centipawns.
    pub values: Vec<i32>,
    /// In hand, in centipawns.
    pub hand: Vec<i32>,
    /// Per kind, per cell (the first player's view): the bonus of standing there.
    pub squares: Vec<Vec<i32>>,
    /// The same in the end game, when tapered; else empty.
    pub end_squares: Vec<Vec<i32>>,
    /// Centipawns per legal move of mobility.
    pub mobility: i32,
    /// Centipawns for having the move (the side to move's edge: in games with drops
    /// the initiative is worth much); 0 when not learned.
    pub tempo: i32,
    /// Sixteenths of the threats that count: the largest against the opponent (for
    /// the side to move), the largest against the side to move and the second largest
    /// (against it); `None` when not learned.
    pub threats: Option<[i32; 3]>,
    /// Per kind, per distance (Chebyshev steps, from 0) to the enemy's royal piece,
    /// centipawns for a piece standing that far from it, where each side has one
    /// royal piece; empty when not learned.
    pub toward: Vec<Vec<i32>>,
    /// The same by the distance to its own side's royal piece.
    pub guard: Vec<Vec<i32>>,
    /// Per kind, per square of the grid around its own royal piece (see
    /// [`around_index`]), centipawns for standing there; empty when not learned.
    pub around_own: Vec<Vec<i32>>,
    /// The same around the enemy's royal piece.
    pub around_enemy: Vec<Vec<i32>>,
    /// Per count of a side's pieces (royal pieces aside) in the grid around its own
    /// royal piece (0, 1, ... [`CROWD_MOST`] or more), centipawns for that side;
    /// empty when not learned.
    pub crowd_own: Vec<i32>,
    /// The same by its pieces in the grid around the enemy's royal piece.
    pub crowd_enemy: Vec<i32>,
    /// The network added to the evaluation, when learned (`varsand tune --network`).
    pub network: Option<Network>,
}

/// The largest count of pieces in a grid that has its own crowd bonus (more count as
/// this many).
pub const CROWD_MOST: usize = 8;

/// How far from a royal piece (in steps along each axis) its grid of bonuses reaches.
pub const AROUND_RADIUS: i32 = 2;
/// The grid's width: `2 × AROUND_RADIUS + 1`.
pub const AROUND_WIDTH: usize = 2 * AROUND_RADIUS as usize + 1;
/// The grid's number of squares.
pub const AROUND_CELLS: usize = AROUND_WIDTH * AROUND_WIDTH;

/// The grid index of a piece `dx` files and `dy` ranks from a royal piece, both seen
/// from the piece owner's side (`dy` > 0 ahead), if within the grid: the rows from
/// behind to ahead, each from left to right.
#[inline]
pub fn around_index(dx: i32, dy: i32) -> Option<usize> {
    (dx.abs() <= AROUND_RADIUS && dy.abs() <= AROUND_RADIUS)
        .then(|| (dy + AROUND_RADIUS) as usize * AROUND_WIDTH + (dx + AROUND_RADIUS) as usize)
}

/// What a values file says besides its weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The rule file's name, as written.
    pub rules: String,
    /// The hash of the rule text the weights were fitted to.
    pub hash: String,
}

impl Learned {
    /// The bonus of `kind` of `side` on `cell` (`end`: the end game's, when tapered).
    #[inline]
    pub fn square(
        &self,
        geo: &Geometry,
        (kind, side, cell): (usize, Side, Cell),
        end: bool,
    ) -> i32 {
        let view = if side.is_first() {
            Some(cell)
        } else {
            turned(geo, cell)
        };
        let table = if end && self.tapered() {
            &self.end_squares
        } else {
            &self.squares
        };
        view.and_then(|c| table.get(kind)?.get(c.index()).copied())
            .unwrap_or(0)
    }

    /// Whether the square bonuses differ between the middle and the end game.
    pub fn tapered(&self) -> bool {
        !self.end_squares.is_empty()
    }

    /// The file's text. `notes[k]`, when given, ends kind k's value line as a comment
    /// (the uncertainty, say).
    pub fn to_text(&self, rules: &Rules, header: &Header, notes: &[String]) -> String {
        let mut out = format!(
            "{MAGIC}\n# Learned evaluation of {} (`varsand tune`): centipawns, 100 = `value 1`.\n",
            rules.name()
        );
        out += &format!("rules {}\nhash {}\n", header.rules, header.hash);
        out += &format!("mobility {}\n", self.mobility);
        if self.tempo != 0 {
            out += &format!("tempo {}\n", self.tempo);
        }
        if let Some([them, us, second]) = self.threats {
            out += "# Sixteenths of the threats that count: the largest against the opponent (for the\n";
            out +=
                "# side to move), the largest and the second largest against the side to move.\n";
            out += &format!("threats {them} {us} {second}\n");
        }
        let note = |k: usize| match notes.get(k).filter(|n| !n.is_empty()) {
            Some(n) => format!("  # {} {n}", rules.pieces[k].name),
            None => format!("  # {}", rules.pieces[k].name),
        };
        for k in 0..rules.pieces.len() {
            out += &format!("value {} {}{}\n", self.values[k], symbol(rules, k), note(k));
        }
        for k in 0..rules.pieces.len() {
            let name = &rules.pieces[k].name;
            out += &format!("hand {} {}  # {name}\n", self.hand[k], symbol(rules, k));
        }
        out += "# Square bonuses, the first player's view, the top rank first.\n";
        out += &squares_text(rules, "squares", &self.squares);
        if self.tapered() {
            out += "# In the end game (tapered by the material left).\n";
            out += &squares_text(rules, "end-squares", &self.end_squares);
        }
        if !self.toward.is_empty() || !self.guard.is_empty() {
            out += "# Per distance to the enemy's royal piece (toward) and to its own (guard),\n";
            out += "# 0, 1, 2... steps: a bonus where each side has one royal piece.\n";
            out += &self.distances_text(rules);
        }
        out += &self.around_text(rules);
        if let Some(net) = &self.network {
            out += &net.to_text(rules);
        }
        out
    }

    /// Reads a values file's text for these rules. Kinds it does not name keep 0
    /// everywhere; a name the rules lack, a malformed line or a weight beyond
    /// [`MAX_WEIGHT`] is an error.
    pub fn parse(text: &str, rules: &Rules) -> Result<(Learned, Header), String> {
        let kinds = rules.pieces.len();
        let cells = rules.cell_count();
        let mut learned = Learned {
            values: vec![0; kinds],
            hand: vec![0; kinds],
            squares: vec![vec![0; cells]; kinds],
            end_squares: Vec::new(),
            mobility: 0,
            tempo: 0,
            threats: None,
            toward: Vec::new(),
            guard: Vec::new(),
            around_own: Vec::new(),
            around_enemy: Vec::new(),
            crowd_own: Vec::new(),
            crowd_enemy: Vec::new(),
            network: None,
        };
        let mut header = Header {
            rules: String::new(),
            hash: String::new(),
        };
        let mut lines = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .enumerate()
            .filter(|(_, l)| !l.is_empty());
        match lines.next() {
            Some((_, MAGIC)) => {}
            _ => return Err(format!("the first line is not `{MAGIC}`")),
        }
        while let Some((i, line)) = lines.next() {
            let at = |e: String| format!("line {}: {e}", i + 1);
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match word {
                "rules" => header.rules = rest.to_string(),
                "hash" => header.hash = rest.to_string(),
                "mobility" => learned.mobility = weight(rest).map_err(at)?,
                "tempo" => learned.tempo = weight(rest).map_err(at)?,
                "threats" => {
                    let row = weights(rest).map_err(at)?;
                    let three: [i32; 3] = row
                        .try_into()
                        .map_err(|_| at(format!("`threats` takes three numbers, not `{rest}`")))?;
                    if let Some(w) = three.iter().find(|w| !(0..=MAX_THREAT_WEIGHT).contains(*w)) {
                        let e =
                            format!("{w}: a threat weight is 0 to {MAX_THREAT_WEIGHT} sixteenths");
                        return Err(at(e));
                    }
                    learned.threats = Some(three);
                }
                "toward" | "guard" => {
                    let (name, numbers) = rest.split_once(' ').unwrap_or((rest, ""));
                    let k = kind_named(rules, name.trim()).map_err(at)?;
                    let row = weights(numbers).map_err(at)?;
                    let table = if word == "toward" {
                        &mut learned.toward
                    } else {
                        &mut learned.guard
                    };
                    table.resize(kinds, Vec::new());
                    table[k] = row;
                }
                "crowd-own" | "crowd-enemy" => {
                    let row = weights(rest).map_err(at)?;
                    if word == "crowd-own" {
                        learned.crowd_own = row;
                    } else {
                        learned.crowd_enemy = row;
                    }
                }
                "around-own" | "around-enemy" => {
                    let k = kind_named(rules, rest).map_err(at)?;
                    let table = if word == "around-own" {
                        &mut learned.around_own
                    } else {
                        &mut learned.around_enemy
                    };
                    table.resize(kinds, Vec::new());
                    table[k] = vec![0; AROUND_CELLS];
                    for dy in (-AROUND_RADIUS..=AROUND_RADIUS).rev() {
                        let (j, row) = lines
                            .next()
                            .ok_or_else(|| at(format!("{rest}: the grid ends early")))?;
                        let at_row = |e: String| format!("line {}: {e}", j + 1);
                        let numbers: Vec<&str> = row.split_whitespace().collect();
                        if numbers.len() != AROUND_WIDTH {
                            let e = format!("{} numbers, not {AROUND_WIDTH}", numbers.len());
                            return Err(at_row(e));
                        }
                        for (n, dx) in numbers.into_iter().zip(-AROUND_RADIUS..) {
                            let i = around_index(dx, dy).expect("within the grid");
                            table[k][i] = weight(n).map_err(at_row)?;
                        }
                    }
                }
                "value" | "hand" => {
                    let (n, name) = rest.split_once(' ').unwrap_or((rest, ""));
                    let k = kind_named(rules, name.trim()).map_err(at)?;
                    let slot = if word == "value" {
                        &mut learned.values
                    } else {
                        &mut learned.hand
                    };
                    slot[k] = weight(n).map_err(at)?;
                }
                "squares" | "end-squares" => {
                    let (b, name) = rest.split_once(' ').unwrap_or((rest, ""));
                    let k = kind_named(rules, name.trim()).map_err(at)?;
                    let board: usize = b
                        .parse()
                        .ok()
                        .filter(|&b| b < rules.geometry.boards.len())
                        .ok_or_else(|| at(format!("no board `{b}`")))?;
                    let ranks = rules.geometry.boards[board].ranks;
                    for rank in (0..ranks).rev() {
                        let (j, row) = lines
                            .next()
                            .ok_or_else(|| at(format!("{name}: the squares end early")))?;
                        let table = if word == "squares" {
                            &mut learned.squares
                        } else {
                            if learned.end_squares.is_empty() {
                                learned.end_squares = vec![vec![0; cells]; kinds];
                            }
                            &mut learned.end_squares
                        };
                        read_rank(rules, board, rank, row, &mut table[k])
                            .map_err(|e| format!("line {}: {e}", j + 1))?;
                    }
                }
                w if NET_WORDS.contains(&w) => {
                    let mut next = || lines.next();
                    Network::read_line(&mut learned.network, rules, (w, rest), &mut next)
                        .map_err(at)?;
                }
                _ => return Err(at(format!("unknown word `{word}`"))),
            }
        }
        if header.hash.is_empty() {
            return Err("no `hash` line".into());
        }
        Ok((learned, header))
    }
}

impl Learned {
    /// The royal-distance lines (`toward`, `guard`), where learned.
    fn distances_text(&self, rules: &Rules) -> String {
        let mut out = String::new();
        for (word, table) in [("toward", &self.toward), ("guard", &self.guard)] {
            for (k, row) in table.iter().enumerate().take(rules.pieces.len()) {
                if row.iter().any(|&w| w != 0) {
                    let (symbol, name) = (symbol(rules, k), &rules.pieces[k].name);
                    out += &format!("{word} {symbol} {}  # {name}\n", row_text(row));
                }
            }
        }
        out
    }

    /// The grids around the royal pieces (`around-own`, `around-enemy`), where learned.
    fn around_text(&self, rules: &Rules) -> String {
        let mut out = String::new();
        for (word, table) in [
            ("around-own", &self.around_own),
            ("around-enemy", &self.around_enemy),
        ] {
            for (k, grid) in table.iter().enumerate().take(rules.pieces.len()) {
                if grid.iter().all(|&w| w == 0) || grid.len() != AROUND_CELLS {
                    continue;
                }
                let (symbol, name) = (symbol(rules, k), &rules.pieces[k].name);
                out += &format!("{word} {symbol}  # {name}, the royal piece in the middle\n");
                for dy in (-AROUND_RADIUS..=AROUND_RADIUS).rev() {
                    let row: Vec<String> = (-AROUND_RADIUS..=AROUND_RADIUS)
                        .map(|dx| format!("{:4}", grid[around_index(dx, dy).expect("in")]))
                        .collect();
                    out += &format!("{}\n", row.join(" "));
                }
            }
        }
        for (word, row) in [
            ("crowd-own", &self.crowd_own),
            ("crowd-enemy", &self.crowd_enemy),
        ] {
            if row.iter().any(|&w| w != 0) {
                out += &format!("{word} {}\n", row_text(row));
            }
        }
        out
    }
}

/// A table of square bonuses per kind, each board's block headed by `word`.
fn squares_text(rules: &Rules, word: &str, squares: &[Vec<i32>]) -> String {
    let mut out = String::new();
    for (k, kind_squares) in squares.iter().enumerate().take(rules.pieces.len()) {
        for (b, board) in rules.geometry.boards.iter().enumerate() {
            let name = &rules.pieces[k].name;
            out += &format!("{word} {b} {}  # {name}\n", symbol(rules, k));
            for rank in (0..board.ranks).rev() {
                let row: Vec<String> = (0..board.files)
                    .map(|file| {
                        let cell = rules.geometry.cell_at(b, file as i32, rank as i32);
                        let v = cell.map_or(0, |c| kind_squares[c]);
                        format!("{v:4}")
                    })
                    .collect();
                out += &format!("{}\n", row.join(" "));
            }
        }
    }
    out
}

/// One rank of square bonuses, written from the first file.
fn read_rank(
    rules: &Rules,
    board: usize,
    rank: usize,
    row: &str,
    squares: &mut [i32],
) -> Result<(), String> {
    let files = rules.geometry.boards[board].files;
    let numbers: Vec<&str> = row.split_whitespace().collect();
    if numbers.len() != files {
        return Err(format!("{} numbers, not {files}", numbers.len()));
    }
    for (file, n) in numbers.into_iter().enumerate() {
        if let Some(c) = rules.geometry.cell_at(board, file as i32, rank as i32) {
            squares[c] = weight(n)?;
        }
    }
    Ok(())
}

/// A row of weights, separated by spaces.
fn weights(text: &str) -> Result<Vec<i32>, String> {
    text.split_whitespace().map(weight).collect()
}

/// A row of weights as the file writes it.
fn row_text(row: &[i32]) -> String {
    let numbers: Vec<String> = row.iter().map(i32::to_string).collect();
    numbers.join(" ")
}

/// A weight in centipawns, within ±[`MAX_WEIGHT`].
fn weight(text: &str) -> Result<i32, String> {
    text.trim()
        .parse::<i32>()
        .ok()
        .filter(|v| v.abs() <= MAX_WEIGHT)
        .ok_or_else(|| format!("`{text}` is not a whole number within ±{MAX_WEIGHT}"))
}

/// A piece kind's symbol in position strings, as its owner (or the first player)
/// writes it.
pub fn symbol(rules: &Rules, kind: usize) -> String {
    let side = rules.pieces[kind].owner.unwrap_or(Side::First);
    rules.code_symbol(crate::rules::code(kind, side))
}

/// The piece kind of this symbol.
fn kind_named(rules: &Rules, name: &str) -> Result<usize, String> {
    (0..rules.pieces.len())
        .find(|&k| symbol(rules, k) == name)
        .ok_or_else(|| format!("the rules have no piece `{name}`"))
}

/// The cell half a turn away on its board: where the first player sees what the
/// second player sees from `cell` (the second player's moves are the first's turned).
pub fn turned(geo: &Geometry, cell: Cell) -> Option<Cell> {
    let info = geo.cells.get(cell.index())?;
    let board = &geo.boards[info.board];
    geo.cell_at(
        info.board,
        (board.files - 1 - info.file) as i32,
        (board.ranks - 1 - info.rank) as i32,
    )
}

/// The cell mirrored left to right on its board.
pub fn mirrored(geo: &Geometry, cell: Cell) -> Option<Cell> {
    let info = geo.cells.get(cell.index())?;
    let board = &geo.boards[info.board];
    geo.cell_at(
        info.board,
        (board.files - 1 - info.file) as i32,
        info.rank as i32,
    )
}

/// The cell with its rank mirrored on its board.
pub fn flipped(geo: &Geometry, cell: Cell) -> Option<Cell> {
    let info = geo.cells.get(cell.index())?;
    let board = &geo.boards[info.board];
    geo.cell_at(
        info.board,
        info.file as i32,
        (board.ranks - 1 - info.rank) as i32,
    )
}

/// Where the values of the rule file at `rules_path` are kept: `GAME.values`.
pub fn values_path(rules_path: &Path) -> PathBuf {
    rules_path.with_extension("values")
}

/// The learned weights beside a rule file, if there is a values file fitted to its
/// present text. A stale or unreadable file gives a warning (and no weights).
pub fn load_beside(rules: &Rules, rules_path: &Path) -> (Option<Learned>, Option<String>) {
    load_file(rules, rules_path, &values_path(rules_path), false)
}

/// The learned weights in `values`, for the rule file at `rules_path`. `asked`: the
/// file was named (its absence is then worth a warning too).
pub fn load_file(
    rules: &Rules,
    rules_path: &Path,
    values: &Path,
    asked: bool,
) -> (Option<Learned>, Option<String>) {
    let shown = values.display();
    let text = match std::fs::read_to_string(values) {
        Ok(t) => t,
        Err(e) if !asked && e.kind() == std::io::ErrorKind::NotFound => return (None, None),
        Err(e) => return (None, Some(format!("warning: cannot read {shown}: {e}"))),
    };
    let (learned, header) = match Learned::parse(&text, rules) {
        Ok(x) => x,
        Err(e) => return (None, Some(format!("warning: {shown}: {e}; ignored"))),
    };
    let hash = match std::fs::read_to_string(rules_path) {
        Ok(source) => crate::pgn::text_hash(&source),
        Err(e) => {
            let why = format!("cannot read {} to check it: {e}", rules_path.display());
            return (None, Some(format!("warning: {shown} ignored: {why}")));
        }
    };
    if header.hash != hash {
        let warning = format!(
            "warning: {shown} was fitted to another text of {} ({} ≠ {hash}): ignored; `varsand tune {}` fits it again",
            rules_path.display(),
            header.hash,
            rules_path.display()
        );
        return (None, Some(warning));
    }
    (Some(learned), None)
}

/// The evaluation for rules read from `rules_path`: with the learned weights beside
/// it when they are fresh. A warning (a stale file) goes to standard error.
pub fn eval_beside(rules: &Rules, rules_path: &Path) -> super::Eval {
    let (learned, warning) = load_beside(rules, rules_path);
    if let Some(w) = warning {
        eprintln!("{w}");
    }
    match learned {
        Some(l) => super::Eval::with_learned(rules, &l),
        None => super::Eval::new(rules),
    }
}

/// The evaluation for rules read from the text `source`, with the weights of a values
/// file's text `values` when they were fitted to that very text; otherwise the rules'
/// own, with a warning saying why. For callers that hold texts rather than files (the
/// Python package, whose Ray tasks receive the texts on other machines).
pub fn eval_of_texts(
    rules: &Rules,
    source: &str,
    values: Option<&str>,
) -> (super::Eval, Option<String>) {
    let Some(text) = values else {
        return (super::Eval::new(rules), None);
    };
    match Learned::parse(text, rules) {
        Ok((learned, header)) if header.hash == crate::pgn::text_hash(source) => {
            (super::Eval::with_learned(rules, &learned), None)
        }
        Ok(_) => (
            super::Eval::new(rules),
            Some("warning: the values were fitted to another text of the rules: ignored".into()),
        ),
        Err(e) => (
            super::Eval::new(rules),
            Some(format!("warning: the values: {e}; ignored")),
        ),
    }
}
