//! Stage 4: the engine. A [`Position`] holds everything that decides what may happen
//! next; the move generator reads the compiled [`Rules`] tables; make/unmake record
//! exactly what they change, so the position and its Zobrist hash are restored bit for
//! bit.

mod attack;
mod blast;
mod check_bits;
mod convert;
pub mod explain;
mod fen;
mod legal;
mod lookup;
mod movegen;
mod notation;
mod outcome;
mod position;
pub(crate) mod search_support;
mod second;
mod squares;

pub use fen::FenError;
pub use notation::{MAX_MOVE_TEXT_BYTES, MoveText, read_move_text};
pub use outcome::{EndReason, GameEnd, NoMove};
pub use position::{Move, MoveKind, MoveShape, Position};
pub(crate) use squares::for_each_occupied_square;
