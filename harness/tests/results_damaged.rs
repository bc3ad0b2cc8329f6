//! A results folder whose games.csv was damaged (a repeated row, a row for a pair that is not
//! in the match, a last line cut off mid-write, a missing game) gets the same counts from
//! `harness elo --results`, the report, `harness match --resume` and its summary.json, and
//! each names what it skipped.

use std::path::Path;
use std::process::{Command, Output};

use harness::output::SummaryFile;

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .expect("cannot run harness")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `harness elo --results DIR --json`: (games, elo) and stderr.
fn elo_of(dir: &Path) -> (u64, Option<f64>, String) {
    let out = harness(&["elo", "--results", dir.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        json["games"].as_u64().unwrap(),
        json["elo"].as_f64(),
        text(&out.stderr),
    )
}

#[test]
fn damaged_folder_counts_agree_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().unwrap();
    let out = harness(&[
        "match",
        "--engine",
        "name=base",
        "--engine",
        "name=dev",
        "qsearch_depth=2",
        "--each",
        "nodes=300",
        "--games",
        "12",
        "--concurrency",
        "2",
        "--seed",
        "3",
        "--no-game-lines",
        "--out",
        dir_s,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Damage games.csv: drop game 11, repeat the row of game 3, add a row of pair 40 (the
    // match has 6 pairs) and a last line cut off mid-write.
    let csv_path = dir.join("games.csv");
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let mut lines: Vec<String> = csv
        .lines()
        .filter(|l| !l.starts_with("11,5,"))
        .map(String::from)
        .collect();
    let game3 = lines
        .iter()
        .find(|l| l.starts_with("3,1,"))
        .unwrap()
        .clone();
    let outside = game3.replacen("3,1,", "80,40,", 1);
    lines.push(game3);
    lines.push(outside);
    let mut damaged = lines.join("\n") + "\n";
    damaged.push_str("9,4,0,rnbqkbnr/pppp");
    std::fs::write(&csv_path, damaged).unwrap();

    // Before the resume: elo and the report agree, and both name what they skipped.
    let (games, elo, stderr) = elo_of(&dir);
    assert_eq!(games, 10, "five complete pairs");
    for needle in [
        "game 3 skipped",
        "repeated",
        "pair 40 is not in this match",
        "cut off mid-write",
    ] {
        assert!(
            stderr.contains(needle),
            "elo does not say '{needle}':\n{stderr}"
        );
    }
    let report = harness::report::build(&dir).unwrap();
    assert_eq!(report.analysis.summary.games, games);
    assert_eq!(report.analysis.summary.elo, elo);
    let notes = report.notes.join("\n");
    for needle in [
        "game 3 skipped",
        "pair 40 is not in this match",
        "cut off mid-write",
    ] {
        assert!(
            notes.contains(needle),
            "the report does not say '{needle}':\n{notes}"
        );
    }

    // Resume plays the missing game 11 only, and says what it skipped.
    let out = harness(&["match", "--resume", dir_s, "--no-game-lines"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    for needle in [
        "game 3 skipped",
        "pair 40 is not in this match",
        "played again",
    ] {
        assert!(
            stderr.contains(needle),
            "resume does not say '{needle}':\n{stderr}"
        );
    }
    let stdout = text(&out.stdout);
    assert!(stdout.contains("12 games (11 done)"), "{stdout}");

    // After it: summary.json, elo and the report give the same counts.
    let summary = SummaryFile::load(&dir).unwrap();
    let (games, elo, _) = elo_of(&dir);
    assert_eq!(summary.stats.games, 12);
    assert_eq!(games, 12);
    assert_eq!(summary.stats.elo, elo);
    assert!(
        summary.skipped.iter().any(|s| s.contains("repeated")),
        "{:?}",
        summary.skipped
    );
    assert!(
        summary.skipped.iter().any(|s| s.contains("pair 40")),
        "{:?}",
        summary.skipped
    );
    let report = harness::report::build(&dir).unwrap();
    assert_eq!(report.analysis.summary.games, 12);
    assert_eq!(report.analysis.summary.elo, elo);
    assert_eq!(
        report.analysis.pentanomial.unwrap().counts,
        summary.pentanomial
    );
}
