//! Running cargo on exported sources with a target folder shared by all revisions.
//!
//! Sharing the target folder means dependencies compile once. But cargo identifies a
//! workspace package without its path and decides freshness by file times, so sources
//! exported from another revision can look up to date and the old binary would be reused.
//! Hence each build cleans the workspace's own packages first, under a lock so two harness
//! runs cannot interleave their clean and build.

use std::fs::{self, File, OpenOptions};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use anyhow::{Context, Result, bail};

/// An exclusive lock on a file, released on drop (or when the process dies).
struct FileLock {
    _file: File,
}

impl FileLock {
    fn acquire(path: &Path) -> Result<FileLock> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open the lock file {}", path.display()))?;
        // SAFETY: flock(2) on a descriptor we own; no memory is passed.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        if locked != 0 {
            bail!(
                "cannot lock {}: {}",
                path.display(),
                std::io::Error::last_os_error()
            );
        }
        Ok(FileLock { _file: file })
    }
}

fn cargo_program() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

fn run(args: &[&str], target_dir: Option<&Path>, dir: &Path) -> Result<Output> {
    let mut command = Command::new(cargo_program());
    command.args(args).current_dir(dir).stdin(Stdio::null());
    if let Some(target_dir) = target_dir {
        command.arg("--target-dir").arg(target_dir);
    }
    command
        .output()
        .with_context(|| format!("cannot run cargo {}", args.join(" ")))
}

/// Names of the workspace's own packages in `dir`.
fn workspace_packages(dir: &Path) -> Result<Vec<String>> {
    let output = run(
        &["metadata", "--no-deps", "--format-version", "1"],
        None,
        dir,
    )?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("cargo metadata output")?;
    let names = metadata["packages"]
        .as_array()
        .map(|packages| {
            packages
                .iter()
                .filter_map(|p| p["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Ok(names)
}

/// The outcome of `cargo build --release -p engine`: the binary, or the failure with cargo's
/// full output.
pub enum BuildOutcome {
    Built(PathBuf),
    Failed {
        status: std::process::ExitStatus,
        output: String,
    },
}

/// Builds the `engine` binary of the sources in `sources` into `target_dir` (shared).
pub fn build_engine(sources: &Path, target_dir: &Path) -> Result<BuildOutcome> {
    fs::create_dir_all(target_dir)
        .with_context(|| format!("cannot create {}", target_dir.display()))?;
    let _lock = FileLock::acquire(&target_dir.join("harness-build.lock"))?;
    let packages = workspace_packages(sources)?;
    let mut clean = vec!["clean", "--release"];
    for package in &packages {
        clean.extend(["-p", package.as_str()]);
    }
    if !packages.is_empty() {
        // Cleaning fails harmlessly when nothing was built yet.
        let _ = run(&clean, Some(target_dir), sources)?;
    }
    let output = run(
        &["build", "--release", "-p", "engine", "--bin", "engine"],
        Some(target_dir),
        sources,
    )?;
    if !output.status.success() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        return Ok(BuildOutcome::Failed {
            status: output.status,
            output: text,
        });
    }
    Ok(BuildOutcome::Built(
        target_dir.join("release").join("engine"),
    ))
}
