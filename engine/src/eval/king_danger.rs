//! King danger: the pieces attacking the enemy king zone and the safe checks they have, as
//! attack units looked up in a table (danger grows faster than the number of attackers), and
//! each role's safe checks on their own; the squares next to the king that only its king or
//! queen defends.

use shakmaty::{Board, Color, attacks};

use super::king::king_zone;
use super::threats::Attacks;
use super::{Sink, sign};
use crate::params::feature;

/// King-danger units of a safe check by each role, knight..queen.
const CHECK_UNITS: [i32; 4] = [3, 2, 3, 2];

/// `color`'s danger to the enemy king: [`feature::SAFE_CHECK`] per role with a safe check
/// (a square it attacks, not held by its own side nor attacked by the enemy, from which that
/// role would give check) and [`feature::KING_DANGER`] at the units of the zone attackers
/// (from `ours`) and of those checks, and [`feature::KING_WEAK_SQUARES`].
#[inline(always)]
pub(super) fn king_danger<S: Sink>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let Some(king) = board.king_of(!color) else {
        return;
    };
    let s = sign(color);
    let occupied = board.occupied();
    let safe = !board.by_color(color) & !theirs.all;
    let diagonal = attacks::bishop_attacks(king, occupied);
    let straight = attacks::rook_attacks(king, occupied);
    let checks = [
        attacks::knight_attacks(king),
        diagonal,
        straight,
        diagonal | straight,
    ];
    let defenders = theirs.pawns | theirs.pieces.minors | theirs.pieces.by_role[2];
    let weak = (king_zone(board, !color) & ours.all & !defenders).count() as i32;
    sink.add(feature::KING_WEAK_SQUARES, s * weak);
    let mut units = ours.pieces.king_units;
    for (role, (reach, check)) in ours.pieces.by_role.iter().zip(checks).enumerate() {
        if (*reach & check & safe).any() {
            sink.add(feature::SAFE_CHECK + role, s);
            units += CHECK_UNITS[role];
        }
    }
    // Every source adds at least the minimum, so any danger at all has an entry.
    let units = units as usize;
    if units >= feature::KING_DANGER_MIN_UNITS {
        let index = units.min(feature::KING_DANGER_MIN_UNITS + feature::KING_DANGER_SIZE - 1)
            - feature::KING_DANGER_MIN_UNITS;
        sink.add(feature::KING_DANGER + index, s);
    }
}

#[cfg(test)]
mod tests {
    use crate::params::feature;
    use crate::testing::{coefficient, coefficients};

    /// The feature of `units` attack units.
    fn king_danger(units: usize) -> usize {
        feature::KING_DANGER + units - feature::KING_DANGER_MIN_UNITS
    }

    #[test]
    fn weak_squares_next_to_the_king() {
        // The zone of Black's king on g8 is f8..h8 and f7..h7. White's queen on h5 attacks
        // f7 (diagonal) and h7, h8 (file); Black's rook on f8 defends f7: h7 and h8 are weak.
        // The rook attacks nothing of the zone of White's king on a1.
        let fen = "5rk1/8/8/7Q/8/8/8/K7 w - - 0 1";
        assert_eq!(coefficient(fen, feature::KING_WEAK_SQUARES), 2);
    }

    #[test]
    fn entries_are_named_by_their_units() {
        assert_eq!(feature::name(king_danger(2)), "king_danger_2");
        assert_eq!(feature::name(feature::SAFE_CHECK - 1), "king_danger_23");
    }

    /// The king-danger and safe-check coefficients of `fen`.
    fn danger_terms(fen: &str) -> Vec<(usize, i32)> {
        coefficients(fen)
            .into_iter()
            .filter(|&(f, _)| (feature::KING_DANGER..feature::CONNECTED_PAWN).contains(&f))
            .collect()
    }

    #[test]
    fn quiet_kings_are_in_no_danger() {
        assert!(
            danger_terms("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_empty()
        );
    }

    #[test]
    fn zone_attackers_add_units_and_a_defended_check_square_is_not_safe() {
        // The knight on g5 and the queen on h5 both attack f7, in the zone of the king on e8:
        // 2 + 5 units. The queen's only check square it reaches, f7, is defended by the king,
        // and the knight reaches none: no safe check.
        let terms = danger_terms("rnb1kbnr/pppp1ppp/8/4p1NQ/8/8/PPPPPPPP/RNB1KB1R b KQkq - 0 1");
        assert_eq!(terms, vec![(king_danger(7), 1)], "{terms:?}");
    }

    #[test]
    fn a_safe_check_counts_for_its_role() {
        // The rook on d1 attacks nothing of the zone of the king on g8, but it can check from
        // d8, which nothing of Black's attacks: a safe rook check, 3 units.
        let terms = danger_terms("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(
            terms,
            vec![(king_danger(3), 1), (feature::SAFE_CHECK + 2, 1)],
            "{terms:?}"
        );
    }
}
