//! The progress bar on stderr: games done of the match, speed and ETA. Hidden when stderr is
//! not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::runner::{Control, Event, Listener};
use crate::scoreboard::Scoreboard;

/// A progress bar over the games of the match.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar drawn on stderr (`visible`), or a hidden one.
    pub fn new(visible: bool) -> Progress {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        Progress { bar }
    }

    /// Runs `f` with the bar cleared, so lines printed by `f` do not tear it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }
}

impl Progress {
    fn hear(&self, event: &Event<'_>) {
        match event {
            Event::MatchStarted {
                games_total,
                games_to_play,
                ..
            } => {
                self.bar.set_length(*games_total);
                self.bar
                    .set_position(games_total.saturating_sub(*games_to_play));
                self.bar.reset_eta();
            }
            Event::GameFinished { .. } => self.bar.inc(1),
            Event::MatchFinished { .. } => self.bar.finish_and_clear(),
            _ => {}
        }
    }
}

impl Listener for Progress {
    fn on_event(&mut self, event: &Event<'_>, _: &Scoreboard) -> anyhow::Result<Control> {
        self.hear(event);
        Ok(Control::Continue)
    }
}

/// A shared bar is a listener too (its owner can still `suspend` it to print).
impl Listener for &Progress {
    fn on_event(&mut self, event: &Event<'_>, _: &Scoreboard) -> anyhow::Result<Control> {
        self.hear(event);
        Ok(Control::Continue)
    }
}
