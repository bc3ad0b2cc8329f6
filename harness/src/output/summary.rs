//! summary.json: the statistics of a run's complete pairs (the keys of `harness elo --json`)
//! with its engines, counts and how it ended; written and read through [`SummaryFile`].

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::UsageError;
use crate::game::Termination;
use crate::runner::EngineConfig;
use crate::scoreboard::Scoreboard;
use crate::stats::{SprtConfig, Summary};
use crate::uci::FaultKind;

/// Everything summary.json holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryFile {
    /// `games elo elo_err95 los draw_ratio nelo nelo_err95 llr llr_lower llr_upper state model`.
    #[serde(flatten)]
    pub stats: Summary,
    /// The first engine's wins, draws and losses in complete pairs.
    #[serde(default)]
    pub wins: u64,
    #[serde(default)]
    pub draws: u64,
    #[serde(default)]
    pub losses: u64,
    /// Pair counts LL, LD, WL+DD, WD, WW (fastchess's Ptnml(0-2)).
    #[serde(default)]
    pub pentanomial: [u64; 5],
    #[serde(default)]
    pub engines: Vec<EngineConfig>,
    /// Games of complete pairs (what the statistics count).
    #[serde(default)]
    pub games_played: u64,
    /// Finished games whose pair partner has not finished (counted once it has).
    #[serde(default)]
    pub half_pair_games: u64,
    #[serde(default)]
    pub games_requested: u64,
    #[serde(default)]
    pub wall_seconds: f64,
    #[serde(default)]
    pub terminations: BTreeMap<Termination, u64>,
    /// Per engine: games lost by each fault.
    #[serde(default)]
    pub faults: BTreeMap<String, BTreeMap<FaultKind, u64>>,
    /// Rows of games.csv that were not counted, and why.
    #[serde(default)]
    pub skipped: Vec<String>,
    #[serde(default)]
    pub interrupted: bool,
    #[serde(default)]
    pub fault_stop: Option<String>,
    #[serde(default)]
    pub stopped_by_sprt: bool,
}

/// How a run ended, for [`SummaryFile::new`].
#[derive(Clone, Debug, Default)]
pub struct RunEnd {
    pub games_requested: u64,
    pub wall_seconds: f64,
    pub interrupted: bool,
    pub fault_stop: Option<String>,
    pub stopped_by_sprt: bool,
}

impl SummaryFile {
    /// The summary of `board` for a run of `engines`.
    pub fn new(
        board: &Scoreboard,
        sprt: Option<&SprtConfig>,
        engines: &[EngineConfig],
        end: RunEnd,
    ) -> SummaryFile {
        let tri = board.trinomial();
        let mut faults = board.faults().clone();
        for e in engines {
            faults.entry(e.name.clone()).or_default();
        }
        SummaryFile {
            stats: board.summary(sprt),
            wins: tri.wins,
            draws: tri.draws,
            losses: tri.losses,
            pentanomial: board.pentanomial().counts,
            engines: engines.to_vec(),
            games_played: board.games(),
            half_pair_games: board.half_pair_games(),
            games_requested: end.games_requested,
            wall_seconds: (end.wall_seconds * 1000.0).round() / 1000.0,
            terminations: board.terminations().clone(),
            faults,
            skipped: board.skipped().to_vec(),
            interrupted: end.interrupted,
            fault_stop: end.fault_stop,
            stopped_by_sprt: end.stopped_by_sprt,
        }
    }

    /// Writes `dir/summary.json`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        write_json(&dir.join("summary.json"), self)
    }

    /// Reads `dir/summary.json`; a malformed file is a [`UsageError`] naming file, line and
    /// column.
    pub fn load(dir: &Path) -> anyhow::Result<SummaryFile> {
        let path = dir.join("summary.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| {
            UsageError(format!(
                "{}:{}:{}: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
            .into()
        })
    }
}

/// Writes `value` as pretty JSON, through a temporary file so a crash never leaves half a file.
pub fn write_json(path: &Path, value: &impl Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    write_atomically(path, &(text + "\n"))
}

/// Writes `text` to `path` through a temporary file beside it and a rename, so a reader (or
/// a crash) never sees half a file.
pub fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    write_bytes_atomically(path, text.as_bytes())
}

/// [`write_atomically`] for bytes.
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Checks before any work that `path` can be written: its folder exists (or is made) and a
/// file can be created there. The error names the path.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    let usage = |e: std::io::Error| UsageError(format!("cannot write {}: {e}", path.display()));
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(usage)?;
    }
    if path.is_dir() {
        return Err(UsageError(format!("cannot write {}: it is a folder", path.display())).into());
    }
    let mut probe_name = path.file_name().unwrap_or_default().to_os_string();
    probe_name.push(".probe");
    let probe = path.with_file_name(probe_name);
    std::fs::write(&probe, b"").map_err(usage)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
