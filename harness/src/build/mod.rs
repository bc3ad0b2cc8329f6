//! Engine binaries built from git revisions, for matches between two versions of the code.
//!
//! `git=REF` builds the `engine` package of the commit REF names; `git=WORKTREE` builds the
//! work tree as it is now, uncommitted changes and untracked (not ignored) files included.
//! Either way the sources are exported from git into a scratch folder (`git archive`, so the
//! user's checkout and index are never touched), built with `cargo build --release -p engine`
//! into a target folder shared by all builds (dependencies compile once), and the binary is
//! kept as `<cache>/<key>/engine`. The key is the commit hash for a commit, and
//! `worktree-<tree hash>` for a dirty work tree, the tree hash being git's hash of exactly those
//! file contents: building the same sources again reuses the binary, and any edit makes a new
//! key. A clean work tree is its HEAD commit.
//!
//! The cache is `target/harness-builds/` in the repository, or `$HARNESS_BUILD_CACHE`.

pub mod bench;
mod cargo;
pub mod git;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::usage_bail;

/// Which sources to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Revision {
    /// A branch, tag, commit hash or any other git revision expression.
    Commit(String),
    /// The current work tree with its uncommitted changes.
    WorkTree,
}

impl Revision {
    /// `WORKTREE` (any case) is the work tree; anything else a git revision.
    pub fn parse(text: &str) -> Revision {
        if text.eq_ignore_ascii_case("worktree") {
            Revision::WorkTree
        } else {
            Revision::Commit(text.to_string())
        }
    }
}

/// A revision pinned to exact sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedRevision {
    /// The cache key: the commit hash, or `worktree-<tree hash>`.
    pub key: String,
    /// What to give `git archive`: the commit or tree hash.
    pub tree_ish: String,
    /// For people: `main (1a2b3c4d5e6f)`, `WORKTREE (HEAD 1a2b3c4d5e6f + changes)`.
    pub description: String,
}

/// A built engine binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltEngine {
    pub binary: PathBuf,
    pub revision: ResolvedRevision,
    /// True when the binary came from the cache without building.
    pub reused: bool,
}

/// Builds and caches engine binaries of one repository.
#[derive(Clone, Debug)]
pub struct BuildCache {
    repo: PathBuf,
    cache_dir: PathBuf,
}

/// How many lines of cargo's output a build failure quotes.
const FAILURE_TAIL_LINES: usize = 30;

impl BuildCache {
    /// A cache for the repository at `repo`, keeping binaries under `cache_dir`.
    pub fn new(repo: impl Into<PathBuf>, cache_dir: impl Into<PathBuf>) -> Self {
        BuildCache {
            repo: repo.into(),
            cache_dir: cache_dir.into(),
        }
    }

    /// The cache for the repository containing the current directory.
    pub fn for_current_repo() -> Result<Self> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let repo = git::toplevel(&cwd)?;
        let cache_dir = match std::env::var_os("HARNESS_BUILD_CACHE") {
            Some(dir) => PathBuf::from(dir),
            None => repo.join("target").join("harness-builds"),
        };
        Ok(BuildCache::new(repo, cache_dir))
    }

    pub fn repo(&self) -> &Path {
        &self.repo
    }

    pub fn cache_dir(&self) -> &Path {
        &self.cache_dir
    }

    /// Pins `revision` to exact sources. An unknown revision is a usage error.
    pub fn resolve(&self, revision: &Revision) -> Result<ResolvedRevision> {
        let short = |hash: &str| hash.chars().take(12).collect::<String>();
        match revision {
            Revision::Commit(reference) => {
                let Some(commit) = git::resolve_commit(&self.repo, reference) else {
                    usage_bail!(
                        "git revision '{reference}' names no commit in {}",
                        self.repo.display()
                    );
                };
                Ok(ResolvedRevision {
                    description: format!("{reference} ({})", short(&commit)),
                    key: commit.clone(),
                    tree_ish: commit,
                })
            }
            Revision::WorkTree => {
                let head = git::resolve_commit(&self.repo, "HEAD");
                let tree = git::work_tree_hash(&self.repo, &self.cache_dir)?;
                let head_tree = head
                    .as_deref()
                    .map(|h| git::commit_tree(&self.repo, h))
                    .transpose()?;
                match head {
                    Some(head) if head_tree.as_deref() == Some(tree.as_str()) => {
                        Ok(ResolvedRevision {
                            description: format!("WORKTREE (clean, HEAD {})", short(&head)),
                            key: head.clone(),
                            tree_ish: head,
                        })
                    }
                    _ => Ok(ResolvedRevision {
                        description: match &head {
                            Some(head) => format!(
                                "WORKTREE (HEAD {} + changes, tree {})",
                                short(head),
                                short(&tree)
                            ),
                            None => format!("WORKTREE (tree {})", short(&tree)),
                        },
                        key: format!("worktree-{tree}"),
                        tree_ish: tree,
                    }),
                }
            }
        }
    }

    /// Where the binary for `key` is kept.
    pub fn binary_path(&self, key: &str) -> PathBuf {
        self.cache_dir.join(key).join("engine")
    }

    /// The engine binary of `revision`: from the cache, or built now. `progress` hears what
    /// is happening (a build takes a while). A failed build is an error quoting the end of
    /// cargo's output; its full log stays in the cache folder.
    pub fn build(
        &self,
        revision: &Revision,
        progress: &mut dyn FnMut(&str),
    ) -> Result<BuiltEngine> {
        let resolved = self.resolve(revision)?;
        self.build_resolved(resolved, progress)
    }

    /// [`build`](Self::build) for a revision already pinned (as a resumed match recorded it).
    pub fn build_resolved(
        &self,
        resolved: ResolvedRevision,
        progress: &mut dyn FnMut(&str),
    ) -> Result<BuiltEngine> {
        let binary = self.binary_path(&resolved.key);
        if binary.is_file() {
            return Ok(BuiltEngine {
                binary,
                revision: resolved,
                reused: true,
            });
        }
        let entry = self.cache_dir.join(&resolved.key);
        // Per-process scratch names let two harness runs build the same revision at once.
        let sources = entry.join(format!("src-{}", std::process::id()));
        let _ = fs::remove_dir_all(&sources);
        progress(&format!(
            "building engine at {} in {}",
            resolved.description,
            entry.display()
        ));
        git::export(&self.repo, &resolved.tree_ish, &sources)?;
        let built = self.cargo_build(&sources, &entry, &resolved);
        let _ = fs::remove_dir_all(&sources);
        let target_binary = built?;

        let staged = entry.join(format!("engine.tmp-{}", std::process::id()));
        fs::copy(&target_binary, &staged).with_context(|| {
            format!(
                "cannot copy {} to {}",
                target_binary.display(),
                staged.display()
            )
        })?;
        fs::rename(&staged, &binary)
            .with_context(|| format!("cannot move the binary to {}", binary.display()))?;
        fs::write(
            entry.join("revision.txt"),
            format!("{}\n", resolved.description),
        )
        .with_context(|| format!("cannot write in {}", entry.display()))?;
        Ok(BuiltEngine {
            binary,
            revision: resolved,
            reused: false,
        })
    }

    /// `cargo build --release -p engine` in `sources`; returns the path of the built binary.
    fn cargo_build(
        &self,
        sources: &Path,
        entry: &Path,
        resolved: &ResolvedRevision,
    ) -> Result<PathBuf> {
        let target_dir = self.cache_dir.join("cargo-target");
        match cargo::build_engine(sources, &target_dir)? {
            cargo::BuildOutcome::Built(binary) => Ok(binary),
            cargo::BuildOutcome::Failed { status, output } => {
                let log = entry.join("build.log");
                fs::write(&log, &output)
                    .with_context(|| format!("cannot write {}", log.display()))?;
                let lines: Vec<&str> = output.lines().collect();
                let tail = lines[lines.len().saturating_sub(FAILURE_TAIL_LINES)..].join("\n");
                anyhow::bail!(
                    "building the engine at {} failed ({status}); full log: {}\n{tail}",
                    resolved.description,
                    log.display()
                );
            }
        }
    }
}
