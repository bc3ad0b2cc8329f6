//! Helpers shared by the match tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use harness::cli::{Cli, Command as Sub};
use harness::cmd::run_match::{self, Display, MatchReport};
use harness::output::GameRow;
use harness::output::read_games_csv;

/// Runs the `harness` binary.
pub fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .expect("cannot run harness")
}

/// The match configuration for these command-line arguments (after `harness match`).
pub fn config(args: &[&str]) -> (harness::tournament::MatchConfig, PathBuf) {
    let mut argv = vec!["harness".to_string(), "match".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let cli = Cli::try_parse_from_normalized(argv);
    match cli.command {
        Sub::Match(m) => run_match::build_config(&m).expect("bad test configuration"),
        _ => unreachable!(),
    }
}

trait ParseNormalized {
    fn try_parse_from_normalized(argv: Vec<String>) -> Cli;
}

impl ParseNormalized for Cli {
    fn try_parse_from_normalized(argv: Vec<String>) -> Cli {
        use clap::Parser;
        Cli::try_parse_from(run_match::normalize_args(argv)).expect("bad test arguments")
    }
}

/// Runs a match in-process, quietly.
pub fn run_in_process(
    config: &harness::tournament::MatchConfig,
    dir: &Path,
    resume: bool,
    stop_after: Option<u64>,
) -> MatchReport {
    let stop = AtomicBool::new(false);
    let display = Display {
        progress_bar: false,
        reports: false,
    };
    run_match::run_config(config, dir, resume, &stop, display, stop_after).expect("match failed")
}

/// The rows of DIR/games.csv sorted by game, without the time columns (which vary).
pub fn rows_without_times(dir: &Path) -> Vec<GameRow> {
    let mut rows = read_games_csv(&dir.join("games.csv"))
        .expect("cannot read games.csv")
        .rows;
    rows.sort_by_key(|r| r.game);
    for r in &mut rows {
        r.white_time_ms = 0;
        r.black_time_ms = 0;
    }
    rows
}

/// Games in a PGN file: (Round, Result, PlyCount, White, Black, Termination).
pub fn pgn_games(path: &Path) -> Vec<(u64, String, u32, String, String, String)> {
    let text = std::fs::read_to_string(path).expect("cannot read games.pgn");
    let tag = |game: &str, key: &str| -> String {
        let prefix = format!("[{key} \"");
        game.lines()
            .find_map(|l| l.strip_prefix(&prefix).and_then(|r| r.strip_suffix("\"]")))
            .unwrap_or_else(|| panic!("no {key} tag in {game}"))
            .to_string()
    };
    text.split("[Event ")
        .skip(1)
        .map(|g| {
            (
                tag(g, "Round").parse().unwrap(),
                tag(g, "Result"),
                tag(g, "PlyCount").parse().unwrap(),
                tag(g, "White"),
                tag(g, "Black"),
                tag(g, "Termination"),
            )
        })
        .collect()
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("cannot make a temporary folder")
}
