//! The evaluation as a sparse list of feature coefficients, for the tuner.

use shakmaty::{Chess, Color, Position};

use super::scale::{ScaleClass, classify};
use super::sink::CoefSink;
use super::{PHASE_MAX, extract, phase, scales};
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
    /// The endgame scale class if White (`[1]`) or Black (`[0]`) is ahead in the endgame
    /// sum: the evaluation scales that sum by the factor of the class of the side it favours.
    pub scale: [ScaleClass; 2],
}

impl EvalTrace {
    /// The evaluation (White's view, centipawns, unrounded) this trace gives with `params`:
    /// `(mg · phase + eg · s · (PHASE_MAX − phase)) / PHASE_MAX` with `mg = Σ coef · w_mg`,
    /// `eg = Σ coef · w_eg` (a flat feature's single weight in both) and `s` the scale factor
    /// of the class of the side `eg` favours.
    pub fn value(&self, params: &Params) -> f64 {
        let phase = f64::from(self.phase);
        let max = f64::from(PHASE_MAX);
        let (mut mg_sum, mut eg_sum) = (0.0, 0.0);
        for t in &self.terms {
            let (mg, eg) = params::feature_params(usize::from(t.feature));
            mg_sum += f64::from(t.coef) * f64::from(params.get(mg));
            eg_sum += f64::from(t.coef) * f64::from(params.get(eg));
        }
        let strong = usize::from(eg_sum > 0.0);
        let percent = scales(params).0[self.scale[strong] as usize];
        (mg_sum * phase + eg_sum * f64::from(percent) / 100.0 * (max - phase)) / max
    }
}

/// Writes the trace of `pos` into `out` (reusing its allocation).
pub fn trace(pos: &Chess, out: &mut EvalTrace) {
    let mut sink = CoefSink {
        coefs: [0; TOTAL_FEATURES],
    };
    extract(pos, &mut sink);
    out.phase = phase(pos);
    out.scale = [Color::Black, Color::White].map(|strong| classify(pos.board(), strong));
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
