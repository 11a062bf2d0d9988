//! End rules: how a game ends and with what result.

use super::{Checker, Scope, Valid};
use crate::diagnostic::{Problem, ProblemCode};
use crate::model::{EndRule, MAX_COUNTER, Outcome, Piece};
use crate::syntax::ast::{Decl, EndCondition, EndRuleDecl, File, GameResult};

/// The end rules, and whether a move that stalemates the opponent is illegal.
pub(crate) struct Ends {
    pub rules: Vec<EndRule>,
    pub stalemate_illegal: bool,
}

pub(crate) fn end_rules(ck: &mut Checker, file: &File, scope: &Scope, pieces: &[Piece]) -> Ends {
    let mut ends = Ends {
        rules: Vec::new(),
        stalemate_illegal: false,
    };
    for d in &file.decls {
        let Decl::End(e) = d else { continue };
        for r in &e.rules {
            if r.result.node == GameResult::Illegal {
                if r.condition.node == EndCondition::Stalemate {
                    ends.stalemate_illegal = true;
                } else {
                    ck.report(
                        Problem::new(ProblemCode::IllegalResult, r.result.span, "only `stalemate` can be `illegal`")
                            .help("`stalemate illegal` forbids a move that leaves the opponent without a move; other rules end in win, loss or draw"),
                    );
                }
                continue;
            }
            if let Some(rule) = end_rule(ck, scope, pieces, r) {
                ends.rules.push(rule);
            }
        }
    }
    ends
}

fn outcome(r: GameResult) -> Outcome {
    match r {
        GameResult::Win => Outcome::Win,
        GameResult::Loss => Outcome::Loss,
        GameResult::ByCount => Outcome::ByCount,
        // `illegal` applies only to stalemate, where it is read separately.
        GameResult::Draw | GameResult::Illegal => Outcome::Draw,
    }
}

/// What the counts of the end rules may be.
const REPETITION: Valid = Valid::new(2..=100, "a count of repetitions");
const MOVE_LIMIT: Valid = Valid::new(1..=10_000, "a move limit");
const PASSES: Valid = Valid::new(1..=100, "a run of passes");
const PIECES_LEFT: Valid = Valid::new(0..=4096, "a count of pieces");
const COUNTER: Valid = Valid::new(-MAX_COUNTER..=MAX_COUNTER, "a counter's value");

/// One rule, resolved (or reported and left out).
fn end_rule(ck: &mut Checker, scope: &Scope, pieces: &[Piece], r: &EndRuleDecl) -> Option<EndRule> {
    let res = outcome(r.result.node);
    Some(match &r.condition.node {
        EndCondition::Checkmate => {
            if !pieces.iter().any(|p| p.royal) && !pieces.is_empty() {
                ck.report(
                    Problem::new(ProblemCode::CheckWithoutRoyal, r.condition.span, "checkmate needs a royal piece, and none is declared")
                        .label("nothing can be checkmated")
                        .help("mark the king-like piece `royal`, or use `no-moves` to end on having no legal move"),
                );
            }
            EndRule::Checkmate(res)
        }
        EndCondition::Stalemate => EndRule::Stalemate(res),
        EndCondition::NoMoves => EndRule::NoMoves(res),
        EndCondition::Repetition(k) => {
            let k = &scope.resolve_count(ck, k, None, &REPETITION)?;
            if !REPETITION.range.contains(k) {
                ck.report(
                    Problem::new(
                        ProblemCode::EndCount,
                        r.condition.span,
                        format!("repetition counts 2 to 100 occurrences, not {k}"),
                    )
                    .help("threefold repetition is `repetition 3 draw`"),
                );
            }
            EndRule::Repetition((*k).clamp(2, 100) as u32, res)
        }
        EndCondition::MoveLimit(k) => {
            let k = &scope.resolve_count(ck, k, None, &MOVE_LIMIT)?;
            if !MOVE_LIMIT.range.contains(k) {
                ck.report(
                    Problem::new(
                        ProblemCode::EndCount,
                        r.condition.span,
                        format!("a move limit counts 1 to 10000 moves, not {k}"),
                    )
                    .help("the fifty-move rule is `move-limit 50 draw`"),
                );
            }
            EndRule::MoveLimit((*k).clamp(1, 10_000) as u32, res)
        }
        EndCondition::Captured(p) => EndRule::Captured(scope.resolve_piece(ck, p)?, res),
        EndCondition::Reached {
            piece,
            zone,
            unattacked,
            with_reply,
        } => {
            let (kind, zone) = (scope.resolve_piece(ck, piece), scope.resolve_zone(ck, zone));
            if let (Some(span), true) = (unattacked, with_reply) {
                ck.report(
                    Problem::new(
                        ProblemCode::UnattackedWithReply,
                        *span,
                        "`unattacked` and `with-reply` do not combine",
                    )
                    .label("an unattacked arrival ends the game at once")
                    .help("keep one: `unattacked` (the piece must stand safe) or `with-reply` (the other player answers)"),
                );
            }
            EndRule::Reached {
                kind: kind?,
                zone: zone?,
                reply: *with_reply && unattacked.is_none(),
                unattacked: unattacked.is_some(),
                outcome: res,
            }
        }
        EndCondition::BareKing => {
            if !pieces.iter().any(|p| p.royal) && !pieces.is_empty() {
                ck.report(
                    Problem::new(
                        ProblemCode::CheckWithoutRoyal,
                        r.condition.span,
                        "a bare king needs a royal piece, and none is declared",
                    )
                    .label("nothing is left bare")
                    .help("mark the king-like piece `royal`"),
                );
            }
            EndRule::BareKing(res)
        }
        EndCondition::Exited(p) => {
            let k = scope.resolve_piece(ck, p)?;
            if pieces[k].exits_from.is_none() {
                ck.report(
                    Problem::new(
                        ProblemCode::NeverExits,
                        p.span,
                        format!("`{}` never leaves the board", p.node),
                    )
                    .help(format!(
                        "give it an exit: `exits from ZONE` in piece {}",
                        p.node
                    )),
                );
            }
            EndRule::Exited(k, res)
        }
        EndCondition::Facing(p) => EndRule::Facing(scope.resolve_piece(ck, p)?, res),
        EndCondition::BoardFull => EndRule::BoardFull(res),
        EndCondition::PiecesLeft { piece, op, count } => {
            let kind = match piece {
                Some(p) => Some(scope.resolve_piece(ck, p)?),
                None => None,
            };
            let count = scope.resolve_count(ck, count, None, &PIECES_LEFT)?;
            if !PIECES_LEFT.range.contains(&count) {
                ck.report(
                    Problem::new(
                        ProblemCode::EndCount,
                        r.condition.span,
                        format!("a count of pieces is 0 to 4096, not {count}"),
                    )
                    .help("losing every piece is `pieces-left == 0`"),
                );
            }
            EndRule::PiecesLeft {
                kind,
                op: *op,
                count,
                outcome: res,
            }
        }
        EndCondition::Counter(name, op, count) => {
            let (counter, count) = (
                scope.resolve_counter(ck, name),
                scope.resolve_count(ck, count, None, &COUNTER),
            );
            EndRule::Counter(counter?, *op, count?, res)
        }
        EndCondition::Passes(k) => {
            let k = &scope.resolve_count(ck, k, None, &PASSES)?;
            if !PASSES.range.contains(k) {
                ck.report(
                    Problem::new(
                        ProblemCode::EndCount,
                        r.condition.span,
                        format!("a run of passes counts 1 to 100 passes, not {k}"),
                    )
                    .help("two passes in a row is `passes 2 draw`"),
                );
            }
            EndRule::Passes((*k).clamp(1, 100) as u32, res)
        }
    })
}
