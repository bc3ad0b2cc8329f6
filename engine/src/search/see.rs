//! Static exchange evaluation: the material balance of the best sequence of captures on one
//! square, each side free to stop capturing when it would lose.

use std::ops::ControlFlow;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square, attacks};

/// Exchange values of the pieces (fixed, independent of the tuned material weights, so that
/// move ordering does not change while tuning the evaluation).
/// A table lookup, not a `match`: the match compiled to a jump table, an indirect branch
/// whose target (the captured role) the CPU mispredicts often in move scoring and SEE.
#[inline]
pub(crate) const fn value(role: Role) -> i32 {
    VALUES[role as usize]
}

/// `VALUES[role as usize]` (roles count from 1): pawn, knight, bishop, rook, queen, king.
const VALUES: [i32; 7] = [0, 100, 320, 330, 500, 900, 20_000];

/// Captures an exchange may have (enough for every piece on the board).
const MAX_EXCHANGE: usize = 40;

/// What the side to move wins (negative: loses) on the target square by playing `m` and then
/// exchanging optimally there. Castling and quiet non-promotions that are not attacked score 0.
/// The search asks only [`see_at_least`]; this value is what the tests check that against.
#[cfg(test)]
pub(crate) fn see(pos: &Chess, m: Move) -> i32 {
    let mut gains = [0i32; MAX_EXCHANGE];
    let mut depth = 0;
    exchange(pos, m, |d, gain| {
        gains[d] = gain;
        depth = d;
        ControlFlow::Continue(())
    });
    // Each side chooses to stop or continue, from the last capture back to the first.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether `see(pos, m) >= threshold`, stopping the exchange as soon as that is decided.
///
/// With `b(d)` the balance for the side to move after the d-th capture (`b(0)` after `m`),
/// [`see`] is `min(b(0), max(b(1), min(b(2), …)))`: we may stop after our own captures, the
/// opponent after theirs. So, in order: a balance below `threshold` after one of our captures
/// answers no (the opponent stops there; we did not stop earlier, as the earlier balances
/// after their captures were below it), one at least `threshold` after one of theirs
/// answers yes, and the last balance answers otherwise.
pub(crate) fn see_at_least(pos: &Chess, m: Move, threshold: i32) -> bool {
    // Decided by the first two balances alone, without the attackers: `see` lies between
    // `b(1)` (the opponent retakes; no promotion off the back ranks) and `b(0)`.
    if let Move::Normal {
        role,
        capture,
        to,
        promotion,
        ..
    } = m
        && !matches!(to.rank(), Rank::First | Rank::Eighth)
    {
        // Off the back ranks `m` promotes nothing either.
        debug_assert!(promotion.is_none());
        let first_gain = capture.map_or(0, value);
        if first_gain < threshold {
            return false;
        }
        if first_gain - value(role) >= threshold {
            return true;
        }
        // An enemy pawn or knight attacking the square retakes first (the least valuable
        // pieces), and winning it back is `b(2)`: below `threshold`, the answer is no, whether
        // we can retake or not. A lookup or two instead of every attacker of the square.
        let (board, them) = (pos.board(), pos.board().by_color(!pos.turn()));
        let retaker = if (attacks::pawn_attacks(pos.turn(), to) & board.pawns() & them).any() {
            Some(Role::Pawn)
        } else if (attacks::knight_attacks(to) & board.knights() & them).any() {
            Some(Role::Knight)
        } else {
            None
        };
        if let Some(retaker) = retaker
            && first_gain - value(role) + value(retaker) < threshold
        {
            return false;
        }
    }
    let mut answer = false;
    exchange(pos, m, |d, gain| {
        let ours = d % 2 == 0;
        let balance = if ours { gain } else { -gain };
        answer = balance >= threshold;
        if answer == ours {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    answer
}

/// Plays out the exchange `m` starts on its target square, each side recapturing with its
/// least valuable piece, and passes `visit` each capture's depth (0 for `m`) and gain: the
/// value of the piece it takes (and of a promotion) less the previous capture's gain. Stops
/// when `visit` breaks or no capture is left.
#[inline(always)]
fn exchange(pos: &Chess, m: Move, mut visit: impl FnMut(usize, i32) -> ControlFlow<()>) {
    // One match on the kind of move (`Move`'s accessors each dispatch on it again).
    let (from, to, role, capture, promotion, en_passant) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => (from, to, role, capture, promotion, false),
        Move::EnPassant { from, to } => (from, to, Role::Pawn, Some(Role::Pawn), None, true),
        Move::Castle { .. } | Move::Put { .. } => {
            let _ = visit(0, 0);
            return;
        }
    };
    let board = pos.board();
    let mut occupied = board.occupied();
    let promotion_gain = promotion.map_or(0, |r| value(r) - value(Role::Pawn));
    let first_gain = capture.map_or(0, value) + promotion_gain;
    if visit(0, first_gain).is_break() {
        return;
    }
    occupied ^= Bitboard::from_square(from);
    if en_passant {
        // The captured pawn stands beside the target square, behind it from the capturer.
        let captured = Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(captured);
    }
    // Every piece of either side attacking the square. Knights, kings and pawns are found
    // once; the sliders again after each capture, since a capture can only open lines (so
    // the set, less the pieces gone, equals a fresh `attacks_to`).
    let pawns = board.pawns();
    let steppers = (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | (attacks::pawn_attacks(Color::Black, to) & pawns & board.white())
        | (attacks::pawn_attacks(Color::White, to) & pawns & board.black());
    let sliders = |occupied: Bitboard| {
        (attacks::rook_attacks(to, occupied) & board.rooks_and_queens())
            | (attacks::bishop_attacks(to, occupied) & board.bishops_and_queens())
    };
    let mut attackers = (steppers | sliders(occupied)) & occupied;
    let mut side = !pos.turn();
    // The piece now standing on the target square, which the next capture wins.
    let mut on_square = promotion.unwrap_or(role);
    let mut last_gain = first_gain;
    let mut depth = 0;
    loop {
        let ours = attackers & board.by_color(side);
        // Most exchanges end here, for want of an attacker: no need to try every role.
        if ours.is_empty() {
            break;
        }
        let Some((sq, role)) = least_valuable(board, ours) else {
            break;
        };
        if role == Role::King && still_defended(board, to, !side, occupied, sq) {
            break;
        }
        depth += 1;
        let mut gain = value(on_square) - last_gain;
        let mut next_piece = role;
        // A pawn capturing onto the last rank promotes (to a queen).
        if role == Role::Pawn && (to.rank() == Rank::First || to.rank() == Rank::Eighth) {
            gain += value(Role::Queen) - value(Role::Pawn);
            next_piece = Role::Queen;
        }
        if visit(depth, gain).is_break() {
            return;
        }
        last_gain = gain;
        on_square = next_piece;
        occupied ^= Bitboard::from_square(sq);
        attackers = (attackers | sliders(occupied)) & occupied;
        side = !side;
        if depth + 1 >= MAX_EXCHANGE {
            break;
        }
    }
}

/// Whether `defender` still guards `to` once the piece on `capturer` has left it for `to`:
/// a king may only capture onto a square no longer defended.
#[inline]
fn still_defended(
    board: &Board,
    to: Square,
    defender: Color,
    occupied: Bitboard,
    capturer: Square,
) -> bool {
    let left = occupied ^ Bitboard::from_square(capturer);
    (board.attacks_to(to, defender, left) & left).any()
}

fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(Square, Role)> {
    for role in Role::ALL {
        if let Some(sq) = (attackers & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    /// The exchange recomputing every attacker at every step (the first version): the
    /// incremental one must agree with it on every move.
    fn see_reference(pos: &Chess, m: Move) -> i32 {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            Move::Castle { .. } | Move::Put { .. } => return 0,
        };
        let board = pos.board();
        let mut occupied = board.occupied();
        let mut gains = [0i32; 40];
        let promotion_gain = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
        gains[0] = m.capture().map_or(0, value) + promotion_gain;
        // The piece now standing on the target square, which the next capture wins.
        let mut on_square = m.promotion().unwrap_or(m.role());
        occupied ^= Bitboard::from_square(from);
        if m.is_en_passant() {
            // The captured pawn stands beside the target square, behind it from the capturer.
            let captured = Square::from_coords(to.file(), from.rank());
            occupied ^= Bitboard::from_square(captured);
        }
        let mut side = !pos.turn();
        let mut depth = 0;
        loop {
            let attackers = board.attacks_to(to, side, occupied) & occupied;
            let Some((sq, role)) = least_valuable(board, attackers) else {
                break;
            };
            if role == Role::King && still_defended(board, to, !side, occupied, sq) {
                break;
            }
            depth += 1;
            let mut gain = value(on_square) - gains[depth - 1];
            let mut next_piece = role;
            // A pawn capturing onto the last rank promotes (to a queen).
            if role == Role::Pawn && (to.rank() == Rank::First || to.rank() == Rank::Eighth) {
                gain += value(Role::Queen) - value(Role::Pawn);
                next_piece = Role::Queen;
            }
            gains[depth] = gain;
            on_square = next_piece;
            occupied ^= Bitboard::from_square(sq);
            side = !side;
            if depth + 1 >= gains.len() {
                break;
            }
        }
        // Each side chooses to stop or continue, from the last capture back to the first.
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    #[test]
    fn agrees_with_recomputing_the_attackers() {
        fn walk(pos: &Chess, depth: u32, checked: &mut usize) {
            for m in pos.legal_moves() {
                let value = see(pos, m);
                assert_eq!(value, see_reference(pos, m), "{pos:?} {m}");
                for threshold in [-1000, -500, -330, -101, -100, -1, 0, 1, 100, 220, 500, 900] {
                    assert_eq!(
                        see_at_least(pos, m, threshold),
                        value >= threshold,
                        "{pos:?} {m} {threshold}"
                    );
                }
                *checked += 1;
                if depth > 0 {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    walk(&child, depth - 1, checked);
                }
            }
        }
        let mut checked = 0;
        for fen in crate::bench::POSITIONS {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            walk(&pos, 1, &mut checked);
        }
        assert!(checked > 30_000, "{checked}");
    }

    #[test]
    fn exchange_values() {
        // Undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight for a pawn: Nxe5 Nxe5, and White stops.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // Pawn takes a knight defended by a pawn.
        assert_eq!(
            see_of("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
            320 - 100
        );
        // X-ray: the second rook behind the first decides.
        assert_eq!(see_of("3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 500);
        // Without the back rook White loses the exchange back.
        assert_eq!(see_of("3rk3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5"), 0);
        // A quiet queen move onto a square a pawn guards.
        assert_eq!(see_of("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -900);
        // En passant.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Promotion, free and then taken by the king.
        assert_eq!(see_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        assert_eq!(see_of("8/Pk6/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), -100);
        // The king may not recapture on a defended square.
        assert_eq!(see_of("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // ...and does when it is not.
        assert_eq!(
            see_of("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            100 - 500
        );
    }
}
