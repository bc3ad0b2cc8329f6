//! Move ordering: the transposition-table move first, then winning and equal captures by
//! MVV-LVA, queen promotions, the two killer moves of the ply, quiet moves by history, and
//! last the captures that lose material by SEE.

use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use super::score::MAX_PLY;
use super::see::{see, value};
use super::tt::PackedMove;

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
pub(crate) const KILLER: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within ±this, below the killers.
const HISTORY_MAX: i32 = 1 << 14;

/// Killer moves per ply and the butterfly history (side, from, to) of quiet moves that
/// caused cut-offs.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Heuristics {
    pub(crate) fn new() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        *self.history = [[[0; 64]; 64]; 2];
    }

    /// Between searches: forget killers, keep half of the history.
    pub(crate) fn age(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        for v in self.history.iter_mut().flatten().flatten() {
            *v /= 2;
        }
    }

    pub(crate) fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    /// Records a quiet move that failed high at `ply`, and penalises the quiet moves among
    /// `tried` (the moves searched before it).
    pub(crate) fn reward(
        &mut self,
        turn: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
    ) {
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        let bonus = (depth * depth).min(400);
        self.update(turn, best, bonus);
        for &m in tried {
            if m != best && !m.is_capture() && !m.is_promotion() {
                self.update(turn, m, -bonus);
            }
        }
    }

    fn update(&mut self, turn: Color, m: Move, bonus: i32) {
        let (from, to) = squares(m);
        let entry = &mut self.history[turn as usize][from][to];
        // Gravity: the closer to the bound, the smaller the step, so values stay bounded.
        *entry += 32 * bonus - *entry * bonus.abs() * 32 / HISTORY_MAX;
        *entry = (*entry).clamp(-HISTORY_MAX, HISTORY_MAX);
    }

    fn history(&self, turn: Color, m: Move) -> i32 {
        let (from, to) = squares(m);
        self.history[turn as usize][from][to]
    }

    /// Scores every move of `moves` into `scores` (same indices).
    pub(crate) fn score_moves(
        &self,
        pos: &Chess,
        moves: &MoveList,
        scores: &mut [i32],
        tt_move: PackedMove,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        for (m, score) in moves.iter().zip(scores.iter_mut()) {
            *score = if tt_move.matches(*m) {
                TT_MOVE
            } else if m.is_capture() {
                capture_score(pos, *m)
            } else if m.promotion() == Some(Role::Queen) {
                PROMOTION
            } else if m.is_promotion() {
                BAD_CAPTURE
            } else if killers[0] == Some(*m) {
                KILLER + 1
            } else if killers[1] == Some(*m) {
                KILLER
            } else {
                self.history(pos.turn(), *m)
            };
        }
    }
}

/// Captures (and promotions) for the quiescence search, by SEE class then MVV-LVA.
pub(crate) fn capture_score(pos: &Chess, m: Move) -> i32 {
    let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
    let mvv_lva = victim * 8 - m.role() as i32;
    if see(pos, m) >= 0 {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// Whether `score` (from [`Heuristics::score_moves`]) marks a capture losing material.
pub(crate) fn is_bad_capture_score(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

/// Moves the highest-scored remaining move to position `index` and returns it (a selection
/// sort done lazily, since a cut-off often comes after the first few moves).
#[inline]
pub(crate) fn pick(moves: &mut MoveList, scores: &mut [i32], index: usize) -> (Move, i32) {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    (moves[index], scores[index])
}

/// Whether playing the legal move `m` gives check, without playing it for ordinary moves.
pub(crate) fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ shakmaty::Bitboard::from_square(from))
        | shakmaty::Bitboard::from_square(to);
    let piece = shakmaty::Piece {
        color: us,
        role: promotion.unwrap_or(role),
    };
    if shakmaty::attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    // Discovered check: one of our sliders now sees the king through the vacated square.
    let sliders = board.by_color(us)
        & !shakmaty::Bitboard::from_square(from)
        & !shakmaty::Bitboard::from_square(to);
    let rooks = (board.rooks() | board.queens()) & sliders;
    let bishops = (board.bishops() | board.queens()) & sliders;
    (shakmaty::attacks::rook_attacks(king, occupied) & rooks).any()
        || (shakmaty::attacks::bishop_attacks(king, occupied) & bishops).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rk4r1/ppp2qBQ/3p1R2/8/2P5/2PP2P1/P2K4/3R4 b - - 0 1",
            "3r2k1/1p3p2/p1n3p1/5bQp/8/P1B5/1P3qPP/4R2K w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3B4/8/8/3R4/4K3 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
        ] {
            let p = pos(fen);
            for m in p.legal_moves() {
                let mut child = p.clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(&p, m), child.is_check(), "{fen} {m}");
            }
        }
    }
}
