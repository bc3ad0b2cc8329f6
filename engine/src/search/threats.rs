//! Pieces of the side to move that a lesser enemy piece attacks: a pawn attacking a knight,
//! bishop, rook or queen, a minor attacking a rook or queen, a rook attacking a queen. Such
//! a piece is usually lost unless it moves, so the static evaluation of the node says little,
//! and a null move there mostly hands the opponent the capture.

use shakmaty::{Bitboard, Board, Color, attacks};

use crate::eval::pawn_attacks_of;

/// The pieces of `us` on `board` attacked by an enemy piece of lower value (kings and pawns
/// are never counted as threatened).
pub(crate) fn lesser_threats(board: &Board, us: Color) -> Bitboard {
    let ours = board.by_color(us);
    let majors = ours & (board.rooks() | board.queens());
    let pieces = majors | (ours & (board.knights() | board.bishops()));
    if pieces.is_empty() {
        return Bitboard::EMPTY;
    }
    let theirs = board.by_color(!us);
    let mut threatened = pieces & pawn_attacks_of(board.pawns() & theirs, !us);
    if majors.is_empty() {
        return threatened;
    }
    let occupied = board.occupied();
    let mut by_minors = Bitboard::EMPTY;
    for sq in theirs & board.knights() {
        by_minors |= attacks::knight_attacks(sq);
    }
    for sq in theirs & board.bishops() {
        by_minors |= attacks::bishop_attacks(sq, occupied);
    }
    threatened |= majors & by_minors;
    let queens = ours & board.queens();
    if queens.any() {
        for sq in theirs & board.rooks() {
            threatened |= attacks::rook_attacks(sq, occupied) & queens;
        }
    }
    threatened
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position, Square, fen::Fen};

    use super::*;

    fn threats(fen: &str) -> Bitboard {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        lesser_threats(pos.board(), pos.turn())
    }

    #[test]
    fn a_pawn_threatens_a_piece_but_not_a_pawn() {
        // Black pawn d5 attacks the knight on e4 and the pawn on c4.
        let t = threats("4k3/8/8/3p4/2P1N3/8/8/4K3 w - - 0 1");
        assert_eq!(t, Bitboard::from_square(Square::E4));
    }

    #[test]
    fn minors_threaten_majors_and_rooks_threaten_queens_only() {
        // Knight f6 attacks the rook on e4 (threat) and the knight on g4 (equal: none);
        // the rook on a1 attacks the queen on a5 (threat) and the rook on h1 (equal: none).
        let t = threats("1k6/8/5n2/Q7/4R1N1/8/4K3/r6R w - - 0 1");
        assert_eq!(
            t,
            Bitboard::from_square(Square::E4) | Bitboard::from_square(Square::A5)
        );
    }

    #[test]
    fn sliders_are_blocked_and_the_king_is_never_threatened() {
        // The bishop on b2 reaches the rook on f6 only through the pawn on d4, and the
        // black pawn on e3 attacks the white king on d2, which is not counted.
        let t = threats("8/8/5R2/8/3P4/4p3/1b1K4/7k w - - 0 1");
        assert!(t.is_empty(), "{t:?}");
        // Without the blocker the rook is threatened.
        let t = threats("8/8/5R2/8/8/4p3/1b1K4/7k w - - 0 1");
        assert_eq!(t, Bitboard::from_square(Square::F6));
    }
}
