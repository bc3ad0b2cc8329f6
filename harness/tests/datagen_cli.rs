//! `harness datagen` end to end: same seed, same file; bad options exit with code 2; a killed
//! run leaves whole lines, and `--resume` carries it on to the uninterrupted run's file.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn harness() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_harness"));
    command.current_dir(std::env::temp_dir());
    command.arg("datagen");
    command
}

fn datagen(out: &Path, extra: &[&str]) -> Output {
    harness()
        .arg("--out")
        .arg(out)
        .args(["--nodes", "300", "--hash", "1", "--quiet"])
        .args(extra)
        .output()
        .expect("run harness")
}

#[test]
fn same_seed_gives_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, args: &[&str]| {
        let out = dir.path().join(name);
        let output = datagen(&out, args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::read_to_string(out).unwrap()
    };
    let base = ["--positions", "150", "--no-book"];
    let first = run(
        "a",
        &[&base[..], &["--seed", "42", "--concurrency", "1"]].concat(),
    );
    let second = run(
        "b",
        &[&base[..], &["--seed", "42", "--concurrency", "1"]].concat(),
    );
    assert_eq!(first.lines().count(), 150);
    assert_eq!(first, second, "same seed, concurrency 1: different files");
    // Games are written in game order, so the thread count does not matter either.
    let parallel = run(
        "c",
        &[&base[..], &["--seed", "42", "--concurrency", "2"]].concat(),
    );
    assert_eq!(first, parallel, "same seed, concurrency 2: different file");
    let other = run(
        "d",
        &[&base[..], &["--seed", "43", "--concurrency", "1"]].concat(),
    );
    assert_ne!(first, other, "another seed gives the same file");
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let zero = datagen(&out, &["--positions", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--positions"));
    let negative = datagen(&out, &["--positions", "10", "--max-opening-score=-5"]);
    assert_eq!(negative.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&negative.stderr).contains("--max-opening-score -5"));

    let missing = dir.path().join("no-such-book.epd");
    let output = datagen(
        &out,
        &["--positions", "10", "--book", missing.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-book.epd"));

    let bad_book = dir.path().join("bad.epd");
    std::fs::write(
        &bad_book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
    )
    .unwrap();
    let output = datagen(
        &out,
        &["--positions", "10", "--book", bad_book.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.epd:2"), "{stderr}");

    // Nothing to resume: the missing record is named.
    let output = datagen(&out, &["--positions", "10", "--no-book", "--resume"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("x.progress"), "{stderr}");
}

/// Starts an open-ended run into `out` (no seed: one from the clock) and kills it once it
/// has written some games.
fn killed_run(out: &Path) {
    let mut child = harness()
        .arg("--out")
        .arg(out)
        .args([
            "--positions",
            "100000000",
            "--nodes",
            "300",
            "--hash",
            "1",
            "--quiet",
            "--no-book",
            "--concurrency",
            "2",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::metadata(out).map_or(0, |m| m.len()) < 20_000 {
        assert!(started.elapsed() < Duration::from_secs(60), "no output");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn killed_run_leaves_whole_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data.book");
    killed_run(&out);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'), "partial last line");
    for line in text.lines() {
        let (fen, label) = line.rsplit_once(' ').unwrap();
        assert!(["[1.0]", "[0.5]", "[0.0]"].contains(&label), "{line}");
        fen.parse::<shakmaty::fen::Fen>().unwrap();
    }
}

#[test]
fn killed_run_resumed_gives_the_uninterrupted_runs_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data.book");
    killed_run(&out);
    let written = std::fs::read_to_string(&out).unwrap().lines().count();
    let target = (written + 100).to_string();
    // The same command with --resume (and a target to reach): the seed comes from the record.
    let resumed = datagen(
        &out,
        &[
            "--positions",
            &target,
            "--no-book",
            "--concurrency",
            "2",
            "--resume",
        ],
    );
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let record = std::fs::read_to_string(dir.path().join("data.book.progress")).unwrap();
    let seed = record
        .lines()
        .find_map(|line| line.strip_prefix("seed = "))
        .unwrap_or_else(|| panic!("no seed in {record}"))
        .trim_matches('"');
    let whole = dir.path().join("whole.book");
    let uninterrupted = datagen(
        &whole,
        &[
            "--positions",
            &target,
            "--no-book",
            "--concurrency",
            "1",
            "--seed",
            seed,
        ],
    );
    assert!(uninterrupted.status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "killed and resumed, the file differs from the uninterrupted run's"
    );
}
