//! `<out>.progress`: where a `harness datagen` run stands, so that a stopped run carries on
//! exactly where it stopped (`--resume`) and its file ends as one uninterrupted run's would.
//!
//! Game `i` depends only on the run's settings and `i`, and games are written in index order,
//! so the state of a run is the settings, the number of games written and the length of the
//! file after them. The duplicate filter's memory is the positions already in the file, read
//! back on resume. The file is rewritten after every game through a temporary file, so a kill
//! leaves the record of the last game or the one before; lines written after the recorded
//! length (a game whose record did not land, or the last game cut short at `--positions`) are
//! cut off on resume and the game played again.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use engine::params::{Params, specs};
use engine::search::position_key;
use serde::{Deserialize, Serialize};
use shakmaty::CastlingMode;
use shakmaty::fen::Fen;

use super::filter::{Deduplicator, FilterStats};
use super::writer::OutputFormat;
use super::{DatagenOptions, DatagenReport};
use crate::UsageError;

/// What makes the games of a run: two runs with equal settings play the same game `i`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSettings {
    /// As text: TOML's integers stop at 2⁶³ − 1.
    #[serde(with = "u64_text")]
    pub seed: u64,
    pub nodes: u64,
    /// `book` or `score`.
    pub format: String,
    /// The opening book as given (`None`: the start position), and how many openings it has.
    pub book: Option<String>,
    pub book_openings: usize,
    pub random_plies: usize,
    /// 0: every random line kept.
    pub max_opening_score: i32,
    pub hash_mb: usize,
    /// `engine bench` nodes at depth 4 with the run's parameters: another build of the
    /// engine plays other games.
    pub engine_bench: u64,
    /// The parameters that differ from the engine's defaults.
    pub params: BTreeMap<String, i32>,
}

impl RunSettings {
    /// The settings of `options`, its book of `book_openings` openings named `book`.
    pub fn of(options: &DatagenOptions, book_openings: usize) -> Self {
        let selfplay = &options.selfplay;
        let defaults = Params::default();
        let params = defaults
            .diff(&selfplay.params)
            .into_iter()
            .map(|(id, _, value)| (specs()[id].name.to_string(), value))
            .collect();
        let engine_bench = engine::bench::run(&selfplay.params, 4, &mut std::io::sink())
            .map_or(0, |result| result.nodes);
        RunSettings {
            seed: selfplay.seed,
            nodes: selfplay.nodes,
            format: match options.format {
                OutputFormat::Book => "book",
                OutputFormat::Score => "score",
            }
            .to_string(),
            book: options.book_name.clone(),
            book_openings,
            random_plies: selfplay.random_plies,
            max_opening_score: selfplay.max_opening_score.unwrap_or(0),
            hash_mb: selfplay.hash_mb,
            engine_bench,
            params,
        }
    }

    /// The first setting in which `self` (the recorded run) and `given` differ, as
    /// `key: recorded X, given Y`.
    fn first_difference(&self, given: &RunSettings) -> Option<String> {
        let pairs = [
            ("seed", self.seed.to_string(), given.seed.to_string()),
            ("nodes", self.nodes.to_string(), given.nodes.to_string()),
            ("format", self.format.clone(), given.format.clone()),
            (
                "book",
                format!("{:?}", self.book),
                format!("{:?}", given.book),
            ),
            (
                "book openings",
                self.book_openings.to_string(),
                given.book_openings.to_string(),
            ),
            (
                "random plies",
                self.random_plies.to_string(),
                given.random_plies.to_string(),
            ),
            (
                "max opening score",
                self.max_opening_score.to_string(),
                given.max_opening_score.to_string(),
            ),
            ("hash", self.hash_mb.to_string(), given.hash_mb.to_string()),
            (
                "engine bench (depth 4)",
                self.engine_bench.to_string(),
                given.engine_bench.to_string(),
            ),
            (
                "params",
                format!("{:?}", self.params),
                format!("{:?}", given.params),
            ),
        ];
        pairs
            .into_iter()
            .find(|(_, recorded, now)| recorded != now)
            .map(|(key, recorded, now)| format!("{key}: recorded {recorded}, given {now}"))
    }
}

/// The counts of a run after its last whole game, and the file's length then.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// Games handed on (game `games` is the next to play).
    pub games: u64,
    pub positions: u64,
    /// Bytes of the output file after those games.
    pub bytes: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub duplicates: u64,
    pub filtered: FilterStats,
}

impl Written {
    /// The report of a run that has written this much (no time spent yet).
    pub fn report(&self) -> DatagenReport {
        DatagenReport {
            positions: self.positions,
            games: self.games,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            duplicates: self.duplicates,
            filtered: self.filtered,
            resumed_positions: self.positions,
            elapsed: std::time::Duration::ZERO,
        }
    }

    /// The counts of `report` with the file at `bytes`.
    pub fn of(report: &DatagenReport, bytes: u64) -> Self {
        Written {
            games: report.games,
            positions: report.positions,
            bytes,
            white_wins: report.white_wins,
            draws: report.draws,
            black_wins: report.black_wins,
            duplicates: report.duplicates,
            filtered: report.filtered,
        }
    }
}

/// The progress file's contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub run: RunSettings,
    pub written: Written,
}

/// `<out>.progress`.
pub fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

impl Progress {
    /// Writes the record through a temporary file and a rename, so a crash leaves the old
    /// record or the new one.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = format!(
            "# harness datagen: where the run writing this file's output stands \
             (`harness datagen ... --resume` carries it on)\n{}",
            toml::to_string(self).context("serialising the datagen progress")?
        );
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .with_context(|| format!("writing {}", path.display()))
    }

    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            UsageError(format!(
                "cannot resume: {} ({e}); it records where the run stopped",
                path.display()
            ))
        })?;
        toml::from_str(&text).map_err(|e| {
            UsageError(format!(
                "{}: not a datagen progress file: {e}",
                path.display()
            ))
            .into()
        })
    }

    /// Checks that `given` (this invocation's settings) plays the recorded run's games.
    pub fn check_settings(&self, given: &RunSettings, path: &Path) -> anyhow::Result<()> {
        match self.run.first_difference(given) {
            Some(difference) => Err(UsageError(format!(
                "cannot resume the run recorded in {}: its settings differ ({difference}); \
                 give the same settings, or start a new run without --resume",
                path.display()
            ))
            .into()),
            None => Ok(()),
        }
    }
}

/// Cuts `out` back to `bytes` (the recorded length) and reads its positions into a duplicate
/// filter: the state the run had after its last recorded game.
pub fn restore(out: &Path, bytes: u64, format: OutputFormat) -> anyhow::Result<Deduplicator> {
    let length = std::fs::metadata(out)
        .map_err(|e| UsageError(format!("cannot resume: {} ({e})", out.display())))?
        .len();
    if length < bytes {
        return Err(UsageError(format!(
            "cannot resume: {} has {length} bytes, fewer than the {bytes} its progress file \
             records: not this run's output",
            out.display()
        ))
        .into());
    }
    if length > bytes {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .with_context(|| format!("opening {}", out.display()))?;
        file.set_len(bytes)
            .with_context(|| format!("cutting {} back to {bytes} bytes", out.display()))?;
    }
    let file = File::open(out).with_context(|| format!("reading {}", out.display()))?;
    let mut seen = Deduplicator::new();
    for (number, line) in BufReader::new(file.take(bytes)).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", out.display()))?;
        let fen = match format {
            OutputFormat::Score => line.split(';').next(),
            OutputFormat::Book => line.rsplit_once(" [").map(|(fen, _)| fen),
        };
        let position = fen
            .and_then(|fen| fen.trim().parse::<Fen>().ok())
            .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            .ok_or_else(|| {
                UsageError(format!(
                    "{}:{}: not a position line of this run: {line:?}",
                    out.display(),
                    number + 1
                ))
            })?;
        seen.insert(position_key(&position));
    }
    Ok(seen)
}

/// A `u64` as a TOML string.
mod u64_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&value.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
