//! Reads a match results folder: `games.csv` (required), `summary.json` and the configuration
//! file (both optional). Malformed files are errors naming the file and line.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde_json::Value;

use crate::UsageError;

/// The columns `games.csv` must have (any order; extra columns are ignored).
pub const GAMES_COLUMNS: [&str; 14] = [
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
    "white_time_ms",
    "black_time_ms",
];

/// The result of one game, as written in PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// Parses `1-0`, `0-1` or `1/2-1/2`.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// Points for white doubled (2 = win, 1 = draw, 0 = loss), so sums stay integers.
    pub fn white_points_x2(self) -> u8 {
        match self {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// One row of `games.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game: u64,
    pub pair: u64,
    pub opening_index: u64,
    pub opening_fen: String,
    pub white: String,
    pub black: String,
    pub result: GameResult,
    pub termination: String,
    pub plies: u32,
    pub final_fen: String,
    pub white_nodes: u64,
    pub black_nodes: u64,
    pub white_time_ms: u64,
    pub black_time_ms: u64,
}

impl GameRecord {
    /// Whether white moves first from the opening position (FEN field 2; `w` if absent).
    pub fn white_moves_first(&self) -> bool {
        self.opening_fen.split_whitespace().nth(1) != Some("b")
    }

    /// Plies the engines played: from the opening FEN to the final FEN by their move counters
    /// (`plies` also counts book moves), or `plies` when the FENs do not say.
    pub fn engine_plies(&self) -> u32 {
        match (fen_ply(&self.opening_fen), fen_ply(&self.final_fen)) {
            (Some(start), Some(end)) if end >= start && end - start <= u64::from(self.plies) => {
                (end - start) as u32
            }
            _ => self.plies,
        }
    }

    /// Moves the engines made as (white, black), counted from the opening position.
    pub fn engine_moves_by_colour(&self) -> (u32, u32) {
        let plies = self.engine_plies();
        let (first, second) = (plies.div_ceil(2), plies / 2);
        if self.white_moves_first() {
            (first, second)
        } else {
            (second, first)
        }
    }
}

/// The game ply a FEN stands at, from its side to move and full-move number.
fn fen_ply(fen: &str) -> Option<u64> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = match *fields.get(1)? {
        "w" => 0,
        "b" => 1,
        _ => return None,
    };
    let fullmove: u64 = fields.get(5)?.parse().ok()?;
    Some(2 * fullmove.saturating_sub(1) + black)
}

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
    pub games: Vec<GameRecord>,
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
    let games_text = std::fs::read_to_string(&games_path)
        .with_context(|| format!("reading {}", games_path.display()))?;
    let games = parse_games_csv(&games_text, &games_path, &mut notes)?;

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

/// Parses the text of `games.csv`. A last line cut off mid-write (no final newline) is
/// skipped with a note, since a killed run can leave one; any other bad line is an error.
pub fn parse_games_csv(
    text: &str,
    path: &Path,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<GameRecord>> {
    let bad = |line: u64, message: String| -> anyhow::Error {
        UsageError(format!("{}:{line}: {message}", path.display())).into()
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| bad(1, format!("unreadable header: {e}")))?
        .clone();
    let mut column = [0usize; GAMES_COLUMNS.len()];
    for (slot, name) in column.iter_mut().zip(GAMES_COLUMNS) {
        *slot = headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| bad(1, format!("header has no column '{name}'")))?;
    }
    let width = headers.len();
    let ends_cleanly = text.ends_with('\n');

    let mut games = Vec::new();
    let mut unfinished = 0;
    let mut records = reader.records().peekable();
    while let Some(record) = records.next() {
        let is_last = records.peek().is_none();
        let parsed = record
            .map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                (line, format!("unreadable CSV: {e}"))
            })
            .and_then(|record| {
                let line = record.position().map_or(0, |p| p.line());
                parse_row(&record, &column, width).map_err(|message| (line, message))
            });
        match parsed {
            Ok(Some(game)) => games.push(game),
            Ok(None) => unfinished += 1,
            Err((line, message)) if is_last && !ends_cleanly => {
                notes.push(format!(
                    "{}:{line}: skipped a last line cut off mid-write ({message})",
                    path.display()
                ));
            }
            Err((line, message)) => return Err(bad(line, message)),
        }
    }
    if unfinished > 0 {
        notes.push(format!(
            "{}: {unfinished} unfinished games (result *) left out",
            path.display()
        ));
    }
    Ok(games)
}

fn parse_row(
    record: &csv::StringRecord,
    column: &[usize; GAMES_COLUMNS.len()],
    width: usize,
) -> Result<Option<GameRecord>, String> {
    if record.len() != width {
        return Err(format!(
            "expected {width} fields as in the header, found {}",
            record.len()
        ));
    }
    let field = |i: usize| record.get(column[i]).unwrap_or("").trim();
    let int = |i: usize| -> Result<u64, String> {
        let text = field(i);
        text.parse::<u64>().map_err(|_| {
            format!(
                "column '{}': '{text}' is not a non-negative integer",
                GAMES_COLUMNS[i]
            )
        })
    };
    let result_text = field(6);
    if result_text == "*" {
        return Ok(None);
    }
    let result = GameResult::parse(result_text)
        .ok_or_else(|| format!("column 'result': '{result_text}' is not 1-0, 0-1 or 1/2-1/2"))?;
    let plies = u32::try_from(int(8)?).map_err(|_| "column 'plies': too large".to_string())?;
    let white = field(4).to_string();
    let black = field(5).to_string();
    if white.is_empty() || black.is_empty() {
        return Err("empty engine name in 'white' or 'black'".into());
    }
    Ok(Some(GameRecord {
        game: int(0)?,
        pair: int(1)?,
        opening_index: int(2)?,
        opening_fen: field(3).to_string(),
        white,
        black,
        result,
        termination: field(7).to_string(),
        plies,
        final_fen: field(9).to_string(),
        white_nodes: int(10)?,
        black_nodes: int(11)?,
        white_time_ms: int(12)?,
        black_time_ms: int(13)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "game,pair,opening_index,opening_fen,white,black,result,termination,plies,final_fen,white_nodes,black_nodes,white_time_ms,black_time_ms\n";

    fn parse(text: &str) -> anyhow::Result<(Vec<GameRecord>, Vec<String>)> {
        let mut notes = Vec::new();
        parse_games_csv(text, Path::new("x/games.csv"), &mut notes).map(|g| (g, notes))
    }

    #[test]
    fn reads_rows_and_counts_moves_by_colour() {
        let text =
            format!("{HEADER}0,0,3,8/8/8/8/8/8/8/K1k5 b - - 0 1,a,b,0-1,checkmate,5,x,10,20,1,2\n");
        let (games, notes) = parse(&text).unwrap();
        assert!(notes.is_empty());
        assert_eq!(games[0].result, GameResult::BlackWins);
        assert_eq!(games[0].engine_moves_by_colour(), (2, 3));
    }

    #[test]
    fn bad_result_names_file_and_line() {
        let text = format!(
            "{HEADER}0,0,0,fen,a,b,1-0,mate,5,x,1,1,1,1\n1,0,0,fen,b,a,2-0,mate,5,x,1,1,1,1\n"
        );
        let err = parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("x/games.csv:3") && err.contains("2-0"),
            "{err}"
        );
    }

    #[test]
    fn missing_column_is_an_error_on_line_1() {
        let err = parse("game,pair\n0,0\n").unwrap_err().to_string();
        assert!(
            err.contains("games.csv:1") && err.contains("opening_index"),
            "{err}"
        );
    }

    #[test]
    fn cut_off_last_line_is_skipped_with_a_note() {
        let text = format!("{HEADER}0,0,0,fen,a,b,1-0,mate,5,x,1,1,1,1\n1,0,0,fen,b,a,1-");
        let (games, notes) = parse(&text).unwrap();
        assert_eq!(games.len(), 1);
        assert!(notes[0].contains("games.csv:3"), "{notes:?}");
    }

    #[test]
    fn engine_moves_leave_out_book_plies() {
        // 8 book plies to reach move 5 with white to move, then 11 engine plies.
        let text = format!(
            "{HEADER}0,0,0,4k3/8/8/8/8/8/8/4K3 w - - 0 5,a,b,1/2-1/2,stalemate,19,4k3/8/8/8/8/8/8/4K3 b - - 0 10,1,1,1,1\n"
        );
        let (games, _) = parse(&text).unwrap();
        assert_eq!(games[0].engine_plies(), 11);
        assert_eq!(games[0].engine_moves_by_colour(), (6, 5));
    }

    #[test]
    fn unfinished_games_are_left_out_with_a_note() {
        let text = format!("{HEADER}0,0,0,fen,a,b,*,,0,x,1,1,1,1\n");
        let (games, notes) = parse(&text).unwrap();
        assert!(games.is_empty());
        assert!(notes[0].contains("unfinished"), "{notes:?}");
    }
}
