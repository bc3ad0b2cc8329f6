//! King activity: a central king and a king near the pawns (its own to escort them, the
//! enemy's to win or stop them), which matter in the endgame, and a king on a flank without
//! pawns. All fitted by the tuner, middlegame and endgame weights alike.

use shakmaty::{Bitboard, Board, Color, Square};

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

/// `WITHIN[square][d]`: the squares at most `d` king steps from `square` (Chebyshev
/// distance), `d` = 0..=7. One cache line per square.
#[repr(align(64))]
struct Within([[u64; 8]; 64]);

static WITHIN: Within = {
    let mut table = [[0u64; 8]; 64];
    let mut from: usize = 0;
    while from < 64 {
        let mut to: usize = 0;
        while to < 64 {
            let (df, dr) = (
                (from % 8) as i32 - (to % 8) as i32,
                (from / 8) as i32 - (to / 8) as i32,
            );
            let distance = if df.abs() > dr.abs() {
                df.abs()
            } else {
                dr.abs()
            };
            let mut d = distance as usize;
            while d < 8 {
                table[from][d] |= 1u64 << to;
                d += 1;
            }
            to += 1;
        }
        from += 1;
    }
    Within(table)
};

/// The sums of the distances (Chebyshev) from `king` to each of `a` and to each of `b`. A
/// square `d` steps away lies outside the squares within 0, 1, .., d − 1 steps: it counts
/// once for each of those rings, so the sum is a popcount per ring, with no loop over pawns.
#[inline(always)]
pub(super) fn distance_sums(king: Square, a: Bitboard, b: Bitboard) -> (i32, i32) {
    let within = &WITHIN.0[usize::from(king)];
    let (mut sum_a, mut sum_b) = (0, 0);
    for &w in &within[..7] {
        sum_a += (a.0 & !w).count_ones() as i32;
        sum_b += (b.0 & !w).count_ones() as i32;
    }
    (sum_a, sum_b)
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
    sink.add(feature::KING_CENTER, s * center);
    let pawns = board.pawns();
    let (own, enemy) = distance_sums(
        king,
        pawns & board.by_color(color),
        pawns & board.by_color(!color),
    );
    sink.add(feature::KING_OWN_PAWN_DISTANCE, s * own);
    sink.add(feature::KING_ENEMY_PAWN_DISTANCE, s * enemy);
    let flank = KING_FLANK[king.file() as usize];
    sink.add(
        feature::PAWNLESS_FLANK,
        s * i32::from((pawns & flank).is_empty()),
    );
}

/// The files of the king's flank, by its file: a..d for a..c, c..f for d and e, e..h for f..h.
const KING_FLANK: [Bitboard; 8] = {
    const fn files(first: u32, last: u32) -> Bitboard {
        let mut b = 0u64;
        let mut f = first;
        while f <= last {
            b |= 0x0101_0101_0101_0101u64 << f;
            f += 1;
        }
        Bitboard(b)
    }
    let queen_side = files(0, 3);
    let center = files(2, 5);
    let king_side = files(4, 7);
    [
        queen_side, queen_side, queen_side, center, center, king_side, king_side, king_side,
    ]
};

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Square};

    use super::distance_sums;
    use crate::params::feature;
    use crate::testing::coefficient as coef;

    #[test]
    fn king_on_a_flank_without_pawns() {
        // White's king on g1 (flank e..h: no pawns), Black's on b8 (flank a..d: a7, a2).
        let fen = "1k6/p7/8/8/8/8/P7/6K1 w - - 0 1";
        assert_eq!(coef(fen, feature::PAWNLESS_FLANK), 1);
        // Black's king on e8 (flank c..f: no pawns either).
        let both = "4k3/p7/8/8/8/8/P7/6K1 w - - 0 1";
        assert_eq!(coef(both, feature::PAWNLESS_FLANK), 0);
    }

    #[test]
    fn distance_sums_add_up_the_distances() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..2_000 {
            let (a, b) = (
                Bitboard(next() & next()),
                Bitboard(next() & next() & next()),
            );
            let (a, b) = if i == 0 {
                (Bitboard::FULL, Bitboard::EMPTY)
            } else {
                (a, b)
            };
            for king in Square::ALL {
                let direct = |set: Bitboard| set.into_iter().map(|p| king.distance(p) as i32).sum();
                assert_eq!(
                    distance_sums(king, a, b),
                    (direct(a), direct(b)),
                    "{king} {a:?} {b:?}"
                );
            }
        }
    }
}
