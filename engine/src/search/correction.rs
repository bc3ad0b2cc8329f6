//! Correction history: how far the static evaluation has been from the search's results in
//! positions with the same pawns, learnt during the game and added to the evaluation.
//!
//! The evaluation misjudges some pawn structures consistently (a blocked centre, a weak
//! king's shelter the terms do not see); the searches below such nodes keep finding scores on
//! the same side of it. Each node whose result says where its true score lies relative to the
//! static evaluation moves its pawn structure's entry toward the difference, weighted by
//! depth, and later static evaluations of that structure add the entry.
//!
//! Optionally (`correction_nonpawn`) two more tables learn the same errors by each side's
//! pieces other than pawns (their squares, king included), as Stockfish's non-pawn
//! correction does: a misplaced piece group the terms misjudge is seen whatever the pawns.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

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

/// A hash of one colour's pieces other than pawns (king included), by role and square; the
/// high bits of the result are the best index bits.
#[inline]
fn non_pawn_hash(board: &Board, color: Color) -> u64 {
    const MULTIPLIERS: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
    ];
    let own = board.by_color(color);
    let roles = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let mut hash = 0u64;
    for (role, multiplier) in roles.into_iter().zip(MULTIPLIERS) {
        let squares: Bitboard = board.by_role(role) & own;
        hash = (hash ^ squares.0.wrapping_mul(multiplier)).rotate_left(23);
    }
    hash.wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// One table per side to move, indexed by a hash of both sides' pawns; and per side to move
/// and colour, one indexed by that colour's other pieces.
pub(crate) struct CorrectionHistory {
    entries: Box<[[i32; ENTRIES]; 2]>,
    non_pawn: Box<[[[i32; ENTRIES]; 2]; 2]>,
}

impl CorrectionHistory {
    pub(crate) fn new() -> Self {
        CorrectionHistory {
            entries: Box::new([[0; ENTRIES]; 2]),
            non_pawn: Box::new([[[0; ENTRIES]; 2]; 2]),
        }
    }

    /// Forgets everything learnt (a new game).
    pub(crate) fn clear(&mut self) {
        for side in self.entries.iter_mut() {
            side.fill(0);
        }
        for side in self.non_pawn.iter_mut() {
            for color in side.iter_mut() {
                color.fill(0);
            }
        }
    }

    /// The non-pawn tables' indices of `pos`, White's pieces then Black's.
    #[inline]
    fn non_pawn_slots(pos: &Chess) -> [usize; 2] {
        let board = pos.board();
        [Color::White, Color::Black]
            .map(|color| (non_pawn_hash(board, color) >> (64 - INDEX_BITS)) as usize)
    }

    #[inline]
    fn slot(pos: &Chess) -> (usize, usize) {
        (
            usize::from(pos.turn() == Color::Black),
            pawn_index(pos.board(), INDEX_BITS),
        )
    }

    /// The correction (cp) for `pos`, at most `max` either way: the pawn table's entry, plus
    /// the mean of the two non-pawn tables' entries when `non_pawn`.
    #[inline]
    pub(crate) fn get(&self, pos: &Chess, max: i32, non_pawn: bool) -> i32 {
        let (side, index) = Self::slot(pos);
        let mut sum = self.entries[side][index];
        if non_pawn {
            let [white, black] = Self::non_pawn_slots(pos);
            sum += (self.non_pawn[side][0][white] + self.non_pawn[side][1][black]) / 2;
        }
        (sum / GRAIN).clamp(-max, max)
    }

    /// `raw_eval + get(pos)`, kept clear of the mate range.
    #[inline]
    pub(crate) fn corrected(&self, pos: &Chess, raw_eval: i32, max: i32, non_pawn: bool) -> i32 {
        (raw_eval + self.get(pos, max, non_pawn)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the entries of `pos` (the pawn table's, and the non-pawn tables' when
    /// `non_pawn`) toward `score - raw_eval`, the error a search of `depth` plies found in the
    /// static evaluation, by a share that grows with depth. Entries stay within `max` cp.
    #[inline]
    pub(crate) fn update(
        &mut self,
        pos: &Chess,
        depth: i32,
        raw_eval: i32,
        score: i32,
        max: i32,
        non_pawn: bool,
    ) {
        let (side, index) = Self::slot(pos);
        let target = (score - raw_eval).clamp(-max, max) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let learn = |entry: &mut i32| {
            let moved = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = moved.clamp(-max * GRAIN, max * GRAIN);
        };
        learn(&mut self.entries[side][index]);
        if non_pawn {
            let [white, black] = Self::non_pawn_slots(pos);
            learn(&mut self.non_pawn[side][0][white]);
            learn(&mut self.non_pawn[side][1][black]);
        }
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
        assert_eq!(history.get(&pos, 100, false), 0);
        for _ in 0..200 {
            history.update(&pos, 15, 20, 80, 100, false);
        }
        // The entry converges to the error, +60 cp.
        assert!((58..=60).contains(&history.get(&pos, 100, false)));
        assert_eq!(
            history.corrected(&pos, 20, 100, false),
            20 + history.get(&pos, 100, false)
        );
        for _ in 0..500 {
            history.update(&pos, 15, 0, -1000, 100, false);
        }
        // Within rounding of the limit.
        assert!((-100..=-99).contains(&history.get(&pos, 100, false)));
        // A smaller limit clamps what is read.
        assert_eq!(history.get(&pos, 30, false), -30);
    }

    #[test]
    fn entries_are_by_pawns_and_side_to_move_only() {
        let mut history = CorrectionHistory::new();
        let start = Chess::default();
        for _ in 0..100 {
            history.update(&start, 10, 0, 50, 100, false);
        }
        let learnt = history.get(&start, 100, false);
        assert!(learnt > 20);
        // The same pawns and side to move, pieces elsewhere: the same entry.
        let knights_out = position("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        assert_eq!(history.get(&knights_out, 100, false), learnt);
        // Black to move, or another pawn structure: (almost surely) another entry.
        let black = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(history.get(&black, 100, false), 0);
        let e4 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(history.get(&e4, 100, false), 0);
        history.clear();
        assert_eq!(history.get(&start, 100, false), 0);
    }

    #[test]
    fn non_pawn_tables_learn_by_each_sides_pieces() {
        let mut history = CorrectionHistory::new();
        let start = Chess::default();
        for _ in 0..100 {
            history.update(&start, 10, 0, 80, 100, true);
        }
        // The pawn table and both non-pawn tables learnt the error (read without a limit).
        let both = history.get(&start, 1000, true);
        let pawns_only = history.get(&start, 1000, false);
        assert!(pawns_only > 40);
        assert!(both > pawns_only + 30, "{both} against {pawns_only}");
        // Other pawns, the same pieces and side to move: the non-pawn entries alone.
        let e4 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(history.get(&e4, 1000, false), 0);
        let non_pawn = history.get(&e4, 1000, true);
        assert!((non_pawn - (both - pawns_only)).abs() <= 1, "{non_pawn}");
        // White's knight moved: only Black's non-pawn entry (half the weight) still applies.
        let knight_out = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2");
        let half = history.get(&knight_out, 1000, true);
        assert!(half > 0 && half < non_pawn - 20, "{half}");
        history.clear();
        assert_eq!(history.get(&start, 1000, true), 0);
    }
}
