//! The same `harness match` command at fixed nodes plays the same games, move for move, as the
//! golden file recorded from an earlier build (before the match runner became a library).
//!
//! The golden file is regenerated only when a search change alters `engine bench`: run this
//! test with `GOLDEN_REGENERATE=1` and say so in the commit message.

use std::path::{Path, PathBuf};
use std::process::Command;

const GOLDEN: &str = "tests/fixtures/golden_seed7.txt";

/// The command the golden file was made with (after `harness match`).
const ARGS: &[&str] = &[
    "--engine",
    "name=base",
    "--engine",
    "name=dev",
    "qsearch_depth=2",
    "delta_margin=400",
    "--each",
    "nodes=400",
    "--games",
    "40",
    "--concurrency",
    "2",
    "--seed",
    "7",
    "--openings",
    "file=../openings/balanced-8ply.epd",
    "order=random",
];

/// The SAN moves of each game of a PGN file, in file order: comments, move numbers, tags and
/// results dropped.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let mut games = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut in_movetext = false;
    for line in pgn.lines() {
        if line.starts_with('[') {
            if in_movetext {
                games.push(current.join(" "));
                current.clear();
                in_movetext = false;
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        in_movetext = true;
        let mut text = String::new();
        let mut depth = 0;
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => text.push(c),
                _ => {}
            }
        }
        for token in text.split_whitespace() {
            let is_number = token
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit());
            let is_result = matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*");
            if !is_number && !is_result {
                current.push(token.to_string());
            }
        }
    }
    if in_movetext {
        games.push(current.join(" "));
    }
    games
}

/// One line a game, sorted by game index: the CSV columns that do not depend on timing, then
/// the moves.
fn game_lines(dir: &Path) -> String {
    let csv = std::fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("games.pgn");
    let moves = pgn_moves(&pgn);
    let mut lines: Vec<(u64, String)> = Vec::new();
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let keep = [
        "game",
        "pair",
        "opening_index",
        "opening_fen",
        "white",
        "black",
        "result",
        "termination",
        "plies",
        "final_fen",
        "white_nodes",
        "black_nodes",
    ];
    // The PGN and the CSV list the games in the same (completion) order.
    assert_eq!(moves.len(), csv.lines().count() - 1, "PGN and CSV disagree");
    for (row, moves) in rows.zip(&moves) {
        let fields: Vec<&str> = row.split(',').collect();
        let kept: Vec<&str> = keep.iter().map(|k| fields[col(k)]).collect();
        let game: u64 = kept[0].parse().expect("game index");
        lines.push((game, format!("{} | {moves}", kept.join(","))));
    }
    lines.sort();
    lines.into_iter().map(|(_, l)| l + "\n").collect()
}

fn play(out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_harness"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("match")
        .args(ARGS)
        .arg("--out")
        .arg(out)
        .output()
        .expect("cannot run harness");
    assert!(
        status.status.success(),
        "harness match failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn seed_7_plays_the_golden_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    play(&out);
    let got = game_lines(&out);
    let golden_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("GOLDEN_REGENERATE").is_some() {
        std::fs::write(&golden_path, &got).expect("write golden");
        eprintln!("regenerated {}", golden_path.display());
        return;
    }
    let want = std::fs::read_to_string(&golden_path).expect("golden file");
    let (got_lines, want_lines): (Vec<&str>, Vec<&str>) =
        (got.lines().collect(), want.lines().collect());
    assert_eq!(got_lines.len(), want_lines.len(), "number of games differs");
    for (g, w) in got_lines.iter().zip(&want_lines) {
        assert_eq!(g, w, "a game differs from the golden file");
    }
}
