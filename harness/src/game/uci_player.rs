//! A player that is an external engine spoken to over UCI.

use std::time::Duration;

use shakmaty::Position;

use super::player::{MoveRequest, Player, PlayerFault, PlayerMove};
use crate::uci::{FaultKind, UciEngine, UciEngineConfig, UciError};

/// How long to wait for `bestmove` when the search has no clock and no movetime (fixed nodes
/// or depth): long enough for any sane search, short enough that a hang does not stall a match.
pub const DEFAULT_UNTIMED_WAIT: Duration = Duration::from_secs(60);

/// An external UCI engine as one side of games.
pub struct UciPlayer {
    engine: UciEngine,
    /// How far past its clock or movetime the engine may answer (the match's time margin).
    time_margin: Duration,
    /// The wait for `bestmove` in searches without a time limit.
    untimed_wait: Duration,
}

impl UciPlayer {
    /// Starts the engine. `time_margin` is the match's margin past the clock.
    pub fn start(config: UciEngineConfig, time_margin: Duration) -> Result<Self, UciError> {
        Ok(UciPlayer {
            engine: UciEngine::start(config)?,
            time_margin,
            untimed_wait: DEFAULT_UNTIMED_WAIT,
        })
    }

    /// Changes the wait for `bestmove` in searches without a time limit.
    pub fn with_untimed_wait(mut self, wait: Duration) -> Self {
        self.untimed_wait = wait;
        self
    }

    pub fn engine(&self) -> &UciEngine {
        &self.engine
    }

    /// How long the engine may take for this move: its clock or movetime plus the margin.
    fn wait_for(&self, request: &MoveRequest<'_>) -> Duration {
        let limits = &request.limits;
        let by_clock = limits.clock.map(|clock| {
            let own = if request.position.turn().is_white() {
                clock.white_time
            } else {
                clock.black_time
            };
            own + self.time_margin
        });
        let by_movetime = limits.movetime.map(|t| t + self.time_margin);
        match (by_clock, by_movetime) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(self.untimed_wait),
        }
    }
}

/// The game's view of an engine error.
fn player_fault(err: UciError) -> PlayerFault {
    match err {
        UciError::Interrupted => PlayerFault::Interrupted,
        UciError::Fault(fault) => {
            let detail = fault.detail;
            match fault.kind {
                FaultKind::Disconnected => PlayerFault::Disconnected(detail),
                FaultKind::TimedOut => PlayerFault::TimeForfeit(detail),
                FaultKind::Stalled => PlayerFault::Stalled(detail),
                FaultKind::IllegalMove => PlayerFault::IllegalMove(detail),
            }
        }
        // Start-up errors cannot happen mid-game except on a restart; the engine is gone.
        other => PlayerFault::Disconnected(other.to_string()),
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.engine.config().name
    }

    fn new_game(&mut self) -> Result<(), PlayerFault> {
        if !self.engine.is_running() {
            return Err(PlayerFault::Disconnected(
                "not running since an earlier fault".into(),
            ));
        }
        self.engine.new_game().map_err(player_fault)
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerFault> {
        let wait = self.wait_for(request);
        let reply = self
            .engine
            .go_interruptible(
                request.start,
                request.moves,
                &request.limits,
                wait,
                request.stop,
            )
            .map_err(player_fault)?;
        let info = reply.info.unwrap_or_default();
        Ok(PlayerMove {
            mv: reply.best_move,
            score: info.score,
            depth: info.depth.unwrap_or(0),
            nodes: info.nodes.unwrap_or(0),
            search_time: info.time.unwrap_or(reply.elapsed),
        })
    }

    fn needs_restart(&self) -> bool {
        !self.engine.is_running()
    }

    fn restart(&mut self) -> Result<(), PlayerFault> {
        self.engine.restart().map_err(player_fault)
    }
}
