//! Internal score scale: centipawns, with mates at the top counting plies from the root.

use super::Score;

/// Deepest ply the search reaches (including quiescence and extensions).
pub(crate) const MAX_PLY: usize = 128;
/// Score of delivering mate at the root; mate at ply `p` scores `MATE - p`.
pub(crate) const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub(crate) const INFINITY: i32 = MATE + 1;
pub(crate) const DRAW: i32 = 0;

/// Score of being mated at `ply`.
#[inline]
pub(crate) fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The UCI form of an internal score: mates in moves, positive when the side to move mates.
pub(crate) fn to_score(value: i32) -> Score {
    if value >= MATE_BOUND {
        Score::Mate((MATE - value + 1) / 2)
    } else if value <= -MATE_BOUND {
        Score::Mate(-(MATE + value) / 2)
    } else {
        Score::Cp(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_plies_become_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(MATE - 5), Score::Mate(3));
        assert_eq!(to_score(mated_in(2)), Score::Mate(-1));
        assert_eq!(to_score(mated_in(0)), Score::Mate(0));
        assert_eq!(to_score(mated_in(4)), Score::Mate(-2));
        assert_eq!(to_score(57), Score::Cp(57));
    }
}
