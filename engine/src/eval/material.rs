//! Material and piece-square tables.

use shakmaty::{Board, Color, Role, Square};

use super::{Sink, sign};
use crate::params::feature;

/// The square as seen from `color`'s side: Black's pieces read the vertically flipped square.
#[inline]
pub(super) fn relative(square: Square, color: Color) -> Square {
    match color {
        Color::White => square,
        Color::Black => square.flip_vertical(),
    }
}

/// Piece counts of `color` alone, without the tables.
pub(super) fn material<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let s = sign(color);
    let ours = board.by_color(color);
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let count = (board.by_role(role) & ours).count() as i32;
        if count != 0 {
            sink.add(feature::MATERIAL + role as usize - 1, s * count);
        }
    }
}

/// Piece counts and piece-square entries for every piece of `color` (the king has a PST but
/// no material weight).
pub(super) fn material_and_pst<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let s = sign(color);
    let ours = board.by_color(color);
    for role in Role::ALL {
        let pieces = board.by_role(role) & ours;
        let index = role as usize - 1;
        if role != Role::King {
            let count = pieces.count() as i32;
            if count != 0 {
                sink.add(feature::MATERIAL + index, s * count);
            }
        }
        for square in pieces {
            sink.add(
                feature::PST + 64 * index + usize::from(relative(square, color)),
                s,
            );
        }
    }
}
