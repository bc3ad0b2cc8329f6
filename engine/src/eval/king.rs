//! King safety from the pawns around the king: shelter and open files.

use shakmaty::{Bitboard, Board, Color, File, Rank, attacks};

use super::pawns::file_and_neighbours;
use super::{Sink, sign};
use crate::params::feature;

/// The squares an attack on the king counts on: the king's square and its neighbours.
#[inline]
pub(super) fn king_zone(board: &Board, color: Color) -> Bitboard {
    match board.king_of(color) {
        Some(king) => attacks::king_attacks(king) | Bitboard::from_square(king),
        None => Bitboard::EMPTY,
    }
}

/// Own pawns one or two ranks ahead of the king on its and the neighbouring files (shelter),
/// and how many of those three files hold no own pawn at all (open files next to the king).
#[inline(always)]
pub(super) fn king_pawns<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let s = sign(color);
    let ours = board.pawns() & board.by_color(color);
    let files = file_and_neighbours(king.file());
    let rank = u32::from(king.rank());
    let mut near_ranks = Bitboard::EMPTY;
    for step in 1..=2 {
        let r = match color {
            Color::White => rank + step,
            Color::Black => rank.wrapping_sub(step),
        };
        if r < 8 {
            near_ranks |= Bitboard::from_rank(Rank::new(r));
        }
    }
    let shelter = (ours & files & near_ranks).count() as i32;
    sink.add(feature::KING_SHELTER, s * shelter);
    let first = king.file().to_u32().saturating_sub(1);
    let last = (king.file().to_u32() + 1).min(7);
    let open = (first..=last)
        .filter(|&f| (ours & Bitboard::from_file(File::new(f))).is_empty())
        .count() as i32;
    sink.add(feature::KING_OPEN_FILE, s * open);
}
