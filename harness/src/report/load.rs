//! Reads a match results folder: `games.csv` (required, through [`crate::output::csv_rows`]),
//! `summary.json` and the configuration file (both optional). Malformed files are errors
//! naming the file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde_json::Value;

use crate::UsageError;
use crate::output::{GameRow, read_games_csv};

/// What `summary.json` recorded. Every field is optional so older or newer runners still load;
/// `raw` keeps the whole object.
#[derive(Clone, Debug, Default)]
pub struct RecordedSummary {
    pub engines: Vec<String>,
    pub games: Option<u64>,
    pub elo: Option<f64>,
    pub elo_err95: Option<f64>,
    pub los: Option<f64>,
    pub draw_ratio: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_err95: Option<f64>,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub state: Option<String>,
    pub model: Option<String>,
    pub wall_seconds: Option<f64>,
    pub terminations: BTreeMap<String, u64>,
    pub raw: Value,
}

impl RecordedSummary {
    fn from_value(raw: Value) -> RecordedSummary {
        let num = |key: &str| raw.get(key).and_then(Value::as_f64);
        let text = |key: &str| raw.get(key).and_then(Value::as_str).map(str::to_string);
        let engines = raw
            .get("engines")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(engine_name).collect())
            .unwrap_or_default();
        let terminations = raw
            .get("terminations")
            .and_then(Value::as_object)
            .map(|map| {
                map.iter()
                    .filter_map(|(k, v)| v.as_u64().map(|n| (k.clone(), n)))
                    .collect()
            })
            .unwrap_or_default();
        RecordedSummary {
            engines,
            games: raw.get("games").and_then(Value::as_u64),
            elo: num("elo"),
            elo_err95: num("elo_err95"),
            los: num("los"),
            draw_ratio: num("draw_ratio"),
            nelo: num("nelo"),
            nelo_err95: num("nelo_err95"),
            llr: num("llr"),
            llr_lower: num("llr_lower"),
            llr_upper: num("llr_upper"),
            state: text("state"),
            model: text("model"),
            wall_seconds: num("wall_seconds"),
            terminations,
            raw,
        }
    }
}

/// An engine named in the summary or configuration: a plain string or an object with `name`.
fn engine_name(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Object(map) => map.get("name").and_then(Value::as_str).map(str::to_string),
        _ => None,
    }
}

/// The run's configuration file, parsed into a JSON value whatever its format.
#[derive(Clone, Debug)]
pub struct RecordedConfig {
    pub file_name: String,
    pub text: String,
    pub value: Value,
}

/// Everything read from one results folder.
#[derive(Clone, Debug)]
pub struct RunFolder {
    pub dir: PathBuf,
    /// The finished games of games.csv, in file order.
    pub games: Vec<GameRow>,
    pub summary: Option<RecordedSummary>,
    pub config: Option<RecordedConfig>,
    /// Things worth telling the reader (a cut-off last line, a missing file).
    pub notes: Vec<String>,
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

/// Configuration file names the loader looks for, in order.
pub const CONFIG_FILES: [&str; 2] = ["config.toml", "config.json"];

/// Reads a results folder. `games.csv` must exist; the rest is optional.
pub fn load_run(dir: &Path) -> anyhow::Result<RunFolder> {
    if !dir.is_dir() {
        return Err(UsageError(format!("{}: not a results folder", dir.display())).into());
    }
    let mut notes = Vec::new();
    let games_path = dir.join("games.csv");
    if !games_path.is_file() {
        return Err(UsageError(format!(
            "{}: no games.csv (is this a match results folder?)",
            dir.display()
        ))
        .into());
    }
    let found = read_games_csv(&games_path)?;
    notes.extend(found.cut_off.as_ref().map(|c| c.note.clone()));
    let unfinished = found.unfinished();
    if unfinished > 0 {
        notes.push(format!(
            "{}: {unfinished} unfinished games (result *) left out",
            games_path.display()
        ));
    }
    let games = found
        .rows
        .into_iter()
        .filter(|row| row.outcome().is_some())
        .collect();

    let summary_path = dir.join("summary.json");
    let summary = if summary_path.is_file() {
        let text = std::fs::read_to_string(&summary_path)
            .with_context(|| format!("reading {}", summary_path.display()))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| {
            UsageError(format!(
                "{}:{}:{}: malformed JSON: {e}",
                summary_path.display(),
                e.line(),
                e.column()
            ))
        })?;
        if !value.is_object() {
            return Err(UsageError(format!(
                "{}:1: expected a JSON object",
                summary_path.display()
            ))
            .into());
        }
        Some(RecordedSummary::from_value(value))
    } else {
        notes.push("no summary.json (the run may still be going or was interrupted)".into());
        None
    };

    let mut config = None;
    for file_name in CONFIG_FILES {
        let path = dir.join(file_name);
        if path.is_file() {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            let value = parse_config(&text, &path)?;
            config = Some(RecordedConfig {
                file_name: file_name.to_string(),
                text,
                value,
            });
            break;
        }
    }
    if config.is_none() {
        notes.push("no configuration file (config.toml or config.json)".into());
    }

    Ok(RunFolder {
        dir: dir.to_path_buf(),
        games,
        summary,
        config,
        notes,
    })
}

fn parse_config(text: &str, path: &Path) -> anyhow::Result<Value> {
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(text).map_err(|e| {
            UsageError(format!(
                "{}:{}:{}: malformed JSON: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
            .into()
        })
    } else {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let line = e
                .span()
                .map(|span| text[..span.start.min(text.len())].lines().count().max(1))
                .unwrap_or(1);
            UsageError(format!(
                "{}:{line}: malformed TOML: {}",
                path.display(),
                e.message()
            ))
        })?;
        Ok(serde_json::to_value(table)?)
    }
}
