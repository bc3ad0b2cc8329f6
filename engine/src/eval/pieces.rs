//! Piece activity: mobility, bishop pair, rooks on (semi-)open files, attacks on the king zone,
//! bishops hemmed in by their own fixed pawns, minor pieces behind a pawn, knights and rooks by
//! the count of own pawns.

use shakmaty::{Bitboard, Board, Color, Square, attacks};

use super::king::king_zone;
use super::{Sink, sign};
use crate::params::feature;

/// First mobility feature of each piece role (knight, bishop, rook, queen).
const MOBILITY: [usize; 4] = [
    feature::MOBILITY_KNIGHT,
    feature::MOBILITY_BISHOP,
    feature::MOBILITY_ROOK,
    feature::MOBILITY_QUEEN,
];

/// For each knight, bishop, rook and queen of `color`:
/// - mobility: the number of squares it attacks that hold no own piece and are not attacked
///   by an enemy pawn (feature `MOBILITY_<ROLE> + count`; sliders see through nothing);
/// - king attack: the number of squares of the enemy king zone (king square and its
///   neighbours) it attacks, summed per role;
///
/// plus the bishop pair, rooks on open (no pawns) or semi-open (only enemy pawns) files, own
/// pawns fixed by an enemy pawn on each bishop's colour, and minors behind an own pawn.
/// `enemy_pawn_attacks`: the squares the other side's pawns attack. Returns the squares these
/// pieces attack, for the threat terms.
#[inline(always)]
pub(super) fn piece_activity<S: Sink>(
    board: &Board,
    color: Color,
    enemy_pawn_attacks: Bitboard,
    sink: &mut S,
) -> PieceAttacks {
    let s = sign(color);
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let mobility_area = !ours & !enemy_pawn_attacks;
    let enemy_zone = king_zone(board, !color);
    let mut king_units = 0;
    let mut walk = |i: usize, pieces: Bitboard, reach_of: &dyn Fn(Square) -> Bitboard| {
        role_activity(
            i,
            pieces,
            reach_of,
            mobility_area,
            enemy_zone,
            s,
            &mut king_units,
            sink,
        )
    };
    let knights = walk(0, board.knights() & ours, &attacks::knight_attacks);
    let bishops = walk(1, board.bishops() & ours, &|sq| {
        attacks::bishop_attacks(sq, occupied)
    });
    let rooks = walk(2, board.rooks() & ours, &|sq| {
        attacks::rook_attacks(sq, occupied)
    });
    let queens = walk(3, board.queens() & ours, &|sq| {
        attacks::queen_attacks(sq, occupied)
    });
    let minors = knights | bishops;
    let attacked = PieceAttacks {
        by_role: [knights, bishops, rooks, queens],
        minors,
        all: minors | rooks | queens,
        king_units,
    };

    if (board.bishops() & ours).more_than_one() {
        sink.add(feature::BISHOP_PAIR, s);
    }

    let own_pawns = board.pawns() & ours;
    let (mut open, mut semi_open) = (0, 0);
    for square in board.rooks() & ours {
        let file = Bitboard::from_file(square.file());
        if (board.pawns() & file).is_empty() {
            open += 1;
        } else if (own_pawns & file).is_empty() {
            semi_open += 1;
        }
    }
    sink.add(feature::ROOK_OPEN_FILE, s * open);
    sink.add(feature::ROOK_SEMI_OPEN_FILE, s * semi_open);

    // The squares right behind `b`'s, from `color`'s side.
    let behind = |b: Bitboard| match color {
        Color::White => Bitboard(b.0 >> 8),
        Color::Black => Bitboard(b.0 << 8),
    };
    // Own pawns with an enemy pawn right in front.
    let rammed = behind(board.pawns() & !ours) & own_pawns;
    let bishops = board.bishops() & ours;
    let on_light = (bishops & Bitboard::LIGHT_SQUARES).count() as i32;
    let on_dark = (bishops & Bitboard::DARK_SQUARES).count() as i32;
    let hemmed = on_light * (rammed & Bitboard::LIGHT_SQUARES).count() as i32
        + on_dark * (rammed & Bitboard::DARK_SQUARES).count() as i32;
    sink.add(feature::BISHOP_RAMMED_PAWNS, s * hemmed);
    let minors = (board.knights() | board.bishops()) & ours;
    let shielded = (behind(own_pawns) & minors).count() as i32;
    sink.add(feature::MINOR_BEHIND_PAWN, s * shielded);
    // Material by pawn count, from an average of five own pawns.
    let pawn_excess = own_pawns.count() as i32 - 5;
    let count = |pieces: Bitboard| (pieces & ours).count() as i32;
    sink.add(
        feature::KNIGHT_PAWNS,
        s * count(board.knights()) * pawn_excess,
    );
    sink.add(feature::ROOK_PAWNS, s * count(board.rooks()) * pawn_excess);
    attacked
}

/// King-danger units of a piece attacking the enemy king zone, knight..queen.
const ATTACKER_UNITS: [i32; 4] = [2, 2, 3, 5];

/// Mobility and king-zone attacks of `pieces`, pieces of the `i`-th role of [`MOBILITY`]
/// whose attacks `reach_of` gives (one loop per role, so no dispatch on the role per piece).
/// Adds the king-danger units of those that attack the enemy king zone to `king_units`.
/// Returns the squares they attack.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn role_activity<S: Sink>(
    i: usize,
    pieces: Bitboard,
    reach_of: &dyn Fn(Square) -> Bitboard,
    mobility_area: Bitboard,
    enemy_zone: Bitboard,
    s: i32,
    king_units: &mut i32,
    sink: &mut S,
) -> Bitboard {
    let mut attacked = Bitboard::EMPTY;
    let mut zone_hits = 0;
    for square in pieces {
        let reach = reach_of(square);
        sink.add(MOBILITY[i] + (reach & mobility_area).count(), s);
        attacked |= reach;
        let hits = (reach & enemy_zone).count() as i32;
        zone_hits += hits;
        if hits > 0 {
            *king_units += ATTACKER_UNITS[i];
        }
    }
    sink.add(feature::KING_ATTACK + i, s * zone_hits);
    attacked
}

/// Squares attacked by one side's knights, bishops, rooks and queens.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PieceAttacks {
    /// By each role: knights, bishops, rooks, queens.
    pub by_role: [Bitboard; 4],
    /// By knights and bishops.
    pub minors: Bitboard,
    /// By any of the four.
    pub all: Bitboard,
    /// King-danger units of the pieces attacking the enemy king zone.
    pub king_units: i32,
}

#[cfg(test)]
mod tests {
    use crate::params::feature;
    use crate::testing::coefficient as coef;

    #[test]
    fn bishop_hemmed_in_by_rammed_pawns_of_its_colour() {
        // White's bishop on f1 (light); White pawns e4 and d3 (both light squares), each with
        // a Black pawn right in front (e5, d4): two rammed pawns on the bishop's colour.
        let fen = "4k3/8/8/4p3/3pP3/3P4/8/4KB2 w - - 0 1";
        assert_eq!(coef(fen, feature::BISHOP_RAMMED_PAWNS), 2);
        // A dark-squared bishop (c1) instead: no rammed pawn on its colour.
        let dark = "4k3/8/8/4p3/3pP3/3P4/8/2B1K3 w - - 0 1";
        assert_eq!(coef(dark, feature::BISHOP_RAMMED_PAWNS), 0);
    }

    #[test]
    fn knights_and_rooks_by_pawn_count() {
        // White: knight b1, rook a1, seven pawns (+2 each); Black: rook a8, two pawns (−3).
        let fen = "r3k3/pp6/8/8/8/8/PPPPPPP1/RN2K3 w - - 0 1";
        assert_eq!(coef(fen, feature::KNIGHT_PAWNS), 2);
        assert_eq!(coef(fen, feature::ROOK_PAWNS), 2 - (-3));
    }

    #[test]
    fn minor_behind_its_pawn() {
        // Knight d2 behind d3; bishop f1 with nothing on f2. Black's knight e6 behind e5.
        let fen = "4k3/8/4n3/4p3/8/3P4/3N4/4KB2 w - - 0 1";
        assert_eq!(coef(fen, feature::MINOR_BEHIND_PAWN), 0);
        let white_only = "4k3/8/8/4p3/8/3P4/3N4/4KB2 w - - 0 1";
        assert_eq!(coef(white_only, feature::MINOR_BEHIND_PAWN), 1);
    }
}
