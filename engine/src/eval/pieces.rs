//! Piece activity: mobility, rooks on (semi-)open files, attacks on the king zone, bishops
//! hemmed in by their own fixed pawns or on a long diagonal, own pawns on a bishop's colour,
//! minor pieces behind a pawn, rooks on an enemy queen's file, trapped rooks. (The bishop pair
//! and pieces by own pawn count depend on the counts alone: `imbalance` reports them.)

use shakmaty::{Bitboard, Board, Color, File, Rank, Square, attacks};

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
/// plus rooks on open (no pawns) or semi-open (only enemy pawns) files, own pawns fixed by an
/// enemy pawn on each bishop's colour, and minors behind an own pawn. The bishop pair and
/// knights, rooks and queens by own pawn count depend on the piece counts alone and are
/// reported with the imbalance ([`super::imbalance::imbalance`]).
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
    let own_minors = (board.knights() | board.bishops()) & ours;
    let shielded = (behind(own_pawns) & own_minors).count() as i32;
    sink.add(feature::MINOR_BEHIND_PAWN, s * shielded);
    let count = |pieces: Bitboard| (pieces & ours).count() as i32;
    let pawns_on_colour = on_light * (own_pawns & Bitboard::LIGHT_SQUARES).count() as i32
        + on_dark * (own_pawns & Bitboard::DARK_SQUARES).count() as i32;
    sink.add(feature::BISHOP_PAWNS, s * pawns_on_colour);
    // One walk over the bishops for both diagonal terms. Only a bishop on a long diagonal
    // can see two centre squares.
    let enemy_pawns = board.pawns() & !ours;
    let (mut long_diagonal, mut xray_pawns) = (0, 0);
    for sq in bishops {
        if LONG_DIAGONALS.contains(sq)
            && (attacks::bishop_attacks(sq, board.pawns()) & Bitboard::CENTER).more_than_one()
        {
            long_diagonal += 1;
        }
        xray_pawns += (attacks::bishop_attacks(sq, Bitboard::EMPTY) & enemy_pawns).count() as i32;
    }
    sink.add(feature::BISHOP_LONG_DIAGONAL, s * long_diagonal);
    let enemy_queen_files = (board.queens() & !ours)
        .into_iter()
        .fold(Bitboard::EMPTY, |files, sq| {
            files | Bitboard::from_file(sq.file())
        });
    sink.add(
        feature::ROOK_QUEEN_FILE,
        s * count(board.rooks() & enemy_queen_files),
    );
    sink.add(feature::BISHOP_XRAY_PAWNS, s * xray_pawns);
    sink.add(
        feature::TRAPPED_ROOK,
        s * trapped_rooks(board, color, mobility_area),
    );
    attacked
}

/// The a1–h8 and h1–a8 diagonals.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// `color`'s rooks on its first rank with at most three squares of mobility, between their
/// king (on the first rank too) and the nearer corner, away from the centre: castling-side
/// rooks shut in by an uncastled king.
#[inline(always)]
fn trapped_rooks(board: &Board, color: Color, mobility_area: Bitboard) -> i32 {
    let first = Bitboard::from_rank(color.fold_wb(Rank::First, Rank::Eighth));
    let ours = board.by_color(color);
    let Some(king) = (board.kings() & ours & first).first() else {
        return 0;
    };
    let king_file = king.file();
    let mut trapped = 0;
    for rook in board.rooks() & ours & first {
        let toward_corner = if king_file < File::E {
            rook.file() < king_file
        } else {
            rook.file() > king_file
        };
        if toward_corner
            && (attacks::rook_attacks(rook, board.occupied()) & mobility_area).count() <= 3
        {
            trapped += 1;
        }
    }
    trapped
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
        // Without a branch: whether a piece reaches the zone is hard to predict.
        *king_units += ATTACKER_UNITS[i] * i32::from(hits > 0);
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
    fn queens_by_pawn_count() {
        // White: queen, seven pawns (+2); Black: queen, two pawns (−3).
        let fen = "3qk3/pp6/8/8/8/8/PPPPPPP1/3QK3 w - - 0 1";
        assert_eq!(coef(fen, feature::QUEEN_PAWNS), 2 - (-3));
    }

    #[test]
    fn own_pawns_on_the_bishops_colour() {
        // Light-squared bishop f1; pawns e4 and d3 on light squares, d4 on a dark one.
        let fen = "4k3/8/8/8/3PP3/3P4/8/4KB2 w - - 0 1";
        assert_eq!(coef(fen, feature::BISHOP_PAWNS), 2);
    }

    #[test]
    fn bishop_on_a_long_diagonal() {
        assert_eq!(
            coef(
                "4k3/7p/8/8/8/8/1B6/4K3 w - - 0 1",
                feature::BISHOP_LONG_DIAGONAL
            ),
            1
        );
        // A pawn on c3 blocks the diagonal; a knight on c3 would move away.
        assert_eq!(
            coef(
                "4k3/7p/8/8/8/2P5/1B6/4K3 w - - 0 1",
                feature::BISHOP_LONG_DIAGONAL
            ),
            0
        );
        assert_eq!(
            coef(
                "4k3/7p/8/8/8/2N5/1B6/4K3 w - - 0 1",
                feature::BISHOP_LONG_DIAGONAL
            ),
            1
        );
    }

    #[test]
    fn rook_on_the_enemy_queens_file() {
        assert_eq!(
            coef(
                "3qk3/7p/8/8/8/8/P7/3RK3 w - - 0 1",
                feature::ROOK_QUEEN_FILE
            ),
            1
        );
        assert_eq!(
            coef(
                "3qk3/7p/8/8/8/8/P7/2R1K3 w - - 0 1",
                feature::ROOK_QUEEN_FILE
            ),
            0
        );
    }

    #[test]
    fn rook_shut_in_by_its_king() {
        // King f1, rook h1 with one free square (g1).
        assert_eq!(
            coef("4k3/7p/8/8/8/8/6PP/5K1R w - - 0 1", feature::TRAPPED_ROOK),
            1
        );
        // Castled: the rook is on the centre side of the king.
        assert_eq!(
            coef("4k3/7p/8/8/8/8/6PP/5RK1 w - - 0 1", feature::TRAPPED_ROOK),
            0
        );
    }

    #[test]
    fn enemy_pawns_on_the_bishops_diagonals() {
        // Bishop c1: e3 and g5 on its diagonal, through the own pawn on d2.
        let fen = "4k3/8/8/6p1/8/4p3/3P4/2B1K3 w - - 0 1";
        assert_eq!(coef(fen, feature::BISHOP_XRAY_PAWNS), 2);
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
