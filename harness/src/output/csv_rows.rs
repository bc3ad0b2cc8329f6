//! games.csv: one row per finished game, appended and flushed as each game ends.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// One row of games.csv (the column order is the contract with `harness report`/`elo`).
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
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub termination: String,
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

/// An open games.csv that rows are appended to.
pub struct GamesCsv {
    path: PathBuf,
    writer: csv::Writer<File>,
}

/// Reads every complete row of a games.csv.
pub fn read_rows(path: &Path) -> anyhow::Result<Vec<GameRow>> {
    let mut reader = csv::Reader::from_path(path).with_context(|| format!("{}", path.display()))?;
    let mut rows = Vec::new();
    for (i, row) in reader.deserialize().enumerate() {
        let row: GameRow = row.with_context(|| format!("{}: row {}", path.display(), i + 2))?;
        rows.push(row);
    }
    Ok(rows)
}

impl GamesCsv {
    /// Creates `dir/games.csv` with its header, or, when `resume`, reopens it for appending
    /// after cutting off a row left half-written by a crash. Returns the rows already there.
    pub fn open(dir: &Path, resume: bool) -> anyhow::Result<(GamesCsv, Vec<GameRow>)> {
        let path = dir.join("games.csv");
        let existing = if resume && path.exists() {
            truncate_partial_line(&path)?;
            read_rows(&path)?
        } else {
            Vec::new()
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

/// Cuts a file back to its last newline (a row cut short by SIGKILL is dropped; its game is
/// played again on resume).
fn truncate_partial_line(path: &Path) -> anyhow::Result<()> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        file.set_len(keep as u64)?;
        file.seek(SeekFrom::End(0))?;
        file.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64) -> GameRow {
        GameRow {
            game,
            pair: game / 2,
            opening_index: 3,
            opening_fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            white: "a".into(),
            black: "b, \"quoted\"".into(),
            result: "1/2-1/2".into(),
            termination: "stalemate".into(),
            plies: 10,
            final_fen: "8/8/8/8/8/8/8/K6k b - - 0 1".into(),
            white_nodes: 1,
            black_nodes: 2,
            white_time_ms: 3,
            black_time_ms: 4,
        }
    }

    #[test]
    fn header_matches_fields_and_resume_drops_partial_row() {
        let dir = std::env::temp_dir().join(format!("harness-csv-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (mut csv, existing) = GamesCsv::open(&dir, false).unwrap();
        assert!(existing.is_empty());
        csv.append(&row(0)).unwrap();
        csv.append(&row(1)).unwrap();
        drop(csv);
        // Simulate a crash in the middle of a row.
        let path = dir.join("games.csv");
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"2,1,3,\"8/8").unwrap();
        drop(f);
        let (mut csv, existing) = GamesCsv::open(&dir, true).unwrap();
        assert_eq!(existing, vec![row(0), row(1)]);
        csv.append(&row(2)).unwrap();
        drop(csv);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next().unwrap(), HEADER);
        assert_eq!(read_rows(&path).unwrap(), vec![row(0), row(1), row(2)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
