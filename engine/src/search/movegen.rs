//! Move generation the search needs beyond shakmaty's: only the legal captures and
//! promotions (shakmaty generates every legal move, and most of a quiescence node's moves are
//! quiet), those and the quiet checks (for the plies that look for checks), whether any
//! legal move exists at all, asked only when there is none of those, and every legal move
//! into the caller's list (shakmaty returns its list by value: a 2 KiB copy per node).
//!
//! The moves come out in the order `legal_moves` gives them (move ordering breaks ties by
//! generation order, so the search visits the same tree), which the tests check.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, MoveList, Position, Rank, Role, Square,
    attacks,
};

use super::ordering::CheckInfo;
use super::tt::PackedMove;

/// Our pieces standing alone between the king of the side to move and an enemy slider: they
/// may only move along that line.
fn pinned(board: &Board, us: Color, king: Square) -> Bitboard {
    let snipers = board.by_color(!us)
        & ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()));
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    pinned & board.by_color(us)
}

/// Squares one pawn step ahead of `pawns` for `us`.
#[inline]
fn forward(pawns: Bitboard, us: Color) -> Bitboard {
    match us {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    }
}

fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: Some(promotion),
        });
    }
}

/// The legal captures and promotions of `pos`, which must not be in check, appended to
/// `moves` in the order of `pos.legal_moves()` (en passant, pawns, knights, bishops, rooks,
/// queens, king).
pub(crate) fn tactical_moves(pos: &Chess, moves: &mut MoveList) {
    generate(pos, moves, Quiets::None);
}

/// [`tactical_moves`] and the quiet moves that give check (`checks` describes them for
/// `pos`), in the order of `pos.legal_moves()`: that list filtered by "capture, promotion or
/// [`CheckInfo::gives_check`]", without generating the quiet moves that do not check.
#[inline]
pub(crate) fn tactical_moves_and_checks(pos: &Chess, checks: &CheckInfo, moves: &mut MoveList) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_bit_instructions() {
        // SAFETY: the CPU has these instructions, checked just above.
        return unsafe { tactical_moves_and_checks_bit_instructions(pos, checks, moves) };
    }
    tactical_moves_and_checks_portable(pos, checks, moves);
}

#[inline(never)]
fn tactical_moves_and_checks_portable(pos: &Chess, checks: &CheckInfo, moves: &mut MoveList) {
    generate_with_checks(pos, checks, moves);
}

/// [`tactical_moves_and_checks`] compiled with the instructions of
/// [`crate::cpu::has_bit_instructions`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn tactical_moves_and_checks_bit_instructions(
    pos: &Chess,
    checks: &CheckInfo,
    moves: &mut MoveList,
) {
    generate_with_checks(pos, checks, moves);
}

/// The body of [`tactical_moves_and_checks`], inlined in both of its copies.
#[inline(always)]
fn generate_with_checks(pos: &Chess, checks: &CheckInfo, moves: &mut MoveList) {
    let quiets = match checks.king() {
        Some(king) => Quiets::Checks {
            info: checks,
            king,
            direct: std::array::from_fn(|r| checks.check_squares(Role::ALL[r])),
        },
        None => Quiets::None,
    };
    generate(pos, moves, quiets);
}

/// Every legal move of `pos`, which must not be in check, appended to `moves` in the order
/// of `pos.legal_moves()` (which returns its 2 KiB list by value, a copy per node).
#[inline]
pub(crate) fn legal_moves_not_in_check(pos: &Chess, moves: &mut MoveList) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_bit_instructions() {
        // SAFETY: the CPU has these instructions, checked just above.
        return unsafe { legal_moves_bit_instructions(pos, moves) };
    }
    legal_moves_portable(pos, moves);
}

/// [`legal_moves_not_in_check`] compiled with the instructions of
/// [`crate::cpu::has_bit_instructions`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn legal_moves_bit_instructions(pos: &Chess, moves: &mut MoveList) {
    generate(pos, moves, Quiets::All);
}

#[inline(never)]
fn legal_moves_portable(pos: &Chess, moves: &mut MoveList) {
    generate(pos, moves, Quiets::All);
}

/// Every legal move of `pos`, which must be in check, appended to `moves` in the order of
/// `pos.legal_moves()` (en passant, king moves, then, against a single checker, the pawn and
/// piece moves that capture it or block its line). shakmaty's generator returns its 2 KiB list
/// by value and, being a second generator, took its own room in the i-cache.
#[inline]
pub(crate) fn evasions(pos: &Chess, moves: &mut MoveList) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_bit_instructions() {
        // SAFETY: the CPU has these instructions, checked just above.
        return unsafe { evasions_bit_instructions(pos, moves) };
    }
    evasions_portable(pos, moves);
}

#[inline(never)]
fn evasions_portable(pos: &Chess, moves: &mut MoveList) {
    evasions_by_side(pos, moves);
}

/// [`evasions`] compiled with the instructions of [`crate::cpu::has_bit_instructions`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn evasions_bit_instructions(pos: &Chess, moves: &mut MoveList) {
    evasions_by_side(pos, moves);
}

/// The body of [`evasions`], inlined in both of its copies.
#[inline(always)]
fn evasions_by_side(pos: &Chess, moves: &mut MoveList) {
    // One copy per side to move, as in `generate`.
    match pos.turn() {
        Color::White => evasions_for(pos, Color::White, moves),
        Color::Black => evasions_for(pos, Color::Black, moves),
    }
}

/// [`evasions`] for `us`, the side to move.
#[inline(always)]
fn evasions_for(pos: &Chess, us: Color, moves: &mut MoveList) {
    let board = pos.board();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let empty = !occupied;
    let checkers = board.attacks_to(king, !us, occupied);
    let pinned = pinned(board, us, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);

    if let Some(to) = pos.maybe_ep_square() {
        for from in board.pawns() & ours & attacks::pawn_attacks(!us, to) {
            let captured = Square::from_coords(to.file(), from.rank());
            let after = occupied.without(from).without(captured).with(to);
            if (board.attacks_to(king, !us, after) & !Bitboard::from_square(captured)).is_empty() {
                moves.push(Move::EnPassant { from, to });
            }
        }
    }

    // The king may not step along a checking slider's line, away from it either (the
    // square behind the king is attacked once the king has left).
    let mut behind = Bitboard::EMPTY;
    for checker in checkers & board.sliders() {
        behind |= attacks::ray(checker, king) ^ checker;
    }
    for to in attacks::king_attacks(king) & !ours & !behind {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    let Some(checker) = checkers.single_square() else {
        return;
    };
    // Capture the checker or step between it and the king.
    let target = attacks::between(king, checker).with(checker);
    let pawns = board.pawns() & ours;
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    push_pawn_captures(moves, board, us, pawns, theirs & target, back_ranks, legal);
    let step_back = match us {
        Color::White => -8,
        Color::Black => 8,
    };
    let single = forward(pawns, us) & empty;
    for to in single & target & !back_ranks {
        let from = Square::new((i32::from(to) + step_back) as u32);
        if legal(from, to) {
            push_quiet(moves, Role::Pawn, from, to);
        }
    }
    for to in single & target & back_ranks {
        let from = Square::new((i32::from(to) + step_back) as u32);
        if legal(from, to) {
            push_promotions(moves, from, to, None);
        }
    }
    let fourth = match us {
        Color::White => Rank::Fourth,
        Color::Black => Rank::Fifth,
    };
    for to in forward(single, us) & empty & Bitboard::from_rank(fourth) & target {
        let from = Square::new((i32::from(to) + 2 * step_back) as u32);
        if legal(from, to) {
            push_quiet(moves, Role::Pawn, from, to);
        }
    }

    // Role by role, as in `generate`.
    let targets = |_: Square| target;
    push_piece_moves(moves, board, Role::Knight, ours, occupied, targets, legal);
    push_piece_moves(moves, board, Role::Bishop, ours, occupied, targets, legal);
    push_piece_moves(moves, board, Role::Rook, ours, occupied, targets, legal);
    push_piece_moves(moves, board, Role::Queen, ours, occupied, targets, legal);
}

/// Which quiet moves (besides captures and promotions) to generate.
enum Quiets<'a> {
    None,
    /// Those giving check: onto a square from which their role attacks the enemy `king`
    /// (`direct`, by role), or a discoverer's off the line to that king.
    Checks {
        info: &'a CheckInfo,
        king: Square,
        direct: [Bitboard; 6],
    },
    All,
}

impl Quiets<'_> {
    /// The squares among `empty` that a `role` on `from` may move to quietly.
    #[inline(always)]
    fn targets(&self, role: Role, from: Square, empty: Bitboard) -> Bitboard {
        match self {
            Quiets::None => Bitboard::EMPTY,
            Quiets::Checks { info, king, direct } => {
                let mut targets = direct[role as usize - 1];
                if info.discoverers().contains(from) {
                    targets |= !attacks::ray(from, *king);
                }
                targets & empty
            }
            Quiets::All => empty,
        }
    }
}

#[inline(always)]
fn generate(pos: &Chess, moves: &mut MoveList, quiets: Quiets<'_>) {
    // One copy per side to move, so that the pawn directions and ranks are constants.
    match pos.turn() {
        Color::White => generate_for(pos, Color::White, moves, quiets),
        Color::Black => generate_for(pos, Color::Black, moves, quiets),
    }
}

/// [`generate`] for `us`, the side to move.
#[inline(always)]
fn generate_for(pos: &Chess, us: Color, moves: &mut MoveList, quiets: Quiets<'_>) {
    let board = pos.board();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let empty = !occupied;
    let pinned = pinned(board, us, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let any_quiets = !matches!(quiets, Quiets::None);

    if let Some(to) = pos.maybe_ep_square() {
        for from in board.pawns() & ours & attacks::pawn_attacks(!us, to) {
            let captured = Square::from_coords(to.file(), from.rank());
            let after = occupied.without(from).without(captured).with(to);
            if (board.attacks_to(king, !us, after) & !Bitboard::from_square(captured)).is_empty() {
                moves.push(Move::EnPassant { from, to });
            }
        }
    }

    let pawns = board.pawns() & ours;
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    // Captures towards the a-file, then towards the h-file (as shakmaty's generator).
    push_pawn_captures(moves, board, us, pawns, theirs, back_ranks, legal);
    let step_back = match us {
        Color::White => -8,
        Color::Black => 8,
    };
    let single = forward(pawns, us) & empty;
    if any_quiets {
        for to in single & !back_ranks {
            let from = Square::new((i32::from(to) + step_back) as u32);
            if quiets.targets(Role::Pawn, from, empty).contains(to) && legal(from, to) {
                push_quiet(moves, Role::Pawn, from, to);
            }
        }
    }
    for to in single & back_ranks {
        let from = Square::new((i32::from(to) + step_back) as u32);
        if legal(from, to) {
            push_promotions(moves, from, to, None);
        }
    }
    if any_quiets {
        let fourth = match us {
            Color::White => Rank::Fourth,
            Color::Black => Rank::Fifth,
        };
        for to in forward(single, us) & empty & Bitboard::from_rank(fourth) {
            let from = Square::new((i32::from(to) + 2 * step_back) as u32);
            if quiets.targets(Role::Pawn, from, empty).contains(to) && legal(from, to) {
                push_quiet(moves, Role::Pawn, from, to);
            }
        }
    }

    // Role by role, each call inlined with its role known (a loop over the roles dispatched
    // on the role for every piece).
    let quiets_ref = &quiets;
    let targets = |role: Role| move |from: Square| theirs | quiets_ref.targets(role, from, empty);
    push_piece_moves(
        moves,
        board,
        Role::Knight,
        ours,
        occupied,
        targets(Role::Knight),
        legal,
    );
    push_piece_moves(
        moves,
        board,
        Role::Bishop,
        ours,
        occupied,
        targets(Role::Bishop),
        legal,
    );
    push_piece_moves(
        moves,
        board,
        Role::Rook,
        ours,
        occupied,
        targets(Role::Rook),
        legal,
    );
    push_piece_moves(
        moves,
        board,
        Role::Queen,
        ours,
        occupied,
        targets(Role::Queen),
        legal,
    );

    for to in attacks::king_attacks(king) & (theirs | quiets.targets(Role::King, king, empty)) {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    if any_quiets {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = pos.castles().rook(us, side) else {
                continue;
            };
            if let Quiets::Checks {
                info,
                king: enemy_king,
                ..
            } = quiets
            {
                // Castling checks with the rook from its new square, or by uncovering a line
                // that the king or the rook alone blocked.
                let rook_line = attacks::rook_attacks(side.rook_to(us), Bitboard::EMPTY);
                let discoverers = info.discoverers();
                let may_check = rook_line.contains(enemy_king)
                    || discoverers.contains(king)
                    || discoverers.contains(rook);
                if !may_check || !castling_is_legal(pos, king, rook, side) {
                    continue;
                }
                let m = Move::Castle { king, rook };
                if info.gives_check(pos, m) {
                    moves.push(m);
                }
            } else if castling_is_legal(pos, king, rook, side) {
                moves.push(Move::Castle { king, rook });
            }
        }
    }
}

/// Whether `us` (not in check, with the right to castle on `side` with the rook on `rook`)
/// may castle now: nothing stands between king and rook and their destinations, and the
/// king crosses no attacked square and does not land in check.
fn castling_is_legal(pos: &Chess, king: Square, rook: Square, side: CastlingSide) -> bool {
    let board = pos.board();
    let us = pos.turn();
    if (pos.castles().path(us, side) & board.occupied()).any() {
        return false;
    }
    let king_to = side.king_to(us);
    // The destination with the rook already moved (it may shield the king there), the
    // squares crossed with the king lifted.
    let after = board.occupied() ^ king ^ rook ^ side.rook_to(us);
    if board.attacks_to(king_to, !us, after).any() {
        return false;
    }
    let lifted = board.occupied() ^ king;
    attacks::between(king, king_to)
        .into_iter()
        .all(|square| board.attacks_to(square, !us, lifted).is_empty())
}

/// The moves of `ours`' pieces of `role` (a knight, bishop, rook or queen) to the squares of
/// `targets(from)` they reach, by origin then target square; `legal(from, to)` filters pinned
/// pieces.
#[inline(always)]
fn push_piece_moves(
    moves: &mut MoveList,
    board: &Board,
    role: Role,
    ours: Bitboard,
    occupied: Bitboard,
    targets: impl Fn(Square) -> Bitboard,
    legal: impl Fn(Square, Square) -> bool,
) {
    for from in board.by_role(role) & ours {
        let reach = piece_reach(role, from, occupied);
        for to in reach & targets(from) {
            if legal(from, to) {
                moves.push(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// The squares a knight, bishop, rook or queen on `from` attacks (`role` is one of those).
#[inline(always)]
fn piece_reach(role: Role, from: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        _ => attacks::queen_attacks(from, occupied),
    }
}

/// Pawn captures of `targets` (promotions included), towards the a-file first, then towards
/// the h-file, as shakmaty's generator orders them; `legal(from, to)` filters pinned pawns.
#[inline(always)]
fn push_pawn_captures(
    moves: &mut MoveList,
    board: &Board,
    us: Color,
    pawns: Bitboard,
    targets: Bitboard,
    back_ranks: Bitboard,
    legal: impl Fn(Square, Square) -> bool,
) {
    let (west, east) = match us {
        Color::White => (7, 9),
        Color::Black => (-9, -7),
    };
    for (offset, file_mask) in [
        (west, !Bitboard::from_file(shakmaty::File::A)),
        (east, !Bitboard::from_file(shakmaty::File::H)),
    ] {
        let reached = (pawns & file_mask).shift(offset) & targets;
        for to in reached & !back_ranks {
            let from = Square::new((i32::from(to) - offset) as u32);
            if legal(from, to) {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
        for to in reached & back_ranks {
            let from = Square::new((i32::from(to) - offset) as u32);
            if legal(from, to) {
                push_promotions(moves, from, to, board.role_at(to));
            }
        }
    }
}

fn push_quiet(moves: &mut MoveList, role: Role, from: Square, to: Square) {
    moves.push(Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    });
}

/// Whether the normal move `m` (any other kind: false) is legal in `pos`, which must not be
/// in check: whether `m`, with the piece and capture it names, is one of the moves
/// [`legal_moves_not_in_check`] generates. Answers for one move what generating them all would.
pub(crate) fn is_legal_normal(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return false;
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied();
    if !board.by_color(us).contains(from) || board.role_at(from) != Some(role) {
        return false;
    }
    // The move names what stands on `to` (en passant is a move of its own kind).
    let target_matches = match capture {
        Some(victim) => board.by_color(!us).contains(to) && board.role_at(to) == Some(victim),
        None => !occupied.contains(to),
    };
    if !target_matches {
        return false;
    }
    match role {
        Role::King => {
            return promotion.is_none()
                && attacks::king_attacks(king).contains(to)
                && board.attacks_to(to, !us, occupied).is_empty();
        }
        Role::Pawn => {
            let back_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
            let promotes_legally = match promotion {
                None => !back_rank,
                Some(Role::Pawn | Role::King) => false,
                Some(_) => back_rank,
            };
            let reaches = if capture.is_some() {
                attacks::pawn_attacks(us, from).contains(to)
            } else {
                let fourth = match us {
                    Color::White => Rank::Fourth,
                    Color::Black => Rank::Fifth,
                };
                let single = forward(Bitboard::from_square(from), us) & !occupied;
                let double = forward(single, us) & !occupied & Bitboard::from_rank(fourth);
                (single | double).contains(to)
            };
            if !promotes_legally || !reaches {
                return false;
            }
        }
        _ => {
            if promotion.is_some() || !piece_reach(role, from, occupied).contains(to) {
                return false;
            }
        }
    }
    !pinned(board, us, king).contains(from) || attacks::aligned(from, to, king)
}

/// What a transposition-table move is in a position not in check.
pub(crate) enum TableMove {
    /// No legal move matches it.
    Absent,
    /// This legal move.
    Legal(Move),
    /// Castling or en passant may match it: only the full generation tells.
    Unknown,
}

/// The legal move of `pos` (not in check) that `packed` matches, if any, without generating
/// the moves: the only normal move that can match is the one from its `from` to its `to` with
/// the pieces standing there, and other kinds are left to the full generation.
pub(crate) fn table_move(pos: &Chess, packed: PackedMove) -> TableMove {
    let Some((from, to, promotion)) = packed.squares() else {
        return TableMove::Absent;
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(role) = board
        .role_at(from)
        .filter(|_| board.by_color(us).contains(from))
    else {
        return TableMove::Absent;
    };
    if board.by_color(us).contains(to) {
        // Castling is encoded as the king taking its own rook.
        return if role == Role::King {
            TableMove::Unknown
        } else {
            TableMove::Absent
        };
    }
    if role == Role::Pawn && from.file() != to.file() && pos.maybe_ep_square() == Some(to) {
        return TableMove::Unknown;
    }
    let m = Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };
    if is_legal_normal(pos, m) {
        TableMove::Legal(m)
    } else {
        TableMove::Absent
    }
}

/// Whether `pos`, which must not be in check, has a legal move: a cheap look at the king and
/// the unpinned pieces first, the full generation only when they have none.
pub(crate) fn has_legal_move(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return !pos.legal_moves().is_empty();
    };
    let ours = board.by_color(us);
    let occupied = board.occupied();
    // Not in check, so no slider looks through the king's square: a square the enemy does
    // not attack now is safe to step on.
    if (attacks::king_attacks(king) & !ours)
        .into_iter()
        .any(|to| board.attacks_to(to, !us, occupied).is_empty())
    {
        return true;
    }
    let free = ours & !pinned(board, us, king);
    if (forward(board.pawns() & free, us) & !occupied).any() {
        return true;
    }
    for from in free & !board.pawns() & !board.kings() {
        let reach = match board.role_at(from) {
            Some(Role::Knight) => attacks::knight_attacks(from),
            Some(Role::Bishop) => attacks::bishop_attacks(from, occupied),
            Some(Role::Rook) => attacks::rook_attacks(from, occupied),
            _ => attacks::queen_attacks(from, occupied),
        };
        if (reach & !ours).any() {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn check(pos: &Chess) {
        if pos.is_check() {
            let mut moves = MoveList::new();
            evasions(pos, &mut moves);
            assert_eq!(
                moves,
                pos.legal_moves(),
                "evasions: {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Always)
            );
            return;
        }
        let mut expected = pos.legal_moves();
        let any = !expected.is_empty();
        expected.retain(|m| m.is_capture() || m.is_promotion());
        let mut moves = MoveList::new();
        tactical_moves(pos, &mut moves);
        assert_eq!(
            moves,
            expected,
            "{}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Always)
        );
        let mut moves = MoveList::new();
        legal_moves_not_in_check(pos, &mut moves);
        assert_eq!(
            moves,
            pos.legal_moves(),
            "all: {}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Always)
        );
        let info = CheckInfo::new(pos);
        let mut expected = pos.legal_moves();
        expected.retain(|m| m.is_capture() || m.is_promotion() || info.gives_check(pos, *m));
        let mut moves = MoveList::new();
        tactical_moves_and_checks(pos, &info, &mut moves);
        assert_eq!(
            moves,
            expected,
            "checks: {}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Always)
        );
        assert_eq!(
            has_legal_move(pos),
            any,
            "{}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Always)
        );
    }

    /// [`is_legal_normal`] and [`table_move`] against the legal move list of `pos` (not in
    /// check), for every normal move a piece of the side to move could be said to make.
    fn check_single_moves(pos: &Chess) {
        let legal = pos.legal_moves();
        let board = pos.board();
        let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Always);
        for from in board.by_color(pos.turn()) {
            let role = board.role_at(from).unwrap();
            for to in Square::ALL {
                let promotions: &[Option<Role>] = if role == Role::Pawn {
                    &[
                        None,
                        Some(Role::Queen),
                        Some(Role::Knight),
                        Some(Role::King),
                    ]
                } else {
                    &[None, Some(Role::Queen)]
                };
                for &promotion in promotions {
                    // The capture the board shows, and a wrong one.
                    let shown = board.role_at(to);
                    let wrong = if shown.is_some() {
                        None
                    } else {
                        Some(Role::Pawn)
                    };
                    for capture in [shown, wrong] {
                        let m = Move::Normal {
                            role,
                            from,
                            capture,
                            to,
                            promotion,
                        };
                        assert_eq!(is_legal_normal(pos, m), legal.contains(&m), "{fen} {m:?}");
                    }
                    let packed = PackedMove::new(Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion,
                    });
                    let matching: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| packed.matches(*m))
                        .collect();
                    match table_move(pos, packed) {
                        TableMove::Legal(m) => assert_eq!(matching, [m], "{fen} {m:?}"),
                        TableMove::Absent => assert!(matching.is_empty(), "{fen} {matching:?}"),
                        TableMove::Unknown => assert!(
                            matching.iter().all(|m| m.is_castle() || m.is_en_passant()),
                            "{fen} {matching:?}"
                        ),
                    }
                }
            }
        }
        for m in &legal {
            let expected_unknown = m.is_castle() || m.is_en_passant();
            match table_move(pos, PackedMove::new(*m)) {
                TableMove::Legal(found) => assert_eq!(found, *m, "{fen}"),
                TableMove::Unknown => assert!(expected_unknown, "{fen} {m:?}"),
                TableMove::Absent => panic!("{fen} {m:?} not found"),
            }
        }
    }

    /// Positions with special moves (en passant, pins, promotions, stalemates, quiet checks,
    /// castling), beside the bench positions, for the generators' tests.
    const SPECIAL_POSITIONS: &[&str] = &[
        // En passant: legal, pinned along the rank, pinned diagonally; promotions with and
        // without captures, pinned pawns, stalemates.
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
        "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",
        "4k3/8/8/2pP4/8/8/8/b3K2B w - c6 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "7k/5Q2/8/8/8/8/8/K7 b - - 0 1",
        "k7/P7/K7/8/8/8/8/8 b - - 0 1",
        "8/8/8/8/8/1q6/2k5/K7 w - - 0 1",
        "4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1",
        // Quiet checks: castling either way, the king and a pawn (single and double
        // push) uncovering a slider, direct pawn pushes.
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "7k/8/8/8/8/8/1K6/B7 w - - 0 1",
        "8/8/8/8/8/8/R2P3k/4K3 w - - 0 1",
        "8/8/8/5k2/8/8/4P3/4K3 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/3K1R2 b kq - 0 1",
        // Castling: across an attacked square (and the rook attacked, allowed), into
        // check, blocked by pieces, b1 attacked (allowed), both sides for Black.
        "1r2k2r/8/8/8/8/5b2/8/R3K2R w KQk - 0 1",
        "4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1",
        "rn2k1nr/8/8/8/8/8/8/R3KB1R w KQkq - 0 1",
        "4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        // Evasions: double check, en passant taking the checker (and
        // not resolving a discovered check), promotions blocking or
        // taking a checking rook, a king stepping off a bishop's line.
        "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
        "8/8/8/3k4/3pP3/8/8/4K3 b - e3 0 1",
        "K7/8/8/8/4Pp2/8/R6k/8 b - e3 0 1",
        "K2r3k/2P5/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/1b6/8/3K4/8 w - - 0 1",
    ];

    #[test]
    fn single_moves_are_told_legal_as_generation_does() {
        let mut positions = 0;
        for fen in crate::bench::POSITIONS.iter().chain(SPECIAL_POSITIONS) {
            let root = pos(fen);
            let mut children = vec![root.clone()];
            for m in root.legal_moves() {
                let mut child = root.clone();
                child.play_unchecked(m);
                children.push(child);
            }
            for p in children.iter().filter(|p| !p.is_check()) {
                check_single_moves(p);
                positions += 1;
            }
        }
        assert!(positions > 1_000, "{positions}");
    }

    /// Checks every position within `depth` plies of `pos`; counts them, and those in check.
    fn walk(pos: &Chess, depth: u32, positions: &mut usize, in_check: &mut usize) {
        check(pos);
        *positions += 1;
        *in_check += usize::from(pos.is_check());
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            walk(&child, depth - 1, positions, in_check);
        }
    }

    fn pos(fen: &str) -> Chess {
        crate::testing::position(fen)
    }

    #[test]
    fn same_moves_and_order_as_legal_generation() {
        let (mut positions, mut in_check) = (0, 0);
        for fen in crate::bench::POSITIONS.iter().chain(SPECIAL_POSITIONS) {
            walk(&pos(fen), 2, &mut positions, &mut in_check);
        }
        assert!(positions > 10_000, "{positions}");
        assert!(in_check > 1_000, "{in_check}");
    }
}
