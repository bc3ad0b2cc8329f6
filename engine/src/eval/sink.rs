//! Where extracted features go: the one feature-extraction routine ([`super::extract`]) writes
//! `(feature, coefficient)` pairs into a [`Sink`]. The fast evaluation sums weights
//! ([`WeightSink`]); the trace records coefficients ([`super::trace`]). Being generic over the
//! sink, the extraction is monomorphised per sink, so the fast path has no indirection.

use shakmaty::{Bitboard, Board};

use super::PawnCache;
use crate::params::{FeatureId, TOTAL_FEATURES};

/// Receives the features of a position, one `(feature, coefficient)` at a time. The same
/// feature may arrive several times, and with coefficient 0 (the terms add unconditionally:
/// cheaper than a branch each); its coefficients add up.
pub trait Sink {
    /// Whether [`super::extract`] reports material and piece-square features to this sink
    /// (false for the search's sink, which keeps their sum up to date move by move).
    const PIECE_SQUARES: bool = true;

    /// Adds `coef` (White minus Black) to feature `feature`.
    fn add(&mut self, feature: FeatureId, coef: i32);

    /// Reports both sides' pawn-structure features ([`super::pawns::pawn_structure`]) and
    /// their king terms that read only the pawns and that side's king
    /// ([`super::pawns_and_king_terms`]), and returns the passed pawns (`[color]`); the
    /// search's sink adds their weighted sums from its pawn cache instead.
    #[inline(always)]
    fn pawns_and_kings(&mut self, board: &Board) -> [Bitboard; 2]
    where
        Self: Sized,
    {
        super::pawns_and_king_terms(board, self)
    }

    /// Reports both sides' imbalance features ([`super::imbalance::imbalance`]); the
    /// search's sink adds their weighted sum from its cache instead (they depend on the
    /// piece counts alone, which few moves change).
    #[inline(always)]
    fn imbalance(&mut self, board: &Board)
    where
        Self: Sized,
    {
        super::imbalance::imbalance(board, self)
    }
}

/// Per-feature `[mg, eg]` weights (flat features hold the same weight twice).
pub(crate) type Weights = [[i32; 2]; TOTAL_FEATURES];

/// Per-feature weights packed as [`Packed`] numbers, for [`WeightSink`].
pub(crate) type PackedWeights = [Packed; TOTAL_FEATURES];

/// A middlegame and an endgame sum in one integer, `mg · 2³² + eg`: adding a feature is one
/// multiply-add instead of two. Exact while each sum stays within ±2³¹ (evaluations are a few
/// thousand).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Packed(i64);

impl Packed {
    #[inline(always)]
    pub(crate) fn new(mg: i32, eg: i32) -> Packed {
        Packed((i64::from(mg) << 32) + i64::from(eg))
    }

    #[inline(always)]
    pub(crate) fn eg(self) -> i32 {
        self.0 as i32
    }

    #[inline(always)]
    pub(crate) fn mg(self) -> i32 {
        ((self.0 - i64::from(self.eg())) >> 32) as i32
    }

    /// `self + other`, both halves.
    #[inline(always)]
    pub(crate) fn plus(self, other: Packed) -> Packed {
        Packed(self.0 + other.0)
    }

    /// `-self`, both halves.
    #[inline(always)]
    pub(crate) fn negated(self) -> Packed {
        Packed(-self.0)
    }

    /// `self + coef · w`.
    #[inline(always)]
    fn add_scaled(self, w: Packed, coef: i32) -> Packed {
        Packed(self.0 + i64::from(coef) * w.0)
    }
}

/// The weights of `weights`, packed.
pub(crate) fn packed(weights: &Weights) -> Box<PackedWeights> {
    let mut out = Box::new([Packed::default(); TOTAL_FEATURES]);
    for (p, &[mg, eg]) in out.iter_mut().zip(weights.iter()) {
        *p = Packed::new(mg, eg);
    }
    out
}

/// Sums middlegame and endgame weights; the evaluator blends them by phase afterwards.
/// Without `PIECE_SQUARES` it starts from the material and piece-square sums kept by the
/// search instead of receiving those features.
pub(crate) struct WeightSink<'a, const PIECE_SQUARES: bool = true> {
    pub weights: &'a PackedWeights,
    /// The middlegame and endgame sums so far.
    pub sums: Packed,
    /// Where the pawn-structure and pawn-and-king sums are looked up, if anywhere (looked up
    /// during the extraction, so that a miss is computed with the fast copy too).
    pub pawns: Option<&'a mut PawnCache>,
}

impl<const PIECE_SQUARES: bool> Sink for WeightSink<'_, PIECE_SQUARES> {
    const PIECE_SQUARES: bool = PIECE_SQUARES;

    #[inline(always)]
    fn add(&mut self, feature: FeatureId, coef: i32) {
        self.sums = self.sums.add_scaled(self.weights[feature], coef);
    }

    #[inline(always)]
    fn pawns_and_kings(&mut self, board: &Board) -> [Bitboard; 2] {
        match self.pawns.as_deref_mut() {
            Some(cache) => {
                let entry = cache.entry(board, self.weights);
                self.sums = self.sums.plus(entry.sums);
                entry.passed
            }
            None => super::pawns_and_king_terms(board, self),
        }
    }

    #[inline(always)]
    fn imbalance(&mut self, board: &Board) {
        match self.pawns.as_deref_mut() {
            Some(cache) => self.sums = self.sums.plus(cache.imbalance(board, self.weights)),
            None => super::imbalance::imbalance(board, self),
        }
    }
}

/// What the pawns of one placement and the two kings' squares give.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PawnEntry {
    /// The weighted sums of both sides' pawn-structure and pawn-and-king terms.
    pub sums: Packed,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_sums_are_the_separate_sums() {
        let weights = [(3, -7), (-250, 40), (0, -1), (1200, 900), (-5, -5)];
        let coefs = [1, -1, 3, -2, 27, -27, 0, 5];
        let mut packed = Packed::default();
        let (mut mg, mut eg) = (0, 0);
        for (i, &coef) in coefs.iter().enumerate() {
            let (w_mg, w_eg) = weights[i % weights.len()];
            packed = packed.add_scaled(Packed::new(w_mg, w_eg), coef);
            mg += coef * w_mg;
            eg += coef * w_eg;
            assert_eq!((packed.mg(), packed.eg()), (mg, eg), "after {i}");
        }
        assert_eq!(Packed::new(-1, -1).mg(), -1);
        assert_eq!(Packed::new(i32::MIN / 2, i32::MAX / 2).eg(), i32::MAX / 2);
    }
}
