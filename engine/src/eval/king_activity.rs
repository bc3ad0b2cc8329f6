//! King activity in the endgame: a central king, and a king near the pawns (its own to
//! escort them, the enemy's to win or stop them). Hand-set weights on the endgame side only,
//! so the phase blend brings them in as pieces come off.

use shakmaty::{Board, Color, Square};

use super::{Sink, sign};
use crate::params::feature;

/// How close `square` is to the centre: 6 on d4, e4, d5, e5, down to 0 in a corner (6 minus
/// the files plus ranks to the nearest centre square).
#[inline]
pub(super) fn centrality(square: Square) -> i32 {
    let off_centre = |x: i32| (3 - x).max(x - 4);
    let file = square.file().to_u32() as i32;
    let rank = square.rank().to_u32() as i32;
    6 - off_centre(file) - off_centre(rank)
}

/// `color`'s king: `KING_CENTER` by [`centrality`], `KING_OWN_PAWN_DISTANCE` and
/// `KING_ENEMY_PAWN_DISTANCE` as the sums of its distances (Chebyshev) to each own and each
/// enemy pawn.
#[inline(always)]
pub(super) fn king_activity<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let s = sign(color);
    let center = centrality(king);
    if center != 0 {
        sink.add(feature::KING_CENTER, s * center);
    }
    let pawns = board.pawns();
    let distance_sum = |side: Color| -> i32 {
        (pawns & board.by_color(side))
            .into_iter()
            .map(|p| king.distance(p) as i32)
            .sum()
    };
    let own = distance_sum(color);
    if own != 0 {
        sink.add(feature::KING_OWN_PAWN_DISTANCE, s * own);
    }
    let enemy = distance_sum(!color);
    if enemy != 0 {
        sink.add(feature::KING_ENEMY_PAWN_DISTANCE, s * enemy);
    }
}
