//! Correction history: how far the static evaluation has been from the search's results in
//! positions with the same pawns (and, optionally, the same pieces of one side), learnt during
//! the game and added to the evaluation.
//!
//! The evaluation misjudges some pawn structures consistently (a blocked centre, a weak
//! king's shelter the terms do not see); the searches below such nodes keep finding scores on
//! the same side of it. Each node whose result says where its true score lies relative to the
//! static evaluation moves its pawn structure's entry toward the difference, weighted by
//! depth, and later static evaluations of that structure add the entry. Two more tables,
//! keyed by White's and by Black's pieces other than pawns (Stockfish's non-pawn correction
//! histories), learn the same errors by piece placement; their mean is added at a percent.
//! A continuation table, keyed by the last two moves' pieces and target squares (Stockfish's
//! continuation correction history), learns what a line of play leaves the evaluation
//! missing; it too is added at a percent, and so is a second one keyed by the moves four plies
//! back and one ply back (Stockfish reads both). So is a minor-piece table, keyed by both sides'
//! knights, bishops and kings (Stockfish's minor-piece correction history), and a major-piece
//! table, keyed by both sides' rooks, queens and kings (Stockfish's major-piece correction
//! history of 2024), and a material table, keyed by how many pieces of each kind each side
//! has (a coarse key whose entries learn fast). With
//! `correction_residual` (on by default) every table moves by what the sum of all of them
//! still misses rather than toward the whole error, so that the sum counts an error once.

use shakmaty::{Bitboard, Board, Chess, Color, Position};

use super::ordering::{MOVE_KEYS, NO_MOVE_KEY};
use super::pawn_hash::pawn_index;
use super::prefetch::prefetch;
use super::score::MATE_BOUND;

/// Entries a side (a power of two): 2 × 16,384 × 4 bytes = 128 KiB a table.
const ENTRIES: usize = 1 << 14;
const INDEX_BITS: u32 = ENTRIES.trailing_zeros();
/// Entries hold centipawns times this, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The weights of an update are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest update weight at a rate of 100 % (reached at depth 15).
const MAX_WEIGHT: i32 = 16;

/// One table per side to move.
type Table = [[i32; ENTRIES]; 2];

/// Mixes five bitboards into a table index: each times an odd multiplier and rotated, the
/// five xored, and the high bits of the product with one more odd constant kept.
#[inline(always)]
fn mixed_index(parts: [(Bitboard, u64, u32); 5]) -> usize {
    let hash = parts
        .iter()
        .fold(0u64, |hash, &(pieces, multiplier, rotation)| {
            hash ^ pieces.0.wrapping_mul(multiplier).rotate_left(rotation)
        });
    (hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - INDEX_BITS)) as usize
}

/// A hash of one side's knights, bishops, rooks, queens and king: the key of its non-pawn
/// table.
#[inline]
fn non_pawn_index(board: &Board, color: Color) -> usize {
    let own = board.by_color(color);
    mixed_index([
        (board.knights() & own, 0x9E37_79B9_7F4A_7C15, 0),
        (board.bishops() & own, 0xC2B2_AE3D_27D4_EB4F, 13),
        (board.rooks() & own, 0x1656_67B1_9E37_79F9, 27),
        (board.queens() & own, 0x27D4_EB2F_1656_67C5, 41),
        (board.kings() & own, 0x85EB_CA77_C2B2_AE63, 53),
    ])
}

/// A hash of both sides' knights, bishops and kings: the key of the minor-piece table
/// (Stockfish's minor-piece correction history), which tells apart what the non-pawn
/// tables, one side's pieces each, lump together.
#[inline]
fn minor_index(board: &Board) -> usize {
    let white = board.white();
    mixed_index([
        (board.knights() & white, 0xA076_1D64_78BD_642F, 0),
        (board.knights() & !white, 0xE703_7ED1_A0B4_28DB, 11),
        (board.bishops() & white, 0x8EBC_6AF0_9C88_C6E3, 23),
        (board.bishops() & !white, 0x5899_65CC_7537_4CC3, 37),
        (board.kings(), 0x1D8E_4E27_C47D_124F, 49),
    ])
}

/// A hash of both sides' rooks, queens and kings: the key of the major-piece table, the
/// counterpart of [`minor_index`] for the heavy pieces.
#[inline]
fn major_index(board: &Board) -> usize {
    let white = board.white();
    mixed_index([
        (board.rooks() & white, 0x94D0_49BB_1331_11EB, 0),
        (board.rooks() & !white, 0xBF58_476D_1CE4_E5B9, 11),
        (board.queens() & white, 0x2545_F491_4F6C_DD1D, 23),
        (board.queens() & !white, 0x9FB2_1C65_1E98_DF25, 37),
        (board.kings(), 0xD1B5_4A32_D192_ED03, 49),
    ])
}

/// A hash of the material: how many pawns, knights, bishops, rooks and queens each side
/// has, four bits a count (a tenth queen would spill into the next count: a collision, no
/// harm), the key of the material table.
#[inline]
fn material_index(board: &Board) -> usize {
    let counts = [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| {
            let own = board.by_color(color);
            [
                board.pawns(),
                board.knights(),
                board.bishops(),
                board.rooks(),
                board.queens(),
            ]
            .map(move |pieces| u64::from((pieces & own).count() as u8))
        })
        .fold(0u64, |packed, count| packed << 4 | count);
    ((counts ^ counts >> 29).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - INDEX_BITS)) as usize
}

/// The pawn table, the non-pawn tables of White's pieces and of Black's, and the
/// continuation tables (by the move two plies back, or four, then the last move: 769 × 769 ×
/// 4 bytes = 2.4 MB each, the last row and column unused; the mover's colour is in each key,
/// so no side index is needed).
pub(crate) struct CorrectionHistory {
    pawn: Box<Table>,
    non_pawn: Box<[Table; 2]>,
    minor: Box<Table>,
    major: Box<Table>,
    material: Box<Table>,
    continuation: [Box<[[i32; MOVE_KEYS]]>; CONTINUATION_TABLES],
}

/// The tables a correction reads, and their weights.
#[derive(Clone, Copy)]
pub(crate) struct Weights {
    /// The largest correction (cp) either way.
    pub max: i32,
    /// The non-pawn tables' mean, in percent (0: not read or learnt).
    pub non_pawn: i32,
    /// The minor-piece table's entry, in percent (0: not read or learnt).
    pub minor: i32,
    /// The major-piece table's entry, in percent (0: not read or learnt).
    pub major: i32,
    /// The material table's entry, in percent (0: not read or learnt).
    pub material: i32,
    /// The continuation table's entry, in percent (0: not read or learnt).
    pub continuation: i32,
    /// The entry of the continuation table by the move four plies back, in percent (0: not
    /// read or learnt).
    pub continuation_4: i32,
    /// How fast entries learn: the update weights in percent (100: a search of depth d
    /// moves an entry (d + 1)/256 of the way, up to 16/256).
    pub rate: i32,
    /// Whether every table learns the error the whole correction leaves (the residual),
    /// rather than each the whole error on its own.
    pub residual: bool,
}

/// The moves four plies, two plies and one ply before a position (piece and target square,
/// as [`super::ordering::Heuristics::move_keys`] gives them): the continuation tables' keys.
pub(crate) type MoveKeys = [usize; 3];

/// The entry of an earlier move and the last one: none unless both were played (not before
/// the root, not a null move), so that unrelated lines do not share a row.
#[inline]
fn pair_slot(before: usize, last: usize) -> Option<[usize; 2]> {
    (before != NO_MOVE_KEY && last != NO_MOVE_KEY).then_some([before, last])
}

/// The continuation tables: by the move two plies back, then by the move four plies back.
const CONTINUATION_TABLES: usize = 2;

/// The entry of continuation table `table` for `moves` (the earlier move, then the last)
/// and its percent, if the table is read and learnt and both moves were played.
#[inline(always)]
fn continuation_entry(
    table: usize,
    [four_back, two_back, last]: MoveKeys,
    weights: Weights,
) -> Option<([usize; 2], i32)> {
    let (before, percent) = if table == 0 {
        (two_back, weights.continuation)
    } else {
        (four_back, weights.continuation_4)
    };
    if percent > 0 {
        pair_slot(before, last).map(|entry| (entry, percent))
    } else {
        None
    }
}

/// Where a position's entries are: found once a node, for its read and its update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slots {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
    minor: usize,
    major: usize,
    material: usize,
}

impl CorrectionHistory {
    pub(crate) fn new() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; ENTRIES]; 2]),
            non_pawn: Box::new([[[0; ENTRIES]; 2]; 2]),
            minor: Box::new([[0; ENTRIES]; 2]),
            major: Box::new([[0; ENTRIES]; 2]),
            material: Box::new([[0; ENTRIES]; 2]),
            continuation: [(); CONTINUATION_TABLES]
                .map(|()| vec![[0; MOVE_KEYS]; MOVE_KEYS].into_boxed_slice()),
        }
    }

    /// Forgets everything learnt (a new game).
    pub(crate) fn clear(&mut self) {
        for side in self
            .pawn
            .iter_mut()
            .chain(self.non_pawn.iter_mut().flatten())
            .chain(self.minor.iter_mut())
            .chain(self.major.iter_mut())
            .chain(self.material.iter_mut())
        {
            side.fill(0);
        }
        for row in self.continuation.iter_mut().flatten() {
            row.fill(0);
        }
    }

    /// Where the entries of `pos` are.
    #[inline(always)]
    pub(crate) fn slots(pos: &Chess, weights: Weights) -> Slots {
        let board = pos.board();
        Slots {
            side: usize::from(pos.turn() == Color::Black),
            pawn: pawn_index(board, INDEX_BITS),
            non_pawn: if weights.non_pawn > 0 {
                [
                    non_pawn_index(board, Color::White),
                    non_pawn_index(board, Color::Black),
                ]
            } else {
                [0, 0]
            },
            minor: if weights.minor > 0 {
                minor_index(board)
            } else {
                0
            },
            major: if weights.major > 0 {
                major_index(board)
            } else {
                0
            },
            material: if weights.material > 0 {
                material_index(board)
            } else {
                0
            },
        }
    }

    /// Starts loading the entries at `slots` (and the continuation entries of `moves`) that
    /// the node of the position reads soon: a child's, as soon as it is made.
    #[inline(always)]
    pub(crate) fn prefetch(&self, slots: &Slots, moves: MoveKeys, weights: Weights) {
        prefetch(&self.pawn[slots.side][slots.pawn]);
        if weights.non_pawn > 0 {
            prefetch(&self.non_pawn[0][slots.side][slots.non_pawn[0]]);
            prefetch(&self.non_pawn[1][slots.side][slots.non_pawn[1]]);
        }
        if weights.minor > 0 {
            prefetch(&self.minor[slots.side][slots.minor]);
        }
        if weights.major > 0 {
            prefetch(&self.major[slots.side][slots.major]);
        }
        if weights.material > 0 {
            prefetch(&self.material[slots.side][slots.material]);
        }
        for table in 0..CONTINUATION_TABLES {
            if let Some(([before, last], _)) = continuation_entry(table, moves, weights) {
                prefetch(&self.continuation[table][before][last]);
            }
        }
    }

    /// The correction (cp) for `pos`, reached by the moves `moves`, at most `weights.max`
    /// either way: the pawn table's entry, plus the non-pawn tables' mean, the minor-piece
    /// entry and the continuation entries at their percents.
    #[cfg(test)]
    pub(crate) fn get(&self, pos: &Chess, moves: MoveKeys, weights: Weights) -> i32 {
        let slots = Self::slots(pos, weights);
        self.read(&slots, moves, weights)
    }

    /// [`CorrectionHistory::get`] at known slots.
    #[inline(always)]
    fn read(&self, slots: &Slots, moves: MoveKeys, weights: Weights) -> i32 {
        // In `i32`: entries stay within `max` (at most 1,000) × `GRAIN` = 256,000 and the
        // percents within 300, so the largest product, 2 × 256,000 × 300, and the sum fit.
        let mut sum = self.pawn[slots.side][slots.pawn];
        if weights.non_pawn > 0 {
            let pieces = self.non_pawn[0][slots.side][slots.non_pawn[0]]
                + self.non_pawn[1][slots.side][slots.non_pawn[1]];
            sum += pieces * weights.non_pawn / 200;
        }
        if weights.minor > 0 {
            sum += self.minor[slots.side][slots.minor] * weights.minor / 100;
        }
        if weights.major > 0 {
            sum += self.major[slots.side][slots.major] * weights.major / 100;
        }
        if weights.material > 0 {
            sum += self.material[slots.side][slots.material] * weights.material / 100;
        }
        for table in 0..CONTINUATION_TABLES {
            if let Some(([before, last], percent)) = continuation_entry(table, moves, weights) {
                sum += self.continuation[table][before][last] * percent / 100;
            }
        }
        (sum / GRAIN).clamp(-weights.max, weights.max)
    }

    /// `raw_eval + get(pos)`, kept clear of the mate range.
    #[cfg(test)]
    pub(crate) fn corrected(
        &self,
        pos: &Chess,
        moves: MoveKeys,
        raw_eval: i32,
        weights: Weights,
    ) -> i32 {
        self.corrected_at(&Self::slots(pos, weights), moves, raw_eval, weights)
    }

    /// [`CorrectionHistory::corrected`] at the slots of the position.
    #[inline(always)]
    pub(crate) fn corrected_at(
        &self,
        slots: &Slots,
        moves: MoveKeys,
        raw_eval: i32,
        weights: Weights,
    ) -> i32 {
        (raw_eval + self.read(slots, moves, weights)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the entries of `pos` (reached by `moves`) toward `score - raw_eval`, the error a
    /// search of `depth` plies found in the static evaluation, by a share that grows with
    /// depth: the pawn table's, and the others' whose weight is above 0. Entries stay within
    /// `weights.max` cp.
    #[cfg(test)]
    pub(crate) fn update(
        &mut self,
        pos: &Chess,
        moves: MoveKeys,
        depth: i32,
        raw_eval: i32,
        score: i32,
        weights: Weights,
    ) {
        let slots = Self::slots(pos, weights);
        self.update_at(&slots, moves, depth, raw_eval, score, weights);
    }

    /// [`CorrectionHistory::update`] at the slots of the position.
    #[inline]
    pub(crate) fn update_at(
        &mut self,
        slots: &Slots,
        moves: MoveKeys,
        depth: i32,
        raw_eval: i32,
        score: i32,
        weights: Weights,
    ) {
        let max = weights.max;
        let weight = ((depth + 1).clamp(1, MAX_WEIGHT) * weights.rate / 100).clamp(1, WEIGHT_SCALE);
        // Residual: each entry moves by the share `weight` of what the whole correction
        // misses, so that the tables together (their sum is what is read) learn the error
        // once. Otherwise each entry moves that share of the way to the whole error.
        let residual = weights.residual.then(|| {
            (score - raw_eval - self.read(slots, moves, weights)).clamp(-max, max) * GRAIN
        });
        let target = (score - raw_eval).clamp(-max, max) * GRAIN;
        let learn = |entry: &mut i32| {
            let moved = match residual {
                Some(error) => *entry + error * weight / WEIGHT_SCALE,
                None => (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE,
            };
            *entry = moved.clamp(-max * GRAIN, max * GRAIN);
        };
        learn(&mut self.pawn[slots.side][slots.pawn]);
        if weights.non_pawn > 0 {
            for color in 0..2 {
                learn(&mut self.non_pawn[color][slots.side][slots.non_pawn[color]]);
            }
        }
        if weights.minor > 0 {
            learn(&mut self.minor[slots.side][slots.minor]);
        }
        if weights.major > 0 {
            learn(&mut self.major[slots.side][slots.major]);
        }
        if weights.material > 0 {
            learn(&mut self.material[slots.side][slots.material]);
        }
        for table in 0..CONTINUATION_TABLES {
            if let Some(([before, last], _)) = continuation_entry(table, moves, weights) {
                learn(&mut self.continuation[table][before][last]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// No moves known (the root).
    const ROOT: MoveKeys = [NO_MOVE_KEY, NO_MOVE_KEY, NO_MOVE_KEY];

    fn weights(max: i32, non_pawn: i32) -> Weights {
        Weights {
            max,
            non_pawn,
            minor: 0,
            major: 0,
            material: 0,
            continuation: 0,
            continuation_4: 0,
            rate: 100,
            residual: false,
        }
    }

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
        assert_eq!(history.get(&pos, ROOT, weights(100, 0)), 0);
        for _ in 0..200 {
            history.update(&pos, ROOT, 15, 20, 80, weights(100, 0));
        }
        // The entry converges to the error, +60 cp.
        assert!((58..=60).contains(&history.get(&pos, ROOT, weights(100, 0))));
        assert_eq!(
            history.corrected(&pos, ROOT, 20, weights(100, 0)),
            20 + history.get(&pos, ROOT, weights(100, 0))
        );
        for _ in 0..500 {
            history.update(&pos, ROOT, 15, 0, -1000, weights(100, 0));
        }
        // Within rounding of the limit.
        assert!((-100..=-99).contains(&history.get(&pos, ROOT, weights(100, 0))));
        // A smaller limit clamps what is read.
        assert_eq!(history.get(&pos, ROOT, weights(30, 0)), -30);
    }

    #[test]
    fn entries_are_by_pawns_and_side_to_move_only() {
        let mut history = CorrectionHistory::new();
        let start = Chess::default();
        for _ in 0..100 {
            history.update(&start, ROOT, 10, 0, 50, weights(100, 0));
        }
        let learnt = history.get(&start, ROOT, weights(100, 0));
        assert!(learnt > 20);
        // The same pawns and side to move, pieces elsewhere: the same entry.
        let knights_out = position("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        assert_eq!(history.get(&knights_out, ROOT, weights(100, 0)), learnt);
        // Black to move, or another pawn structure: (almost surely) another entry.
        let black = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(history.get(&black, ROOT, weights(100, 0)), 0);
        let e4 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(history.get(&e4, ROOT, weights(100, 0)), 0);
        history.clear();
        assert_eq!(history.get(&start, ROOT, weights(100, 0)), 0);
    }

    #[test]
    fn non_pawn_tables_learn_by_each_sides_pieces() {
        let mut history = CorrectionHistory::new();
        let start = Chess::default();
        for _ in 0..200 {
            history.update(&start, ROOT, 15, 0, 40, weights(100, 100));
        }
        // All three tables hold +40: the pawn entry plus the mean of the other two at 100 %.
        assert!((78..=80).contains(&history.get(&start, ROOT, weights(100, 100))));
        assert!((58..=60).contains(&history.get(&start, ROOT, weights(100, 50))));
        assert!((38..=40).contains(&history.get(&start, ROOT, weights(100, 0))));
        // The sum is clamped to the limit.
        assert_eq!(history.get(&start, ROOT, weights(50, 100)), 50);
        // White's knights moved, pawns and Black's pieces unchanged: the pawn entry and Black's
        // non-pawn entry carry over, White's does not (half of the non-pawn mean is left).
        let knight_out = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        assert!((58..=60).contains(&history.get(&knight_out, ROOT, weights(100, 100))));
        // Without the non-pawn tables, updates leave them alone.
        let mut pawn_only = CorrectionHistory::new();
        for _ in 0..200 {
            pawn_only.update(&start, ROOT, 15, 0, 40, weights(100, 0));
        }
        assert_eq!(
            pawn_only.get(&start, ROOT, weights(100, 100)),
            pawn_only.get(&start, ROOT, weights(100, 0))
        );
        history.clear();
        assert_eq!(history.get(&start, ROOT, weights(100, 100)), 0);
    }

    /// A continuation table read at 100 % (`with`) learns the start position's error after
    /// `line` beside the pawn table; `same` is another line with the table's key (the same
    /// entry), `others` lines without it (the pawn entry alone), `unplayed` a line missing
    /// one of the key's moves (no entry). At 50 % (`half`) half the entry is read; off, the
    /// table is neither read nor learnt.
    fn assert_the_line_table_learns_by_its_moves(
        with: Weights,
        half: Weights,
        line: MoveKeys,
        same: MoveKeys,
        others: &[MoveKeys],
        unplayed: MoveKeys,
    ) {
        let start = Chess::default();
        let mut history = CorrectionHistory::new();
        for _ in 0..200 {
            history.update(&start, line, 15, 0, 40, with);
        }
        // The pawn entry and the table's entry each hold +40.
        assert!((78..=80).contains(&history.get(&start, line, with)));
        assert!((78..=80).contains(&history.get(&start, same, with)));
        for &other in others {
            assert!(
                (38..=40).contains(&history.get(&start, other, with)),
                "{other:?}"
            );
        }
        assert!((58..=60).contains(&history.get(&start, line, half)));
        assert!((38..=40).contains(&history.get(&start, line, weights(100, 0))));
        let mut pawn_only = CorrectionHistory::new();
        for _ in 0..200 {
            pawn_only.update(&start, line, 15, 0, 40, weights(100, 0));
        }
        assert_eq!(
            pawn_only.get(&start, line, with),
            pawn_only.get(&start, line, weights(100, 0))
        );
        for _ in 0..200 {
            history.update(&start, unplayed, 15, 0, -40, with);
        }
        assert_eq!(
            history.get(&start, unplayed, with),
            history.get(&start, unplayed, weights(100, 0))
        );
        history.clear();
        assert_eq!(history.get(&start, line, with), 0);
    }

    /// Its key: the moves two plies back and one ply back, whatever came four plies back;
    /// a null move (or the root) among them: no entry.
    #[test]
    fn the_continuation_table_learns_by_the_last_two_moves() {
        let with = Weights {
            continuation: 100,
            ..weights(100, 0)
        };
        assert_the_line_table_learns_by_its_moves(
            with,
            Weights {
                continuation: 50,
                ..with
            },
            [9, 3, 700],
            [10, 3, 700],
            &[[9, 4, 700], [9, 3, 701]],
            [9, NO_MOVE_KEY, 700],
        );
    }

    /// Its key: the moves four plies back and one ply back, whatever came two plies back;
    /// fewer than four plies played: no entry.
    #[test]
    fn the_second_continuation_table_learns_by_the_moves_four_plies_and_one_ply_back() {
        let with = Weights {
            continuation_4: 100,
            ..weights(100, 0)
        };
        assert_the_line_table_learns_by_its_moves(
            with,
            Weights {
                continuation_4: 50,
                ..with
            },
            [9, 3, 700],
            [9, 4, 700],
            &[[10, 3, 700], [9, 3, 701]],
            [NO_MOVE_KEY, 3, 700],
        );
        // Not the first continuation table's entry.
        let start = Chess::default();
        let mut history = CorrectionHistory::new();
        for _ in 0..200 {
            history.update(&start, [9, 3, 700], 15, 0, 40, with);
        }
        let with_two = Weights {
            continuation: 100,
            ..weights(100, 0)
        };
        assert!((38..=40).contains(&history.get(&start, [9, 3, 700], with_two)));
    }

    #[test]
    fn residual_learning_counts_the_error_once_across_the_tables() {
        let start = Chess::default();
        let all = Weights {
            continuation: 100,
            ..weights(200, 100)
        };
        let line: MoveKeys = [9, 3, 700];
        let residual = Weights {
            residual: true,
            ..all
        };
        let mut history = CorrectionHistory::new();
        let mut whole = CorrectionHistory::new();
        for _ in 0..300 {
            history.update(&start, line, 15, 0, 40, residual);
            whole.update(&start, line, 15, 0, 40, all);
        }
        // Read as a whole, the residual tables hold the error once; each table learning the
        // whole error on its own counts it three times (pawn, non-pawn mean, continuation).
        assert!((38..=40).contains(&history.get(&start, line, residual)));
        assert!((118..=120).contains(&whole.get(&start, line, all)));
        // With the pawn table alone, the two learn alike.
        let (mut pawn_residual, mut pawn_whole) =
            (CorrectionHistory::new(), CorrectionHistory::new());
        let pawn = weights(100, 0);
        for score in [80, 80, -30, 50, 200, -200, 10] {
            pawn_residual.update(
                &start,
                ROOT,
                12,
                5,
                score,
                Weights {
                    residual: true,
                    ..pawn
                },
            );
            pawn_whole.update(&start, ROOT, 12, 5, score, pawn);
            let (a, b) = (
                pawn_residual.get(&start, ROOT, pawn),
                pawn_whole.get(&start, ROOT, pawn),
            );
            assert!((a - b).abs() <= 1, "{a} against {b} after {score}");
        }
    }

    /// A table read at 100 % (`with`) learns the start position's error beside the pawn
    /// table; `same` keeps its key (the same entries), `other` changes it (the pawn entry
    /// alone); off, the table is neither read nor learnt.
    fn assert_the_table_learns_by_its_key(with: Weights, same: &str, other: &str) {
        let start = Chess::default();
        let mut history = CorrectionHistory::new();
        for _ in 0..200 {
            history.update(&start, ROOT, 15, 0, 40, with);
        }
        // The pawn entry and the table's entry each hold +40.
        assert!((78..=80).contains(&history.get(&start, ROOT, with)));
        assert!((78..=80).contains(&history.get(&position(same), ROOT, with)));
        assert!((38..=40).contains(&history.get(&position(other), ROOT, with)));
        assert!((38..=40).contains(&history.get(&start, ROOT, weights(100, 0))));
        let mut pawn_only = CorrectionHistory::new();
        for _ in 0..200 {
            pawn_only.update(&start, ROOT, 15, 0, 40, weights(100, 0));
        }
        assert_eq!(
            pawn_only.get(&start, ROOT, with),
            pawn_only.get(&start, ROOT, weights(100, 0))
        );
        history.clear();
        assert_eq!(history.get(&start, ROOT, with), 0);
    }

    /// A rook fewer keeps the minor-piece key, a knight elsewhere changes it.
    #[test]
    fn the_minor_table_learns_by_both_sides_knights_bishops_and_kings() {
        let with_minor = Weights {
            minor: 100,
            ..weights(100, 0)
        };
        assert_the_table_learns_by_its_key(
            with_minor,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
        );
        // Read at half its weight: half of its +40.
        let start = Chess::default();
        let mut history = CorrectionHistory::new();
        for _ in 0..200 {
            history.update(&start, ROOT, 15, 0, 40, with_minor);
        }
        let half = Weights {
            minor: 50,
            ..with_minor
        };
        assert!((58..=60).contains(&history.get(&start, ROOT, half)));
    }

    /// A knight elsewhere keeps the major-piece key, a rook fewer changes it.
    #[test]
    fn the_major_table_learns_by_both_sides_rooks_queens_and_kings() {
        assert_the_table_learns_by_its_key(
            Weights {
                major: 100,
                ..weights(100, 0)
            },
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1",
        );
    }

    /// Pieces elsewhere keep the material key, a rook fewer changes it.
    #[test]
    fn the_material_table_learns_by_both_sides_piece_counts() {
        assert_the_table_learns_by_its_key(
            Weights {
                material: 100,
                ..weights(100, 0)
            },
            "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1",
        );
    }

    #[test]
    fn the_rate_scales_how_far_an_update_moves_an_entry() {
        let start = Chess::default();
        let learnt = |rate| {
            let mut history = CorrectionHistory::new();
            let faster = Weights {
                rate,
                ..weights(100, 0)
            };
            // One update of depth 15: 16/256 of 80 cp at 100 %, 5 cp.
            history.update(&start, ROOT, 15, 0, 80, faster);
            history.get(&start, ROOT, faster)
        };
        assert_eq!(learnt(100), 5);
        assert_eq!(learnt(200), 10);
        assert_eq!(learnt(50), 2);
    }
}
