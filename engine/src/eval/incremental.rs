//! Material and piece-square sums kept up to date move by move: the search adds the change a
//! move makes instead of summing every piece again at every node.

use shakmaty::{Board, Color, Move, Role, Square};

use super::material::relative;
use super::sign;
use super::sink::{Packed, Weights};
use crate::params::feature;

/// Middlegame and endgame sums (White's view) of the material and piece-square features, packed
/// as the evaluation adds them (one addition for both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSquares(pub(super) Packed);

/// `[color][role - 1][square]`: the `[mg, eg]` weight one piece there adds (signed for Black),
/// material and piece-square entry together, as [`super::material`] reports them.
#[derive(Clone, Debug)]
pub(super) struct PieceSquareTable([[[Packed; 64]; 6]; 2]);

impl PieceSquareTable {
    pub(super) fn new(weights: &Weights) -> Box<Self> {
        let mut table = Box::new(PieceSquareTable([[[Packed::default(); 64]; 6]; 2]));
        for color in Color::ALL {
            let s = sign(color);
            for role in Role::ALL {
                let r = role as usize - 1;
                for square in Square::ALL {
                    let pst = weights[feature::PST + 64 * r + usize::from(relative(square, color))];
                    let material = if role == Role::King {
                        [0, 0]
                    } else {
                        weights[feature::MATERIAL + r]
                    };
                    table.0[color as usize][r][usize::from(square)] =
                        Packed::new(s * (pst[0] + material[0]), s * (pst[1] + material[1]));
                }
            }
        }
        table
    }

    #[inline(always)]
    fn get(&self, color: Color, role: Role, square: Square) -> Packed {
        self.0[color as usize][role as usize - 1][usize::from(square)]
    }

    /// The sums of every piece on `board`.
    pub(super) fn of(&self, board: &Board) -> PieceSquares {
        let mut sums = Packed::default();
        for (square, piece) in board {
            sums = sums.plus(self.get(piece.color, piece.role, square));
        }
        PieceSquares(sums)
    }

    /// The sums after `us` plays the legal move `m`.
    #[inline]
    pub(super) fn after(&self, us: Color, sums: PieceSquares, m: Move) -> PieceSquares {
        // Normal moves, nearly all, by one test, and the other kinds out of line: the four-way
        // match compiled to an indirect jump, and kept this function from being inlined into
        // the move loops.
        let delta = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let taken =
                    capture.map_or(Packed::default(), |captured| self.get(!us, captured, to));
                let left = self.get(us, role, from).plus(taken);
                self.get(us, promotion.unwrap_or(role), to)
                    .plus(left.negated())
            }
            _ => self.special_delta(us, m),
        };
        PieceSquares(sums.0.plus(delta))
    }

    /// The change in the sums made by `us` playing `m`, en passant, castling or a drop.
    #[cold]
    fn special_delta(&self, us: Color, m: Move) -> Packed {
        let mut delta = Packed::default();
        let mut add = |w: Packed| delta = delta.plus(w);
        let mut sub = |w: Packed| add(w.negated());
        match m {
            Move::Normal { .. } => unreachable!("normal moves are summed by `after`"),
            Move::EnPassant { from, to } => {
                sub(self.get(us, Role::Pawn, from));
                sub(self.get(!us, Role::Pawn, Square::from_coords(to.file(), from.rank())));
                add(self.get(us, Role::Pawn, to));
            }
            Move::Castle { king, rook } => {
                let side = if rook > king {
                    shakmaty::CastlingSide::KingSide
                } else {
                    shakmaty::CastlingSide::QueenSide
                };
                sub(self.get(us, Role::King, king));
                sub(self.get(us, Role::Rook, rook));
                add(self.get(us, Role::King, side.king_to(us)));
                add(self.get(us, Role::Rook, side.rook_to(us)));
            }
            Move::Put { role, to } => add(self.get(us, role, to)),
        }
        delta
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use crate::eval::{Evaluator, PawnCache};
    use crate::params::Params;

    /// Walks every line to `depth` plies, checking the updated sums and the evaluation made
    /// with them (and with the pawn cache) against a recomputation from scratch.
    fn walk(
        evaluator: &Evaluator,
        cache: &mut PawnCache,
        pos: &Chess,
        sums: super::PieceSquares,
        depth: u32,
    ) {
        assert_eq!(sums, evaluator.piece_squares(pos), "{pos:?}");
        let full = evaluator.evaluate(pos);
        assert_eq!(evaluator.evaluate_with(pos, sums), full, "{pos:?}");
        assert_eq!(evaluator.evaluate_cached(pos, sums, cache), full, "{pos:?}");
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let after = evaluator.piece_squares_after(pos, sums, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            walk(evaluator, cache, &child, after, depth - 1);
        }
    }

    #[test]
    fn updated_sums_equal_recomputed_ones() {
        let evaluator = Evaluator::new(&Params::default());
        // One cache across all the positions: hits from earlier walks must be right too.
        let mut cache = PawnCache::default();
        for fen in [
            // Castling both ways for both sides, captures, promotions and en passant.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            // Pawnless: K+R vs K and a dead draw.
            "8/8/3k4/8/8/4K3/8/R7 w - - 0 1",
            "8/8/3k4/8/8/4K3/8/N7 w - - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            walk(
                &evaluator,
                &mut cache,
                &pos,
                evaluator.piece_squares(&pos),
                3,
            );
        }
    }
}
