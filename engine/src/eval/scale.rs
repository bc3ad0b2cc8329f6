//! Endgame scaling: material configurations in which the side ahead seldom wins, whatever
//! the sum of the terms says. Their endgame sum is multiplied by a percentage (a search-block
//! parameter `scale_*`, since a factor is not a linear weight: the Texel tuner holds it fixed
//! and SPSA can tune it).
//!
//! The class depends on which side is ahead (the sign of the endgame sum), so a position has
//! one class for each possible strong side; the evaluator picks by the sign, and the tuner's
//! model does the same with its own weights (see [`super::EvalTrace`]).

use shakmaty::{Bitboard, Board, Color, File, Rank, Square};

/// Why the side ahead in the endgame may not be able to win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ScaleClass {
    /// No reason known: the endgame sum counts fully.
    #[default]
    Normal = 0,
    /// Each side has exactly one piece, a bishop, and the bishops stand on squares of
    /// opposite colours (pawns aside): `scale_opposite_bishops`.
    OppositeBishops = 1,
    /// The side ahead has no pawns and at most one minor piece: it cannot mate
    /// (`scale_lone_minor`).
    LoneMinor = 2,
    /// The side ahead has no pawns and is ahead by at most a bishop in pieces (KRKB, KRKN,
    /// KRBKR, KQKRN, ...): `scale_pawnless_small_lead`.
    PawnlessSmallLead = 3,
    /// The side ahead has only pawns on one rook file, with no piece or a bishop that does
    /// not control their promotion square, and the defending king (no pieces, pawns allowed)
    /// stands on that square or next to it: `scale_rook_pawn_corner`.
    RookPawnCorner = 4,
}

/// Number of [`ScaleClass`] values.
pub const SCALE_CLASSES: usize = 5;

impl ScaleClass {
    /// Every class, in the order of their discriminants.
    pub const ALL: [ScaleClass; SCALE_CLASSES] = [
        ScaleClass::Normal,
        ScaleClass::OppositeBishops,
        ScaleClass::LoneMinor,
        ScaleClass::PawnlessSmallLead,
        ScaleClass::RookPawnCorner,
    ];

    /// The class with this discriminant; `Normal` for anything out of range.
    pub fn from_index(i: u8) -> ScaleClass {
        Self::ALL
            .get(usize::from(i))
            .copied()
            .unwrap_or(ScaleClass::Normal)
    }
}

/// Piece values used only to measure a lead in pieces here (Stockfish's classical middlegame
/// values, whose ratios the pawnless rule was stated in): knight, bishop, rook, queen.
const KNIGHT: i32 = 781;
const BISHOP: i32 = 825;
const ROOK: i32 = 1276;
const QUEEN: i32 = 2538;

fn non_pawn_material(board: &Board, pieces: Bitboard) -> i32 {
    let count = |b: Bitboard| (b & pieces).count() as i32;
    KNIGHT * count(board.knights())
        + BISHOP * count(board.bishops())
        + ROOK * count(board.rooks())
        + QUEEN * count(board.queens())
}

/// Whether `a` and `b` have the same square colour.
fn same_colour(a: Square, b: Square) -> bool {
    (a.file().to_u32() + a.rank().to_u32()) % 2 == (b.file().to_u32() + b.rank().to_u32()) % 2
}

/// The class of `board` if `strong` is the side ahead in the endgame sum.
#[inline(always)]
pub fn classify(board: &Board, strong: Color) -> ScaleClass {
    // The common case inline: the side ahead has pawns and two or more pieces.
    let ours = board.by_color(strong);
    let our_pieces = ours & !board.pawns() & !board.kings();
    if (ours & board.pawns()).any() && our_pieces.more_than_one() {
        return ScaleClass::Normal;
    }
    classify_drawish(board, strong)
}

/// [`classify`] when the side ahead lacks pawns or has at most one piece.
#[inline(never)]
fn classify_drawish(board: &Board, strong: Color) -> ScaleClass {
    let pawns = board.pawns();
    let kings = board.kings();
    let ours = board.by_color(strong);
    let theirs = board.by_color(!strong);
    let our_pieces = ours & !pawns & !kings;
    let their_pieces = theirs & !pawns & !kings;
    let our_pawns = ours & pawns;
    if our_pawns.is_empty() {
        // A bare king against a bare king with no pawns is a dead draw, and K+pieces vs K is
        // the mating terms' business (both are decided before the terms are summed).
        if their_pieces.is_empty() && (theirs & pawns).is_empty() {
            return ScaleClass::Normal;
        }
        let (ours_npm, theirs_npm) = (
            non_pawn_material(board, our_pieces),
            non_pawn_material(board, their_pieces),
        );
        if ours_npm < ROOK {
            return ScaleClass::LoneMinor;
        }
        if ours_npm - theirs_npm <= BISHOP {
            return ScaleClass::PawnlessSmallLead;
        }
        return ScaleClass::Normal;
    }
    // From here the side ahead has pawns and at most one piece.
    let bishops = board.bishops();
    if let (Some(ours_b), Some(theirs_b)) = (
        (our_pieces == our_pieces & bishops)
            .then(|| our_pieces.single_square())
            .flatten(),
        (their_pieces == their_pieces & bishops)
            .then(|| their_pieces.single_square())
            .flatten(),
    ) && !same_colour(ours_b, theirs_b)
    {
        return ScaleClass::OppositeBishops;
    }
    if rook_pawn_corner(board, strong, our_pieces, our_pawns, their_pieces) {
        return ScaleClass::RookPawnCorner;
    }
    ScaleClass::Normal
}

/// Rook pawns that cannot queen: all of `strong`'s pawns on the a-file (or all on the
/// h-file), its pieces none or one bishop of the other colour than the promotion square, and
/// the defending king, with no pieces, on that square or next to it.
fn rook_pawn_corner(
    board: &Board,
    strong: Color,
    our_pieces: Bitboard,
    our_pawns: Bitboard,
    their_pieces: Bitboard,
) -> bool {
    if their_pieces.any() {
        return false;
    }
    let file = if our_pawns.is_subset(Bitboard::from_file(File::A)) {
        File::A
    } else if our_pawns.is_subset(Bitboard::from_file(File::H)) {
        File::H
    } else {
        return false;
    };
    let last_rank = match strong {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    };
    let promotion = Square::from_coords(file, last_rank);
    let helpless_pieces = match our_pieces.single_square() {
        None => our_pieces.is_empty(),
        Some(sq) => board.bishops().contains(sq) && !same_colour(sq, promotion),
    };
    helpless_pieces
        && board
            .king_of(!strong)
            .is_some_and(|k| k.distance(promotion) <= 1)
}

/// Percentages by class, read from the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scales(pub [i32; SCALE_CLASSES]);

impl Scales {
    /// The percentage of the endgame sum `eg` that counts in `board`: the factor of the
    /// class of the side `eg` favours (100 when `eg` is 0).
    #[inline]
    pub fn percent(&self, board: &Board, eg: i32) -> i32 {
        if eg == 0 {
            return 100;
        }
        let strong = if eg > 0 { Color::White } else { Color::Black };
        self.0[classify(board, strong) as usize]
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::*;

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        pos.board().clone()
    }

    #[test]
    fn each_scale_factor_is_named_after_its_class() {
        let classes = &ScaleClass::ALL[1..];
        assert_eq!(classes.len(), crate::params::search::SCALE_FACTORS.len());
        for (class, id) in classes.iter().zip(crate::params::search::SCALE_FACTORS) {
            let mut snake = String::new();
            for c in format!("{class:?}").chars() {
                if c.is_uppercase() && !snake.is_empty() {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            }
            assert_eq!(crate::params::specs()[id].name, format!("scale_{snake}"));
        }
    }

    fn classes(fen: &str) -> (ScaleClass, ScaleClass) {
        let b = board(fen);
        (classify(&b, Color::White), classify(&b, Color::Black))
    }

    #[test]
    fn opposite_bishops_only_with_one_bishop_each() {
        // A light-squared bishop on d3 against a dark-squared one on f6.
        let ocb = "8/5k2/5b2/1p3p2/5P2/1P1B4/5K2/8 w - - 0 1";
        assert_eq!(
            classes(ocb),
            (ScaleClass::OppositeBishops, ScaleClass::OppositeBishops)
        );
        // Same-coloured bishops (d3 and e6, both light).
        let same = "8/5k2/4b3/1p3p2/5P2/1P1B4/5K2/8 w - - 0 1";
        assert_eq!(classes(same).0, ScaleClass::Normal);
        // A rook each besides: not this class.
        let rooks = "4r3/5k2/5b2/1p3p2/5P2/1P1B4/5K2/4R3 w - - 0 1";
        assert_eq!(classes(rooks).0, ScaleClass::Normal);
    }

    #[test]
    fn pawnless_leads() {
        // KRKB: a small lead; KQKR is a win; KRK is the mating terms' case.
        assert_eq!(
            classes("8/8/3k4/8/3b4/8/3RK3/8 w - - 0 1").0,
            ScaleClass::PawnlessSmallLead
        );
        assert_eq!(
            classes("8/8/3k4/8/3r4/8/3QK3/8 w - - 0 1").0,
            ScaleClass::Normal
        );
        assert_eq!(
            classes("8/8/3k4/8/8/8/R3K3/8 w - - 0 1").0,
            ScaleClass::Normal
        );
        // K+N vs K+P: the knight's side cannot win; the pawn's side is Normal.
        assert_eq!(
            classes("8/8/3k4/3p4/8/8/3NK3/8 w - - 0 1"),
            (ScaleClass::LoneMinor, ScaleClass::Normal)
        );
        // KBBKN: a lead of more than a bishop.
        assert_eq!(
            classes("8/8/3k4/3n4/8/8/2BBK3/8 w - - 0 1").0,
            ScaleClass::Normal
        );
    }

    #[test]
    fn rook_pawn_with_the_wrong_bishop() {
        // White: two a-pawns and a dark-squared bishop (c3); a8 is light.
        let wrong = "k7/8/8/P7/P7/2B5/8/6K1 w - - 0 1";
        assert_eq!(classes(wrong).0, ScaleClass::RookPawnCorner);
        // The right bishop (d3 is light, like a8).
        let right = "k7/8/8/P7/P7/3B4/8/6K1 w - - 0 1";
        assert_eq!(classes(right).0, ScaleClass::Normal);
        // The defending king far from the corner.
        let far = "8/8/4k3/P7/P7/2B5/8/6K1 w - - 0 1";
        assert_eq!(classes(far).0, ScaleClass::Normal);
        // Black's h-pawn, no piece, White's king on h1.
        let black = "8/8/8/8/6k1/8/7p/7K w - - 0 1";
        assert_eq!(classes(black).1, ScaleClass::RookPawnCorner);
    }

    #[test]
    fn the_factor_follows_the_side_ahead() {
        let scales = Scales([100, 50, 0, 25, 10]);
        let ocb = board("8/5k2/5b2/1p3p2/5P2/1P1B4/5K2/8 w - - 0 1");
        assert_eq!(scales.percent(&ocb, 101), 50);
        assert_eq!(scales.percent(&ocb, -101), 50);
        assert_eq!(scales.percent(&ocb, 0), 100);
        // K+N vs K+P: only the knight's side (White) is scaled.
        let knight = board("8/8/3k4/3p4/8/8/3NK3/8 w - - 0 1");
        assert_eq!(scales.percent(&knight, 40), 0);
        assert_eq!(scales.percent(&knight, -40), 100);
    }
}
