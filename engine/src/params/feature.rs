//! The evaluation's features: each is one term whose weight the tuner can fit.
//!
//! The evaluation is linear in its weights: `eval = Σ coefficient(f) · weight(f)`, where a
//! tapered feature's weight blends its `_mg` and `_eg` parameters by game phase. The constants
//! below are the first feature id of each block; blocks of several entries are indexed as noted.

use shakmaty::{Role, Square};

/// Index of an evaluation feature.
pub type FeatureId = usize;

/// Piece values, indexed by `role as usize - 1` for pawn..queen (the king has none).
pub const MATERIAL: FeatureId = 0;
/// Piece-square tables, `PST + 64 * (role as usize - 1) + square`, squares from White's view
/// (a1 = 0); Black's pieces read the vertically flipped square.
pub const PST: FeatureId = MATERIAL + 5;
/// Knight mobility by number of safe squares reached (0..=8): attacked squares that hold no
/// own piece and are not attacked by an enemy pawn (sliders stop at the first piece).
pub const MOBILITY_KNIGHT: FeatureId = PST + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOBILITY_BISHOP: FeatureId = MOBILITY_KNIGHT + 9;
/// Rook mobility (0..=14).
pub const MOBILITY_ROOK: FeatureId = MOBILITY_BISHOP + 14;
/// Queen mobility (0..=27).
pub const MOBILITY_QUEEN: FeatureId = MOBILITY_ROOK + 15;
/// Passed pawn (no enemy pawn ahead on its or a neighbouring file, no own pawn ahead on its
/// file) by relative rank: index 0 = second rank ..= 5 = seventh rank.
pub const PASSED_PAWN: FeatureId = MOBILITY_QUEEN + 28;
/// A pawn with another pawn of the same colour ahead of it on its file.
pub const DOUBLED_PAWN: FeatureId = PASSED_PAWN + 6;
/// A pawn with no pawn of its colour on the adjacent files.
pub const ISOLATED_PAWN: FeatureId = DOUBLED_PAWN + 1;
/// Two or more bishops.
pub const BISHOP_PAIR: FeatureId = ISOLATED_PAWN + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: FeatureId = BISHOP_PAIR + 1;
/// A rook on a file without own pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: FeatureId = ROOK_OPEN_FILE + 1;
/// Own pawns shielding the king (on the king's and adjacent files, one or two ranks ahead),
/// counted.
pub const KING_SHELTER: FeatureId = ROOK_SEMI_OPEN_FILE + 1;
/// Files without an own pawn on or next to the king's file, counted.
pub const KING_OPEN_FILE: FeatureId = KING_SHELTER + 1;
/// Attacks on the enemy king's zone (its square and neighbours), per attacking role: knight,
/// bishop, rook, queen. The coefficient is the number of zone squares each piece attacks,
/// summed over the pieces of that role.
pub const KING_ATTACK: FeatureId = KING_OPEN_FILE + 1;
/// The side to move's bonus (coefficient +1 with White to move, −1 with Black).
pub const TEMPO: FeatureId = KING_ATTACK + 4;
/// Enemy knights, bishops, rooks and queens attacked by own pawns, counted.
pub const THREAT_BY_PAWN: FeatureId = TEMPO + 1;
/// Enemy rooks and queens attacked by own knights or bishops, counted.
pub const THREAT_BY_MINOR: FeatureId = THREAT_BY_PAWN + 1;
/// Enemy knights, bishops, rooks and queens attacked by own pieces or pawns and defended by
/// nothing of theirs (pawn, piece or king), counted.
pub const HANGING: FeatureId = THREAT_BY_MINOR + 1;
/// Passed pawns: own king's distance (Chebyshev) to the square in front, times the pawn's
/// advance (0 up to the third rank, then 1 on the fourth ..= 4 on the seventh), summed.
pub const PASSER_OWN_KING: FeatureId = HANGING + 1;
/// Passed pawns: the enemy king's distance to the square in front, times the advance.
pub const PASSER_ENEMY_KING: FeatureId = PASSER_OWN_KING + 1;
/// Passed pawns whose squares ahead are all empty and not attacked by the enemy: the advance,
/// summed.
pub const FREE_PASSER: FeatureId = PASSER_ENEMY_KING + 1;
/// A passed pawn the enemy king cannot catch (rule of the square, with the side to move) on an
/// empty path, the enemy having only king and pawns: 1 per side at most.
pub const UNSTOPPABLE_PASSER: FeatureId = FREE_PASSER + 1;
/// Passed pawns defended by an own pawn, counted.
pub const SUPPORTED_PASSER: FeatureId = UNSTOPPABLE_PASSER + 1;
/// Own rooks behind an own passed pawn on its file, nothing in between, counted.
pub const ROOK_BEHIND_PASSER: FeatureId = SUPPORTED_PASSER + 1;
/// The king's closeness to the centre: 6 on d4..e5 down to 0 in a corner (6 minus files plus
/// ranks to the nearest centre square).
pub const KING_CENTER: FeatureId = ROOK_BEHIND_PASSER + 1;
/// The king's distances (Chebyshev) to each own pawn, summed.
pub const KING_OWN_PAWN_DISTANCE: FeatureId = KING_CENTER + 1;
/// The king's distances to each enemy pawn, summed.
pub const KING_ENEMY_PAWN_DISTANCE: FeatureId = KING_OWN_PAWN_DISTANCE + 1;
/// Knights on their fourth to sixth rank, defended by an own pawn, that no enemy pawn can
/// attack any more (none left on the neighbouring files ahead), counted.
pub const KNIGHT_OUTPOST: FeatureId = KING_ENEMY_PAWN_DISTANCE + 1;
/// Bishops on such outposts, counted.
pub const BISHOP_OUTPOST: FeatureId = KNIGHT_OUTPOST + 1;
/// Rooks on their seventh rank when enemy pawns stand there or the enemy king is on the
/// eighth, counted.
pub const ROOK_ON_SEVENTH: FeatureId = BISHOP_OUTPOST + 1;
/// Queens on their seventh rank under the same condition, counted.
pub const QUEEN_ON_SEVENTH: FeatureId = ROOK_ON_SEVENTH + 1;
/// Danger to the enemy king by attack units, index `min(units, 23) − 2` (named
/// `king_danger_<units>`; no units report nothing, and every source gives at least 2): each
/// knight or bishop attacking the enemy king zone adds 2, each rook 3, each queen 5, and each
/// role that has a safe check ([`SAFE_CHECK`]) adds 3 (knight, rook) or 2 (bishop, queen). A
/// table, so that the tuner can make the danger grow faster than the attackers.
pub const KING_DANGER: FeatureId = QUEEN_ON_SEVENTH + 1;
/// The fewest attack units there can be, short of none: the first [`KING_DANGER`] entry.
pub const KING_DANGER_MIN_UNITS: usize = 2;
/// Number of [`KING_DANGER`] entries: 2 ..= 23 units.
pub const KING_DANGER_SIZE: usize = 24 - KING_DANGER_MIN_UNITS;
/// Safe checks per role (knight, bishop, rook, queen): 1 when a piece of that role attacks an
/// empty or enemy-held square from which it would give check, that square not attacked by the
/// enemy (pawn, piece or king).
pub const SAFE_CHECK: FeatureId = KING_DANGER + KING_DANGER_SIZE;
/// Connected pawns (defended by an own pawn, or with an own pawn beside them on their rank) by
/// relative rank: index 0 = second rank ..= 5 = seventh rank.
pub const CONNECTED_PAWN: FeatureId = SAFE_CHECK + 4;
/// Backward pawns: no own pawn on a neighbouring file level with or behind them, and the square
/// in front attacked by an enemy pawn, counted.
pub const BACKWARD_PAWN: FeatureId = CONNECTED_PAWN + 6;
/// Enemy queens attacked by own rooks, counted.
pub const THREAT_BY_ROOK: FeatureId = BACKWARD_PAWN + 1;
/// Enemy knights, bishops, rooks and queens that an own pawn would attack after a push (one
/// step, or two from its second rank) to a square no enemy pawn attacks and that the enemy
/// does not attack or the side defends, counted.
pub const PAWN_PUSH_THREAT: FeatureId = THREAT_BY_ROOK + 1;
/// Own pawns blocked by an enemy pawn right in front of them on the squares of a bishop's
/// colour, counted for each own bishop (a bishop hemmed in by its own fixed pawns).
pub const BISHOP_RAMMED_PAWNS: FeatureId = PAWN_PUSH_THREAT + 1;
/// Own knights and bishops with an own pawn right in front of them (shielded from rooks and
/// queens on the file), counted.
pub const MINOR_BEHIND_PAWN: FeatureId = BISHOP_RAMMED_PAWNS + 1;
/// Squares of the enemy king zone that own pieces, pawns or king attack and that the enemy
/// defends with nothing but its king or queen, counted.
pub const KING_WEAK_SQUARES: FeatureId = MINOR_BEHIND_PAWN + 1;
/// Space: squares on the c..f files of the side's second to fourth rank that hold no own pawn
/// and no enemy pawn attacks, counted, and counted again when an own pawn stands in front of
/// them on their file within three ranks.
pub const SPACE: FeatureId = KING_WEAK_SQUARES + 1;
/// Knights by own pawns: each own knight counts the side's pawns less five (a knight gains
/// in closed positions, where PeSTO-style values assume an average pawn count).
pub const KNIGHT_PAWNS: FeatureId = SPACE + 1;
/// Rooks by own pawns: each own rook counts the side's pawns less five (a rook gains as the
/// files open).
pub const ROOK_PAWNS: FeatureId = KNIGHT_PAWNS + 1;
/// Queens by own pawns: each own queen counts the side's pawns less five.
pub const QUEEN_PAWNS: FeatureId = ROOK_PAWNS + 1;
/// Own pawns on the squares of a bishop's colour, counted for each own bishop (the bishop's
/// own pawns get in its way and leave the other colour weak).
pub const BISHOP_PAWNS: FeatureId = QUEEN_PAWNS + 1;
/// Own bishops that see both centre squares of their colour along a long diagonal past the
/// pawns (pieces do not block: they move away), counted.
pub const BISHOP_LONG_DIAGONAL: FeatureId = BISHOP_PAWNS + 1;
/// Own rooks on the file of an enemy queen, counted.
pub const ROOK_QUEEN_FILE: FeatureId = BISHOP_LONG_DIAGONAL + 1;
/// Enemy pawns that own knights, bishops, rooks or queens attack and that the enemy defends
/// with nothing, counted.
pub const THREAT_ON_PAWN: FeatureId = ROOK_QUEEN_FILE + 1;
/// Enemy pawns and pieces that the own king attacks and the enemy defends with nothing,
/// counted.
pub const THREAT_BY_KING: FeatureId = THREAT_ON_PAWN + 1;
/// Restricted squares: squares both sides attack that no enemy pawn defends, counted (the
/// enemy's pieces cannot move there freely).
pub const RESTRICTED: FeatureId = THREAT_BY_KING + 1;
/// The own king on a flank without pawns of either side (flanks by the king's file: a..d for
/// the a..c files, c..f for d and e, e..h for f..h), 1 or 0.
pub const PAWNLESS_FLANK: FeatureId = RESTRICTED + 1;
/// Enemy pieces attacked by own pawns that the enemy does not attack or that the side
/// defends ("safe" pawns), counted (on top of `THREAT_BY_PAWN`).
pub const THREAT_BY_SAFE_PAWN: FeatureId = PAWNLESS_FLANK + 1;
/// Squares from which an own knight would attack the enemy's only queen, that the knight can
/// reach now, hold no own piece and no enemy pawn defends, counted.
pub const KNIGHT_ON_QUEEN: FeatureId = THREAT_BY_SAFE_PAWN + 1;
/// The same for own bishops and rooks sliding to a square that attacks the enemy's only queen
/// along their own kind of line.
pub const SLIDER_ON_QUEEN: FeatureId = KNIGHT_ON_QUEEN + 1;
/// Own rooks on the first rank with at most three squares of mobility, on the far side of
/// their king (also on the first rank) from the centre, counted.
pub const TRAPPED_ROOK: FeatureId = SLIDER_ON_QUEEN + 1;
/// Enemy pawns on the diagonals of an own bishop (through every piece), counted per bishop.
pub const BISHOP_XRAY_PAWNS: FeatureId = TRAPPED_ROOK + 1;
/// Own isolated or backward pawns with no enemy pawn ahead on their file (open to rooks and
/// queens), counted.
pub const WEAK_UNOPPOSED_PAWN: FeatureId = BISHOP_XRAY_PAWNS + 1;
/// Groups of adjacent files holding own pawns, counted.
pub const PAWN_ISLANDS: FeatureId = WEAK_UNOPPOSED_PAWN + 1;
/// Material imbalance, pairs of own pieces: [`crate::eval::imbalance::OWN_PAIRS`] entries,
/// named `imbalance_<role>_<role>`.
pub const IMBALANCE_OWN: FeatureId = PAWN_ISLANDS + 1;
/// Material imbalance, own pieces against the enemy's: [`crate::eval::imbalance::VS_PAIRS`]
/// entries, named `imbalance_<role>_vs_<role>`.
pub const IMBALANCE_VS: FeatureId = IMBALANCE_OWN + crate::eval::imbalance::OWN_PAIRS.len();
/// Own knights off an outpost that attack an empty or enemy-held outpost square (one they can
/// reach in a move), counted.
pub const REACHABLE_OUTPOST: FeatureId = IMBALANCE_VS + crate::eval::imbalance::VS_PAIRS.len();
/// Enemy knights, bishops and rooks we attack that only their queen defends, counted.
pub const WEAK_QUEEN_PROTECTION: FeatureId = REACHABLE_OUTPOST + 1;
/// Pawn shelter, per file of the three around the king (its file clamped to b..g, and the
/// files either side): the closest own pawn ahead of the king on that file, by its distance in
/// ranks (1..=6) or none (0), and by whether the file is the king's own. Index
/// `SHELTER + 56 · king_file + 7 · file + distance` (files a..h = 0..7), named
/// `shelter_<file>_<distance|none>` and `shelter_king_file_<file>_<distance|none>`.
pub const SHELTER: FeatureId = WEAK_QUEEN_PROTECTION + 1;
/// Entries of [`SHELTER`]: 2 (king's file or not) × 8 files × 7 distances.
pub const SHELTER_SIZE: usize = 2 * 8 * 7;
/// Pawn storm, on the same three files: the closest enemy pawn ahead of the king on that file,
/// by its distance in ranks, by the file folded onto a..d (a and h are one entry), and by
/// whether an own pawn stands right in front of it (blocked). Unblocked: index
/// `STORM + 7 · folded_file + distance` (0 = no enemy pawn), named
/// `storm_<ah|bg|cf|de>_<distance|none>`; blocked (distance 2..=6, the blocker being at
/// least one rank ahead of the king): `STORM + 28 + 5 · folded_file + distance − 2`, named
/// `storm_blocked_<files>_<distance>`.
pub const STORM: FeatureId = SHELTER + SHELTER_SIZE;
/// Entries of [`STORM`]: 4 folded files × 7 distances unblocked, 4 × 5 blocked.
pub const STORM_SIZE: usize = 4 * 7 + 4 * 5;
/// Number of tapered features (two parameters each).
pub const TAPERED_FEATURES: usize = STORM + STORM_SIZE;

/// K+piece vs K without pawns: weight per step the winning king is closer than 7 to the losing
/// king (Chebyshev distance), so the winner brings its king over.
pub const KING_DISTANCE: FeatureId = TAPERED_FEATURES;
/// K+piece vs K: bonus by the losing king's distance to the nearest edge (index 0 = on the
/// edge .. 3 = in the centre), so the winner drives it to the edge.
pub const MATE_EDGE: FeatureId = KING_DISTANCE + 1;
/// K+B+N vs K: weight per step (files plus ranks) the losing king is closer than 14 to the
/// nearer corner of the bishop's colour, the only corners where that material can mate.
pub const BN_MATE_CORNER: FeatureId = MATE_EDGE + 4;
/// K+R or K+Q (and more) vs K: weight per square the losing king's box is smaller than the
/// board, the box being the part of the board on its side of the winner's rook or queen's
/// file and rank (the smallest over those pieces): cutting the king off is progress even
/// while the distances stay the same.
pub const MATE_BOX: FeatureId = BN_MATE_CORNER + 1;
/// Number of features in all.
pub const TOTAL_FEATURES: usize = MATE_BOX + 1;
/// Number of flat (untapered) features, one parameter each.
pub const FLAT_FEATURES: usize = TOTAL_FEATURES - TAPERED_FEATURES;

const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Name of the role as used in parameter names.
pub fn role_name(role: Role) -> &'static str {
    ROLES[role as usize - 1]
}

/// The feature's base name (tapered features add `_mg` / `_eg` to form parameter names).
pub fn name(f: FeatureId) -> String {
    let block = |start: FeatureId, prefix: &str| format!("{prefix}_{}", f - start);
    match f {
        _ if f < PST => format!("material_{}", ROLES[f - MATERIAL]),
        _ if f < MOBILITY_KNIGHT => {
            let i = f - PST;
            let square = Square::new((i % 64) as u32);
            format!("pst_{}_{square}", ROLES[i / 64])
        }
        _ if f < MOBILITY_BISHOP => block(MOBILITY_KNIGHT, "mobility_knight"),
        _ if f < MOBILITY_ROOK => block(MOBILITY_BISHOP, "mobility_bishop"),
        _ if f < MOBILITY_QUEEN => block(MOBILITY_ROOK, "mobility_rook"),
        _ if f < PASSED_PAWN => block(MOBILITY_QUEEN, "mobility_queen"),
        _ if f < DOUBLED_PAWN => format!("passed_pawn_rank{}", f - PASSED_PAWN + 2),
        DOUBLED_PAWN => "doubled_pawn".into(),
        ISOLATED_PAWN => "isolated_pawn".into(),
        BISHOP_PAIR => "bishop_pair".into(),
        ROOK_OPEN_FILE => "rook_open_file".into(),
        ROOK_SEMI_OPEN_FILE => "rook_semi_open_file".into(),
        KING_SHELTER => "king_shelter".into(),
        KING_OPEN_FILE => "king_open_file".into(),
        _ if f < TEMPO => format!("king_attack_{}", ROLES[f - KING_ATTACK + 1]),
        TEMPO => "tempo".into(),
        THREAT_BY_PAWN => "threat_by_pawn".into(),
        THREAT_BY_MINOR => "threat_by_minor".into(),
        HANGING => "hanging".into(),
        PASSER_OWN_KING => "passer_own_king".into(),
        PASSER_ENEMY_KING => "passer_enemy_king".into(),
        FREE_PASSER => "free_passer".into(),
        UNSTOPPABLE_PASSER => "unstoppable_passer".into(),
        SUPPORTED_PASSER => "supported_passer".into(),
        ROOK_BEHIND_PASSER => "rook_behind_passer".into(),
        KING_CENTER => "king_center".into(),
        KING_OWN_PAWN_DISTANCE => "king_own_pawn_distance".into(),
        KING_ENEMY_PAWN_DISTANCE => "king_enemy_pawn_distance".into(),
        KNIGHT_OUTPOST => "knight_outpost".into(),
        BISHOP_OUTPOST => "bishop_outpost".into(),
        ROOK_ON_SEVENTH => "rook_on_seventh".into(),
        QUEEN_ON_SEVENTH => "queen_on_seventh".into(),
        _ if f < SAFE_CHECK => format!("king_danger_{}", f - KING_DANGER + KING_DANGER_MIN_UNITS),
        _ if f < CONNECTED_PAWN => format!("safe_check_{}", ROLES[f - SAFE_CHECK + 1]),
        _ if f < BACKWARD_PAWN => format!("connected_pawn_rank{}", f - CONNECTED_PAWN + 2),
        BACKWARD_PAWN => "backward_pawn".into(),
        THREAT_BY_ROOK => "threat_by_rook".into(),
        PAWN_PUSH_THREAT => "pawn_push_threat".into(),
        BISHOP_RAMMED_PAWNS => "bishop_rammed_pawns".into(),
        MINOR_BEHIND_PAWN => "minor_behind_pawn".into(),
        KING_WEAK_SQUARES => "king_weak_squares".into(),
        SPACE => "space".into(),
        KNIGHT_PAWNS => "knight_pawns".into(),
        ROOK_PAWNS => "rook_pawns".into(),
        QUEEN_PAWNS => "queen_pawns".into(),
        BISHOP_PAWNS => "bishop_pawns".into(),
        BISHOP_LONG_DIAGONAL => "bishop_long_diagonal".into(),
        ROOK_QUEEN_FILE => "rook_queen_file".into(),
        THREAT_ON_PAWN => "threat_on_pawn".into(),
        THREAT_BY_KING => "threat_by_king".into(),
        RESTRICTED => "restricted".into(),
        PAWNLESS_FLANK => "pawnless_flank".into(),
        THREAT_BY_SAFE_PAWN => "threat_by_safe_pawn".into(),
        KNIGHT_ON_QUEEN => "knight_on_queen".into(),
        SLIDER_ON_QUEEN => "slider_on_queen".into(),
        TRAPPED_ROOK => "trapped_rook".into(),
        BISHOP_XRAY_PAWNS => "bishop_xray_pawns".into(),
        WEAK_UNOPPOSED_PAWN => "weak_unopposed_pawn".into(),
        PAWN_ISLANDS => "pawn_islands".into(),
        _ if f < IMBALANCE_VS => {
            let (a, b) = crate::eval::imbalance::OWN_PAIRS[f - IMBALANCE_OWN];
            format!("imbalance_{}_{}", role_name(a), role_name(b))
        }
        _ if f < REACHABLE_OUTPOST => {
            let (a, b) = crate::eval::imbalance::VS_PAIRS[f - IMBALANCE_VS];
            format!("imbalance_{}_vs_{}", role_name(a), role_name(b))
        }
        REACHABLE_OUTPOST => "reachable_outpost".into(),
        WEAK_QUEEN_PROTECTION => "weak_queen_protection".into(),
        _ if f < STORM => shelter_name(f - SHELTER),
        _ if f < TAPERED_FEATURES => storm_name(f - STORM),
        KING_DISTANCE => "king_distance_factor".into(),
        _ if f < BN_MATE_CORNER => block(MATE_EDGE, "mate_edge"),
        BN_MATE_CORNER => "bn_mate_corner".into(),
        MATE_BOX => "mate_box".into(),
        _ => panic!("feature {f} out of range"),
    }
}

const FILES: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
const FOLDED_FILES: [&str; 4] = ["ah", "bg", "cf", "de"];

/// `none` for distance 0, else the distance.
fn distance_name(distance: usize) -> String {
    match distance {
        0 => "none".into(),
        d => d.to_string(),
    }
}

/// Name of [`SHELTER`] entry `i`.
fn shelter_name(i: usize) -> String {
    let (king_file, file, distance) = (i / 56, i / 7 % 8, i % 7);
    let own = if king_file == 1 { "king_file_" } else { "" };
    format!("shelter_{own}{}_{}", FILES[file], distance_name(distance))
}

/// Name of [`STORM`] entry `i`.
fn storm_name(i: usize) -> String {
    if i < 28 {
        format!("storm_{}_{}", FOLDED_FILES[i / 7], distance_name(i % 7))
    } else {
        let i = i - 28;
        format!("storm_blocked_{}_{}", FOLDED_FILES[i / 5], i % 5 + 2)
    }
}

/// Allowed range of the feature's weights.
pub fn range(f: FeatureId) -> (i32, i32) {
    match f {
        _ if f < PST => (0, 3000),
        KING_DISTANCE | BN_MATE_CORNER | MATE_BOX => (0, 200),
        _ if f >= MATE_EDGE => (-500, 500),
        _ => (-1000, 1000),
    }
}

/// The SPSA perturbation `c_end` of the feature's weights (centipawns). The declared ranges
/// are sanity bounds, far wider than the values worth trying, so a twentieth of them would
/// shake the evaluation apart; instead about a twentieth of the weight's usual size, at
/// least 1: piece values are hundreds, per-square and per-count terms tens.
pub fn spsa_c_end(f: FeatureId) -> f64 {
    match f {
        _ if f < PST => 10.0,
        _ if f < MOBILITY_KNIGHT => 3.0,
        _ if f < PASSED_PAWN => 2.0,
        _ if f < DOUBLED_PAWN => 4.0,
        KING_DISTANCE | BN_MATE_CORNER | MATE_BOX => 2.0,
        _ if f >= MATE_EDGE => 5.0,
        _ => 2.0,
    }
}

/// Whether the feature belongs to a large table (hidden from the default UCI option listing).
pub fn is_table(f: FeatureId) -> bool {
    (PST..PASSED_PAWN).contains(&f) || (SHELTER..TAPERED_FEATURES).contains(&f)
}

/// A short heading for a parameter name, used to group lines in parameter files.
pub fn group(param_name: &str) -> &'static str {
    const GROUPS: [&str; 8] = [
        "material",
        "pst_pawn",
        "pst_knight",
        "pst_bishop",
        "pst_rook",
        "pst_queen",
        "pst_king",
        "mobility",
    ];
    GROUPS
        .iter()
        .find(|g| param_name.starts_with(*g))
        .copied()
        .unwrap_or(
            if param_name.starts_with("king_distance")
                || param_name.starts_with("mate_edge")
                || param_name.starts_with("bn_mate")
                || param_name.starts_with("mate_box")
            {
                "mating K+piece vs K"
            } else {
                "pawns, pieces and king"
            },
        )
}
