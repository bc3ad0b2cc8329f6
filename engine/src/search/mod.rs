//! Iterative-deepening alpha-beta search.
//!
//! The public surface here ([`Searcher`], [`Limits`], [`Clock`], [`Score`], [`SearchInfo`],
//! [`SearchResult`], [`position_key`], [`perft`]) is what the UCI loop, the bench and the
//! harness use. The modules split the work by concern: [`worker`] (the alpha-beta tree walk),
//! [`qsearch`], [`tt`] (transposition table), [`ordering`] (MVV-LVA, killers, history),
//! [`see`], [`time`] (time management), [`draw`] (repetitions, fifty-move rule),
//! [`correction`] (the static evaluation's errors by pawn structure), [`keys`] (Zobrist keys,
//! updated move by move).

mod correction;
mod draw;
mod eval_cache;
mod keys;
mod knobs;
mod movegen;
mod ordering;
mod pawn_hash;
mod prefetch;
mod qsearch;
mod score;
mod see;
mod threats;
mod time;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, MoveList, Position};

use crate::eval::nnue::{AccumulatorStack, Network};
use crate::eval::{Evaluator, PawnCache, PieceSquares};
use crate::params::Params;
pub use keys::position_key;

use correction::CorrectionHistory;
use draw::KeyStack;
use eval_cache::EvalCache;
use knobs::{Knobs, LmrTable};
use ordering::Heuristics;
use score::{INFINITY, MATE_BOUND, MAX_PLY, to_score};
use time::{SoftScale, TimeManager};
use tt::TranspositionTable;
use worker::Worker;

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

/// A search engine instance: parameters, evaluator and tables. One per game thread.
pub struct Searcher {
    params: Params,
    /// The network given by [`Searcher::set_network`] (`None`: the built-in one).
    network: Option<&'static Network>,
    evaluator: Evaluator,
    knobs: Knobs,
    lmr: LmrTable,
    tt: TranspositionTable,
    /// Static evaluations by key; they depend on the parameters, so it is cleared with them.
    eval_cache: EvalCache,
    /// Pawn-structure terms by pawn placement; cleared with the parameters too.
    pawn_cache: PawnCache,
    heuristics: Heuristics,
    /// Static evaluation errors by pawn structure, learnt in this game.
    correction: CorrectionHistory,
    keys: KeyStack,
    /// Material and piece-square sums of the position at each ply of the current path.
    piece_squares: Vec<PieceSquares>,
    /// The network's accumulator of the position at each ply (when the `nnue` switch is on).
    accumulators: AccumulatorStack,
    pv: Vec<MoveList>,
    /// Move-ordering scores of the node at each ply of the current path.
    scores: Vec<[i32; worker::MAX_MOVES]>,
    /// The nodes of the current path whose moves are generated in stages.
    deferred: Vec<worker::Deferred>,
}

impl Searcher {
    /// A searcher with these parameters and a transposition table of `hash_mb` MiB.
    pub fn new(params: Params, hash_mb: usize) -> Self {
        let knobs = Knobs::new(&params);
        Searcher {
            evaluator: Evaluator::new(&params),
            knobs,
            lmr: LmrTable::new(&knobs),
            params,
            network: None,
            tt: TranspositionTable::new(hash_mb),
            eval_cache: EvalCache::new(),
            pawn_cache: PawnCache::default(),
            heuristics: Heuristics::new(),
            correction: CorrectionHistory::new(),
            keys: KeyStack::new(),
            piece_squares: vec![PieceSquares::default(); MAX_PLY + 2],
            accumulators: AccumulatorStack::new(MAX_PLY + 1),
            pv: vec![MoveList::new(); MAX_PLY + 2],
            scores: vec![[0; worker::MAX_MOVES]; MAX_PLY + 2],
            deferred: vec![worker::Deferred::default(); MAX_PLY + 2],
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the parameters. The tables are kept (call [`Searcher::new_game`] to clear them).
    pub fn set_params(&mut self, params: Params) {
        self.evaluator = Evaluator::with_network(&params, self.network);
        self.eval_cache.clear();
        self.pawn_cache.clear();
        self.knobs = Knobs::new(&params);
        self.lmr = LmrTable::new(&self.knobs);
        self.params = params;
    }

    /// The network that evaluates when the `nnue` switch is on (`None`: the built-in one).
    /// The tables are kept.
    pub fn set_network(&mut self, network: Option<&'static Network>) {
        self.network = network;
        self.evaluator = Evaluator::with_network(&self.params, network);
        self.eval_cache.clear();
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        // The same size again (GUIs send `Hash` at start-up) only needs a clear.
        if self.tt.megabytes() == hash_mb.max(1) {
            self.tt.clear();
        } else {
            self.tt = TranspositionTable::new(hash_mb);
        }
    }

    /// Forgets everything learnt in the previous game (transposition table, history).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
        self.correction.clear();
    }

    /// The network's accumulator of the root, if the network evaluates.
    fn set_root_accumulator(&mut self, root: &Chess) {
        if let Some(net) = self.evaluator.network() {
            self.accumulators.set_root(net, root.board());
        }
    }

    fn worker<'a>(
        &'a mut self,
        stop: &'a AtomicBool,
        root_moves: &'a [Move],
        time: TimeManager,
        node_limit: u64,
    ) -> Worker<'a> {
        Worker {
            knobs: &self.knobs,
            lmr: &self.lmr,
            evaluator: &self.evaluator,
            tt: &mut self.tt,
            eval_cache: &mut self.eval_cache,
            pawn_cache: &mut self.pawn_cache,
            heuristics: &mut self.heuristics,
            correction: &mut self.correction,
            keys: &mut self.keys,
            piece_squares: &mut self.piece_squares,
            accumulators: &mut self.accumulators,
            pv: &mut self.pv,
            scores: &mut self.scores,
            deferred: &mut self.deferred,
            pending: 0,
            stop,
            root_moves,
            time,
            excluded: [None; MAX_PLY + 2],
            static_evals: [-score::INFINITY; MAX_PLY + 2],
            correction_slots: [(0, correction::Slots::default()); MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 2],
            double_extensions: [0; MAX_PLY + 2],
            reductions: [0; MAX_PLY + 2],
            move_indices: [0; MAX_PLY + 2],
            root_depth: 0,
            node_limit,
            nodes: 0,
            seldepth: 0,
            aborted: false,
        }
    }

    /// Searches `root`. `history` holds the keys ([`position_key`]) of the game's earlier
    /// positions, oldest first, for repetition detection. `stop` ends the search from outside;
    /// `on_iteration` hears each completed iteration.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_moves(root, history, limits, &[], stop, on_iteration)
    }

    /// [`search`](Self::search) restricted to the root moves in `only` (UCI's `go
    /// searchmoves`); moves of `only` that are not legal in `root` are ignored, and an `only`
    /// with no legal move searches every move.
    pub fn search_moves(
        &mut self,
        root: &Chess,
        history: &[u64],
        limits: &Limits,
        only: &[Move],
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let time = TimeManager::new(limits, root.turn(), start);
        let mut root_moves = root.legal_moves();
        let legal_count = root_moves.len();
        if root_moves.iter().any(|m| only.contains(m)) {
            root_moves.retain(|m| only.contains(m));
        }
        // The worker filters the root only when the list leaves some legal move out.
        let only: &[Move] = if root_moves.len() < legal_count {
            &root_moves
        } else {
            &[]
        };
        let root_key = position_key(root);
        self.keys.reset(history, root_key);
        self.piece_squares[0] = self.evaluator.piece_squares(root);
        self.set_root_accumulator(root);
        self.tt.new_search();
        self.heuristics.age();

        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 1)
        });
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let aspiration = self.knobs.aspiration_window;

        let mut result = SearchResult {
            best_move: root_moves.first().copied(),
            score: Score::Cp(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root_moves.first().copied().into_iter().collect(),
        };
        if root_moves.is_empty() {
            result.score = if root.is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return result;
        }

        let mut worker = self.worker(stop, only, time, node_limit);
        let mut previous: i32 = 0;
        let mut soft_scale = SoftScale::default();
        let mut soft_percent = 100;
        for depth in 1..=max_depth {
            if depth > 1 && (stop.load(Ordering::Relaxed) || time.soft_expired_scaled(soft_percent))
            {
                break;
            }
            worker.root_depth = depth;
            let mut delta = aspiration;
            let (mut alpha, mut beta) =
                if aspiration > 0 && depth >= 5 && previous.abs() < MATE_BOUND {
                    (
                        (previous - delta).max(-INFINITY),
                        (previous + delta).min(INFINITY),
                    )
                } else {
                    (-INFINITY, INFINITY)
                };
            // Plies the next re-search of this iteration leaves out (fail-high reduction).
            let mut fail_high_plies = 0;
            // The depth of the search whose score the iteration ends with.
            let mut search_depth;
            let score = loop {
                search_depth = (depth - fail_high_plies).max(1);
                let score = worker.negamax(
                    root,
                    root_key,
                    search_depth,
                    alpha,
                    beta,
                    0,
                    true,
                    false,
                    false,
                );
                if worker.aborted {
                    break score;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                    fail_high_plies = 0;
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                    if worker.knobs.aspiration_fail_high_reduction {
                        fail_high_plies = (fail_high_plies + 1).min(depth / 2);
                    }
                } else {
                    break score;
                }
                delta += delta / 2 + 1;
                if delta > 1000 {
                    (alpha, beta) = (-INFINITY, INFINITY);
                }
            };
            let line = &worker.pv[0];
            if worker.aborted {
                // A move that beat the previous best before the abort was fully searched
                // (PVS re-searches a new best move), so it is safe to play.
                if let Some(&m) = line.first()
                    && Some(m) != result.best_move
                {
                    result.best_move = Some(m);
                    result.pv = line.to_vec();
                }
                break;
            }
            previous = score;
            if line.is_empty() {
                break;
            }
            result.best_move = line.first().copied();
            if let Some(best) = result.best_move {
                soft_percent = soft_scale.update(worker.knobs, best, score);
            }
            result.pv = line.to_vec();
            result.score = to_score(score);
            result.depth = depth as u32;
            result.seldepth = worker.seldepth as u32;
            result.nodes = worker.nodes;
            result.time = time.elapsed();
            on_iteration(&SearchInfo {
                depth: result.depth,
                seldepth: result.seldepth,
                score: result.score,
                nodes: worker.nodes,
                time: result.time,
                hashfull: worker.tt.hashfull(),
                pv: result.pv.clone(),
            });
            // A mate found and proven shorter than the depth searched cannot improve.
            if let Score::Mate(n) = result.score
                && limits.depth.is_none()
                && !limits.infinite
                && (2 * n.unsigned_abs() as i32) < search_depth
            {
                break;
            }
        }
        result.nodes = worker.nodes;
        result.time = time.elapsed();
        if result.seldepth == 0 {
            result.seldepth = worker.seldepth as u32;
        }
        result
    }

    /// Runs the quiescence search on `pos` and returns its score (side to move's view) and the
    /// quiet position at the end of its principal variation (for tuner data).
    pub fn quiet_leaf(&mut self, pos: &Chess) -> (i32, Chess) {
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let time = TimeManager::new(&limits, pos.turn(), Instant::now());
        let key = position_key(pos);
        self.keys.reset(&[], key);
        self.piece_squares[0] = self.evaluator.piece_squares(pos);
        self.set_root_accumulator(pos);
        let mut worker = self.worker(&stop, &[], time, u64::MAX);
        let score = worker.qsearch(pos, key, -INFINITY, INFINITY, 0, 0);
        let mut leaf = pos.clone();
        for &m in worker.pv[0].iter() {
            leaf.play_unchecked(m);
        }
        (score, leaf)
    }
}

/// Counts the leaves of the legal move tree to `depth` along the search's own move path
/// (legal move generation, copy-make and the incremental key, which is checked against a
/// full recomputation at every node).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    fn walk(pos: &Chess, key: u64, depth: u32) -> u64 {
        assert_eq!(
            key,
            position_key(pos),
            "incremental key diverged at {pos:?}"
        );
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        let mut total = 0;
        for m in moves {
            let mut child = pos.clone();
            let child_key = keys::play_keyed(pos, key, m, &mut child, |_| {});
            total += walk(&child, child_key, depth - 1);
        }
        total
    }
    walk(pos, position_key(pos), depth)
}
