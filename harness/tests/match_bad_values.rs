//! Every bad number or name given to `harness match` is a usage error (exit 2) that names the
//! option, the key and the value and the accepted range; none aborts or runs a wrong match.

use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(tmp.path().join("run"))
        .output()
        .expect("cannot run harness");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_values_name_option_value_and_range() {
    let two = ["--engine", "name=a", "--engine", "name=b"];
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (
            vec!["--each", "tc=1e20+0"],
            &[
                "--each",
                "time control '1e20+0'",
                "out of range",
                "1000000 seconds",
            ],
        ),
        (
            vec!["--hash", "100000"],
            &["--hash 100000", "accepted: 1 to 65536"],
        ),
        (
            vec!["--games", "10000000000"],
            &["--games 10000000000", "accepted: 1 to 1000000000"],
        ),
        (
            vec!["--games", "18446744073709551615"],
            &["--games 18446744073709551615", "out of range"],
        ),
        (vec!["--games", "0"], &["--games 0", "accepted: 1 to"]),
        (
            vec!["--each", "nodes=0"],
            &["--each: nodes=0", "accepted: 1 to"],
        ),
        (vec!["--each", "nodes=-1"], &["nodes=-1", "accepted: 1 to"]),
        (
            vec!["--each", "depth=300"],
            &["depth=300", "accepted: 1 to 255"],
        ),
        (vec!["--each", "st=0"], &["st=0", "accepted: 0.001 to"]),
        (vec!["--maxmoves", "0"], &["--maxmoves 0", "accepted: 1 to"]),
        (
            vec!["--resign", "movecount=3", "score=-5"],
            &["--resign: score=-5", "accepted: 1 to"],
        ),
        (
            vec!["--draw", "movenumber=1", "movecount=0", "score=5"],
            &["movecount=0"],
        ),
        (
            vec!["--concurrency", "10000"],
            &["--concurrency 10000", "accepted: 1 to 4096"],
        ),
        (vec!["--rounds", "0"], &["--rounds 0"]),
    ];
    for (extra, needles) in cases {
        let args: Vec<&str> = two.iter().copied().chain(extra.iter().copied()).collect();
        let (code, err) = run(&args);
        assert_eq!(code, Some(2), "{extra:?}: exit {code:?}\n{err}");
        for needle in needles {
            assert!(err.contains(needle), "{extra:?}: no '{needle}' in\n{err}");
        }
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }
    for name in ["name=", "name=a\nb"] {
        let (code, err) = run(&["--engine", name, "--engine", "name=b"]);
        assert_eq!(code, Some(2), "{name:?}: {err}");
        assert!(err.contains("name="), "{name:?}: {err}");
    }
}

#[test]
fn tc_inf_means_no_clock() {
    let (code, err) = run(&[
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--each",
        "tc=inf",
        "nodes=100",
        "--games",
        "2",
        "--no-game-lines",
    ]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn fastchess_options_are_accepted_or_refused_with_what_to_use() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args([
            "match",
            "-engine",
            "name=a",
            "-engine",
            "name=b",
            "-each",
            "nodes=100",
            "tc=inf",
            "-games",
            "2",
            "-output",
            "format=cutechess",
            "-autosaveinterval",
            "10",
            "-tournament",
            "gauntlet",
            "-report",
            "penta=true",
            "-out",
        ])
        .arg(tmp.path().join("run"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Score of a vs b: "), "{stdout}");
    let (code, err) = run(&[
        "-engine",
        "name=a",
        "-engine",
        "name=b",
        "-log",
        "file=x.log",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("-log") && err.contains("--events"), "{err}");
    let (code, err) = run(&[
        "-engine",
        "name=a",
        "-engine",
        "name=b",
        "-report",
        "penta=false",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("-report penta=false"), "{err}");
}
