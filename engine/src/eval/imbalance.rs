//! Material imbalance: what a piece is worth beside the other pieces on the board, as products
//! of piece counts (the quadratic terms of Kaufman's "The Evaluation of Material Imbalances"
//! and of Stockfish's imbalance tables). The piece values carry the linear part; these say,
//! say, that a second rook adds less than the first, or that a queen gains against minors.
//!
//! Two kinds, both linear in their weights so that the tuner fits them:
//! - own pairs (`imbalance_<a>_<b>`): pairs of own pieces of roles `a` and `b`, `a·b`, or
//!   `n·(n − 1)/2` for two of one role; bishops by own pawns count the pawns less five, as
//!   `knight_pawns` does;
//! - against the enemy's (`imbalance_<a>_vs_<b>`): own `a` times enemy `b`, less enemy `a`
//!   times own `b`, which is already White minus Black.
//!
//! Two bishops are the bishop pair's (`bishop_pair`); knights, rooks and queens by own pawns
//! are `knight_pawns`, `rook_pawns` and `queen_pawns`. Those depend on the piece counts alone
//! too, so [`imbalance`] reports them here, and the search takes all of them from one cache
//! entry per set of counts. Queen pairs are too rare to fit.

use shakmaty::{Board, Color, Role};

use super::Sink;
use crate::params::feature;

/// The own pairs, in feature order from [`feature::IMBALANCE_OWN`]: (role, role); a role
/// twice means pairs of that role.
pub const OWN_PAIRS: [(Role, Role); 9] = [
    (Role::Knight, Role::Knight),
    (Role::Rook, Role::Rook),
    (Role::Knight, Role::Bishop),
    (Role::Knight, Role::Rook),
    (Role::Knight, Role::Queen),
    (Role::Bishop, Role::Rook),
    (Role::Bishop, Role::Queen),
    (Role::Rook, Role::Queen),
    (Role::Bishop, Role::Pawn),
];

/// The pairs against the enemy's, in feature order from [`feature::IMBALANCE_VS`]: every
/// pair of two different roles among pawn..queen once (the reverse pair is its negation).
pub const VS_PAIRS: [(Role, Role); 10] = [
    (Role::Pawn, Role::Knight),
    (Role::Pawn, Role::Bishop),
    (Role::Pawn, Role::Rook),
    (Role::Pawn, Role::Queen),
    (Role::Knight, Role::Bishop),
    (Role::Knight, Role::Rook),
    (Role::Knight, Role::Queen),
    (Role::Bishop, Role::Rook),
    (Role::Bishop, Role::Queen),
    (Role::Rook, Role::Queen),
];

/// Pieces of each role of `color`, indexed by `role as usize` (index 0 unused).
#[inline(always)]
fn counts(board: &Board, color: Color) -> [i32; 7] {
    let ours = board.by_color(color);
    let count = |role: Role| (board.by_role(role) & ours).count() as i32;
    [
        0,
        count(Role::Pawn),
        count(Role::Knight),
        count(Role::Bishop),
        count(Role::Rook),
        count(Role::Queen),
        0,
    ]
}

/// The piece counts of `board` (pawn..queen, White's then Black's) in 6 bits each: equal keys,
/// equal imbalance terms (no side has 64 pieces of a role).
#[inline(always)]
pub(super) fn material_key(board: &Board) -> u64 {
    let (white, black) = (counts(board, Color::White), counts(board, Color::Black));
    white[1..6]
        .iter()
        .chain(&black[1..6])
        .fold(0, |key, &n| (key << 6) | n as u64)
}

/// Pairs of own pieces of roles `a` and `b` in `counts`.
#[inline(always)]
fn own_pairs(counts: &[i32; 7], a: Role, b: Role) -> i32 {
    let (x, y) = (counts[a as usize], counts[b as usize]);
    match (a, b) {
        _ if a == b => x * (x - 1) / 2,
        (_, Role::Pawn) => x * (y - 5),
        _ => x * y,
    }
}

/// Reports both sides' imbalance features (White minus Black), and the other features of the
/// piece counts alone: the bishop pair and knights, rooks and queens by own pawn count.
#[inline(always)]
pub(super) fn imbalance<S: Sink>(board: &Board, sink: &mut S) {
    let white = counts(board, Color::White);
    let black = counts(board, Color::Black);
    for (i, &(a, b)) in OWN_PAIRS.iter().enumerate() {
        let coef = own_pairs(&white, a, b) - own_pairs(&black, a, b);
        sink.add(feature::IMBALANCE_OWN + i, coef);
    }
    for (i, &(a, b)) in VS_PAIRS.iter().enumerate() {
        let (a, b) = (a as usize, b as usize);
        let coef = white[a] * black[b] - black[a] * white[b];
        sink.add(feature::IMBALANCE_VS + i, coef);
    }
    // The other terms of the piece counts alone (see [`super::pieces::piece_activity`]):
    // the bishop pair, and knights, rooks and queens by own pawn count, from an average of
    // five own pawns.
    let pair = |counts: &[i32; 7]| i32::from(counts[Role::Bishop as usize] >= 2);
    sink.add(feature::BISHOP_PAIR, pair(&white) - pair(&black));
    for (feature, role) in [
        (feature::KNIGHT_PAWNS, Role::Knight),
        (feature::ROOK_PAWNS, Role::Rook),
        (feature::QUEEN_PAWNS, Role::Queen),
    ] {
        let by_pawns =
            |counts: &[i32; 7]| counts[role as usize] * (counts[Role::Pawn as usize] - 5);
        sink.add(feature, by_pawns(&white) - by_pawns(&black));
    }
}

#[cfg(test)]
mod tests {
    use crate::params::feature;
    use crate::testing::coefficient as coef;

    #[test]
    fn own_pairs_count_pairs_of_own_pieces() {
        // White: two knights, two rooks, a bishop, six pawns; Black: a knight, a rook, a
        // queen, four pawns.
        let fen = "1n1qk2r/pppp4/8/8/8/8/PPPPPP2/RNB1K1NR w - - 0 1";
        let own = |i: usize| coef(fen, feature::IMBALANCE_OWN + i);
        assert_eq!(own(0), 1, "knight pairs: one for White, none for Black");
        assert_eq!(own(1), 1, "rook pairs");
        assert_eq!(own(2), 2, "knight and bishop: White 2·1");
        assert_eq!(own(3), 4 - 1, "knight and rook: White 2·2, Black 1·1");
        assert_eq!(own(4), -1, "knight and queen: Black 1·1");
        assert_eq!(own(5), 2, "bishop and rook: White 1·2");
        assert_eq!(own(7), -1, "rook and queen: Black 1·1");
        assert_eq!(own(8), 1, "bishop by pawns less five: White 1·(6 − 5)");
    }

    #[test]
    fn pairs_against_the_enemy_are_antisymmetric() {
        // White: a queen and three pawns; Black: two knights, a bishop, three pawns.
        let fen = "1nb1k1n1/ppp5/8/8/8/8/PPP5/3QK3 w - - 0 1";
        let vs = |i: usize| coef(fen, feature::IMBALANCE_VS + i);
        assert_eq!(
            vs(0),
            3 * 2,
            "pawn against knight: White 3·2 less Black 3·0"
        );
        assert_eq!(vs(6), -2, "knight against queen: White 0·1 less Black 2·1");
        assert_eq!(
            vs(8),
            -1,
            "bishop against queen: Black's bishop against White's queen"
        );
        // The mirrored position (colours swapped) negates every coefficient.
        let mirrored = "3qk3/ppp5/8/8/8/8/PPP5/1NB1K1N1 w - - 0 1";
        for i in 0..super::VS_PAIRS.len() {
            assert_eq!(
                coef(mirrored, feature::IMBALANCE_VS + i),
                -vs(i),
                "pair {i}"
            );
        }
    }
}
