//! The pawn-structure terms and passed pawns by pawn placement: they depend on the pawns
//! alone, which change in few moves of a search tree, so the search looks them up instead of
//! walking every pawn at every evaluation. The key is the pawns themselves, so a hit is
//! always exact.

use shakmaty::{Bitboard, Board, Color};

use super::pawns::pawn_structure;
use super::sink::{Packed, PackedWeights, PawnEntry, WeightSink};

/// Slots (a power of two): 192 KiB.
const SLOTS: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Slot {
    white: Bitboard,
    black: Bitboard,
    entry: PawnEntry,
}

/// Pawn-structure sums of recently seen pawn placements, for one parameter set (clear it
/// when the weights change). An empty slot holds the placement without pawns, whose sums
/// are 0, so it is a valid entry too.
pub struct PawnCache {
    slots: Box<[Slot]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            slots: vec![Slot::default(); SLOTS].into_boxed_slice(),
        }
    }
}

impl PawnCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    /// Pawn-structure sums and passed pawns of `board`, computed with `weights` on a miss.
    #[inline]
    pub(super) fn entry(&mut self, board: &Board, weights: &PackedWeights) -> PawnEntry {
        let white = board.pawns() & board.white();
        let black = board.pawns() & board.black();
        let mixed = (white.0 ^ black.0.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(mixed >> (64 - SLOTS.trailing_zeros())) as usize];
        if slot.white != white || slot.black != black {
            let side = |color| {
                let mut sink = WeightSink::<true> {
                    weights,
                    sums: Packed::default(),
                    pawns: None,
                };
                let passed = pawn_structure(board, color, &mut sink);
                ([sink.sums.mg(), sink.sums.eg()], passed)
            };
            let (black_sums, black_passed) = side(Color::Black);
            let (white_sums, white_passed) = side(Color::White);
            *slot = Slot {
                white,
                black,
                entry: PawnEntry {
                    sums: [black_sums, white_sums],
                    passed: [black_passed, white_passed],
                },
            };
        }
        slot.entry
    }
}
