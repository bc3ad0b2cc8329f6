//! External UCI engines in a match: turning `cmd=`/`git=` keys into an [`ExternalEngine`]
//! (building git revisions and reading their bench), and starting one as a player.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use super::config::{EngineConfig, ExternalEngine, GitBuild};
use crate::UsageError;
use crate::build::bench::run_bench;
use crate::build::{BuildCache, ResolvedRevision, Revision};
use crate::game::UciPlayer;
use crate::uci::UciError;

/// How long `engine bench` may run before it counts as broken.
const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

/// The external-engine keys of one `--engine`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExternalSpec {
    pub cmd: Option<PathBuf>,
    pub git: Option<String>,
    pub args: Option<Vec<String>>,
    pub dir: Option<PathBuf>,
    /// `option.NAME=VALUE` and plain `NAME=VALUE` keys, in the order given.
    pub options: Vec<(String, String)>,
}

impl ExternalSpec {
    /// True when the engine is external (`cmd=` or `git=`).
    pub fn is_external(&self) -> bool {
        self.cmd.is_some() || self.git.is_some()
    }

    /// The engine to run: for `git=`, builds (or reuses) the revision's binary and runs its
    /// bench, reporting progress on stderr.
    pub fn resolve(&self, name: &str) -> anyhow::Result<ExternalEngine> {
        let usage = |message: String| anyhow::Error::new(UsageError(message));
        let (command, git, default_args) = match (&self.cmd, &self.git) {
            (Some(_), Some(_)) => {
                return Err(usage(format!(
                    "--engine name={name}: give cmd= or git=, not both"
                )));
            }
            (Some(cmd), None) => (cmd.clone(), None, Vec::new()),
            (None, Some(reference)) => {
                let cache = BuildCache::for_current_repo()
                    .map_err(|e| usage(format!("--engine git={reference}: {e:#}")))?;
                let built = cache.build(&Revision::parse(reference), &mut |m| eprintln!("{m}"))?;
                eprintln!(
                    "engine '{name}': {} ({})",
                    built.binary.display(),
                    if built.reused {
                        "cached build"
                    } else {
                        "built"
                    }
                );
                let bench_nodes = bench_nodes(name, &built.binary);
                let git = git_build(reference, &built.revision, bench_nodes);
                // Our engine lists every parameter as an option only when asked.
                (built.binary, Some(git), vec!["--all-options".to_string()])
            }
            (None, None) => return Err(usage(format!("--engine name={name}: give cmd= or git="))),
        };
        Ok(ExternalEngine {
            command,
            args: self.args.clone().unwrap_or(default_args),
            dir: self.dir.clone(),
            options: self.options.clone(),
            git,
        })
    }
}

fn git_build(reference: &str, revision: &ResolvedRevision, bench_nodes: Option<u64>) -> GitBuild {
    GitBuild {
        reference: reference.to_string(),
        key: revision.key.clone(),
        tree_ish: revision.tree_ish.clone(),
        description: revision.description.clone(),
        bench_nodes,
    }
}

/// The bench node count of `binary`, or `None` with a warning.
fn bench_nodes(name: &str, binary: &std::path::Path) -> Option<u64> {
    match run_bench(binary, BENCH_TIMEOUT) {
        Ok(bench) => Some(bench.nodes),
        Err(e) => {
            eprintln!("warning: engine '{name}': no bench node count: {e:#}");
            None
        }
    }
}

/// For a resumed match: rebuilds a `git=` engine whose cached binary has gone.
pub fn ensure_built(name: &str, engine: &mut ExternalEngine) -> anyhow::Result<()> {
    let Some(git) = &engine.git else {
        return Ok(());
    };
    if engine.command.is_file() {
        return Ok(());
    }
    let cache = BuildCache::for_current_repo()?;
    let revision = ResolvedRevision {
        key: git.key.clone(),
        tree_ish: git.tree_ish.clone(),
        description: git.description.clone(),
    };
    let built = cache
        .build_resolved(revision, &mut |m| eprintln!("{m}"))
        .with_context(|| format!("rebuilding engine '{name}'"))?;
    engine.command = built.binary;
    Ok(())
}

/// Starts an external engine as a player. Configuration errors (no such program, unknown
/// option, bad value) are usage errors.
pub fn start_player(
    engine: &EngineConfig,
    external: &ExternalEngine,
    hash_mb: usize,
) -> anyhow::Result<UciPlayer> {
    let config = external.uci_config(&engine.name, hash_mb);
    let margin = Duration::from_millis(engine.limits.time_margin_ms);
    UciPlayer::start(config, margin).map_err(|e| match e {
        UciError::Spawn { .. }
        | UciError::UnknownOption { .. }
        | UciError::BadOptionValue { .. } => anyhow::Error::new(UsageError(e.to_string())),
        other => {
            anyhow::Error::new(other).context(format!("engine '{}' failed to start", engine.name))
        }
    })
}
