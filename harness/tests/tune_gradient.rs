//! The tuner's analytic gradient against central finite differences, on traces of real
//! positions with non-integer weights.

use std::sync::Arc;

use engine::params::{self, EVAL_PARAMS, Params, feature};
use harness::tune::dataset::{Sample, parse_position};
use harness::tune::model::{
    FeatureWeights, Objective, mse, mse_and_gradient, parameter_usage, pst_neighbours,
};
use harness::tune::traces::{TraceSet, append_samples};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

fn sample_set() -> TraceSet {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut samples = Vec::new();
    // Mating material, so the flat K+piece vs K features appear too.
    for fen in [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/2k5/8/8/8/1Q6/4K3 b - - 0 1",
        "7k/8/8/8/8/8/8/KR6 w - - 0 1",
    ] {
        samples.push(Sample {
            position: parse_position(fen).unwrap(),
            result: 1.0,
            score: None,
        });
    }
    while samples.len() < 1500 {
        let mut pos = Chess::default();
        for ply in 0..100 {
            let moves = pos.legal_moves();
            let Some(m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play_unchecked(*m);
            if ply % 7 == 3 {
                samples.push(Sample {
                    position: pos.clone(),
                    result: [0.0, 0.5, 1.0][rng.random_range(0..3usize)],
                    score: None,
                });
            }
        }
    }
    let mut set = TraceSet::new();
    append_samples(&mut set, &samples, None).unwrap();
    set
}

fn noisy_values(rng: &mut ChaCha8Rng) -> Vec<f64> {
    Params::default().values()[..EVAL_PARAMS]
        .iter()
        .map(|&v| f64::from(v) + rng.random_range(-20.0..20.0))
        .collect()
}

#[test]
fn analytic_gradient_matches_finite_differences() {
    let set = sample_set();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let values = noisy_values(&mut rng);
    let k = 3.3;
    let mut gradient = vec![0.0; EVAL_PARAMS];
    let loss = mse_and_gradient(
        &set,
        &FeatureWeights::from_values(&values),
        k,
        &mut gradient,
    );
    assert!((loss - mse(&set, &FeatureWeights::from_values(&values), k)).abs() < 1e-12);

    let h = 1e-3;
    let mut nonzero = 0;
    let largest = gradient.iter().fold(0.0f64, |m, g| m.max(g.abs()));
    for id in 0..EVAL_PARAMS {
        let mut plus = values.clone();
        plus[id] += h;
        let mut minus = values.clone();
        minus[id] -= h;
        let numeric = (mse(&set, &FeatureWeights::from_values(&plus), k)
            - mse(&set, &FeatureWeights::from_values(&minus), k))
            / (2.0 * h);
        let tolerance = 1e-5 * numeric.abs() + 1e-9 * largest;
        assert!(
            (gradient[id] - numeric).abs() <= tolerance,
            "{}: analytic {} numeric {}",
            params::specs()[id].name,
            gradient[id],
            numeric
        );
        if numeric.abs() > 1e-6 * largest {
            nonzero += 1;
        }
    }
    assert!(nonzero > 100, "only {nonzero} parameters have a gradient");
    // A flat feature (one weight for both phases) is among them.
    let (flat, _) = params::feature_params(feature::KING_DISTANCE);
    assert!(gradient[flat] != 0.0, "king distance has no gradient");
}

#[test]
fn objective_gradient_with_l2_matches_finite_differences() {
    let set = Arc::new(sample_set());
    let tuned: Vec<usize> = (0..EVAL_PARAMS).step_by(7).collect();
    let objective = Objective::new(set, 2.5, &Params::default(), tuned).with_l2(1e-2);
    check_objective_gradient(&objective);
}

#[test]
fn objective_gradient_with_smoothness_matches_finite_differences() {
    use feature::{MOBILITY_KNIGHT, PST};
    let set = Arc::new(sample_set());
    // The knight and bishop tables whole (both phases), so neighbours are tuned together.
    let tuned: Vec<usize> = (2 * (PST + 64)..2 * (PST + 192)).collect();
    const { assert!(PST + 192 <= MOBILITY_KNIGHT) };
    let objective = Objective::new(set, 2.5, &Params::default(), tuned.clone())
        .with_l2(1e-3)
        .with_smoothness(1e-1);
    // Each of the 4 tables (2 pieces x 2 phases) has 2 x 8 x 7 neighbouring pairs.
    assert_eq!(pst_neighbours(&tuned).len(), 4 * 112);
    check_objective_gradient(&objective);
    // The prior pulls a lone spike back toward its neighbours.
    let mut x = objective.start();
    x[2 * 27] += 100.0; // knight d4, middlegame
    let smooth = objective.loss_and_gradient(&x).1[2 * 27];
    let plain = Objective::new(Arc::new(sample_set()), 2.5, &Params::default(), tuned)
        .with_l2(1e-3)
        .loss_and_gradient(&x)
        .1[2 * 27];
    assert!(smooth > plain, "smoothness gradient {smooth} vs {plain}");
}

fn check_objective_gradient(objective: &Objective) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let x: Vec<f64> = objective
        .start()
        .iter()
        .map(|v| v + rng.random_range(-15.0..15.0))
        .collect();
    let (_, gradient) = objective.loss_and_gradient(&x);
    let h = 1e-3;
    for i in 0..x.len() {
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[i] += h;
        minus[i] -= h;
        let numeric = (objective.loss_and_gradient(&plus).0
            - objective.loss_and_gradient(&minus).0)
            / (2.0 * h);
        assert!(
            (gradient[i] - numeric).abs() <= 1e-5 * numeric.abs() + 1e-12,
            "tuned #{i}: analytic {} numeric {numeric}",
            gradient[i]
        );
    }
}

#[test]
fn trace_set_evaluation_equals_engine_trace_value() {
    let set = sample_set();
    let params = Params::default();
    let weights = FeatureWeights::from_params(&params);
    // Rebuild the engine's trace from the stored terms and compare with its own formula.
    for i in (0..set.len()).step_by(37) {
        let p = set.position(i);
        let trace = engine::eval::EvalTrace {
            phase: i32::from(p.phase),
            terms: p.terms.to_vec(),
            scale: p.scale.map(engine::eval::ScaleClass::from_index),
        };
        let expected = trace.value(&params);
        assert!(
            (weights.evaluate(&p) - expected).abs() < 1e-9,
            "position {i}: {} vs {expected}",
            weights.evaluate(&p)
        );
    }
}

#[test]
fn usage_is_zero_exactly_for_parameters_no_position_uses() {
    let set = sample_set();
    let usage = parameter_usage(&set);
    let id = |name: &str| params::find(name).unwrap();
    // Pawns never stand on the first or last rank.
    for name in ["pst_pawn_a1_mg", "pst_pawn_h8_eg", "pst_pawn_d1_eg"] {
        assert_eq!(usage[id(name)], 0.0, "{name}");
    }
    for name in ["material_pawn_mg", "material_pawn_eg", "pst_pawn_e4_mg"] {
        assert!(usage[id(name)] > 0.0, "{name}");
    }
    // A zero-usage parameter has a zero gradient: moving it cannot change the loss.
    let mut gradient = vec![0.0; EVAL_PARAMS];
    let weights = FeatureWeights::from_values(&noisy_values(&mut ChaCha8Rng::seed_from_u64(1)));
    mse_and_gradient(&set, &weights, 2.5, &mut gradient);
    for (p, (&u, &g)) in usage.iter().zip(&gradient).enumerate() {
        if u == 0.0 {
            assert_eq!(g, 0.0, "{}", params::specs()[p].name);
        }
    }
}
