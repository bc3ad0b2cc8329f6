//! Threats: enemy pieces attacked by pawns, rooks and queens attacked by minor pieces, queens
//! by rooks, pieces attacked but not defended, pieces a safe pawn push would attack,
//! undefended pawns attacked by pieces, undefended men attacked by the king, squares both
//! sides contest, and pieces only the queen defends.

use shakmaty::{Bitboard, Board, Color, Rank, attacks};

use super::pawns::pawn_attacks_of;
use super::pieces::PieceAttacks;
use super::{Sink, sign};
use crate::params::feature;

/// Everything one side attacks, by kind of attacker.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Attacks {
    pub pawns: Bitboard,
    /// By the king.
    pub king: Bitboard,
    /// By pawns, pieces and the king.
    pub all: Bitboard,
    /// What the knights, bishops, rooks and queens attack, and their king-danger units.
    pub pieces: PieceAttacks,
}

impl Attacks {
    /// `color`'s attacks from its pawns (`pawns`: the squares they attack), its king and
    /// `pieces` (what its knights, bishops, rooks and queens attack, as found by the mobility
    /// walk).
    #[inline]
    pub(super) fn new(board: &Board, color: Color, pawns: Bitboard, pieces: PieceAttacks) -> Self {
        let king = board
            .king_of(color)
            .map_or(Bitboard::EMPTY, attacks::king_attacks);
        Attacks {
            pawns,
            king,
            all: pawns | pieces.all | king,
            pieces,
        }
    }
}

/// `color`'s threats on the other side's knights, bishops, rooks and queens: attacked by a
/// pawn (`THREAT_BY_PAWN`), rooks and queens attacked by a knight or bishop
/// (`THREAT_BY_MINOR`), queens attacked by a rook (`THREAT_BY_ROOK`), attacked by anything
/// while defended by nothing (`HANGING`), and attacked after a safe pawn push
/// (`PAWN_PUSH_THREAT`).
#[inline(always)]
pub(super) fn threats<S: Sink>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let s = sign(color);
    let enemy = board.by_color(!color);
    let pieces = enemy & !board.pawns() & !board.kings();
    let by_pawn = (pieces & ours.pawns).count() as i32;
    sink.add(feature::THREAT_BY_PAWN, s * by_pawn);
    let by_minor = (enemy & board.rooks_and_queens() & ours.pieces.minors).count() as i32;
    sink.add(feature::THREAT_BY_MINOR, s * by_minor);
    let hanging = (pieces & ours.all & !theirs.all).count() as i32;
    sink.add(feature::HANGING, s * hanging);
    let by_rook = (enemy & board.queens() & ours.pieces.by_role[2]).count() as i32;
    sink.add(feature::THREAT_BY_ROOK, s * by_rook);
    let pushes = pawn_pushes(board, color) & !theirs.pawns & (ours.all | !theirs.all);
    let by_push = (pieces & pawn_attacks_of(pushes, color)).count() as i32;
    sink.add(feature::PAWN_PUSH_THREAT, s * by_push);
    let undefended = enemy & !theirs.all;
    let weak_pawns = undefended & board.pawns() & ours.pieces.all;
    sink.add(feature::THREAT_ON_PAWN, s * weak_pawns.count() as i32);
    let by_king = (undefended & !board.kings() & ours.king).count() as i32;
    sink.add(feature::THREAT_BY_KING, s * by_king);
    let restricted = (ours.all & theirs.all & !theirs.pawns).count() as i32;
    sink.add(feature::RESTRICTED, s * restricted);
    let own_pawns = board.pawns() & board.by_color(color);
    let safe_pawns = own_pawns & (ours.all | !theirs.all);
    let by_safe_pawn = (pieces & pawn_attacks_of(safe_pawns, color)).count() as i32;
    sink.add(feature::THREAT_BY_SAFE_PAWN, s * by_safe_pawn);
    let [knights, bishops, rooks, queens] = theirs.pieces.by_role;
    let defended_but_by_queen = theirs.pawns | theirs.king | knights | bishops | rooks;
    let only_queen_defends = queens & !defended_but_by_queen;
    let minors_and_rooks = pieces & !board.queens();
    let weak_queen_protection = (minors_and_rooks & ours.all & only_queen_defends).count() as i32;
    sink.add(feature::WEAK_QUEEN_PROTECTION, s * weak_queen_protection);
    let enemy_queens = enemy & board.queens();
    if enemy_queens.count() == 1
        && let Some(queen) = enemy_queens.first()
    {
        let safe = !board.by_color(color) & !theirs.pawns;
        let by_knight = attacks::knight_attacks(queen) & ours.pieces.by_role[0] & safe;
        sink.add(feature::KNIGHT_ON_QUEEN, s * by_knight.count() as i32);
        let occupied = board.occupied();
        let by_slider = (attacks::bishop_attacks(queen, occupied) & ours.pieces.by_role[1])
            | (attacks::rook_attacks(queen, occupied) & ours.pieces.by_role[2]);
        sink.add(
            feature::SLIDER_ON_QUEEN,
            s * (by_slider & safe).count() as i32,
        );
    }
}

/// The empty squares `color`'s pawns can push to: one step, or two from their second rank.
#[inline(always)]
fn pawn_pushes(board: &Board, color: Color) -> Bitboard {
    let pawns = board.pawns() & board.by_color(color);
    let empty = !board.occupied();
    match color {
        Color::White => {
            let single = Bitboard(pawns.0 << 8) & empty;
            single | (Bitboard((single & Bitboard::from_rank(Rank::Third)).0 << 8) & empty)
        }
        Color::Black => {
            let single = Bitboard(pawns.0 >> 8) & empty;
            single | (Bitboard((single & Bitboard::from_rank(Rank::Sixth)).0 >> 8) & empty)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::params::feature;
    use crate::testing::coefficient as coef;

    #[test]
    fn rook_attacking_a_queen() {
        assert_eq!(
            coef("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", feature::THREAT_BY_ROOK),
            1
        );
        assert_eq!(
            coef("3qk3/8/8/8/3P4/8/8/3RK3 w - - 0 1", feature::THREAT_BY_ROOK),
            0
        );
    }

    #[test]
    fn undefended_pawn_attacked_by_a_piece() {
        assert_eq!(
            coef("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", feature::THREAT_ON_PAWN),
            1
        );
        // Defended by the pawn on c6.
        assert_eq!(
            coef(
                "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1",
                feature::THREAT_ON_PAWN
            ),
            0
        );
    }

    #[test]
    fn undefended_man_attacked_by_the_king() {
        let fen = "4k3/7p/8/4n3/4K3/8/P7/8 w - - 0 1";
        assert_eq!(coef(fen, feature::THREAT_BY_KING), 1);
        // The pawn on f6 defends the knight.
        let defended = "4k3/7p/5p2/4n3/4K3/8/P7/8 w - - 0 1";
        assert_eq!(coef(defended, feature::THREAT_BY_KING), 0);
    }

    #[test]
    fn contested_squares_not_defended_by_pawns() {
        // Both rooks attack d2..d7 (6 squares each); Black's pawn on e6 guards d5, which White
        // then does not count: 5 − 6.
        let fen = "3r3k/8/4p3/8/8/8/8/K2R4 w - - 0 1";
        assert_eq!(coef(fen, feature::RESTRICTED), -1);
    }

    #[test]
    fn threat_by_a_safe_pawn() {
        assert_eq!(
            coef(
                "4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1",
                feature::THREAT_BY_SAFE_PAWN
            ),
            1
        );
        // The pawn on c5 attacks d4, which nothing of White's defends.
        assert_eq!(
            coef(
                "4k3/8/8/2p1n3/3P4/8/8/4K3 w - - 0 1",
                feature::THREAT_BY_SAFE_PAWN
            ),
            0
        );
    }

    #[test]
    fn pieces_that_can_attack_the_queen() {
        // The knight on b1 reaches c3, from where it attacks the queen on d5.
        let knight = "4k3/7p/8/3q4/8/8/P7/1N2K3 w - - 0 1";
        assert_eq!(coef(knight, feature::KNIGHT_ON_QUEEN), 1);
        // The rook on a1 reaches a5 and d1, both on the queen's lines.
        let rook = "4k3/7p/8/3q4/8/8/7P/R3K3 w - - 0 1";
        assert_eq!(coef(rook, feature::SLIDER_ON_QUEEN), 2);
    }

    #[test]
    fn pawn_push_threats() {
        // e2-e3 or e2-e4 would attack the knight on d5 (e4) or nothing (e3): one threat;
        // the black pawn on c6 defends d5 but not e4.
        let fen = "4k3/8/2p5/3n4/8/8/4P3/4K3 w - - 0 1";
        assert_eq!(coef(fen, feature::PAWN_PUSH_THREAT), 1);
        // A black pawn on f5 attacks e4: the push is not safe.
        let guarded = "4k3/8/2p5/3n1p2/8/8/4P3/4K3 w - - 0 1";
        assert_eq!(coef(guarded, feature::PAWN_PUSH_THREAT), 0);
    }

    #[test]
    fn pieces_only_the_queen_defends() {
        // The rook on d1 attacks the knight on d5, which only the queen on d8 defends.
        let fen = "3q3k/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        assert_eq!(coef(fen, feature::WEAK_QUEEN_PROTECTION), 1);
        // A pawn on e6 defends it too.
        let pawn = "3q3k/8/4p3/3n4/8/8/8/3RK3 w - - 0 1";
        assert_eq!(coef(pawn, feature::WEAK_QUEEN_PROTECTION), 0);
    }
}
