//! Pawn structure: passed, doubled and isolated pawns, and passed pawns defended by a pawn.

use shakmaty::{Bitboard, Board, Color, File, Square};

use super::{Sink, sign};
use crate::params::feature;

/// `file` and the files next to it.
#[inline]
pub(super) fn file_and_neighbours(file: File) -> Bitboard {
    let own = Bitboard::from_file(file);
    own | adjacent_files(file)
}

/// The files next to `file`.
#[inline]
pub(super) fn adjacent_files(file: File) -> Bitboard {
    let own = Bitboard::from_file(file).0;
    Bitboard(
        ((own << 1) & !Bitboard::from_file(File::A).0)
            | ((own >> 1) & !Bitboard::from_file(File::H).0),
    )
}

/// Every square strictly ahead of `square`'s rank, from `color`'s point of view.
#[inline]
pub(super) fn ranks_ahead(square: Square, color: Color) -> Bitboard {
    let rank = u32::from(square.rank());
    Bitboard(match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
        Color::White => 0,
    })
}

/// Squares attacked by the pawns of `color` (all at once, by shifting).
#[inline]
pub(super) fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    pawn_attacks_of(board.pawns() & board.by_color(color), color)
}

/// Squares attacked by `pawns`, pawns of `color`.
#[inline]
pub(super) fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    let pawns = pawns.0;
    let not_a = !Bitboard::from_file(File::A).0;
    let not_h = !Bitboard::from_file(File::H).0;
    Bitboard(match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

/// Passed pawns by relative rank, doubled pawns (another own pawn ahead on the file),
/// isolated pawns (no own pawn on a neighbouring file) and passed pawns defended by an own
/// pawn (`SUPPORTED_PASSER`) of `color`. A pawn with an own pawn ahead of it is not counted
/// as passed: the front one is. Returns the passed pawns, for the terms that also read the
/// pieces ([`super::passers`]); they depend on the pawns alone, so the pawn cache keeps them.
#[inline(always)]
pub(super) fn pawn_structure<S: Sink>(board: &Board, color: Color, sink: &mut S) -> Bitboard {
    let s = sign(color);
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let (mut doubled, mut isolated) = (0, 0);
    let mut passed = Bitboard::EMPTY;
    for square in ours {
        let ahead = ranks_ahead(square, color);
        let file = Bitboard::from_file(square.file());
        let own_ahead = (ours & file & ahead).any();
        if own_ahead {
            doubled += 1;
        }
        if (ours & adjacent_files(square.file())).is_empty() {
            isolated += 1;
        }
        if !own_ahead && (theirs & ahead & file_and_neighbours(square.file())).is_empty() {
            let rank = match color {
                Color::White => u32::from(square.rank()),
                Color::Black => 7 - u32::from(square.rank()),
            };
            // Pawns stand on relative ranks 2..=7 (index 1..=6).
            sink.add(feature::PASSED_PAWN + rank as usize - 1, s);
            passed.add(square);
        }
    }
    sink.add(feature::DOUBLED_PAWN, s * doubled);
    sink.add(feature::ISOLATED_PAWN, s * isolated);
    let supported = (passed & pawn_attacks(board, color)).count() as i32;
    sink.add(feature::SUPPORTED_PASSER, s * supported);
    passed
}
