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

/// Piece counts of `color` (the king has no material weight).
pub(super) fn material<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let s = sign(color);
    let ours = board.by_color(color);
    for role in Role::ALL.into_iter().filter(|&r| r != Role::King) {
        let count = (board.by_role(role) & ours).count() as i32;
        sink.add(feature::MATERIAL + role as usize - 1, s * count);
    }
}

/// Piece-square entries for every piece of `color`, king included.
pub(super) fn piece_squares<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let s = sign(color);
    let ours = board.by_color(color);
    for role in Role::ALL {
        let table = feature::PST + 64 * (role as usize - 1);
        for square in board.by_role(role) & ours {
            sink.add(table + usize::from(relative(square, color)), s);
        }
    }
}
