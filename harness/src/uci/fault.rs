//! What can go wrong with an external engine. Faults during a game are values the game turns
//! into a result; start-up errors (no such program, unknown option) stop the match before it
//! begins.

use std::fmt;
use std::io;

/// How an engine failed during a game; each loses that game.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The engine exited or closed its output.
    Disconnected,
    /// No `bestmove` within the engine's clock plus the margin.
    TimedOut,
    /// No `readyok` (or `uciok`) in time.
    Stalled,
    /// A malformed or illegal `bestmove`.
    IllegalMove,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [
        FaultKind::Disconnected,
        FaultKind::TimedOut,
        FaultKind::Stalled,
        FaultKind::IllegalMove,
    ];

    /// The game's termination as written in the PGN Termination tag and the CSV.
    pub fn termination(self) -> &'static str {
        match self {
            FaultKind::Disconnected => "disconnects",
            FaultKind::TimedOut => "time forfeit",
            FaultKind::Stalled => "stalls",
            FaultKind::IllegalMove => "illegal move",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.termination())
    }
}

/// A fault of one engine, with what the harness saw (for the log).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine '{engine}' {kind}: {detail}")]
pub struct UciFault {
    pub kind: FaultKind,
    /// The engine's name in the match.
    pub engine: String,
    pub detail: String,
    /// Whether the engine process is still usable after the fault (it answered in the end);
    /// if not, it has been killed and needs a restart.
    pub engine_alive: bool,
}

/// Anything that stops an external engine from playing.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    #[error("cannot start engine '{engine}' (`{program}`): {source}")]
    Spawn {
        engine: String,
        program: String,
        #[source]
        source: io::Error,
    },
    #[error("engine '{engine}' has no option '{name}'; it has: {}", known.join(", "))]
    UnknownOption {
        engine: String,
        name: String,
        known: Vec<String>,
    },
    #[error("engine '{engine}': {message}")]
    BadOptionValue { engine: String, message: String },
    #[error(transparent)]
    Fault(#[from] UciFault),
    /// The search was abandoned because the match is being interrupted.
    #[error("interrupted")]
    Interrupted,
}

impl UciError {
    /// The fault, if this error is one that a game turns into a loss.
    pub fn fault(&self) -> Option<&UciFault> {
        match self {
            UciError::Fault(fault) => Some(fault),
            _ => None,
        }
    }
}
