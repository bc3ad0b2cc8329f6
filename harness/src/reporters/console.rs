//! What a person sees of a match in the terminal: a header when it starts, notes, the
//! per-game lines and the fastchess report block, all printed under the progress bar (through
//! [`Progress::suspend`], so the lines do not tear it). `harness match` and each opponent of
//! `harness gauntlet` show the same.

use std::io::{Stdout, Write};
use std::path::PathBuf;

use super::{FastchessReport, GameLines, Progress};
use crate::runner::{Control, Event, Listener};
use crate::scoreboard::Scoreboard;

/// The console listener of one match.
pub struct Console<'a> {
    progress: &'a Progress,
    /// Where the results go, for the header.
    dir: PathBuf,
    /// More header lines (e.g. the engines' bench node counts).
    header_extra: Vec<String>,
    /// `None`: no per-game lines (`--no-game-lines`).
    lines: Option<GameLines<Stdout>>,
    report: FastchessReport<'a, Stdout>,
}

impl<'a> Console<'a> {
    pub fn new(
        progress: &'a Progress,
        dir: PathBuf,
        lines: Option<GameLines<Stdout>>,
        report: FastchessReport<'a, Stdout>,
    ) -> Self {
        Console {
            progress,
            dir,
            header_extra: Vec::new(),
            lines,
            report,
        }
    }

    /// Adds a line printed under the header.
    pub fn with_header_line(mut self, line: Option<String>) -> Self {
        self.header_extra.extend(line);
        self
    }

    fn print(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<()> {
        match event {
            Event::MatchStarted {
                games_total,
                games_to_play,
                concurrency,
                ..
            } => {
                let mut out = std::io::stdout().lock();
                writeln!(
                    out,
                    "{} vs {}: {games_total} games ({} done), {concurrency} workers, results in {}",
                    board.first(),
                    board.second(),
                    games_total - games_to_play,
                    self.dir.display()
                )?;
                for line in &self.header_extra {
                    writeln!(out, "{line}")?;
                }
            }
            Event::Note { text } => eprintln!("note: {text}"),
            _ => {}
        }
        if let Some(lines) = self.lines.as_mut() {
            lines.on_event(event, board)?;
        }
        self.report.on_event(event, board)?;
        Ok(())
    }
}

impl Listener for Console<'_> {
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        let progress = self.progress;
        progress.suspend(|| self.print(event, board))?;
        Ok(Control::Continue)
    }
}
