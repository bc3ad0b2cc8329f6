//! Per-game lines exactly as cutechess-cli and fastchess print them, so scripts that read
//! their output (OpenBench's worker among them) read ours unchanged:
//!
//! ```text
//! Started game 1 of 200 (base vs dev)
//! Finished game 1 (base vs dev): 1-0 {White mates}
//! ```
//!
//! Games are numbered from 1 (our game index + 1); the names are White's then Black's.

use std::io::Write;

use crate::runner::{Control, Event, Listener};
use crate::scoreboard::Scoreboard;

/// Writes a `Started game` and a `Finished game` line for every game.
pub struct GameLines<W: Write> {
    games_total: u64,
    /// Also cutechess-cli's `Score of A vs B: W - L - D  [ratio] N` after each game (the
    /// scoreboard's counts: complete pairs).
    score_lines: bool,
    out: W,
}

impl<W: Write> GameLines<W> {
    pub fn new(out: W) -> Self {
        GameLines {
            games_total: 0,
            score_lines: false,
            out,
        }
    }

    /// Adds cutechess-cli's score line after every finished game.
    pub fn with_score_lines(mut self) -> Self {
        self.score_lines = true;
        self
    }
}

impl<W: Write> Listener for GameLines<W> {
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        match event {
            Event::MatchStarted { games_total, .. } => self.games_total = *games_total,
            Event::GameStarted {
                game, white, black, ..
            } => writeln!(
                self.out,
                "Started game {} of {} ({white} vs {black})",
                game + 1,
                self.games_total
            )?,
            Event::GameFinished { row, reason, .. } => {
                writeln!(
                    self.out,
                    "Finished game {} ({} vs {}): {} {{{reason}}}",
                    row.game + 1,
                    row.white,
                    row.black,
                    row.result
                )?;
                if self.score_lines {
                    let t = board.trinomial();
                    let ratio = if t.games() == 0 {
                        0.0
                    } else {
                        t.points() / t.games() as f64
                    };
                    writeln!(
                        self.out,
                        "Score of {} vs {}: {} - {} - {}  [{ratio:.3}] {}",
                        board.first(),
                        board.second(),
                        t.wins,
                        t.losses,
                        t.draws,
                        t.games()
                    )?;
                }
            }
            _ => return Ok(Control::Continue),
        }
        self.out.flush()?;
        Ok(Control::Continue)
    }
}
