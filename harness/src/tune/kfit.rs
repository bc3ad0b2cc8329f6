//! The scaling constant K of `sigmoid(K · eval / 400)`, fitted once on the starting weights
//! (Brent's method) and then kept fixed while the weights are tuned.

use anyhow::Context as _;
use argmin::core::{CostFunction, Executor};
use argmin::solver::brent::BrentOpt;
use rayon::prelude::*;

use super::model::{CP_SCALE, FeatureWeights, evaluations, sigmoid};
use super::traces::TraceSet;

/// Search interval for K (`exp` form): covers every sensible centipawn scale.
pub const K_RANGE: (f64, f64) = (0.05, 20.0);

struct KLoss {
    evals: Vec<f64>,
    results: Vec<f64>,
}

impl KLoss {
    fn mse(&self, k: f64) -> f64 {
        let sum: f64 = self
            .evals
            .par_iter()
            .zip(&self.results)
            .map(|(&e, &r)| {
                let err = sigmoid(k * e / CP_SCALE) - r;
                err * err
            })
            .sum();
        sum / self.evals.len() as f64
    }
}

impl CostFunction for KLoss {
    type Param = f64;
    type Output = f64;

    fn cost(&self, k: &f64) -> Result<f64, argmin::core::Error> {
        Ok(self.mse(*k))
    }
}

/// The K minimising the mean squared error of `set` under `weights`, and that error.
pub fn fit_k(set: &TraceSet, weights: &FeatureWeights) -> anyhow::Result<(f64, f64)> {
    anyhow::ensure!(!set.is_empty(), "no positions to fit K on");
    fit_scale(
        evaluations(set, weights),
        set.results().iter().map(|&r| f64::from(r)).collect(),
    )
}

/// The K for which `sigmoid(K · value / 400)` predicts `results` best, and its error: the
/// scale of any centipawn figure (an evaluation, or another engine's search scores).
pub fn fit_scale(values: Vec<f64>, results: Vec<f64>) -> anyhow::Result<(f64, f64)> {
    anyhow::ensure!(!values.is_empty(), "no positions to fit K on");
    let problem = KLoss {
        evals: values,
        results,
    };
    let solver = BrentOpt::new(K_RANGE.0, K_RANGE.1).set_tolerance(1e-8, 1e-7);
    let result = Executor::new(problem, solver)
        .configure(|state| state.max_iters(200))
        .run()
        .context("fitting K")?;
    let k = result
        .state
        .best_param
        .context("fitting K: Brent's method found no value")?;
    let mse = result.state.best_cost;
    Ok((k, mse))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_scale_finds_the_k_that_made_the_results() {
        // Results drawn as the expected scores of sigmoid(1.7 · value / 400): the fit finds 1.7.
        let values: Vec<f64> = (-400..=400).map(|v| f64::from(v) * 2.0).collect();
        let results: Vec<f64> = values
            .iter()
            .map(|&v| sigmoid(1.7 * v / CP_SCALE))
            .collect();
        let (k, error) = fit_scale(values, results).unwrap();
        assert!((k - 1.7).abs() < 1e-3, "K = {k}");
        assert!(error < 1e-9, "MSE {error}");
    }
}
