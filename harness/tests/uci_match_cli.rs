//! `harness match` with external engines, end to end: faults end games with the right
//! termination and are counted per engine; `--recover` restarts a faulted engine and the match
//! completes; without it the match stops cleanly after that game and can be resumed; bad
//! engine configuration is a usage error before any game. The misbehaving engine is the
//! workspace's `fake-uci`.

mod fake_engines;

use std::path::Path;
use std::process::{Command, Output};

fn fake_engine() -> String {
    fake_engines::fake_uci().display().to_string()
}

/// `harness match` with our engine first and the fake (in `fake_args` mode) second.
fn run_match(out: &Path, fake_args: &str, extra: &[&str]) -> Output {
    let cmd = format!("cmd={}", fake_engine());
    let args = format!("args={fake_args}");
    let out_dir = out.display().to_string();
    let mut argv = vec![
        "match",
        "--engine",
        "name=ours",
        "--engine",
        "name=fake",
        &cmd,
        &args,
        "--each",
        "nodes=100",
        "--concurrency",
        "1",
        "--maxmoves",
        "20",
        "--out",
        &out_dir,
    ];
    argv.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(&argv)
        .output()
        .expect("harness runs")
}

fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("json")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn recover_restarts_a_crashing_engine_and_the_match_completes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let output = run_match(&out, "--mode crash --at 3", &["--games", "4", "--recover"]);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        // game,pair,opening_index,opening_fen,white,black,result,termination,...
        assert_eq!(row[7], "disconnect", "{row:?}");
        let fake_lost = if row[4] == "fake" {
            row[6] == "0-1"
        } else {
            row[6] == "1-0"
        };
        assert!(fake_lost, "{row:?}");
    }
    assert_eq!(summary(&out)["faults"]["fake"]["disconnected"], 4);
    assert!(
        summary(&out)["faults"]["ours"]
            .as_object()
            .is_some_and(|m| m.is_empty())
    );
    assert!(
        stdout(&output).contains("Faults: ours none; fake disconnects 4"),
        "{}",
        stdout(&output)
    );
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Termination \"abandoned\"]").count(), 4);
}

#[test]
fn without_recover_the_match_stops_after_the_fault_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let output = run_match(&out, "--mode crash --at 3", &["--games", "4"]);
    assert_eq!(output.status.code(), Some(5), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("Stopped: engine 'fake' faulted in game 1"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        csv_rows(&out).len(),
        1,
        "the faulted game is kept, nothing more is played"
    );
    let s = summary(&out);
    assert!(
        s["fault_stop"]
            .as_str()
            .is_some_and(|m| m.contains("--recover")),
        "{s}"
    );
    assert_eq!(s["faults"]["fake"]["disconnected"], 1);

    // Resuming starts fresh processes and plays on (and stops at the next fault).
    let resumed = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(["match", "--resume", &out.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(5), "{}", stdout(&resumed));
    assert_eq!(csv_rows(&out).len(), 2);
    assert_eq!(
        summary(&out)["faults"]["fake"]["disconnected"],
        2,
        "counts survive the resume"
    );
}

#[test]
fn hangs_stalls_and_illegal_moves_are_terminations() {
    let dir = tempfile::tempdir().unwrap();

    // A hang under a clock: a loss on time once clock and margin are gone; killed, restarted.
    let out = dir.path().join("hang");
    let output = run_match(
        &out,
        "--mode hang --at 2",
        &["--games", "2", "--recover", "--each", "tc=0.5+0"],
    );
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(
        csv_rows(&out).iter().all(|r| r[7] == "time_forfeit"),
        "{:?}",
        csv_rows(&out)
    );
    assert_eq!(summary(&out)["faults"]["fake"]["timed_out"], 2);

    // Ignoring isready: the second isready is the first game's.
    let out = dir.path().join("stall");
    let output = run_match(
        &out,
        "--mode noready --at 2",
        &["--games", "2", "--recover"],
    );
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(
        csv_rows(&out).iter().all(|r| r[7] == "stall"),
        "{:?}",
        csv_rows(&out)
    );
    assert_eq!(summary(&out)["faults"]["fake"]["stalled"], 2);

    // An illegal move loses, but the engine still answers: no restart needed, the match goes
    // on even without --recover.
    let out = dir.path().join("illegal");
    let output = run_match(&out, "--mode illegal --at 2", &["--games", "2"]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(
        csv_rows(&out).iter().all(|r| r[7] == "illegal_move"),
        "{:?}",
        csv_rows(&out)
    );
    assert_eq!(summary(&out)["faults"]["fake"]["illegal_move"], 2);
}

#[test]
fn chaos_with_recover_accounts_for_every_game_and_repeats() {
    // Faults that cost no timeout, drawn from the seed and the position: the same games twice.
    let fake_args = "--play greedy --chaos seed=5,crash=0.04,illegal=0.04,malformed=0.03,\
                     close-stdout=0.03,abort=0.02,garbage=0.1,flood-lines=0.05";
    let dir = tempfile::tempdir().unwrap();
    let play = |name: &str| {
        let out = dir.path().join(name);
        let output = run_match(&out, fake_args, &["--games", "8", "--recover"]);
        assert!(
            output.status.success(),
            "{}\n{}",
            stdout(&output),
            String::from_utf8_lossy(&output.stderr)
        );
        out
    };
    let (a, b) = (play("a"), play("b"));
    let endings = |dir: &Path| {
        csv_rows(dir)
            .iter()
            .map(|r| (r[0].clone(), r[6].clone(), r[7].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(endings(&a).len(), 8, "every game accounted for");
    assert_eq!(endings(&a), endings(&b), "the same seed, the same games");

    // Each faulted game is counted once, under its kind, for the fake only.
    let faults = summary(&a)["faults"].clone();
    assert!(
        faults["ours"].as_object().is_some_and(|m| m.is_empty()),
        "{faults}"
    );
    let mut faulted = 0;
    for (termination, key) in [
        ("disconnect", "disconnected"),
        ("illegal_move", "illegal_move"),
    ] {
        let rows = endings(&a).iter().filter(|e| e.2 == termination).count();
        let counted = faults["fake"][key].as_u64().unwrap_or(0);
        assert_eq!(counted, rows as u64, "{key}: {faults}");
        faulted += rows;
    }
    assert!(faulted > 0, "the chaos showed: {:?}", endings(&a));
}

#[test]
fn bad_engine_configuration_is_a_usage_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let output = run_match(
        &out,
        "--mode normal",
        &["--games", "2", "--each", "option.Hashh=8"],
    );
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("engine 'fake' has no option 'Hashh'"), "{err}");
    assert!(!out.join("games.csv").exists());

    let output = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args([
            "match",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "cmd=/nonexistent/engine",
        ])
        .args([
            "--games",
            "2",
            "--out",
            &dir.path().join("n").display().to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/engine"));
}

fn git(repo: &Path, args: &[&str]) {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A throw-away repository whose `engine` is a tiny Rust program: `engine bench` prints
/// `<bench_nodes> nodes 1 nps`; otherwise it hands over to the fake engine.
fn write_wrapper_engine(repo: &Path, bench_nodes: u64) {
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        "[package]\nname = \"engine\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    let main = format!(
        r#"fn main() {{
    if std::env::args().nth(1).as_deref() == Some("bench") {{
        println!("{bench_nodes} nodes 1 nps");
        return;
    }}
    let status = std::process::Command::new({fake:?}).status().expect("fake-uci runs");
    std::process::exit(status.code().unwrap_or(1));
}}
"#,
        fake = fake_engine()
    );
    std::fs::write(repo.join("src/main.rs"), main).unwrap();
}

#[test]
fn git_revisions_are_built_benched_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    write_wrapper_engine(&repo, 1111);
    std::fs::write(repo.join(".gitignore"), "/target\n").unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    write_wrapper_engine(&repo, 2222); // uncommitted

    let out = dir.path().join("m");
    let harness = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_harness"))
            .current_dir(&repo)
            .args([
                "match",
                "--engine",
                "git=main",
                "--engine",
                "git=WORKTREE",
                "name=dev",
                "Hash=8",
            ])
            .args([
                "--each",
                "nodes=100",
                "--games",
                "2",
                "--concurrency",
                "1",
                "--maxmoves",
                "5",
            ])
            .args(extra)
            .output()
            .expect("harness runs")
    };
    let output = harness(&["--out", &out.display().to_string()]);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout(&output).contains(
            "Bench: main 1111 nodes, dev 2222 nodes (different: the change is functional)"
        ),
        "{}",
        stdout(&output)
    );
    assert_eq!(csv_rows(&out).len(), 2);
    assert!(
        csv_rows(&out).iter().all(|r| r[7] == "max_moves"),
        "{:?}",
        csv_rows(&out)
    );
    let config = std::fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(config.contains("reference = \"WORKTREE\""), "{config}");
    assert!(
        repo.join("target/harness-builds").is_dir(),
        "cached in the repository's target/"
    );

    // A revision that does not build: a clear error before any game.
    std::fs::write(repo.join("src/main.rs"), "fn main() { not rust }\n").unwrap();
    let broken = dir.path().join("broken");
    let output = harness(&["--out", &broken.display().to_string()]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("building the engine at WORKTREE"), "{err}");
    assert!(err.contains("error"), "quotes cargo: {err}");
    assert!(!broken.join("games.csv").exists());
}
