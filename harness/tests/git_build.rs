//! Building engines from git revisions, on a throw-away repository whose `engine` package is a
//! few lines (builds in about a second): commit builds, the cache, WORKTREE with uncommitted
//! changes, a failing build, an unknown revision, and reading `bench`.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use harness::build::bench::run_bench;
use harness::build::{BuildCache, Revision};

fn git(repo: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args([
            "-c",
            "user.name=test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn write_engine(repo: &Path, bench_nodes: u64) {
    fs::write(
        repo.join("src/main.rs"),
        format!(
            "fn main() {{\n    if std::env::args().nth(1).as_deref() == Some(\"bench\") {{\n        println!(\"1 nodes 1 nps\");\n        println!(\"{bench_nodes} nodes 5000 nps\");\n    }}\n}}\n"
        ),
    )
    .unwrap();
}

fn git_available() -> bool {
    let ok = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        engine::testing::skip("git not found");
    }
    ok
}

#[test]
fn builds_revisions_and_the_work_tree_with_a_cache() {
    if !git_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    fs::create_dir(repo.join("src")).unwrap();
    fs::write(
        repo.join("Cargo.toml"),
        "[package]\nname = \"engine\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"engine\"\npath = \"src/main.rs\"\n",
    )
    .unwrap();
    write_engine(repo, 1111);
    git(repo, &["init", "-q", "-b", "main"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "first"]);

    // The cache inside the repository and not ignored: it must not count as a change.
    let cache = BuildCache::new(repo, repo.join("target/harness-builds"));
    let mut log = Vec::new();
    let first = cache
        .build(&Revision::parse("main"), &mut |m| log.push(m.to_string()))
        .expect("build main");
    assert!(!first.reused);
    assert_eq!(first.revision.key.len(), 40, "keyed by commit hash");
    assert!(
        log.iter().any(|l| l.contains("building engine at main")),
        "{log:?}"
    );
    assert_eq!(
        run_bench(&first.binary, Duration::from_secs(30))
            .unwrap()
            .nodes,
        1111
    );

    let again = cache
        .build(&Revision::Commit("HEAD".into()), &mut |_| {})
        .expect("cached");
    assert!(again.reused);
    assert_eq!(again.binary, first.binary);
    // A clean work tree is its HEAD commit.
    let clean = cache
        .build(&Revision::WorkTree, &mut |_| {})
        .expect("clean worktree");
    assert!(clean.reused);
    assert_eq!(clean.revision.key, first.revision.key);

    // Uncommitted change: a new key, a new binary; the commit's binary is unchanged.
    write_engine(repo, 2222);
    let dirty = cache
        .build(&Revision::WorkTree, &mut |_| {})
        .expect("dirty worktree");
    assert!(!dirty.reused);
    assert!(
        dirty.revision.key.starts_with("worktree-"),
        "{}",
        dirty.revision.key
    );
    assert_eq!(
        run_bench(&dirty.binary, Duration::from_secs(30))
            .unwrap()
            .nodes,
        2222
    );
    assert_eq!(
        run_bench(&first.binary, Duration::from_secs(30))
            .unwrap()
            .nodes,
        1111
    );
    assert!(
        cache
            .build(&Revision::WorkTree, &mut |_| {})
            .unwrap()
            .reused,
        "same edits, same key"
    );

    // An untracked (not ignored) file is part of the work tree too.
    fs::write(repo.join("notes.txt"), "x").unwrap();
    let untracked = cache.resolve(&Revision::WorkTree).unwrap();
    assert_ne!(untracked.key, dirty.revision.key);

    // A build failure names the revision and quotes cargo's error; nothing is cached.
    fs::write(repo.join("src/main.rs"), "fn main() { this is not rust }\n").unwrap();
    git(repo, &["commit", "-q", "-am", "broken"]);
    let err = cache
        .build(&Revision::parse("HEAD"), &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("building the engine at HEAD"), "{err}");
    assert!(err.contains("error"), "quotes cargo: {err}");
    let broken = cache.resolve(&Revision::parse("HEAD")).unwrap();
    assert!(!cache.binary_path(&broken.key).exists());

    let err = cache
        .build(&Revision::parse("no-such-branch"), &mut |_| {})
        .unwrap_err();
    assert!(err.downcast_ref::<harness::UsageError>().is_some(), "{err}");
    assert!(err.to_string().contains("no-such-branch"), "{err}");

    // The user's index was never touched by the WORKTREE hashing.
    let status = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["status", "--porcelain"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "?? notes.txt\n?? target/\n"
    );
}

#[test]
fn bench_failures_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("engine");
    fs::write(&script, "#!/bin/sh\necho 'no numbers here'\n").unwrap();
    let mut perms = fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&script, perms).unwrap();
    // The whole chain, so a failure to start the script shows its cause.
    let err = format!(
        "{:#}",
        run_bench(&script, Duration::from_secs(10)).unwrap_err()
    );
    assert!(err.contains("no `<N> nodes <NPS> nps` line"), "{err}");
    assert!(err.contains("no numbers here"), "quotes the output: {err}");
}

/// The end-to-end check on this repository: builds the real engine at HEAD and from the work
/// tree, then runs its bench. Release builds take minutes on a small machine, so by hand:
/// `cargo test -p harness --test git_build -- --ignored --nocapture`
/// (`HARNESS_BUILD_CACHE=DIR` keeps the cache between runs).
#[test]
#[ignore = "builds the real engine in release mode; run by hand"]
fn builds_this_repositorys_engine() {
    use std::time::Instant;
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scratch = tempfile::tempdir().unwrap();
    let cache_dir = std::env::var_os("HARNESS_BUILD_CACHE")
        .map_or_else(|| scratch.path().to_path_buf(), Into::into);
    let cache = BuildCache::new(&repo, cache_dir);
    for revision in [
        Revision::parse("HEAD"),
        Revision::WorkTree,
        Revision::parse("HEAD"),
    ] {
        let began = Instant::now();
        let built = cache
            .build(&revision, &mut |m| eprintln!("{m}"))
            .expect("build");
        eprintln!(
            "{:?}: {} ({}) in {:.1?}",
            revision,
            built.binary.display(),
            if built.reused { "cached" } else { "built" },
            began.elapsed()
        );
        match run_bench(&built.binary, Duration::from_secs(600)) {
            Ok(bench) => eprintln!("  bench: {} nodes {} nps", bench.nodes, bench.nps),
            Err(err) => eprintln!("  bench: {err:#}"),
        }
    }
}

/// An edit right after a commit, of the same size, in the same second: git's stat data cannot
/// tell it apart; only its "racy" check (the index file's time against the file's) can, and a
/// copy of the index with a fresh time would defeat it once a second has passed.
#[test]
fn worktree_sees_same_size_edits_made_right_after_a_commit() {
    if !git_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q", "-b", "main"]);
    let cache = BuildCache::new(repo, dir.path().join(".cache"));
    fs::write(repo.join(".gitignore"), "/.cache\n").unwrap();
    fs::write(repo.join("file.txt"), "version a\n").unwrap();
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "first"]);
    fs::write(repo.join("file.txt"), "version b\n").unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    let resolved = cache.resolve(&Revision::WorkTree).unwrap();
    assert!(resolved.key.starts_with("worktree-"), "the edit was missed");
}
