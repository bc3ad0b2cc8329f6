//! The results folder as a listener: every finished game is appended to games.pgn and then
//! games.csv (both flushed), so a game in the CSV is always in the PGN too and a crash loses
//! nothing already played.

use std::collections::HashSet;
use std::path::Path;

use super::{GamesCsv, GamesPgn, PgnHeader, format_game};
use crate::runner::{Control, Event, Listener, MatchConfig};
use crate::scoreboard::Scoreboard;

/// Appends the games of a run to `games.pgn` and `games.csv` in its folder.
pub struct FolderWriter {
    csv: GamesCsv,
    pgn: GamesPgn,
    event: String,
    date: String,
    /// The PGN TimeControl of each engine, first engine first.
    time_controls: [String; 2],
    /// Games already in the files: a game played again (an SPSA iteration replayed after a
    /// crash) is not written twice.
    already: HashSet<u64>,
}

impl FolderWriter {
    /// Opens the files of `dir`: new ones, or when `resume`, the existing ones with the PGN cut
    /// to the games in `keep` (those the scoreboard counted from games.csv).
    pub fn open(
        dir: &Path,
        config: &MatchConfig,
        resume: bool,
        keep: &HashSet<u64>,
    ) -> anyhow::Result<FolderWriter> {
        let (csv, _) = GamesCsv::open(dir, resume)?;
        let pgn = GamesPgn::open(&dir.join("games.pgn"), resume, keep)?;
        Ok(FolderWriter {
            csv,
            pgn,
            event: config.event.clone(),
            date: chrono::Local::now().format("%Y.%m.%d").to_string(),
            time_controls: [
                config.engines[0].limits.pgn_time_control(),
                config.engines[1].limits.pgn_time_control(),
            ],
            already: if resume { keep.clone() } else { HashSet::new() },
        })
    }
}

impl Listener for FolderWriter {
    fn on_event(&mut self, event: &Event<'_>, _: &Scoreboard) -> anyhow::Result<Control> {
        if let Event::GameFinished { row, record, .. } = event
            && !self.already.contains(&row.game)
        {
            let (white, black) = if row.game % 2 == 0 { (0, 1) } else { (1, 0) };
            let header = PgnHeader {
                event: &self.event,
                site: "harness",
                date: &self.date,
                game: row.game,
                white_time_control: self.time_controls[white].clone(),
                black_time_control: self.time_controls[black].clone(),
            };
            self.pgn.append(&format_game(&header, record))?;
            self.csv.append(row)?;
        }
        Ok(Control::Continue)
    }
}
