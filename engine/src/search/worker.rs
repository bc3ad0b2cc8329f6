//! The alpha-beta search proper: principal variation search with null move, reverse
//! futility pruning, futility, SEE and late-move pruning, late-move reductions, check
//! extension and mate-distance pruning.
//!
//! Positions are copied and made (shakmaty has no unmake); everything else the search needs
//! per node lives in preallocated tables, so the tree walk allocates nothing.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, MoveList, Position, Role, Square};

use super::correction::{self, CorrectionHistory};
use super::draw::{KeyStack, is_fifty_move_draw, is_insufficient_material};
use super::eval_cache::EvalCache;
use super::keys::{null_move, null_move_key, play_keyed, position_key};
use super::knobs::{Knobs, LmrTable};
use super::movegen::{TableMove, evasions, legal_moves_not_in_check, table_move, tactical_moves};
use super::ordering::{
    CheckInfo, Heuristics, PROMOTION, TT_MOVE, is_bad_capture_score, pad_scores, pick,
};
use super::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, mated_in};
use super::see::{self, see_at_least};
use super::threats::{creates_threat, lesser_threats};
use super::time::TimeManager;
use super::tt::{Bound, PackedMove, TranspositionTable};
use crate::eval::nnue::{Accumulator, AccumulatorStack};
use crate::eval::{Evaluator, PawnCache, PieceSquares};

/// Room for the scores of one node's moves (shakmaty's `MoveList` capacity).
pub(crate) const MAX_MOVES: usize = 270;

/// A node searching a first move found without generating the others, kept so that they
/// can be scored while the histories are as they were before that search.
#[derive(Clone)]
pub(crate) struct Deferred {
    pos: Chess,
    tt_move: PackedMove,
    first: (Move, i32),
    /// Once scored: every legal move, the first at the front, as
    /// [`Worker::order_after_first`] would have left them (their scores in `scores[ply]`).
    moves: MoveList,
    scored: bool,
}

impl Default for Deferred {
    fn default() -> Self {
        Deferred {
            pos: Chess::default(),
            tt_move: PackedMove::NONE,
            first: (
                Move::Put {
                    role: Role::Pawn,
                    to: Square::A1,
                },
                0,
            ),
            moves: MoveList::new(),
            scored: false,
        }
    }
}

/// The state of one running search, borrowing the searcher's tables.
pub(crate) struct Worker<'a> {
    pub knobs: &'a Knobs,
    pub lmr: &'a LmrTable,
    pub evaluator: &'a Evaluator,
    pub tt: &'a mut TranspositionTable,
    pub eval_cache: &'a mut EvalCache,
    pub pawn_cache: &'a mut PawnCache,
    pub heuristics: &'a mut Heuristics,
    pub correction: &'a mut CorrectionHistory,
    pub keys: &'a mut KeyStack,
    /// `piece_squares[ply]`: material and piece-square sums of the position at `ply`.
    pub piece_squares: &'a mut [PieceSquares],
    /// The network's accumulators of the positions on the current path, used only while
    /// the network evaluates.
    pub accumulators: &'a mut AccumulatorStack,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply`.
    pub pv: &'a mut [MoveList],
    /// `scores[ply]`: the ordering scores of the moves of the node at `ply` (one buffer per
    /// ply, so that no node clears a fresh array of `MAX_MOVES` scores).
    pub scores: &'a mut [[i32; MAX_MOVES]],
    /// `deferred[ply]`: the node at `ply` while it searches a first move found without
    /// generating the others ([`Worker::first_move`]).
    pub deferred: &'a mut [Deferred],
    /// Bit `ply` set while `deferred[ply]` waits for its other moves to be scored.
    pub pending: u128,
    pub stop: &'a AtomicBool,
    /// The root moves to search (`go searchmoves`); empty means all.
    pub root_moves: &'a [Move],
    pub time: TimeManager,
    /// `excluded[ply]`: the move a singular-extension search at `ply` leaves out.
    pub excluded: [Option<Move>; MAX_PLY + 2],
    /// `static_evals[ply]`: the corrected static evaluation of the full node at `ply` on the
    /// current path (`-INFINITY`: in check, or not evaluated), for the improving signal.
    pub static_evals: [i32; MAX_PLY + 2],
    /// `cutoffs[ply]`: the beta cut-offs of the move loops of nodes at `ply` since the node
    /// at `ply − 2` began (so, of the children of a node and of its siblings).
    pub cutoffs: [usize; MAX_PLY + 2],
    /// `double_extensions[ply]`: the singular double extensions on the path to `ply`.
    pub double_extensions: [i32; MAX_PLY + 2],
    /// `reductions[ply]`: the LMR reduction of the search under way of the node at `ply`
    /// (0: not reduced), which that node takes when it starts (hindsight depth).
    pub reductions: [i32; MAX_PLY + 2],
    /// `move_indices[ply]`: the index in its move list of the move the node at `ply` is
    /// searching (0 before its move loop: the null move and ProbCut's captures count as first).
    pub move_indices: [usize; MAX_PLY + 2],
    /// `correction_slots[ply]`: the key of the position last made at `ply` and where its
    /// correction-history entries are, found when they were prefetched, so that its static
    /// evaluation does not hash the position again.
    pub correction_slots: [(u64, correction::Slots); MAX_PLY + 2],
    /// The depth of the iteration under way (singular extensions stop at twice it in plies).
    pub root_depth: i32,
    pub node_limit: u64,
    pub nodes: u64,
    pub seldepth: usize,
    pub aborted: bool,
}

impl Worker<'_> {
    /// The score of a draw by repetition or the fifty-move rule in the main search: 0, or
    /// with `draw_jitter` −1 or +1 by the node count, reproducibly.
    #[inline]
    fn rule_draw(&self) -> i32 {
        if self.knobs.draw_jitter {
            DRAW - 1 + (self.nodes & 2) as i32
        } else {
            DRAW
        }
    }

    /// Counts a node, or reports that the search must stop. Node limits are exact (checked at
    /// every node, so the count is reproducible); time and the stop flag are polled.
    #[inline]
    pub(crate) fn enter_node(&mut self, ply: usize) -> bool {
        if self.aborted {
            return false;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && (self.stop.load(Ordering::Relaxed) || self.time.hard_expired())
        {
            self.aborted = true;
            return false;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        self.pv[ply].clear();
        true
    }

    /// Static evaluation of `pos`, the position at `ply`, kept clear of the mate range.
    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        let key = self.keys.get(ply);
        let eval = if let Some(eval) = self.eval_cache.get(key) {
            debug_assert_eq!(eval, self.evaluate_uncached(pos, ply), "{pos:?}");
            eval
        } else {
            let eval = self.evaluate_uncached(pos, ply);
            self.eval_cache.set(key, eval);
            eval
        };
        self.damp_shuffling(eval, pos.halfmoves())
    }

    /// With `fifty_move_scale`: `eval` faded by the halfmove clock (after the cache, whose
    /// key leaves the clock out).
    #[inline]
    fn damp_shuffling(&self, eval: i32, halfmoves: u32) -> i32 {
        let scale = self.knobs.fifty_move_scale;
        if scale == 0 {
            return eval;
        }
        let kept = scale - halfmoves.min(scale as u32) as i32;
        eval * kept / scale
    }

    /// The static evaluation corrected by the correction history (when on), and the raw one.
    #[inline]
    pub(crate) fn corrected_evaluate(&mut self, pos: &Chess, ply: usize) -> (i32, i32) {
        let (corrected, raw, _) = self.corrected_evaluate_at(pos, ply);
        (corrected, raw)
    }

    /// [`Worker::corrected_evaluate`], and where the correction history's entries of `pos`
    /// are when it reads and learns here ([`Worker::corrects`]), so that the node's update
    /// finds them without hashing the position again.
    #[inline]
    pub(crate) fn corrected_evaluate_at(
        &mut self,
        pos: &Chess,
        ply: usize,
    ) -> (i32, i32, Option<correction::Slots>) {
        let raw = self.evaluate(pos, ply);
        if self.corrects(pos) {
            let moves = self.heuristics.move_keys(ply);
            let weights = self.correction_weights();
            let slots = match self.correction_slots[ply] {
                (key, slots) if key == self.keys.get(ply) => slots,
                _ => CorrectionHistory::slots(pos, weights),
            };
            debug_assert!(slots == CorrectionHistory::slots(pos, weights), "{pos:?}");
            let corrected = self.correction.corrected_at(&slots, moves, raw, weights);
            (corrected, raw, Some(slots))
        } else {
            (raw, raw, None)
        }
    }

    /// Whether the correction history reads and learns here: on, and not where the mating
    /// terms steer toward a mate (a correction learnt there bends their path, and K+B+N
    /// against K then misses the mate within 50 moves from some starts).
    #[inline]
    fn corrects(&self, pos: &Chess) -> bool {
        self.knobs.correction_history && !crate::eval::is_mating_ending(pos.board())
    }

    /// The correction history's knobs.
    #[inline]
    fn correction_weights(&self) -> correction::Weights {
        correction::Weights {
            max: self.knobs.correction_max,
            non_pawn: self.knobs.correction_nonpawn,
            minor: self.knobs.correction_minor,
            major: self.knobs.correction_major,
            material: self.knobs.correction_material,
            continuation: self.knobs.correction_continuation,
            continuation_4: self.knobs.correction_continuation_4,
            rate: self.knobs.correction_rate,
            residual: self.knobs.correction_residual,
        }
    }

    fn evaluate_uncached(&mut self, pos: &Chess, ply: usize) -> i32 {
        let evaluator = self.evaluator;
        let mut residual = 0;
        if let Some(net) = evaluator.network() {
            let eval = evaluator.evaluate_network(net, pos, self.accumulators, ply);
            debug_assert_eq!(
                *self.accumulators.get(net, ply),
                Accumulator::new(net, pos.board()),
                "{pos:?}"
            );
            match eval {
                Some(eval) if net.is_residual() => {
                    let limit = self.knobs.nnue_residual_limit;
                    let eval = eval * self.knobs.nnue_residual_percent / 100;
                    residual = if limit > 0 {
                        eval.clamp(-limit, limit)
                    } else {
                        eval
                    };
                }
                Some(eval) => return eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
                None => {}
            }
        }
        // A network that replaces the terms leaves the sums unkept move by move (set_child):
        // the few positions the terms still score count them from scratch.
        let sums = if self.keeps_piece_squares() {
            self.piece_squares[ply]
        } else {
            evaluator.piece_squares(pos)
        };
        debug_assert_eq!(sums, self.evaluator.piece_squares(pos), "{pos:?}");
        let eval = self.evaluator.evaluate_cached(pos, sums, self.pawn_cache);
        debug_assert_eq!(eval, self.evaluator.evaluate(pos), "{pos:?}");
        (eval + residual).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the material and piece-square sums are kept move by move: unless a network
    /// evaluates in the terms' place.
    #[inline(always)]
    fn keeps_piece_squares(&self) -> bool {
        self.evaluator.network().is_none_or(|net| net.is_residual())
    }

    /// Records the position at `ply + 1`, reached from `pos` (at `ply`) by `m`: its key, the
    /// move for its accumulator when a network evaluates, and its material and piece-square
    /// sums unless that network replaces the terms (the sums are then unused but where the
    /// terms evaluate, which counts them from scratch).
    #[inline(always)]
    pub(crate) fn set_child(&mut self, ply: usize, pos: &Chess, m: Move, child_key: u64) {
        self.keys.set(ply + 1, child_key);
        if let Some(net) = self.evaluator.network() {
            self.accumulators
                .set_child(net, ply, pos.board(), pos.turn(), m);
        }
        if self.keeps_piece_squares() {
            self.piece_squares[ply + 1] =
                self.evaluator
                    .piece_squares_after(pos, self.piece_squares[ply], m);
        }
    }

    /// Starts loading the table and evaluation-cache slots of the child whose key is `key`,
    /// which its node probes soon after it is made.
    #[inline(always)]
    fn prefetch_child(&self, key: u64) {
        self.tt.prefetch(key);
        self.eval_cache.prefetch(key);
    }

    /// Starts loading the correction history's entries of `child`, the position just made at
    /// `ply` (its move recorded), which its node reads with its static evaluation. Not
    /// worth a test of [`Worker::corrects`]' mating endings: those are rare, and a prefetch
    /// changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch_correction(&mut self, child: &Chess, ply: usize) {
        if self.knobs.correction_history {
            let weights = self.correction_weights();
            let slots = CorrectionHistory::slots(child, weights);
            self.correction
                .prefetch(&slots, self.heuristics.move_keys(ply), weights);
            self.correction_slots[ply] = (self.keys.get(ply), slots);
        }
    }

    /// The position after a null move in `pos` (whose key is `key`) and its key. The key
    /// comes first, so that the child's slots load while the position is built.
    #[inline]
    fn null_child(&self, pos: &Chess, key: u64) -> Option<(Chess, u64)> {
        let null_key = null_move_key(pos, key);
        self.prefetch_child(null_key);
        Some((null_move(pos)?, null_key))
    }

    /// Plays `m` in `pos` (the node at `ply`, whose key is `key`) and records the child at
    /// `ply + 1`: its key, sums and the move played. Returns the child, its key and whether
    /// it is in check.
    #[inline(always)]
    pub(crate) fn play_child(
        &mut self,
        pos: &Chess,
        key: u64,
        m: Move,
        ply: usize,
    ) -> (Chess, u64, bool) {
        let mut child = pos.clone();
        let child_key = play_keyed(pos, key, m, &mut child, |k| self.prefetch_child(k));
        let child_in_check = child.is_check();
        self.set_child(ply, pos, m, child_key);
        self.heuristics.set_played(ply, pos.turn(), Some(m));
        self.prefetch_correction(&child, ply + 1);
        (child, child_key, child_in_check)
    }

    /// `pv[ply] = m + pv[ply + 1]`.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        for &child in tail[0].iter() {
            if line.is_full() {
                break;
            }
            line.push(child);
        }
    }

    /// Scores `moves`, every legal move of the node at `ply`, for [`pick`].
    #[inline]
    fn order(&mut self, pos: &Chess, moves: &MoveList, tt_move: PackedMove, ply: usize) {
        self.heuristics
            .score_moves(self.knobs, pos, moves, &mut self.scores[ply], tt_move, ply);
        pad_scores(&mut self.scores[ply], moves.len());
    }

    /// The move [`pick`] would take first among the legal moves of `pos` (not in check),
    /// found without generating them all: the table move, else the best capture or queen
    /// promotion that loses no material (`moves` is left holding the captures), else a
    /// killer. `None` when only the whole list tells.
    #[inline(never)]
    fn first_move(
        &mut self,
        pos: &Chess,
        tt_move: PackedMove,
        ply: usize,
        moves: &mut MoveList,
    ) -> Option<(Move, i32)> {
        match table_move(pos, tt_move) {
            TableMove::Legal(m) => return Some((m, TT_MOVE)),
            TableMove::Unknown => return None,
            TableMove::Absent => {}
        }
        // Every other move scores below a queen promotion, so the best of these, if at least
        // that, is the first.
        tactical_moves(pos, moves);
        if !moves.is_empty() {
            let scores = &mut self.scores[ply];
            let turn = pos.turn();
            for (m, score) in moves.iter().zip(scores.iter_mut()) {
                *score = self.heuristics.tactical_score(self.knobs, turn, ply, *m);
            }
            pad_scores(scores, moves.len());
            let (m, score) = pick(pos, moves, scores, 0);
            if score >= PROMOTION {
                return Some((m, score));
            }
        }
        self.heuristics.legal_killer(pos, ply)
    }

    /// Generates and scores every legal move of `pos` (not in check) into `moves` after
    /// [`Worker::first_move`] found `first`, and picks again the first, so that the list is
    /// as it would have been had it been generated whole from the start.
    /// Those moves may have been scored already, into `deferred[ply]`, before the search of
    /// the first move changed the histories ([`Worker::score_deferred`]).
    #[inline(never)]
    fn order_after_first(
        &mut self,
        pos: &Chess,
        moves: &mut MoveList,
        tt_move: PackedMove,
        ply: usize,
        first: Option<(Move, i32)>,
    ) {
        self.pending &= !(1 << ply);
        moves.clear();
        let deferred = &self.deferred[ply];
        if deferred.scored {
            // Scores in `scores[ply]`, in the order of this list.
            let _ = moves.try_extend_from_slice(&deferred.moves);
            return;
        }
        legal_moves_not_in_check(pos, moves);
        self.order(pos, moves, tt_move, ply);
        let again = pick(pos, moves, &mut self.scores[ply], 0);
        debug_assert_eq!(Some(again), first, "{pos:?}");
    }

    /// Marks the node at `ply` (`pos`, not in check, table move `tt_move`) as searching
    /// `first` before its other moves are generated.
    #[inline]
    fn defer(&mut self, pos: &Chess, tt_move: PackedMove, ply: usize, first: (Move, i32)) {
        let deferred = &mut self.deferred[ply];
        deferred.pos.clone_from(pos);
        deferred.tt_move = tt_move;
        deferred.first = first;
        deferred.scored = false;
        self.pending |= 1 << ply;
    }

    /// Scores the moves of every node waiting for it ([`Worker::defer`]) while the
    /// histories they are scored by are still as they were when it started searching its
    /// first move: called before any change to them.
    #[inline]
    fn score_deferred(&mut self) {
        if self.pending != 0 {
            self.score_deferred_now();
        }
    }

    #[inline(never)]
    #[cold]
    fn score_deferred_now(&mut self) {
        while self.pending != 0 {
            let ply = self.pending.trailing_zeros() as usize;
            self.pending &= self.pending - 1;
            let deferred = &mut self.deferred[ply];
            let (pos, moves) = (&deferred.pos, &mut deferred.moves);
            moves.clear();
            legal_moves_not_in_check(pos, moves);
            let scores = &mut self.scores[ply];
            self.heuristics
                .score_moves(self.knobs, pos, moves, scores, deferred.tt_move, ply);
            pad_scores(scores, moves.len());
            let again = pick(pos, moves, scores, 0);
            debug_assert_eq!(again, deferred.first, "{pos:?}");
            deferred.scored = true;
        }
    }

    /// The ProbCut tries of [`Worker::node`]: each capture or promotion of `pos` (not in
    /// check) that gains at least `probcut_beta` − `static_eval` by SEE, best first, by a
    /// null-window quiescence search against `probcut_beta` and, if that holds, a search
    /// `probcut_reduction` plies shallower than the node's children. The first score that
    /// holds (stored as a lower bound), or `None`.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn probcut(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        probcut_beta: i32,
        static_eval: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let mut moves = MoveList::new();
        tactical_moves(pos, &mut moves);
        let scores = &mut self.scores[ply];
        let turn = pos.turn();
        for (m, score) in moves.iter().zip(scores.iter_mut()) {
            *score = self.heuristics.tactical_score(self.knobs, turn, ply, *m);
        }
        pad_scores(scores, moves.len());
        let threshold = probcut_beta - static_eval;
        let reduced_depth = depth - 1 - self.knobs.probcut_reduction;
        for index in 0..moves.len() {
            let (m, _) = pick(pos, &mut moves, &mut self.scores[ply], index);
            if !see_at_least(pos, m, threshold) {
                continue;
            }
            let (child, child_key, child_in_check) = self.play_child(pos, key, m, ply);
            let mut score = -self.qsearch_checked(
                &child,
                child_in_check,
                child_key,
                -probcut_beta,
                -probcut_beta + 1,
                ply + 1,
                0,
            );
            if score >= probcut_beta && reduced_depth > 0 && !self.aborted {
                score = -self.search(
                    &child,
                    child_in_check,
                    child_key,
                    reduced_depth,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    false,
                    true,
                    !cut_node,
                );
            }
            if self.aborted {
                return None;
            }
            if score >= probcut_beta {
                let stored_depth = reduced_depth + 1;
                self.tt.store(
                    key,
                    ply,
                    stored_depth,
                    score,
                    Bound::Lower,
                    PackedMove::new(m),
                    false,
                );
                return Some(score);
            }
        }
        None
    }

    /// With `tt_cutoff_history`: the table move `best` of a table cut-off at `ply`, if legal
    /// and quiet, rewarded as a searched cut-off would be.
    #[inline(never)]
    fn reward_table_cutoff(&mut self, pos: &Chess, best: PackedMove, ply: usize, depth: i32) {
        if let TableMove::Legal(m) = table_move(pos, best)
            && !m.is_capture()
            && !m.is_promotion()
        {
            self.score_deferred();
            self.heuristics.set_threats(self.knobs, ply, pos);
            self.heuristics.reward(self.knobs, pos, ply, depth, m, &[]);
        }
    }

    /// Searches `pos` (whose key is `key`, already recorded at `ply` in the key stack) to
    /// `depth` plies within the window (`alpha`, `beta`). Fail-soft. `cut_node`: a non-PV
    /// node expected to fail high (the child of a reduced null-window search, and every
    /// second ply of first moves below it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
        cut_node: bool,
    ) -> i32 {
        let in_check = pos.is_check();
        self.search(
            pos, in_check, key, depth, alpha, beta, ply, pv_node, allow_null, cut_node,
        )
    }

    /// [`Worker::negamax`] for a position whose check status `in_check` the caller knows:
    /// the check extension, then the quiescence search at the horizon, else a full node.
    /// Inlined into the move loop, so that a child at the horizon (most of them) goes to
    /// the quiescence search without the frame of a full node, and no node tests for check
    /// twice.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search(
        &mut self,
        pos: &Chess,
        in_check: bool,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
        cut_node: bool,
    ) -> i32 {
        let depth = if in_check && self.knobs.check_extension && ply > 0 {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.qsearch_checked(pos, in_check, key, alpha, beta, ply, 0);
        }
        self.node(
            pos, in_check, key, depth, alpha, beta, ply, pv_node, allow_null, cut_node,
        )
    }

    /// The full node of [`Worker::search`]: `depth` (extended) is at least 1.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &Chess,
        in_check: bool,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
        cut_node: bool,
    ) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        // Every node clears its own mark when done with its first move.
        debug_assert_eq!(self.pending >> ply, 0, "{pos:?}");
        let root = ply == 0;
        if !root {
            if is_insufficient_material(pos) {
                return DRAW;
            }
            if self.keys.is_repetition(ply, pos.halfmoves()) {
                return self.rule_draw();
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos, ply);
            }
            if self.knobs.mate_distance_pruning {
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(MATE - ply as i32 - 1);
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        let original_alpha = alpha;
        self.cutoffs[ply + 2] = 0;
        self.move_indices[ply] = 0;
        // The children searched before the move loop (null move, ProbCut) extend nothing.
        self.double_extensions[ply + 1] = self.double_extensions[ply];
        // A singular-extension search of this node without its table move: its result is
        // not the node's, so neither the table's cut-off nor its store apply.
        let excluded = self.excluded[ply];

        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.best);
        // A node on a principal variation now or when it was last stored.
        let tt_pv = pv_node || hit.is_some_and(|h| h.was_pv);
        if let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && h.depth >= depth
            && h.bound.settles(h.score, alpha, beta)
        {
            if self.knobs.tt_cutoff_history && h.score >= beta {
                self.reward_table_cutoff(pos, h.best, ply, depth);
            }
            return h.score;
        }
        // The table's ProbCut: an entry far enough above beta, nearly deep enough, is taken
        // as a cut-off by the margin (a shallower search than the node's would be).
        let tt_probcut_margin = self.knobs.tt_probcut_margin;
        if tt_probcut_margin > 0
            && let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && h.bound != Bound::Upper
            && h.depth >= depth - self.knobs.tt_probcut_depth
            && beta.abs() < MATE_BOUND
            && h.score.abs() < MATE_BOUND
            && h.score >= beta + tt_probcut_margin
        {
            return beta + tt_probcut_margin;
        }

        // The pruning of non-PV nodes needs the static evaluation, and the correction
        // history learns from every node's.
        // `correction_slots`: where the correction history's entries of this position are,
        // when it reads and learns here (found once, for the read and the update).
        let (static_eval, raw_eval, correction_slots) =
            if in_check || (pv_node && !self.knobs.correction_history) {
                (-INFINITY, -INFINITY, None)
            } else {
                self.corrected_evaluate_at(pos, ply)
            };
        self.static_evals[ply] = static_eval;
        // How much better this side stands than the opponent thought a ply ago: the two
        // static evaluations, each from its own side, summed (`None` where either is unknown).
        let parent_swing =
            (!root && static_eval != -INFINITY && self.static_evals[ply - 1] != -INFINITY)
                .then(|| static_eval + self.static_evals[ply - 1]);
        // The opponent's quiet move that led here, judged by the evaluation's swing.
        if self.knobs.eval_history_divisor > 0
            && excluded.is_none()
            && let Some(swing) = parent_swing
            && let Some(previous) = self.heuristics.played_quiet(ply - 1)
        {
            let max = self.knobs.history_bonus_max;
            let bonus = (-swing / self.knobs.eval_history_divisor).clamp(-max, max);
            if bonus != 0 {
                self.score_deferred();
                self.heuristics
                    .reward_by_eval(!pos.turn(), ply - 1, previous, bonus);
            }
        }
        // Hindsight: a reduced child whose position turns out livelier or quieter than its
        // reduction assumed adjusts its own depth (as Stockfish's does).
        let prior_reduction = std::mem::take(&mut self.reductions[ply]);
        if self.knobs.hindsight_depth
            && prior_reduction > 0
            && excluded.is_none()
            && let Some(swing) = parent_swing
        {
            if prior_reduction >= 3 && swing <= 0 {
                depth += 1;
            } else if prior_reduction >= 2 && depth >= 2 && swing > self.knobs.hindsight_margin {
                depth -= 1;
            }
        }
        // Improving: the static evaluation above that of the same side's previous full node
        // with one (two plies up, else four). Unknown counts as improving.
        let improving = !in_check && {
            let earlier = |back: usize| {
                ply.checked_sub(back)
                    .map_or(-INFINITY, |p| self.static_evals[p])
            };
            let two_up = earlier(2);
            let before = if two_up == -INFINITY {
                earlier(4)
            } else {
                two_up
            };
            before == -INFINITY || static_eval > before
        };
        // The table's score, where its bound says the true score lies beyond the static
        // evaluation, is the better guess for pruning.
        let mut pruning_eval = static_eval;
        if self.knobs.tt_eval
            && !pv_node
            && !in_check
            && let Some(h) = hit
            && h.score.abs() < MATE_BOUND
            && h.bound.beyond(h.score, static_eval)
        {
            pruning_eval = h.score;
        }
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // A piece of ours attacked by a lesser one: the static evaluation misses its loss.
            // Looked at only where it can change a decision, and then once.
            let mut threat_seen = None;
            let mut threatened = || {
                *threat_seen.get_or_insert_with(|| lesser_threats(pos.board(), pos.turn()).any())
            };
            if self.knobs.razoring
                && depth <= self.knobs.razor_depth
                && pruning_eval + self.knobs.razor_margin * depth < alpha
            {
                let score = self.qsearch_checked(pos, false, key, alpha, alpha + 1, ply, 0);
                if self.aborted {
                    return 0;
                }
                if score <= alpha {
                    return score;
                }
            }
            let rfp_plies = depth - i32::from(self.knobs.rfp_improving && improving);
            // The opponent's move worsened its side.
            let opponent_worsening =
                self.knobs.rfp_worsening_percent > 0 && parent_swing.is_some_and(|s| s > 2);
            let rfp_slack = if opponent_worsening {
                self.knobs.reverse_futility_margin * self.knobs.rfp_worsening_percent / 100
            } else {
                0
            };
            let rfp_clears = |plies: i32| {
                pruning_eval - self.knobs.reverse_futility_margin * plies + rfp_slack >= beta
            };
            if self.knobs.reverse_futility
                && depth <= self.knobs.reverse_futility_depth
                && !(self.knobs.rfp_tt_pv && tt_pv)
                && rfp_clears(rfp_plies)
                // A threat widens the margin by `rfp_threat_plies`.
                && (self.knobs.rfp_threat_plies == 0
                    || rfp_clears(rfp_plies + self.knobs.rfp_threat_plies)
                    || !threatened())
            {
                return if self.knobs.rfp_blend {
                    (pruning_eval + beta) / 2
                } else {
                    pruning_eval
                };
            }
            if self.knobs.null_move
                && allow_null
                && excluded.is_none()
                && depth >= 3
                && pruning_eval >= beta
                && !(depth < self.knobs.null_move_threat_depth && threatened())
                && has_pieces(pos)
                && let Some((null_pos, null_key)) = self.null_child(pos, key)
            {
                let mut reduction =
                    self.knobs.null_move_reduction + depth / self.knobs.null_move_depth_divisor;
                if self.knobs.null_move_eval {
                    reduction += ((pruning_eval - beta) / self.knobs.null_move_eval_divisor).min(3);
                }
                debug_assert_eq!(null_key, position_key(&null_pos), "{pos:?}");
                self.keys.set(ply + 1, null_key);
                if self.evaluator.network().is_some() {
                    self.accumulators.set_null_child(ply);
                }
                if self.keeps_piece_squares() {
                    self.piece_squares[ply + 1] = self.piece_squares[ply];
                }
                self.heuristics.set_played(ply, pos.turn(), None);
                // The side that just passed was to move, so its pieces do not attack the
                // other king: the null position is never in check.
                debug_assert!(!null_pos.is_check(), "{pos:?}");
                let score = -self.search(
                    &null_pos,
                    false,
                    null_key,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                    !cut_node,
                );
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    // An unproven mate from a null-move search is not trusted.
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Whether this node's attack map is recorded yet (ProbCut may need it first).
        let mut threats_set = false;
        // ProbCut: a capture that holds a margin above beta in a shallower search makes the
        // full one pointless. Not when a deep enough table entry already says the node falls
        // short of that margin.
        if self.knobs.probcut
            && !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= self.knobs.probcut_depth
            && beta.abs() < MATE_BOUND
        {
            let probcut_beta = beta + self.knobs.probcut_margin;
            let refuted = hit.is_some_and(|h| {
                h.depth >= depth - self.knobs.probcut_reduction
                    && h.bound != Bound::Lower
                    && h.score < probcut_beta
            });
            if !refuted {
                if self.knobs.capture_history_threats {
                    // The capture history's tables by defended targets read it.
                    self.heuristics.set_threats(self.knobs, ply, pos);
                    threats_set = true;
                }
                let score = self.probcut(pos, key, depth, probcut_beta, static_eval, ply, cut_node);
                if self.aborted {
                    return 0;
                }
                if let Some(score) = score {
                    return score;
                }
            }
        }

        // Internal iterative reduction: without a table move the ordering is a guess, and a
        // shallower search finds one for the next visit.
        if self.knobs.iir && depth >= self.knobs.iir_depth && tt_move == PackedMove::NONE {
            depth -= 1;
        }

        // Singular extension: when the table move's score, searched deep enough and not an
        // upper bound, stands above every other move's by a margin (a reduced search without
        // it fails low against that margin), it is searched a ply deeper. When even the other
        // moves reach beta, the node fails high without searching further (multi-cut).
        // The table move's extension (negative: a reduction).
        let mut tt_extension = 0;
        if self.knobs.singular_extension
            && !root
            && excluded.is_none()
            && depth >= self.knobs.singular_depth
            && (ply as i32) < 2 * self.root_depth
            && let Some(h) = hit
            && h.best != PackedMove::NONE
            && h.depth >= depth - 3
            && h.bound != Bound::Upper
            && h.score.abs() < MATE_BOUND
            && let TableMove::Legal(m) = table_move(pos, h.best)
        {
            let singular_beta = h.score - self.knobs.singular_margin * depth;
            self.excluded[ply] = Some(m);
            let score = self.search(
                pos,
                in_check,
                key,
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
                false,
                cut_node,
            );
            self.excluded[ply] = None;
            if self.aborted {
                return 0;
            }
            if score < singular_beta {
                let double_margin = self.knobs.singular_double_margin;
                tt_extension = if !pv_node
                    && double_margin > 0
                    && score < singular_beta - double_margin
                    && self.double_extensions[ply] < self.knobs.singular_double_limit
                {
                    2
                } else {
                    1
                };
            } else if singular_beta >= beta {
                return singular_beta;
            } else if self.knobs.singular_negative && (h.score >= beta || cut_node) {
                tt_extension = -1;
            }
        }

        // What the histories of this node's moves are kept by (before any is scored; a
        // singular search in between, at this ply and position, records the same map).
        if !threats_set {
            self.heuristics.set_threats(self.knobs, ply, pos);
        }
        // Filled in place: a move list is 2 KiB, and moving one is a copy.
        let mut moves = MoveList::new();
        // Staged generation, for the first move cuts off often: that move (the table move,
        // else the best capture not losing material, else a killer) is found without the
        // quiet moves, which are generated only if it does not cut off. They must be scored
        // by the histories as they stand before the first move is searched: should its
        // search be about to change them, they are scored then ([`Worker::score_deferred`]).
        let first = if !root && !in_check && excluded.is_none() {
            self.first_move(pos, tt_move, ply, &mut moves)
        } else {
            None
        };
        if let Some(first) = first {
            // There is a legal move, so neither mate nor stalemate.
            if is_fifty_move_draw(pos.halfmoves()) {
                return self.rule_draw();
            }
            self.defer(pos, tt_move, ply, first);
        } else {
            moves.clear();
            if in_check {
                evasions(pos, &mut moves);
            } else {
                legal_moves_not_in_check(pos, &mut moves);
            }
            if root && !self.root_moves.is_empty() {
                moves.retain(|m| self.root_moves.contains(m));
            }
            if moves.is_empty() {
                return if in_check { mated_in(ply) } else { DRAW };
            }
            if !root && is_fifty_move_draw(pos.halfmoves()) {
                return self.rule_draw();
            }
            self.order(pos, &moves, tt_move, ply);
        }
        // Whether `moves` holds every legal move, scored.
        let mut ordered = first.is_none();
        self.heuristics.clear_killers(ply + 1);

        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        // Futility pruning: quiet moves that cannot lift the static evaluation to alpha,
        // judged per move by the depth it is pruned at (`prune_depth` in the loop).
        let futility_applies =
            self.knobs.futility && !pv_node && !in_check && alpha.abs() < MATE_BOUND;
        let (futility_base, futility_margin) =
            (self.knobs.futility_base, self.knobs.futility_margin);
        let futility_value_at = move |d: i32| pruning_eval + futility_base + futility_margin * d;
        let futility_value = futility_value_at(depth);
        // Futility pruning of captures: the same bound, raised by the captured piece's value
        // and a margin of its own (`None`: off here).
        let capture_futility_bound = (self.knobs.capture_futility_margin > 0
            && !pv_node
            && !in_check
            && depth <= self.knobs.futility_depth
            && alpha.abs() < MATE_BOUND)
            .then(|| futility_value + self.knobs.capture_futility_margin);
        // SEE pruning: moves that lose material on their square, by a margin growing with
        // depth (captures already ordered as losing are the only ones worth the test).
        let see_prunes = self.knobs.main_see_pruning
            && !pv_node
            && !in_check
            && depth <= self.knobs.main_see_depth;
        // Late-move pruning: past this many moves, quiet ones that give no check are not
        // tried (non-PV only: a PV node's later moves may still become the line).
        let late_moves = if self.knobs.lmp && !pv_node && !in_check && depth <= self.knobs.lmp_depth
        {
            let count = self.knobs.lmp_base + depth * depth;
            if improving {
                count as usize
            } else {
                (count * self.knobs.lmp_not_improving_percent / 100).max(1) as usize
            }
        } else {
            usize::MAX
        };
        // History pruning: quiet moves that have failed often enough here before.
        let history_floor = if self.knobs.history_pruning
            && !pv_node
            && !in_check
            && depth <= self.knobs.history_prune_depth
        {
            -self.knobs.history_prune_margin * depth
        } else {
            i32::MIN
        };
        let mut check_info = None;
        // Whether the first move is the table move and a capture.
        let mut tt_capture = false;
        // Once late-move pruning applies (from then on it does to the end of the list): the
        // moves left that no pruning surely removes (`None` inside: too many to list).
        let mut unpruned: Option<Option<Unpruned>> = None;
        // Until `break`: the list may be generated in the loop.
        for index in 0.. {
            let late = index >= late_moves && best_score > -MATE_BOUND;
            let (m, move_score) = match first {
                Some(first) if index == 0 => first,
                _ => {
                    if !ordered {
                        self.order_after_first(pos, &mut moves, tt_move, ply, first);
                        ordered = true;
                    }
                    if index >= moves.len() {
                        break;
                    }
                    if late {
                        let list = unpruned.get_or_insert_with(|| {
                            let info = check_info.get_or_insert_with(|| CheckInfo::new(pos));
                            let see_threshold = see_prunes
                                .then(|| -self.knobs.main_see_capture_margin * depth * depth);
                            Unpruned::new(
                                pos,
                                &moves[index..],
                                &self.scores[ply][index..moves.len()],
                                info,
                                see_threshold,
                            )
                        });
                        // The rest would be picked in order only to be pruned.
                        if list.as_ref().is_some_and(Unpruned::is_empty) {
                            break;
                        }
                    }
                    pick(pos, &mut moves, &mut self.scores[ply], index)
                }
            };
            if Some(m) == excluded {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            if index == 0 {
                tt_capture = move_score == TT_MOVE && m.is_capture();
            }
            if late {
                match &mut unpruned {
                    // Not listed: a quiet move giving no check, pruned here, or a losing
                    // capture that SEE pruning would remove below.
                    Some(Some(list)) => {
                        if !list.take(m) {
                            debug_assert!(
                                if quiet {
                                    !CheckInfo::new(pos).gives_check(pos, m)
                                } else {
                                    is_bad_capture_score(move_score)
                                        && see_prunes
                                        && !see_at_least(
                                            pos,
                                            m,
                                            -self.knobs.main_see_capture_margin * depth * depth,
                                        )
                                },
                                "{pos:?} {m}"
                            );
                            continue;
                        }
                    }
                    _ => {
                        if quiet
                            && !check_info
                                .get_or_insert_with(|| CheckInfo::new(pos))
                                .gives_check(pos, m)
                        {
                            continue;
                        }
                    }
                }
            }
            if quiet && move_score < history_floor && index > 0 && best_score > -MATE_BOUND {
                continue;
            }
            // The depth the quiet pruning below judges the move by: its reduced depth with
            // `futility_lmr_depth` where futility pruning applies (deeper by its history with
            // `futility_history_divisor`; at least 1, as the node's is), else the node's.
            let prune_depth =
                if self.knobs.futility_lmr_depth && futility_applies && quiet && index >= 2 {
                    let history_plies = if self.knobs.futility_history_divisor > 0
                        && move_score < super::ordering::KILLER
                    {
                        move_score / self.knobs.futility_history_divisor
                    } else {
                        0
                    };
                    (depth - self.lmr.get(depth, index) + history_plies).max(1)
                } else {
                    depth
                };
            let futile = futility_applies
                && prune_depth <= self.knobs.futility_depth
                && futility_value_at(prune_depth) <= alpha;
            // Decided before the move is made (gives_check answers as the child's is_check
            // would), so that a pruned move costs no copy of the position. Tried before SEE
            // pruning, which costs more (the prunings only test: their order changes nothing).
            if futile
                && quiet
                && best_score > -MATE_BOUND
                && !check_info
                    .get_or_insert_with(|| CheckInfo::new(pos))
                    .gives_check(pos, m)
            {
                continue;
            }
            if let Some(bound) = capture_futility_bound
                && index > 0
                && best_score > -MATE_BOUND
                && !m.is_promotion()
                && let Some(captured) = m.capture()
                && bound + see::value(captured) <= alpha
                && !check_info
                    .get_or_insert_with(|| CheckInfo::new(pos))
                    .gives_check(pos, m)
            {
                continue;
            }
            if see_prunes && index > 0 && best_score > -MATE_BOUND {
                let threshold = if quiet {
                    Some(-self.knobs.main_see_quiet_margin * prune_depth)
                } else if is_bad_capture_score(move_score) {
                    Some(-self.knobs.main_see_capture_margin * depth * depth)
                } else {
                    None
                };
                if threshold.is_some_and(|t| !see_at_least(pos, m, t)) {
                    continue;
                }
            }
            let (child, child_key, child_in_check) = self.play_child(pos, key, m, ply);
            self.move_indices[ply] = index;
            let singular = if move_score == TT_MOVE {
                tt_extension
            } else {
                0
            };
            // A check that loses material: the child's check extension is taken back.
            let check_taken_back = i32::from(
                child_in_check
                    && self.knobs.check_extension_see
                    && self.knobs.check_extension
                    && !see_at_least(pos, m, 0),
            );
            let new_depth = depth - 1 + singular - check_taken_back;
            // The double extensions on the path count the singular ones, whatever the check.
            self.double_extensions[ply + 1] =
                self.double_extensions[ply] + i32::from(singular == 2);

            let score = if index == 0 {
                let score = -self.search(
                    &child,
                    child_in_check,
                    child_key,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    true,
                    !pv_node && !cut_node,
                );
                // From here on only this node's own cut-off changes the histories.
                self.pending &= !(1 << ply);
                score
            } else {
                let mut reduction = 0;
                let bad_capture =
                    !quiet && self.knobs.lmr_bad_captures && is_bad_capture_score(move_score);
                let reducible = self.knobs.lmr
                    && depth >= 3
                    && (quiet && (move_score < super::ordering::KILLER || self.knobs.lmr_killers)
                        || bad_capture)
                    && !in_check
                    && index >= self.knobs.lmr_min_index as usize
                    && (!child_in_check || self.knobs.lmr_checks && quiet);
                if reducible {
                    reduction =
                        self.lmr.get(depth, index) - i32::from(pv_node) - i32::from(child_in_check);
                    if cut_node {
                        reduction += self.knobs.lmr_cut_node;
                    }
                    if tt_capture {
                        reduction += self.knobs.lmr_tt_capture;
                    }
                    if self.cutoffs[ply + 1] > self.knobs.lmr_cutoff_threshold {
                        reduction += self.knobs.lmr_cutoff_count;
                    }
                    let parent_late = self.knobs.lmr_parent_late;
                    if parent_late > 0
                        && !root
                        && self.move_indices[ply - 1] >= parent_late as usize
                    {
                        reduction -= 1;
                    }
                    if quiet && move_score >= super::ordering::KILLER {
                        reduction -= 1;
                    }
                    if self.knobs.lmr_escape > 0 && quiet && self.heuristics.escapes_threat(ply, m)
                    {
                        reduction -= self.knobs.lmr_escape;
                    }
                    if self.knobs.lmr_threat_move > 0
                        && let Move::Normal {
                            role,
                            from,
                            to,
                            capture: None,
                            promotion: None,
                        } = m
                        && creates_threat(pos.board(), pos.turn(), role, from, to)
                    {
                        reduction -= self.knobs.lmr_threat_move;
                    }
                    if !improving && !pv_node {
                        reduction += self.knobs.lmr_not_improving;
                    }
                    if tt_pv && !pv_node {
                        // Once on a principal variation, likely to become one again.
                        reduction -= self.knobs.lmr_tt_pv;
                    }
                    if self.knobs.lmr_correction > 0 && static_eval != -INFINITY {
                        // An evaluation the correction history keeps moving is unsure.
                        reduction -= (static_eval - raw_eval).abs() / self.knobs.lmr_correction;
                    }
                    if self.knobs.cont_history && quiet && move_score < super::ordering::KILLER {
                        // Quiet moves below the killers are scored by their histories.
                        reduction -= move_score / self.knobs.lmr_history_divisor;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let new_depth_reduced = new_depth - reduction;
                self.reductions[ply + 1] = reduction;
                let mut score = -self.search(
                    &child,
                    child_in_check,
                    child_key,
                    new_depth_reduced,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                    reducible || !cut_node,
                );
                // Not taken if the child was a quiescence node.
                self.reductions[ply + 1] = 0;
                // A reduced move that failed high: how far above the node's best it landed
                // says how deep its re-search needs to look.
                let mut new_depth = new_depth;
                if self.knobs.lmr_research_adjust && score > alpha && reduction > 0 {
                    if score > best_score + self.knobs.lmr_deeper_margin + 2 * new_depth {
                        new_depth += 1;
                    } else if score < best_score + self.knobs.lmr_shallower_margin {
                        new_depth -= 1;
                    }
                }
                if score > alpha && new_depth > new_depth_reduced && !self.aborted {
                    score = -self.search(
                        &child,
                        child_in_check,
                        child_key,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        true,
                        !cut_node,
                    );
                    // The full-depth verdict on a move the reduction had judged wrongly.
                    if self.knobs.lmr_cont_update
                        && quiet
                        && reduction > 0
                        && !self.aborted
                        && (score >= beta || score <= alpha)
                    {
                        self.score_deferred();
                        self.heuristics.reward_continuation(
                            self.knobs,
                            pos.turn(),
                            ply,
                            m,
                            new_depth,
                            score >= beta,
                        );
                    }
                }
                if pv_node && score > alpha && score < beta && !self.aborted {
                    score = -self.search(
                        &child,
                        child_in_check,
                        child_key,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        true,
                        false,
                    );
                }
                score
            };
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.cutoffs[ply] += 1;
                        // Nodes waiting to be scored must see the histories as they were
                        // when they started their first move: scored before any change.
                        // (A quiet cut-off always changes them; a capture one only with the
                        // capture history and a capture among the moves it rewards or penalises.)
                        let histories_change = quiet
                            || self.knobs.capture_history
                                && (m.is_capture()
                                    || moves[..index].iter().any(|t| t.is_capture()));
                        if histories_change {
                            self.score_deferred();
                        }
                        // A cut-off far above beta is surer: rewarded as a ply deeper.
                        let margin = self.knobs.history_overshoot_margin;
                        let reward_depth =
                            depth + i32::from(margin > 0 && score > beta.saturating_add(margin));
                        self.heuristics.reward_captures(
                            self.knobs,
                            pos.turn(),
                            ply,
                            reward_depth,
                            m,
                            &moves[..index],
                        );
                        if quiet {
                            // The moves tried before this one sit at the front of the list.
                            self.heuristics.reward(
                                self.knobs,
                                pos,
                                ply,
                                reward_depth,
                                m,
                                &moves[..index],
                            );
                        }
                        break;
                    }
                }
            }
        }

        // A shallow fail-high's margin over beta is the least sure: kept in part.
        if self.knobs.fail_high_damping
            && !root
            && best_score >= beta
            && best_score.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
            && original_alpha.abs() < MATE_BOUND
        {
            let depth = depth.max(0);
            best_score = (best_score * depth + beta) / (depth + 1);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A search without the table move says nothing of this position's own score.
        if excluded.is_some() {
            return best_score;
        }
        // Every move here fell short: the opponent's quiet move that led here was a good one.
        if self.knobs.fail_low_prior_bonus > 0
            && bound == Bound::Upper
            && !root
            && let Some(previous) = self.heuristics.played_quiet(ply - 1)
        {
            self.score_deferred();
            self.heuristics.reward_prior(
                self.knobs,
                !pos.turn(),
                ply - 1,
                previous,
                depth,
                self.knobs.fail_low_prior_bonus,
            );
        }
        // The evaluation was off: learn by how much, where the bound says on which side the
        // true score lies and a quiet best move (or none) makes it the position's own.
        // The slots are known exactly where the history reads and learns: not in check, and
        // `corrects(pos)`.
        if let Some(slots) = correction_slots
            && best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion())
            && best_score.abs() < MATE_BOUND
            && bound.beyond(best_score, static_eval)
        {
            let moves = self.heuristics.move_keys(ply);
            let weights = self.correction_weights();
            self.correction
                .update_at(&slots, moves, depth, raw_eval, best_score, weights);
        }
        let packed = best_move.map_or(PackedMove::NONE, PackedMove::new);
        self.tt
            .store(key, ply, depth, best_score, bound, packed, tt_pv);
        best_score
    }
}

/// The moves left in a node when late-move pruning starts to apply (and then does to the end
/// of the list) that no pruning surely removes: captures and promotions, except those scored
/// as losing that SEE pruning removes (such a score no longer changes), and quiet moves that
/// give check. Once all of them are searched the node is done: the moves left would be picked
/// in order only to be pruned.
#[derive(Clone, Copy)]
struct Unpruned {
    /// Packed, which tells the legal moves of a position apart as well: comparing two is one
    /// integer comparison, where `Move`'s equality dispatches on the kind of move.
    moves: [PackedMove; Unpruned::CAPACITY],
    len: usize,
}

impl Unpruned {
    /// Most nodes have none or one or two (a few checks); past this many the list is not kept.
    const CAPACITY: usize = 8;

    /// The moves of `moves` (scored by `scores`) that no pruning surely removes, given what
    /// gives check (`checks`) and the SEE threshold of losing captures (`None`: no SEE
    /// pruning); `None` if more than [`Unpruned::CAPACITY`].
    fn new(
        pos: &Chess,
        moves: &[Move],
        scores: &[i32],
        checks: &CheckInfo,
        see_threshold: Option<i32>,
    ) -> Option<Self> {
        let mut list = Unpruned {
            moves: [PackedMove::NONE; Unpruned::CAPACITY],
            len: 0,
        };
        for (&m, &score) in moves.iter().zip(scores) {
            let kept = if m.is_capture() || m.is_promotion() {
                !(is_bad_capture_score(score)
                    && see_threshold.is_some_and(|t| !see_at_least(pos, m, t)))
            } else {
                checks.gives_check(pos, m)
            };
            if kept {
                *list.moves.get_mut(list.len)? = PackedMove::new(m);
                list.len += 1;
            }
        }
        Some(list)
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `m` is listed; if so it is taken off the list.
    fn take(&mut self, m: Move) -> bool {
        let packed = PackedMove::new(m);
        let Some(i) = self.moves[..self.len].iter().position(|&x| x == packed) else {
            return false;
        };
        self.len -= 1;
        self.moves.swap(i, self.len);
        true
    }
}

/// Whether the side to move has a piece besides pawns and king (null move is unsafe in
/// pawn endings because of zugzwang).
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    (board.by_color(pos.turn()) & !board.by_role(Role::Pawn) & !board.by_role(Role::King)).any()
}
