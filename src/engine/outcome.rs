//! How a game ends: the file's end rules, applied in the order they are written
//! (rules that need no legal move first, then repetition and move limits).

use super::{Move, MoveKind, Position};
use crate::ids::CounterId;
use crate::ids::Side;
use crate::rules::{
    Cell, Code, EMPTY, EndRule, NO_CELL, Outcome, PieceKind, Rules, ZoneId, code, kind_of, side_of,
};

/// Which end rule ended a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    /// No legal move (a `no-moves` rule).
    NoMoves,
    /// No legal move, and no end rule says what that means: a draw.
    NoRuleApplies,
    /// The position occurred this many times.
    Repetition(u32),
    /// This many moves by each side without progress.
    MoveLimit(u32),
    /// A piece of this type was captured (a `captured PIECE` rule).
    Captured(PieceKind),
    /// A piece of this type left the board (an `exited PIECE` rule).
    Exited(PieceKind),
    /// A piece of this type reached a zone (a `reached PIECE in ZONE` rule).
    Reached(PieceKind),
    /// Only royal pieces were left (a `bare-king` rule).
    BareKing,
    /// The two players' pieces of this type still faced each other after a pass.
    Facing(PieceKind),
    /// This many passes in a row.
    Passes(u32),
    /// A player's pieces (of this type, or all of them) came to a count (a
    /// `pieces-left` rule).
    PiecesLeft(Option<PieceKind>, i64),
    /// A player's counter came to a value (a `counter` end rule).
    Counter(CounterId, i64),
    /// Every square of the main board holds a piece (a `board-full` rule).
    BoardFull,
}

impl EndReason {
    /// The kind of ending without the player: "checkmate", "Queen captured". Analysis
    /// counts endings by these words.
    pub fn words(self, rules: &Rules) -> String {
        match self {
            EndReason::Checkmate => "checkmate".into(),
            EndReason::Stalemate => "stalemate".into(),
            EndReason::NoMoves => "no legal move".into(),
            EndReason::NoRuleApplies => "no legal move (no end rule applies)".into(),
            EndReason::Repetition(k) => format!("repetition ({k} times)"),
            EndReason::MoveLimit(k) => format!("move limit ({k} moves)"),
            EndReason::Captured(kind) => format!("{} captured", rules.piece(kind).name),
            EndReason::Exited(kind) => format!("{} left the board", rules.piece(kind).name),
            EndReason::Reached(kind) => format!("{} reached its goal", rules.piece(kind).name),
            EndReason::BareKing => "bare king".into(),
            EndReason::Facing(kind) => format!("{}s facing", rules.piece(kind).name),
            EndReason::Passes(k) => format!("{k} passes in a row"),
            EndReason::PiecesLeft(None, _) => "pieces left".into(),
            EndReason::PiecesLeft(Some(kind), _) => format!("{}s left", rules.piece(kind).name),
            EndReason::Counter(c, _) => format!("counter {}", rules.counters[c.index()]),
            EndReason::BoardFull => "board full".into(),
        }
    }
}

/// The end of a game: the reason, the player it is about, and who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// The side the rule is about: the checkmated or stalemated player, the one
    /// whose piece was captured or left, the player to move for repetition and move
    /// limits.
    pub side: Side,
}

impl GameEnd {
    /// The ending in words, with the player: "black is checkmated".
    pub fn describe(&self, rules: &Rules) -> String {
        let who = &rules.players[self.side].name;
        match self.reason {
            EndReason::Checkmate => format!("{who} is checkmated"),
            EndReason::Stalemate => format!("{who} is stalemated"),
            EndReason::NoMoves => format!("{who} has no legal move"),
            EndReason::NoRuleApplies => {
                format!("{who} has no legal move (no end rule applies: a draw)")
            }
            EndReason::Repetition(k) => format!("the position occurred {k} times"),
            EndReason::MoveLimit(k) => {
                format!("{k} moves by each side without a capture or other progress")
            }
            EndReason::Captured(kind) => {
                format!("{who}'s {} was captured", rules.piece(kind).name)
            }
            EndReason::Exited(kind) => {
                format!("{who}'s {} left the board", rules.piece(kind).name)
            }
            EndReason::Reached(kind) if self.winner.is_none() => format!(
                "both players' {} reached their goal: a draw",
                rules.piece(kind).name
            ),
            EndReason::Reached(kind) => {
                format!("{who}'s {} reached its goal", rules.piece(kind).name)
            }
            EndReason::BareKing => format!("{who} has nothing left but royal pieces"),
            EndReason::Facing(kind) => {
                let name = &rules.piece(kind).name;
                format!("the {name}s still face each other after a pass")
            }
            EndReason::Passes(k) => format!("{k} passes in a row"),
            EndReason::PiecesLeft(None, n) => format!("{who} has {n} pieces left"),
            EndReason::PiecesLeft(Some(kind), n) => {
                format!("{who} has {n} {}s left", rules.piece(kind).name)
            }
            EndReason::Counter(c, n) => {
                format!("{who}'s counter {} reached {n}", rules.counters[c.index()])
            }
            EndReason::BoardFull => "the board is full".into(),
        }
    }
}

/// Why a move typed by a user cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoMove {
    pub message: String,
}

impl std::fmt::Display for NoMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NoMove {}

impl Position {
    /// The game ends with result `o` for `side`, for `reason`.
    fn ended(&self, side: Side, o: Outcome, reason: EndReason) -> GameEnd {
        GameEnd {
            winner: self.result_for(side, o),
            reason,
            side,
        }
    }

    /// The winner when a rule gives `side` the result `o`, if not a draw.
    fn result_for(&self, side: Side, o: Outcome) -> Option<Side> {
        match self.settle(side, o) {
            Outcome::Win => Some(side),
            Outcome::Loss => Some(side.opponent()),
            _ => None,
        }
    }

    /// The result `o` for `side`, with `by-count` decided: more pieces on the board
    /// than the other player a win, fewer a loss, as many a draw.
    pub fn settle(&self, side: Side, o: Outcome) -> Outcome {
        if o != Outcome::ByCount {
            return o;
        }
        let on_board = |s: Side| -> u32 {
            (1..self.counts.len())
                .filter(|&c| side_of(c as u8) == s)
                .map(|c| u32::from(self.counts[c]))
                .sum()
        };
        match on_board(side).cmp(&on_board(side.opponent())) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Loss,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Does every square of the main board hold a piece (or terrain)?
    fn board_full(&self) -> bool {
        (self.rules.geometry.board_cells(0)).all(|c| self.board[c] != EMPTY || self.terrain[c] != 0)
    }

    /// An end rule that ends the game at once, whatever moves remain: a piece
    /// captured or gone off the board, a zone reached, a bare king, passes, a facing
    /// that stood after a pass. Moves stop there (as in Fairy-Stockfish's move
    /// generator).
    pub(crate) fn decided(&mut self) -> Option<GameEnd> {
        if self.rules.tables.ends.at_once.is_empty() {
            return None;
        }
        for k in 0..self.rules.tables.ends.at_once.len() {
            let i = self.rules.tables.ends.at_once[k];
            let end = match self.rules.end_rules[i] {
                EndRule::Captured(kind, o) => self
                    .lost_every(kind)
                    .map(|side| self.ended(side, o, EndReason::Captured(kind))),
                EndRule::Exited(kind, o) => Side::BOTH
                    .into_iter()
                    .find(|&side| self.exited[side] >> kind.index() & 1 != 0)
                    .map(|side| self.ended(side, o, EndReason::Exited(kind))),
                EndRule::Reached {
                    kind,
                    unattacked: true,
                    outcome,
                    ..
                } => self.reached_unattacked(i, kind, outcome),
                EndRule::Reached {
                    kind,
                    zone,
                    reply,
                    outcome,
                    ..
                } => self.reached_end(i, kind, zone, reply, outcome),
                EndRule::BareKing(o) => self.bare_end(o),
                EndRule::Passes(..) | EndRule::Facing(..) => self
                    .pass_end()
                    .map(|(reason, o)| self.ended(self.side, o, reason)),
                EndRule::BoardFull(o) => self
                    .board_full()
                    .then(|| self.ended(self.side, o, EndReason::BoardFull)),
                EndRule::PiecesLeft {
                    kind,
                    op,
                    count,
                    outcome,
                } => self.mover_first(|pos, side| {
                    let n = pos.pieces_left(side, kind);
                    op.holds(n, count)
                        .then(|| pos.ended(side, outcome, EndReason::PiecesLeft(kind, n)))
                }),
                EndRule::Counter(c, op, count, o) => self.mover_first(|pos, side| {
                    let n = pos.counter(side, c.index());
                    op.holds(n, count)
                        .then(|| pos.ended(side, o, EndReason::Counter(c, n)))
                }),
                _ => None,
            };
            if end.is_some() {
                return end;
            }
        }
        None
    }

    /// `end` for the player who just moved, else for the player to move (as
    /// Fairy-Stockfish reads its extinction and check-counting rules).
    fn mover_first(&self, end: impl Fn(&Self, Side) -> Option<GameEnd>) -> Option<GameEnd> {
        end(self, self.side.opponent()).or_else(|| end(self, self.side))
    }

    /// How many pieces of `kind` (of every kind with `None`) `side` has, on the board
    /// and in hand.
    pub(crate) fn pieces_left(&self, side: Side, kind: Option<PieceKind>) -> i64 {
        let kinds = self.rules.pieces.len();
        let of = |k: usize| {
            i64::from(self.counts[code(k, side) as usize])
                + i64::from(self.hand[side.index() * kinds + k])
        };
        match kind {
            Some(k) => of(k.index()),
            None => (0..kinds).map(of).sum(),
        }
    }

    /// The side that has lost every piece of `kind` the setup gave it, if one:
    /// pieces in hand count as not captured.
    fn lost_every(&self, kind: PieceKind) -> Option<Side> {
        let rules = &*self.rules;
        let kinds = rules.pieces.len();
        Side::BOTH.into_iter().find(|&side| {
            let c = code(kind.index(), side) as usize;
            let had = rules.tables.home.counts.get(c).is_some_and(|&n| n > 0);
            had && self.counts[c] == 0 && self.hand[side.index() * kinds + kind.index()] == 0
        })
    }

    /// Does a piece of `kind` of `side` stand in the zone of end rule `rule`?
    fn has_reached(&self, rule: usize, side: Side, kind: PieceKind) -> bool {
        let c = code(kind.index(), side);
        self.counts[c as usize] > 0
            && self.rules.tables.ends.reach_cells[rule][side]
                .iter()
                .any(|&cell| self.board[cell] == c)
    }

    /// End rule `rule`, `reached PIECE in ZONE`: the side that just moved got there
    /// (it gets `o`). With a reply, as Fairy-Stockfish plays racing to a zone: the
    /// first player's arrival waits for the second player's answer, unless that
    /// player cannot get there at once; the answer draws if it gets there too. With
    /// a reply and a piece that is not royal (Fairy-Stockfish's flag move for any
    /// other flag piece): either player's arrival waits for the other's answer, and
    /// wins if a piece of the kind still stands in the zone after it.
    fn reached_end(
        &mut self,
        rule: usize,
        kind: PieceKind,
        zone: ZoneId,
        reply: bool,
        o: Outcome,
    ) -> Option<GameEnd> {
        let (us, them) = (self.side, self.side.opponent());
        let reason = EndReason::Reached(kind);
        if reply && self.rules.tables.kinds.royal >> kind.index() & 1 == 0 {
            // A piece that is not royal: the other player always answers, and the
            // arrival wins only if a piece of the kind still stands in the zone.
            return self
                .has_reached(rule, us, kind)
                .then(|| self.ended(us, o, reason));
        }
        if reply && self.has_reached(rule, us, kind) {
            // We arrived before the answer: a draw if the answer arrived too.
            if us.is_first() && self.has_reached(rule, them, kind) {
                return Some(GameEnd {
                    winner: None,
                    reason,
                    side: us,
                });
            }
            return Some(self.ended(us, o, reason));
        }
        if !self.has_reached(rule, them, kind) {
            return None;
        }
        if reply && them.is_first() && !self.in_check(us) && self.can_reach(kind, zone) {
            return None;
        }
        Some(self.ended(them, o, reason))
    }

    /// End rule `rule`, `reached PIECE in ZONE unattacked`: a player with a piece of
    /// `kind` in the zone on a square no enemy piece attacks gets `o`, the player to
    /// move looked at first (as Fairy-Stockfish reads its safe flag); both at once
    /// draw.
    fn reached_unattacked(&self, rule: usize, kind: PieceKind, o: Outcome) -> Option<GameEnd> {
        let safe = |side: Side| {
            let c = code(kind.index(), side);
            self.counts[c as usize] > 0
                && self.rules.tables.ends.reach_cells[rule][side]
                    .iter()
                    .any(|&cell| self.board[cell] == c && !self.attacked(cell, side.opponent()))
        };
        let (us, them) = (self.side, self.side.opponent());
        let reason = EndReason::Reached(kind);
        match (safe(us), safe(them)) {
            (true, true) => Some(GameEnd {
                winner: None,
                reason,
                side: us,
            }),
            (true, false) => Some(self.ended(us, o, reason)),
            (false, true) => Some(self.ended(them, o, reason)),
            (false, false) => None,
        }
    }

    /// Has the side to move a legal move that brings a piece of `kind` into `zone`?
    fn can_reach(&mut self, kind: PieceKind, zone: ZoneId) -> bool {
        let mut moves = self.scratch.lend();
        let us = self.side;
        let any = self.has_move_that(&mut moves, |pos, m| {
            m.from != NO_CELL
                && m.to != NO_CELL
                && kind_of(pos.board[m.from]) == kind.index()
                && pos.rules.zone_contains(zone, us, m.to)
                && pos.is_legal(m)
                && !(pos.rules.forbid_check && pos.gives_check(m))
        });
        self.scratch.give_back(moves);
        any
    }

    /// `bare-king`, as Fairy-Stockfish plays it: a side left with only royal pieces
    /// after its own move has lost (it gets `o`) while the other has more; a bared
    /// side to move has lost if the other has two pieces or more besides royal ones,
    /// and may otherwise try to bare the other at once (a draw).
    fn bare_end(&self, o: Outcome) -> Option<GameEnd> {
        let (us, them) = (self.side, self.side.opponent());
        let (ours, theirs) = (self.non_royal(us), self.non_royal(them));
        if theirs == 0 && ours > 0 {
            return Some(self.ended(them, o, EndReason::BareKing));
        }
        if ours == 0 && theirs >= 2 {
            return Some(self.ended(us, o, EndReason::BareKing));
        }
        None
    }

    /// How many pieces other than royal ones a side has, on the board and in hand.
    fn non_royal(&self, side: Side) -> usize {
        let rules = &*self.rules;
        let kinds = rules.pieces.len();
        (0..kinds)
            .filter(|&k| rules.tables.kinds.royal >> k & 1 == 0)
            .map(|k| {
                self.counts[code(k, side) as usize] as usize
                    + self.hand[side.index() * kinds + k] as usize
            })
            .sum()
    }

    /// Does `m` give check (leave a royal piece of the other side attacked)?
    pub(crate) fn gives_check(&mut self, m: Move) -> bool {
        // Where attacks are read from the board alone, an ordinary move is put on
        // the board only (not one taking a royal piece: the opponent's list of royal
        // squares would be behind the board).
        let t = &self.rules.tables;
        if t.legality.on_board
            && self.is_board_step(m)
            && (self.board[m.to] == EMPTY || t.kinds.royal >> kind_of(self.board[m.to]) & 1 == 0)
        {
            let (from, to) = (m.from.index(), m.to.index());
            let piece = std::mem::replace(&mut self.board[from], EMPTY);
            let placed = if m.promo != EMPTY { m.promo } else { piece };
            let taken = std::mem::replace(&mut self.board[to], placed);
            let check = self.in_check(self.side.opponent());
            self.board[to] = taken;
            self.board[from] = piece;
            return check;
        }
        self.make(m);
        let check = self.in_check(self.side);
        self.unmake();
        check
    }

    /// Has a rule that needs no legal move ended the game (a capture, an exit, a
    /// zone reached, a bare king)?
    #[inline]
    pub fn is_decided(&mut self) -> bool {
        self.decided().is_some()
    }

    /// Has the game ended, and how? Checks every end rule.
    /// Asks whether a legal move exists without listing them, and touches nothing
    /// shared between threads (the rules' reference count included).
    pub fn outcome(&mut self) -> Option<GameEnd> {
        if let Some(end) = self.decided() {
            return Some(end);
        }
        let us = self.side;
        if !self.has_legal_moves() {
            let end = |o: Outcome, reason| self.ended(us, o, reason);
            let check = self.in_check(us);
            let rule = self.rules.end_rules.iter().find_map(|rule| match *rule {
                EndRule::Checkmate(o) if check => Some(end(o, EndReason::Checkmate)),
                EndRule::Stalemate(o) if !check => Some(end(o, EndReason::Stalemate)),
                EndRule::NoMoves(o) => Some(end(o, EndReason::NoMoves)),
                _ => None,
            });
            return Some(rule.unwrap_or(end(Outcome::Draw, EndReason::NoRuleApplies)));
        }
        let end = |o: Outcome, reason| self.ended(us, o, reason);
        self.rules.end_rules.iter().find_map(|rule| match *rule {
            EndRule::Repetition(k, o) if self.repetitions() >= k => {
                Some(end(o, EndReason::Repetition(k)))
            }
            EndRule::MoveLimit(k, o) if self.halfmove >= 2 * k => {
                Some(end(o, EndReason::MoveLimit(k)))
            }
            _ => None,
        })
    }

    /// A `passes` or `facing` rule that ends the game here (read from the last moves
    /// and the board, without generating moves): the reason and the result for the
    /// player to move.
    pub fn pass_end(&self) -> Option<(EndReason, Outcome)> {
        let rules = &*self.rules;
        let passed = |back: usize| {
            self.history.len() >= back
                && self.history[self.history.len() - back..]
                    .iter()
                    .all(|u| u.mv.kind == MoveKind::Pass)
        };
        rules.end_rules.iter().find_map(|rule| match *rule {
            EndRule::Passes(k, o) if passed(k as usize) => Some((EndReason::Passes(k), o)),
            EndRule::Facing(kind, o) if passed(1) && self.facing(kind) => {
                Some((EndReason::Facing(kind), o))
            }
            _ => None,
        })
    }

    /// The piece type of the game's `facing` rule, if it has one.
    #[inline]
    pub(crate) fn facing_kind(&self) -> Option<PieceKind> {
        self.rules.tables.ends.facing
    }

    /// Do a piece of `kind` of each player stand on one file or rank of the main
    /// board with no piece between them?
    pub(crate) fn facing(&self, kind: PieceKind) -> bool {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let (first, second) = (
            code(kind.index(), Side::First),
            code(kind.index(), Side::Second),
        );
        if self.counts[first as usize] == 0 || self.counts[second as usize] == 0 {
            return false;
        }
        let faces = |a: Cell, b: Cell| {
            let (ca, cb) = (&geo.cells[a], &geo.cells[b]);
            if ca.board != 0 || cb.board != 0 || (ca.file != cb.file && ca.rank != cb.rank) {
                return false;
            }
            let dx = (cb.file as i32 - ca.file as i32).signum();
            let dy = (cb.rank as i32 - ca.rank as i32).signum();
            let mut cur = a;
            loop {
                match geo.offset(cur, dx, dy) {
                    Some(next) if next == b => return true,
                    Some(next) if self.board[next] == EMPTY => cur = next,
                    _ => return false,
                }
            }
        };
        // Royal pieces are listed; others are looked for on the board. Asked for
        // every move under the rule: nothing is collected.
        if rules.tables.kinds.royal >> kind.index() & 1 != 0 {
            let listed = |c: Code| {
                self.royals
                    .of(side_of(c))
                    .iter()
                    .copied()
                    .filter(move |&s| self.board[s] == c)
            };
            listed(first).any(|a| listed(second).any(|b| faces(a, b)))
        } else {
            let on_board = |c: Code| {
                (0..self.board.len())
                    .filter(move |&s| self.board[s] == c)
                    .map(Cell::new)
            };
            on_board(first).any(|a| on_board(second).any(|b| faces(a, b)))
        }
    }

    /// Under a `facing` rule, the piece type whose pieces face each other now, if
    /// they do: the player to move must then end the facing or pass (a pass is
    /// allowed then even in check).
    pub fn facing_now(&self) -> Option<PieceKind> {
        self.facing_kind().filter(|&k| self.facing(k))
    }

    /// How many times the current position has occurred, this time included. A hash
    /// match is confirmed by comparing the positions themselves.
    pub fn repetitions(&self) -> u32 {
        let mut count = 1;
        let len = self.history.len();
        // Only positions since the last irreversible move can repeat.
        let back = (self.halfmove as usize).min(len);
        let mut earlier: Option<Position> = None;
        for i in (len - back..len).rev() {
            if self.history[i].hash != self.hash {
                continue;
            }
            let p = earlier.get_or_insert_with(|| self.clone());
            while p.history.len() > i {
                p.unmake();
            }
            if p.same_state(self) {
                count += 1;
            }
        }
        count
    }

    /// Do two positions under the same rules hold the same state (everything that
    /// decides what may happen next)?
    fn same_state(&self, other: &Position) -> bool {
        self.side == other.side
            && self.board == other.board
            && self.height == other.height
            && self.terrain == other.terrain
            && self.castling == other.castling
            && self.ep == other.ep
            && self.hand == other.hand
            && self.counters == other.counters
            && self.exited == other.exited
            && self.swapped == other.swapped
    }
}
