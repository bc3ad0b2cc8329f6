//! A results folder is never mixed: one run at a time holds it, a resume reads the same book
//! from any working folder, and refuses a book that changed.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn harness_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("cannot run harness")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A small book of four positions in `dir/book.epd`.
fn write_book(dir: &Path) {
    std::fs::write(
        dir.join("book.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -\n",
    )
    .unwrap();
}

#[test]
fn a_second_run_on_a_folder_in_use_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().unwrap();
    let mut first = Command::new(env!("CARGO_BIN_EXE_harness"))
        .args([
            "match",
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "delta_margin=400",
            "--each",
            "nodes=3000",
            "--games",
            "400",
            "--concurrency",
            "1",
            "--no-game-lines",
            "--out",
            dir_s,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !dir.join("games.csv").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = harness_in(tmp.path(), &["match", "--resume", dir_s]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("in use by another harness run (pid "), "{err}");
    // SIGKILL releases the lock: the folder can be resumed.
    first.kill().unwrap();
    first.wait().unwrap();
    let lines_before = std::fs::read_to_string(dir.join("games.csv"))
        .unwrap()
        .lines()
        .count();
    let out = harness_in(
        tmp.path(),
        &[
            "match",
            "--resume",
            dir_s,
            "--no-game-lines",
            "--stop-after",
            "1",
        ],
    );
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let lines_after = std::fs::read_to_string(dir.join("games.csv"))
        .unwrap()
        .lines()
        .count();
    assert!(lines_after > lines_before);
}

#[test]
fn resume_reads_the_same_book_from_any_folder_and_refuses_a_changed_one() {
    let tmp = tempfile::tempdir().unwrap();
    write_book(tmp.path());
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().unwrap();
    let args = [
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "delta_margin=400",
        "--each",
        "nodes=200",
        "--games",
        "8",
        "--openings",
        "file=book.epd",
        "--concurrency",
        "1",
        "--no-game-lines",
        "--out",
        dir_s,
        "--stop-after",
        "2",
    ];
    let out = harness_in(tmp.path(), &args);
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));

    // From another working folder, where book.epd does not exist.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = harness_in(
        elsewhere.path(),
        &["match", "--resume", dir_s, "--no-game-lines"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let book = std::fs::read_to_string(tmp.path().join("book.epd")).unwrap();
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 9);
    for row in csv.lines().skip(1) {
        let fen = row.split(',').nth(3).unwrap();
        let placement = fen.split_whitespace().next().unwrap();
        assert!(book.contains(placement), "game from another book: {row}");
    }

    // A changed book is refused, nothing is written.
    std::fs::write(tmp.path().join("book.epd"), book.replace("4P3", "5P2")).unwrap();
    let out = harness_in(
        tmp.path(),
        &[&args[..args.len() - 2], &["--games", "10"]].concat(),
    );
    // (A new match in the same folder is refused as it already holds one.)
    assert_eq!(out.status.code(), Some(2));
    let before = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    std::fs::write(
        dir.join("games.csv"),
        before.lines().take(5).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let out = harness_in(tmp.path(), &["match", "--resume", dir_s]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("book.epd changed since this match started"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("games.csv"))
            .unwrap()
            .lines()
            .count(),
        5
    );
}
