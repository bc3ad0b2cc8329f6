//! Writing labelled positions: `FEN [1.0]` (the "book" format of the public tuning sets) or
//! `FEN; score; result`. Results and scores are from White's view.
//!
//! Each game's lines go out in one write and are flushed at once, so a run killed at any
//! moment leaves a file of whole lines.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

use super::filter::Candidate;
use crate::game::GameResult;

/// The line format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// `<FEN> [1.0]` / `[0.5]` / `[0.0]`.
    #[default]
    Book,
    /// `<FEN>; <score>; <result>`, score in centipawns, result 1.0 / 0.5 / 0.0.
    Score,
}

/// The game result as the label of its positions, White's view.
pub fn result_label(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1.0",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0.0",
    }
}

/// One output line, without the newline.
pub fn format_line(candidate: &Candidate, result: GameResult, format: OutputFormat) -> String {
    let label = result_label(result);
    match format {
        OutputFormat::Book => {
            let fen = Fen::from_position(&candidate.position, EnPassantMode::Legal);
            format!("{fen} [{label}]")
        }
        OutputFormat::Score => score_line(&candidate.position, candidate.score_white, label),
    }
}

/// A `FEN; score; result` line (no newline).
pub fn score_line(position: &Chess, score_white: i32, result: &str) -> String {
    let fen = Fen::from_position(position, EnPassantMode::Legal);
    format!("{fen}; {score_white}; {result}")
}

/// A result in `[0, 1]` as a label: `1.0`, `0.5`, `0.0` as the writer spells them, any
/// other value as it is.
pub fn result_text(result: f32) -> String {
    if (result * 2.0).fract() == 0.0 {
        format!("{result:.1}")
    } else {
        result.to_string()
    }
}

/// An output file that receives whole games.
pub struct PositionWriter {
    file: File,
    path: PathBuf,
    format: OutputFormat,
    buffer: String,
    /// Bytes in the file.
    bytes: u64,
}

impl PositionWriter {
    /// Creates (or truncates) `path`.
    pub fn create(path: &Path, format: OutputFormat) -> anyhow::Result<Self> {
        let file = File::create(path)
            .map_err(|e| crate::UsageError(format!("cannot create {}: {e}", path.display())))?;
        Ok(PositionWriter {
            file,
            path: path.to_path_buf(),
            format,
            buffer: String::new(),
            bytes: 0,
        })
    }

    /// Opens `path`, `bytes` long, to write after its end.
    pub fn append(path: &Path, format: OutputFormat, bytes: u64) -> anyhow::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| crate::UsageError(format!("cannot write {}: {e}", path.display())))?;
        Ok(PositionWriter {
            file,
            path: path.to_path_buf(),
            format,
            buffer: String::new(),
            bytes,
        })
    }

    /// Bytes in the file: those it had when opened and those written since.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Writes `positions`, all labelled `result`, as whole lines in one write, and flushes.
    pub fn write_game(
        &mut self,
        positions: &[Candidate],
        result: GameResult,
    ) -> anyhow::Result<()> {
        if positions.is_empty() {
            return Ok(());
        }
        self.buffer.clear();
        for candidate in positions {
            let _ = writeln!(
                self.buffer,
                "{}",
                format_line(candidate, result, self.format)
            );
        }
        self.file
            .write_all(self.buffer.as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.bytes += self.buffer.len() as u64;
        Ok(())
    }
}
