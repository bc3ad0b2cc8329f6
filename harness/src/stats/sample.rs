//! The regularised empirical distribution every statistic starts from (fishtest's `pdf`).

/// fishtest replaces every zero count by this, so no cell has probability 0.
pub const ZERO_CELL: f64 = 1e-3;

/// An empirical distribution on the equally spaced scores `0, 1/(k-1), .., 1`
/// (game scores for 3 cells, pair scores ÷ 2 for 5), with zero cells regularised.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Total of the regularised counts (not an integer when a cell was zero).
    pub n: f64,
    /// Score of each cell, low to high.
    pub scores: Vec<f64>,
    /// Probability of each cell (regularised count / n).
    pub probs: Vec<f64>,
}

impl Sample {
    /// From counts low to high (3 or 5 cells).
    pub fn from_counts(counts: &[u64]) -> Self {
        let reg: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { ZERO_CELL } else { c as f64 })
            .collect();
        Self::from_regularised(&reg)
    }

    /// From already regularised (positive) counts.
    pub fn from_regularised(reg: &[f64]) -> Self {
        let n: f64 = reg.iter().sum();
        let last = (reg.len() - 1) as f64;
        Self {
            n,
            scores: (0..reg.len()).map(|i| i as f64 / last).collect(),
            probs: reg.iter().map(|&c| c / n).collect(),
        }
    }

    /// True for pair (pentanomial) data.
    pub fn is_pairs(&self) -> bool {
        self.scores.len() == 5
    }

    /// Mean score μ and population variance σ² (divisor n).
    pub fn mean_var(&self) -> (f64, f64) {
        mean_var(&self.scores, &self.probs)
    }
}

/// Mean and population variance of `values` under `probs`, summed in index order.
pub(crate) fn mean_var(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean = values.iter().zip(probs).map(|(a, p)| p * a).sum::<f64>();
    let var = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum::<f64>();
    (mean, var)
}
