//! `harness spsa` end to end at a small node count: the output folder (spsa.csv, tuned.toml,
//! the games), the same tune interrupted and resumed giving the same trajectory, and usage
//! errors.

use std::path::Path;
use std::process::Command;

fn harness(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .expect("cannot run harness")
}

fn tune(out: &Path, extra: &[&str]) -> std::process::Output {
    let params = if extra.contains(&"--params") {
        vec![]
    } else {
        vec!["--params", "delta_margin,qsearch_depth"]
    };
    let mut args = vec![
        "spsa",
        "--engine",
        "name=x",
        "delta_margin=600",
        "qsearch_depth=3",
        "--each",
        "nodes=150",
        "--iterations",
        "6",
        "--pairs-per-iteration",
        "2",
        "--concurrency",
        "2",
        "--seed",
        "3",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend(params);
    args.extend_from_slice(extra);
    harness(&args)
}

#[test]
fn a_tune_writes_its_folder_and_resumes_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let out = tune(&whole, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(whole.join("spsa.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.starts_with("iteration,k,games,wins,draws,losses,c.delta_margin"));
    for row in csv.lines().skip(1) {
        assert_eq!(
            row.split(',').nth(2),
            Some("4"),
            "2 pairs an iteration: {row}"
        );
    }
    let games = std::fs::read_to_string(whole.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 6 * 4);
    // tuned.toml is a parameter file the engine and harness match read.
    let tuned = std::fs::read_to_string(whole.join("tuned.toml")).unwrap();
    let mut params = engine::params::Params::default();
    params.apply_toml_str(&tuned, "tuned.toml").unwrap();
    // The report shows each parameter's start and tuned value, and draws the trajectories.
    let report = std::fs::read_to_string(whole.join("report.md")).unwrap();
    let row = report
        .lines()
        .find(|l| l.starts_with("| delta_margin |"))
        .unwrap_or_else(|| panic!("no delta_margin row in report.md:\n{report}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[2], "600", "start: {row}");
    assert_eq!(
        format!("delta_margin = {}", cells[3]),
        tuned
            .lines()
            .find(|l| l.starts_with("delta_margin"))
            .unwrap(),
        "tuned value: {row}"
    );
    assert!(report.contains("6 iterations applied of 6"), "{report}");
    let svg = std::fs::read_to_string(whole.join("trajectory.svg")).unwrap();
    assert!(
        svg.contains("qsearch_depth") && svg.contains("<polyline"),
        "{svg}"
    );

    // The same tune interrupted after two iterations and resumed ends on the same trajectory.
    let parts = tmp.path().join("parts");
    let out = harness(&["spsa", "--resume", parts.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "no tune there yet");
    let out = tune(&parts, &["--stop-after", "2"]);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = std::fs::read_to_string(parts.join("spsa.csv")).unwrap();
    assert!(first.lines().count() < 7, "{first}");
    let again = tune(&parts, &[]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "a second tune in the same folder is refused"
    );
    let out = harness(&["spsa", "--resume", parts.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(parts.join("spsa.csv")).unwrap(),
        csv,
        "the resumed tune took another path"
    );
    let resumed_games = std::fs::read_to_string(parts.join("games.csv")).unwrap();
    assert_eq!(
        resumed_games.lines().count(),
        1 + 6 * 4,
        "each game written once"
    );

    // Games written by iterations that the checkpoint does not hold (here: all of them, the
    // checkpoint removed) are played again on resume but not written twice.
    std::fs::remove_file(parts.join("state.json")).unwrap();
    let out = harness(&["spsa", "--resume", parts.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(parts.join("games.csv")).unwrap(),
        resumed_games,
        "replayed games are not written again"
    );
    assert_eq!(
        std::fs::read_to_string(parts.join("spsa.csv")).unwrap(),
        csv
    );
}

#[test]
fn bad_parameters_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tune(&tmp.path().join("a"), &["--params", "delta_margn"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("delta_margn") && err.contains("delta_margin"),
        "{err}"
    );
    let out = harness(&[
        "spsa",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--iterations",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly one --engine"));

    // A parameter the engine does not have, ours or an external one's `uci` options: an
    // error naming it before anything is written.
    let file = tmp.path().join("params.txt");
    std::fs::write(&file, "no_such_knob, int, 5, 0, 10, 1, 0.002\n").unwrap();
    let fake = format!("cmd={}", env!("CARGO_BIN_EXE_fake-uci"));
    for engine in ["name=ours", fake.as_str()] {
        let dir = tmp.path().join("unknown");
        let out = harness(&[
            "spsa",
            "--engine",
            engine,
            "--params-file",
            file.to_str().unwrap(),
            "--each",
            "nodes=100",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {err}");
        assert!(err.contains("no_such_knob"), "{engine}: {err}");
        assert!(!dir.exists(), "{engine}: nothing written");
    }
}
