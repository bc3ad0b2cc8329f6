//! The terms that depend on the pawns alone (pawn structure, passed pawns) or on the pawns and
//! one king (shelter, open files, king activity), by pawn placement: the pawns change in few
//! moves of a search tree and the kings in few more, so the search looks these up instead of
//! walking every pawn at every evaluation. The key is the pawns themselves and each king's
//! square, so a hit is always exact.

use shakmaty::{Bitboard, Board, Color};

use super::pawns::pawn_structure;
use super::sink::{Packed, PackedWeights, PawnEntry, WeightSink};

/// Slots (a power of two) of one cache line each: 128 KiB. Most misses are placements never
/// seen before: at `engine bench 6` 4,096 slots miss 16,551 of 144,628 probes and 2,048 miss
/// 16,987.
const SLOTS: usize = 1 << 11;

/// A king square that no board has: the slot's king terms for that side are not computed.
const NO_KING_TERMS: u8 = u8::MAX;

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    white: Bitboard,
    black: Bitboard,
    /// `[color]`: the passed pawns.
    passed: [Bitboard; 2],
    /// Both sides' pawn-structure sums.
    pawn_sums: Packed,
    /// `[color]`: that side's king terms, for its king on `kings[color]`.
    king_sums: [Packed; 2],
    /// `[color]`: the square (0..64, or 64 for no king) `king_sums` are for, or
    /// [`NO_KING_TERMS`].
    kings: [u8; 2],
}

impl Default for Slot {
    /// The placement without pawns, whose pawn sums are 0, and no king terms.
    fn default() -> Self {
        Slot {
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            passed: [Bitboard::EMPTY; 2],
            pawn_sums: Packed::default(),
            king_sums: [Packed::default(); 2],
            kings: [NO_KING_TERMS; 2],
        }
    }
}

/// Pawn and pawn-and-king sums of recently seen pawn placements, for one parameter set (clear
/// it when the weights change).
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

/// A sink that only sums, for filling a slot.
#[inline(always)]
fn summing(weights: &PackedWeights) -> WeightSink<'_, true> {
    WeightSink {
        weights,
        sums: Packed::default(),
        pawns: None,
    }
}

/// Brings `slot`'s king terms for `color` up to date with its king on `board`.
#[inline(always)]
fn king_entry(slot: &mut Slot, board: &Board, color: Color, weights: &PackedWeights) {
    let king = board.king_of(color).map_or(64, u8::from);
    if slot.kings[color as usize] != king {
        let mut sink = summing(weights);
        super::king_terms(board, color, &mut sink);
        slot.king_sums[color as usize] = sink.sums;
        slot.kings[color as usize] = king;
    }
}

impl PawnCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    /// The sums of [`super::pawns_and_king_terms`] and the passed pawns of `board`, computed
    /// with `weights` for what the slot does not hold.
    #[inline(always)]
    pub(super) fn entry(&mut self, board: &Board, weights: &PackedWeights) -> PawnEntry {
        let white = board.pawns() & board.white();
        let black = board.pawns() & board.black();
        let mixed = (white.0 ^ black.0.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(mixed >> (64 - SLOTS.trailing_zeros())) as usize];
        if slot.white != white || slot.black != black {
            let mut sink = summing(weights);
            let black_passed = pawn_structure(board, Color::Black, &mut sink);
            let white_passed = pawn_structure(board, Color::White, &mut sink);
            *slot = Slot {
                white,
                black,
                passed: [black_passed, white_passed],
                pawn_sums: sink.sums,
                ..Slot::default()
            };
        }
        // One inlined call per colour, with the colour known.
        king_entry(slot, board, Color::White, weights);
        king_entry(slot, board, Color::Black, weights);
        PawnEntry {
            sums: slot
                .pawn_sums
                .plus(slot.king_sums[0])
                .plus(slot.king_sums[1]),
            passed: slot.passed,
        }
    }
}
