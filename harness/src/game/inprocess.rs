//! A player that runs our engine's search in this process.

use std::time::Instant;

use engine::params::Params;
use engine::search::Searcher;

use super::player::{MoveRequest, Player, PlayerFault, PlayerMove};

/// Our engine with one parameter set, searching in the calling thread.
pub struct InProcessPlayer {
    name: String,
    searcher: Searcher,
}

impl InProcessPlayer {
    /// A player called `name` with these parameters and a `hash_mb` MiB hash table.
    pub fn new(name: &str, params: Params, hash_mb: usize) -> Self {
        InProcessPlayer {
            name: name.to_string(),
            searcher: Searcher::new(params, hash_mb),
        }
    }
}

impl Player for InProcessPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerFault> {
        self.searcher.new_game();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerFault> {
        let started = Instant::now();
        let result = self.searcher.search(
            request.position,
            request.history_keys,
            &request.limits,
            request.stop,
            &mut |_| {},
        );
        let search_time = started.elapsed();
        if request.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(PlayerFault::Interrupted);
        }
        let mv = result.best_move.ok_or_else(|| {
            PlayerFault::IllegalMove("the search returned no move in a position with moves".into())
        })?;
        Ok(PlayerMove {
            mv,
            score: Some(result.score),
            depth: result.depth,
            nodes: result.nodes,
            search_time,
        })
    }
}
