//! The Zobrist keys the search finds positions by (repetitions, transposition table): a
//! position's from scratch, and a child's or the null move's updated from its parent's; and
//! the null move's position itself.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Position, Role,
    Square,
};

/// The key the search uses for repetition detection and the transposition table.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key after `m`, updated incrementally when shakmaty can or the move is a plain king
/// move (else `None`: recompute).
#[inline(always)]
fn child_key(pos: &Chess, key: u64, m: Move) -> Option<u64> {
    if let Some(z) = pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal) {
        return Some(z.0);
    }
    // shakmaty leaves out every king move. One that changes no castling right (the mover has
    // none left and captures no rook holding one) and follows no double push changes only
    // the turn and the squares, as any other move.
    match m {
        Move::Normal {
            role: Role::King,
            from,
            capture,
            to,
            promotion: None,
        } if pos.maybe_ep_square().is_none()
            && !pos.castles().has_color(pos.turn())
            && !pos.castles().castling_rights().contains(to) =>
        {
            let us = pos.turn();
            let mut z = Zobrist64(key);
            z ^= Zobrist64::zobrist_for_white_turn();
            z ^= Zobrist64::zobrist_for_piece(from, Role::King.of(us));
            z ^= Zobrist64::zobrist_for_piece(to, Role::King.of(us));
            if let Some(captured) = capture {
                z ^= Zobrist64::zobrist_for_piece(to, captured.of(!us));
            }
            Some(z.0)
        }
        _ => None,
    }
}

/// The key of `child`, reached from `pos` (whose key is `key`) by `m`, where [`child_key`]
/// had none: from the pieces `m` moves and takes, the castling rights it ends and the en
/// passant files before and after (cheaper than hashing every piece of `child` again).
fn played_child_key(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    let us = pos.turn();
    let piece = |square: Square, role: Role, color: Color| {
        Zobrist64::zobrist_for_piece(square, role.of(color))
    };
    let mut z = Zobrist64(key);
    z ^= Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            z ^= piece(from, role, us);
            z ^= piece(to, promotion.unwrap_or(role), us);
            if let Some(captured) = capture {
                z ^= piece(to, captured, !us);
            }
        }
        Move::EnPassant { from, to } => {
            z ^= piece(from, Role::Pawn, us);
            z ^= piece(to, Role::Pawn, us);
            z ^= piece(Square::from_coords(to.file(), from.rank()), Role::Pawn, !us);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            z ^= piece(king, Role::King, us);
            z ^= piece(side.king_to(us), Role::King, us);
            z ^= piece(rook, Role::Rook, us);
            z ^= piece(side.rook_to(us), Role::Rook, us);
        }
        Move::Put { .. } => return position_key(child),
    }
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if pos.castles().has(color, side) != child.castles().has(color, side) {
                z ^= Zobrist64::zobrist_for_castling_right(color, side);
            }
        }
    }
    for square in [pos, child]
        .map(|p| p.ep_square(EnPassantMode::Legal))
        .into_iter()
        .flatten()
    {
        z ^= Zobrist64::zobrist_for_en_passant_file(square.file());
    }
    debug_assert_eq!(z.0, position_key(child), "{pos:?} {m}");
    z.0
}

/// Plays `m` in `pos` (whose key is `key`) and returns the child's key; `child` must be a
/// copy of `pos`. `prefetch` sees the key first when it comes cheaply, so the caller's tables
/// can load it while the move is played. (The caller owns `child`: returning it from here
/// costs a copy per node.)
#[inline(always)]
pub(crate) fn play_keyed(
    pos: &Chess,
    key: u64,
    m: Move,
    child: &mut Chess,
    prefetch: impl FnOnce(u64),
) -> u64 {
    let incremental = child_key(pos, key, m);
    if let Some(k) = incremental {
        prefetch(k);
    }
    child.play_unchecked(m);
    incremental.unwrap_or_else(|| played_child_key(pos, key, m, child))
}

/// The key of [`null_move`]'s position, from `key`, that of `pos`: the other side to move and
/// no en passant square (a full recomputation walks every piece).
pub(crate) fn null_move_key(pos: &Chess, key: u64) -> u64 {
    let mut z = Zobrist64(key);
    z ^= Zobrist64::zobrist_for_white_turn();
    if let Some(square) = pos.ep_square(EnPassantMode::Legal) {
        z ^= Zobrist64::zobrist_for_en_passant_file(square.file());
    }
    z.0
}

/// The position with the other side to move (not in check), halfmove clock reset so that
/// no repetition is found across the null move.
pub(crate) fn null_move(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.swap_turn();
    setup.halfmoves = 0;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}
