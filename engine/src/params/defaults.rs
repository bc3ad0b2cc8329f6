//! Default values of the evaluation weights.

use super::feature::{self, FeatureId};

/// Default `(mg, eg)` weights of tapered feature `f`.
pub fn tapered(f: FeatureId) -> (i32, i32) {
    match f {
        _ if f < feature::PST => {
            const MG: [i32; 5] = [100, 320, 330, 500, 900];
            const EG: [i32; 5] = [100, 320, 330, 500, 900];
            (MG[f - feature::MATERIAL], EG[f - feature::MATERIAL])
        }
        _ => (0, 0),
    }
}

/// Default weight of flat feature `f`.
pub fn flat(f: FeatureId) -> i32 {
    match f {
        feature::KING_DISTANCE => 20,
        _ if f >= feature::MATE_EDGE => [60, 30, 10, 0][f - feature::MATE_EDGE],
        _ => 0,
    }
}
