//! Where extracted features go: the one feature-extraction routine ([`super::extract`]) writes
//! `(feature, coefficient)` pairs into a [`Sink`]. The fast evaluation sums weights
//! ([`WeightSink`]); the trace records coefficients ([`super::trace`]). Being generic over the
//! sink, the extraction is monomorphised per sink, so the fast path has no indirection.

use shakmaty::{Bitboard, Board, Color};

use crate::params::{FeatureId, TOTAL_FEATURES};

/// Receives the features of a position, one `(feature, coefficient)` at a time. The same
/// feature may arrive several times; its coefficients add up.
pub trait Sink {
    /// Whether [`super::extract`] reports material and piece-square features to this sink
    /// (false for the search's sink, which keeps their sum up to date move by move).
    const PIECE_SQUARES: bool = true;

    /// Adds `coef` (White minus Black) to feature `feature`.
    fn add(&mut self, feature: FeatureId, coef: i32);

    /// Reports `color`'s pawn-structure features ([`super::pawns::pawn_structure`]) and
    /// returns its passed pawns; the search's sink adds their weighted sums from its pawn
    /// cache instead.
    #[inline(always)]
    fn pawn_structure(&mut self, board: &Board, color: Color) -> Bitboard
    where
        Self: Sized,
    {
        super::pawns::pawn_structure(board, color, self)
    }
}

/// Per-feature `[mg, eg]` weights (flat features hold the same weight twice).
pub(crate) type Weights = [[i32; 2]; TOTAL_FEATURES];

/// Sums middlegame and endgame weights; the evaluator blends them by phase afterwards.
/// Without `PIECE_SQUARES` it starts from the material and piece-square sums kept by the
/// search instead of receiving those features.
pub(crate) struct WeightSink<'a, const PIECE_SQUARES: bool = true> {
    pub weights: &'a Weights,
    pub mg: i32,
    pub eg: i32,
    /// The pawn structure's sums and passed pawns already known (from the pawn cache).
    pub pawns: Option<PawnEntry>,
}

impl<const PIECE_SQUARES: bool> Sink for WeightSink<'_, PIECE_SQUARES> {
    const PIECE_SQUARES: bool = PIECE_SQUARES;

    #[inline(always)]
    fn add(&mut self, feature: FeatureId, coef: i32) {
        let [mg, eg] = self.weights[feature];
        self.mg += coef * mg;
        self.eg += coef * eg;
    }

    #[inline(always)]
    fn pawn_structure(&mut self, board: &Board, color: Color) -> Bitboard {
        match self.pawns {
            Some(entry) => {
                let [mg, eg] = entry.sums[color as usize];
                self.mg += mg;
                self.eg += eg;
                entry.passed[color as usize]
            }
            None => super::pawns::pawn_structure(board, color, self),
        }
    }
}

/// What the pawn structure of one placement gives, per side.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PawnEntry {
    /// `[color][mg, eg]`: the weighted pawn-structure sums (White's view).
    pub sums: [[i32; 2]; 2],
    /// `[color]`: the passed pawns.
    pub passed: [Bitboard; 2],
}

/// Dense coefficients, one per feature (lives on the stack while a trace is taken).
pub(crate) struct CoefSink {
    pub coefs: [i32; TOTAL_FEATURES],
}

impl Sink for CoefSink {
    #[inline]
    fn add(&mut self, feature: FeatureId, coef: i32) {
        self.coefs[feature] += coef;
    }
}
