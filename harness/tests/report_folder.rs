//! `harness report` on synthetic results folders: files written, numbers, errors, comparison.

#[path = "common/report_fixture.rs"]
mod fixture;

use std::process::Command;

use harness::report;

fn harness_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_harness"))
}

#[test]
fn report_writes_markdown_and_html_with_the_run_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run_a");
    let [losses, draws, wins] = fixture::write_synthetic_run(&dir, 60, 1, true);

    let out = harness_cmd().arg("report").arg(&dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();

    assert!(
        md.contains(&format!(
            "| Wins / draws / losses | {wins} / {draws} / {losses} |"
        )),
        "{md}"
    );
    assert!(md.contains("| Games | 120 |"), "{md}");
    // The parameter difference comes from the registry: both names and their defaults.
    let default_qd = engine::params::Params::default()
        .get_by_name("qsearch_depth")
        .unwrap();
    assert!(
        md.contains(&format!(
            "| qsearch_depth | {default_qd} | 2 | {default_qd} |"
        )),
        "{md}"
    );
    assert!(md.contains("delta_margin"), "{md}");
    assert!(md.contains("Time control: nodes=400"), "{md}");

    // One self-contained page: inline SVG plots, no scripts or outside resources.
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.matches("<svg").count() >= 6,
        "expected every plot inline"
    );
    for needle in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(
            !html.contains(needle),
            "report.html must be self-contained: found {needle}"
        );
    }
    for title in [
        "log-likelihood",
        "Elo estimate",
        "By colour",
        "By termination",
        "Game length",
        "Nodes per move",
    ] {
        assert!(html.contains(title), "missing plot {title}");
    }
}

#[test]
fn analysis_agrees_with_the_games() {
    let tmp = tempfile::tempdir().unwrap();
    let [losses, draws, wins] = fixture::write_synthetic_run(tmp.path(), 40, 2, true);
    let r = report::build(tmp.path()).unwrap();
    let a = &r.analysis;
    assert_eq!((a.first.as_str(), a.second.as_str()), ("base", "dev"));
    assert_eq!(
        (a.trinomial.wins, a.trinomial.draws, a.trinomial.losses),
        (wins, draws, losses)
    );
    let p = a.pentanomial.as_ref().unwrap();
    assert_eq!(p.counts.iter().sum::<u64>(), 40);
    // Colour split adds up, and each engine had white in half the games.
    assert_eq!(a.first_as_white.games(), 40);
    assert_eq!(a.first_as_black.games(), 40);
    assert_eq!(a.first_as_white.wins + a.first_as_black.wins, wins);
    // One running point per completed pair; the last equals the final summary.
    assert_eq!(a.running.len(), 40);
    let last = a.running.last().unwrap();
    assert_eq!(last.games, 80);
    assert_eq!(last.llr, a.summary.llr);
    assert_eq!(last.elo, a.summary.elo);
    // Terminations and lengths count every game.
    assert_eq!(
        a.terminations.iter().map(|t| t.wdl.games()).sum::<u64>(),
        80
    );
    assert_eq!(
        a.lengths.iter().map(|b| b.decisive + b.draws).sum::<u64>(),
        80
    );
    assert!(a.terminations.iter().any(|t| t.label == "50-move rule"));
    // Lopsided openings are sorted by how far from even they are.
    let nets: Vec<f64> = a.lopsided.iter().map(|o| o.net.abs()).collect();
    assert!(nets.windows(2).all(|w| w[0] >= w[1]), "{nets:?}");
    // Moves: each engine moved in all 80 games.
    for e in &a.effort {
        assert_eq!(e.nodes_per_move_by_game.len(), 80);
        let npm = e.nodes_per_move().unwrap();
        assert!((380.0..460.0).contains(&npm), "{npm}");
    }
}

#[test]
fn half_finished_pair_is_left_out_of_the_statistics() {
    let tmp = tempfile::tempdir().unwrap();
    fixture::write_synthetic_run(tmp.path(), 10, 3, false);
    // The last game of the last pair is missing: that pair's other game waits for it.
    let csv_path = tmp.path().join("games.csv");
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let kept: Vec<&str> = csv.lines().filter(|l| !l.starts_with("19,9,")).collect();
    std::fs::write(&csv_path, kept.join("\n") + "\n").unwrap();
    let r = report::build(tmp.path()).unwrap();
    assert_eq!(r.analysis.games_total, 18);
    assert_eq!(r.analysis.unpaired_games, 1);
    assert_eq!(r.analysis.summary.games, 18);
    assert_eq!(
        r.analysis.pentanomial.unwrap().counts.iter().sum::<u64>(),
        9
    );
    assert!(r.run.notes.iter().any(|n| n.contains("summary.json")));
    report::write_reports(tmp.path()).unwrap();
    let md = std::fs::read_to_string(tmp.path().join("report.md")).unwrap();
    assert!(md.contains("1 games of unfinished pairs"), "{md}");
}

#[test]
fn malformed_games_csv_names_file_and_line_and_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    fixture::write_synthetic_run(tmp.path(), 5, 4, false);
    let csv_path = tmp.path().join("games.csv");
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let broken: Vec<String> = csv
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 4 {
                l.replace(",1-0,", ",1:0,")
                    .replace(",0-1,", ",1:0,")
                    .replace(",1/2-1/2,", ",1:0,")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&csv_path, broken.join("\n") + "\n").unwrap();
    let out = harness_cmd()
        .arg("report")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("games.csv:5") && err.contains("1:0"), "{err}");
    assert!(!tmp.path().join("report.html").exists());
}

#[test]
fn malformed_summary_json_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    fixture::write_synthetic_run(tmp.path(), 5, 5, false);
    std::fs::write(
        tmp.path().join("summary.json"),
        "{\n  \"games\": 10,\n  \"elo\": ,\n}",
    )
    .unwrap();
    let err = report::build(tmp.path()).unwrap_err();
    let text = format!("{err:#}");
    assert!(text.contains("summary.json:3"), "{text}");
    assert!(err.downcast_ref::<harness::UsageError>().is_some());
}

#[test]
fn missing_folder_or_games_is_a_usage_error() {
    let out = harness_cmd()
        .args(["report", "/nonexistent/run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let out = harness_cmd()
        .arg("report")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("games.csv"));
}

#[test]
fn several_folders_get_a_comparison() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, out_dir) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("cmp"),
    );
    fixture::write_synthetic_run(&a, 30, 6, true);
    fixture::write_synthetic_run(&b, 50, 7, true);
    let out = harness_cmd()
        .arg("report")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for d in [&a, &b] {
        assert!(d.join("report.html").is_file() && d.join("report.md").is_file());
    }
    let md = std::fs::read_to_string(out_dir.join("compare.md")).unwrap();
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| a |") || l.starts_with("| b |"))
        .collect();
    assert_eq!(rows.len(), 2, "{md}");
    assert!(
        rows[0].contains("| 60 |") && rows[1].contains("| 100 |"),
        "{md}"
    );
    let html = std::fs::read_to_string(out_dir.join("compare.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 3);

    // Without --out the comparison goes into the first folder.
    let out = harness_cmd()
        .arg("report")
        .arg(&b)
        .arg(&a)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(b.join("compare.html").is_file());
}
