//! Outposts and the seventh rank: knights and bishops on squares no enemy pawn can ever
//! attack, backed by an own pawn, and knights one move from such a square; rooks and queens
//! on the seventh rank when that rank holds enemy pawns or cuts off the enemy king on the
//! eighth.

use shakmaty::{Bitboard, Board, Color, Rank, attacks};

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

/// The squares on which `color`'s minor pieces stand on an outpost: its fourth to sixth
/// ranks, attacked by an own pawn (`own_pawn_attacks`), and out of reach of every enemy pawn
/// now and later (not in the fill of `enemy_pawn_attacks` towards `color`'s side: an enemy
/// pawn on a neighbouring file ahead attacks the squares below it on its way down).
#[inline(always)]
pub(super) fn outpost_squares(
    color: Color,
    own_pawn_attacks: Bitboard,
    enemy_pawn_attacks: Bitboard,
) -> Bitboard {
    let mut reach = enemy_pawn_attacks.0;
    let middle = match color {
        Color::White => {
            reach |= reach >> 8;
            reach |= reach >> 16;
            reach |= reach >> 32;
            0x0000_ffff_ff00_0000
        }
        Color::Black => {
            reach |= reach << 8;
            reach |= reach << 16;
            reach |= reach << 32;
            0x0000_00ff_ffff_0000
        }
    };
    Bitboard(middle & own_pawn_attacks.0 & !reach)
}

/// `color`'s knights (`KNIGHT_OUTPOST`) and bishops (`BISHOP_OUTPOST`) on its fourth to sixth
/// ranks, defended by an own pawn (from `ours`, its attack maps), with no enemy pawn left on
/// the neighbouring files ahead that could drive them away ([`outpost_squares`]); and its
/// rooks (`ROOK_ON_SEVENTH`) and queens (`QUEEN_ON_SEVENTH`) on its seventh rank when enemy
/// pawns stand there or the enemy king is on the eighth.
#[inline(always)]
pub(super) fn outposts<S: Sink>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let s = sign(color);
    let own = board.by_color(color);
    let enemy_pawns = board.pawns() & board.by_color(!color);
    let all_outposts = outpost_squares(color, ours.pawns, theirs.pawns);
    let outposts = all_outposts & own;
    let knights = (outposts & board.knights()).count() as i32;
    let targets = all_outposts & !own;
    let reaching = (board.knights() & own & !outposts)
        .into_iter()
        .filter(|&sq| (attacks::knight_attacks(sq) & targets).any())
        .count() as i32;
    sink.add(feature::REACHABLE_OUTPOST, s * reaching);
    let bishops = (outposts & board.bishops()).count() as i32;
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
        sink.add(f, s * coef);
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Color, Square};

    use super::outpost_squares;
    use crate::eval::pawns::{adjacent_files, pawn_attacks_of, ranks_ahead};

    /// The definition square by square: fourth to sixth rank, attacked by an own pawn, no
    /// enemy pawn on a neighbouring file on a rank ahead.
    fn by_definition(color: Color, own: Bitboard, enemy: Bitboard) -> Bitboard {
        let defended = pawn_attacks_of(own, color);
        Square::ALL
            .into_iter()
            .filter(|&sq| {
                let rank = match color {
                    Color::White => u32::from(sq.rank()),
                    Color::Black => 7 - u32::from(sq.rank()),
                };
                (3..=5).contains(&rank)
                    && defended.contains(sq)
                    && (enemy & adjacent_files(sq.file()) & ranks_ahead(sq, color)).is_empty()
            })
            .collect()
    }

    #[test]
    fn outpost_squares_follow_the_definition() {
        // Random pawn placements on the second to seventh ranks, sparse and dense.
        let mut state = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pawn_ranks = 0x00ff_ffff_ffff_ff00u64;
        let mut with_outposts = 0;
        for i in 0..20_000 {
            let (mut white, mut black) = (next() & pawn_ranks, next() & pawn_ranks);
            for _ in 0..i % 3 {
                white &= next();
                black &= next();
            }
            let (white, black) = (Bitboard(white & !black), Bitboard(black & !white));
            for (color, own, enemy) in [(Color::White, white, black), (Color::Black, black, white)]
            {
                let expected = by_definition(color, own, enemy);
                let enemy_attacks = pawn_attacks_of(enemy, !color);
                let got = outpost_squares(color, pawn_attacks_of(own, color), enemy_attacks);
                assert_eq!(got, expected, "{color:?} own {own:?} enemy {enemy:?}");
                with_outposts += usize::from(expected.any());
            }
        }
        assert!(
            with_outposts > 5_000,
            "only {with_outposts} placements had outposts"
        );
    }

    #[test]
    fn knights_one_move_from_an_outpost() {
        use crate::params::feature;
        use crate::testing::coefficient as coef;
        // d5 and f5 are outposts (defended by e4, no black pawn on the files beside them);
        // the knight on c3 reaches d5.
        let fen = "4k3/7p/8/8/4P3/2N5/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::REACHABLE_OUTPOST), 1);
        // On d5 itself it is on the outpost, not one move from it.
        let on = "4k3/7p/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(coef(on, feature::REACHABLE_OUTPOST), 0);
        assert_eq!(coef(on, feature::KNIGHT_OUTPOST), 1);
        // A black pawn on c7 can still drive a knight from d5; f5 is out of its reach.
        let driven = "4k3/2p4p/8/8/4P3/2N5/8/4K3 w - - 0 1";
        assert_eq!(coef(driven, feature::REACHABLE_OUTPOST), 0);
    }
}
