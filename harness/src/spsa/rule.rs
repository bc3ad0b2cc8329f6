//! OpenBench's SPSA arithmetic, as pure functions (formulas and sources in `docs/spsa.md`).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::input::{ParamDef, ValueKind};

/// The constants of a tune. Defaults are OpenBench's (its create-tune form).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// N, the number of iterations.
    pub iterations: u64,
    /// Game pairs per iteration (OpenBench's "Pairs-Per", default 8).
    pub pairs_per_iteration: u64,
    /// Decay exponent of the learning rate (0.602).
    pub alpha: f64,
    /// Decay exponent of the perturbation (0.101).
    pub gamma: f64,
    /// A as a fraction of N (0.1).
    pub a_ratio: f64,
    /// Iterations in flight at once (1 = strictly one after another).
    pub in_flight: u64,
    /// Seed of the perturbation signs and the integer rounding.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            iterations: 1000,
            pairs_per_iteration: 8,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            in_flight: 1,
            seed: 1,
        }
    }
}

impl Settings {
    /// Iterations in flight that keep `game_slots` games playing: enough iterations to fill
    /// every slot, plus one so a slot never waits for an iteration to be drawn.
    pub fn in_flight_for(game_slots: usize, pairs_per_iteration: u64) -> u64 {
        (game_slots as u64).div_ceil(2 * pairs_per_iteration.max(1)) + 1
    }
}

/// A setting out of its accepted range.
#[derive(Debug, Error, PartialEq)]
#[error("SPSA setting {name} = {value} is out of range: {accepted}")]
pub struct SettingsError {
    pub name: &'static str,
    pub value: String,
    pub accepted: &'static str,
}

impl Settings {
    /// Checks every setting's range.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let err = |name, value: String, accepted| {
            Err(SettingsError {
                name,
                value,
                accepted,
            })
        };
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if self.iterations == 0 {
            return err("iterations", "0".into(), "at least 1");
        }
        if self.pairs_per_iteration == 0 {
            return err("pairs_per_iteration", "0".into(), "at least 1");
        }
        if self.in_flight == 0 {
            return err("in_flight", "0".into(), "at least 1");
        }
        if !positive(self.alpha) {
            return err("alpha", self.alpha.to_string(), "a number above 0");
        }
        if !positive(self.gamma) {
            return err("gamma", self.gamma.to_string(), "a number above 0");
        }
        if !(self.a_ratio.is_finite() && self.a_ratio >= 0.0) {
            return err("a_ratio", self.a_ratio.to_string(), "a number at least 0");
        }
        Ok(())
    }

    /// A = a_ratio · N.
    pub fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// The iteration number k used for a batch drawn after `games` games have been applied:
    /// OpenBench's `1 + games / (2 · pairs_per)`, a real number.
    pub fn iteration_at(&self, games: u64) -> f64 {
        1.0 + games as f64 / (2 * self.pairs_per_iteration) as f64
    }
}

/// A parameter's two constants, fixed when the tune is created: c = c_end · N^γ and
/// a = r_end · c_end² · (A + N)^α.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constants {
    pub c: f64,
    pub a: f64,
}

impl Constants {
    pub fn new(def: &ParamDef, settings: &Settings) -> Self {
        let n = settings.iterations as f64;
        Constants {
            c: def.c_end * n.powf(settings.gamma),
            a: def.r_end * def.c_end * def.c_end * (settings.big_a() + n).powf(settings.alpha),
        }
    }
}

/// The perturbation c_k and learning rate R_k of one parameter at iteration k:
/// c_k = max(c / k^γ, 0.5 for an integer, 0 for a real) and R_k = a / (A + k)^α / c_k².
pub fn schedule(def: &ParamDef, constants: Constants, settings: &Settings, k: f64) -> (f64, f64) {
    let floor = match def.kind {
        ValueKind::Int => 0.5,
        ValueKind::Float => 0.0,
    };
    let c_k = (constants.c / k.powf(settings.gamma)).max(floor);
    let r_k = constants.a / (settings.big_a() + k).powf(settings.alpha) / (c_k * c_k);
    (c_k, r_k)
}

/// The values one parameter is played at: θ + c_k·flip and θ − c_k·flip. An integer rounds
/// both randomly with one uniform `u` in [0, 1): ⌊x + u⌋, so its expectation is x. Both are
/// clamped to [min, max] afterwards.
pub fn perturb(def: &ParamDef, theta: f64, c_k: f64, flip: f64, u: f64) -> (f64, f64) {
    let mut plus = theta + flip * c_k;
    let mut minus = theta - flip * c_k;
    if def.kind == ValueKind::Int {
        plus = (plus + u).floor();
        minus = (minus + u).floor();
    }
    (plus.clamp(def.min, def.max), minus.clamp(def.min, def.max))
}

/// θ after one iteration's result, from θ + c_k·flip's side: θ + R_k · c_k · (W − L) · flip,
/// clamped to [min, max]. θ stays real for integer parameters too.
pub fn update(
    def: &ParamDef,
    theta: f64,
    c_k: f64,
    r_k: f64,
    flip: f64,
    wins_minus_losses: f64,
) -> f64 {
    (theta + r_k * c_k * wins_minus_losses * flip).clamp(def.min, def.max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(kind: ValueKind, min: f64, max: f64, c_end: f64) -> ParamDef {
        ParamDef {
            name: "x".into(),
            kind,
            start: min,
            min,
            max,
            c_end,
            r_end: 0.002,
        }
    }

    #[test]
    fn constants_and_schedule_by_hand() {
        // N = 100, A = 0.1·100 = 10, α = 0.602, γ = 0.101, c_end = 4, r_end = 0.002.
        let settings = Settings {
            iterations: 100,
            ..Settings::default()
        };
        let d = def(ValueKind::Int, 0.0, 100.0, 4.0);
        let k = Constants::new(&d, &settings);
        // c = 4 · 100^0.101 = 4 · e^(0.101 · 4.605170) = 4 · e^0.465122 = 4 · 1.592209 = 6.368835
        assert!((k.c - 6.368835).abs() < 1e-5, "{}", k.c);
        // a = 0.002 · 4² · (10 + 100)^0.602 = 0.032 · e^(0.602 · 4.700480) = 0.032 · e^2.829689
        //   = 0.032 · 16.940195 = 0.542086
        assert!((k.a - 0.542086).abs() < 1e-5, "{}", k.a);
        // k = 1: c_1 = c / 1^γ = 6.368835; R_1 = a / (10 + 1)^0.602 / c_1²
        //   = 0.542086 / e^(0.602 · 2.397895) / 6.368835² = 0.542086 / 4.235634 / 40.562058
        //   = 0.0031552
        let (c1, r1) = schedule(&d, k, &settings, 1.0);
        assert!((c1 - 6.368835).abs() < 1e-5);
        assert!((r1 - 0.0031552).abs() < 1e-7, "{r1}");
        // k = N: c_N = c_end exactly and R_N = r_end: the step ends where the user asked.
        let (cn, rn) = schedule(&d, k, &settings, 100.0);
        assert!((cn - 4.0).abs() < 1e-9 && (rn - 0.002).abs() < 1e-12);
        // An integer's c_k never falls below 0.5; a real's may.
        let small = def(ValueKind::Int, 0.0, 10.0, 0.1);
        let (c, _) = schedule(&small, Constants::new(&small, &settings), &settings, 100.0);
        assert_eq!(c, 0.5);
        let small = def(ValueKind::Float, 0.0, 10.0, 0.1);
        let (c, _) = schedule(&small, Constants::new(&small, &settings), &settings, 100.0);
        assert!((c - 0.1).abs() < 1e-12);
    }

    #[test]
    fn iteration_number_counts_applied_games_as_openbench() {
        let settings = Settings {
            pairs_per_iteration: 8,
            ..Settings::default()
        };
        assert_eq!(settings.iteration_at(0), 1.0);
        assert_eq!(settings.iteration_at(16), 2.0);
        assert_eq!(settings.iteration_at(24), 2.5);
    }

    #[test]
    fn integers_round_randomly_then_clamp() {
        let d = def(ValueKind::Int, 0.0, 10.0, 1.0);
        // θ = 5.3, c_k = 1.2, flip +1: 6.5 and 4.1; u = 0.25 → ⌊6.75⌋ = 6, ⌊4.35⌋ = 4.
        assert_eq!(perturb(&d, 5.3, 1.2, 1.0, 0.25), (6.0, 4.0));
        // u = 0.95 → ⌊7.45⌋ = 7, ⌊5.05⌋ = 5.
        assert_eq!(perturb(&d, 5.3, 1.2, 1.0, 0.95), (7.0, 5.0));
        // flip −1 swaps the sides: 4.1 and 6.5.
        assert_eq!(perturb(&d, 5.3, 1.2, -1.0, 0.25), (4.0, 6.0));
        // Near the edge: 9.6 ± 1.2 = 10.8 → ⌊11.3⌋ = 11 → clamped to 10; 8.4 → 8.
        assert_eq!(perturb(&d, 9.6, 1.2, 1.0, 0.5), (10.0, 8.0));
        // Below: 0.2 − 1.2 = −1.0 → ⌊−0.5⌋ = −1 → clamped to 0.
        assert_eq!(perturb(&d, 0.2, 1.2, -1.0, 0.5), (0.0, 1.0));
        // Rounding is unbiased: the mean over u of ⌊x + u⌋ is x.
        let mean: f64 = (0..1000)
            .map(|i| perturb(&d, 5.3, 1.2, 1.0, (f64::from(i) + 0.5) / 1000.0).0)
            .sum::<f64>()
            / 1000.0;
        assert!((mean - 6.5).abs() < 1e-9, "{mean}");
        // Reals are not rounded, only clamped.
        let f = def(ValueKind::Float, 0.0, 1.0, 0.1);
        assert_eq!(perturb(&f, 0.5, 0.125, 1.0, 0.9), (0.625, 0.375));
        assert_eq!(perturb(&f, 0.95, 0.125, 1.0, 0.9), (1.0, 0.825));
    }

    #[test]
    fn update_moves_toward_the_winning_side_and_clamps() {
        let d = def(ValueKind::Int, 0.0, 10.0, 1.0);
        // 5 + 0.01 · 2 · (+3) · (+1) = 5.06
        assert!((update(&d, 5.0, 2.0, 0.01, 1.0, 3.0) - 5.06).abs() < 1e-12);
        // flip −1: θ − c·flip won, so θ moves down: 4.94
        assert!((update(&d, 5.0, 2.0, 0.01, -1.0, 3.0) - 4.94).abs() < 1e-12);
        assert_eq!(update(&d, 9.99, 2.0, 0.5, 1.0, 4.0), 10.0);
        assert_eq!(update(&d, 0.01, 2.0, 0.5, 1.0, -4.0), 0.0);
    }

    #[test]
    fn settings_out_of_range_are_named() {
        let bad = Settings {
            alpha: -1.0,
            ..Settings::default()
        };
        let e = bad.validate().unwrap_err().to_string();
        assert!(e.contains("alpha = -1") && e.contains("above 0"), "{e}");
        let bad = Settings {
            pairs_per_iteration: 0,
            ..Settings::default()
        };
        assert!(bad.validate().is_err());
        assert!(Settings::default().validate().is_ok());
    }
}
