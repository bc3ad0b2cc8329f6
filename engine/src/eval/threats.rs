//! Threats: enemy pieces attacked by pawns, rooks and queens attacked by minor pieces, queens
//! by rooks, pieces attacked but not defended, pieces a safe pawn push would attack,
//! undefended pawns attacked by pieces, undefended men attacked by the king, squares both
//! sides contest, and pieces only the queen defends.

use shakmaty::{Bitboard, Board, Color, Rank, attacks};

use super::pawns::pawn_attacks_of;
use super::pieces::PieceAttacks;
use crate::params::{FeatureId, feature};

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

/// The features [`threats`] counts, in the order of its counts.
pub(super) const THREAT_FEATURES: [FeatureId; 12] = [
    feature::THREAT_BY_PAWN,
    feature::THREAT_BY_MINOR,
    feature::HANGING,
    feature::THREAT_BY_ROOK,
    feature::PAWN_PUSH_THREAT,
    feature::THREAT_ON_PAWN,
    feature::THREAT_BY_KING,
    feature::RESTRICTED,
    feature::THREAT_BY_SAFE_PAWN,
    feature::KNIGHT_ON_QUEEN,
    feature::SLIDER_ON_QUEEN,
    feature::WEAK_QUEEN_PROTECTION,
];

/// Counts of `color`'s threats on the other side's knights, bishops, rooks and queens, by
/// [`THREAT_FEATURES`]: attacked by a pawn (`THREAT_BY_PAWN`), rooks and queens attacked by
/// a knight or bishop (`THREAT_BY_MINOR`), queens attacked by a rook (`THREAT_BY_ROOK`),
/// attacked by anything while defended by nothing (`HANGING`), attacked after a safe pawn
/// push (`PAWN_PUSH_THREAT`), knights, bishops and rooks only the queen defends
/// (`WEAK_QUEEN_PROTECTION`), and the others listed there. Counted per side, so that the caller adds each feature's
/// weight once for both sides.
#[inline(always)]
pub(super) fn threats(board: &Board, color: Color, ours: &Attacks, theirs: &Attacks) -> [i32; 12] {
    let count = |b: Bitboard| b.count() as i32;
    let enemy = board.by_color(!color);
    let pieces = enemy & !board.pawns() & !board.kings();
    let by_pawn = count(pieces & ours.pawns);
    let by_minor = count(enemy & board.rooks_and_queens() & ours.pieces.minors);
    let hanging = count(pieces & ours.all & !theirs.all);
    let by_rook = count(enemy & board.queens() & ours.pieces.by_role[2]);
    let pushes = pawn_pushes(board, color) & !theirs.pawns & (ours.all | !theirs.all);
    let by_push = count(pieces & pawn_attacks_of(pushes, color));
    let undefended = enemy & !theirs.all;
    let weak_pawns = count(undefended & board.pawns() & ours.pieces.all);
    let by_king = count(undefended & !board.kings() & ours.king);
    let restricted = count(ours.all & theirs.all & !theirs.pawns);
    let own_pawns = board.pawns() & board.by_color(color);
    let safe_pawns = own_pawns & (ours.all | !theirs.all);
    let by_safe_pawn = count(pieces & pawn_attacks_of(safe_pawns, color));
    let [knights, bishops, rooks, queens] = theirs.pieces.by_role;
    let defended_but_by_queen = theirs.pawns | theirs.king | knights | bishops | rooks;
    let only_queen_defends = queens & !defended_but_by_queen;
    let minors_and_rooks = pieces & !board.queens();
    let weak_queen_protection = count(minors_and_rooks & ours.all & only_queen_defends);
    let (mut knight_on_queen, mut slider_on_queen) = (0, 0);
    let enemy_queens = enemy & board.queens();
    if enemy_queens.count() == 1
        && let Some(queen) = enemy_queens.first()
    {
        let safe = !board.by_color(color) & !theirs.pawns;
        knight_on_queen = count(attacks::knight_attacks(queen) & ours.pieces.by_role[0] & safe);
        let occupied = board.occupied();
        let by_slider = (attacks::bishop_attacks(queen, occupied) & ours.pieces.by_role[1])
            | (attacks::rook_attacks(queen, occupied) & ours.pieces.by_role[2]);
        slider_on_queen = count(by_slider & safe);
    }
    [
        by_pawn,
        by_minor,
        hanging,
        by_rook,
        by_push,
        weak_pawns,
        by_king,
        restricted,
        by_safe_pawn,
        knight_on_queen,
        slider_on_queen,
        weak_queen_protection,
    ]
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
