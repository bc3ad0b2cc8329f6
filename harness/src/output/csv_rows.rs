//! games.csv: one row per finished game, appended and flushed as each game ends, and the one
//! reader of the file (resume, `harness report` and `harness elo --results` all use it).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::UsageError;
use crate::game::{GameResult, Termination};

/// The result column of games.csv: a finished game's result, or `*` for one that did not
/// finish (written by other tools; `harness match` writes only finished games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RowResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "*")]
    Unfinished,
}

impl From<GameResult> for RowResult {
    fn from(result: GameResult) -> Self {
        match result {
            GameResult::WhiteWins => RowResult::WhiteWins,
            GameResult::BlackWins => RowResult::BlackWins,
            GameResult::Draw => RowResult::Draw,
        }
    }
}

impl RowResult {
    /// The finished game's result; `None` for `*`.
    pub fn outcome(self) -> Option<GameResult> {
        match self {
            RowResult::WhiteWins => Some(GameResult::WhiteWins),
            RowResult::BlackWins => Some(GameResult::BlackWins),
            RowResult::Draw => Some(GameResult::Draw),
            RowResult::Unfinished => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        self.outcome().map_or(UNFINISHED, GameResult::as_str)
    }
}

impl std::fmt::Display for RowResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of games.csv, written and read through these serde derives (the column order is
/// the field order; readers find columns by name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game index from 0; games `2p` and `2p+1` form pair `p`.
    pub game: u64,
    pub pair: u64,
    /// Index of the opening in the book file (0-based, file order).
    pub opening_index: u64,
    /// FEN of the position the engines started from (after any book moves).
    pub opening_fen: String,
    pub white: String,
    pub black: String,
    pub result: RowResult,
    /// How the game ended; empty for an unfinished game.
    pub termination: Option<Termination>,
    /// Plies of the whole game, book moves included (the PGN's PlyCount).
    pub plies: u32,
    pub final_fen: String,
    pub white_nodes: u64,
    pub black_nodes: u64,
    pub white_time_ms: u64,
    pub black_time_ms: u64,
}

/// The header line, in column order.
pub const HEADER: &str = "game,pair,opening_index,opening_fen,white,black,result,termination,plies,final_fen,white_nodes,black_nodes,white_time_ms,black_time_ms";

/// The result column of a game that did not finish.
pub const UNFINISHED: &str = "*";

impl GameRow {
    /// The game's result; `None` for an unfinished game (`*`).
    pub fn outcome(&self) -> Option<GameResult> {
        self.result.outcome()
    }

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

/// The rows of a games.csv, as [`read_games_csv`] found them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamesCsvRows {
    /// Every complete row in file order, unfinished games (result `*`) included.
    pub rows: Vec<GameRow>,
    /// The line of each row in the file (1 = the header), parallel to `rows`.
    pub lines: Vec<u64>,
    /// A last line without its newline (a write cut short by a kill), left out of `rows`.
    pub cut_off: Option<CutOffLine>,
}

impl GamesCsvRows {
    /// Rows of games that did not finish (result `*`).
    pub fn unfinished(&self) -> usize {
        self.rows.iter().filter(|r| r.outcome().is_none()).count()
    }
}

/// A last line of games.csv cut off mid-write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutOffLine {
    /// Its line number (1 = the header).
    pub line: u64,
    /// Where it starts: the file cut back to this length ends with a complete row.
    pub byte_offset: u64,
    /// `games.csv:LINE: skipped a last line cut off mid-write (...)`, for the reader.
    pub note: String,
}

/// Reads a games.csv: the header must name every column of [`HEADER`] (any order, extra
/// columns ignored). A malformed row is a [`UsageError`] naming `games.csv:LINE` and what is
/// wrong; a last line with no newline is left out and described in `cut_off`.
pub fn read_games_csv(path: &Path) -> anyhow::Result<GamesCsvRows> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    parse_games_csv(&text, path)
}

/// [`read_games_csv`] on text already read; `path` only names the file in messages.
pub fn parse_games_csv(text: &str, path: &Path) -> anyhow::Result<GamesCsvRows> {
    let bad = |line: u64, message: String| -> anyhow::Error {
        UsageError(format!("{}:{line}: {message}", path.display())).into()
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| bad(1, format!("unreadable header: {e}")))?
        .clone();
    for name in HEADER.split(',') {
        if !headers.iter().any(|h| h == name) {
            return Err(bad(1, format!("header has no column '{name}'")));
        }
    }
    // The writer ends every row with a newline, so a last line without one was cut short.
    let ends_cleanly = text.ends_with('\n');

    let mut found = GamesCsvRows::default();
    let mut records = reader.records().peekable();
    while let Some(record) = records.next() {
        let is_last = records.peek().is_none();
        let at = |p: Option<&csv::Position>| p.map_or((0, 0), |p| (p.line(), p.byte()));
        let ((line, byte_offset), parsed) = match record {
            Ok(record) => (at(record.position()), parse_row(&record, &headers)),
            Err(e) => (at(e.position()), Err(format!("unreadable CSV: {e}"))),
        };
        if is_last && !ends_cleanly {
            let problem = parsed.err().unwrap_or_else(|| "no newline".into());
            found.cut_off = Some(CutOffLine {
                line,
                byte_offset,
                note: format!(
                    "{}:{line}: skipped a last line cut off mid-write ({problem})",
                    path.display()
                ),
            });
            break;
        }
        found
            .rows
            .push(parsed.map_err(|message| bad(line, message))?);
        found.lines.push(line);
    }
    Ok(found)
}

/// One row through [`GameRow`]'s serde derives, or what is wrong with it (the column named).
fn parse_row(record: &csv::StringRecord, headers: &csv::StringRecord) -> Result<GameRow, String> {
    if record.len() != headers.len() {
        return Err(format!(
            "expected {} fields as in the header, found {}",
            headers.len(),
            record.len()
        ));
    }
    // serde names no column for a bad enum value: check those two first.
    let field = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .and_then(|i| record.get(i))
            .unwrap_or("")
    };
    let result = field("result");
    if !["1-0", "0-1", "1/2-1/2", UNFINISHED].contains(&result) {
        return Err(format!(
            "column 'result': '{result}' is not 1-0, 0-1, 1/2-1/2 or {UNFINISHED}"
        ));
    }
    let termination = field("termination");
    if !termination.is_empty() && Termination::from_name(termination).is_none() {
        return Err(format!(
            "column 'termination': '{termination}' is not one of {}",
            Termination::ALL.map(Termination::as_str).join(", ")
        ));
    }
    let row: GameRow = record
        .deserialize(Some(headers))
        .map_err(|e| match e.kind() {
            csv::ErrorKind::Deserialize { err, .. } => {
                let column = err
                    .field()
                    .and_then(|i| headers.get(i as usize))
                    .unwrap_or("?");
                let value = err
                    .field()
                    .and_then(|i| record.get(i as usize))
                    .unwrap_or("");
                let expected = match column {
                    "plies" => " (expected a non-negative integer below 2^32)",
                    _ => " (expected a non-negative integer)",
                };
                format!("column '{column}': '{value}' is not valid{expected}")
            }
            _ => format!("unreadable CSV: {e}"),
        })?;
    if row.white.is_empty() || row.black.is_empty() {
        return Err("empty engine name in 'white' or 'black'".into());
    }
    if row.result != RowResult::Unfinished && row.termination.is_none() {
        return Err("column 'termination' is empty for a finished game".into());
    }
    Ok(row)
}

/// An open games.csv that rows are appended to.
pub struct GamesCsv {
    path: PathBuf,
    writer: csv::Writer<File>,
}

impl GamesCsv {
    /// Creates `dir/games.csv` with its header, or, when `resume`, reopens it for appending
    /// after cutting off a row left half-written by a crash (its game is played again).
    /// Returns the rows already there.
    pub fn open(dir: &Path, resume: bool) -> anyhow::Result<(GamesCsv, GamesCsvRows)> {
        let path = dir.join("games.csv");
        let existing = if resume && path.exists() {
            read_for_append(&path)?
        } else {
            GamesCsvRows::default()
        };
        let needs_header = !(resume && path.exists() && std::fs::metadata(&path)?.len() > 0);
        let file = OpenOptions::new()
            .create(true)
            .append(resume)
            .write(true)
            .truncate(!resume)
            .open(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if needs_header {
            writer.write_record(HEADER.split(','))?;
            writer.flush()?;
        }
        Ok((GamesCsv { path, writer }, existing))
    }

    /// Appends one row and flushes it to the file.
    pub fn append(&mut self, row: &GameRow) -> anyhow::Result<()> {
        self.writer
            .serialize(row)
            .and_then(|()| self.writer.flush().map_err(csv::Error::from))
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Reads a games.csv that rows will be appended to, cutting off a last line left half-written.
/// Its header must be exactly [`HEADER`], since new rows are written in that order.
fn read_for_append(path: &Path) -> anyhow::Result<GamesCsvRows> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let cut_back = |len: u64| -> anyhow::Result<()> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        file.set_len(len)
            .with_context(|| format!("cannot cut back {}", path.display()))
    };
    let Some((header, _)) = text.split_once('\n') else {
        // Not even the header was written in full: start afresh.
        cut_back(0)?;
        return Ok(GamesCsvRows::default());
    };
    if header.trim_end_matches('\r') != HEADER {
        return Err(UsageError(format!(
            "{}:1: the header is not the one harness match writes, so rows cannot be \
             appended; expected {HEADER}",
            path.display()
        ))
        .into());
    }
    let found = parse_games_csv(&text, path)?;
    if let Some(cut_off) = &found.cut_off {
        cut_back(cut_off.byte_offset)?;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn row(game: u64) -> GameRow {
        GameRow {
            game,
            pair: game / 2,
            opening_index: 3,
            opening_fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            white: "a".into(),
            black: "b, \"quoted\"".into(),
            result: RowResult::Draw,
            termination: Some(Termination::Stalemate),
            plies: 10,
            final_fen: "8/8/8/8/8/8/8/K6k b - - 0 1".into(),
            white_nodes: 1,
            black_nodes: 2,
            white_time_ms: 3,
            black_time_ms: 4,
        }
    }

    fn parse(text: &str) -> anyhow::Result<GamesCsvRows> {
        parse_games_csv(text, Path::new("x/games.csv"))
    }

    #[test]
    fn header_matches_fields_and_resume_drops_partial_row() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (mut csv, existing) = GamesCsv::open(dir, false).unwrap();
        assert!(existing.rows.is_empty());
        csv.append(&row(0)).unwrap();
        csv.append(&row(1)).unwrap();
        drop(csv);
        // Simulate a crash in the middle of a row.
        let path = dir.join("games.csv");
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"2,1,3,\"8/8").unwrap();
        drop(f);
        let (mut csv, existing) = GamesCsv::open(dir, true).unwrap();
        assert_eq!(existing.rows, vec![row(0), row(1)]);
        assert_eq!(existing.cut_off.map(|c| c.line), Some(4));
        csv.append(&row(2)).unwrap();
        drop(csv);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next().unwrap(), HEADER);
        let again = read_games_csv(&path).unwrap();
        assert_eq!(again.rows, vec![row(0), row(1), row(2)]);
        assert_eq!(again.cut_off, None);
    }

    #[test]
    fn resume_starts_afresh_when_the_header_was_cut_off() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("games.csv"), "game,pa").unwrap();
        let (mut csv, existing) = GamesCsv::open(tmp.path(), true).unwrap();
        assert!(existing.rows.is_empty());
        csv.append(&row(0)).unwrap();
        drop(csv);
        let rows = read_games_csv(&tmp.path().join("games.csv")).unwrap().rows;
        assert_eq!(rows, vec![row(0)]);
    }

    #[test]
    fn resume_refuses_a_header_in_another_order() {
        let tmp = tempfile::tempdir().unwrap();
        let reordered = HEADER.replacen("game,pair", "pair,game", 1);
        std::fs::write(tmp.path().join("games.csv"), format!("{reordered}\n")).unwrap();
        let err = GamesCsv::open(tmp.path(), true).err().unwrap();
        assert!(err.to_string().contains("games.csv:1"), "{err}");
        assert!(err.downcast_ref::<UsageError>().is_some());
    }

    #[test]
    fn reads_columns_by_name_and_keeps_unfinished_games() {
        let text = "pair,game,extra,opening_index,opening_fen,white,black,result,termination,plies,final_fen,white_nodes,black_nodes,white_time_ms,black_time_ms\n\
                    0,1,x,3,fen,a,b,*,,0,fen,1,2,3,4\n";
        let found = parse(text).unwrap();
        assert_eq!(found.rows[0].game, 1);
        assert_eq!(found.rows[0].outcome(), None);
        assert_eq!(found.unfinished(), 1);
    }

    #[test]
    fn bad_result_names_file_and_line() {
        let text = format!(
            "{HEADER}\n0,0,0,fen,a,b,1-0,checkmate,5,x,1,1,1,1\n1,0,0,fen,b,a,2-0,checkmate,5,x,1,1,1,1\n"
        );
        let err = parse(&text).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("x/games.csv:3")
                && message.contains("'2-0'")
                && message.contains("column 'result'"),
            "{message}"
        );
        assert!(err.downcast_ref::<UsageError>().is_some());
    }

    #[test]
    fn bad_number_and_short_row_name_the_line() {
        let text = format!("{HEADER}\ntwo,0,0,fen,a,b,1-0,checkmate,5,x,1,1,1,1\n");
        let err = parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("games.csv:2") && err.contains("'two'"),
            "{err}"
        );
        let text = format!("{HEADER}\n0,0,0,fen,a,b,1-0\n");
        let err = parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("games.csv:2") && err.contains("found 7"),
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
    fn cut_off_last_line_is_skipped_and_reported() {
        let text = format!("{HEADER}\n0,0,0,fen,a,b,1-0,checkmate,5,x,1,1,1,1\n1,0,0,fen,b,a,1-");
        let found = parse(&text).unwrap();
        assert_eq!(found.rows.len(), 1);
        let cut_off = found.cut_off.unwrap();
        assert_eq!(cut_off.line, 3);
        assert_eq!(cut_off.byte_offset as usize, text.rfind("1,0,0").unwrap());
        assert!(cut_off.note.contains("x/games.csv:3"), "{}", cut_off.note);
    }

    #[test]
    fn engine_moves_leave_out_book_plies() {
        let text = format!(
            "{HEADER}\n0,0,3,8/8/8/8/8/8/8/K1k5 b - - 0 1,a,b,0-1,checkmate,5,x,10,20,1,2\n\
             1,0,0,4k3/8/8/8/8/8/8/4K3 w - - 0 5,a,b,1/2-1/2,stalemate,19,4k3/8/8/8/8/8/8/4K3 b - - 0 10,1,1,1,1\n"
        );
        let rows = parse(&text).unwrap().rows;
        // Black to move at the start, no FEN counters at the end: `plies` as it is.
        assert_eq!(rows[0].engine_moves_by_colour(), (2, 3));
        // 8 book plies to reach move 5 with white to move, then 11 engine plies.
        assert_eq!(rows[1].engine_plies(), 11);
        assert_eq!(rows[1].engine_moves_by_colour(), (6, 5));
    }
}
