//! `harness gauntlet`: one match per value of the varied key, each in its own folder with the
//! key on the second engine; the table has a row per opponent, counted from the folders; the
//! same command again continues instead of replaying; bad --vary values are usage errors.

use std::path::Path;
use std::process::{Command, Output};

fn gauntlet(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["gauntlet", "--engine", "name=ours", "--engine", "name=opp"])
        .args(["--each", "nodes=300", "--games", "4", "--concurrency", "2"])
        .args(["--no-game-lines", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("cannot run harness")
}

fn games_in(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    text.lines().skip(1).map(String::from).collect()
}

#[test]
fn one_match_per_value_and_a_row_each() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    let run = gauntlet(&out, &["--vary", "qsearch_check_plies=0,3"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for (value, name) in [("0", "opp-0"), ("3", "opp-3")] {
        let dir = out.join(format!("qsearch_check_plies-{value}"));
        let config = std::fs::read_to_string(dir.join("config.toml")).unwrap();
        assert!(config.contains(&format!("name = \"{name}\"")), "{config}");
        assert!(
            config.contains(&format!("qsearch_check_plies = {value}")),
            "{config}"
        );
        let games = games_in(&dir);
        assert_eq!(games.len(), 4, "{games:?}");
        assert!(games.iter().all(|g| g.contains(name)), "{games:?}");
        assert!(
            stdout.contains(&format!("| {name} (qsearch_check_plies={value}) | 4 |")),
            "{stdout}"
        );
    }
    let table = std::fs::read_to_string(out.join("gauntlet.md")).unwrap();
    assert_eq!(table.lines().filter(|l| l.starts_with("| opp-")).count(), 2);
    assert!(!table.contains("performance"), "{table}");

    // The same command again: both matches are complete; nothing is played twice.
    let before = games_in(&out.join("qsearch_check_plies-0"));
    let again = gauntlet(&out, &["--vary", "qsearch_check_plies=0,3"]);
    assert!(again.status.success());
    assert_eq!(games_in(&out.join("qsearch_check_plies-0")), before);

    // Another match in the same folder is refused, not mixed in.
    let other = gauntlet(&out, &["--vary", "qsearch_check_plies=0", "--seed", "9"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another match"));
}

#[test]
fn bad_vary_values_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    for (vary, says) in [
        ("1800", "expected KEY=V1,V2"),
        ("x=1,,2", "value 2 is empty"),
        ("x=1,1", "1 is given twice"),
    ] {
        let run = gauntlet(&tmp.path().join("g"), &["--vary", vary]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{vary}: {stderr}");
        assert!(stderr.contains(&format!("--vary {vary}")), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(!tmp.path().join("g").exists(), "{vary}: folder written");
    }
}
