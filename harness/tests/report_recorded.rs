//! The report of a recorded run (tests/fixtures/run_small: 48 games of `harness match` at 300
//! nodes with an SPRT, see its config.toml) checked against the run's summary.json and
//! against `harness elo`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/run_small")
}

/// A copy of the fixture, so the report is written outside the source tree.
fn copy_of_fixture() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for file in ["games.csv", "summary.json", "config.toml"] {
        std::fs::copy(fixture().join(file), tmp.path().join(file)).unwrap();
    }
    tmp
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn elo_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("elo")
        .args(args)
        .args(["--elo0", "0", "--elo1", "10", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn assert_close(what: &str, ours: Option<f64>, theirs: &Value) {
    let theirs = theirs.as_f64();
    match (ours, theirs) {
        (Some(a), Some(b)) => assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "{what}: {a} vs {b}"
        ),
        (None, None) => {}
        _ => panic!("{what}: {ours:?} vs {theirs:?}"),
    }
}

#[test]
fn recorded_run_report_matches_summary_json_and_harness_elo() {
    let tmp = copy_of_fixture();
    let report = harness::report::build(tmp.path()).unwrap();
    let a = &report.analysis;
    let s = &a.summary;
    let summary = json(&tmp.path().join("summary.json"));

    // Against summary.json, written by the match runner.
    assert_eq!(s.games, summary["games"].as_u64().unwrap());
    for key in [
        "elo",
        "elo_err95",
        "los",
        "draw_ratio",
        "nelo",
        "nelo_err95",
        "llr",
        "llr_lower",
        "llr_upper",
    ] {
        let ours = match key {
            "elo" => s.elo,
            "elo_err95" => s.elo_err95,
            "los" => s.los,
            "draw_ratio" => s.draw_ratio,
            "nelo" => s.nelo,
            "nelo_err95" => s.nelo_err95,
            "llr" => s.llr,
            "llr_lower" => s.llr_lower,
            "llr_upper" => s.llr_upper,
            _ => unreachable!(),
        };
        assert_close(key, ours, &summary[key]);
    }
    assert_eq!(s.state().name(), summary["state"].as_str().unwrap());
    let terminations = summary["terminations"].as_object().unwrap();
    assert_eq!(a.terminations.len(), terminations.len());
    for t in &a.terminations {
        assert_eq!(
            Some(t.wdl.games()),
            terminations[&t.termination].as_u64(),
            "{}",
            t.termination
        );
    }
    assert!(
        report.notes.is_empty(),
        "summary.json and games.csv disagree: {:?}",
        report.notes
    );

    // Against `harness elo`, from the report's own pentanomial counts and from the folder.
    let p = a.pentanomial.unwrap().counts;
    let ptnml = format!("{},{},{},{},{}", p[0], p[1], p[2], p[3], p[4]);
    let from_counts = elo_json(&["--ptnml", &ptnml]);
    let from_folder = elo_json(&["--results", tmp.path().to_str().unwrap()]);
    for elo in [&from_counts, &from_folder] {
        assert_close("elo", s.elo, &elo["elo"]);
        assert_close("nelo", s.nelo, &elo["nelo"]);
        assert_close("los", s.los, &elo["los"]);
        assert_close("llr", s.llr, &elo["llr"]);
        assert_eq!(elo["state"], summary["state"]);
    }
    assert_eq!(from_folder["games"].as_u64(), Some(s.games));

    // The parameter difference, from the registry.
    let diff = report.setup.param_differences().unwrap();
    let names: Vec<&str> = diff.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(
        names.contains(&"delta_margin") && names.contains(&"qsearch_depth"),
        "{names:?}"
    );

    // And the written files say the same numbers.
    harness::report::write_reports(tmp.path()).unwrap();
    let md = std::fs::read_to_string(tmp.path().join("report.md")).unwrap();
    let html = std::fs::read_to_string(tmp.path().join("report.html")).unwrap();
    let elo_text = format!(
        "{:.2} ± {:.2}",
        summary["elo"].as_f64().unwrap(),
        summary["elo_err95"].as_f64().unwrap()
    );
    let t = &a.trinomial;
    for text in [&md, &html] {
        assert!(text.contains(&elo_text), "missing {elo_text}");
        assert!(text.contains(&format!("{:.2}", summary["llr"].as_f64().unwrap())));
        assert!(text.contains(&format!(
            "{:.2} %",
            100.0 * summary["los"].as_f64().unwrap()
        )));
    }
    assert!(md.contains(&format!(
        "| Wins / draws / losses | {} / {} / {} |",
        t.wins, t.draws, t.losses
    )));
    assert!(md.contains(&format!(
        "[{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    )));
    assert!(html.contains("delta_margin") && html.contains("qsearch_depth"));
}

#[test]
fn running_statistics_end_at_the_final_numbers() {
    let tmp = copy_of_fixture();
    let report = harness::report::build(tmp.path()).unwrap();
    let a = &report.analysis;
    let pairs = a.pentanomial.unwrap().counts.iter().sum::<u64>();
    assert_eq!(a.running.len() as u64, pairs);
    let games: Vec<u64> = a.running.iter().map(|p| p.games).collect();
    assert!(games.windows(2).all(|w| w[1] == w[0] + 2), "{games:?}");
    let last = a.running.last().unwrap();
    assert_eq!((last.llr, last.elo), (a.summary.llr, a.summary.elo));
}
