//! Reads a match results folder: `config.toml` and `summary.json` through the types that
//! write them ([`MatchConfig`], [`SummaryFile`]), and `games.csv` counted by the one
//! scoreboard ([`crate::runner::count_folder`]), so the report says what `--resume`,
//! `harness elo --results` and summary.json say. Malformed files are errors naming the file
//! and line; what could not be counted is a note.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::UsageError;
use crate::output::{GameRow, SummaryFile, read_games_csv};
use crate::runner::MatchConfig;
use crate::scoreboard::Scoreboard;
use crate::spsa::play::SpsaSpec;
use crate::spsa::{Step, trajectory};

/// The run's configuration file as written.
#[derive(Clone, Debug)]
pub struct RecordedConfig {
    pub file_name: String,
    pub text: String,
}

/// Everything read from one results folder.
#[derive(Clone, Debug)]
pub struct RunFolder {
    pub dir: PathBuf,
    /// The games the scoreboard counted, in file order: both games of every complete pair.
    pub games: Vec<GameRow>,
    /// The counts of the folder.
    pub board: Scoreboard,
    pub summary: Option<SummaryFile>,
    pub config: Option<MatchConfig>,
    pub config_file: Option<RecordedConfig>,
    /// The tune, when the folder is an SPSA tune's (`spsa.toml`, `spsa.csv`).
    pub spsa: Option<SpsaRun>,
    /// Things worth telling the reader (a cut-off last line, skipped rows, a missing file).
    pub notes: Vec<String>,
}

/// An SPSA tune's folder: what was tuned and how θ moved.
#[derive(Clone, Debug)]
pub struct SpsaRun {
    pub spec: SpsaSpec,
    /// The applied iterations, in order (`spsa.csv`).
    pub steps: Vec<Step>,
}

impl RunFolder {
    /// A short name for the run: the folder's name.
    pub fn name(&self) -> String {
        self.dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.dir.display().to_string())
    }
}

/// Reads a results folder. `games.csv` must exist; the rest is optional.
pub fn load_run(dir: &Path) -> anyhow::Result<RunFolder> {
    if !dir.is_dir() {
        return Err(UsageError(format!("{}: not a results folder", dir.display())).into());
    }
    let games_path = dir.join("games.csv");
    if !games_path.is_file() {
        return Err(UsageError(format!(
            "{}: no games.csv (is this a match results folder?)",
            dir.display()
        ))
        .into());
    }
    let mut notes = Vec::new();
    let spsa = if dir.join("spsa.toml").is_file() {
        let spec = SpsaSpec::load(dir)?;
        let csv_path = dir.join("spsa.csv");
        let steps = if csv_path.is_file() {
            trajectory::read(&csv_path, &spec.params)?
        } else {
            notes.push("no spsa.csv (the tune applied no iteration)".into());
            Vec::new()
        };
        Some(SpsaRun { spec, steps })
    } else {
        None
    };
    let config_path = dir.join("config.toml");
    let (config, config_file) = if config_path.is_file() {
        let text = std::fs::read_to_string(&config_path)
            .with_context(|| format!("reading {}", config_path.display()))?;
        let config = MatchConfig::load(dir)?;
        (
            Some(config),
            Some(RecordedConfig {
                file_name: "config.toml".into(),
                text,
            }),
        )
    } else {
        if spsa.is_none() {
            notes.push("no configuration file (config.toml)".into());
        }
        (None, None)
    };
    let summary = if dir.join("summary.json").is_file() {
        Some(SummaryFile::load(dir)?)
    } else {
        notes.push("no summary.json (the run may still be going or was interrupted)".into());
        None
    };
    let (board, games) = count(dir, config.as_ref(), summary.as_ref(), &mut notes)?;
    Ok(RunFolder {
        dir: dir.to_path_buf(),
        games,
        board,
        summary,
        config,
        config_file,
        spsa,
        notes,
    })
}

/// The folder's scoreboard and the rows it counted in complete pairs. Without a
/// configuration the first engine is the first of summary.json's engines, else White of the
/// first game (the runner gives the first engine White there, as fastchess does).
fn count(
    dir: &Path,
    config: Option<&MatchConfig>,
    summary: Option<&SummaryFile>,
    notes: &mut Vec<String>,
) -> anyhow::Result<(Scoreboard, Vec<GameRow>)> {
    let path = dir.join("games.csv");
    let found = read_games_csv(&path)?;
    notes.extend(found.cut_off.as_ref().map(|c| c.note.clone()));
    let mut board = match config {
        Some(c) => Scoreboard::new(
            &c.engines[0].name,
            &c.engines[1].name,
            Some(c.games.div_ceil(2)),
        ),
        None => {
            let declared = summary.and_then(|s| s.engines.first().map(|e| e.name.clone()));
            let first = declared
                .filter(|name| {
                    found
                        .rows
                        .iter()
                        .any(|r| &r.white == name || &r.black == name)
                })
                .or_else(|| {
                    found
                        .rows
                        .iter()
                        .min_by_key(|r| (r.pair, r.game))
                        .map(|r| r.white.clone())
                })
                .unwrap_or_default();
            let second = found
                .rows
                .iter()
                .flat_map(|r| [&r.white, &r.black])
                .find(|n| **n != first)
                .cloned()
                .unwrap_or_default();
            Scoreboard::new(&first, &second, None)
        }
    };
    let mut counted = board.add_csv_rows(&found, &path);
    notes.extend(board.skipped().iter().cloned());
    if board.half_pair_games() > 0 {
        notes.push(format!(
            "{} finished games whose pair is not complete are left out",
            board.half_pair_games()
        ));
    }
    counted.retain(|r| board.pair_complete(r.pair));
    Ok((board, counted))
}
