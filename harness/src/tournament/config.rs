//! The full configuration of a match, written to `config.toml` in the results folder and
//! read back by `--resume`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use engine::params::{Params, specs};
use serde::{Deserialize, Serialize};

use crate::book::BookSpec;
use crate::game::{EngineLimits, GameRules};

/// One engine of the match: our engine with a parameter set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    pub name: String,
    /// The parameter file given with `file=`, if any (for the record; `params` is what counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub param_file: Option<PathBuf>,
    /// The `name=value` overrides as given (for the record).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    pub limits: EngineLimits,
    /// Every parameter that differs from the engine's defaults.
    #[serde(default)]
    pub params: BTreeMap<String, i32>,
}

impl EngineConfig {
    /// Records `params` as their difference from the defaults.
    pub fn set_params(&mut self, params: &Params) {
        let defaults = Params::default();
        self.params = defaults
            .diff(params)
            .into_iter()
            .map(|(id, _, value)| (specs()[id].name.clone(), value))
            .collect();
    }

    /// The engine's full parameter set.
    pub fn build_params(&self) -> anyhow::Result<Params> {
        let mut params = Params::default();
        for (name, value) in &self.params {
            params
                .set_by_name(name, &value.to_string())
                .with_context(|| format!("engine '{}'", self.name))?;
        }
        Ok(params)
    }
}

/// SPRT bounds as the user gave them (the statistics module interprets them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// `normalized`, `logistic` or `bayeselo`.
    pub model: String,
}

/// Everything that determines a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    pub event: String,
    /// Total games (an even number: each opening is played twice, colours reversed).
    pub games: u64,
    pub concurrency: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub report_every: u64,
    /// No book means every game starts from the standard position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<BookSpec>,
    pub rules: GameRules,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSettings>,
    /// An extra copy of games.pgn written at the end (`--pgnout`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pgnout: Option<PathBuf>,
    /// The command line that started the match.
    #[serde(default)]
    pub command: Vec<String>,
    pub engines: Vec<EngineConfig>,
}

impl MatchConfig {
    /// Writes `dir/config.toml`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = toml::to_string_pretty(self).context("cannot encode the configuration")?;
        let header = "# Configuration of this match, written by `harness match`; `harness match --resume <this folder>` reads it.\n";
        std::fs::write(dir.join("config.toml"), format!("{header}{text}"))
            .with_context(|| format!("cannot write {}", dir.join("config.toml").display()))
    }

    /// Reads `dir/config.toml`.
    pub fn load(dir: &Path) -> anyhow::Result<MatchConfig> {
        let path = dir.join("config.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow::Error::new(crate::UsageError(format!(
                "{}: {e} (is this a match results folder?)",
                path.display()
            )))
        })?;
        toml::from_str(&text)
            .map_err(|e| anyhow::Error::new(crate::UsageError(format!("{}: {e}", path.display()))))
    }
}
