//! The generalized SPRT of fishtest: log-likelihood ratio of constrained maximum-likelihood
//! distributions (Van den Bergh, "Comments on normalized Elo"), its bounds and decision.
//!
//! - `logistic`: H_j says the expected score is L(elo_j).
//! - `normalized` (default): H_j says (μ − ½)/σ = t_j with t_j = nelo_j/C per game
//!   (√2·nelo_j/C per pair), solved by fishtest's fixed-point iteration.
//! - `bayeselo`: the bounds are BayesElo; they are turned into logistic Elo with the draw
//!   Elo estimated from the (regularised) game counts, then the logistic test runs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::brent::brentq;
use super::counts::{Pentanomial, Trinomial};
use super::elo::{NELO_PER_T, elo_to_score, score_to_elo};
use super::sample::{Sample, mean_var};

/// How the SPRT bounds `[elo0, elo1]` are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo (fishtest's and fastchess's default).
    #[default]
    Normalized,
    /// Logistic Elo.
    Logistic,
    /// BayesElo (cutechess, legacy fishtest, OpenBench trinomial), via fishtest's conversion.
    BayesElo,
}

impl EloModel {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Self::Normalized => "normalized",
            Self::Logistic => "logistic",
            Self::BayesElo => "bayeselo",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EloModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "normalized" | "normalised" => Ok(Self::Normalized),
            "logistic" => Ok(Self::Logistic),
            "bayeselo" | "bayesian" => Ok(Self::BayesElo),
            _ => Err(format!(
                "unknown Elo model '{s}' (expected normalized, logistic or bayeselo)"
            )),
        }
    }
}

/// An SPRT: H0 = Elo `elo0`, H1 = Elo `elo1` (in `model` units), error rates `alpha`, `beta`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Default for SprtConfig {
    /// `[0, 5]`, α = β = 0.05, normalized.
    fn default() -> Self {
        Self {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        }
    }
}

/// Why an SPRT configuration is unusable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtConfigError {
    #[error("alpha must be strictly between 0 and 1, got {0}")]
    Alpha(f64),
    #[error("beta must be strictly between 0 and 1, got {0}")]
    Beta(f64),
    #[error("alpha + beta must be below 1, got {0}")]
    AlphaPlusBeta(f64),
    #[error("elo0 must be below elo1, got elo0 = {0}, elo1 = {1}")]
    Bounds(f64, f64),
}

/// Why an LLR cannot be computed for these counts.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlrError {
    /// fishtest raises here too: no distribution on this support has the bound's t
    /// (an extreme result far from the bounds).
    #[error("no distribution matches the normalized bound t = {0} for these counts")]
    NoSolution(f64),
}

impl SprtConfig {
    /// Checks the ranges fastchess checks: 0 < α, β < 1, α + β < 1, elo0 < elo1, all finite.
    pub fn validate(&self) -> Result<(), SprtConfigError> {
        let in_unit = |x: f64| x > 0.0 && x < 1.0;
        if !in_unit(self.alpha) {
            return Err(SprtConfigError::Alpha(self.alpha));
        }
        if !in_unit(self.beta) {
            return Err(SprtConfigError::Beta(self.beta));
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtConfigError::AlphaPlusBeta(self.alpha + self.beta));
        }
        let ordered = self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1;
        if !ordered {
            return Err(SprtConfigError::Bounds(self.elo0, self.elo1));
        }
        Ok(())
    }

    /// `(ln(β/(1−α)), ln((1−β)/α))`: reject H1 below the first, accept it above the second.
    pub fn bounds(&self) -> (f64, f64) {
        llr_bounds(self.alpha, self.beta)
    }

    /// The LLR for these results: pentanomial when given, else trinomial.
    /// The BayesElo model always takes its draw Elo from `tri`.
    pub fn llr(&self, tri: &Trinomial, ptnml: Option<&Pentanomial>) -> Result<f64, LlrError> {
        let counts: Vec<u64> = match ptnml {
            Some(p) => p.counts.to_vec(),
            None => tri.low_to_high().to_vec(),
        };
        match self.model {
            EloModel::Logistic => Ok(llr_logistic(&counts, self.elo0, self.elo1)),
            EloModel::Normalized => llr_normalized(&counts, self.elo0, self.elo1),
            EloModel::BayesElo => {
                let drawelo = bayeselo_drawelo(tri);
                let elo0 = bayeselo_to_logistic(self.elo0, drawelo);
                let elo1 = bayeselo_to_logistic(self.elo1, drawelo);
                Ok(llr_logistic(&counts, elo0, elo1))
            }
        }
    }

    /// fishtest's rule for one evaluation: H1 if LLR > upper, H0 if LLR < lower (strict).
    pub fn decide(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr > upper {
            SprtState::AcceptH1
        } else if llr < lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// Where an SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtState {
    /// H1 accepted: the change gains at least `elo1` (JSON `"accepted"`).
    #[serde(rename = "accepted")]
    AcceptH1,
    /// H0 accepted: the change gains at most `elo0` (JSON `"rejected"`).
    #[serde(rename = "rejected")]
    AcceptH0,
    /// Not yet decided (JSON `"continue"`).
    #[serde(rename = "continue")]
    Continue,
}

impl SprtState {
    /// The JSON word: `accepted`, `rejected` or `continue`.
    pub fn name(self) -> &'static str {
        match self {
            Self::AcceptH1 => "accepted",
            Self::AcceptH0 => "rejected",
            Self::Continue => "continue",
        }
    }
}

/// fishtest's sequential test: the decision with its dynamic overshoot correction
/// (Siegmund, Cor. 8.33). Feed it the LLR after every batch of the same size (fishtest uses
/// batches of game pairs); each new low (high) of the LLR path adds its jump δ to
/// m₀ (m₁) and δ² to sq₀ (sq₁), and the bounds move inwards by o₀ = −sq₀/(2m₀) and
/// o₁ = sq₁/(2m₁). With a single update it decides exactly as [`SprtConfig::decide`].
#[derive(Debug, Clone, PartialEq)]
pub struct SprtTracker {
    config: SprtConfig,
    low: Extreme,
    high: Extreme,
}

/// Running sums of one side's new extremes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Extreme {
    reference: f64,
    sum: f64,
    sum_sq: f64,
}

impl Extreme {
    fn push(&mut self, delta: f64, llr: f64) {
        self.sum += delta;
        self.sum_sq += delta * delta;
        self.reference = llr;
    }

    fn overshoot(&self) -> f64 {
        if self.sum == 0.0 {
            0.0
        } else {
            (self.sum_sq / (2.0 * self.sum)).abs()
        }
    }
}

impl SprtTracker {
    /// A test that has seen no data (LLR path starting at 0).
    pub fn new(config: SprtConfig) -> Self {
        Self {
            config,
            low: Extreme::default(),
            high: Extreme::default(),
        }
    }

    /// The test's configuration.
    pub fn config(&self) -> &SprtConfig {
        &self.config
    }

    /// Records the LLR after one more batch and decides.
    pub fn record(&mut self, llr: f64) -> SprtState {
        if llr.is_finite() {
            if llr < self.low.reference {
                self.low.push(llr - self.low.reference, llr);
            }
            if llr > self.high.reference {
                self.high.push(llr - self.high.reference, llr);
            }
        }
        self.decide(llr)
    }

    /// `(o₀, o₁)`: how far the lower and upper bounds have moved inwards.
    pub fn overshoot(&self) -> (f64, f64) {
        (self.low.overshoot(), self.high.overshoot())
    }

    /// The decision for `llr` with the current corrections (no update).
    pub fn decide(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.config.bounds();
        let (o0, o1) = self.overshoot();
        if llr > upper - o1 {
            SprtState::AcceptH1
        } else if llr < lower + o0 {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// SPRT bounds `(ln(β/(1−α)), ln((1−β)/α))`.
pub fn llr_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// GSPRT LLR in the logistic model for counts low to high (3 or 5 cells), bounds in
/// logistic Elo. Always finite.
pub fn llr_logistic(counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    let sample = Sample::from_counts(counts);
    let p0 = mle_expected(&sample, elo_to_score(elo0));
    let p1 = mle_expected(&sample, elo_to_score(elo1));
    sample.n * mean_log_ratio(&sample, &p0, &p1)
}

/// GSPRT LLR in the normalized model for counts low to high (3 or 5 cells), bounds in nElo.
pub fn llr_normalized(counts: &[u64], nelo0: f64, nelo1: f64) -> Result<f64, LlrError> {
    let sample = Sample::from_counts(counts);
    let per_unit = if sample.is_pairs() {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let t0 = per_unit * nelo0 / NELO_PER_T;
    let t1 = per_unit * nelo1 / NELO_PER_T;
    let p0 = mle_t_value(&sample, 0.5, t0)?;
    let p1 = mle_t_value(&sample, 0.5, t1)?;
    Ok(sample.n * mean_log_ratio(&sample, &p0, &p1))
}

/// Draw Elo of the regularised game counts:
/// 200·log₁₀(((1 − P_L)/P_L)·((1 − P_W)/P_W)).
pub fn bayeselo_drawelo(tri: &Trinomial) -> f64 {
    let sample = Sample::from_counts(&tri.low_to_high());
    let (p_loss, p_win) = (sample.probs[0], sample.probs[2]);
    200.0 * ((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win).log10()
}

/// Logistic Elo with the same expected score as BayesElo `bayeselo` under `drawelo`.
pub fn bayeselo_to_logistic(bayeselo: f64, drawelo: f64) -> f64 {
    let p_win = 1.0 / (1.0 + 10f64.powf((-bayeselo + drawelo) / 400.0));
    let p_loss = 1.0 / (1.0 + 10f64.powf((bayeselo + drawelo) / 400.0));
    let p_draw = 1.0 - p_win - p_loss;
    // score_to_elo clamps to [0.001, 0.999]; BayesElo bounds never get near that.
    score_to_elo(p_win + 0.5 * p_draw)
}

/// Σ p̂ᵢ ln(p1ᵢ/p0ᵢ).
fn mean_log_ratio(sample: &Sample, p0: &[f64], p1: &[f64]) -> f64 {
    sample
        .probs
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(p, (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum()
}

/// The distribution closest (max likelihood) to the sample with expected score `s`:
/// pᵢ = p̂ᵢ/(1 + θ(aᵢ − s)).
fn mle_expected(sample: &Sample, s: f64) -> Vec<f64> {
    let shifted: Vec<f64> = sample.scores.iter().map(|a| a - s).collect();
    // s lies strictly inside (0, 1), so `shifted` straddles zero and a root exists.
    let theta = secular(&shifted, &sample.probs).unwrap_or(0.0);
    sample
        .probs
        .iter()
        .zip(&shifted)
        .map(|(p, d)| p / (1.0 + theta * d))
        .collect()
}

/// The distribution closest to the sample with (μ − ref)/σ = t, by fishtest's fixed-point
/// iteration from the uniform distribution (at most 10 rounds, until max |Δp| < 1e-9).
fn mle_t_value(sample: &Sample, reference: f64, t: f64) -> Result<Vec<f64>, LlrError> {
    let k = sample.probs.len();
    let mut p = vec![1.0 / k as f64; k];
    for _ in 0..10 {
        let (mu, var) = mean_var(&sample.scores, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = sample
            .scores
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let theta = secular(&phi, &sample.probs).ok_or(LlrError::NoSolution(t))?;
        let next: Vec<f64> = sample
            .probs
            .iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + theta * f))
            .collect();
        let change = p
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-9 {
            break;
        }
    }
    Ok(p)
}

/// Solves Σ pᵢφᵢ/(1 + θφᵢ) = 0 for θ in (−1/max φ, −1/min φ), shrunk by 1e-9 as fishtest does.
/// `None` when the φᵢ do not straddle zero.
fn secular(phi: &[f64], probs: &[f64]) -> Option<f64> {
    const SHRINK: f64 = 1e-9;
    let low = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let high = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let straddles = low * high < 0.0;
    if !straddles {
        return None;
    }
    let f = |x: f64| -> f64 {
        phi.iter()
            .zip(probs)
            .map(|(a, p)| p * a / (1.0 + x * a))
            .sum()
    };
    brentq(f, -1.0 / high + SHRINK, -1.0 / low - SHRINK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_five_percent() {
        let (lo, hi) = llr_bounds(0.05, 0.05);
        assert!((lo + 2.9444389791664403).abs() < 1e-15);
        assert!((hi - 2.9444389791664403).abs() < 1e-15);
    }

    #[test]
    fn worked_example_logistic() {
        // sprt-math.md example 1.
        let llr = llr_logistic(&[759, 1863, 880], 0.0, 5.0);
        assert!((llr - 2.947224113731151).abs() < 1e-9, "{llr}");
    }

    #[test]
    fn validate_rejects_bad_configs() {
        let ok = SprtConfig::default();
        assert!(ok.validate().is_ok());
        for bad in [
            SprtConfig { alpha: 0.0, ..ok },
            SprtConfig { alpha: 1.0, ..ok },
            SprtConfig { beta: -0.1, ..ok },
            SprtConfig {
                alpha: 0.6,
                beta: 0.5,
                ..ok
            },
            SprtConfig {
                elo0: 5.0,
                elo1: 5.0,
                ..ok
            },
            SprtConfig {
                elo1: f64::NAN,
                ..ok
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn overshoot_moves_bounds_inwards() {
        let mut t = SprtTracker::new(SprtConfig::default());
        assert_eq!(t.record(1.0), SprtState::Continue);
        assert_eq!(t.record(2.0), SprtState::Continue);
        // m1 = 2, sq1 = 2: o1 = 0.5, so 2.5 > 2.944 - 0.5 accepts.
        assert_eq!(t.overshoot(), (0.0, 0.5));
        assert_eq!(t.record(2.5), SprtState::AcceptH1);
        assert_eq!(SprtConfig::default().decide(2.5), SprtState::Continue);
        let mut t = SprtTracker::new(SprtConfig::default());
        t.record(-2.0);
        assert_eq!(t.overshoot(), (1.0, 0.0));
        assert_eq!(t.decide(-2.0), SprtState::AcceptH0);
    }

    #[test]
    fn model_names_parse() {
        for m in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
            assert_eq!(m.name().parse::<EloModel>(), Ok(m));
        }
        assert!("gaussian".parse::<EloModel>().is_err());
    }
}
