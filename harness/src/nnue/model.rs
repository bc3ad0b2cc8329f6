//! The float network the trainer fits, as the engine's `FloatNetwork` holds it: the forward
//! pass, the loss and its gradient for one position, and the Adam optimiser.
//!
//! For perspective `p` in `[side to move, other side]` (half 0 and 1) the hidden layer is
//! `h_p = feature_bias + Σ_pieces feature_weights[input_row(k_p, p, piece, square)]`, `k_p` the
//! king bucket of `p`'s king (0 without king buckets); the output is
//! `out = output_bias[b] + Σ_half Σ_i screlu(h_half[i]) · output_weights[b][half · HIDDEN + i]`
//! with `screlu(x) = clamp(x, 0, 1)²` and `b` the position's output bucket (by its number of
//! pieces, [`OutputBucket`]), and `out · SCALE` centipawns for the side to move.
//!
//! The loss of a position is `(sigmoid((out · SCALE + base) / 400) − t)²` with the target
//! `t = λ · result + (1 − λ) · sigmoid(score / 400)`, all from the side to move's view;
//! `base` is the hand-written evaluation for a residual network, else 0. With a limit (a
//! residual network's, as the search's `nnue_residual_limit`), `out · SCALE` is kept within
//! ±limit before `base` is added, exactly as the search does, and a position whose output
//! lies beyond it teaches nothing (its gradient is 0).

use engine::eval::nnue::{
    FloatNetwork, HIDDEN, INPUTS, OutputBucket, SCALE, WEIGHT_CLIP, input_row, king_bucket,
};
use rand::{Rng, RngExt};
use shakmaty::{Color, Role};

use super::data::PackedPosition;

/// Centipawns of one unit in the logistic that maps scores to expected results.
pub const SIGMOID_CP: f32 = 400.0;

/// The network's output in logistic units: `out · SCALE / SIGMOID_CP`.
const OUTPUT_TO_LOGIT: f32 = SCALE as f32 / SIGMOID_CP;

/// What the network is fitted to: the target's blend and the limit of its output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// Weight λ of the game result in the target (1 − λ on the score).
    pub wdl: f32,
    /// The network's output kept within ±this many centipawns (`f32::INFINITY` = unlimited).
    pub limit_cp: f32,
}

impl Objective {
    /// The target blend `wdl`, the output unlimited.
    pub const fn unlimited(wdl: f32) -> Objective {
        Objective {
            wdl,
            limit_cp: f32::INFINITY,
        }
    }

    /// The output's limit in the network's raw units (`out`).
    #[inline]
    fn limit_out(&self) -> f32 {
        self.limit_cp / SCALE as f32
    }
}

/// The prediction's logit: the network's output `out` plus the position's base evaluation.
#[inline]
fn logit(out: f32, position: &PackedPosition) -> f32 {
    out * OUTPUT_TO_LOGIT + position.base_stm() / SIGMOID_CP
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of `position` (side to move's view), `wdl` the weight of the result.
#[inline]
pub fn target(position: &PackedPosition, wdl: f32) -> f32 {
    wdl * position.result_stm() + (1.0 - wdl) * sigmoid(position.score_stm() / SIGMOID_CP)
}

/// The inputs a position sets: for each piece, its feature for the side to move (half 0)
/// and for the other side (half 1).
pub struct Features {
    rows: [[u16; 32]; 2],
    len: usize,
}

/// The start of `bucket`'s `2 · HIDDEN` output weights in [`FloatNetwork::output_weights`].
#[inline(always)]
fn bucket_start(bucket: OutputBucket) -> usize {
    bucket.index() * 2 * HIDDEN
}

impl Features {
    /// The rows `position` sets in a network with king buckets (`king_bucketed`) or without.
    #[inline]
    pub fn of(position: &PackedPosition, king_bucketed: bool) -> Features {
        let stm = position.turn();
        let bucket = |perspective: Color| {
            position
                .pieces()
                .find(|(_, piece)| piece.role == Role::King && piece.color == perspective)
                .map_or(0, |(square, _)| {
                    king_bucket(king_bucketed, perspective, square)
                })
        };
        let buckets = if king_bucketed {
            [bucket(stm), bucket(!stm)]
        } else {
            [0, 0]
        };
        let mut rows = [[0u16; 32]; 2];
        let mut len = 0;
        for (square, piece) in position.pieces() {
            rows[0][len] = input_row(buckets[0], stm, piece, square) as u16;
            rows[1][len] = input_row(buckets[1], !stm, piece, square) as u16;
            len += 1;
        }
        Features { rows, len }
    }

    #[inline]
    fn half(&self, half: usize) -> &[u16] {
        &self.rows[half][..self.len]
    }

    /// The output bucket of the position (one feature a piece).
    #[inline]
    fn bucket(&self) -> OutputBucket {
        OutputBucket::for_pieces(self.len)
    }
}

/// The row of `HIDDEN` weights of input `f`.
#[inline(always)]
fn row(weights: &[f32], f: u16) -> &[f32; HIDDEN] {
    let start = usize::from(f) * HIDDEN;
    weights[start..start + HIDDEN].try_into().expect("a row")
}

#[inline(always)]
fn row_mut(weights: &mut [f32], f: u16) -> &mut [f32; HIDDEN] {
    let start = usize::from(f) * HIDDEN;
    (&mut weights[start..start + HIDDEN])
        .try_into()
        .expect("a row")
}

/// The output weights of `half` in `bucket`.
#[inline(always)]
fn half_weights(weights: &[f32], bucket: OutputBucket, half: usize) -> &[f32; HIDDEN] {
    let start = bucket_start(bucket) + half * HIDDEN;
    weights[start..start + HIDDEN].try_into().expect("a half")
}

/// The hidden layer's inputs for both halves (before the activation).
#[inline]
fn hidden(net: &FloatNetwork, features: &Features) -> [[f32; HIDDEN]; 2] {
    let bias: &[f32; HIDDEN] = net
        .feature_bias
        .as_slice()
        .try_into()
        .expect("HIDDEN biases");
    let mut h = [*bias; 2];
    for (half, acc) in h.iter_mut().enumerate() {
        for &f in features.half(half) {
            let w = row(&net.feature_weights, f);
            for i in 0..HIDDEN {
                acc[i] += w[i];
            }
        }
    }
    h
}

/// The raw output `out` from the hidden layer's inputs, by the output layer of `bucket`.
#[inline]
fn output(net: &FloatNetwork, h: &[[f32; HIDDEN]; 2], bucket: OutputBucket) -> f32 {
    let mut out = 0.0f32;
    for (half, acc) in h.iter().enumerate() {
        let v = half_weights(&net.output_weights, bucket, half);
        let mut sum = 0.0f32;
        for i in 0..HIDDEN {
            let a = acc[i].clamp(0.0, 1.0);
            sum += a * a * v[i];
        }
        out += sum;
    }
    out + net.output_bias[bucket.index()]
}

/// The float network's evaluation in centipawns from the side to move's view.
pub fn eval_cp(net: &FloatNetwork, position: &PackedPosition) -> f32 {
    let features = Features::of(position, net.king_bucketed);
    output(net, &hidden(net, &features), features.bucket()) * SCALE as f32
}

/// The loss of one position.
pub fn loss(net: &FloatNetwork, position: &PackedPosition, objective: &Objective) -> f32 {
    let limit = objective.limit_out();
    let features = Features::of(position, net.king_bucketed);
    let out = output(net, &hidden(net, &features), features.bucket()).clamp(-limit, limit);
    let p = sigmoid(logit(out, position));
    let e = p - target(position, objective.wdl);
    e * e
}

/// Adds the gradient of one position's loss to `grad` (same shape as the network); returns
/// the loss. Only the feature rows of the pieces on the board are touched.
#[inline]
pub fn accumulate(
    net: &FloatNetwork,
    position: &PackedPosition,
    objective: &Objective,
    grad: &mut FloatNetwork,
) -> f32 {
    let features = Features::of(position, net.king_bucketed);
    let bucket = features.bucket();
    let h = hidden(net, &features);
    let out = output(net, &h, bucket);
    let limit = objective.limit_out();
    let p = sigmoid(logit(out.clamp(-limit, limit), position));
    let e = p - target(position, objective.wdl);
    if out.abs() > limit {
        // The limit holds the output where it is: no parameter moves the loss.
        return e * e;
    }
    // d(e²)/d out.
    let g = 2.0 * e * p * (1.0 - p) * OUTPUT_TO_LOGIT;
    grad.output_bias[bucket.index()] += g;
    let mut dh = [[0.0f32; HIDDEN]; 2];
    for half in 0..2 {
        let v = half_weights(&net.output_weights, bucket, half);
        let start = bucket_start(bucket) + half * HIDDEN;
        let gv: &mut [f32; HIDDEN] = (&mut grad.output_weights[start..start + HIDDEN])
            .try_into()
            .expect("a half");
        let (acc, d) = (&h[half], &mut dh[half]);
        for i in 0..HIDDEN {
            let a = acc[i].clamp(0.0, 1.0);
            gv[i] += g * a * a;
            // screlu'(x) = 2x inside (0, 1), else 0; 2·a is that (a = x there, and 0 below),
            // but a = 1 above the range, so mask it.
            let slope = if acc[i] < 1.0 { 2.0 * a } else { 0.0 };
            d[i] = g * v[i] * slope;
        }
    }
    for ((b, us), them) in grad.feature_bias.iter_mut().zip(&dh[0]).zip(&dh[1]) {
        *b += us + them;
    }
    for (half, d) in dh.iter().enumerate() {
        for &f in features.half(half) {
            let w = row_mut(&mut grad.feature_weights, f);
            for i in 0..HIDDEN {
                w[i] += d[i];
            }
        }
    }
    e * e
}

/// A freshly initialised network.
///
/// A position sets about 30 of the 768 inputs of a half, so feature weights uniform in
/// `±1/√32` (standard deviation `1/√96`) give hidden inputs with a standard deviation near
/// `√(30/96) ≈ 0.56`: of the order of the activation's active range `(0, 1)`, about half the
/// units active and not saturated on any one position. Output weights uniform in `±1/√HIDDEN`
/// keep the first outputs within a few hundred centipawns. Biases start at 0.
pub fn init(rng: &mut impl Rng) -> FloatNetwork {
    let mut net = FloatNetwork::zeros();
    let feature_range = 1.0 / 32f32.sqrt();
    let output_range = 1.0 / (HIDDEN as f32).sqrt();
    // One set of inputs (no king buckets; `FloatNetwork::with_king_buckets` copies it).
    for w in &mut net.feature_weights[..INPUTS * HIDDEN] {
        *w = rng.random_range(-feature_range..feature_range);
    }
    for w in &mut net.output_weights {
        *w = rng.random_range(-output_range..output_range);
    }
    net
}

/// `random` (from [`init`]) as a residual network that starts near zero: output weights a
/// tenth as large, so that its first corrections are a few tens of centipawns rather than
/// hundreds on top of an evaluation already fitted.
pub fn residual_start(mut random: FloatNetwork) -> FloatNetwork {
    for w in &mut random.output_weights {
        *w *= 0.1;
    }
    random.residual = true;
    random
}

/// Gives the hidden units of `net` from `width` on (the units that a narrower network's file
/// of `width` units leaves empty, see [`engine::eval::nnue::network`]) the feature weights of
/// `random` (from [`init`]). Their output weights stay zero, so the network's output does not
/// change, but the units are now active and their output weights have a gradient: a trained
/// network widens without losing what it knows. Returns how many units it gave weights.
pub fn widen(net: &mut FloatNetwork, width: usize, random: &FloatNetwork) -> usize {
    let width = width.min(HIDDEN);
    // Every king bucket's rows from the one set of `random`.
    for (row, random_row) in net.feature_weights.chunks_exact_mut(HIDDEN).zip(
        random.feature_weights[..INPUTS * HIDDEN]
            .chunks_exact(HIDDEN)
            .cycle(),
    ) {
        row[width..].copy_from_slice(&random_row[width..]);
    }
    HIDDEN - width
}

/// Adam with bias correction (β1 0.9, β2 0.999).
pub struct Adam {
    m: FloatNetwork,
    v: FloatNetwork,
    steps: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The parameter groups of a network (and of a gradient of the same shape), in one order.
pub fn groups(net: &mut FloatNetwork) -> [&mut [f32]; 4] {
    let in_use = net.feature_weights_in_use();
    [
        &mut net.feature_weights[..in_use],
        &mut net.feature_bias,
        &mut net.output_weights,
        &mut net.output_bias,
    ]
}

/// [`groups`], to read.
pub fn groups_ref(net: &FloatNetwork) -> [&[f32]; 4] {
    [
        &net.feature_weights[..net.feature_weights_in_use()],
        &net.feature_bias,
        &net.output_weights,
        &net.output_bias,
    ]
}

impl Adam {
    /// Adam's state for a network of `net`'s shape.
    pub fn for_network(net: &FloatNetwork) -> Self {
        Adam {
            m: net.zeros_like(),
            v: net.zeros_like(),
            steps: 0,
        }
    }

    /// One step of size `lr` along `grad · grad_scale` (the gradient of the mean loss), then
    /// every parameter clipped to `±WEIGHT_CLIP` so that the network quantises exactly.
    pub fn step(&mut self, net: &mut FloatNetwork, grad: &FloatNetwork, grad_scale: f32, lr: f32) {
        use rayon::prelude::*;
        self.steps += 1;
        let c1 = 1.0 - BETA1.powi(self.steps);
        let c2 = 1.0 - BETA2.powi(self.steps);
        let step = lr * c2.sqrt() / c1;
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * grad_scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w = (*w - step * *m / (v.sqrt() + EPSILON * c2.sqrt()))
                .clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        };
        let [w0, w1, w2, w3] = groups(net);
        let [g0, g1, g2, g3] = groups_ref(grad);
        let [m0, m1, m2, m3] = groups(&mut self.m);
        let [v0, v1, v2, v3] = groups(&mut self.v);
        for (w, g, m, v) in [
            (w0, g0, m0, v0),
            (w1, g1, m1, v1),
            (w2, g2, m2, v2),
            (w3, g3, m3, v3),
        ] {
            const BLOCK: usize = 8192;
            w.par_chunks_mut(BLOCK)
                .zip(g.par_chunks(BLOCK))
                .zip(m.par_chunks_mut(BLOCK))
                .zip(v.par_chunks_mut(BLOCK))
                .for_each(|(((w, g), m), v)| {
                    for (((w, g), m), v) in w
                        .iter_mut()
                        .zip(g.iter())
                        .zip(m.iter_mut())
                        .zip(v.iter_mut())
                    {
                        update(w, *g, m, v);
                    }
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::nnue::data::parse_line;
    use engine::eval::nnue::{OUTPUT_BUCKETS, feature};

    const LINES: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1; 45; 1.0",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1; -120; 0.5",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1; 10; 0.0",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1; -300; 0.0",
    ];

    fn positions() -> Vec<PackedPosition> {
        LINES
            .iter()
            .map(|l| {
                parse_line(l, crate::nnue::data::ScoreRule::cutoff(3000), None)
                    .unwrap()
                    .unwrap()
            })
            .collect()
    }

    fn parameter<'a>(net: &'a mut FloatNetwork, group: &str, index: usize) -> &'a mut f32 {
        match group {
            "output_bias" => &mut net.output_bias[index],
            "output_weights" => &mut net.output_weights[index],
            "feature_bias" => &mut net.feature_bias[index],
            _ => &mut net.feature_weights[index],
        }
    }

    /// The mean loss over `positions`, written out independently of the trainer's code and
    /// in f64, with `delta` added to one parameter (`group[index]`) and the output (in
    /// centipawns) kept within ±`limit_cp`.
    fn mean_loss_f64(
        net: &FloatNetwork,
        positions: &[PackedPosition],
        (wdl, limit_cp): (f64, f64),
        (group, index, delta): (&str, usize, f64),
    ) -> f64 {
        let widen = |name: &str, weights: &[f32]| -> Vec<f64> {
            let mut w: Vec<f64> = weights.iter().map(|&x| f64::from(x)).collect();
            if name == group {
                w[index] += delta;
            }
            w
        };
        let feature_weights = widen("feature_weights", &net.feature_weights);
        let feature_bias = widen("feature_bias", &net.feature_bias);
        let output_weights = widen("output_weights", &net.output_weights);
        let output_bias = widen("output_bias", &net.output_bias);
        let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
        let mut total = 0.0;
        for p in positions {
            let cp = raw_cp_f64(
                p,
                net.king_bucketed,
                (
                    &feature_weights,
                    &feature_bias,
                    &output_weights,
                    &output_bias,
                ),
            )
            .clamp(-limit_cp, limit_cp);
            let prediction = sigmoid((cp + f64::from(p.base_stm())) / 400.0);
            let target = wdl * f64::from(p.result_stm())
                + (1.0 - wdl) * sigmoid(f64::from(p.score_stm()) / 400.0);
            total += (prediction - target).powi(2);
        }
        total / positions.len() as f64
    }

    /// The first input row `perspective` reads: its king bucket's (0 without king buckets),
    /// the bucket written out apart from the engine's layout.
    fn first_row(p: &PackedPosition, perspective: Color, king_bucketed: bool) -> usize {
        let (king, _) = p
            .pieces()
            .find(|(_, piece)| piece.role == Role::King && piece.color == perspective)
            .expect("a king");
        let relative = if perspective == Color::White {
            king
        } else {
            king.flip_vertical()
        };
        let bucket = match (
            king_bucketed,
            relative.rank() as u32,
            relative.file() as u32,
        ) {
            (false, ..) => 0,
            (true, 0 | 1, 0..=2) => 0,
            (true, 0 | 1, 3 | 4) => 1,
            (true, 0 | 1, _) => 2,
            (true, ..) => 3,
        };
        bucket * INPUTS
    }

    /// The network's output in centipawns, summed over the board in f64.
    fn raw_cp_f64(
        p: &PackedPosition,
        king_bucketed: bool,
        (feature_weights, feature_bias, output_weights, output_bias): (
            &[f64],
            &[f64],
            &[f64],
            &[f64],
        ),
    ) -> f64 {
        let stm = p.turn();
        let bucket = OutputBucket::for_pieces(p.pieces().count()).index();
        let output_weights = &output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let mut out = output_bias[bucket];
        for (half, perspective) in [stm, !stm].into_iter().enumerate() {
            let first = first_row(p, perspective, king_bucketed);
            let mut h = feature_bias.to_vec();
            for (square, piece) in p.pieces() {
                let r = (first + feature(perspective, piece, square)) * HIDDEN;
                for (h, w) in h.iter_mut().zip(&feature_weights[r..r + HIDDEN]) {
                    *h += w;
                }
            }
            for (h, v) in h.iter().zip(&output_weights[half * HIDDEN..]) {
                out += h.clamp(0.0, 1.0).powi(2) * v;
            }
        }
        out * f64::from(SCALE)
    }

    /// A network with gradients well above rounding everywhere, and positions with base
    /// evaluations, as a residual network's carry.
    fn gradient_fixture() -> (FloatNetwork, Vec<PackedPosition>) {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut net = init(&mut rng);
        for b in &mut net.feature_bias {
            *b = rng.random_range(0.0..0.3);
        }
        // Larger output weights so the feature weights' gradients are well above rounding.
        for v in &mut net.output_weights {
            *v *= 8.0;
        }
        net.output_bias.fill(0.1);
        let positions: Vec<PackedPosition> = positions()
            .into_iter()
            .enumerate()
            .map(|(i, p)| p.with_base(150 * i as i32 - 200))
            .collect();
        (net, positions)
    }

    /// Compares `accumulate`'s gradient under `objective` with finite differences of
    /// [`mean_loss_f64`]; returns how many checked weights had a non-trivial gradient.
    fn compare_with_finite_differences(
        net: &FloatNetwork,
        positions: &[PackedPosition],
        objective: Objective,
    ) -> usize {
        let mut grad = net.zeros_like();
        for p in positions {
            accumulate(net, p, &objective, &mut grad);
        }
        let n = positions.len() as f32;
        // Weights to check: every group, including feature rows the positions set.
        let features = Features::of(&positions[0], net.king_bucketed);
        // The output layers of the first and last positions' buckets, and one of a bucket
        // no position has (its gradient 0).
        let buckets = [&positions[0], &positions[positions.len() - 1]]
            .map(|p| OutputBucket::for_pieces(p.pieces().count()).index());
        let unused = (0..OUTPUT_BUCKETS)
            .find(|b| {
                positions
                    .iter()
                    .all(|p| OutputBucket::for_pieces(p.pieces().count()).index() != *b)
            })
            .expect("fewer positions than buckets");
        let mut checks: Vec<(&str, usize)> = vec![];
        for bucket in [buckets[0], buckets[1], unused] {
            checks.push(("output_bias", bucket));
            for i in [0, 5, 77, 130, 255] {
                checks.push(("output_weights", bucket * 2 * HIDDEN + i));
            }
        }
        for i in [1, 17, 64, 127] {
            checks.push(("feature_bias", i));
        }
        for (k, half) in [(0usize, 0usize), (3, 0), (1, 1), (7, 1)] {
            let f = usize::from(features.half(half)[k]);
            for i in [2, 40, 99] {
                checks.push(("feature_weights", f * HIDDEN + i));
            }
        }
        let eps = 1e-5f64;
        let objective_f64 = (f64::from(objective.wdl), f64::from(objective.limit_cp));
        let mut compared = 0;
        for (group, index) in checks {
            let analytic = f64::from(*parameter(&mut grad, group, index) / n);
            let numeric = (mean_loss_f64(net, positions, objective_f64, (group, index, eps))
                - mean_loss_f64(net, positions, objective_f64, (group, index, -eps)))
                / (2.0 * eps);
            // The analytic gradient is summed in f32.
            let tolerance = 1e-4 * analytic.abs().max(numeric.abs()) + 1e-8;
            assert!(
                (analytic - numeric).abs() <= tolerance,
                "{group}[{index}]: analytic {analytic:e}, finite differences {numeric:e}"
            );
            if analytic.abs() > 1e-5 {
                compared += 1;
            }
        }
        compared
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let (net, positions) = gradient_fixture();
        let compared = compare_with_finite_differences(&net, &positions, Objective::unlimited(0.3));
        // Most checked weights have a gradient well above the tolerance's floor.
        assert!(compared >= 15, "only {compared} non-trivial gradients");
    }

    #[test]
    fn with_king_buckets_the_gradient_matches_finite_differences() {
        let (net, positions) = gradient_fixture();
        let mut net = net.with_king_buckets();
        // Each bucket's inputs apart from the others'.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for w in &mut net.feature_weights[INPUTS * HIDDEN..] {
            *w += rng.random_range(-0.05..0.05);
        }
        let buckets: std::collections::HashSet<u16> = positions
            .iter()
            .flat_map(|p| {
                let features = Features::of(p, true);
                [features.half(0)[0], features.half(1)[0]]
            })
            .map(|row| row / INPUTS as u16)
            .collect();
        assert!(buckets.len() >= 2, "the positions' kings in one bucket");
        let compared = compare_with_finite_differences(&net, &positions, Objective::unlimited(0.3));
        assert!(compared >= 15, "only {compared} non-trivial gradients");
    }

    #[test]
    fn the_gradient_under_a_limit_matches_finite_differences() {
        let (net, positions) = gradient_fixture();
        // A limit between the outputs' magnitudes: some positions within it, some beyond.
        let mut magnitudes: Vec<f32> = positions.iter().map(|p| eval_cp(&net, p).abs()).collect();
        magnitudes.sort_by(f32::total_cmp);
        let limit_cp = (magnitudes[1] + magnitudes[2]) / 2.0;
        assert!(magnitudes[2] - magnitudes[1] > 1.0, "{magnitudes:?}");
        let objective = Objective { wdl: 0.3, limit_cp };
        let compared = compare_with_finite_differences(&net, &positions, objective);
        assert!(compared >= 10, "only {compared} non-trivial gradients");
        // The positions beyond the limit add nothing to the gradient, and their loss is that
        // of the limit's output.
        for p in &positions {
            let mut grad = FloatNetwork::zeros();
            let loss = accumulate(&net, p, &objective, &mut grad);
            assert_eq!(loss, super::loss(&net, p, &objective));
            let beyond = eval_cp(&net, p).abs() > limit_cp;
            let moved = grad.output_bias.iter().any(|&b| b != 0.0);
            assert_eq!(moved, !beyond, "output {} cp", eval_cp(&net, p));
        }
    }

    #[test]
    fn the_forward_pass_is_the_engines_model() {
        // The same sum written out over the board, as the engine's tests compute it.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let plain = init(&mut rng);
        let mut bucketed = plain.clone().with_king_buckets();
        for w in &mut bucketed.feature_weights[INPUTS * HIDDEN..] {
            *w += rng.random_range(-0.05..0.05);
        }
        for (net, p) in [plain, bucketed]
            .iter()
            .flat_map(|net| positions().into_iter().map(move |p| (net, p)))
        {
            let stm = p.turn();
            let bucket = OutputBucket::for_pieces(p.pieces().count());
            let mut total = net.output_bias[bucket.index()];
            for (half, perspective) in [stm, !stm].into_iter().enumerate() {
                let first = first_row(&p, perspective, net.king_bucketed);
                let mut h = net.feature_bias.clone();
                for (square, piece) in p.pieces() {
                    let r = (first + feature(perspective, piece, square)) * HIDDEN;
                    for (h, w) in h.iter_mut().zip(&net.feature_weights[r..r + HIDDEN]) {
                        *h += w;
                    }
                }
                let weights = net.bucket_output_weights(bucket);
                for (h, v) in h.iter().zip(&weights[half * HIDDEN..]) {
                    total += h.clamp(0.0, 1.0).powi(2) * v;
                }
            }
            let expected = total * SCALE as f32;
            let got = eval_cp(net, &p);
            assert!((expected - got).abs() < 1e-3, "{expected} vs {got}");
        }
    }

    #[test]
    fn widening_keeps_the_output_and_lets_the_new_units_learn() {
        let (mut net, positions) = gradient_fixture();
        // The first half of the units as a narrower file leaves them: the rest empty.
        let half = HIDDEN / 2;
        for row in net.feature_weights.chunks_exact_mut(HIDDEN) {
            row[half..].fill(0.0);
        }
        net.feature_bias[half..].fill(0.0);
        for bucket in net.output_weights.chunks_exact_mut(2 * HIDDEN) {
            bucket[half..HIDDEN].fill(0.0);
            bucket[HIDDEN + half..].fill(0.0);
        }
        let before: Vec<f32> = positions.iter().map(|p| eval_cp(&net, p)).collect();

        let random = init(&mut ChaCha8Rng::seed_from_u64(9));
        let old_units = net.feature_weights[..half].to_vec();
        assert_eq!(widen(&mut net, half, &random), half);
        let after: Vec<f32> = positions.iter().map(|p| eval_cp(&net, p)).collect();
        assert_eq!(before, after, "the new units add nothing yet");
        assert_eq!(net.feature_weights[half], random.feature_weights[half]);
        assert_eq!(net.feature_weights[..half], old_units[..]);
        // A file of every unit has nothing to add.
        let full = net.clone();
        assert_eq!(widen(&mut net, HIDDEN, &random), 0);
        assert_eq!(net, full);

        let mut grad = FloatNetwork::zeros();
        for p in &positions {
            accumulate(&net, p, &Objective::unlimited(0.3), &mut grad);
        }
        let start = OutputBucket::for_pieces(positions[0].pieces().count()).index() * 2 * HIDDEN;
        assert!(
            grad.output_weights[start + half..start + HIDDEN]
                .iter()
                .any(|&g| g.abs() > 1e-6),
            "the new units' output weights have a gradient"
        );
    }
}
