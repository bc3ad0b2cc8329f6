//! Threats: enemy pieces attacked by pawns, rooks and queens attacked by minor pieces, and
//! pieces attacked but not defended.

use shakmaty::{Bitboard, Board, Color, attacks};

use super::pieces::PieceAttacks;
use super::{Sink, sign};
use crate::params::feature;

/// Everything one side attacks, by kind of attacker.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Attacks {
    pub pawns: Bitboard,
    /// By pawns, pieces and the king.
    pub all: Bitboard,
    /// What the knights, bishops, rooks and queens attack, and their king-danger units.
    pub pieces: PieceAttacks,
}

impl Attacks {
    /// `color`'s attacks from its pawns (`pawns`: the squares they attack), its king and
    /// `pieces` (what its knights, bishops, rooks and queens attack, as found by the mobility
    /// walk).
    #[inline]
    pub(super) fn new(board: &Board, color: Color, pawns: Bitboard, pieces: PieceAttacks) -> Self {
        let king = board
            .king_of(color)
            .map_or(Bitboard::EMPTY, attacks::king_attacks);
        Attacks {
            pawns,
            all: pawns | pieces.all | king,
            pieces,
        }
    }
}

/// `color`'s threats on the other side's knights, bishops, rooks and queens: attacked by a
/// pawn (`THREAT_BY_PAWN`), rooks and queens attacked by a knight or bishop
/// (`THREAT_BY_MINOR`), and attacked by anything while defended by nothing (`HANGING`).
pub(super) fn threats<S: Sink>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let s = sign(color);
    let enemy = board.by_color(!color);
    let pieces = enemy & !board.pawns() & !board.kings();
    let by_pawn = (pieces & ours.pawns).count() as i32;
    sink.add(feature::THREAT_BY_PAWN, s * by_pawn);
    let by_minor = (enemy & board.rooks_and_queens() & ours.pieces.minors).count() as i32;
    sink.add(feature::THREAT_BY_MINOR, s * by_minor);
    let hanging = (pieces & ours.all & !theirs.all).count() as i32;
    sink.add(feature::HANGING, s * hanging);
}
