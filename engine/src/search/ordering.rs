//! Move ordering: the transposition-table move first, then winning and equal captures by
//! MVV-LVA, queen promotions, the two killer moves of the ply, quiet moves by history
//! (butterfly, and with `cont_history` the continuation history of the moves one and two
//! plies before), and last the captures that lose material by SEE.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks};

use super::knobs::Knobs;
use super::movegen::is_legal_normal;
use super::pawn_hash::pawn_index;
use super::score::MAX_PLY;
#[cfg(test)]
use super::see::see;
use super::see::{see_at_least, value};
use super::threats::minor_attacks;
use super::tt::PackedMove;
use crate::eval::pawn_attacks_of;

pub(crate) const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
pub(crate) const PROMOTION: i32 = 1 << 27;
pub(crate) const KILLER: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within ±this, below the killers.
const HISTORY_MAX: i32 = 1 << 14;
/// A history entry: within ±[`HISTORY_MAX`], so 16 bits hold it, and the tables (the
/// continuation and pawn histories are 2.4 and 1.6 MB at 32 bits) take half the cache.
type Entry = i16;
/// Pieces (colour and role) times target squares: the index of a move in the continuation
/// history.
const PIECE_SQUARES: usize = 12 * 64;
/// No move at this ply (before the root, or a null move): the continuation history's last
/// row, which stays zero (never updated), so that scoring adds it without a test.
const NO_PIECE_SQUARE: usize = PIECE_SQUARES;
/// The keys of a move (piece and target square, or none) that other tables may use: the
/// correction history's continuation table.
pub(crate) const MOVE_KEYS: usize = PIECE_SQUARES + 1;
/// No move: before the root, or a null move.
pub(crate) const NO_MOVE_KEY: usize = NO_PIECE_SQUARE;
/// Index bits of the pawn history: 512 pawn structures (1.5 MB).
const PAWN_HISTORY_BITS: u32 = 9;
/// Plies from the root that have a low-ply history table.
const LOW_PLIES: usize = 4;

/// Killer moves per ply, the butterfly history (side, threats, from, to) of quiet moves that
/// caused cut-offs and the continuation history (an earlier move's piece and square, this
/// move's piece and square). All allocated once, with the searcher.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Butterfly history: by side, [`threat_bucket`] (whether the enemy attacks the move's
    /// origin and target; always 0 without `history_threats`), origin and target.
    history: Box<[[[[Entry; 64]; 64]; THREAT_BUCKETS]; 2]>,
    /// The squares the side not to move attacks at each ply of the current path, as
    /// [`Heuristics::set_threats`] recorded them (empty without `history_threats`).
    threats: [Bitboard; MAX_PLY + 2],
    /// The same map for the capture history (empty without `capture_history_threats`).
    capture_threats: [Bitboard; MAX_PLY + 2],
    continuation: Box<[[Entry; PIECE_SQUARES]]>,
    /// Capture history: by [`capture_bucket`] (whether the enemy attacks the target; always
    /// 0 without `capture_history_threats`), moving piece and target square, then captured
    /// role.
    captures: Box<[[[Entry; 8]; PIECE_SQUARES]; 2]>,
    /// Pawn history of quiet moves: by a hash of the pawn structure, then the move's piece
    /// and target square (how a plan fits the pawns, whatever the moves before).
    pawn_history: Box<[[Entry; PIECE_SQUARES]]>,
    /// Counter moves: by the opponent's previous move (piece and target square), the quiet
    /// move (its [`quiet_key`]) that last cut off after it; the last row (no previous move)
    /// stays empty.
    counters: Box<[u32; PIECE_SQUARES + 1]>,
    /// Low-ply history (with `low_ply_history`): by ply from the root (below
    /// [`LOW_PLIES`]), origin and target. Cleared before every search.
    low_ply: Box<[[[Entry; 64]; 64]; LOW_PLIES]>,
    /// Piece and target square of the move played at each ply of the current path.
    played: [usize; MAX_PLY + 2],
    /// The move played at each ply of the current path (`None`: a null move).
    played_moves: [Option<Move>; MAX_PLY + 2],
}

impl Heuristics {
    pub(crate) fn new() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[[0; 64]; 64]; THREAT_BUCKETS]; 2]),
            threats: [Bitboard::EMPTY; MAX_PLY + 2],
            capture_threats: [Bitboard::EMPTY; MAX_PLY + 2],
            continuation: vec![[0; PIECE_SQUARES]; PIECE_SQUARES + 1].into_boxed_slice(),
            captures: Box::new([[[0; 8]; PIECE_SQUARES]; 2]),
            pawn_history: vec![[0; PIECE_SQUARES]; 1 << PAWN_HISTORY_BITS].into_boxed_slice(),
            counters: Box::new([NO_KEY; PIECE_SQUARES + 1]),
            low_ply: Box::new([[[0; 64]; 64]; LOW_PLIES]),
            played: [NO_PIECE_SQUARE; MAX_PLY + 2],
            played_moves: [None; MAX_PLY + 2],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.history = [[[[0; 64]; 64]; THREAT_BUCKETS]; 2];
        self.threats = [Bitboard::EMPTY; MAX_PLY + 2];
        self.capture_threats = [Bitboard::EMPTY; MAX_PLY + 2];
        for row in self.continuation.iter_mut() {
            row.fill(0);
        }
        *self.captures = [[[0; 8]; PIECE_SQUARES]; 2];
        *self.counters = [NO_KEY; PIECE_SQUARES + 1];
        for row in self.pawn_history.iter_mut() {
            row.fill(0);
        }
        *self.low_ply = [[[0; 64]; 64]; LOW_PLIES];
    }

    /// Between searches: forget killers and the low-ply history, keep half of the butterfly
    /// history (the continuation history is kept whole: it is specific enough to stay valid,
    /// and halving 1.2 MB before every short search would cost more than it helps).
    pub(crate) fn age(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.low_ply = [[[0; 64]; 64]; LOW_PLIES];
        // Row by row: a loop over a fixed-size row vectorises (this runs before every search,
        // so a 1000-node search paid for 8192 scalar divisions, 32,768 since the threat buckets).
        for row in self.history.iter_mut().flatten().flatten() {
            for v in row.iter_mut() {
                *v /= 2;
            }
        }
    }

    pub(crate) fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    /// Records the squares the enemy attacks in `pos`, the node at `ply`, before its moves
    /// are scored or any history is taught there: for the butterfly history with
    /// `history_threats`, for the capture history with `capture_history_threats` (else none,
    /// so that every move uses the first bucket).
    #[inline]
    pub(crate) fn set_threats(&mut self, knobs: &Knobs, ply: usize, pos: &Chess) {
        let map = if knobs.history_threats || knobs.capture_history_threats {
            attacked_by(pos.board(), !pos.turn())
        } else {
            Bitboard::EMPTY
        };
        self.threats[ply] = if knobs.history_threats {
            map
        } else {
            Bitboard::EMPTY
        };
        self.capture_threats[ply] = if knobs.capture_history_threats {
            map
        } else {
            Bitboard::EMPTY
        };
    }

    /// Whether the quiet move `m` of the node at `ply` leaves a square the enemy attacks for
    /// one it does not (never without `history_threats`: no attack map).
    #[inline]
    pub(crate) fn escapes_threat(&self, ply: usize, m: Move) -> bool {
        let (from, to) = squares(m);
        threat_bucket(self.threats[ply], from, to) == ESCAPE_BUCKET
    }

    /// Records that `m` (`None`: a null move) is played at `ply` of the current path.
    #[inline]
    pub(crate) fn set_played(&mut self, ply: usize, turn: Color, m: Option<Move>) {
        self.played[ply] = m.map_or(NO_PIECE_SQUARE, |m| piece_square(turn, m));
        self.played_moves[ply] = m;
    }

    /// The keys (piece and target square) of the moves four plies, two plies and one ply
    /// before `ply`.
    #[inline]
    pub(crate) fn move_keys(&self, ply: usize) -> [usize; 3] {
        [
            self.played_before(ply, 4),
            self.played_before(ply, 2),
            self.played_before(ply, 1),
        ]
    }

    /// The move played at `ply` of the current path, if a quiet one.
    #[inline]
    pub(crate) fn played_quiet(&self, ply: usize) -> Option<Move> {
        self.played_moves[ply].filter(|m| !m.is_capture() && !m.is_promotion())
    }

    /// Moves `turn`'s butterfly history of `m`, played at `ply`, by `bonus` (the
    /// evaluation's verdict on a quiet move,
    /// [`crate::params::search::Knobs::eval_history_divisor`]).
    #[inline]
    pub(crate) fn reward_by_eval(&mut self, turn: Color, ply: usize, m: Move, bonus: i32) {
        self.update(turn, ply, m, bonus);
    }

    /// Rewards `turn`'s quiet move `m`, played at `ply`, in the butterfly and (with
    /// `cont_history`) continuation histories by `percent` of a cut-off's bonus at `depth`:
    /// the node it led to failed low
    /// ([`crate::params::search::Knobs::fail_low_prior_bonus`]).
    pub(crate) fn reward_prior(
        &mut self,
        knobs: &Knobs,
        turn: Color,
        ply: usize,
        m: Move,
        depth: i32,
        percent: i32,
    ) {
        let bonus = history_bonus(knobs, depth) * percent / 100;
        if bonus == 0 {
            return;
        }
        self.update(turn, ply, m, bonus);
        self.update_continuation_at(knobs, turn, ply, m, bonus);
    }

    /// Moves the continuation histories of `turn`'s quiet move `m`, played at `ply`, by a
    /// cut-off's bonus at `depth`, up if `up`, else down
    /// ([`crate::params::search::Knobs::lmr_cont_update`]).
    pub(crate) fn reward_continuation(
        &mut self,
        knobs: &Knobs,
        turn: Color,
        ply: usize,
        m: Move,
        depth: i32,
        up: bool,
    ) {
        let bonus = history_bonus(knobs, depth);
        self.update_continuation_at(knobs, turn, ply, m, if up { bonus } else { -bonus });
    }

    /// With `cont_history`: moves the continuation histories of `turn`'s quiet move `m`,
    /// played at `ply`, by `bonus`.
    #[inline]
    fn update_continuation_at(
        &mut self,
        knobs: &Knobs,
        turn: Color,
        ply: usize,
        m: Move,
        bonus: i32,
    ) {
        if knobs.cont_history {
            let previous = self.previous(knobs, ply);
            self.update_continuation(previous, turn, m, bonus);
        }
    }

    /// The piece-square of the move `back` plies before `ply` (none before the root).
    #[inline]
    fn played_before(&self, ply: usize, back: usize) -> usize {
        ply.checked_sub(back)
            .map_or(NO_PIECE_SQUARE, |p| self.played[p])
    }

    /// The piece-squares of the moves one, two and (with `cont_history_4`) four plies before
    /// `ply`.
    #[inline]
    fn previous(&self, knobs: &Knobs, ply: usize) -> [usize; 3] {
        let at = |back| self.played_before(ply, back);
        let four_back = if knobs.cont_history_4 {
            at(4)
        } else {
            NO_PIECE_SQUARE
        };
        [at(1), at(2), four_back]
    }

    /// Records a quiet move that failed high at `ply`, and penalises the quiet moves among
    /// `tried` (the moves searched before it).
    pub(crate) fn reward(
        &mut self,
        knobs: &Knobs,
        pos: &Chess,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
    ) {
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        let turn = pos.turn();
        let bonus = history_bonus(knobs, depth);
        let previous = self.previous(knobs, ply);
        let pawns = knobs
            .pawn_history
            .then(|| pawn_index(pos.board(), PAWN_HISTORY_BITS));
        self.update(turn, ply, best, bonus);
        let low_ply = knobs.low_ply_history > 0 && ply < LOW_PLIES;
        if low_ply {
            self.update_low_ply(ply, best, bonus);
        }
        if knobs.countermove_bonus != 0
            && let Move::Normal { role, from, to, .. } = best
        {
            let before = self.played_before(ply, 1);
            if before != NO_PIECE_SQUARE {
                self.counters[before] = quiet_key(role, from, to);
            }
        }
        if knobs.cont_history {
            self.update_continuation(previous, turn, best, bonus);
        }
        if let Some(pawns) = pawns {
            update_entry(
                &mut self.pawn_history[pawns][piece_square(turn, best)],
                bonus,
            );
        }
        let malus = bonus * knobs.history_malus_percent / 100;
        for &m in tried {
            if m != best && !m.is_capture() && !m.is_promotion() {
                self.update(turn, ply, m, -malus);
                if low_ply {
                    self.update_low_ply(ply, m, -malus);
                }
                if knobs.cont_history {
                    self.update_continuation(previous, turn, m, -malus);
                }
                if let Some(pawns) = pawns {
                    update_entry(&mut self.pawn_history[pawns][piece_square(turn, m)], -malus);
                }
            }
        }
    }

    /// With `capture_history`, after a cut-off by `best` at `depth`: rewards `best` if it is
    /// a capture, and penalises the captures among `tried` (searched before it) that did
    /// not cut off.
    pub(crate) fn reward_captures(
        &mut self,
        knobs: &Knobs,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
    ) {
        if !knobs.capture_history {
            return;
        }
        let bonus = history_bonus(knobs, depth);
        let threats = self.capture_threats[ply];
        if best.is_capture() {
            let (piece, victim) = capture_index(turn, best);
            let bucket = capture_bucket(threats, best.to());
            update_entry(&mut self.captures[bucket][piece][victim], bonus);
        }
        for &m in tried {
            if m != best && m.is_capture() {
                let (piece, victim) = capture_index(turn, m);
                let bucket = capture_bucket(threats, m.to());
                update_entry(&mut self.captures[bucket][piece][victim], -bonus);
            }
        }
    }

    /// The score of a capture or promotion that is not the table move: by MVV-LVA, and with
    /// `capture_history` its history.
    #[inline]
    pub(crate) fn tactical_score(&self, knobs: &Knobs, turn: Color, ply: usize, m: Move) -> i32 {
        // Normal captures, nearly all, by one test (`Move`'s accessors each dispatch on the
        // kind of move again); the others out of line.
        let Move::Normal {
            role,
            to,
            capture: Some(victim),
            promotion,
            ..
        } = m
        else {
            return self.other_tactical_score(knobs, turn, ply, m);
        };
        let score = normal_capture_score(role, victim, promotion);
        if knobs.capture_history {
            let piece = piece_index(turn, role, to);
            let bucket = capture_bucket(self.capture_threats[ply], to);
            score
                + i32::from(self.captures[bucket][piece][victim as usize])
                    / knobs.capture_history_divisor
        } else {
            score
        }
    }

    /// The capture history's share of the score of `turn`'s capture `m` (0 for other moves,
    /// or without `capture_history`): what [`Heuristics::tactical_score`] adds to MVV-LVA.
    #[inline]
    pub(crate) fn capture_history_score(
        &self,
        knobs: &Knobs,
        turn: Color,
        ply: usize,
        m: Move,
    ) -> i32 {
        if knobs.capture_history && m.is_capture() {
            let (piece, victim) = capture_index(turn, m);
            let bucket = capture_bucket(self.capture_threats[ply], m.to());
            i32::from(self.captures[bucket][piece][victim]) / knobs.capture_history_divisor
        } else {
            0
        }
    }

    /// [`Heuristics::tactical_score`] of a move other than a normal capture.
    #[cold]
    fn other_tactical_score(&self, knobs: &Knobs, turn: Color, ply: usize, m: Move) -> i32 {
        tactical_score(m) + self.capture_history_score(knobs, turn, ply, m)
    }

    fn update(&mut self, turn: Color, ply: usize, m: Move, bonus: i32) {
        let (from, to) = squares(m);
        let bucket = threat_bucket(self.threats[ply], from, to);
        update_entry(&mut self.history[turn as usize][bucket][from][to], bonus);
    }

    fn update_low_ply(&mut self, ply: usize, m: Move, bonus: i32) {
        let (from, to) = squares(m);
        update_entry(&mut self.low_ply[ply][from][to], bonus);
    }

    fn update_continuation(&mut self, previous: [usize; 3], turn: Color, m: Move, bonus: i32) {
        let current = piece_square(turn, m);
        for before in previous {
            if before != NO_PIECE_SQUARE {
                update_entry(&mut self.continuation[before][current], bonus);
            }
        }
    }

    fn history(&self, turn: Color, ply: usize, m: Move) -> i32 {
        let (from, to) = squares(m);
        let bucket = threat_bucket(self.threats[ply], from, to);
        i32::from(self.history[turn as usize][bucket][from][to])
    }

    /// The killer of `ply` that [`Heuristics::score_moves`] would score highest among the legal
    /// moves of `pos` (not in check), with that score: the first killer if legal, else the
    /// second. `None` also when a killer is a castling move, which only the full generation
    /// tells legal.
    pub(crate) fn legal_killer(&self, pos: &Chess, ply: usize) -> Option<(Move, i32)> {
        for (killer, score) in self.killers[ply].into_iter().zip([KILLER + 1, KILLER]) {
            match killer {
                Some(m @ Move::Normal { .. }) if is_legal_normal(pos, m) => {
                    return Some((m, score));
                }
                Some(Move::Normal { .. }) | None => {}
                Some(_) => return None,
            }
        }
        None
    }

    /// Scores every move of `moves` into `scores` (same indices).
    pub(crate) fn score_moves(
        &self,
        knobs: &Knobs,
        pos: &Chess,
        moves: &MoveList,
        scores: &mut [i32],
        tt_move: PackedMove,
        ply: usize,
    ) {
        // Compiled once without the check bonus (off by default), so that that loop neither
        // tests for it nor keeps registers free for its call at every quiet move.
        if knobs.quiet_check_bonus == 0 {
            self.score_moves_checks::<false>(knobs, pos, moves, scores, tt_move, ply);
        } else {
            self.score_moves_checks::<true>(knobs, pos, moves, scores, tt_move, ply);
        }
    }

    /// [`Heuristics::score_moves`], with the quiet check bonus if `CHECK_BONUS`.
    #[inline(always)]
    fn score_moves_checks<const CHECK_BONUS: bool>(
        &self,
        knobs: &Knobs,
        pos: &Chess,
        moves: &MoveList,
        scores: &mut [i32],
        tt_move: PackedMove,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        // Quiet moves compare with the killers by piece and squares (killers are quiet).
        let killer_keys = killers.map(|k| match k {
            Some(Move::Normal { role, from, to, .. }) => quiet_key(role, from, to),
            _ => NO_KEY,
        });
        let turn = pos.turn();
        let history = &self.history[turn as usize];
        let threats = self.threats[ply];
        // Beyond the low plies (or off): weight 0, whatever table is read.
        let low_ply = &self.low_ply[ply.min(LOW_PLIES - 1)];
        let low_ply_scale = if ply < LOW_PLIES {
            knobs.low_ply_history * 64 / (1 + ply as i32)
        } else {
            0
        };
        // Without a previous move (or without the continuation history) the zero row.
        let [before, before_that, four_back] = if knobs.cont_history {
            self.previous(knobs, ply)
        } else {
            [NO_PIECE_SQUARE; 3]
        };
        let (continued, continued_twice, continued_four) = (
            &self.continuation[before],
            &self.continuation[before_that],
            &self.continuation[four_back],
        );
        // Off: the continuation history's zero row.
        let by_pawns = if knobs.pawn_history {
            &self.pawn_history[pawn_index(pos.board(), PAWN_HISTORY_BITS)]
        } else {
            &self.continuation[NO_PIECE_SQUARE]
        };
        // Squares the enemy pawns attack: a piece is better moved off them than onto them.
        let threat_weight = knobs.quiet_pawn_threat;
        let pawn_threats = if threat_weight == 0 {
            Bitboard::EMPTY
        } else {
            let board = pos.board();
            pawn_attacks_of(board.pawns() & board.by_color(!turn), !turn)
        };
        let piece_threats = LesserPieceThreats::new(pos, knobs.quiet_piece_threat);
        // Quiet checks: forcing, and often what the side to move has.
        let check_bonus = knobs.quiet_check_bonus;
        let checks = CHECK_BONUS.then(|| CheckInfo::new(pos));
        // The counter move to the opponent's last move (none: a key no move has).
        let counter_bonus = knobs.countermove_bonus;
        let counter_key = if counter_bonus == 0 {
            NO_KEY
        } else {
            self.counters[self.played_before(ply, 1)]
        };
        for (m, score) in moves.iter().zip(scores.iter_mut()) {
            // Quiet moves, most of the list, by one match; the rest by their kind.
            *score = match *m {
                Move::Normal {
                    role,
                    from,
                    to,
                    capture: None,
                    promotion: None,
                } => {
                    // First, as it may call out: the values loaded below then stay in
                    // registers instead of being saved around the call.
                    let check = checks
                        .as_ref()
                        .map_or(0, |c| i32::from(c.gives_check(pos, *m)) * check_bonus);
                    let key = quiet_key(role, from, to);
                    let current = piece_index(turn, role, to);
                    let threat = (i32::from(pawn_threats.contains(from))
                        - i32::from(pawn_threats.contains(to)))
                        * i32::from(role != Role::Pawn)
                        * threat_weight
                        + piece_threats.score(role, from, to);
                    let (from_index, to_index) = (from as usize, to as usize);
                    let histories = i32::from(
                        history[threat_bucket(threats, from_index, to_index)][from_index][to_index],
                    ) + i32::from(continued[current])
                        + i32::from(continued_twice[current])
                        + i32::from(continued_four[current])
                        + i32::from(by_pawns[current])
                        + ((i32::from(low_ply[from_index][to_index]) * low_ply_scale) >> 8)
                        + threat
                        + i32::from(key == counter_key) * counter_bonus
                        + check;
                    if key == killer_keys[0] {
                        KILLER + 1
                    } else if key == killer_keys[1] {
                        KILLER
                    } else {
                        histories
                    }
                }
                _ if m.is_capture() || m.is_promotion() => {
                    self.tactical_score(knobs, turn, ply, *m)
                }
                _ if killers[0] == Some(*m) => KILLER + 1,
                _ if killers[1] == Some(*m) => KILLER,
                _ => self.history(turn, ply, *m),
            };
        }
        // A packed move matches at most one legal move (from, to and promotion tell them
        // apart), so the first match is the only one.
        // Most moves differ from it in the target square, compared first and alone.
        if let Some((_, tt_to, _)) = tt_move.squares()
            && let Some(index) = moves
                .iter()
                .position(|m| m.to() == tt_to && tt_move.matches(*m))
        {
            scores[index] = TT_MOVE;
        }
    }
}

/// Squares the enemy's minor pieces, and its minor pieces and rooks, attack: a rook is
/// better moved off the first and a queen off the second than onto them.
struct LesserPieceThreats {
    by_minors: Bitboard,
    by_minors_and_rooks: Bitboard,
    weight: i32,
}

impl LesserPieceThreats {
    /// Empty sets (and no cost) when the term is off or the side to move has no rook or
    /// queen to move.
    fn new(pos: &Chess, weight: i32) -> Self {
        let board = pos.board();
        let turn = pos.turn();
        let ours = board.by_color(turn);
        let none = LesserPieceThreats {
            by_minors: Bitboard::EMPTY,
            by_minors_and_rooks: Bitboard::EMPTY,
            weight: 0,
        };
        if weight == 0 || (ours & (board.rooks() | board.queens())).is_empty() {
            return none;
        }
        let theirs = board.by_color(!turn);
        let occupied = board.occupied();
        let by_minors = minor_attacks(board, !turn);
        let mut by_minors_and_rooks = by_minors;
        for sq in theirs & board.rooks() {
            by_minors_and_rooks |= attacks::rook_attacks(sq, occupied);
        }
        LesserPieceThreats {
            by_minors,
            by_minors_and_rooks,
            weight,
        }
    }

    /// The term of a quiet move of `role` from `from` to `to`.
    #[inline]
    fn score(&self, role: Role, from: Square, to: Square) -> i32 {
        let threatened = match role {
            Role::Rook => self.by_minors,
            Role::Queen => self.by_minors_and_rooks,
            _ => return 0,
        };
        (i32::from(threatened.contains(from)) - i32::from(threatened.contains(to))) * self.weight
    }
}

/// The score [`Heuristics::score_moves`] gives a capture or promotion that is not the table
/// move, without the capture history.
#[inline]
pub(crate) fn tactical_score(m: Move) -> i32 {
    if m.is_capture() {
        provisional_capture_score(m)
    } else if m.promotion() == Some(Role::Queen) {
        PROMOTION
    } else {
        BAD_CAPTURE
    }
}

/// Captures (and promotions) for the quiescence search, by SEE class then MVV-LVA.
#[cfg(test)]
pub(crate) fn capture_score(pos: &Chess, m: Move) -> i32 {
    let score = provisional_capture_score(m);
    if exchange_cannot_lose(m) || see(pos, m) >= 0 {
        score
    } else {
        demoted(score)
    }
}

/// [`capture_score`] before the exchange is played out: scored as winning, and classed only
/// when [`pick`] reaches it (most nodes cut off before the captures that need a SEE).
#[inline]
pub(crate) fn provisional_capture_score(m: Move) -> i32 {
    let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
    GOOD_CAPTURE + CAPTURE_HISTORY_ROOM + victim * 8 - m.role() as i32
}

/// [`provisional_capture_score`] of a normal move of `role` taking `victim`.
#[inline]
fn normal_capture_score(role: Role, victim: Role, promotion: Option<Role>) -> i32 {
    let victim = value(victim) + promotion.map_or(0, value);
    GOOD_CAPTURE + CAPTURE_HISTORY_ROOM + victim * 8 - role as i32
}

/// Room above [`GOOD_CAPTURE`] for the capture history to lower a capture's score
/// (±16,384 divided by at least 4) and leave it classed as winning until SEE says otherwise.
const CAPTURE_HISTORY_ROOM: i32 = HISTORY_MAX / 4;

/// A provisional capture score turned into that of a losing capture (same MVV-LVA order).
#[inline]
fn demoted(score: i32) -> i32 {
    score - GOOD_CAPTURE + BAD_CAPTURE
}

/// Whether `score` is a capture scored as winning, which [`pick`] checks before trusting.
#[inline]
fn is_provisional(score: i32) -> bool {
    (GOOD_CAPTURE..TT_MOVE).contains(&score)
}

/// The exchange cannot lose when what is taken is worth at least the piece left on the
/// square (the opponent's best reply is to take that piece, after which we may stop), so
/// the sign of the SEE is known without playing the exchange out. Not on the first and
/// last ranks, where a pawn retaking would also promote.
/// One match on the kind of move (`Move`'s accessors each dispatch on it again).
#[inline]
fn exchange_cannot_lose(m: Move) -> bool {
    match m {
        Move::Normal {
            role,
            capture,
            to,
            promotion,
            ..
        } => {
            let exposed = value(promotion.unwrap_or(role));
            let first_gain =
                capture.map_or(0, value) + promotion.map_or(0, |r| value(r) - value(Role::Pawn));
            let back_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
            first_gain >= exposed && !back_rank
        }
        // A pawn takes a pawn, never on a back rank.
        Move::EnPassant { .. } => true,
        // Nothing taken, and the king or a piece exposed.
        Move::Castle { .. } | Move::Put { .. } => false,
    }
}

/// Whether `score` (from [`Heuristics::score_moves`]) marks a capture losing material.
pub(crate) fn is_bad_capture_score(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

/// The history bonus of a cut-off at `depth`, linear in depth: shallow cut-offs, the most
/// frequent, still teach something.
#[inline]
fn history_bonus(knobs: &Knobs, depth: i32) -> i32 {
    let per_ply = knobs.history_bonus_per_ply;
    (per_ply * depth - per_ply / 2).clamp(1, knobs.history_bonus_max)
}

/// The capture history's indices of capture `m` by `turn`: piece and target, victim's role.
#[inline]
fn capture_index(turn: Color, m: Move) -> (usize, usize) {
    (
        piece_square(turn, m),
        m.capture().map_or(0, |role| role as usize),
    )
}

/// Gravity: the closer to the bound, the smaller the step, so values stay bounded.
#[inline]
fn update_entry(entry: &mut Entry, bonus: i32) {
    let value = i32::from(*entry);
    let value = value + 32 * bonus - value * bonus.abs() * 32 / HISTORY_MAX;
    // Within ±HISTORY_MAX (2^14), so it fits.
    *entry = value.clamp(-HISTORY_MAX, HISTORY_MAX) as Entry;
}

/// A quiet normal move as a number: role, from and to.
#[inline]
fn quiet_key(role: Role, from: Square, to: Square) -> u32 {
    role as u32 | (from as u32) << 3 | (to as u32) << 9
}

/// A key no quiet move has.
const NO_KEY: u32 = u32::MAX;

/// Index of the moving piece (side and role) and target square.
#[inline]
fn piece_index(turn: Color, role: Role, to: Square) -> usize {
    (turn as usize * 6 + (role as usize - 1)) * 64 + to as usize
}

#[inline]
fn piece_square(turn: Color, m: Move) -> usize {
    piece_index(turn, m.role(), m.to())
}

fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

/// Butterfly history tables a side has: by whether its move leaves a square the enemy
/// attacks and whether it goes to one.
const THREAT_BUCKETS: usize = 4;

/// The bucket of a move from an attacked square to one not attacked (see [`threat_bucket`]).
const ESCAPE_BUCKET: usize = 0b10;

/// The butterfly history table of a move from square index `from` to `to` when the enemy
/// attacks `threats`: bit 1 set if it attacks `from`, bit 0 if it attacks `to` (escaping an
/// attack and walking into one are different moves).
#[inline]
fn threat_bucket(threats: Bitboard, from: usize, to: usize) -> usize {
    let bit = |square: usize| ((threats.0 >> square) & 1) as usize;
    bit(from) << 1 | bit(to)
}

/// The capture history's table for a capture to `to`: 1 if the enemy attacks that square
/// (`threats`: the node's map, empty without `capture_history_threats`), else 0.
#[inline]
fn capture_bucket(threats: Bitboard, to: Square) -> usize {
    ((threats.0 >> to as u32) & 1) as usize
}

/// Every square `color`'s pieces attack on `board` (pawns by their captures).
fn attacked_by(board: &shakmaty::Board, color: Color) -> Bitboard {
    let theirs = board.by_color(color);
    let occupied = board.occupied();
    let mut attacked = pawn_attacks_of(board.pawns() & theirs, color);
    for sq in board.knights() & theirs {
        attacked |= attacks::knight_attacks(sq);
    }
    for sq in (board.bishops() | board.queens()) & theirs {
        attacked |= attacks::bishop_attacks(sq, occupied);
    }
    for sq in (board.rooks() | board.queens()) & theirs {
        attacked |= attacks::rook_attacks(sq, occupied);
    }
    if let Some(king) = board.king_of(color) {
        attacked |= attacks::king_attacks(king);
    }
    attacked
}

/// [`pick`] scans the scores eight at a time, whole groups only (no scalar loop for the rest,
/// whose varying length the CPU mispredicts): the slots after the last move hold this, which
/// no move scores.
const PADDING: i32 = i32::MIN;
const LANES: usize = 8;

/// Fills the slots after the `len` scored moves of `scores` with [`PADDING`], as [`pick`]
/// needs (`scores` must have room for `len + 7`).
#[inline(always)]
pub(crate) fn pad_scores(scores: &mut [i32], len: usize) {
    scores[len..len + LANES - 1].fill(PADDING);
}

/// Moves the highest-scored remaining move to position `index` and returns it (a selection
/// sort done lazily, since a cut-off often comes after the first few moves). A capture with a
/// provisional score is classed by SEE when it comes out on top; if it loses material it is
/// demoted and the pick goes on, so the order is the one exact scores would have given.
/// `scores` must be padded by [`pad_scores`].
#[inline(always)]
pub(crate) fn pick(
    pos: &Chess,
    moves: &mut MoveList,
    scores: &mut [i32],
    index: usize,
) -> (Move, i32) {
    loop {
        let groups = (moves.len() - index).div_ceil(LANES);
        let rest = &scores[index..index + groups * LANES];
        // The first of the highest (ties keep generation order). Two passes, because a plain
        // maximum vectorises and the running index of the best does not.
        let top = highest(rest);
        let best = index + first_position(rest, top).unwrap_or(0);
        if is_provisional(top) && loses_exchange(pos, moves[best]) {
            scores[best] = demoted(top);
            continue;
        }
        moves.swap(index, best);
        scores.swap(index, best);
        return (moves[index], top);
    }
}

/// The highest of `scores` (a whole number of groups of [`LANES`]).
#[inline(always)]
fn highest(scores: &[i32]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_sse41() {
        // SAFETY: the CPU has SSE4.1, checked just above.
        return unsafe { highest_sse41(scores) };
    }
    highest_portable(scores)
}

/// [`highest`] compiled with SSE4.1: out of line, but the maximum of four scores is one
/// instruction instead of four.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn highest_sse41(scores: &[i32]) -> i32 {
    highest_portable(scores)
}

#[inline(always)]
fn highest_portable(scores: &[i32]) -> i32 {
    let mut lanes = [PADDING; LANES];
    for group in scores.chunks_exact(LANES) {
        for (lane, &s) in lanes.iter_mut().zip(group) {
            *lane = (*lane).max(s);
        }
    }
    lanes.into_iter().max().unwrap_or(PADDING)
}

/// Where `top` first occurs in `scores` (a whole number of groups of [`LANES`]): one branch
/// per group, on a mask of the group's matches.
#[inline(always)]
fn first_position(scores: &[i32], top: i32) -> Option<usize> {
    for (g, group) in scores.chunks_exact(LANES).enumerate() {
        let mask = matches(group, top);
        if mask != 0 {
            return Some(g * LANES + mask.trailing_zeros() as usize);
        }
    }
    None
}

/// Bit `j` set when `group[j] == top` (`group` has [`LANES`] scores). SSE2 (every x86-64 CPU
/// has it) compares four at a time; the compiler did not find that form itself.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn matches(group: &[i32], top: i32) -> u32 {
    use std::arch::x86_64::{
        _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_set_epi32, _mm_set1_epi32,
    };
    // SAFETY: SSE and SSE2 are part of the x86-64 baseline, so every x86-64 CPU runs these.
    unsafe {
        let top = _mm_set1_epi32(top);
        let low = _mm_set_epi32(group[3], group[2], group[1], group[0]);
        let high = _mm_set_epi32(group[7], group[6], group[5], group[4]);
        let low = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(low, top)));
        let high = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(high, top)));
        (low | high << 4) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn matches(group: &[i32], top: i32) -> u32 {
    let mut mask = 0;
    for (j, &s) in group[..LANES].iter().enumerate() {
        mask |= u32::from(s == top) << j;
    }
    mask
}

/// Whether the capture `m` loses material by SEE (kept out of line: [`pick`] is inlined in
/// every move loop).
#[inline(never)]
fn loses_exchange(pos: &Chess, m: Move) -> bool {
    !exchange_cannot_lose(m) && !see_at_least(pos, m, 0)
}

/// What it takes to give check in one position, computed once so that testing each move is
/// a few bitboard lookups.
pub(crate) struct CheckInfo {
    /// The enemy king (`None` only on boards without one).
    king: Option<Square>,
    /// Per role: the squares from which a piece of that role attacks the enemy king.
    check_squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the enemy king: moving one
    /// off that line gives discovered check.
    discoverers: Bitboard,
}

impl CheckInfo {
    pub(crate) fn new(pos: &Chess) -> Self {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo {
                king: None,
                check_squares: [Bitboard::EMPTY; 6],
                discoverers: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        let mut check_squares = [Bitboard::EMPTY; 6];
        check_squares[Role::Pawn as usize - 1] = attacks::pawn_attacks(!us, king);
        check_squares[Role::Knight as usize - 1] = attacks::knight_attacks(king);
        check_squares[Role::Bishop as usize - 1] = diagonal;
        check_squares[Role::Rook as usize - 1] = straight;
        check_squares[Role::Queen as usize - 1] = diagonal | straight;
        let snipers = ours
            & ((attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
                | (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                discoverers |= blockers & ours;
            }
        }
        CheckInfo {
            king: Some(king),
            check_squares,
            discoverers,
        }
    }

    /// The enemy king.
    pub(crate) fn king(&self) -> Option<Square> {
        self.king
    }

    /// The squares from which a `role` attacks the enemy king (none for the king).
    pub(crate) fn check_squares(&self, role: Role) -> Bitboard {
        self.check_squares[role as usize - 1]
    }

    /// Our pieces whose leaving the line to the enemy king uncovers a check.
    pub(crate) fn discoverers(&self) -> Bitboard {
        self.discoverers
    }

    /// Whether playing the legal move `m` gives check. Promotions, castling and en passant
    /// (rare, and where the vacated squares matter) are played out instead. Always inlined:
    /// the common case is two bitboard tests, less than the call.
    #[inline(always)]
    pub(crate) fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                self.check_squares[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
            }
            _ => played_gives_check(pos, m),
        }
    }
}

/// Whether `m` gives check, by playing it (kept out of line: rare, and the copy is large).
#[cold]
#[inline(never)]
fn played_gives_check(pos: &Chess, m: Move) -> bool {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child.is_check()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_class_agrees_with_the_full_exchange() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",
            // Rook takes rook on the last rank, and a pawn retakes promoting.
            "1r4R1/2p4P/8/k7/8/8/8/K7 b - - 3 2",
        ] {
            let p = pos(fen);
            for m in p.legal_moves() {
                if m.is_capture() || m.is_promotion() {
                    assert_eq!(
                        is_bad_capture_score(capture_score(&p, m)),
                        see(&p, m) < 0,
                        "{fen} {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn scores_follow_the_ordering_rules() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let moves = p.legal_moves();
        let mut h = Heuristics::new();
        let knobs = knobs(false);
        let quiet: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_capture() && !m.is_promotion())
            .collect();
        h.reward(&knobs, &p, 3, 5, quiet[2], &quiet[..2]);
        h.reward(&knobs, &p, 3, 4, quiet[4], &[]);
        let tt = moves[7];
        let mut scores = [0; 256];
        h.score_moves(&knobs, &p, &moves, &mut scores, PackedMove::new(tt), 3);
        for (i, &m) in moves.iter().enumerate() {
            let expected = if m == tt {
                TT_MOVE
            } else if m.is_capture() {
                provisional_capture_score(m)
            } else if m.promotion() == Some(Role::Queen) {
                PROMOTION
            } else if m.is_promotion() {
                BAD_CAPTURE
            } else if m == quiet[4] {
                KILLER + 1
            } else if m == quiet[2] {
                KILLER
            } else {
                h.history(p.turn(), 3, m)
            };
            assert_eq!(scores[i], expected, "{m}");
        }
        assert!(h.history(p.turn(), 3, quiet[0]) < 0);
    }

    #[test]
    fn pawn_threats_move_pieces_off_attacked_squares_first() {
        // Black's pawns attack a5, c5 (b6) and c4, e4 (d5): the knight on e4 stands
        // attacked, the one on b2 does not.
        let p = pos("4k3/8/1p6/3p4/4N3/8/1NP5/4K3 w - - 0 1");
        use crate::params::search::{CONT_HISTORY, QUIET_PAWN_THREAT};
        let on = knobs_with(&[(CONT_HISTORY, 0), (QUIET_PAWN_THREAT, 3000)]);
        let off = knobs(false);
        let h = Heuristics::new();
        let expected = [
            ("e4g5", 3000), // off an attacked square onto a safe one
            ("e4c3", 3000),
            ("e4c5", 0),     // from one attacked square to another
            ("b2c4", -3000), // onto an attacked square
            ("b2d3", 0),
            ("c2c4", 0), // pawn moves are left to the histories
        ];
        for (uci, score) in expected {
            let m = find(&p, uci);
            assert_eq!(score_of(&h, &on, &p, 2, m), score, "{uci}");
            assert_eq!(score_of(&h, &off, &p, 2, m), 0, "{uci}");
        }
    }

    #[test]
    fn piece_threats_move_majors_off_squares_lesser_pieces_attack() {
        // Black's knight on c6 attacks a5, b4 and d4, its bishop on g7 the long diagonal down
        // to d4, its rook on h8 the h-file down to h3: the rook on d4 stands attacked by
        // minor pieces, the queen on h3 by a rook, the rook on a1 stands safe.
        let p = pos("4k2r/6b1/2n5/8/3R4/7Q/8/R3K3 w k - 0 1");
        use crate::params::search::{CONT_HISTORY, QUIET_PAWN_THREAT, QUIET_PIECE_THREAT};
        let on = knobs_with(&[
            (CONT_HISTORY, 0),
            (QUIET_PAWN_THREAT, 0),
            (QUIET_PIECE_THREAT, 2000),
        ]);
        let off = knobs(false);
        let h = Heuristics::new();
        let expected = [
            ("d4d3", 2000),  // off a square minor pieces attack onto a safe one
            ("d4b4", 0),     // from one such square to another
            ("a1a5", -2000), // onto a square the knight attacks
            ("a1a2", 0),
            ("h3g3", 2000), // the queen off the rook's file
            ("h3h6", 0),    // the queen to a square the bishop and the rook attack
            ("e1d2", 0),    // the king is left to the histories
        ];
        for (uci, score) in expected {
            let m = find(&p, uci);
            assert_eq!(score_of(&h, &on, &p, 2, m), score, "{uci}");
            assert_eq!(score_of(&h, &off, &p, 2, m), 0, "{uci}");
        }
    }

    #[test]
    fn capture_history_reorders_captures_of_equal_victims() {
        // A knight and a bishop can take the pawn on d5: by MVV-LVA the knight first.
        let p = pos("4k3/8/8/3p4/8/1BN5/8/4K3 w - - 0 1");
        let on = knobs_with(&[(crate::params::search::CAPTURE_HISTORY, 1)]);
        let off = knobs(false);
        let mut h = Heuristics::new();
        let (c3d5, b3d5) = (find(&p, "c3d5"), find(&p, "b3d5"));
        assert!(score_of(&h, &on, &p, 2, c3d5) > score_of(&h, &on, &p, 2, b3d5));
        // Bxd5 cut a node off after c3xd5 was searched in vain, twice.
        for _ in 0..2 {
            h.reward_captures(&on, p.turn(), 2, 6, b3d5, &[c3d5]);
        }
        assert!(score_of(&h, &on, &p, 2, b3d5) > score_of(&h, &on, &p, 2, c3d5));
        // Off, the table is neither read nor written.
        assert!(score_of(&h, &off, &p, 2, c3d5) > score_of(&h, &off, &p, 2, b3d5));
        let mut untouched = Heuristics::new();
        untouched.reward_captures(&off, p.turn(), 2, 6, b3d5, &[c3d5]);
        assert!(score_of(&untouched, &on, &p, 2, c3d5) > score_of(&untouched, &on, &p, 2, b3d5));
        // A pawn capture with the worst history still scores as a winning capture, above
        // the killers, until SEE demotes it.
        for _ in 0..200 {
            h.reward_captures(&on, p.turn(), 2, 20, b3d5, &[c3d5]);
        }
        let worst = score_of(&h, &on, &p, 2, c3d5);
        assert!(
            worst >= GOOD_CAPTURE && worst < score_of(&h, &on, &p, 2, b3d5),
            "{worst}"
        );
    }

    #[test]
    fn capture_history_threats_learn_defended_targets_apart() {
        // The knight takes the pawn on d5: defended by the pawn on e6 in one position,
        // hanging in the other. Same piece, target and victim: one entry without the switch.
        let defended = pos("4k3/8/4p3/3p4/8/2N5/8/4K3 w - - 0 1");
        let hanging = pos("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1");
        use crate::params::search::{CAPTURE_HISTORY, CAPTURE_HISTORY_THREATS};
        let split = knobs_with(&[(CAPTURE_HISTORY, 1), (CAPTURE_HISTORY_THREATS, 1)]);
        let shared = knobs_with(&[(CAPTURE_HISTORY, 1), (CAPTURE_HISTORY_THREATS, 0)]);
        let taught = |knobs: &Knobs| {
            let mut h = Heuristics::new();
            let m = find(&defended, "c3d5");
            h.set_threats(knobs, 2, &defended);
            let before = h.capture_history_score(knobs, Color::White, 2, m);
            h.reward_captures(knobs, Color::White, 2, 8, m, &[]);
            let after_defended = h.capture_history_score(knobs, Color::White, 2, m);
            h.set_threats(knobs, 2, &hanging);
            let after_hanging = h.capture_history_score(knobs, Color::White, 2, m);
            (before, after_defended, after_hanging)
        };
        let (before, defended_score, hanging_score) = taught(&split);
        assert_eq!(before, 0);
        assert!(defended_score > 0, "{defended_score}");
        assert_eq!(hanging_score, 0, "the hanging capture keeps its own entry");
        let (_, defended_score, hanging_score) = taught(&shared);
        assert!(defended_score > 0);
        assert_eq!(
            hanging_score, defended_score,
            "one entry for both without the switch"
        );
    }

    fn knobs(cont_history: bool) -> Knobs {
        use crate::params::search::{
            CAPTURE_HISTORY, CONT_HISTORY, COUNTERMOVE_BONUS, PAWN_HISTORY, QUIET_PAWN_THREAT,
            QUIET_PIECE_THREAT,
        };
        // Moves by their histories and MVV-LVA alone (the threat terms, the counter move, the
        // pawn history and the capture history have their own tests).
        knobs_with(&[
            (CONT_HISTORY, i64::from(cont_history)),
            (PAWN_HISTORY, 0),
            (QUIET_PAWN_THREAT, 0),
            (QUIET_PIECE_THREAT, 0),
            (COUNTERMOVE_BONUS, 0),
            (CAPTURE_HISTORY, 0),
        ])
    }

    /// The default knobs with the threat terms and the counter move off (quiet moves by
    /// their histories, and the bonus under test) and `settings` changed.
    fn without_threats(settings: &[(crate::params::ParamId, i64)]) -> Knobs {
        use crate::params::search::{COUNTERMOVE_BONUS, QUIET_PAWN_THREAT, QUIET_PIECE_THREAT};
        let mut all = vec![
            (QUIET_PAWN_THREAT, 0),
            (QUIET_PIECE_THREAT, 0),
            (COUNTERMOVE_BONUS, 0),
        ];
        all.extend_from_slice(settings);
        knobs_with(&all)
    }

    /// The default knobs with `settings` changed.
    fn knobs_with(settings: &[(crate::params::ParamId, i64)]) -> Knobs {
        let mut params = crate::params::Params::default();
        for &(id, value) in settings {
            params.set(id, value).unwrap();
        }
        Knobs::new(&params)
    }

    fn score_of(h: &Heuristics, knobs: &Knobs, p: &Chess, ply: usize, m: Move) -> i32 {
        let moves = p.legal_moves();
        let mut scores = [0; 256];
        h.score_moves(knobs, p, &moves, &mut scores, PackedMove::NONE, ply);
        scores[moves.iter().position(|&x| x == m).unwrap()]
    }

    fn find(p: &Chess, uci: &str) -> Move {
        let m: shakmaty::uci::UciMove = uci.parse().unwrap();
        m.to_move(p).unwrap()
    }

    #[test]
    fn low_ply_history_orders_the_plies_near_the_root_for_one_search() {
        use crate::params::search::LOW_PLY_HISTORY;
        let p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        let (off, on) = (knobs(false), {
            let mut k = knobs(false);
            k.low_ply_history = 16;
            k
        });
        assert_eq!(
            on.low_ply_history,
            knobs_with(&[(LOW_PLY_HISTORY, 16)]).low_ply_history
        );
        let score = |h: &Heuristics, k: &Knobs, ply: usize, m: Move| score_of(h, k, &p, ply, m);
        for ply in [1, 3] {
            let mut h = Heuristics::new();
            h.reward(&on, &p, ply, 4, ra8, &[ng3]);
            h.clear_killers(ply);
            let (with, without) = (score(&h, &on, ply, ra8), score(&h, &off, ply, ra8));
            assert!(with > without && without > 0, "ply {ply}: {with} {without}");
            assert!(score(&h, &on, ply, ng3) < score(&h, &off, ply, ng3));
            // Nearer the root it weighs more: the same entry adds 16/8 of itself at ply 1,
            // 16/16 at ply 3.
            let entry = i32::from(h.low_ply[ply][0][56]);
            assert!(entry > 0);
            assert_eq!(with - without, entry * 16 / (4 * (1 + ply as i32)));
            // The next search starts without it.
            h.age();
            assert_eq!(score(&h, &on, ply, ra8), score(&h, &off, ply, ra8));
        }
        // From ply 4 on there is no table: learning there changes nothing.
        let mut h = Heuristics::new();
        h.reward(&on, &p, 4, 4, ra8, &[ng3]);
        h.clear_killers(4);
        assert_eq!(score(&h, &on, 4, ra8), score(&h, &off, 4, ra8));
        // Off, nothing is learnt.
        let mut h = Heuristics::new();
        h.reward(&off, &p, 1, 4, ra8, &[ng3]);
        assert!(h.low_ply.iter().flatten().flatten().all(|&v| v == 0));
    }

    #[test]
    fn continuation_history_follows_the_previous_move() {
        let p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
        let previous = pos("3k4/8/8/8/8/8/8/R3K2N b - - 0 1");
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        let on = knobs(true);
        let mut h = Heuristics::new();
        // At ply 1, after the opponent's Ke8 (played at ply 0), Ra8 failed high after Ng3.
        h.set_played(0, previous.turn(), Some(find(&previous, "d8e8")));
        h.reward(&on, &p, 1, 4, ra8, &[ng3]);
        h.clear_killers(1); // so that Ra8 is scored by its histories, not as a killer
        let with = score_of(&h, &on, &p, 1, ra8);
        let without = score_of(&h, &knobs(false), &p, 1, ra8);
        assert!(with > without && without > 0, "{with} {without}");
        assert!(score_of(&h, &on, &p, 1, ng3) < score_of(&h, &knobs(false), &p, 1, ng3));
        // After another previous move only the butterfly part is left.
        h.set_played(0, previous.turn(), Some(find(&previous, "d8d7")));
        assert_eq!(score_of(&h, &on, &p, 1, ra8), without);
        // After a null move, too.
        h.set_played(0, previous.turn(), None);
        assert_eq!(score_of(&h, &on, &p, 1, ra8), without);
    }

    #[test]
    fn continuation_history_four_plies_back_when_switched_on() {
        use crate::params::search::CONT_HISTORY_4;
        let p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
        let four_back = pos("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1");
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        let on = without_threats(&[(CONT_HISTORY_4, 1)]);
        let mut h = Heuristics::new();
        // At ply 4, our own Ng1-h3 (played at ply 0) came before; plies 1 to 3 hold no move.
        h.set_played(0, four_back.turn(), Some(find(&four_back, "g1h3")));
        h.reward(&on, &p, 4, 4, ra8, &[ng3]);
        h.clear_killers(4);
        let with = score_of(&h, &on, &p, 4, ra8);
        let off = without_threats(&[]);
        let without = score_of(&h, &off, &p, 4, ra8);
        assert!(with > without && without > 0, "{with} {without}");
        // Off, the four-ply row is never written either.
        let mut unlearnt = Heuristics::new();
        unlearnt.set_played(0, four_back.turn(), Some(find(&four_back, "g1h3")));
        unlearnt.reward(&off, &p, 4, 4, ra8, &[ng3]);
        unlearnt.clear_killers(4);
        assert_eq!(score_of(&unlearnt, &on, &p, 4, ra8), without);
    }

    #[test]
    fn counter_move_answers_the_previous_move() {
        use crate::params::search::COUNTERMOVE_BONUS;
        let p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
        let previous = pos("3k4/8/8/8/8/8/8/R3K2N b - - 0 1");
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        let on = without_threats(&[(COUNTERMOVE_BONUS, 3000)]);
        let off = without_threats(&[]);
        let mut h = Heuristics::new();
        // At ply 1, after the opponent's Ke8, Ra8 failed high after Ng3.
        h.set_played(0, previous.turn(), Some(find(&previous, "d8e8")));
        h.reward(&on, &p, 1, 4, ra8, &[ng3]);
        h.clear_killers(1);
        assert_eq!(
            score_of(&h, &on, &p, 1, ra8),
            score_of(&h, &off, &p, 1, ra8) + 3000
        );
        assert_eq!(
            score_of(&h, &on, &p, 1, ng3),
            score_of(&h, &off, &p, 1, ng3)
        );
        // After another previous move, or a null move, Ra8 is no counter move.
        for before in [Some(find(&previous, "d8d7")), None] {
            h.set_played(0, previous.turn(), before);
            assert_eq!(
                score_of(&h, &on, &p, 1, ra8),
                score_of(&h, &off, &p, 1, ra8)
            );
        }
        // Off, no counter move is recorded.
        let mut unlearnt = Heuristics::new();
        unlearnt.set_played(0, previous.turn(), Some(find(&previous, "d8e8")));
        unlearnt.reward(&off, &p, 1, 4, ra8, &[ng3]);
        unlearnt.clear_killers(1);
        assert_eq!(
            score_of(&unlearnt, &on, &p, 1, ra8),
            score_of(&unlearnt, &off, &p, 1, ra8)
        );
    }

    #[test]
    fn pawn_history_follows_the_pawn_structure() {
        use crate::params::search::PAWN_HISTORY;
        let p = pos("4k3/1p6/8/8/8/8/1P6/R3K2N w - - 0 1");
        let other_pawns = pos("4k3/1p6/8/8/8/1P6/8/R3K2N w - - 0 1");
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        let on = without_threats(&[(PAWN_HISTORY, 1)]);
        let off = without_threats(&[(PAWN_HISTORY, 0)]);
        let mut h = Heuristics::new();
        h.reward(&on, &p, 1, 4, ra8, &[ng3]);
        h.clear_killers(1);
        let with = score_of(&h, &on, &p, 1, ra8);
        let without = score_of(&h, &off, &p, 1, ra8);
        assert!(with > without && without > 0, "{with} {without}");
        assert!(score_of(&h, &on, &p, 1, ng3) < score_of(&h, &off, &p, 1, ng3));
        // Under other pawns only the other histories are left (Ra8 plays the same there).
        let ra8_there = find(&other_pawns, "a1a8");
        assert_eq!(
            score_of(&h, &on, &other_pawns, 1, ra8_there),
            score_of(&h, &off, &other_pawns, 1, ra8_there)
        );
    }

    #[test]
    fn threat_history_keeps_an_escape_apart_from_the_same_quiet_move() {
        use crate::params::search::{CONT_HISTORY, HISTORY_THREATS, PAWN_HISTORY};
        // The knight on b3 attacks the rook on a1; the one on h6 attacks neither a1 nor a8.
        let attacked = pos("4k3/8/8/8/8/1n6/8/R3K3 w - - 0 1");
        let unattacked = pos("4k3/8/7n/8/8/8/8/R3K3 w - - 0 1");
        let knobs =
            |on| without_threats(&[(HISTORY_THREATS, on), (CONT_HISTORY, 0), (PAWN_HISTORY, 0)]);
        let ra8 = |p: &Chess| find(p, "a1a8");
        for (on, apart) in [(knobs(1), true), (knobs(0), false)] {
            let mut h = Heuristics::new();
            h.set_threats(&on, 1, &attacked);
            h.reward(&on, &attacked, 1, 4, ra8(&attacked), &[]);
            h.clear_killers(1);
            let escape = score_of(&h, &on, &attacked, 1, ra8(&attacked));
            h.set_threats(&on, 1, &unattacked);
            let same_move = score_of(&h, &on, &unattacked, 1, ra8(&unattacked));
            assert!(escape > 0, "{escape}");
            if apart {
                assert_eq!(same_move, 0);
            } else {
                assert_eq!(same_move, escape);
            }
        }
    }

    #[test]
    fn an_escape_leaves_an_attacked_square_for_a_safe_one() {
        use crate::params::search::HISTORY_THREATS;
        // The knight on b3 attacks the rook on a1 and the square c1, not a8.
        let p = pos("4k3/8/8/8/8/1n6/8/R3K3 w - - 0 1");
        let mut h = Heuristics::new();
        let off = without_threats(&[(HISTORY_THREATS, 0)]);
        let on = without_threats(&[(HISTORY_THREATS, 1)]);
        h.set_threats(&off, 1, &p);
        assert!(!h.escapes_threat(1, find(&p, "a1a8")));
        h.set_threats(&on, 1, &p);
        assert!(h.escapes_threat(1, find(&p, "a1a8")));
        // Into the knight's reach (c1), or a piece not attacked (the king): no escape.
        assert!(!h.escapes_threat(1, find(&p, "a1c1")));
        assert!(!h.escapes_threat(1, find(&p, "e1e2")));
    }

    #[test]
    fn attacked_by_counts_every_piece_and_pawn_captures_only() {
        let p = pos("4k3/8/8/6p1/8/1n6/8/R3K3 w - - 0 1");
        let black = attacked_by(p.board(), Color::Black);
        for sq in [
            Square::F4,
            Square::H4,
            Square::A1,
            Square::D4,
            Square::D7,
            Square::F8,
        ] {
            assert!(black.contains(sq), "{sq}");
        }
        // The pawn on g5 does not attack g4, the square it moves to.
        assert!(!black.contains(Square::G4) && !black.contains(Square::H1));
        let white = attacked_by(p.board(), Color::White);
        assert!(white.contains(Square::A8) && white.contains(Square::D1));
        assert!(!white.contains(Square::B4));
    }

    #[test]
    fn quiet_check_bonus_raises_checks_only() {
        use crate::params::search::QUIET_CHECK_BONUS;
        let p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
        let h = Heuristics::new();
        let off = without_threats(&[]);
        let on = without_threats(&[(QUIET_CHECK_BONUS, 3000)]);
        // Ra8+ and Ng3 (no check): only the check gains the bonus.
        let (ra8, ng3) = (find(&p, "a1a8"), find(&p, "h1g3"));
        assert_eq!(
            score_of(&h, &on, &p, 1, ra8),
            score_of(&h, &off, &p, 1, ra8) + 3000
        );
        assert_eq!(
            score_of(&h, &on, &p, 1, ng3),
            score_of(&h, &off, &p, 1, ng3)
        );
    }

    #[test]
    fn lazy_pick_gives_the_order_of_exact_scores() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "1r4R1/2p4P/8/k7/8/8/8/K7 b - - 3 2",
        ] {
            let p = pos(fen);
            let moves = p.legal_moves();
            let exact: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    if m.is_capture() || m.is_promotion() {
                        capture_score(&p, m)
                    } else {
                        m.to() as i32
                    }
                })
                .collect();
            // The order a selection sort on exact scores gives (first of the highest each time).
            let mut expected: Vec<(Move, i32)> = moves.iter().copied().zip(exact).collect();
            for i in 0..expected.len() {
                let top = expected[i..].iter().map(|e| e.1).max().unwrap();
                let best = i + expected[i..].iter().position(|e| e.1 == top).unwrap();
                expected.swap(i, best);
            }
            let mut lazy_moves = moves.clone();
            let mut scores: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    if m.is_capture() || m.is_promotion() {
                        provisional_capture_score(m)
                    } else {
                        m.to() as i32
                    }
                })
                .collect();
            scores.resize(moves.len() + LANES - 1, 0);
            pad_scores(&mut scores, moves.len());
            let picked: Vec<(Move, i32)> = (0..moves.len())
                .map(|i| pick(&p, &mut lazy_moves, &mut scores, i))
                .collect();
            assert_eq!(picked, expected, "{fen}");
        }
    }

    fn pos(fen: &str) -> Chess {
        crate::testing::position(fen)
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rk4r1/ppp2qBQ/3p1R2/8/2P5/2PP2P1/P2K4/3R4 b - - 0 1",
            "3r2k1/1p3p2/p1n3p1/5bQp/8/P1B5/1P3qPP/4R2K w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3B4/8/8/3R4/4K3 w - - 0 1",
            // Discovered checks by a pawn push, a king move and along the moving piece's line.
            "4k3/8/8/8/4P3/8/8/K3Q3 w - - 0 1",
            "7k/8/8/8/3K4/8/8/B7 w - - 0 1",
            "4k3/8/4N3/8/8/8/8/4RK2 w - - 0 1",
            "7k/8/8/8/3N4/8/8/Q6K w - - 0 1",
            // Promotions opening the file, en passant uncovering a rook, castling.
            "2kn4/2P5/8/8/8/8/8/2R1K3 w - - 0 1",
            "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
        ] {
            let p = pos(fen);
            let info = CheckInfo::new(&p);
            for m in p.legal_moves() {
                let mut child = p.clone();
                child.play_unchecked(m);
                assert_eq!(info.gives_check(&p, m), child.is_check(), "{fen} {m}");
            }
        }
    }
}
