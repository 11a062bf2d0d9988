//! Why a move a user typed is not legal, in words: the REPL's answer to an illegal
//! move, with the closest legal moves as suggestions.

use super::lookup::Gen;
use super::notation::{MoveText, promo_char, read_move_text};
use super::{Move, MoveKind, Position};
use crate::ids::{PieceKind, Side};
use crate::rules::{Cell, Cond, EMPTY, Rules, kind_of, side_of};
use crate::syntax::betza::Hop;

impl Position {
    /// Explains why `text` is not a legal move here.
    pub fn why_illegal(&mut self, text: &str) -> String {
        if let Some(why) = super::notation::too_long(text) {
            return why;
        }
        let rules = self.rules.clone();
        let typed = read_move_text(&rules, text);
        if let Some(why) = typed.as_ref().and_then(|t| self.why_second_part(t)) {
            return why;
        }
        match typed {
            Some(MoveText::Then { first, .. }) => self.why_illegal(&first.text(&rules)),
            Some(MoveText::Swap) => {
                if !rules.pie_rule() {
                    "this game has no pie rule, so there is no `swap`".into()
                } else {
                    "`swap` (the pie rule) is allowed only instead of the second player's first move"
                        .into()
                }
            }
            Some(MoveText::Drop {
                letter,
                square,
                cell,
            }) => self.why_not_placed(&letter, &square, cell),
            Some(MoveText::Exit { square, cell }) => self.why_no_exit(&square, cell),
            Some(MoveText::PassAt(cell)) => {
                if self.royals.of(self.side).contains(&cell) {
                    self.why_no_pass()
                } else {
                    self.why_not_moved(cell, cell, None, "")
                }
            }
            Some(MoveText::Squares {
                to: _,
                promo: Some(digit),
                ..
            }) if digit.is_ascii_digit() => not_a_square(&rules, text),
            Some(MoveText::Squares {
                from,
                to,
                promo,
                tag,
                ..
            }) => self.why_not_moved(from, to, promo, &tag),
            Some(MoveText::Pass) => self.why_no_pass(),
            None => format!(
                "`{text}` is neither a command nor a move on this board: write a move as from-square to-square, such as {} (type `help` for commands)",
                self.legal_moves()
                    .first()
                    .map_or_else(|| "e2e4".into(), |m| self.move_text(*m))
            ),
        }
    }

    /// Why the side to move may not pass (written `pass`, or as its royal piece's
    /// null move).
    fn why_no_pass(&mut self) -> String {
        let rules = self.rules.clone();
        let passes: Vec<_> = rules
            .game_moves
            .iter()
            .filter(|&&g| rules.generators[g].source == crate::rules::Source::Pass)
            .collect();
        if passes.is_empty() {
            return "this game has no pass".into();
        }
        if self.in_check(self.side) {
            return "a player in check may not pass".into();
        }
        let needs: Vec<String> = passes
            .iter()
            .flat_map(|&&g| rules.generators[g].conditions.iter())
            .map(|c| describe_condition(&rules, c))
            .collect();
        if needs.is_empty() {
            "passing is not allowed here".into()
        } else {
            format!("passing needs {}", needs.join(" and "))
        }
    }

    /// Why the move from `from` to `to` (with the promotion letter `promo` and the
    /// suffix `tag` naming its effects) is not legal.
    fn why_not_moved(&mut self, from: Cell, to: Cell, promo: Option<char>, tag: &str) -> String {
        let rules = self.rules.clone();
        let us = self.side;
        let me = &rules.players[us].name;
        let geo = &rules.geometry;
        let sq = |c: Cell| geo.name(c).to_string();
        let piece = self.board[from];
        if piece == EMPTY {
            return format!("there is no piece on {}", sq(from));
        }
        let kind = kind_of(piece);
        let pname = &rules.pieces[kind].name;
        let a_pname = with_article(pname);
        if side_of(piece) != us {
            return format!(
                "the {pname} on {} is {}'s, and {me} is to move",
                sq(from),
                rules.players[us.opponent()].name
            );
        }
        if self.decided().is_some() || self.pass_end().is_some() {
            return "the game is over".into();
        }
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        let matching: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|m| m.from == from && m.to == to)
            .collect();
        if !tag.is_empty() {
            let written: Vec<String> = matching.iter().map(|&m| self.move_text(m)).collect();
            let tagged = |w: &String| {
                w.rsplit_once('/')
                    .is_some_and(|(_, t)| t.eq_ignore_ascii_case(tag))
            };
            if !written.is_empty() && !written.iter().any(tagged) {
                return format!(
                    "no move of the {pname} from {} to {} is written with `/{tag}`: its moves there are {}",
                    sq(from),
                    sq(to),
                    written.join(", ")
                );
            }
        }
        if !matching.is_empty() {
            return self.why_refused(&matching, promo);
        }
        if let Some(why) = promo.and_then(|p| self.why_no_flip(from, to, p)) {
            return why;
        }
        if let Some(reason) = self.why_no_castling(from, to) {
            return reason;
        }
        self.why_not_reachable(from, to).unwrap_or_else(|| {
            format!(
                "{a_pname} does not move from {} to {} (its moves: {})",
                sq(from),
                sq(to),
                rules.pieces[kind].betza
            )
        })
    }

    /// Why a move the piece makes (the `matching` moves, from and to the same squares)
    /// is refused: the promotion letter, or what it would leave.
    fn why_refused(&mut self, matching: &[Move], promo: Option<char>) -> String {
        let rules = self.rules.clone();
        let geo = &rules.geometry;
        let (from, to) = (matching[0].from, matching[0].to);
        let pname = &rules.pieces[kind_of(self.board[from])].name;
        let a_pname = with_article(pname);
        let promos: Vec<char> = matching
            .iter()
            .filter(|m| m.promo != EMPTY)
            .map(|m| promo_char(&rules, self.board[m.from], m.promo))
            .collect();
        // A move that leaves a royal piece attacked is refused for that, whatever its
        // letter: the promotion choices matter only once the move is otherwise legal.
        let legal: Vec<Move> = matching
            .iter()
            .copied()
            .filter(|&m| self.is_legal(m))
            .collect();
        if legal.is_empty() {
            return self.why_unsafe(matching[0]);
        }
        let stays = matching.iter().any(|m| m.promo == EMPTY);
        let list = || {
            promos
                .iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match promo {
            None if !stays => {
                return format!(
                    "the {pname} must promote there: add one of {} (such as {}{}{})",
                    list(),
                    geo.name(from),
                    geo.name(to),
                    promos[0]
                );
            }
            Some(p) if promos.is_empty() => {
                if let Some(why) = self.why_no_flip(from, to, p) {
                    return why;
                }
                return format!(
                    "{a_pname} does not promote on {}: leave the letter off",
                    geo.name(to)
                );
            }
            Some(p) if !promos.contains(&p.to_ascii_lowercase()) => {
                if let Some(why) = self.why_no_flip(from, to, p) {
                    return why;
                }
                return format!(
                    "`{p}` is not a promotion choice here: choose one of {}",
                    list()
                );
            }
            _ => {}
        }
        if rules.forbid_check && legal.iter().all(|&m| self.gives_check(m)) {
            return "it would give check, and a move that gives check is illegal in this game"
                .into();
        }
        if let Some(why) = self.why_not_after(&legal) {
            return why;
        }
        if rules.must_capture && self.victim(legal[0]).is_none() {
            let captures: Vec<String> = (self.legal_moves().into_iter())
                .filter(|&m| self.victim(m).is_some())
                .take(3)
                .map(|m| self.move_text(m))
                .collect();
            if !captures.is_empty() {
                return format!(
                    "captures are forced in this game, and a capture is possible: {}",
                    captures.join(", ")
                );
            }
        }
        if let Some(why) = self.must_place_reason() {
            return why;
        }
        self.stalemate_reason()
    }

    /// A condition read on the position the move makes (`unless checking`, `unless
    /// attacking`) that no move with these squares meets: the first that fails.
    fn why_not_after(&mut self, legal: &[Move]) -> Option<String> {
        let rules = self.rules.clone();
        if !rules.tables.kinds.after || legal.iter().any(|&m| self.after_conditions_hold(m)) {
            return None;
        }
        let m = legal[0];
        let failed = rules.generators[m.generator]
            .conditions
            .iter()
            .find(|c| c.is_after() && !self.after_condition_holds(m, c))?;
        Some(format!(
            "the move needs {}",
            describe_condition(&rules, failed)
        ))
    }

    /// `must-drop`: why a move on the board is refused while placing is forced.
    fn must_place_reason(&mut self) -> Option<String> {
        if !self.rules.must_drop {
            return None;
        }
        let places: Vec<String> = (self.legal_moves().into_iter())
            .filter(|m| m.kind == MoveKind::Drop)
            .take(3)
            .map(|m| self.move_text(m))
            .collect();
        (!places.is_empty()).then(|| {
            format!(
                "while {} holds pieces in hand, placing one is the only move: {}",
                self.rules.players[self.side].name,
                places.join(", ")
            )
        })
    }

    /// Just after a move by `us` that had `before` royal pieces: the name of one its
    /// explosion removed, if it removed one.
    fn own_royal_blown(&self, us: Side, before: usize) -> Option<String> {
        let n = self.history.last()?.blasted as usize;
        if self.royals.count(us) >= before || n == 0 {
            return None;
        }
        let t = &self.rules.tables;
        self.blasted[self.blasted.len() - n..]
            .iter()
            .find(|b| side_of(b.piece) == us && t.kinds.royal >> kind_of(b.piece) & 1 != 0)
            .map(|b| self.rules.pieces[kind_of(b.piece)].name.clone())
    }

    /// Why a pseudo-legal move `m` is not legal: the rule of check (a royal piece of
    /// the mover left attacked, or not rescued from an attack) or a facing rule.
    fn why_unsafe(&mut self, m: Move) -> String {
        let rules = self.rules.clone();
        let geo = &rules.geometry;
        let us = self.side;
        let me = &rules.players[us].name;
        let in_check = self.in_check(us);
        let facing = self.facing_now();
        let royals_before = self.royals.count(us);
        self.make(m);
        let blown = self.own_royal_blown(us, royals_before);
        let all = rules.duple_check && self.royals.count(us) > 1;
        let attacked = self
            .royals
            .of(us)
            .iter()
            .copied()
            .filter(|_| self.in_check(us))
            .find(|&c| self.royal_attacked(c, us))
            .map(|c| (c, rules.pieces[kind_of(self.board[c])].name.clone()));
        let still_facing = facing.filter(|&k| self.facing(k));
        self.unmake();
        if let Some(royal) = blown {
            return format!("the explosion would blow up {me}'s own {royal}");
        }
        if let (true, Some((_, royal))) = (all, &attacked) {
            return format!("it would leave all of {me}'s {royal}s attacked at once");
        }
        match attacked {
            Some((c, royal)) => {
                let moved = c == m.to && m.kind != MoveKind::Drop;
                let sq = geo.name(c);
                match (in_check, moved) {
                    (true, true) => {
                        format!("{me} is in check, and the {royal} would be attacked on {sq} too")
                    }
                    (true, false) => format!(
                        "{me} is in check, and this move does not answer it: the {royal} on {sq} would stay attacked"
                    ),
                    (false, true) => format!("the {royal} would be attacked on {sq}"),
                    (false, false) => {
                        format!("it would leave {me}'s {royal} on {sq} attacked")
                    }
                }
            }
            None => match still_facing {
                Some(k) => format!(
                    "the two {}s face each other, and a move that leaves them facing is illegal",
                    rules.piece(k).name
                ),
                None => "it is not legal here".into(),
            },
        }
    }

    /// Why the piece on `from` may not flip to the face lettered `letter` (when one of
    /// its flips has that face and a condition of it does not hold).
    fn why_no_flip(&self, from: Cell, to: Cell, letter: char) -> Option<String> {
        let rules = &*self.rules;
        let t = &rules.tables;
        let kind = kind_of(self.board[from]);
        let letter = letter.to_ascii_lowercase();
        let g = Gen::new(self, rules);
        let id = t.kinds.extras[kind].iter().copied().find(|&id| {
            let info = &t.gens[id];
            matches!(info.source, crate::rules::Source::Flip { face }
                if promo_char(rules, EMPTY, crate::rules::code(face.index(), self.side)) == letter)
        })?;
        let m = Move::new(from, to, id);
        let unmet: Vec<String> = rules.generators[id]
            .conditions
            .iter()
            .filter(|c| !self.condition_holds(&g, c, m))
            .map(|c| describe_condition(rules, c))
            .collect();
        let pname = &rules.pieces[kind].name;
        let a_pname = with_article(pname);
        if unmet.is_empty() {
            return None;
        }
        Some(format!("{a_pname} flips only with {}", unmet.join(" and ")))
    }

    fn stalemate_reason(&self) -> String {
        let them = &self.rules.players[self.side.opponent()].name;
        format!("it would leave {them} without a legal move, and a move that stalemates is illegal")
    }

    /// Why the copy `letter@square` of a piece that `clones` is refused, if the
    /// letter names such a piece of the side to move.
    fn why_not_cloned(&self, letter: &str, square: &str, cell: Option<Cell>) -> Option<String> {
        let rules = &*self.rules;
        let t = &rules.tables;
        let us = self.side;
        let id = t.kinds.clones.iter().copied().find(|&id| {
            let kind = usize::from(t.gens[id].piece);
            rules
                .code_symbol(crate::rules::code(kind, us))
                .eq_ignore_ascii_case(letter)
        })?;
        let kind = usize::from(t.gens[id].piece);
        let name = &rules.pieces[kind].name;
        let Some(cell) = cell else {
            return Some(format!("`{square}` is not a square"));
        };
        if self.board[cell] != EMPTY || self.terrain[cell] != 0 {
            return Some(format!("{square} is not empty"));
        }
        let own = crate::rules::code(kind, us);
        if !t.blast.around(cell).any(|c| self.board[c] == own) {
            return Some(format!(
                "a copy of {} lands only next to one of {}'s {name}s, and {square} is next to none",
                with_article(name),
                rules.players[us].name
            ));
        }
        let needs: Vec<String> = (rules.generators[id].conditions.iter())
            .map(|c| describe_condition(rules, c))
            .collect();
        Some(format!(
            "a copy of {} needs {}",
            with_article(name),
            needs.join(" and ")
        ))
    }

    /// Why the placement `letter@square` is refused (`cell` is the square, if it is
    /// one).
    fn why_not_placed(&mut self, letter: &str, square: &str, cell: Option<Cell>) -> String {
        let rules = self.rules.clone();
        let us = self.side;
        let me = &rules.players[us].name;
        if let Some(reason) = self.why_not_cloned(letter, square, cell) {
            return reason;
        }
        if !rules.has_drops() {
            return "pieces are not placed from a hand in this game".into();
        }
        // A marked face (`+S`), placed from the hand of the piece it is kept as.
        let marked = (0..rules.pieces.len()).find(|&k| {
            rules.pieces[k].mark != crate::rules::Mark::Plain
                && rules
                    .code_symbol(crate::rules::code(k, us))
                    .eq_ignore_ascii_case(letter)
        });
        let mut chars = letter.chars();
        let c = match (marked, chars.next(), chars.next()) {
            (Some(_), ..) => ' ',
            (None, Some(c), None) => c,
            _ => {
                // An example from this game: a legal placement, else any piece of ours.
                let example = self
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.kind == MoveKind::Drop)
                    .map_or_else(
                        || {
                            let k = (0..rules.pieces.len())
                                .find(|&k| !rules.tables.kinds.drops[k].is_empty())
                                .unwrap_or(0);
                            let sq = rules.geometry.name(Cell::new(0));
                            format!("{}@{sq}", rules.code_symbol(crate::rules::code(k, us)))
                        },
                        |m| self.move_text(m),
                    );
                return format!("`{letter}` is not a piece letter: write a placement as {example}");
            }
        };
        // Where each player's pieces are their own, a letter's case names its player.
        if super::notation::others_letter(&rules, us, letter) {
            return format!(
                "`{letter}` is {}'s piece, and {me} is to move",
                rules.players[us.opponent()].name
            );
        }
        let Some(kind) = marked.or_else(|| rules.kind_for(us, c)) else {
            return format!("{me} has no piece with the letter `{c}`");
        };
        let name = &rules.pieces[kind].name;
        let a_name = with_article(name);
        let t = &rules.tables;
        let placing = (t.kinds.drops.iter().flatten().copied())
            .find(|&id| usize::from(t.gens[id].piece) == kind);
        let held = placing.map_or(kind, |id| usize::from(t.gens[id].hand));
        if self.in_hand(us, held) == 0 {
            return format!("{me} has no {} in hand", rules.pieces[held].name);
        }
        let Some(cell) = cell else {
            return format!("`{square}` is not a square");
        };
        let Some(id) = placing else {
            return format!("{a_name} is never placed from the hand");
        };
        if t.landing.is_dead(crate::rules::code(kind, us), cell) {
            return format!("{a_name} on {square} could never move again");
        }
        if !t.targets.of(id, us, crate::rules::NO_CELL).contains(&cell) {
            let needs: Vec<String> = rules.generators[id]
                .conditions
                .iter()
                .map(|c| describe_condition(&rules, c))
                .collect();
            return format!(
                "{a_name} is placed only on an empty square, {}, and {square} is not one of them",
                needs.join(" and ")
            );
        }
        if self.board[cell] != EMPTY || self.terrain[cell] != 0 {
            return format!("{square} is not empty");
        }
        let m = Move {
            kind: MoveKind::Drop,
            ..Move::new(crate::rules::NO_CELL, cell, id)
        };
        let g = Gen::new(self, &rules);
        let unmet: Vec<String> = rules.generators[id]
            .conditions
            .iter()
            .filter(|c| !self.condition_holds(&g, c, m))
            .map(|c| describe_condition(&rules, c))
            .collect();
        if !unmet.is_empty() {
            return format!("{a_name} is placed only with {}", unmet.join(" and "));
        }
        if !self.is_legal(m) {
            return self.why_unsafe(m);
        }
        if t.hands.no_mate_by_drop >> kind & 1 != 0 {
            return format!("{a_name} may not be placed to give checkmate");
        }
        if t.kinds.both_colours != 0 {
            return format!(
                "{a_name} may not go there: the {}s of a player are placed on squares of both colours, and this would leave too few free squares of a colour for them",
                rules.pieces[(0..rules.pieces.len())
                    .find(|&b| t.kinds.both_colours >> b & 1 != 0)
                    .unwrap_or(kind)]
                .name
            );
        }
        self.stalemate_reason()
    }

    /// Why the piece on `square` (`cell`, if it is a square) may not leave the board.
    fn why_no_exit(&self, square: &str, cell: Option<Cell>) -> String {
        let rules = &*self.rules;
        let us = self.side;
        let me = &rules.players[us].name;
        let piece = cell.map_or(EMPTY, |c| self.board[c]);
        if piece == EMPTY || side_of(piece) != us {
            return format!("no piece of {me} stands on {square} to leave the board");
        }
        let kind = kind_of(piece);
        let name = &rules.pieces[kind].name;
        let a_name = with_article(name);
        match rules.exit_zone(PieceKind::new(kind)) {
            None => format!("{a_name} never leaves the board"),
            Some(z) => format!("{a_name} leaves the board only from {}", rules.zone(z).name),
        }
    }

    fn why_no_castling(&self, from: Cell, to: Cell) -> Option<String> {
        let rules = &*self.rules;
        let (i, c) = rules
            .castlings
            .iter()
            .enumerate()
            .find(|(_, c)| c.side == self.side && c.king_from == from && c.king_to == to)?;
        let geo = &rules.geometry;
        if self.castling >> i & 1 == 0 {
            return Some(format!(
                "castling {}{} is no longer allowed: the pieces have moved (right `{}` is gone)",
                geo.name(from),
                geo.name(to),
                c.letter
            ));
        }
        if let Some(&s) = c
            .must_be_empty
            .iter()
            .find(|&&s| self.board[s] != EMPTY || self.terrain[s] != 0)
        {
            return Some(format!("castling needs {} to be empty", geo.name(s)));
        }
        if self.in_check(self.side) {
            return Some("castling is not allowed while in check".into());
        }
        if let Some(&s) = c.king_path.iter().find(|&&s| {
            let king = self.board[c.king_from];
            super::attack::attacked_as(self, s, self.side.opponent(), king)
        }) {
            return Some(format!(
                "castling would take the king across or onto the attacked square {}",
                geo.name(s)
            ));
        }
        None
    }

    /// Walks the piece's moves that could reach `to` on an empty board, and says what
    /// stops the first of them.
    fn why_not_reachable(&self, from: Cell, to: Cell) -> Option<String> {
        let rules = &*self.rules;
        let t = &rules.tables;
        let geo = &rules.geometry;
        let n = self.board.len();
        let piece = self.board[from];
        let kind = kind_of(piece);
        let pname = &rules.pieces[kind].name;
        let a_pname = with_article(pname);
        let what = |c: Cell| -> String {
            let p = self.board[c];
            if p != EMPTY {
                let whose = if side_of(p) == self.side {
                    "your"
                } else {
                    "the enemy"
                };
                format!(
                    "{whose} {} on {}",
                    rules.pieces[kind_of(p)].name,
                    geo.name(c)
                )
            } else if self.terrain[c] != 0 {
                format!(
                    "the {} on {}",
                    rules.terrains[self.terrain[c] as usize - 1].name,
                    geo.name(c)
                )
            } else {
                geo.name(c).to_string()
            }
        };
        let (start, len) = t.steps.index[piece as usize * n + from.index()];
        let mut reasons = Vec::new();
        for step in &t.steps.list[start as usize..(start + len) as usize] {
            let comp = &t.gens[step.generator];
            let line = t.steps.line(step);
            let Some(k) = line.iter().position(|&c| c == to) else {
                continue;
            };
            let reason = (|| {
                if comp.initial && !self.unmoved[from] {
                    return format!("the {pname} may move so only as its first move");
                }
                if !step.rider {
                    let path = t.steps.path(step);
                    if let Some(&b) = path.iter().find(|&&p| !self.passable(p, kind)) {
                        return format!("the way is blocked by {}", what(b));
                    }
                } else if comp.hop == Hop::None {
                    if let Some(&b) = line[..k].iter().find(|&&p| !self.passable(p, kind)) {
                        return format!("the way is blocked by {}", what(b));
                    }
                } else {
                    let screens = line[..k]
                        .iter()
                        .filter(|&&p| self.board[p] != EMPTY)
                        .count();
                    if screens != 1 {
                        return format!(
                            "the {pname} must jump exactly one piece to go there, and finds {screens}"
                        );
                    }
                }
                let occupant = self.board[to];
                if self.terrain[to] != 0 && occupant == EMPTY {
                    let tr = &rules.terrains[self.terrain[to] as usize - 1];
                    if tr.cleared_by >> kind & 1 == 0
                        && tr.crossed_by >> kind & 1 == 0
                        && tr.blocks_landing
                    {
                        return format!(
                            "{a_pname} may not enter the {} on {}",
                            tr.name,
                            geo.name(to)
                        );
                    }
                }
                if occupant != EMPTY && side_of(occupant) == self.side {
                    return format!("{} stands there", what(to));
                }
                if occupant != EMPTY && !comp.can_capture {
                    return format!("{a_pname} does not capture that way");
                }
                if occupant == EMPTY && !comp.can_move {
                    return format!(
                        "{a_pname} only captures that way, and {} is empty",
                        geo.name(to)
                    );
                }
                let g = Gen::new(self, rules);
                for cond in t.gens.conds(comp) {
                    if !self.condition_holds(&g, cond, Move::new(from, to, step.generator)) {
                        return format!("that move needs {}", describe_condition(rules, cond));
                    }
                }
                format!(
                    "{a_pname} may not move from {} to {} here",
                    geo.name(from),
                    geo.name(to)
                )
            })();
            reasons.push(reason);
        }
        reasons.into_iter().next()
    }

    /// Legal moves close to what the user typed: from the same square, else to it.
    pub fn suggestions(&mut self, text: &str) -> Vec<String> {
        let moves = self.legal_moves();
        let mut out: Vec<String> = Vec::new();
        if let Some(MoveText::Squares { from, to, .. }) = read_move_text(&self.rules, text) {
            out.extend(
                moves
                    .iter()
                    .filter(|m| m.from == from)
                    .map(|m| self.move_text(*m)),
            );
            if out.is_empty() {
                out.extend(
                    moves
                        .iter()
                        .filter(|m| m.to == to && m.kind != MoveKind::Swap)
                        .map(|m| self.move_text(*m)),
                );
            }
        }
        out.sort();
        out.truncate(8);
        out
    }
}

/// A condition in words, for messages and the rules summary.
pub fn describe_condition(rules: &Rules, cond: &Cond) -> String {
    match *cond {
        Cond::Player(side) => format!("to be {}'s move", rules.players[side].name),
        Cond::OwnPieceIn { kind, zone } => format!(
            "your {} to stand in {}",
            rules.piece(kind).name,
            rules.zone(zone).name
        ),
        Cond::Height(op, v) => format!("a height {} {v}", op_words(op)),
        Cond::CloserTo { enemy, kind } => format!(
            "to end strictly closer to {} {}",
            if enemy { "the enemy" } else { "your own" },
            rules.piece(kind).name
        ),
        Cond::From(z) => format!("to start in {}", rules.zone(z).name),
        Cond::To(z) => format!("to end in {}", rules.zone(z).name),
        Cond::Counter(i, op, v) => format!("{} {} {v}", rules.counters[i], op_words(op)),
        Cond::NoneOnFile { enemy, kind, limit } => format!(
            "{} {} {} on the file",
            match limit {
                1 => "no".to_string(),
                n => format!("fewer than {n}"),
            },
            if enemy { "enemy" } else { "own" },
            rules.piece(kind).name
        ),
        Cond::Captures { kind, yes } => format!(
            "to {} {}",
            if yes { "capture" } else { "not capture" },
            with_article(&rules.piece(kind).name)
        ),
        Cond::Converts => "to convert at least one enemy piece".into(),
        Cond::CountOnBoard { enemy, kind, limit } => format!(
            "{} {} {} on the board",
            match limit {
                1 => "no".to_string(),
                n => format!("fewer than {n}"),
            },
            if enemy { "enemy" } else { "own" },
            rules.piece(kind).name
        ),
        Cond::Checking { yes: true } => "to give check".into(),
        Cond::Checking { yes: false } => "not to give check".into(),
        Cond::Attacking { yes: true } => "to attack an enemy piece from where it lands".into(),
        Cond::Attacking { yes: false } => "to attack no enemy piece from where it lands".into(),
        Cond::InCheck { yes: true } => "to be in check".into(),
        Cond::InCheck { yes: false } => "not to be in check".into(),
        Cond::Over { kind, yes } => format!(
            "to {} {}",
            if yes { "jump over" } else { "not jump over" },
            with_article(&rules.piece(kind).name)
        ),
    }
}

/// A comparison in words: "at most".
pub(crate) fn op_words(op: crate::syntax::ast::Compare) -> &'static str {
    use crate::syntax::ast::Compare;
    match op {
        Compare::Less => "below",
        Compare::LessEq => "at most",
        Compare::Greater => "above",
        Compare::GreaterEq => "at least",
        Compare::Equal => "exactly",
        Compare::NotEqual => "other than",
    }
}

/// A name with its indefinite article: "a Knight", "an Engineer".
pub fn with_article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// A move text whose last square has a rank this board does not have (`g1g13` on 12
/// ranks reads as `g1`, `g1` and a promotion letter `3`): name the square.
fn not_a_square(rules: &Rules, text: &str) -> String {
    let typed: String = text.split_whitespace().collect();
    let last = typed
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches(['-', 'x']);
    let board = &rules.geometry.boards[0];
    format!(
        "`{last}` is not a square of this board (files a-{}, ranks 1-{})",
        crate::model::file_letter(board.files.saturating_sub(1)),
        board.ranks
    )
}
