//! Logistic Elo with its 95 % error, LOS, draw ratio and normalized Elo, as fishtest computes
//! them (`get_elo` and the nElo delta method): on regularised counts, score clamped to
//! [0.001, 0.999].

use super::sample::Sample;

/// Φ⁻¹(0.975): the 95 % two-sided normal quantile.
pub const Z95: f64 = 1.959963984540054;

/// nElo per unit of normalized `t` = (μ − ½)/σ: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// fishtest clamps scores to `[SCORE_CLAMP, 1 − SCORE_CLAMP]` before turning them into Elo.
pub const SCORE_CLAMP: f64 = 1e-3;

/// Expected score of a logistic Elo difference: 1 / (1 + 10^(−elo/400)).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo of a score, with the score first clamped to [0.001, 0.999] (|Elo| ≤ 1199.83).
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Everything fishtest shows for a fixed number of games (or pairs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo of the mean score.
    pub elo: f64,
    /// Half-width of the 95 % interval (E(μ₊) − E(μ₋))/2.
    pub elo_err95: f64,
    /// The 95 % interval as fishtest shows it: `elo ∓ elo_err95` (symmetric, so it can
    /// reach past ±1199.83 when the clamped ends are lopsided).
    pub elo_ci95: (f64, f64),
    /// Likelihood of superiority Φ((μ − ½)/(σ/√n)), a fraction.
    pub los: f64,
    /// Share of draws (trinomial) or of WL+DD pairs (pentanomial) in the given counts.
    pub draw_ratio: f64,
    /// Normalized Elo C·(μ − ½)/σ_g (σ_g per game).
    pub nelo: f64,
    /// 95 % error of nElo by the delta method (skewness and kurtosis of the sample).
    pub nelo_err95: f64,
}

/// fishtest's estimate for counts low to high (3 cells: L, D, W; 5 cells: pairs).
///
/// Zero cells become 0.001, so this is finite for every input, including no games at all
/// (the caller decides whether such a number means anything; see [`super::summarize`]).
pub fn estimate(counts: &[u64]) -> EloEstimate {
    estimate_sample(&Sample::from_counts(counts))
}

/// [`estimate`] on an already built sample.
pub fn estimate_sample(sample: &Sample) -> EloEstimate {
    let (mu, var) = sample.mean_var();
    let sigma = var.sqrt();
    let std_err = sigma / sample.n.sqrt();
    let mu_low = mu - Z95 * std_err;
    let mu_high = mu + Z95 * std_err;
    let (elo_low, elo_high) = (score_to_elo(mu_low), score_to_elo(mu_high));
    let elo = score_to_elo(mu);
    let elo_err95 = (elo_high - elo_low) / 2.0;
    let los = normal_cdf((mu - 0.5) / std_err);
    let middle = sample.probs.len() / 2;
    let (nelo, nelo_err95) = normalized_elo(sample, mu, var);
    EloEstimate {
        elo,
        elo_err95,
        elo_ci95: (elo - elo_err95, elo + elo_err95),
        los,
        draw_ratio: sample.probs[middle],
        nelo,
        nelo_err95,
    }
}

/// nElo and its 95 % error (fishtest's delta method with skewness γ₁ and excess kurtosis γ₂):
/// v_t = max(0, 1 − tγ₁ + ¼t²(γ₂ + 2)), error = C·z·√(v_t/n), both scaled by 1/√2 for pairs.
fn normalized_elo(sample: &Sample, mu: f64, var: f64) -> (f64, f64) {
    let sigma = var.sqrt();
    let t = (mu - 0.5) / sigma;
    let moment = |k: i32| -> f64 {
        sample
            .scores
            .iter()
            .zip(&sample.probs)
            .map(|(a, p)| p * (a - mu).powi(k))
            .sum()
    };
    let skewness = moment(3) / (var * sigma);
    let excess_kurtosis = moment(4) / (var * var) - 3.0;
    let v_t = (1.0 - t * skewness + 0.25 * t * t * (excess_kurtosis + 2.0)).max(0.0);
    let scale = if sample.is_pairs() {
        NELO_PER_T / std::f64::consts::SQRT_2
    } else {
        NELO_PER_T
    };
    (scale * t, scale * Z95 * (v_t / sample.n).sqrt())
}

/// Standard normal distribution function Φ(x) = erfc(−x/√2)/2; erfc keeps full relative
/// precision far into the lower tail, where 1 + erf would cancel to zero.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_known_values() {
        // Values from the standard normal table (high-precision references).
        let cases = [
            (0.0, 0.5),
            (1.0, 0.841_344_746_068_542_9),
            (-1.0, 0.158_655_253_931_457_05),
            (1.959963984540054, 0.975),
            (-1.959963984540054, 0.025),
            (2.5, 0.993_790_334_674_223_6),
            (-3.0, 0.001_349_898_031_630_094_6),
            (-5.0, 2.866_515_718_791_939e-7),
            (-10.0, 7.619_853_024_160_527e-24),
            (-2.1, 0.017_864_420_562_816_546),
        ];
        for (x, want) in cases {
            let got = normal_cdf(x);
            assert!(
                ((got - want) / want).abs() < 1e-13,
                "Φ({x}) = {got}, want {want}"
            );
        }
        assert_eq!(normal_cdf(40.0), 1.0);
        assert_eq!(normal_cdf(-40.0), 0.0);
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn elo_score_round_trip() {
        for elo in [-800.0, -5.0, 0.0, 3.5, 400.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_to_elo(1.0) - 1199.8261952903854).abs() < 1e-9);
        assert!((score_to_elo(0.0) + 1199.8261952903854).abs() < 1e-9);
    }
}
