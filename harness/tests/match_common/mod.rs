//! Helpers shared by the match tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use harness::cli::match_options::build_config;
use harness::cli::spellings::normalize_args;
use harness::cli::{Cli, Command as Sub};
use harness::output::GameRow;
use harness::output::read_games_csv;
use harness::runner::{Control, Event, MatchOutcome, Start, run_match};
use harness::scoreboard::Scoreboard;

/// Runs the `harness` binary.
pub fn harness(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .output()
        .expect("cannot run harness")
}

/// The match configuration for these command-line arguments (after `harness match`).
pub fn config(args: &[&str]) -> (harness::runner::MatchConfig, PathBuf) {
    let mut argv = vec!["harness".to_string(), "match".to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    let cli = Cli::try_parse_from_normalized(argv);
    match cli.command {
        Sub::Match(m) => build_config(&m.options).expect("bad test configuration"),
        _ => unreachable!(),
    }
}

trait ParseNormalized {
    fn try_parse_from_normalized(argv: Vec<String>) -> Cli;
}

impl ParseNormalized for Cli {
    fn try_parse_from_normalized(argv: Vec<String>) -> Cli {
        use clap::Parser;
        Cli::try_parse_from(normalize_args(argv)).expect("bad test arguments")
    }
}

/// Runs a match in-process, quietly; `stop_after` interrupts it after that many games.
pub fn run_in_process(
    config: &harness::runner::MatchConfig,
    dir: &Path,
    resume: bool,
    stop_after: Option<u64>,
) -> MatchOutcome {
    let stop = AtomicBool::new(false);
    let mut played = 0u64;
    let mut listener = |event: &Event<'_>, _: &Scoreboard| {
        if let Event::GameFinished { .. } = event {
            played += 1;
            if stop_after.is_some_and(|n| played >= n) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Ok(Control::Continue)
    };
    let start = if resume { Start::Resume } else { Start::Fresh };
    run_match(config, dir, start, &stop, &mut listener).expect("match failed")
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
