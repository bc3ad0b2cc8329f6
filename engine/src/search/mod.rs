//! Iterative-deepening alpha-beta search.
//!
//! The public surface here ([`Searcher`], [`Limits`], [`Clock`], [`Score`], [`SearchInfo`],
//! [`SearchResult`], [`position_key`]) is what the UCI loop, the bench and the harness use.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::eval::Evaluator;
use crate::params::Params;

/// Score of a search result, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative when the side to move gets mated.
    Mate(i32),
}

/// The clock as UCI's `go wtime btime winc binc movestogo` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub white_time: Duration,
    pub black_time: Duration,
    pub white_increment: Duration,
    pub black_increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Several limits may be set; the first reached stops the search.
/// With none set (and not infinite) the search runs to the maximum depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped from outside.
    pub infinite: bool,
}

/// Report of one completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The key the search uses for repetition detection and the transposition table.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// A search engine instance: parameters, evaluator and tables. One per game thread.
pub struct Searcher {
    params: Params,
    evaluator: Evaluator,
    nodes: u64,
}

impl Searcher {
    /// A searcher with these parameters and a transposition table of `hash_mb` MiB.
    pub fn new(params: Params, _hash_mb: usize) -> Self {
        Searcher {
            evaluator: Evaluator::new(&params),
            params,
            nodes: 0,
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn set_params(&mut self, params: Params) {
        self.evaluator = Evaluator::new(&params);
        self.params = params;
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_size(&mut self, _hash_mb: usize) {}

    /// Forgets everything learnt in the previous game (transposition table, history).
    pub fn new_game(&mut self) {}

    /// Searches `root`. `history` holds the keys ([`position_key`]) of the game's earlier
    /// positions, oldest first, for repetition detection. `stop` ends the search from outside;
    /// `on_iteration` hears each completed iteration.
    pub fn search(
        &mut self,
        root: &Chess,
        _history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        // Placeholder: fixed-depth material negamax, until the real search lands.
        let start = Instant::now();
        self.nodes = 0;
        let depth = limits.depth.unwrap_or(2).min(2);
        let moves = root.legal_moves();
        let mut best = (i32::MIN, moves.first().copied());
        for m in &moves {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mut child = root.clone();
            child.play_unchecked(*m);
            let score = -self.negamax(&child, depth.saturating_sub(1));
            if score > best.0 {
                best = (score, Some(*m));
            }
        }
        let info = SearchInfo {
            depth,
            seldepth: depth,
            score: Score::Cp(best.0.max(-30000)),
            nodes: self.nodes,
            time: start.elapsed(),
            hashfull: 0,
            pv: best.1.into_iter().collect(),
        };
        on_iteration(&info);
        SearchResult {
            best_move: best.1,
            score: info.score,
            depth,
            seldepth: depth,
            nodes: self.nodes,
            time: info.time,
            pv: info.pv,
        }
    }

    fn negamax(&mut self, pos: &Chess, depth: u32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return self.evaluator.evaluate(pos);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -30000 } else { 0 };
        }
        let mut best = i32::MIN + 1;
        for m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            best = best.max(-self.negamax(&child, depth - 1));
        }
        best
    }

    /// Runs the quiescence search on `pos` and returns its score (side to move's view) and the
    /// quiet position at the end of its principal variation (for tuner data).
    pub fn quiet_leaf(&mut self, pos: &Chess) -> (i32, Chess) {
        (self.evaluator.evaluate(pos), pos.clone())
    }
}
