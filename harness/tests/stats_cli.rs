//! `harness elo` end to end: text, JSON, results folders and exit code 2 on bad input.

use std::process::{Command, Output};

fn elo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("elo")
        .args(args)
        .output()
        .expect("run harness")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn text_report_in_fastchess_format() {
    let out = elo(&[
        "--wins", "880", "--draws", "1863", "--losses", "759", "--model", "logistic",
    ]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "Elo: 12.01 +/- 7.87, nElo: 17.57 +/- 11.52\n\
         LOS: 99.86 %, DrawRatio: 53.20 %\n\
         Games: 3502, Wins: 880, Losses: 759, Draws: 1863, Points: 1811.5 (51.73 %)\n\
         LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]\n\
         SPRT ([0.00, 5.00]) completed - H1 was accepted\n"
    );
}

#[test]
fn json_has_exactly_the_keys() {
    let out = elo(&[
        "--ptnml",
        "379,10170,21828,10640,343",
        "--elo1",
        "2",
        "--json",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "draw_ratio",
            "elo",
            "elo_err95",
            "games",
            "llr",
            "llr_lower",
            "llr_upper",
            "los",
            "model",
            "nelo",
            "nelo_err95",
            "state"
        ]
    );
    assert_eq!(v["state"], "accepted");
    assert_eq!(v["model"], "normalized");
    assert_eq!(v["games"], 86720);
    assert!((v["llr"].as_f64().unwrap() - 2.9454954).abs() < 1e-6);
}

#[test]
fn rejected_and_negative_bounds() {
    let out = elo(&[
        "--wins", "65388", "--draws", "56553", "--losses", "65804", "--elo0", "-3", "--elo1", "1",
        "--model", "bayeselo", "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // fishtest T13 BayesElo.
    assert!((v["llr"].as_f64().unwrap() - 1.128646965177422).abs() < 1e-9);
    assert_eq!(v["model"], "bayeselo");
}

#[test]
fn no_games_prints_what_cannot_be_computed() {
    let out = elo(&["--wins", "0", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(v["elo"].is_null() && v["los"].is_null());
    let out = elo(&["--wins", "0"]);
    let text = stdout(&out);
    assert!(
        text.contains("Elo: n/a") && text.contains("Note: no games"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_with_2() {
    let cases: &[&[&str]] = &[
        &["--wins", "-3", "--draws", "1", "--losses", "1"],
        &["--wins", "x"],
        &["--ptnml", "1,2,3,4"],
        &["--ptnml", "1,2,3,4,-5"],
        &["--wins", "1", "--alpha", "0"],
        &["--wins", "1", "--alpha", "1.5"],
        &["--wins", "1", "--beta", "1"],
        &["--wins", "1", "--elo0", "5", "--elo1", "5"],
        &["--wins", "1", "--elo0", "6", "--elo1", "5"],
        &["--wins", "1", "--ptnml", "1,2,3,4,5"],
        &[],
        &["--wins", "1", "--model", "gaussian"],
        &["--ptnml", "1,2,3,4,5", "--model", "bayeselo"],
        &["--wins", "18446744073709551615", "--losses", "1"],
        &["--results", "/nonexistent/folder"],
    ];
    for args in cases {
        let out = elo(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?}: no message");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = elo(&["--wins", "-3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("negative"));
    let out = elo(&["--ptnml", "1,2,3,4"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 comma-separated"));
}

const HEADER: &str = "game,pair,opening_index,opening_fen,white,black,result,termination,plies,final_fen,white_nodes,black_nodes,white_time_ms,black_time_ms\n";

fn game(n: u32, pair: u32, white: &str, black: &str, result: &str) -> String {
    format!(
        "{n},{pair},{pair},startfen,{white},{black},{result},adjudication_resign,80,endfen,1000,1000,10,10\n"
    )
}

#[test]
fn results_folder_counts_pairs_from_the_first_engine() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = HEADER.to_owned();
    // pair 0: new wins both (WW); pair 1: win + draw (WD); pair 2: loss + win (WL);
    // pair 3: only one game finished (not counted until its pair is complete); game 1 twice
    // (a repeated row, counted once).
    csv += &game(0, 0, "new", "base", "1-0");
    csv += &game(1, 0, "base", "new", "0-1");
    csv += &game(1, 0, "base", "new", "0-1");
    csv += &game(2, 1, "new", "base", "1/2-1/2");
    csv += &game(3, 1, "base", "new", "0-1");
    csv += &game(4, 2, "new", "base", "0-1");
    csv += &game(5, 2, "base", "new", "0-1");
    csv += &game(6, 3, "new", "base", "1/2-1/2");
    std::fs::write(dir.path().join("games.csv"), csv).unwrap();
    let path = dir.path().to_str().unwrap();

    let out = elo(&["--results", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.starts_with("Results of new vs base:\n"), "{text}");
    assert!(
        text.contains("Games: 6, Wins: 4, Losses: 1, Draws: 1, Points: 4.5 (75.00 %)"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("games.csv:4: game 1 skipped") && err.contains("repeated"),
        "{err}"
    );
    assert!(
        err.contains("1 finished games whose pair is not complete"),
        "{err}"
    );
    assert!(text.contains("Ptnml(0-2): [0, 0, 1, 1, 1]"), "{text}");

    // The other engine's view mirrors it.
    let out = elo(&["--results", path, "--engine", "base"]);
    let text = stdout(&out);
    assert!(
        text.contains("Games: 6, Wins: 1, Losses: 4, Draws: 1"),
        "{text}"
    );
    assert!(text.contains("Ptnml(0-2): [1, 1, 1, 0, 0]"), "{text}");

    let out = elo(&["--results", path, "--engine", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn malformed_games_csv_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = HEADER.to_owned();
    csv += &game(1, 0, "a", "b", "1-0");
    csv += "two,0,0,fen,a,b,1-0,x,1,fen,1,1,1,1\n";
    std::fs::write(dir.path().join("games.csv"), csv).unwrap();
    let out = elo(&["--results", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("games.csv:3"), "{err}");
}
