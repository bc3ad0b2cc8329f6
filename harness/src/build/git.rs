//! The few git operations the builder needs, run through the `git` command.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

/// Runs `git` in `repo` and returns its trimmed stdout, or an error with its stderr.
pub fn git(repo: &Path, args: &[&str]) -> Result<String> {
    git_with_env(repo, args, &[])
}

fn git_with_env(repo: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<String> {
    let mut command = Command::new("git");
    command.arg("-C").arg(repo).args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command
        .output()
        .context("cannot run git (is it installed?)")?;
    if !output.status.success() {
        bail!(
            "`git {}` failed in {}: {}",
            args.join(" "),
            repo.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The top directory of the git work tree containing `dir`.
pub fn toplevel(dir: &Path) -> Result<PathBuf> {
    git(dir, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .with_context(|| format!("{} is not inside a git repository", dir.display()))
}

/// The full commit hash `reference` names, or `None` if it names no commit.
pub fn resolve_commit(repo: &Path, reference: &str) -> Option<String> {
    // `--end-of-options` keeps a reference that starts with '-' from being read as an option.
    git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{reference}^{{commit}}"),
        ],
    )
    .ok()
    .filter(|hash| !hash.is_empty())
}

/// The tree hash of a commit.
pub fn commit_tree(repo: &Path, commit: &str) -> Result<String> {
    git(repo, &["rev-parse", &format!("{commit}^{{tree}}")])
}

/// The tree hash of the work tree as it is now: tracked files with their uncommitted changes
/// and untracked files that are not ignored. Uses a scratch index under `scratch_dir`, so the
/// user's index is untouched; the file contents are stored as (unreferenced) git objects.
/// `scratch_dir` itself is left out when it lies inside the work tree.
pub fn work_tree_hash(repo: &Path, scratch_dir: &Path) -> Result<String> {
    fs::create_dir_all(scratch_dir)
        .with_context(|| format!("cannot create {}", scratch_dir.display()))?;
    let mut pathspec = vec![".".to_string()];
    if let (Ok(repo_abs), Ok(scratch_abs)) = (repo.canonicalize(), scratch_dir.canonicalize())
        && let Ok(inside) = scratch_abs.strip_prefix(&repo_abs)
        && !inside.as_os_str().is_empty()
        && !is_ignored(repo, inside)
    {
        pathspec.push(format!(":(exclude){}", inside.display()));
    }
    let index = scratch_dir.join(format!("index-{}", std::process::id()));
    // Starting from the real index lets git skip rehashing files whose stat data is unchanged.
    let real_index = PathBuf::from(git(
        repo,
        &["rev-parse", "--path-format=absolute", "--git-path", "index"],
    )?);
    if real_index.exists() {
        copy_keeping_mtime(&real_index, &index)?;
    }
    let env = [("GIT_INDEX_FILE", index.as_path())];
    let mut add = vec!["add", "--all", "--"];
    add.extend(pathspec.iter().map(String::as_str));
    let tree =
        git_with_env(repo, &add, &env).and_then(|_| git_with_env(repo, &["write-tree"], &env));
    let _ = fs::remove_file(&index);
    tree
}

/// Copies an index file with its modification time: git compares the index file's time with
/// its entries' to spot files changed within the same second ("racy git"); a fresh time on
/// the copy would make such an edit look unchanged.
fn copy_keeping_mtime(from: &Path, to: &Path) -> Result<()> {
    fs::copy(from, to).with_context(|| format!("cannot copy {}", from.display()))?;
    let modified = fs::metadata(from).and_then(|m| m.modified());
    let copy = fs::OpenOptions::new().write(true).open(to);
    match (modified, copy) {
        (Ok(time), Ok(file)) if file.set_modified(time).is_ok() => Ok(()),
        // Without the time, start from an empty index: slower (every file is hashed), exact.
        _ => fs::remove_file(to).with_context(|| format!("cannot remove {}", to.display())),
    }
}

/// True when git ignores `path` (relative to the work tree); naming an ignored path in
/// `git add` is an error, and excluding it is not needed.
fn is_ignored(repo: &Path, path: &Path) -> bool {
    Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["check-ignore", "-q", "--"])
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// Writes the files of `tree_ish` (a commit or tree hash) into the empty directory `dest`.
pub fn export(repo: &Path, tree_ish: &str, dest: &Path) -> Result<()> {
    fs::create_dir_all(dest).with_context(|| format!("cannot create {}", dest.display()))?;
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", tree_ish])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run git archive")?;
    let tar_input = archive.stdout.take().context("git archive has no stdout")?;
    let untar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dest)
        .stdin(tar_input)
        .output()
        .context("cannot run tar")?;
    let archived = archive.wait_with_output().context("git archive failed")?;
    if !archived.status.success() {
        bail!(
            "git archive {tree_ish} failed: {}",
            String::from_utf8_lossy(&archived.stderr).trim()
        );
    }
    if !untar.status.success() {
        bail!(
            "unpacking {tree_ish} into {} failed: {}",
            dest.display(),
            String::from_utf8_lossy(&untar.stderr).trim()
        );
    }
    Ok(())
}
