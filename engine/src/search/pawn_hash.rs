//! A hash of both sides' pawns: the key of the tables that learn by pawn structure (the
//! correction history, the pawn history of quiet moves).

use shakmaty::{Board, Color, Role};

/// Mixes the two sides' pawn bitboards; the high bits of the result are the best index bits.
#[inline]
pub(crate) fn pawn_hash(board: &Board) -> u64 {
    let pawns = board.by_role(Role::Pawn);
    let white = (pawns & board.by_color(Color::White)).0;
    let black = (pawns & board.by_color(Color::Black)).0;
    // Two odd multipliers mix the bitboards; a third spreads the result to the high bits.
    let hash = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    hash.wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// The top `bits` bits of [`pawn_hash`]: an index into a table of `1 << bits` entries.
#[inline]
pub(crate) fn pawn_index(board: &Board, bits: u32) -> usize {
    (pawn_hash(board) >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position, fen::Fen};

    use super::*;

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("position");
        pos.board().clone()
    }

    #[test]
    fn only_pawns_count() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let pieces_moved =
            board("r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3");
        let pawn_moved = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(pawn_hash(&start), pawn_hash(&pieces_moved));
        assert_ne!(pawn_hash(&start), pawn_hash(&pawn_moved));
        // The colours are told apart: the same squares with the pawns' colours swapped differ.
        let swapped = board("4k3/8/8/3P4/3p4/8/8/4K3 w - - 0 1");
        let unswapped = board("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1");
        assert_ne!(pawn_hash(&swapped), pawn_hash(&unswapped));
        assert!(pawn_index(&start, 9) < 512);
    }
}
