//! `harness extract` end to end: a match's games.pgn becomes labelled positions that
//! `train-net` reads; bad input is a usage error naming the file and line.

use std::path::Path;
use std::process::{Command, Output};

fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .current_dir(std::env::temp_dir())
        .args(args)
        .output()
        .expect("run harness")
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_matchs_games_become_score_lines() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let played = harness(&[
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--each",
        "nodes=300",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--seed",
        "7",
        "--no-game-lines",
        "--out",
        text(&run),
    ]);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let pgn = run.join("games.pgn");
    let out = dir.path().join("positions.txt");
    // The same file twice: its positions are all written once.
    let extracted = harness(&[
        "extract",
        "--quiet",
        "--pgn",
        text(&pgn),
        text(&pgn),
        "--out",
        text(&out),
    ]);
    let stdout = String::from_utf8_lossy(&extracted.stdout);
    assert!(
        extracted.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&extracted.stderr)
    );
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(lines.len() > 20, "{stdout}");
    assert!(
        stdout.starts_with(&format!(
            "Wrote {} positions from 8 games of 2 files",
            lines.len()
        )),
        "{stdout}"
    );
    // The second copy adds nothing: the file is as one copy's.
    let once = dir.path().join("once.txt");
    let single = harness(&[
        "extract",
        "--quiet",
        "--pgn",
        text(&pgn),
        "--out",
        text(&once),
    ]);
    assert!(single.status.success());
    assert_eq!(
        std::fs::read_to_string(&once).unwrap(),
        std::fs::read_to_string(&out).unwrap()
    );
    for line in &lines {
        let fields: Vec<&str> = line.split("; ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
    }
    // And train-net reads them.
    let net = dir.path().join("net.nnue");
    let trained = harness(&[
        "train-net",
        "--data",
        text(&out),
        "--out",
        text(&net),
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    assert!(
        trained.status.success(),
        "{}",
        String::from_utf8_lossy(&trained.stderr)
    );
}

#[test]
fn bad_input_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let missing = dir.path().join("missing.pgn");
    let output = harness(&["extract", "--pgn", text(&missing), "--out", text(&out)]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("missing.pgn: no such file"), "{stderr}");

    let bad = dir.path().join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"x\"]\n\n1. e4 {+0.10/5 0.1s} e5\n2. Ke3 1-0\n",
    )
    .unwrap();
    let output = harness(&["extract", "--pgn", text(&bad), "--out", text(&out)]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.pgn:4: 'Ke3' is not a legal move"),
        "{stderr}"
    );
}
