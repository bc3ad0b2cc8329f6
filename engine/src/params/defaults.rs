//! Default values of the evaluation weights.
//!
//! Sources:
//! - Material and piece-square tables: PeSTO's published values (Ronald Friederich's
//!   Texel-tuned tables, as listed on the Chess Programming Wiki page "PeSTO's Evaluation
//!   Function"), typed in as data.
//! - Every other term: hand-set, conservative values in the usual range of engines with a
//!   similar term set, kept small because PeSTO's tables already absorb part of what they
//!   measure (advanced pawns, central pieces). The tuner refits all of them.

use super::feature::{self, FeatureId};

/// PeSTO material values, pawn..queen.
const MATERIAL_MG: [i32; 5] = [82, 337, 365, 477, 1025];
const MATERIAL_EG: [i32; 5] = [94, 281, 297, 512, 936];

/// A piece-square table as printed: first row is rank 8 (a8..h8), last row rank 1.
type Table = [i32; 64];

#[rustfmt::skip]
const PST_MG: [Table; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ],
    [ // knight
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const PST_EG: [Table; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ],
    [ // rook
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

/// Mobility by number of safe squares reached: a steep penalty for a trapped piece, flat
/// near the typical count, small gains beyond.
#[rustfmt::skip]
const MOBILITY_KNIGHT_WEIGHTS: [(i32, i32); 9] = [
    (-35, -45), (-22, -30), (-10, -16), (-4, -7), (0, 0), (4, 5), (8, 9), (11, 12), (14, 14),
];
#[rustfmt::skip]
const MOBILITY_BISHOP_WEIGHTS: [(i32, i32); 14] = [
    (-35, -45), (-22, -30), (-12, -18), (-6, -9), (-2, -3), (2, 3), (6, 8),
    (9, 12), (12, 15), (14, 18), (16, 20), (18, 22), (20, 24), (22, 25),
];
#[rustfmt::skip]
const MOBILITY_ROOK_WEIGHTS: [(i32, i32); 15] = [
    (-25, -45), (-18, -32), (-12, -22), (-8, -14), (-5, -8), (-2, -3), (0, 2), (2, 6),
    (4, 10), (6, 14), (8, 18), (10, 21), (11, 24), (12, 26), (13, 28),
];

/// Queen mobility: 0..=27 squares, about 1 (mg) and 2 (eg) per square around 12 squares,
/// more for a boxed-in queen.
const fn queen_mobility(count: i32) -> (i32, i32) {
    let d = count - 12;
    let boxed = if count < 4 { (4 - count) * 5 } else { 0 };
    let mg = if d > 12 { 12 } else { d };
    let eg = if 2 * d > 24 { 24 } else { 2 * d };
    (mg - boxed, eg - 2 * boxed)
}

/// Passed pawns by relative rank 2..=7, on top of PeSTO's pawn tables (whose endgame rows
/// already pay for advanced pawns).
const PASSED_PAWN_WEIGHTS: [(i32, i32); 6] =
    [(0, 5), (-2, 8), (-2, 15), (8, 28), (18, 45), (30, 60)];

/// Default `(mg, eg)` weights of tapered feature `f`.
pub fn tapered(f: FeatureId) -> (i32, i32) {
    use feature::{BISHOP_OUTPOST, KNIGHT_OUTPOST, QUEEN_ON_SEVENTH, ROOK_ON_SEVENTH};
    use feature::{
        BISHOP_PAIR, DOUBLED_PAWN, ISOLATED_PAWN, KING_ATTACK, KING_OPEN_FILE, KING_SHELTER,
        MATERIAL, MOBILITY_BISHOP, MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK, PASSED_PAWN,
        PST, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, TEMPO,
    };
    use feature::{
        FREE_PASSER, PASSER_ENEMY_KING, PASSER_OWN_KING, ROOK_BEHIND_PASSER, SUPPORTED_PASSER,
        UNSTOPPABLE_PASSER,
    };
    use feature::{HANGING, THREAT_BY_MINOR, THREAT_BY_PAWN};
    use feature::{KING_CENTER, KING_ENEMY_PAWN_DISTANCE, KING_OWN_PAWN_DISTANCE};
    match f {
        _ if f < PST => (MATERIAL_MG[f - MATERIAL], MATERIAL_EG[f - MATERIAL]),
        _ if f < MOBILITY_KNIGHT => {
            let i = f - PST;
            let (table, square) = (i / 64, i % 64);
            // Our squares count from a1; the printed tables start at a8.
            (PST_MG[table][square ^ 56], PST_EG[table][square ^ 56])
        }
        _ if f < MOBILITY_BISHOP => MOBILITY_KNIGHT_WEIGHTS[f - MOBILITY_KNIGHT],
        _ if f < MOBILITY_ROOK => MOBILITY_BISHOP_WEIGHTS[f - MOBILITY_BISHOP],
        _ if f < MOBILITY_QUEEN => MOBILITY_ROOK_WEIGHTS[f - MOBILITY_ROOK],
        _ if f < PASSED_PAWN => queen_mobility((f - MOBILITY_QUEEN) as i32),
        _ if f < DOUBLED_PAWN => PASSED_PAWN_WEIGHTS[f - PASSED_PAWN],
        DOUBLED_PAWN => (-10, -20),
        ISOLATED_PAWN => (-10, -8),
        BISHOP_PAIR => (25, 50),
        ROOK_OPEN_FILE => (25, 8),
        ROOK_SEMI_OPEN_FILE => (10, 5),
        KING_SHELTER => (8, 0),
        KING_OPEN_FILE => (-12, 0),
        // Per attacked square of the enemy king's zone, knight..queen.
        _ if f < TEMPO => [(6, 0), (4, 0), (5, 0), (4, 2)][f - KING_ATTACK],
        TEMPO => (15, 8),
        // Threats: what the side to move can win is resolved by the quiescence search, what
        // it must answer is not, so these pay roughly half a minor piece's worth of danger.
        THREAT_BY_PAWN => (45, 30),
        THREAT_BY_MINOR => (30, 25),
        HANGING => (25, 15),
        // Passers (king terms and free path per step of advance, 1..=4): kings matter in the
        // endgame, where a passer's race decides.
        PASSER_OWN_KING => (0, -3),
        PASSER_ENEMY_KING => (0, 6),
        FREE_PASSER => (3, 8),
        UNSTOPPABLE_PASSER => (0, 150),
        SUPPORTED_PASSER => (5, 12),
        ROOK_BEHIND_PASSER => (5, 15),
        // King activity, endgame only: per step of centrality (0..=6, on top of the king's
        // endgame table), and per step of distance to each pawn.
        KING_CENTER => (0, 4),
        KING_OWN_PAWN_DISTANCE => (0, -2),
        KING_ENEMY_PAWN_DISTANCE => (0, -3),
        // Outposts pay most for knights, which need a safe square to be worth their bishop;
        // the seventh rank most in the endgame, where the pawns there are targets.
        KNIGHT_OUTPOST => (25, 15),
        BISHOP_OUTPOST => (12, 8),
        ROOK_ON_SEVENTH => (10, 25),
        QUEEN_ON_SEVENTH => (5, 15),
        // King danger, safe checks, connected and backward pawns, the threats by rooks and
        // pawn pushes, rammed pawns, minors behind pawns, shelter and storm (`KING_DANGER`
        // onward): 0 here, their weights come from the tuner (`tuned.toml`).
        _ => (0, 0),
    }
}

/// Default weight of flat feature `f`.
pub fn flat(f: FeatureId) -> i32 {
    match f {
        feature::KING_DISTANCE => 20,
        feature::BN_MATE_CORNER => 30,
        feature::MATE_BOX => 3,
        _ if f >= feature::MATE_EDGE => [60, 30, 10, 0][f - feature::MATE_EDGE],
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_map_printed_rows_to_squares() {
        let pst = |role: usize, square: usize| tapered(feature::PST + 64 * role + square);
        // a1 is the last printed row's first entry; h8 the first row's last.
        assert_eq!(pst(1, 0), (-105, -29)); // knight a1
        assert_eq!(pst(1, 63), (-107, -99)); // knight h8
        assert_eq!(pst(5, 6), (24, -24)); // king g1
        assert_eq!(pst(0, 8 * 6 + 3), (95, 134)); // pawn d7
    }

    #[test]
    fn mobility_grows_with_reach() {
        for (start, len) in [
            (feature::MOBILITY_KNIGHT, 9),
            (feature::MOBILITY_BISHOP, 14),
            (feature::MOBILITY_ROOK, 15),
            (feature::MOBILITY_QUEEN, 28),
        ] {
            for i in 1..len {
                let (a, b) = (tapered(start + i - 1), tapered(start + i));
                assert!(a.0 <= b.0 && a.1 <= b.1, "feature {}", start + i);
            }
        }
    }
}
