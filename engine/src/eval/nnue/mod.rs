//! An efficiently updatable neural network (NNUE) evaluation: 768 piece-square inputs per
//! perspective (in a king-bucketed network, one set of 768 for each of [`KING_BUCKETS`] regions
//! of the perspective's own king, [`king_bucket`]), one hidden layer of [`HIDDEN`] units shared
//! by both perspectives, squared clipped ReLU, and one output from one of [`OUTPUT_BUCKETS`]
//! output layers, chosen by the number of pieces on the board ([`OutputBucket`]).
//!
//! - [`network`]: the quantised weights and their file format, read and written here only.
//! - [`accumulator`]: the hidden layer's inputs for both perspectives, updated move by move.
//! - [`embedded`]: the network built into the engine; [`file`]: networks read at run time.
//! - [`stack`]: the accumulators along the search's line, computed when first read.
//!
//! The output, in centipawns from the side to move's view, is
//! `(Σ screlu(us)·v_us + Σ screlu(them)·v_them + bias) · SCALE` with the bucket's `v` and
//! `bias`, where `screlu(x) = clamp(x, 0, 1)²` of the accumulator for the side to move (`us`) and for the other side.
//! Integers carry it: the accumulator is scaled by [`QA`], the output weights by [`QB`].

pub mod accumulator;
mod embedded;
mod file;
pub mod network;
mod stack;

use shakmaty::{Board, Color, Piece, Square};

pub use accumulator::Accumulator;
pub use embedded::embedded;
pub use file::load;
pub use network::{FloatNetwork, NetError, Network, file_hidden_units};
pub use stack::AccumulatorStack;

/// Inputs per perspective: (own, enemy) × six roles × 64 squares.
pub const INPUTS: usize = 768;
/// Sets of [`INPUTS`] inputs in a king-bucketed network, one for each region of
/// [`king_bucket`]; a network without king buckets has one set.
pub const KING_BUCKETS: usize = 4;
/// Rows of feature weights a network holds: [`INPUTS`] for each king bucket.
pub const FEATURE_ROWS: usize = KING_BUCKETS * INPUTS;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Output layers, one for each range of piece counts (2–5 pieces, 6–9, …, 30–32).
pub const OUTPUT_BUCKETS: usize = 8;
/// Quantisation of the accumulator (feature weights and biases): 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns of one unit of the network's raw output.
pub const SCALE: i32 = 400;
/// Largest magnitude of a float weight that quantises without overflow (output weights to
/// `QB`, so that `QA · v` stays in an `i16`); the trainer clips to it.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The input that `piece` on `square` sets for `perspective`: the board as that side sees it
/// (Black's flipped top to bottom), its own pieces first.
///
/// ```
/// use engine::eval::nnue::feature;
/// use shakmaty::{Color, Piece, Role, Square};
/// let white_pawn = Piece { color: Color::White, role: Role::Pawn };
/// let black_pawn = Piece { color: Color::Black, role: Role::Pawn };
/// // A white pawn on e2 is to White what a black pawn on e7 is to Black.
/// assert_eq!(feature(Color::White, white_pawn, Square::E2), feature(Color::Black, black_pawn, Square::E7));
/// assert_eq!(feature(Color::White, white_pawn, Square::A1), 0);
/// assert_eq!(feature(Color::White, black_pawn, Square::A1), 384);
/// ```
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let square = match perspective {
        Color::White => usize::from(square),
        Color::Black => usize::from(square) ^ 56,
    };
    let side = usize::from(piece.color != perspective);
    side * 384 + (piece.role as usize - 1) * 64 + square
}

/// The king bucket of each square of a perspective's own king, as that side sees the board
/// (rank 1 its back rank): on the first two ranks, castled long (files a–c), in the centre
/// (d–e) or castled short (f–h); anywhere beyond the second rank, as kings walk in endgames.
const KING_BUCKET_LAYOUT: [u8; 64] = {
    let mut layout = [3u8; 64];
    let mut square = 0;
    while square < 16 {
        layout[square] = match square % 8 {
            0..=2 => 0,
            3 | 4 => 1,
            _ => 2,
        };
        square += 1;
    }
    layout
};

/// Which set of inputs `perspective` reads with its king on `king`: by [`KING_BUCKET_LAYOUT`]
/// in a king-bucketed network (`bucketed`), else the one set there is.
///
/// ```
/// use engine::eval::nnue::king_bucket;
/// use shakmaty::{Color, Square};
/// // Castled short, each as its side sees the board.
/// assert_eq!(king_bucket(true, Color::White, Square::G1), king_bucket(true, Color::Black, Square::G8));
/// assert_ne!(king_bucket(true, Color::White, Square::G1), king_bucket(true, Color::White, Square::C1));
/// assert_ne!(king_bucket(true, Color::White, Square::E1), king_bucket(true, Color::White, Square::E4));
/// assert_eq!(king_bucket(false, Color::White, Square::E4), 0);
/// ```
#[inline(always)]
pub fn king_bucket(bucketed: bool, perspective: Color, king: Square) -> usize {
    if !bucketed {
        return 0;
    }
    let square = match perspective {
        Color::White => usize::from(king),
        Color::Black => usize::from(king) ^ 56,
    };
    usize::from(KING_BUCKET_LAYOUT[square])
}

/// The row of feature weights that `piece` on `square` adds for `perspective` whose king is
/// in `king_bucket`: [`feature`] in that bucket's set.
#[inline(always)]
pub fn input_row(king_bucket: usize, perspective: Color, piece: Piece, square: Square) -> usize {
    king_bucket * INPUTS + feature(perspective, piece, square)
}

/// Which output layer evaluates a position: one for each four pieces on the board beyond the
/// kings (the last takes 30 to 32), so that the output weighs the hidden units by how much
/// material is left, as a tapered evaluation does by the game's phase.
///
/// ```
/// use engine::eval::nnue::{OUTPUT_BUCKETS, OutputBucket};
/// assert_eq!(OutputBucket::for_pieces(2).index(), 0);
/// assert_eq!(OutputBucket::for_pieces(6).index(), 1);
/// assert_eq!(OutputBucket::for_pieces(32).index(), OUTPUT_BUCKETS - 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutputBucket(usize);

impl OutputBucket {
    /// The bucket of a board of `pieces` pieces, kings included.
    #[inline(always)]
    pub fn for_pieces(pieces: usize) -> OutputBucket {
        OutputBucket((pieces.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1))
    }

    /// The bucket of `board`.
    #[inline(always)]
    pub fn of(board: &Board) -> OutputBucket {
        OutputBucket::for_pieces(board.occupied().count())
    }

    /// Its index, below [`OUTPUT_BUCKETS`].
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0
    }
}
