//! Pawnless endings against a lone king, and pawnless endings nobody can win.

use shakmaty::{Board, Color, Square};

use super::{Sink, sign};
use crate::params::feature;

/// Whether `color`'s pieces (on a board without pawns) can force mate against a bare king:
/// a queen or rook, a bishop with another minor piece, or three knights.
fn has_mating_material(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let bishops = (board.bishops() & ours).count();
    let knights = (board.knights() & ours).count();
    (board.rooks_and_queens() & ours).any()
        || (bishops >= 1 && bishops + knights >= 2)
        || knights >= 3
}

/// No pawns and neither side can force mate (KK, KNK, KBK, KNNK, KNKB, KBKB, ...): the
/// evaluation reports no features at all, so such positions evaluate to exactly 0 for every
/// parameter set (which keeps the evaluation linear in the weights).
#[inline(always)]
pub(super) fn is_dead_draw(board: &Board) -> bool {
    board.pawns().is_empty()
        && !has_mating_material(board, Color::White)
        && !has_mating_material(board, Color::Black)
}

/// Steps from `square` to the nearest edge of the board: 0 (edge) ..= 3 (centre).
fn edge_distance(square: Square) -> usize {
    let file = square.file().to_u32();
    let rank = square.rank().to_u32();
    file.min(7 - file).min(rank).min(7 - rank) as usize
}

/// The side that has mating material against a bare king, in a pawnless position.
#[inline(always)]
pub(super) fn lone_king_winner(board: &Board) -> Option<Color> {
    if board.pawns().any() {
        return None;
    }
    Color::ALL
        .into_iter()
        .find(|&winner| board.by_color(!winner).count() == 1 && has_mating_material(board, winner))
}

/// Steps (files plus ranks) from `square` to the nearer corner of the colour of the bishop
/// standing on `bishop`: 0 (in that corner) ..= 14 (in a corner of the other colour).
fn bishop_corner_distance(square: Square, bishop: Square) -> i32 {
    let file = square.file().to_u32() as i32;
    let rank = square.rank().to_u32() as i32;
    // a1 and h8 are dark: the bishop's colour is dark when its file and rank add up even.
    let dark = (bishop.file().to_u32() + bishop.rank().to_u32()).is_multiple_of(2);
    if dark {
        (file + rank).min(14 - file - rank)
    } else {
        (7 - file + rank).min(file + 7 - rank)
    }
}

/// The square of the winner's bishop when its pieces are exactly a bishop and a knight.
fn lone_bishop_with_knight(board: &Board, winner: Color) -> Option<Square> {
    let ours = board.by_color(winner);
    let knights = board.knights() & ours;
    let bishops = board.bishops() & ours;
    let others = ours & !knights & !bishops & !board.kings();
    if knights.count() == 1 && bishops.count() == 1 && others.is_empty() {
        bishops.first()
    } else {
        None
    }
}

/// The number of squares of the smallest box the winner's rooks and queens shut the lone king
/// on `lone_king` into: on each axis, the files (ranks) on its side of the piece's file (rank),
/// all eight when it stands on that line. 64 without rooks and queens.
fn lone_king_box(board: &Board, winner: Color, lone_king: Square) -> i32 {
    let side = |piece: u32, king: u32| -> i32 {
        match king.cmp(&piece) {
            std::cmp::Ordering::Less => piece as i32,
            std::cmp::Ordering::Greater => 7 - piece as i32,
            std::cmp::Ordering::Equal => 8,
        }
    };
    (board.rooks_and_queens() & board.by_color(winner))
        .into_iter()
        .map(|sq| {
            side(sq.file().to_u32(), lone_king.file().to_u32())
                * side(sq.rank().to_u32(), lone_king.rank().to_u32())
        })
        .min()
        .unwrap_or(64)
}

/// K+pieces vs a lone king, `winner` having the pieces: with the winner's sign, `7 − distance`
/// between the kings (`king_distance_factor`) and the loser's distance to the edge
/// (`mate_edge_<d>`), `64 −` the squares of the box its rooks and queens shut it into
/// (`mate_box`); with exactly a bishop and a knight, also `14 −` the loser's distance to
/// a corner of the bishop's colour (`bn_mate_corner`), since only there can it be mated.
pub(super) fn lone_king<S: Sink>(board: &Board, winner: Color, sink: &mut S) {
    let (Some(strong_king), Some(lone_king)) = (board.king_of(winner), board.king_of(!winner))
    else {
        return;
    };
    let s = sign(winner);
    sink.add(
        feature::KING_DISTANCE,
        s * (7 - strong_king.distance(lone_king) as i32),
    );
    sink.add(feature::MATE_EDGE + edge_distance(lone_king), s);
    sink.add(
        feature::MATE_BOX,
        s * (64 - lone_king_box(board, winner, lone_king)),
    );
    if let Some(bishop) = lone_bishop_with_knight(board, winner) {
        sink.add(
            feature::BN_MATE_CORNER,
            s * (14 - bishop_corner_distance(lone_king, bishop)),
        );
    }
}
