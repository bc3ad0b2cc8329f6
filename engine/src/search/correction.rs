//! Correction history: how far the static evaluation has been from the search's results in
//! positions with the same pawns, learnt during the game and added to the evaluation.
//!
//! The evaluation misjudges some pawn structures consistently (a blocked centre, a weak
//! king's shelter the terms do not see); the searches below such nodes keep finding scores on
//! the same side of it. Each node whose result says where its true score lies relative to the
//! static evaluation moves its pawn structure's entry toward the difference, weighted by
//! depth, and later static evaluations of that structure add the entry.

use shakmaty::{Chess, Color, Position};

use super::pawn_hash::pawn_index;
use super::score::MATE_BOUND;

/// Entries a side (a power of two): 2 × 16,384 × 4 bytes = 128 KiB.
const ENTRIES: usize = 1 << 14;
const INDEX_BITS: u32 = ENTRIES.trailing_zeros();
/// Entries hold centipawns times this, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The weights of an update are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest update weight (reached at depth 15).
const MAX_WEIGHT: i32 = 16;

/// One table per side to move, indexed by a hash of both sides' pawns.
pub(crate) struct CorrectionHistory {
    entries: Box<[[i32; ENTRIES]; 2]>,
}

impl CorrectionHistory {
    pub(crate) fn new() -> Self {
        CorrectionHistory {
            entries: Box::new([[0; ENTRIES]; 2]),
        }
    }

    /// Forgets everything learnt (a new game).
    pub(crate) fn clear(&mut self) {
        for side in self.entries.iter_mut() {
            side.fill(0);
        }
    }

    #[inline]
    fn slot(pos: &Chess) -> (usize, usize) {
        (
            usize::from(pos.turn() == Color::Black),
            pawn_index(pos.board(), INDEX_BITS),
        )
    }

    /// The correction (cp) for `pos`, at most `max` either way.
    #[inline]
    pub(crate) fn get(&self, pos: &Chess, max: i32) -> i32 {
        let (side, index) = Self::slot(pos);
        (self.entries[side][index] / GRAIN).clamp(-max, max)
    }

    /// `raw_eval + get(pos)`, kept clear of the mate range.
    #[inline]
    pub(crate) fn corrected(&self, pos: &Chess, raw_eval: i32, max: i32) -> i32 {
        (raw_eval + self.get(pos, max)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the entry of `pos` toward `score - raw_eval`, the error a search of `depth` plies
    /// found in the static evaluation, by a share that grows with depth. Entries stay within
    /// `max` cp.
    #[inline]
    pub(crate) fn update(&mut self, pos: &Chess, depth: i32, raw_eval: i32, score: i32, max: i32) {
        let (side, index) = Self::slot(pos);
        let entry = &mut self.entries[side][index];
        let target = (score - raw_eval).clamp(-max, max) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let moved = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = moved.clamp(-max * GRAIN, max * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal position")
    }

    #[test]
    fn updates_move_the_entry_toward_the_error_and_stay_within_the_limit() {
        let mut history = CorrectionHistory::new();
        let pos = Chess::default();
        assert_eq!(history.get(&pos, 100), 0);
        for _ in 0..200 {
            history.update(&pos, 15, 20, 80, 100);
        }
        // The entry converges to the error, +60 cp.
        assert!((58..=60).contains(&history.get(&pos, 100)));
        assert_eq!(
            history.corrected(&pos, 20, 100),
            20 + history.get(&pos, 100)
        );
        for _ in 0..500 {
            history.update(&pos, 15, 0, -1000, 100);
        }
        // Within rounding of the limit.
        assert!((-100..=-99).contains(&history.get(&pos, 100)));
        // A smaller limit clamps what is read.
        assert_eq!(history.get(&pos, 30), -30);
    }

    #[test]
    fn entries_are_by_pawns_and_side_to_move_only() {
        let mut history = CorrectionHistory::new();
        let start = Chess::default();
        for _ in 0..100 {
            history.update(&start, 10, 0, 50, 100);
        }
        let learnt = history.get(&start, 100);
        assert!(learnt > 20);
        // The same pawns and side to move, pieces elsewhere: the same entry.
        let knights_out = position("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        assert_eq!(history.get(&knights_out, 100), learnt);
        // Black to move, or another pawn structure: (almost surely) another entry.
        let black = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(history.get(&black, 100), 0);
        let e4 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(history.get(&e4, 100), 0);
        history.clear();
        assert_eq!(history.get(&start, 100), 0);
    }
}
