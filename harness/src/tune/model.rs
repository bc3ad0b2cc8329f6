//! The Texel loss: mean squared error between each position's result and
//! `sigmoid(K · eval / 400)`, with its analytic gradient, computed in parallel over a
//! [`TraceSet`].
//!
//! `eval = (mg · phase + eg · s · (24 − phase)) / 24` with `mg = Σ coef · w_mg` and
//! `eg = Σ coef · w_eg` (a flat feature has one weight, counted in both), and `s` the endgame
//! scale factor of the position's class for the side `eg` favours (held fixed: not tuned).
//! This is [`EvalTrace::value`]'s formula, with real-valued weights.
//!
//! [`EvalTrace::value`]: engine::eval::EvalTrace::value

use std::sync::Arc;

use engine::eval::{PHASE_MAX, SCALE_CLASSES, Scales};
use engine::params::{self, EVAL_PARAMS, ParamId, Params, TOTAL_FEATURES, specs};
use rayon::prelude::*;

use super::traces::{PositionTrace, TraceSet};

/// Centipawns per unit of the sigmoid's argument (before K).
pub const CP_SCALE: f64 = 400.0;

/// Positions handled by one rayon task.
const CHUNK: usize = 4096;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Real-valued weights per feature as `[mg, eg]` (a flat feature holds its one weight
/// twice), and the fixed endgame scale factors by class.
#[derive(Clone, Debug)]
pub struct FeatureWeights {
    weights: Vec<[f64; 2]>,
    scales: [f64; SCALE_CLASSES],
}

impl FeatureWeights {
    /// From evaluation parameter values indexed by [`ParamId`], with the default parameters'
    /// endgame scale factors.
    pub fn from_values(values: &[f64]) -> Self {
        FeatureWeights {
            weights: (0..TOTAL_FEATURES)
                .map(|f| {
                    let (mg, eg) = params::feature_params(f);
                    [values[mg], values[eg]]
                })
                .collect(),
            scales: [1.0; SCALE_CLASSES],
        }
        .with_scales(engine::eval::scales(&Params::default()))
    }

    /// The same weights with these endgame scale factors.
    pub fn with_scales(mut self, scales: Scales) -> Self {
        self.scales = scales.0.map(|percent| f64::from(percent) / 100.0);
        self
    }

    /// From a parameter set.
    pub fn from_params(p: &Params) -> Self {
        let values: Vec<f64> = p.values()[..EVAL_PARAMS]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        Self::from_values(&values).with_scales(engine::eval::scales(p))
    }

    /// The factor applied to the endgame sum `eg` of position `p`.
    #[inline]
    fn scale(&self, p: &PositionTrace<'_>, eg: f64) -> f64 {
        self.scales[usize::from(p.scale[usize::from(eg > 0.0)]).min(SCALE_CLASSES - 1)]
    }

    /// The middlegame and the scaled endgame sums of one traced position.
    #[inline]
    fn sums(&self, p: &PositionTrace<'_>) -> (f64, f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for t in p.terms {
            let [wm, we] = self.weights[usize::from(t.feature)];
            let c = f64::from(t.coef);
            mg += c * wm;
            eg += c * we;
        }
        let scale = self.scale(p, eg);
        (mg, eg * scale, scale)
    }

    /// The evaluation (White's view, centipawns) of one traced position.
    #[inline]
    pub fn evaluate(&self, p: &PositionTrace<'_>) -> f64 {
        let (mg, eg, _) = self.sums(p);
        let phase = f64::from(p.phase) / f64::from(PHASE_MAX);
        mg * phase + eg * (1.0 - phase)
    }
}

/// Every position's evaluation, in order.
pub fn evaluations(set: &TraceSet, weights: &FeatureWeights) -> Vec<f64> {
    (0..set.len())
        .into_par_iter()
        .with_min_len(CHUNK)
        .map(|i| weights.evaluate(&set.position(i)))
        .collect()
}

/// Mean squared error of `set` under `weights` and scaling `k`.
pub fn mse(set: &TraceSet, weights: &FeatureWeights, k: f64) -> f64 {
    if set.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = chunks(set.len())
        .map(|range| {
            range
                .map(|i| {
                    let p = set.position(i);
                    let err = sigmoid(k * weights.evaluate(&p) / CP_SCALE) - f64::from(p.result);
                    err * err
                })
                .sum::<f64>()
        })
        .sum();
    sum / set.len() as f64
}

/// Mean squared error, and its gradient by evaluation parameter written into `gradient`
/// (indexed by [`ParamId`], length at least [`EVAL_PARAMS`]; overwritten).
pub fn mse_and_gradient(
    set: &TraceSet,
    weights: &FeatureWeights,
    k: f64,
    gradient: &mut [f64],
) -> f64 {
    gradient.iter_mut().for_each(|g| *g = 0.0);
    if set.is_empty() {
        return f64::NAN;
    }
    let slope = k / CP_SCALE;
    let (sum, by_feature) = chunks(set.len())
        .fold(
            || (0.0, vec![[0.0f64; 2]; TOTAL_FEATURES]),
            |(mut sum, mut acc), range| {
                for i in range {
                    let p = set.position(i);
                    let (mg, eg, scale) = weights.sums(&p);
                    let phase = f64::from(p.phase) / f64::from(PHASE_MAX);
                    let s = sigmoid(slope * (mg * phase + eg * (1.0 - phase)));
                    let err = s - f64::from(p.result);
                    sum += err * err;
                    // d(err²)/d(eval), split by the phase blend of the weights (the endgame
                    // side through its scale factor, which the weights move only at eg = 0).
                    let d = 2.0 * err * s * (1.0 - s) * slope;
                    let (dm, de) = (d * phase, d * (1.0 - phase) * scale);
                    for t in p.terms {
                        let c = f64::from(t.coef);
                        let g = &mut acc[usize::from(t.feature)];
                        g[0] += dm * c;
                        g[1] += de * c;
                    }
                }
                (sum, acc)
            },
        )
        .reduce(
            || (0.0, vec![[0.0f64; 2]; TOTAL_FEATURES]),
            |(sa, mut a), (sb, b)| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                (sa + sb, a)
            },
        );
    let n = set.len() as f64;
    for (f, [gm, ge]) in by_feature.into_iter().enumerate() {
        let (mg, eg) = params::feature_params(f);
        gradient[mg] += gm / n;
        gradient[eg] += ge / n;
    }
    sum / n
}

/// How much each evaluation parameter (indexed by [`ParamId`]) takes part in `set`'s
/// evaluations: the sum over positions of `|coef|` times the parameter's phase share. A
/// parameter at zero never changes the loss, so the data says nothing about it.
pub fn parameter_usage(set: &TraceSet) -> Vec<f64> {
    let mut usage = vec![0.0; EVAL_PARAMS];
    for i in 0..set.len() {
        let p = set.position(i);
        let phase = f64::from(p.phase) / f64::from(PHASE_MAX);
        for t in p.terms {
            let (mg, eg) = params::feature_params(usize::from(t.feature));
            let c = f64::from(t.coef).abs();
            usage[mg] += c * phase;
            usage[eg] += c * (1.0 - phase);
        }
    }
    usage
}

fn chunks(n: usize) -> impl ParallelIterator<Item = std::ops::Range<usize>> {
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
}

/// The loss as a function of the tuned parameters only; the others stay at their base values.
#[derive(Clone, Debug)]
pub struct Objective {
    set: Arc<TraceSet>,
    k: f64,
    base: Vec<f64>,
    /// The base parameters' endgame scale factors (not tuned here).
    scales: Scales,
    tuned: Vec<ParamId>,
    /// Weight of the L2 penalty on the tuned parameters' distance from their start, per
    /// position (see [`Objective::with_l2`]).
    l2: f64,
    /// Weight of the penalty on differences between neighbouring squares of a piece-square
    /// table, per position (see [`Objective::with_smoothness`]).
    smoothness: f64,
    /// Pairs of indices into the tuned parameters: the same table and phase, neighbouring
    /// squares.
    neighbours: Vec<(usize, usize)>,
}

/// Pairs of positions in `tuned` that hold the same piece-square table and phase on squares
/// next to each other along a rank or a file.
pub fn pst_neighbours(tuned: &[ParamId]) -> Vec<(usize, usize)> {
    use engine::params::feature::{MOBILITY_KNIGHT, PST};
    let index: std::collections::HashMap<ParamId, usize> =
        tuned.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let mut pairs = Vec::new();
    for (i, &id) in tuned.iter().enumerate() {
        let feature = id / 2;
        if !(PST..MOBILITY_KNIGHT).contains(&feature) || id >= 2 * params::TAPERED_FEATURES {
            continue;
        }
        let square = (feature - PST) % 64;
        // The neighbour to the east (same rank) and to the north (same file), each pair once.
        let east = (square % 8 < 7).then(|| id + 2);
        let north = (square / 8 < 7).then(|| id + 2 * 8);
        for other in [east, north].into_iter().flatten() {
            if let Some(&j) = index.get(&other) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

impl Objective {
    /// `tuned` must hold evaluation parameter ids.
    pub fn new(set: Arc<TraceSet>, k: f64, base: &Params, tuned: Vec<ParamId>) -> Self {
        debug_assert!(tuned.iter().all(|&id| id < EVAL_PARAMS));
        Objective {
            set,
            k,
            base: base.values()[..EVAL_PARAMS]
                .iter()
                .map(|&v| f64::from(v))
                .collect(),
            scales: engine::eval::scales(base),
            tuned,
            l2: 0.0,
            smoothness: 0.0,
            neighbours: Vec::new(),
        }
    }

    /// A smoothness prior on the piece-square tables: the loss gains
    /// `smoothness · Σ (x_a − x_b)² / positions` over neighbouring squares of one table and
    /// phase. Neighbouring squares seldom differ much in value, so a rarely seen square borrows
    /// strength from its neighbours instead of fitting its few positions' noise.
    pub fn with_smoothness(mut self, smoothness: f64) -> Self {
        self.smoothness = smoothness;
        self.neighbours = if smoothness > 0.0 {
            pst_neighbours(&self.tuned)
        } else {
            Vec::new()
        };
        self
    }

    /// Ridge regularisation towards the start: the loss becomes
    /// `(Σ err² + l2 · Σ (x − start)²) / positions`. Read as a Gaussian prior, `l2` is the
    /// result noise variance over the prior variance of a weight (cp²), so its effect fades as
    /// the data grows, as it should.
    pub fn with_l2(mut self, l2: f64) -> Self {
        self.l2 = l2;
        self
    }

    pub fn k(&self) -> f64 {
        self.k
    }

    pub fn tuned(&self) -> &[ParamId] {
        &self.tuned
    }

    pub fn set(&self) -> &TraceSet {
        &self.set
    }

    /// The tuned parameters' base values: the starting point.
    pub fn start(&self) -> Vec<f64> {
        self.tuned.iter().map(|&id| self.base[id]).collect()
    }

    /// The weights with the tuned parameters at `x`.
    pub fn weights(&self, x: &[f64]) -> FeatureWeights {
        let mut values = self.base.clone();
        for (&id, &v) in self.tuned.iter().zip(x) {
            values[id] = v;
        }
        FeatureWeights::from_values(&values).with_scales(self.scales)
    }

    pub fn mse(&self, x: &[f64]) -> f64 {
        mse(&self.set, &self.weights(x), self.k)
    }

    /// The loss (mean squared error plus the L2 penalty, if any) and its gradient with
    /// respect to the tuned parameters.
    pub fn loss_and_gradient(&self, x: &[f64]) -> (f64, Vec<f64>) {
        let mut full = vec![0.0; EVAL_PARAMS];
        let mut loss = mse_and_gradient(&self.set, &self.weights(x), self.k, &mut full);
        let mut gradient: Vec<f64> = self.tuned.iter().map(|&id| full[id]).collect();
        if self.l2 > 0.0 && !self.set.is_empty() {
            let l2 = self.l2 / self.set.len() as f64;
            for ((g, &v), &id) in gradient.iter_mut().zip(x).zip(&self.tuned) {
                let d = v - self.base[id];
                loss += l2 * d * d;
                *g += 2.0 * l2 * d;
            }
        }
        if self.smoothness > 0.0 && !self.set.is_empty() {
            let s = self.smoothness / self.set.len() as f64;
            for &(a, b) in &self.neighbours {
                let d = x[a] - x[b];
                loss += s * d * d;
                gradient[a] += 2.0 * s * d;
                gradient[b] -= 2.0 * s * d;
            }
        }
        (loss, gradient)
    }

    /// `base` with the tuned parameters set to `x`, rounded and clamped into their ranges.
    pub fn to_params(&self, base: &Params, x: &[f64]) -> Params {
        let mut p = base.clone();
        for (&id, &v) in self.tuned.iter().zip(x) {
            let spec = &specs()[id];
            let v = if v.is_finite() { v.round() } else { 0.0 };
            p.set_unchecked(id, v.clamp(f64::from(spec.min), f64::from(spec.max)) as i32);
        }
        p
    }
}
