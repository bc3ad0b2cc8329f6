//! Outposts and the seventh rank: knights and bishops on squares no enemy pawn can ever
//! attack, backed by an own pawn; rooks and queens on the seventh rank when that rank holds
//! enemy pawns or cuts off the enemy king on the eighth.

use shakmaty::{Bitboard, Board, Color, Rank, Role};

use super::pawns::{adjacent_files, ranks_ahead};
use super::threats::Attacks;
use super::{Sink, sign};
use crate::params::feature;

/// `rank` (0 = first .. 7 = eighth) from `color`'s side, as a bitboard.
#[inline]
fn relative_rank(color: Color, rank: u32) -> Bitboard {
    Bitboard::from_rank(Rank::new(match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }))
}

/// `color`'s knights (`KNIGHT_OUTPOST`) and bishops (`BISHOP_OUTPOST`) on its fourth to sixth
/// ranks, defended by an own pawn (from `ours`, its attack maps), with no enemy pawn left on
/// the neighbouring files ahead that could drive them away; and its rooks
/// (`ROOK_ON_SEVENTH`) and queens (`QUEEN_ON_SEVENTH`) on its seventh rank when enemy pawns
/// stand there or the enemy king is on the eighth.
#[inline(always)]
pub(super) fn outposts<S: Sink>(board: &Board, color: Color, ours: &Attacks, sink: &mut S) {
    let s = sign(color);
    let own = board.by_color(color);
    let enemy_pawns = board.pawns() & board.by_color(!color);
    let middle = relative_rank(color, 3) | relative_rank(color, 4) | relative_rank(color, 5);
    let candidates = (board.knights() | board.bishops()) & own & middle & ours.pawns;
    let (mut knights, mut bishops) = (0, 0);
    for square in candidates {
        let attackers = enemy_pawns & adjacent_files(square.file()) & ranks_ahead(square, color);
        if attackers.is_empty() {
            match board.role_at(square) {
                Some(Role::Knight) => knights += 1,
                _ => bishops += 1,
            }
        }
    }
    let seventh = relative_rank(color, 6);
    let (mut rooks, mut queens) = (0, 0);
    let heavy = board.rooks_and_queens() & own & seventh;
    if heavy.any() {
        let king_cut_off = board
            .king_of(!color)
            .is_some_and(|k| relative_rank(color, 7).contains(k));
        if king_cut_off || (enemy_pawns & seventh).any() {
            rooks = (heavy & board.rooks()).count() as i32;
            queens = (heavy & board.queens()).count() as i32;
        }
    }
    for (f, coef) in [
        (feature::KNIGHT_OUTPOST, knights),
        (feature::BISHOP_OUTPOST, bishops),
        (feature::ROOK_ON_SEVENTH, rooks),
        (feature::QUEEN_ON_SEVENTH, queens),
    ] {
        if coef != 0 {
            sink.add(f, s * coef);
        }
    }
}
