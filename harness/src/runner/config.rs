//! The full configuration of a match, written to `config.toml` in the results folder and
//! read back by `--resume`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use engine::params::{Params, specs};
use serde::{Deserialize, Serialize};

use crate::book::BookSpec;
use crate::game::{EngineLimits, GameRules};
use crate::stats::SprtConfig;
use crate::uci::{EngineCommand, UciEngineConfig};

/// One engine of the match: our engine with a parameter set, run in this process, or an
/// external UCI engine (`external`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    pub name: String,
    /// Set for an external UCI engine (`cmd=` or `git=`); `params` is then unused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<ExternalEngine>,
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

    /// Our engine played in-process under `name`, with these parameters set over the
    /// defaults (checked against the registry) and the default limit of 1000 nodes a move.
    pub fn builtin(name: &str, params: &[(&str, i32)]) -> anyhow::Result<EngineConfig> {
        let mut set = Params::default();
        for (param, value) in params {
            set.set_by_name(param, &value.to_string())
                .with_context(|| format!("engine '{name}'"))?;
        }
        let mut config = EngineConfig {
            name: name.to_string(),
            external: None,
            param_file: None,
            overrides: params.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            limits: EngineLimits {
                nodes: Some(DEFAULT_NODES),
                time_margin_ms: crate::game::time_control::DEFAULT_TIME_MARGIN_MS,
                ..EngineLimits::default()
            },
            params: BTreeMap::new(),
        };
        config.set_params(&set);
        Ok(config)
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

/// An external UCI engine: a program, or our engine built from a git revision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalEngine {
    /// The program (for `git=`, the cached build).
    pub command: PathBuf,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// `setoption` name and value pairs, sent in this order after the handshake.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitBuild>,
}

/// Where a `git=` engine came from, so a resumed match can rebuild a missing binary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitBuild {
    /// The revision as given (`main`, `WORKTREE`, a hash).
    pub reference: String,
    /// The cache key: the commit hash, or `worktree-<tree hash>`.
    pub key: String,
    /// The commit or tree hash the sources were taken from.
    pub tree_ish: String,
    pub description: String,
    /// The node count of `engine bench` (`None` when the build has no usable bench).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench_nodes: Option<u64>,
}

impl ExternalEngine {
    /// The UCI engine configuration; the match's hash size goes to the `Hash` option unless the
    /// options set it (and the engine declares it: see [`crate::uci::UciEngineConfig`]).
    pub fn uci_config(&self, name: &str, hash_mb: usize) -> UciEngineConfig {
        let mut command = EngineCommand::new(&self.command);
        command.args = self.args.clone();
        command.dir = self.dir.clone();
        let mut config = UciEngineConfig::new(name, command);
        config.options = self.options.clone();
        config.default_hash_mb = Some(hash_mb);
        config
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

impl SprtSettings {
    /// The statistics module's SPRT configuration, checked; a bad value is a usage error
    /// naming `--sprt` and the accepted range.
    pub fn config(&self) -> anyhow::Result<SprtConfig> {
        let usage = |e: String| anyhow::Error::new(crate::UsageError(format!("--sprt: {e}")));
        let config = SprtConfig {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model.parse().map_err(usage)?,
        };
        config.validate().map_err(|e| usage(e.to_string()))?;
        Ok(config)
    }
}

/// Node limit a move when no limit is given.
pub const DEFAULT_NODES: u64 = 1000;

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
    /// SHA-256 of the book file when the match started: a resume refuses a book that changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book_sha256: Option<String>,
    pub rules: GameRules,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSettings>,
    /// An extra copy of games.pgn written at the end (`--pgnout`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pgnout: Option<PathBuf>,
    /// Restart an external engine after a fault and go on (`--recover`); without it the
    /// match stops after the game with the fault.
    #[serde(default)]
    pub recover: bool,
    /// The command line that started the match.
    #[serde(default)]
    pub command: Vec<String>,
    pub engines: Vec<EngineConfig>,
}

impl MatchConfig {
    /// A match of `games` games (rounded up to whole pairs) between two engines from the
    /// standard position, on every core, seed 1, 16 MiB hash, no adjudication and no SPRT.
    pub fn new(first: EngineConfig, second: EngineConfig, games: u64) -> MatchConfig {
        MatchConfig {
            event: format!("{} vs {}", first.name, second.name),
            games: games.div_ceil(2) * 2,
            concurrency: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            hash_mb: 16,
            report_every: 50,
            book: None,
            book_sha256: None,
            rules: GameRules::default(),
            sprt: None,
            pgnout: None,
            recover: false,
            command: Vec::new(),
            engines: vec![first, second],
        }
    }

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
