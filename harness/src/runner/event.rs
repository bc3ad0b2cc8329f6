//! What the runner tells whoever listens: typed events, in the order they happen, each with
//! the scoreboard as it stands after it. Reporters (progress bar, fastchess report, per-game
//! lines, JSON lines), the results folder writer and the SPRT stop are all listeners.

use serde::Serialize;

use crate::game::GameRecord;
use crate::output::GameRow;
use crate::scoreboard::Scoreboard;
use crate::stats::SprtState;
use crate::uci::FaultKind;

/// What a listener wants after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Start no new pairs; finish the games of pairs already started (an SPRT decision).
    FinishStartedPairs,
}

/// One thing that happened in a match. Serialised (without the in-memory game record) as one
/// JSON object with an `event` key: see `harness/schemas/events.schema.json`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event<'a> {
    /// The run begins: `games_to_play` of the match's `games_total` games are left.
    MatchStarted {
        first: &'a str,
        second: &'a str,
        games_total: u64,
        games_to_play: u64,
        concurrency: usize,
    },
    /// A worker starts game `game` (pair `game / 2`).
    GameStarted {
        game: u64,
        pair: u64,
        white: &'a str,
        black: &'a str,
        opening_index: u64,
    },
    /// A game ended; `row` is what games.csv records, `moves` the moves in UCI notation from
    /// the opening position.
    GameFinished {
        row: &'a GameRow,
        moves: Vec<String>,
        /// Shown as in cutechess and fastchess: `White mates`, `Draw by 3-fold repetition`.
        reason: &'a str,
        #[serde(skip)]
        record: &'a GameRecord,
    },
    /// Both games of pair `pair` have ended; the first engine scored `points_x2` (0..=4).
    PairFinished { pair: u64, points_x2: u8 },
    /// An engine lost a game by a fault.
    Fault {
        game: u64,
        engine: &'a str,
        kind: FaultKind,
        detail: &'a str,
    },
    /// The SPRT after a completed pair.
    Sprt {
        pairs: u64,
        llr: Option<f64>,
        lower: Option<f64>,
        upper: Option<f64>,
        state: SprtState,
    },
    /// Something worth telling the user (a skipped row, a cut-off line, a report that could
    /// not be written).
    Note { text: &'a str },
    /// The run ended (finished, stopped by the SPRT, interrupted or stopped by a fault).
    MatchFinished {
        games_played: u64,
        interrupted: bool,
        stopped_by_sprt: bool,
        fault_stop: Option<&'a str>,
    },
}

/// Anything that hears the events of a run.
pub trait Listener {
    /// Hears `event`, with the scoreboard as it stands after it. An error stops the run (games
    /// in progress are abandoned, nothing written is lost).
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control>;
}

/// A closure is a listener.
impl<F> Listener for F
where
    F: FnMut(&Event<'_>, &Scoreboard) -> anyhow::Result<Control>,
{
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        self(event, board)
    }
}

/// Several listeners heard in order; the run finishes its started pairs when any asks to, and
/// the first error stops it.
#[derive(Default)]
pub struct Listeners<'l> {
    listeners: Vec<&'l mut dyn Listener>,
}

impl<'l> Listeners<'l> {
    pub fn new() -> Self {
        Listeners {
            listeners: Vec::new(),
        }
    }

    /// Adds `listener` after those already there.
    pub fn push(&mut self, listener: &'l mut dyn Listener) {
        self.listeners.push(listener);
    }
}

impl Listener for Listeners<'_> {
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        let mut control = Control::Continue;
        for listener in &mut self.listeners {
            if listener.on_event(event, board)? == Control::FinishStartedPairs {
                control = Control::FinishStartedPairs;
            }
        }
        Ok(control)
    }
}
