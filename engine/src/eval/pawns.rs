//! Pawn structure: passed, doubled, isolated and backward pawns, passed pawns defended by a
//! pawn, weak pawns on half-open files, pawn islands, space.

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
pub(crate) fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    let pawns = pawns.0;
    let not_a = !Bitboard::from_file(File::A).0;
    let not_h = !Bitboard::from_file(File::H).0;
    Bitboard(match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

/// Passed pawns by relative rank, doubled pawns (another own pawn ahead on the file),
/// isolated pawns (no own pawn on a neighbouring file), passed pawns defended by an own
/// pawn (`SUPPORTED_PASSER`), connected pawns by relative rank (defended by an own pawn or
/// beside one, `CONNECTED_PAWN`) and backward pawns (`BACKWARD_PAWN`) of `color`. A pawn with
/// an own pawn ahead of it is not counted as passed: the front one is. Returns the passed pawns, for the terms that also read the
/// pieces ([`super::passers`]); they depend on the pawns alone, so the pawn cache keeps them.
#[inline(always)]
pub(super) fn pawn_structure<S: Sink>(board: &Board, color: Color, sink: &mut S) -> Bitboard {
    let s = sign(color);
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let (mut doubled, mut isolated, mut backward, mut unopposed) = (0, 0, 0, 0);
    let mut passed = Bitboard::EMPTY;
    let defended = pawn_attacks_of(ours, color);
    let enemy_attacks = pawn_attacks_of(theirs, !color);
    for square in ours {
        let ahead = ranks_ahead(square, color);
        let file = Bitboard::from_file(square.file());
        let neighbours = adjacent_files(square.file());
        // Pawns stand on relative ranks 2..=7 (index 1..=6).
        let rank = match color {
            Color::White => u32::from(square.rank()),
            Color::Black => 7 - u32::from(square.rank()),
        };
        let own_ahead = (ours & file & ahead).any();
        if own_ahead {
            doubled += 1;
        }
        let weak = if (ours & neighbours).is_empty() {
            isolated += 1;
            true
        } else if (ours & neighbours & !ahead).is_empty()
            && square
                .offset(if color == Color::White { 8 } else { -8 })
                .is_some_and(|stop| enemy_attacks.contains(stop))
        {
            backward += 1;
            true
        } else {
            false
        };
        if weak && (theirs & file & ahead).is_empty() {
            unopposed += 1;
        }
        let beside = ours & neighbours & Bitboard::from_rank(square.rank());
        if defended.contains(square) || beside.any() {
            sink.add(feature::CONNECTED_PAWN + rank as usize - 1, s);
        }
        if !own_ahead && (theirs & ahead & file_and_neighbours(square.file())).is_empty() {
            sink.add(feature::PASSED_PAWN + rank as usize - 1, s);
            passed.add(square);
        }
    }
    sink.add(feature::DOUBLED_PAWN, s * doubled);
    sink.add(feature::ISOLATED_PAWN, s * isolated);
    sink.add(feature::BACKWARD_PAWN, s * backward);
    sink.add(feature::WEAK_UNOPPOSED_PAWN, s * unopposed);
    sink.add(feature::PAWN_ISLANDS, s * islands(ours));
    let supported = (passed & defended).count() as i32;
    sink.add(feature::SUPPORTED_PASSER, s * supported);
    sink.add(feature::SPACE, s * space(ours, enemy_attacks, color));
    passed
}

/// Groups of adjacent files holding `pawns`.
#[inline(always)]
fn islands(pawns: Bitboard) -> i32 {
    // One bit per file with a pawn: fold the ranks onto the first.
    let mut files = pawns.0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    let files = files & 0xff;
    // An island starts at each file with a pawn whose left neighbour has none.
    (files & !(files << 1)).count_ones() as i32
}

/// The c..f files of `color`'s second to fourth rank.
const SPACE_AREA: [Bitboard; 2] = [
    Bitboard(0x003c_3c3c_0000_0000), // Black: c5..f7
    Bitboard(0x0000_0000_3c3c_3c00), // White: c2..f4
];

/// [`feature::SPACE`]'s coefficient for `color`, whose pawns are `ours`, the enemy pawns
/// attacking `enemy_attacks`.
#[inline(always)]
fn space(ours: Bitboard, enemy_attacks: Bitboard, color: Color) -> i32 {
    let safe = SPACE_AREA[color as usize] & !ours & !enemy_attacks;
    // The squares up to three ranks behind own pawns.
    let behind = match color {
        Color::White => Bitboard(ours.0 >> 8 | ours.0 >> 16 | ours.0 >> 24),
        Color::Black => Bitboard(ours.0 << 8 | ours.0 << 16 | ours.0 << 24),
    };
    (safe.count() + (safe & behind).count()) as i32
}

#[cfg(test)]
mod tests {
    use crate::params::feature;
    use crate::testing::coefficient as coef;

    #[test]
    fn connected_pawns_by_relative_rank() {
        // White: d4 and e4 side by side (two on the fourth rank), c3 defended by nothing and
        // beside nothing; b2 defends c3, so c3 counts (third rank) and b2 does not.
        let fen = "4k3/8/8/8/3PP3/2P5/1P6/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::CONNECTED_PAWN + 2), 2);
        assert_eq!(coef(fen, feature::CONNECTED_PAWN + 1), 1);
        assert_eq!(coef(fen, feature::CONNECTED_PAWN), 0);
        // The mirror for Black counts the same with the opposite sign.
        let mirror = "4k3/1p6/2p5/3pp3/8/8/8/4K3 b - - 0 1";
        assert_eq!(coef(mirror, feature::CONNECTED_PAWN + 2), -2);
        assert_eq!(coef(mirror, feature::CONNECTED_PAWN + 1), -1);
    }

    #[test]
    fn weak_pawns_on_half_open_files() {
        // a2 and a7 are isolated but face each other; h7 is isolated and unopposed.
        let fen = "4k3/p6p/8/8/8/8/P7/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::WEAK_UNOPPOSED_PAWN), -1);
    }

    #[test]
    fn pawn_islands() {
        // White: a+b, d, g+h (three islands); Black: h (one).
        let fen = "4k3/7p/8/8/8/8/PP1P2PP/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::PAWN_ISLANDS), 2);
    }

    #[test]
    fn space_behind_the_pawns() {
        // White (pawns d4, e4): of c2..f4's 12 squares, 10 hold no White pawn (Black's c5
        // attacks only d4, already out), and d2, d3, e2, e3 are behind the pawns: 14.
        // Black (pawn c5): of c5..f7's 12, 11 hold no Black pawn, less d5, e5, f5 that White's
        // pawns attack: 8, and c6, c7 behind c5: 10.
        let fen = "4k3/8/8/2p5/3PP3/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::SPACE), (10 + 4) - (8 + 2));
    }

    #[test]
    fn backward_pawns_have_no_support_and_a_guarded_stop_square() {
        // d3 has c4 ahead on its left and nothing level or behind; d4, its stop square, is
        // attacked by Black's e5 pawn: backward. c4 has no stop-square attacker.
        let fen = "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::BACKWARD_PAWN), 1);
        // With e2 level-behind it, d3 is no longer backward.
        let supported = "4k3/8/8/4p3/2P5/3P4/4P3/4K3 w - - 0 1";
        assert_eq!(coef(supported, feature::BACKWARD_PAWN), 0);
    }
}
