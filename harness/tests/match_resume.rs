//! Reproducibility, and resuming after Ctrl-C, an internal stop or SIGKILL: the final games
//! equal those of a run that never stopped, and no game is written twice.

mod match_common;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use match_common::*;

const ARGS: &[&str] = &[
    "--engine",
    "name=base",
    "--engine",
    "name=dev",
    "qsearch_check_plies=0",
    "--each",
    "nodes=300",
    "--games",
    "16",
    "--concurrency",
    "2",
    "--seed",
    "3",
    "--openings",
    "order=random",
    "file=PLACEHOLDER",
];

fn args_with_book() -> Vec<String> {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/balanced-8ply.epd");
    ARGS.iter()
        .map(|a| {
            if *a == "file=PLACEHOLDER" {
                format!("file={}", book.display())
            } else {
                a.to_string()
            }
        })
        .collect()
}

fn assert_each_game_once(dir: &Path, games: u64) {
    let rows = rows_without_times(dir);
    let unique: HashSet<u64> = rows.iter().map(|r| r.game).collect();
    assert_eq!(rows.len(), unique.len(), "a game was written twice");
    assert_eq!(unique, (0..games).collect::<HashSet<_>>());
    let pgn = pgn_games(&dir.join("games.pgn"));
    let rounds: HashSet<u64> = pgn.iter().map(|g| g.0).collect();
    assert_eq!(pgn.len(), rounds.len(), "a game is twice in the PGN");
    assert_eq!(rounds, (1..=games).collect::<HashSet<_>>());
}

#[test]
fn same_seed_same_games_and_resume_after_stop_equals_uninterrupted() {
    let args = args_with_book();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (config, _) = config(&args);
    let tmp = tempdir();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let full = run_in_process(&config, &a, false, None);
    assert!(!full.run.interrupted);
    run_in_process(&config, &b, false, None);
    assert_eq!(
        rows_without_times(&a),
        rows_without_times(&b),
        "same seed, different games"
    );

    // Interrupted after 5 games (the games in flight are abandoned), then resumed twice.
    let first = run_in_process(&config, &c, false, Some(5));
    assert!(first.run.interrupted);
    let written = rows_without_times(&c).len();
    assert!(
        (5..16).contains(&written),
        "{written} games written before the stop"
    );
    let second = run_in_process(&config, &c, true, Some(4));
    assert!(second.run.interrupted);
    let last = run_in_process(&config, &c, true, None);
    assert!(!last.run.interrupted);
    assert_each_game_once(&c, 16);
    assert_eq!(rows_without_times(&c), rows_without_times(&a));
    assert_eq!(last.summary.games, full.summary.games);
    assert_eq!(last.summary.elo, full.summary.elo);
    assert_eq!(last.board.games(), 16);
}

fn wait_for_rows(dir: &Path, at_least: usize, child: &mut std::process::Child) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let rows = std::fs::read_to_string(dir.join("games.csv"))
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0);
        if rows >= at_least {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the match ended ({status}) before {at_least} games");
        }
        assert!(Instant::now() < deadline, "no games written");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn_match(args: &[String]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("match")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start harness")
}

#[test]
fn sigkill_and_sigint_then_resume() {
    let tmp = tempdir();
    let reference = tmp.path().join("reference");
    let killed = tmp.path().join("killed");
    let interrupted = tmp.path().join("interrupted");
    let mut base = args_with_book();
    // Longer games so that the signals arrive mid-match.
    base.iter_mut().for_each(|a| {
        if a == "nodes=300" {
            *a = "nodes=1500".into();
        }
    });
    let with_out = |dir: &Path| {
        let mut v = base.clone();
        v.push("--out".into());
        v.push(dir.display().to_string());
        v
    };
    let status = spawn_match(&with_out(&reference))
        .wait_with_output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );

    // SIGKILL: only what was flushed survives.
    let mut child = spawn_match(&with_out(&killed));
    wait_for_rows(&killed, 2, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = harness(&["match", "--resume", killed.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_each_game_once(&killed, 16);
    assert_eq!(rows_without_times(&killed), rows_without_times(&reference));

    // SIGINT: a clean stop that prints the resume command.
    let mut child = spawn_match(&with_out(&interrupted));
    wait_for_rows(&interrupted, 2, &mut child);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    if !sent.is_ok_and(|s| s.success()) {
        engine::testing::skip("the SIGINT part: cannot run kill");
        child.kill().ok();
        return;
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.success() {
        // The match finished before the signal arrived: nothing to resume.
        assert_each_game_once(&interrupted, 16);
    } else {
        assert_eq!(output.status.code(), Some(130), "{stdout}");
        assert!(stdout.contains("harness match --resume"), "{stdout}");
        let out = harness(&["match", "--resume", interrupted.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_each_game_once(&interrupted, 16);
    assert_eq!(
        rows_without_times(&interrupted),
        rows_without_times(&reference)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(interrupted.join("summary.json")).unwrap())
            .unwrap();
    let reference_summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(reference.join("summary.json")).unwrap())
            .unwrap();
    for key in ["games", "elo", "nelo", "terminations"] {
        assert_eq!(summary[key], reference_summary[key], "{key}");
    }
}

#[test]
fn a_finished_match_grows_to_more_games_with_the_same_first_games() {
    let args = args_with_book();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (sixteen, _) = config(&args);
    let mut eight = sixteen.clone();
    eight.games = 8;
    let tmp = tempdir();
    let (full, grown) = (tmp.path().join("full"), tmp.path().join("grown"));
    run_in_process(&sixteen, &full, false, None);
    run_in_process(&eight, &grown, false, None);
    assert_each_game_once(&grown, 8);
    let last = run_in_process(&sixteen, &grown, true, None);
    assert_each_game_once(&grown, 16);
    assert_eq!(rows_without_times(&grown), rows_without_times(&full));
    assert_eq!(last.board.games(), 16);
    let saved = harness::runner::MatchConfig::load(&grown).unwrap();
    assert_eq!(
        saved.games, 16,
        "the folder's configuration records the new count"
    );

    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut quiet = |_: &harness::runner::Event<'_>, _: &harness::scoreboard::Scoreboard| {
        Ok(harness::runner::Control::Continue)
    };
    let err = harness::runner::run_match(
        &eight,
        &grown,
        harness::runner::Start::Resume,
        &stop,
        &mut quiet,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("--games 8")
            && err.contains("already asks for 16")
            && err.contains("at least 16"),
        "{err}"
    );
}

#[test]
fn the_resume_hint_keeps_the_runs_output_flags() {
    let tmp = tempdir();
    let dir = tmp.path().join("hint");
    let mut args = args_with_book();
    args.extend(
        [
            "--out",
            dir.to_str().unwrap(),
            "--no-game-lines",
            "--stop-after",
            "2",
        ]
        .map(String::from),
    );
    let out = spawn_match(&args).wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("Started game"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "harness match --resume {} --no-game-lines",
            dir.display()
        )),
        "{stdout}"
    );
}
