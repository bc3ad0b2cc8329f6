//! What the game loop needs from a player, whether it searches in-process or is an external
//! UCI engine: start a game, and answer a position with a move.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use engine::search::{Limits, Score};
use shakmaty::{Chess, Move};

/// Everything a player may need to choose a move. An in-process player searches `position`
/// with `history_keys`; a UCI player sends `position fen <start> moves <moves...>` and
/// `go` built from `limits`.
pub struct MoveRequest<'a> {
    /// Where the game started (before any book move).
    pub start: &'a Chess,
    /// Every move since `start`, book moves included.
    pub moves: &'a [Move],
    /// The current position (`start` after `moves`).
    pub position: &'a Chess,
    /// [`engine::search::position_key`] of every earlier position, oldest first.
    pub history_keys: &'a [u64],
    /// What to search: nodes, depth, movetime and/or the clock as the harness keeps it.
    pub limits: Limits,
    /// Set when the match is being interrupted: return as soon as possible.
    pub stop: &'a AtomicBool,
}

/// A player's answer. Scores are from the mover's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerMove {
    pub mv: Move,
    /// `None` when the player reported no score.
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    /// Time the player says it searched (the harness charges the clock with wall time).
    pub search_time: Duration,
}

/// A player failure. The game loop turns each into a game result, never a harness crash.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerFault {
    /// The player's process exited or closed its pipe.
    #[error("disconnected: {0}")]
    Disconnected(String),
    /// The player did not answer `isready` (or a new game) in time.
    #[error("stalled: {0}")]
    Stalled(String),
    /// The player answered with an illegal or malformed move.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The player did not answer within its clock plus margin.
    #[error("time forfeit: {0}")]
    TimeForfeit(String),
    /// The match is being interrupted; the game is abandoned and not counted.
    #[error("interrupted")]
    Interrupted,
}

/// One side of a game. A player is reused for many games (one at a time); `new_game` resets
/// whatever it learnt, so that with node or depth limits every game is reproducible.
pub trait Player: Send {
    /// The engine name used in results (PGN White/Black, CSV).
    fn name(&self) -> &str;
    /// Prepares for a new game (clears hash tables and history).
    fn new_game(&mut self) -> Result<(), PlayerFault>;
    /// Chooses a move in `request.position`.
    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerFault>;
}
