//! The terms that depend on the pawns alone (pawn structure, passed pawns) or on the pawns and
//! one king (shelter, open files, king activity), by pawn placement: the pawns change in few
//! moves of a search tree and the kings in few more, so the search looks these up instead of
//! walking every pawn at every evaluation. The key is the pawns themselves and each king's
//! square, so a hit is always exact.

use shakmaty::{Bitboard, Board, Color};

use super::imbalance::{imbalance, material_key};
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
    /// The king terms by pawn placement, side and king square: a pawn slot keeps them for
    /// one square of each king, and the kings move back and forth in a search tree.
    kings: Box<[KingSlot]>,
    /// The imbalance sums by piece counts ([`super::imbalance::material_key`]).
    material: Box<[MaterialSlot]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            slots: vec![Slot::default(); SLOTS].into_boxed_slice(),
            kings: vec![KingSlot::default(); KING_SLOTS].into_boxed_slice(),
            material: vec![MaterialSlot::default(); MATERIAL_SLOTS].into_boxed_slice(),
        }
    }
}

/// Slots (a power of two) of [`KingSlot`]s: 64 KiB.
const KING_SLOTS: usize = 1 << 11;

/// One side's king terms for one pawn placement and king square.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct KingSlot {
    white: Bitboard,
    black: Bitboard,
    sums: Packed,
    /// The king's square (0..64, or 64 for no king) plus 65 for Black, or
    /// [`NO_KING_TERMS`].
    tag: u8,
}

impl Default for KingSlot {
    fn default() -> Self {
        KingSlot {
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            sums: Packed::default(),
            tag: NO_KING_TERMS,
        }
    }
}

/// Slots (a power of two) of [`MaterialSlot`]s: 16 KiB (a search tree sees few sets of
/// piece counts).
const MATERIAL_SLOTS: usize = 1 << 10;

/// The imbalance sums of one set of piece counts.
#[derive(Clone, Copy)]
struct MaterialSlot {
    /// The [`super::imbalance::material_key`], or [`NO_MATERIAL`].
    key: u64,
    sums: Packed,
}

/// A key that no board has (keys use 60 bits).
const NO_MATERIAL: u64 = u64::MAX;

impl Default for MaterialSlot {
    fn default() -> Self {
        MaterialSlot {
            key: NO_MATERIAL,
            sums: Packed::default(),
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

/// Brings `slot`'s king terms for `color` up to date with its king on `board`, from `kings`
/// when it holds them (`mixed`: the hash of the pawns).
#[inline(always)]
fn king_entry(
    slot: &mut Slot,
    kings: &mut [KingSlot],
    mixed: u64,
    board: &Board,
    color: Color,
    weights: &PackedWeights,
) {
    let king = board.king_of(color).map_or(64, u8::from);
    if slot.kings[color as usize] != king {
        let tag = king + 65 * color as u8;
        let hash = (mixed ^ u64::from(tag).wrapping_mul(0xff51_afd7_ed55_8ccd))
            .wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        let entry = &mut kings[(hash >> (64 - KING_SLOTS.trailing_zeros())) as usize];
        if entry.tag != tag || entry.white != slot.white || entry.black != slot.black {
            let mut sink = summing(weights);
            super::king_terms(board, color, &mut sink);
            *entry = KingSlot {
                white: slot.white,
                black: slot.black,
                sums: sink.sums,
                tag,
            };
        }
        slot.king_sums[color as usize] = entry.sums;
        slot.kings[color as usize] = king;
    }
}

impl PawnCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.kings.fill(KingSlot::default());
        self.material.fill(MaterialSlot::default());
    }

    /// The weighted sum of [`super::imbalance::imbalance`] of `board`, computed with
    /// `weights` when the slot does not hold it.
    #[inline(always)]
    pub(super) fn imbalance(&mut self, board: &Board, weights: &PackedWeights) -> Packed {
        let key = material_key(board);
        let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.material[(hash >> (64 - MATERIAL_SLOTS.trailing_zeros())) as usize];
        if slot.key != key {
            let mut sink = summing(weights);
            imbalance(board, &mut sink);
            *slot = MaterialSlot {
                key,
                sums: sink.sums,
            };
        }
        slot.sums
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
        let kings = &mut self.kings;
        king_entry(slot, kings, mixed, board, Color::White, weights);
        king_entry(slot, kings, mixed, board, Color::Black, weights);
        PawnEntry {
            sums: slot
                .pawn_sums
                .plus(slot.king_sums[0])
                .plus(slot.king_sums[1]),
            passed: slot.passed,
        }
    }
}
