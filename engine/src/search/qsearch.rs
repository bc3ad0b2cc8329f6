//! Quiescence search: only captures and promotions (and, in its first plies, quiet checking
//! moves) below the horizon, so that the evaluation is only trusted in quiet positions.

use shakmaty::{Bitboard, Chess, Color, MoveList, Position, Rank, Role};

use super::draw::{is_fifty_move_draw, is_insufficient_material};
use super::keys::play_keyed;
use super::movegen::{evasions, has_legal_move, tactical_moves, tactical_moves_and_checks};
use super::ordering::{
    CheckInfo, TT_MOVE, is_bad_capture_score, pad_scores, pick, provisional_capture_score,
};
use super::score::{DRAW, INFINITY, MATE_BOUND, MAX_PLY, mated_in};
use super::see::value;
use super::tt::{Bound, PackedMove, quiescence_depth};
use super::worker::Worker;

/// Ordering score of a quiet checking move: after the good captures, before the bad ones.
const QUIET_CHECK: i32 = 0;

impl Worker<'_> {
    /// `qply` counts the plies below the horizon: the depth limit (`qsearch_depth`) and the
    /// plies with checks (`qsearch_check_plies`) refer to it.
    pub(crate) fn qsearch(
        &mut self,
        pos: &Chess,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.qsearch_checked(pos, pos.is_check(), key, alpha, beta, ply, qply)
    }

    /// [`Worker::qsearch`] for a position whose check status `in_check` the caller knows
    /// (the main search tests every child for check before it reaches the horizon).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn qsearch_checked(
        &mut self,
        pos: &Chess,
        in_check: bool,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if ply > 0
            && (is_insufficient_material(pos) || self.keys.is_repetition(ply, pos.halfmoves()))
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 || qply >= self.knobs.qsearch_depth {
            return self.evaluate(pos, ply);
        }
        let hit = if self.knobs.qsearch_tt {
            self.tt.probe(key, ply)
        } else {
            None
        };
        // A node with plies of quiet checks left trusts only results with as many.
        let tt_depth = quiescence_depth(self.knobs.qsearch_check_plies.saturating_sub(qply));
        if let Some(h) = hit
            && beta - alpha == 1
            && h.depth >= tt_depth
            && h.bound.settles(h.score, alpha, beta)
        {
            return h.score;
        }
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.best);
        let original_alpha = alpha;

        let mut best_move = None;
        let mut best_score;
        let mut stand_pat = -INFINITY;
        if in_check {
            best_score = -INFINITY;
        } else {
            stand_pat = self.corrected_evaluate(pos, ply).0;
            // The table's score, where its bound says the true score lies beyond the static
            // evaluation, is the better stand pat.
            if self.knobs.qsearch_tt_eval
                && let Some(h) = hit
                && h.score.abs() < MATE_BOUND
                && h.bound.beyond(h.score, stand_pat)
            {
                stand_pat = h.score;
            }
            if stand_pat >= beta {
                // Damped in null windows only: a PV node's stand pat is its exact score.
                return if beta - alpha == 1 {
                    self.damp_fail_high(stand_pat, beta)
                } else {
                    stand_pat
                };
            }
            // Whole-node delta pruning: not even winning a queen (and promoting) gets close.
            // The bound returned is the optimistic one, so that a stored upper bound stays
            // true for a lower alpha.
            let optimistic = stand_pat + max_gain(pos) + self.knobs.delta_margin;
            if optimistic < alpha {
                return optimistic;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }

        let with_checks = !in_check && qply < self.knobs.qsearch_check_plies;
        // Below the horizon only captures, promotions and (while looking for checks) quiet
        // checks are searched unless in check: generate just those, and ask for any legal
        // move only when there is none.
        let generated_all = in_check;
        // Built on first use: for the quiet checks, or for a capture close to delta pruning.
        let mut check_info = None;
        // Filled in place: a move list is 2 KiB, and moving one is a copy.
        let mut moves = MoveList::new();
        if in_check {
            evasions(pos, &mut moves);
        } else if with_checks {
            let info = check_info.insert(CheckInfo::new(pos));
            tactical_moves_and_checks(pos, info, &mut moves);
        } else {
            tactical_moves(pos, &mut moves);
        }
        if moves.is_empty() && (generated_all || !has_legal_move(pos)) {
            // Without moves: mate when in check, else stalemate.
            return if in_check { mated_in(ply) } else { DRAW };
        }
        if is_fifty_move_draw(pos.halfmoves()) {
            return DRAW;
        }
        let by_history = self.knobs.qsearch_capture_history;
        if by_history && self.knobs.capture_history_threats {
            // The capture history's tables by defended targets need this node's map.
            self.heuristics.set_threats(self.knobs, ply, pos);
        }
        for (m, score) in moves.iter().zip(self.scores[ply].iter_mut()) {
            *score = if m.is_capture() || m.is_promotion() {
                let history = if by_history {
                    self.heuristics
                        .capture_history_score(self.knobs, pos.turn(), ply, *m)
                } else {
                    0
                };
                provisional_capture_score(*m) + history
            } else {
                QUIET_CHECK
            };
        }
        // As in `score_moves`: the table move matches at most one move, looked for by its
        // target square first instead of packing every move.
        if let Some((_, tt_to, _)) = tt_move.squares()
            && let Some(index) = moves
                .iter()
                .position(|m| m.to() == tt_to && tt_move.matches(*m))
        {
            self.scores[ply][index] = TT_MOVE;
        }
        pad_scores(&mut self.scores[ply], moves.len());

        // Quiet evasions searched so far (with `qsearch_evasion_limit`).
        let mut quiet_evasions = 0;
        for index in 0..moves.len() {
            let (m, move_score) = pick(pos, &mut moves, &mut self.scores[ply], index);
            if !in_check {
                let tactical = m.is_capture() || m.is_promotion();
                // Captures (and checks) that lose material by SEE.
                if self.knobs.see_pruning {
                    if tactical && is_bad_capture_score(move_score) {
                        // Picks come highest first, and only captures losing material score
                        // this low (quiet checks score above them): every move left would be
                        // pruned here too.
                        break;
                    }
                    if !tactical && !super::see::see_at_least(pos, m, 0) {
                        continue;
                    }
                }
                // Delta pruning: this capture cannot bring the score up to alpha. Not for a
                // capture that gives check: the reply is forced and may lose more (a capture
                // with check on a defended piece often wins the defender too).
                if tactical && !m.is_promotion() {
                    let optimistic =
                        stand_pat + m.capture().map_or(0, value) + self.knobs.delta_margin;
                    if optimistic <= alpha
                        && !check_info
                            .get_or_insert_with(|| CheckInfo::new(pos))
                            .gives_check(pos, m)
                    {
                        // The move might have scored up to `optimistic`: the fail-low bound
                        // must not claim less.
                        best_score = best_score.max(optimistic);
                        continue;
                    }
                }
            } else if !m.is_capture() && !m.is_promotion() {
                // In check: once some evasion escapes mate, a few quiet ones are enough.
                let limit = self.knobs.qsearch_evasion_limit;
                if limit > 0 && best_score > -MATE_BOUND && quiet_evasions >= limit {
                    continue;
                }
                quiet_evasions += 1;
            }
            let mut child = pos.clone();
            let child_key = play_keyed(pos, key, m, &mut child, |k| {
                if self.knobs.qsearch_tt {
                    self.tt.prefetch(k);
                }
                self.eval_cache.prefetch(k);
            });
            self.set_child(ply, pos, m, child_key);
            // The correction history's continuation table keys the child by this move.
            self.heuristics.set_played(ply, pos.turn(), Some(m));
            self.prefetch_correction(&child, ply + 1);
            let score = -self.qsearch(&child, child_key, -beta, -alpha, ply + 1, qply + 1);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if best_score >= beta {
            best_score = self.damp_fail_high(best_score, beta);
        }
        if self.knobs.qsearch_tt && best_score > -INFINITY {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let packed = best_move.map_or(PackedMove::NONE, PackedMove::new);
            self.tt
                .store_shallow(key, ply, tt_depth, best_score, bound, packed);
        }
        best_score
    }

    /// A quiescence fail-high `score` brought toward `beta` by `qsearch_fail_high_percent`
    /// (mates are kept: their distance must stay exact). Still at least `beta`.
    #[inline]
    fn damp_fail_high(&self, score: i32, beta: i32) -> i32 {
        let percent = self.knobs.qsearch_fail_high_percent;
        if percent >= 100 || score.abs() >= MATE_BOUND || beta.abs() >= MATE_BOUND {
            return score;
        }
        beta + (score - beta) * percent / 100
    }
}

/// The most a single move can gain: the opponent's best piece, plus a promotion when the
/// side to move has a pawn on its seventh rank.
fn max_gain(pos: &Chess) -> i32 {
    let board = pos.board();
    let us = pos.turn();
    let them = board.by_color(!us);
    let best_victim = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .find(|&r| (board.by_role(r) & them).any())
    .map_or(0, value);
    let seventh = match us {
        Color::White => Bitboard::from_rank(Rank::Seventh),
        Color::Black => Bitboard::from_rank(Rank::Second),
    };
    let promotion = if (board.by_role(Role::Pawn) & board.by_color(us) & seventh).any() {
        value(Role::Queen) - value(Role::Pawn)
    } else {
        0
    };
    best_victim + promotion
}
