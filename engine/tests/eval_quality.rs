//! The default weights predict game results better than material alone (uses the shared
//! test book; skipped without it), and an `#[ignore]`d speed measurement.

mod eval_support;

use std::time::Instant;

use engine::eval::Evaluator;
use engine::params::{Params, TOTAL_FEATURES, feature, feature_params};
use eval_support::{random_playouts, shared_book};
use shakmaty::Chess;

/// Mean squared error of `1 / (1 + exp(-k e / 400))` against the results, at the best `k`
/// of a coarse-then-fine scan.
fn best_mse(evals: &[(i32, f64)]) -> (f64, f64) {
    let mse = |k: f64| {
        evals
            .iter()
            .map(|&(e, r)| {
                let p = 1.0 / (1.0 + (-k * f64::from(e) / 400.0).exp());
                (p - r) * (p - r)
            })
            .sum::<f64>()
            / evals.len() as f64
    };
    let mut best = (f64::INFINITY, 0.0);
    for step in [0.2, 0.02] {
        let centre = if best.1 == 0.0 { 3.0 } else { best.1 };
        for i in -15..=15 {
            let k = centre + f64::from(i) * step;
            if k > 0.0 && mse(k) < best.0 {
                best = (mse(k), k);
            }
        }
    }
    best
}

fn evals(params: &Params, rows: &[(Chess, f64)]) -> Vec<(i32, f64)> {
    let evaluator = Evaluator::new(params);
    rows.iter()
        .map(|(pos, r)| (evaluator.evaluate_white(pos), *r))
        .collect()
}

#[test]
fn defaults_predict_results_better_than_material() {
    let Some(rows) = shared_book(8000) else {
        return;
    };
    let (material, k_material) = best_mse(&evals(&Params::material_only(), &rows));
    let (defaults, k_defaults) = best_mse(&evals(&Params::default(), &rows));
    eprintln!(
        "MSE material-only {material:.5} (K {k_material:.2}), defaults {defaults:.5} (K {k_defaults:.2})"
    );
    assert!(defaults < material - 0.001, "{defaults} vs {material}");
}

/// The defaults with every term beyond material, piece-square tables and tempo set to 0.
fn pesto_only() -> Params {
    let mut p = Params::default();
    for f in feature::MOBILITY_KNIGHT..TOTAL_FEATURES {
        if f != feature::TEMPO {
            let (mg, eg) = feature_params(f);
            p.set_unchecked(mg, 0);
            p.set_unchecked(eg, 0);
        }
    }
    p
}

/// `cargo test --release -p engine --test eval_quality -- --ignored --nocapture`
#[test]
#[ignore = "speed measurement; run in release"]
fn evaluation_speed() {
    let mut positions = random_playouts(99, 40, 160);
    if let Some(rows) = shared_book(20_000) {
        positions.extend(rows.into_iter().map(|(pos, _)| pos));
    }
    if let Some(rows) = shared_book(usize::MAX) {
        let (mse, k) = best_mse(&evals(&Params::default(), &rows));
        let (mse_m, k_m) = best_mse(&evals(&Params::material_only(), &rows));
        let (mse_p, k_p) = best_mse(&evals(&pesto_only(), &rows));
        eprintln!(
            "whole book ({} positions): MSE defaults {mse:.5} (K {k:.2}), PeSTO material+PST+tempo only {mse_p:.5} (K {k_p:.2}), material-only {mse_m:.5} (K {k_m:.2})",
            rows.len()
        );
    }
    let evaluator = Evaluator::new(&Params::default());
    let rounds = 20;
    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    let mut checksum = 0i64;
    for _ in 0..rounds {
        for pos in &positions {
            checksum += i64::from(evaluator.evaluate(std::hint::black_box(pos)));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = (rounds * positions.len()) as f64;
    eprintln!(
        "{n} evaluations in {seconds:.3} s wall: {:.2} M evals/s (checksum {checksum})",
        n / seconds / 1e6
    );
    if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ns()) {
        let cpu = (b - a) as f64 / 1e9;
        eprintln!(
            "{cpu:.3} s on the CPU (this thread): {:.2} M evals/s per busy core",
            n / cpu / 1e6
        );
    }
}

/// Nanoseconds this thread has run on a CPU (Linux schedstat), so the figure holds on a
/// loaded machine.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
