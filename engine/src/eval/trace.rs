//! The evaluation as a sparse list of feature coefficients, for the tuner.

use shakmaty::Chess;

use super::sink::CoefSink;
use super::{PHASE_MAX, extract, phase};
use crate::params::{self, Params, TOTAL_FEATURES};

/// One feature's coefficient in a position (White minus Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceTerm {
    pub feature: u16,
    pub coef: i16,
}

/// The evaluation of a position as coefficients of features.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalTrace {
    /// 0 (pawn ending) ..= [`PHASE_MAX`] (all pieces).
    pub phase: i32,
    /// Non-zero coefficients, at most one entry per feature, in feature order.
    pub terms: Vec<TraceTerm>,
}

impl EvalTrace {
    /// The evaluation (White's view, centipawns, unrounded) this trace gives with `params`:
    /// `Σ coef · (w_mg · phase + w_eg · (PHASE_MAX − phase)) / PHASE_MAX`, where a flat
    /// feature's single weight counts fully in every phase.
    pub fn value(&self, params: &Params) -> f64 {
        let phase = f64::from(self.phase);
        let max = f64::from(PHASE_MAX);
        self.terms
            .iter()
            .map(|t| {
                let (mg, eg) = params::feature_params(usize::from(t.feature));
                let w = if mg == eg {
                    f64::from(params.get(mg))
                } else {
                    (f64::from(params.get(mg)) * phase + f64::from(params.get(eg)) * (max - phase))
                        / max
                };
                f64::from(t.coef) * w
            })
            .sum()
    }
}

/// Writes the trace of `pos` into `out` (reusing its allocation).
pub fn trace(pos: &Chess, out: &mut EvalTrace) {
    let mut sink = CoefSink {
        coefs: [0; TOTAL_FEATURES],
    };
    extract(pos, &mut sink);
    out.phase = phase(pos);
    out.terms.clear();
    for (feature, &coef) in sink.coefs.iter().enumerate() {
        if coef != 0 {
            out.terms.push(TraceTerm {
                feature: feature as u16,
                // Coefficients are piece and square counts: far inside i16.
                coef: coef as i16,
            });
        }
    }
}
