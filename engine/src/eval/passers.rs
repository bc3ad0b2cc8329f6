//! Passed pawns beyond their rank: the kings' distance to the square in front, the rule of
//! the square in pawn endings, a free path to promotion and rooks behind them. These read the
//! kings and pieces; the passed pawns themselves are found with the pawn structure
//! ([`super::pawns::pawn_structure`], whose result the pawn cache keeps), as is the pawn-only
//! supported-passer term.

use shakmaty::{Bitboard, Board, Color, Square, attacks};

use super::pawns::ranks_ahead;
use super::threats::Attacks;
use super::{Sink, sign};
use crate::params::feature;

/// Relative rank, 0 (first rank) ..= 7.
#[inline]
fn relative_rank(square: Square, color: Color) -> i32 {
    let rank = square.rank().to_u32() as i32;
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// How much an advanced passer's king terms and free path count: 0 up to the third rank,
/// then 1 (fourth) ..= 4 (seventh), as a passer's worth grows with its rank.
#[inline]
fn advance(rank: i32) -> i32 {
    (rank - 2).max(0)
}

/// The square in front of `square` for `color`'s pawn (a passer never stands on the last
/// rank).
#[inline]
fn front(square: Square, color: Color) -> Square {
    match color {
        Color::White => square.offset(8),
        Color::Black => square.offset(-8),
    }
    .unwrap_or(square)
}

/// `color`'s passed pawns `passed`:
/// - `PASSER_OWN_KING` / `PASSER_ENEMY_KING`: each king's distance (Chebyshev) to the square
///   in front, times [`advance`];
/// - `FREE_PASSER`: [`advance`] when every square ahead is empty and not attacked by the
///   other side;
/// - `UNSTOPPABLE_PASSER`: once per side, when the other side has only king and pawns, the
///   path is empty and the other king is outside the pawn's square (rule of the square,
///   counting the move of the side to move `turn`);
/// - `ROOK_BEHIND_PASSER`: own rooks behind it on its file with nothing in between.
#[inline(always)]
pub(super) fn passers<S: Sink>(
    board: &Board,
    color: Color,
    turn: Color,
    passed: Bitboard,
    theirs: &Attacks,
    sink: &mut S,
) {
    if passed.is_empty() {
        return;
    }
    let s = sign(color);
    let occupied = board.occupied();
    let own_king = board.king_of(color);
    let enemy_king = board.king_of(!color);
    let enemy_has_pieces = (board.by_color(!color) & !board.pawns() & !board.kings()).any();
    let own_rooks = board.rooks() & board.by_color(color);
    let (mut own_dist, mut enemy_dist, mut free, mut behind) = (0, 0, 0, 0);
    let mut unstoppable = false;
    for square in passed {
        let rank = relative_rank(square, color);
        let weight = advance(rank);
        let stop = front(square, color);
        if let Some(king) = own_king {
            own_dist += weight * king.distance(stop) as i32;
        }
        if let Some(king) = enemy_king {
            enemy_dist += weight * king.distance(stop) as i32;
        }
        let path = ranks_ahead(square, color) & Bitboard::from_file(square.file());
        let path_empty = (path & occupied).is_empty();
        if path_empty && (path & theirs.all).is_empty() {
            free += weight;
        }
        if !enemy_has_pieces
            && path_empty
            && !unstoppable
            && let Some(king) = enemy_king
        {
            let promotion = match color {
                Color::White => Square::from_coords(square.file(), shakmaty::Rank::Eighth),
                Color::Black => Square::from_coords(square.file(), shakmaty::Rank::First),
            };
            // From its second rank a pawn moves two squares at once.
            let moves = (7 - rank).min(5);
            let reach = king.distance(promotion) as i32 - i32::from(turn != color);
            unstoppable = reach > moves;
        }
        let behind_file = Bitboard::from_file(square.file()) & !ranks_ahead(square, color);
        for rook in own_rooks & behind_file {
            if attacks::rook_attacks(rook, occupied).contains(square) {
                behind += 1;
            }
        }
    }
    for (f, coef) in [
        (feature::PASSER_OWN_KING, own_dist),
        (feature::PASSER_ENEMY_KING, enemy_dist),
        (feature::FREE_PASSER, free),
        (feature::UNSTOPPABLE_PASSER, i32::from(unstoppable)),
        (feature::ROOK_BEHIND_PASSER, behind),
    ] {
        sink.add(f, s * coef);
    }
}
