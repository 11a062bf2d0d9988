//! A small learned network (`varsand tune --network`), added to the evaluation: what
//! the linear terms cannot say, the way pieces stand together (a royal piece's
//! shelter with its attackers, a chain of runners behind a leaper), learned from a
//! teacher's scores as a correction of the evaluation that plays without it.
//!
//! Its inputs are the pieces seen from the side to move: one input per (whose,
//! kind, cell), `whose` 0 for the side to move's pieces and 1 for the opponent's,
//! the cell as the side to move sees it (the second player's board turned to the
//! first player's side, by [`Perspective`]); then one per (whose, kind) counting
//! the pieces in hand. One hidden layer of clipped rectified units (each between 0
//! and 1) feeds one output: centipawns for the side to move. Sharing the weights
//! between the sides (one set of inputs for "mine" and "theirs") halves what has to
//! be learned, and is what a game whose sides mirror each other means.
//!
//! It is evaluated from scratch at each call: a few dozen rows of weights summed, a
//! microsecond; the node-limited strength it buys does not depend on its speed.

use crate::ids::Side;
use crate::model::{Code, kind_of, side_of};
use crate::rules::{Cell, Rules};

/// The most hidden units a network may have (the file's range check, and the size of
/// the evaluation's buffer on the stack).
pub const MAX_HIDDEN: usize = 128;

/// Centipawns per unit of the network's output: the weights stay near 1 in size.
pub const OUTPUT_SCALE: f32 = 100.0;

/// The largest bound a file may give the network's correction, in centipawns.
pub const MAX_BOUND: f32 = 1000.0;

/// How the second player's cells are turned to be seen from the first player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perspective {
    /// Ranks mirrored, files kept: for setups that mirror rank for rank.
    Flip,
    /// Half a turn: files and ranks mirrored, for setups that turn so.
    Turn,
}

impl Perspective {
    /// Its word in a values file.
    pub fn word(self) -> &'static str {
        match self {
            Perspective::Flip => "flip",
            Perspective::Turn => "turn",
        }
    }

    pub fn from_word(word: &str) -> Option<Self> {
        match word {
            "flip" => Some(Perspective::Flip),
            "turn" => Some(Perspective::Turn),
            _ => None,
        }
    }

    /// The perspective under which the rules' setup maps to itself with the sides
    /// swapped (flipping first: it keeps each piece on its own file); `Turn` when
    /// neither does.
    pub fn of(rules: &Rules) -> Self {
        let setup = crate::engine::Position::start(std::sync::Arc::new(rules.clone()));
        let board = setup.board();
        let cells = rules.cell_count().min(board.len());
        let maps_to_itself = |p: Perspective| {
            let map = cell_map(rules, p);
            (0..cells).all(|cell| {
                let c = board[cell];
                let there = board[map[cell] as usize];
                match (c, there) {
                    (0, 0) => true,
                    (0, _) | (_, 0) => false,
                    (a, b) => kind_of(a) == kind_of(b) && side_of(a) != side_of(b),
                }
            })
        };
        if maps_to_itself(Perspective::Flip) {
            Perspective::Flip
        } else {
            Perspective::Turn
        }
    }
}

/// Per cell, the cell the first player sees in its place when the board is turned
/// by `p` (a cell with no counterpart keeps its own index).
pub fn cell_map(rules: &Rules, p: Perspective) -> Vec<u16> {
    let geo = &rules.geometry;
    (0..rules.cell_count())
        .map(|i| {
            let cell = Cell::new(i);
            let other = match p {
                Perspective::Flip => super::learned::flipped(geo, cell),
                Perspective::Turn => super::learned::turned(geo, cell),
            };
            other.map_or(i, Cell::index) as u16
        })
        .collect()
}

/// The network's weights and the tables that read a position into its inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    pub perspective: Perspective,
    pub kinds: usize,
    pub cells: usize,
    pub hidden: usize,
    /// Per input ([`Network::inputs`] of them), `hidden` weights.
    pub w1: Vec<f32>,
    /// Per hidden unit, its bias.
    pub b1: Vec<f32>,
    /// Per hidden unit, its weight in the output.
    pub w2: Vec<f32>,
    pub b2: f32,
    /// The most the network adds or takes away, in centipawns: its output is squashed
    /// smoothly into ±bound ([`Network::squash`]), so that where it has learned
    /// little (material far from any it saw) it cannot outweigh the evaluation it
    /// corrects, and the search cannot find positions it overrates without limit.
    pub bound: f32,
    /// Per cell, where the second player's piece there is seen ([`cell_map`]).
    map: Vec<u16>,
}

impl Network {
    /// A network of zeros for the rules (it adds nothing).
    pub fn zeros(rules: &Rules, perspective: Perspective, hidden: usize, bound: f32) -> Self {
        let kinds = rules.pieces.len();
        let cells = rules.cell_count();
        let inputs = input_count(kinds, cells);
        Self {
            perspective,
            kinds,
            cells,
            hidden,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
            bound,
            map: cell_map(rules, perspective),
        }
    }

    /// How many inputs it has.
    pub fn inputs(&self) -> usize {
        input_count(self.kinds, self.cells)
    }

    /// The input of a piece of `whose` (0: the side to move's) on the board.
    #[inline]
    pub fn board_input(&self, whose: usize, kind: usize, cell: usize) -> usize {
        (whose * self.kinds + kind) * self.cells + cell
    }

    /// The input counting the pieces of `whose` in hand.
    #[inline]
    pub fn hand_input(&self, whose: usize, kind: usize) -> usize {
        2 * self.kinds * self.cells + whose * self.kinds + kind
    }

    /// Calls `f(input, count)` for each of the position's active inputs, seen from
    /// the side to move.
    pub fn for_each_input(&self, pos: &crate::engine::Position, mut f: impl FnMut(usize, f32)) {
        let us = pos.side_to_move();
        let board = pos.board();
        let n = self.cells.min(board.len());
        let turned = !us.is_first();
        crate::engine::for_each_occupied_square(&board[..n], |cell| {
            let c: Code = board[cell];
            let kind = kind_of(c);
            if kind >= self.kinds {
                return;
            }
            let whose = usize::from(side_of(c) != us);
            let seen = if turned {
                self.map[cell] as usize
            } else {
                cell
            };
            f(self.board_input(whose, kind, seen), 1.0);
        });
        for side in [Side::First, Side::Second] {
            let whose = usize::from(side != us);
            for kind in 0..self.kinds {
                let count = pos.in_hand(side, kind);
                if count > 0 {
                    f(self.hand_input(whose, kind), f32::from(count));
                }
            }
        }
    }

    /// The network's output for the position: centipawns for the side to move.
    pub fn evaluate(&self, pos: &crate::engine::Position) -> i32 {
        let h = self.hidden;
        let mut sum = [0f32; MAX_HIDDEN];
        let sum = &mut sum[..h];
        sum.copy_from_slice(&self.b1);
        self.for_each_input(pos, |input, count| {
            let row = &self.w1[input * h..][..h];
            if count == 1.0 {
                for (s, w) in sum.iter_mut().zip(row) {
                    *s += w;
                }
            } else {
                for (s, w) in sum.iter_mut().zip(row) {
                    *s += count * w;
                }
            }
        });
        let out = self.b2
            + sum
                .iter()
                .zip(&self.w2)
                .map(|(s, w)| s.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        self.squash(out).round() as i32
    }

    /// The correction in centipawns of a raw output: `bound × tanh(raw × scale / bound)`
    /// (near zero it is `raw × scale`).
    #[inline]
    pub fn squash(&self, raw: f32) -> f32 {
        self.bound * (raw * OUTPUT_SCALE / self.bound).tanh()
    }
}

/// Inputs of a network for `kinds` piece kinds on `cells` cells.
pub fn input_count(kinds: usize, cells: usize) -> usize {
    2 * kinds * cells + 2 * kinds
}

/// The largest weight a file may give a network (larger ones are typing errors).
const MAX_NET_WEIGHT: f32 = 1000.0;

/// The first words of the comment that opens a values file's network.
pub const HEADING: &str = "# A learned network";

/// The words of a values file's lines that belong to the network.
pub const WORDS: [&str; 5] = ["network", "net-bias", "net-out", "net-input", "net-hand"];

impl Network {
    /// The network's lines of a values file.
    pub fn to_text(&self, rules: &Rules) -> String {
        let mut out = String::new();
        out += &format!("{HEADING} (`varsand tune --network`), added to the evaluation above:\n");
        out += "# hidden units and how the second player's board is seen, the hidden units'\n";
        out += "# biases, the output's bias and weights, then per piece (of the side to move:\n";
        out += "# own, or of the other side) one line of weights per cell in the rules' order\n";
        out += "# (a1, b1, ... on the first board), and per piece in hand one line.\n";
        out += &format!(
            "network {} {} {}\n",
            self.hidden,
            self.perspective.word(),
            float_text(self.bound)
        );
        out += &format!("net-bias {}\n", floats_text(&self.b1));
        out += &format!(
            "net-out {} {}\n",
            float_text(self.b2),
            floats_text(&self.w2)
        );
        let h = self.hidden;
        for (whose, word) in WHOSE.iter().enumerate() {
            for kind in 0..self.kinds {
                let name = super::learned::symbol(rules, kind);
                out += &format!("net-input {word} {name}\n");
                for cell in 0..self.cells {
                    let i = self.board_input(whose, kind, cell);
                    out += &format!("  {}\n", floats_text(&self.w1[i * h..][..h]));
                }
            }
        }
        for (whose, word) in WHOSE.iter().enumerate() {
            for kind in 0..self.kinds {
                let i = self.hand_input(whose, kind);
                let name = super::learned::symbol(rules, kind);
                let row = floats_text(&self.w1[i * h..][..h]);
                out += &format!("net-hand {word} {name} {row}\n");
            }
        }
        out
    }

    /// Reads one of the network's lines (`word` one of [`WORDS`], `rest` what follows
    /// it); `next` gives the following lines (numbered) for `net-input`'s rows.
    /// `net` is the network so far (`network` starts it).
    pub fn read_line<'a>(
        net: &mut Option<Network>,
        rules: &Rules,
        (word, rest): (&str, &str),
        next: &mut dyn FnMut() -> Option<(usize, &'a str)>,
    ) -> Result<(), String> {
        if word == "network" {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [h, p, b] = words[..] else {
                return Err(format!(
                    "`network` takes hidden units, `flip` or `turn`, and a bound, not `{rest}`"
                ));
            };
            let hidden: usize = h
                .parse()
                .ok()
                .filter(|h| (1..=MAX_HIDDEN).contains(h))
                .ok_or_else(|| format!("`{h}`: a network has 1 to {MAX_HIDDEN} hidden units"))?;
            let p = Perspective::from_word(p)
                .ok_or_else(|| format!("`{p}`: the perspective is `flip` or `turn`"))?;
            let bound: f32 = b
                .parse()
                .ok()
                .filter(|b: &f32| *b >= 1.0 && *b <= MAX_BOUND)
                .ok_or_else(|| format!("`{b}`: the bound is 1 to {MAX_BOUND} centipawns"))?;
            *net = Some(Network::zeros(rules, p, hidden, bound));
            return Ok(());
        }
        let net = net
            .as_mut()
            .ok_or_else(|| format!("`{word}` before the `network` line"))?;
        let h = net.hidden;
        match word {
            "net-bias" => net.b1 = floats(rest, h)?,
            "net-out" => {
                let row = floats(rest, h + 1)?;
                net.b2 = row[0];
                net.w2 = row[1..].to_vec();
            }
            "net-input" => {
                let (whose, kind) = whose_and_kind(rules, rest)?;
                for cell in 0..net.cells {
                    let (j, line) = next().ok_or_else(|| format!("{rest}: the rows end early"))?;
                    let row = floats(line, h).map_err(|e| format!("line {}: {e}", j + 1))?;
                    let i = net.board_input(whose, kind, cell);
                    net.w1[i * h..][..h].copy_from_slice(&row);
                }
            }
            _ => {
                let (head, numbers) = split_words(rest, 2);
                let (whose, kind) = whose_and_kind(rules, &head)?;
                let row = floats(numbers, h)?;
                let i = net.hand_input(whose, kind);
                net.w1[i * h..][..h].copy_from_slice(&row);
            }
        }
        Ok(())
    }
}

/// `own` (the side to move's pieces) and `other`, as the file says them.
const WHOSE: [&str; 2] = ["own", "other"];

fn whose_and_kind(rules: &Rules, text: &str) -> Result<(usize, usize), String> {
    let (w, name) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
    let whose = WHOSE
        .iter()
        .position(|x| *x == w)
        .ok_or_else(|| format!("`{w}`: whose pieces is `own` or `other`"))?;
    let name = name.trim();
    let kind = (0..rules.pieces.len())
        .find(|&k| super::learned::symbol(rules, k) == name)
        .ok_or_else(|| format!("the rules have no piece `{name}`"))?;
    Ok((whose, kind))
}

/// The first `n` words of `text` (joined by a space) and the rest.
fn split_words(text: &str, n: usize) -> (String, &str) {
    let mut rest = text.trim_start();
    let mut head = Vec::new();
    for _ in 0..n {
        let (w, r) = rest.split_once(' ').unwrap_or((rest, ""));
        head.push(w);
        rest = r.trim_start();
    }
    (head.join(" "), rest)
}

/// Exactly `n` finite numbers within [`MAX_NET_WEIGHT`].
fn floats(text: &str, n: usize) -> Result<Vec<f32>, String> {
    let row: Vec<f32> = text
        .split_whitespace()
        .map(|w| {
            w.parse::<f32>()
                .ok()
                .filter(|x| x.is_finite() && x.abs() <= MAX_NET_WEIGHT)
                .ok_or_else(|| format!("`{w}` is not a weight (a number within ±{MAX_NET_WEIGHT})"))
        })
        .collect::<Result<_, _>>()?;
    if row.len() != n {
        return Err(format!("{} numbers, not {n}", row.len()));
    }
    Ok(row)
}

fn float_text(x: f32) -> String {
    let s = format!("{x:.4}");
    match s.as_str() {
        "-0.0000" | "0.0000" => "0".into(),
        _ => s.trim_end_matches('0').trim_end_matches('.').to_string(),
    }
}

fn floats_text(row: &[f32]) -> String {
    row.iter()
        .map(|&x| float_text(x))
        .collect::<Vec<_>>()
        .join(" ")
}
