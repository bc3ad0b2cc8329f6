//! A test's committed games written as the results folder a local `harness match --out DIR`
//! writes: config.toml, games.csv, games.pgn, summary.json and the report, through the same
//! types, so `harness report DIR` (and `harness elo --results DIR`) read it unchanged.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::spec::match_config_of;
use super::stored_game::StoredGame;
use crate::output::{GamesCsv, GamesPgn, RunEnd, SummaryFile};
use crate::scoreboard::Scoreboard;
use crate::store::{Store, TestStatus};
use crate::usage_bail;

/// What an export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOutcome {
    pub dir: PathBuf,
    pub pairs: u64,
    pub games: u64,
    pub status: TestStatus,
    /// Things worth telling (a report that could not be written).
    pub notes: Vec<String>,
}

/// Writes test `id`'s committed games into `dir` (created; refused if it already holds a
/// match). Games are in game order, whatever order the workers committed them in.
pub fn export_test(store: &mut Store, id: i64, dir: &Path) -> anyhow::Result<ExportOutcome> {
    let test = store.test(id)?;
    let config = match_config_of(&test)?;
    if dir.join("games.csv").exists() {
        usage_bail!(
            "{} already holds a match; export into an empty folder",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| crate::UsageError(format!("cannot create {}: {e}", dir.display())))?;
    config.save(dir)?;
    let (mut csv, _) = GamesCsv::open(dir, false)?;
    let mut pgn = GamesPgn::open(&dir.join("games.pgn"), false, &HashSet::new())?;
    let mut board = Scoreboard::new(
        &config.engines[0].name,
        &config.engines[1].name,
        Some(test.pair_count),
    );
    let mut last_commit = test.created_at;
    let mut pairs = 0;
    for pair in store.pairs(id)? {
        let pair = pair?;
        pairs += 1;
        for game in StoredGame::pair_from_json(pair.pair_index, &pair.games)? {
            pgn.append(&game.pgn)?;
            csv.append(&game.row)?;
            board.add(&game.row, None);
        }
        last_commit = last_commit.max(pair.committed_at);
    }
    let mut notes: Vec<String> = board.skipped().to_vec();
    if board.pentanomial() != &test.pentanomial {
        notes.push(format!(
            "the exported games count Ptnml {:?}, the store's totals {:?}",
            board.pentanomial().counts,
            test.pentanomial.counts
        ));
    }
    let end = test.finished_at.unwrap_or(last_commit);
    let end = RunEnd {
        games_requested: config.games,
        wall_seconds: end
            .duration_since(test.created_at)
            .unwrap_or_default()
            .as_secs_f64(),
        interrupted: false,
        fault_stop: None,
        stopped_by_sprt: matches!(test.status, TestStatus::Passed | TestStatus::Failed),
    };
    SummaryFile::new(&board, test.sprt.as_ref(), &config.engines, end).save(dir)?;
    if let Err(err) = crate::report::write_reports(dir) {
        notes.push(format!("could not write the report: {err:#}"));
    }
    Ok(ExportOutcome {
        dir: dir.to_path_buf(),
        pairs,
        games: board.games_counted().len() as u64,
        status: test.status,
        notes,
    })
}
