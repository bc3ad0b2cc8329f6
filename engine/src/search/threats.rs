//! Threats in the search: a piece attacked by a lesser enemy piece (a pawn attacking a
//! knight, bishop, rook or queen, a minor a rook or queen, a rook a queen) is usually lost
//! unless it moves. Where the side to move has one, its static evaluation says little and a
//! null move mostly hands over the capture; a quiet move that makes one must be answered.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use crate::eval::pawn_attacks_of;

/// The pieces of `us` on `board` attacked by an enemy piece of lower value (kings and pawns
/// are never counted as threatened).
pub(crate) fn lesser_threats(board: &Board, us: Color) -> Bitboard {
    let ours = board.by_color(us);
    let majors = ours & (board.rooks() | board.queens());
    let pieces = majors | (ours & (board.knights() | board.bishops()));
    if pieces.is_empty() {
        return Bitboard::EMPTY;
    }
    let theirs = board.by_color(!us);
    let mut threatened = pieces & pawn_attacks_of(board.pawns() & theirs, !us);
    if majors.is_empty() {
        return threatened;
    }
    let occupied = board.occupied();
    threatened |= majors & minor_attacks(board, !us);
    let queens = ours & board.queens();
    if queens.any() {
        for sq in theirs & board.rooks() {
            threatened |= attacks::rook_attacks(sq, occupied) & queens;
        }
    }
    threatened
}

/// Every square `color`'s knights and bishops attack on `board`.
pub(crate) fn minor_attacks(board: &Board, color: Color) -> Bitboard {
    let theirs = board.by_color(color);
    let occupied = board.occupied();
    let mut attacked = Bitboard::EMPTY;
    for sq in theirs & board.knights() {
        attacked |= attacks::knight_attacks(sq);
    }
    for sq in theirs & board.bishops() {
        attacked |= attacks::bishop_attacks(sq, occupied);
    }
    attacked
}

/// Whether the quiet move of `role` from `from` to `to` by `us` attacks, from its target, an
/// enemy piece worth more than the mover (a pawn a knight, bishop, rook or queen; a minor a
/// rook or queen; a rook a queen): a threat the opponent must answer.
pub(crate) fn creates_threat(
    board: &Board,
    us: Color,
    role: Role,
    from: Square,
    to: Square,
) -> bool {
    let theirs = board.by_color(!us);
    let targets = match role {
        Role::Pawn => theirs & !board.pawns() & !board.kings(),
        Role::Knight | Role::Bishop => theirs & (board.rooks() | board.queens()),
        Role::Rook => theirs & board.queens(),
        Role::Queen | Role::King => return false,
    };
    if targets.is_empty() {
        return false;
    }
    let occupied = board.occupied().without(from).with(to);
    let reach = match role {
        Role::Pawn => attacks::pawn_attacks(us, to),
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        _ => attacks::rook_attacks(to, occupied),
    };
    (reach & targets).any()
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn threats(fen: &str) -> Bitboard {
        let pos = position(fen);
        lesser_threats(pos.board(), pos.turn())
    }

    /// Whether the quiet move `from`-`to` of the side to move in `fen` creates a threat.
    fn threatens(fen: &str, from: Square, to: Square) -> bool {
        let pos = position(fen);
        let role = pos.board().role_at(from).unwrap();
        creates_threat(pos.board(), pos.turn(), role, from, to)
    }

    #[test]
    fn a_move_that_attacks_a_greater_piece_creates_a_threat() {
        // c2-c3 attacks the knight on d4 and Ng1-f3 the rook on g5; Ra1-a5 attacks that
        // rook too, but an equal piece is no threat, and a king move never is one.
        let fen = "4k3/8/8/6r1/3n4/8/2P5/R3K1N1 w - - 0 1";
        assert!(threatens(fen, Square::C2, Square::C3));
        assert!(threatens(fen, Square::G1, Square::F3));
        assert!(!threatens(fen, Square::A1, Square::A5));
        assert!(!threatens(fen, Square::E1, Square::D1));
    }

    #[test]
    fn a_slider_attacks_from_its_target_square() {
        // Bb1-c2 attacks the rook on g6 along c2-g6; Bb1-a2 does not.
        let fen = "4k3/8/6r1/8/8/8/8/1B2K3 w - - 0 1";
        assert!(threatens(fen, Square::B1, Square::C2));
        assert!(!threatens(fen, Square::B1, Square::A2));
    }

    #[test]
    fn a_pawn_threatens_a_piece_but_not_a_pawn() {
        // Black pawn d5 attacks the knight on e4 and the pawn on c4.
        let t = threats("4k3/8/8/3p4/2P1N3/8/8/4K3 w - - 0 1");
        assert_eq!(t, Bitboard::from_square(Square::E4));
    }

    #[test]
    fn minors_threaten_majors_and_rooks_threaten_queens_only() {
        // Knight f6 attacks the rook on e4 (threat) and the knight on g4 (equal: none);
        // the rook on a1 attacks the queen on a5 (threat) and the rook on h1 (equal: none).
        let t = threats("1k6/8/5n2/Q7/4R1N1/8/4K3/r6R w - - 0 1");
        assert_eq!(
            t,
            Bitboard::from_square(Square::E4) | Bitboard::from_square(Square::A5)
        );
    }

    #[test]
    fn sliders_are_blocked_and_the_king_is_never_threatened() {
        // The bishop on b2 reaches the rook on f6 only through the pawn on d4, and the
        // black pawn on e3 attacks the white king on d2, which is not counted.
        let t = threats("8/8/5R2/8/3P4/4p3/1b1K4/7k w - - 0 1");
        assert!(t.is_empty(), "{t:?}");
        // Without the blocker the rook is threatened.
        let t = threats("8/8/5R2/8/8/4p3/1b1K4/7k w - - 0 1");
        assert_eq!(t, Bitboard::from_square(Square::F6));
    }
}
