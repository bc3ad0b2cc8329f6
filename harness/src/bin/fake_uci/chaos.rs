//! Random faults for soak tests: `--chaos seed=N,MODE=P,...`. Each draw depends only on the
//! seed and what the engine was asked (the position), so a run can be repeated exactly and a
//! restarted fake makes the same choices in the same positions.

use std::str::FromStr;

use clap::ValueEnum;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::flags::Mode;

/// The faults chaos may pick and their probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Chaos {
    pub seed: u64,
    /// Faults on `go`, each with its probability (their sum is at most 1).
    pub on_go: Vec<(Mode, f64)>,
    /// Probability of ignoring an `isready`.
    pub noready: f64,
}

impl Chaos {
    /// The fault for a `go` in the position set by `position` (the command's text), if any.
    pub fn on_go(&self, position: &str) -> Option<Mode> {
        let mut draw = rng(self.seed, "go", position).random::<f64>();
        for &(mode, p) in &self.on_go {
            if draw < p {
                return Some(mode);
            }
            draw -= p;
        }
        None
    }

    /// Whether to ignore the `readies`-th `isready`, the last position searched being
    /// `position`. Never before the first search of a process: a restarted engine would
    /// otherwise repeat the same stall at every start.
    pub fn ignores_isready(&self, position: Option<&str>, readies: u64) -> bool {
        let Some(position) = position else {
            return false;
        };
        let key = format!("{readies} {position}");
        self.noready > 0.0 && rng(self.seed, "isready", &key).random::<f64>() < self.noready
    }
}

/// A generator for one decision, from the seed, the kind of decision and its key.
pub fn rng(seed: u64, kind: &str, key: &str) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(fnv1a(seed, kind, key))
}

/// FNV-1a: stable across builds and platforms (unlike std's `DefaultHasher`).
fn fnv1a(seed: u64, kind: &str, key: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = seed
        .to_le_bytes()
        .into_iter()
        .chain(kind.bytes())
        .chain([0])
        .chain(key.bytes());
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The modes `--chaos` accepts: the faults on `go`, and noready.
fn chaos_modes() -> Vec<Mode> {
    Mode::value_variants()
        .iter()
        .copied()
        .filter(|m| m.acts_on_go() || *m == Mode::Noready)
        .collect()
}

impl FromStr for Chaos {
    type Err = String;

    fn from_str(spec: &str) -> Result<Self, String> {
        let mut chaos = Chaos {
            seed: 0,
            on_go: Vec::new(),
            noready: 0.0,
        };
        let accepted = || {
            let names: Vec<String> = chaos_modes().iter().map(|m| m.name()).collect();
            format!("seed, {}", names.join(", "))
        };
        for part in spec.split(',').filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("'{part}' is not KEY=VALUE (keys: {})", accepted()));
            };
            if key == "seed" {
                chaos.seed = value
                    .parse()
                    .map_err(|_| format!("seed={value}: the seed is an integer 0..=2^64-1"))?;
                continue;
            }
            let mode = Mode::from_str(key, false)
                .ok()
                .filter(|m| chaos_modes().contains(m))
                .ok_or_else(|| format!("'{key}' is not one of {}", accepted()))?;
            let p: f64 = value
                .parse()
                .ok()
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or_else(|| format!("{key}={value}: a probability is a number in 0..=1"))?;
            if mode == Mode::Noready {
                chaos.noready = p;
            } else {
                chaos.on_go.retain(|(m, _)| *m != mode);
                chaos.on_go.push((mode, p));
            }
        }
        let total: f64 = chaos.on_go.iter().map(|(_, p)| p).sum();
        if total > 1.0 + 1e-9 {
            return Err(format!(
                "the probabilities of the faults on go add up to {total}, more than 1"
            ));
        }
        Ok(chaos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_spec_and_names_what_is_wrong() {
        let chaos: Chaos = "seed=7,crash=0.25,hang=0.5,noready=0.1".parse().unwrap();
        assert_eq!(chaos.seed, 7);
        assert_eq!(chaos.on_go, [(Mode::Crash, 0.25), (Mode::Hang, 0.5)]);
        assert_eq!(chaos.noready, 0.1);

        let err = "seed=1,crsh=0.1".parse::<Chaos>().unwrap_err();
        assert!(err.contains("'crsh' is not one of seed, crash"), "{err}");
        assert!(!err.contains("normal"), "normal is no fault: {err}");
        let err = "crash=1.5".parse::<Chaos>().unwrap_err();
        assert!(
            err.contains("crash=1.5: a probability is a number in 0..=1"),
            "{err}"
        );
        let err = "crash=0.6,hang=0.6".parse::<Chaos>().unwrap_err();
        assert!(err.contains("add up to 1.2"), "{err}");
        assert!("seed=-1".parse::<Chaos>().unwrap_err().contains("seed=-1"));
        assert!("crash".parse::<Chaos>().unwrap_err().contains("KEY=VALUE"));
    }

    #[test]
    fn draws_follow_the_probabilities_and_repeat_for_the_same_seed() {
        let chaos: Chaos = "seed=3,crash=0.2,illegal=0.3".parse().unwrap();
        let positions: Vec<String> = (0..4000)
            .map(|i| format!("position startpos moves {i}"))
            .collect();
        let draws: Vec<Option<Mode>> = positions.iter().map(|p| chaos.on_go(p)).collect();
        let count = |mode| draws.iter().filter(|d| **d == Some(mode)).count();
        // Binomial standard deviations are about 25 and 29 draws: 5 sigma either way.
        assert!(
            (675..=925).contains(&count(Mode::Crash)),
            "{}",
            count(Mode::Crash)
        );
        assert!((1055..=1345).contains(&count(Mode::Illegal)));
        let again: Vec<Option<Mode>> = positions.iter().map(|p| chaos.on_go(p)).collect();
        assert_eq!(draws, again);
        let other: Chaos = "seed=4,crash=0.2,illegal=0.3".parse().unwrap();
        let other_draws: Vec<Option<Mode>> = positions.iter().map(|p| other.on_go(p)).collect();
        assert_ne!(draws, other_draws, "the seed matters");
    }

    #[test]
    fn never_stalls_before_the_first_search() {
        let chaos: Chaos = "noready=1".parse().unwrap();
        assert!(!chaos.ignores_isready(None, 2));
        assert!(chaos.ignores_isready(Some("position startpos"), 2));
    }
}
