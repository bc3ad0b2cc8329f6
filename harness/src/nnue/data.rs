//! Training positions for the network: `FEN; score; result` lines (`harness datagen --format
//! score`; score in centipawns and result 1.0 / 0.5 / 0.0, both from White's view), plain or
//! `.xz`, packed into 32 bytes each so that tens of millions fit in memory.

use std::path::{Path, PathBuf};

use engine::eval::Evaluator;
use rayon::prelude::*;
use shakmaty::{Board, Color, Piece, Position, Role, Square};

use crate::UsageError;
use crate::tune::dataset;

/// Largest `--max-score`: scores are kept as `i16`.
pub const MAX_SCORE_LIMIT: i32 = 30_000;

/// One labelled position in 32 bytes: the occupied squares, the pieces on them as 4-bit
/// codes, the side to move, the score and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedPosition {
    /// Bit `i` set: square `i` (a1 = 0, h8 = 63) holds a piece.
    occupied: u64,
    /// The pieces of the occupied squares in square order, two a byte (low nibble first):
    /// `6 · colour + role − 1`, colour 0 White, 1 Black.
    pieces: [u8; 16],
    /// Search score in centipawns, White's view.
    score: i16,
    /// Game result for White in half points: 0 lost, 1 drawn, 2 won.
    result: u8,
    /// 0 White to move, 1 Black.
    black_to_move: u8,
    /// The evaluation a residual network's output is added to, in centipawns from the side
    /// to move's view (0 for a network that evaluates alone).
    base: i16,
}

/// Why a board cannot be packed.
#[derive(Debug, PartialEq, Eq)]
pub enum PackError {
    TooManyPieces(usize),
    ScoreOutOfRange(i32),
    /// The result is not 0, ½ or 1.
    Result,
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::TooManyPieces(n) => write!(f, "{n} pieces on the board (at most 32)"),
            PackError::ScoreOutOfRange(s) => {
                write!(f, "score {s} beyond ±{MAX_SCORE_LIMIT} centipawns")
            }
            PackError::Result => write!(f, "result is not 1.0, 0.5 or 0.0"),
        }
    }
}

impl PackedPosition {
    /// Packs `board` with `turn` to move, `score` (centipawns, White's view) and `result`
    /// (White's, 0, 0.5 or 1).
    pub fn new(
        board: &Board,
        turn: Color,
        score: i32,
        result: f32,
    ) -> Result<PackedPosition, PackError> {
        let count = board.occupied().count();
        if count > 32 {
            return Err(PackError::TooManyPieces(count));
        }
        if score.abs() > MAX_SCORE_LIMIT {
            return Err(PackError::ScoreOutOfRange(score));
        }
        let halves = result * 2.0;
        if !matches!(halves, 0.0 | 1.0 | 2.0) {
            return Err(PackError::Result);
        }
        let mut pieces = [0u8; 16];
        // The board iterates in square order, as `pieces()` reads them back.
        for (i, (_, piece)) in board.iter().enumerate() {
            let code = piece_code(piece);
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        Ok(PackedPosition {
            occupied: u64::from(board.occupied()),
            pieces,
            score: score as i16,
            result: halves as u8,
            black_to_move: u8::from(turn == Color::Black),
            base: 0,
        })
    }

    /// The same position with `base` (centipawns, side to move's view, kept within
    /// ±[`MAX_SCORE_LIMIT`]) as the evaluation the network's output is added to.
    pub fn with_base(self, base: i32) -> PackedPosition {
        PackedPosition {
            base: base.clamp(-MAX_SCORE_LIMIT, MAX_SCORE_LIMIT) as i16,
            ..self
        }
    }

    /// The evaluation the network's output is added to (side to move's view).
    #[inline]
    pub fn base_stm(&self) -> f32 {
        f32::from(self.base)
    }

    /// The pieces and their squares, in square order.
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occupied;
        let mut i = 0usize;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let square = Square::new(bits.trailing_zeros());
            bits &= bits - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
            i += 1;
            Some((square, piece_of(code)))
        })
    }

    pub fn turn(&self) -> Color {
        if self.black_to_move == 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Score in centipawns, White's view.
    pub fn score_white(&self) -> i32 {
        i32::from(self.score)
    }

    /// Result for White: 0, 0.5 or 1.
    pub fn result_white(&self) -> f32 {
        f32::from(self.result) / 2.0
    }

    /// Score in centipawns from the side to move's view.
    #[inline]
    pub fn score_stm(&self) -> f32 {
        let s = f32::from(self.score);
        if self.black_to_move == 1 { -s } else { s }
    }

    /// Result from the side to move's view.
    #[inline]
    pub fn result_stm(&self) -> f32 {
        let r = f32::from(self.result) / 2.0;
        if self.black_to_move == 1 { 1.0 - r } else { r }
    }

    /// The board again.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (square, piece) in self.pieces() {
            board.set_piece_at(square, piece);
        }
        board
    }
}

fn piece_code(piece: Piece) -> u8 {
    6 * u8::from(piece.color == Color::Black) + (piece.role as u8 - 1)
}

#[inline]
fn piece_of(code: u8) -> Piece {
    let (color, role) = if code >= 6 {
        (Color::Black, code - 6)
    } else {
        (Color::White, code)
    };
    Piece {
        color,
        role: Role::ALL[usize::from(role) % 6],
    }
}

/// What loading found, per file and in all.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Each file and the positions kept from it.
    pub files: Vec<(PathBuf, usize)>,
    /// Positions kept.
    pub kept: usize,
    /// Positions left out for a score beyond the cutoff.
    pub over_max_score: usize,
}

/// How a line's score is read: multiplied by `scale` (another engine's centipawns brought to
/// ours), `offset` added from the side to move's view, then left out when its magnitude
/// exceeds `max_score`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreRule {
    pub scale: f32,
    /// Centipawns added to every score from the side to move's view: e.g. to take out the
    /// constant bonus for the side to move that another engine's scores of our self-play
    /// carry (`check-net`'s "score − evaluation" mean).
    pub offset: f32,
    pub max_score: i32,
}

impl ScoreRule {
    /// Scores as written, cut off beyond ±`max_score`.
    pub const fn cutoff(max_score: i32) -> ScoreRule {
        ScoreRule {
            scale: 1.0,
            offset: 0.0,
            max_score,
        }
    }
}

/// Reads every file in `paths` (in order) and packs its positions, their scores read by
/// `rule`, leaving out (and counting) those beyond its cutoff; with `base`, each position
/// carries that evaluator's score of it, for a residual network. A malformed line is an
/// error naming the file and line.
pub fn load(
    paths: &[PathBuf],
    rule: ScoreRule,
    base: Option<&Evaluator>,
) -> anyhow::Result<(Vec<PackedPosition>, LoadReport)> {
    let mut positions = Vec::new();
    let mut report = LoadReport::default();
    for path in paths {
        let before = positions.len();
        report.over_max_score += read_file(path, rule, base, &mut positions)?;
        report.files.push((path.clone(), positions.len() - before));
    }
    report.kept = positions.len();
    Ok((positions, report))
}

/// Appends the positions of one file to `out`; returns how many were beyond the cutoff.
fn read_file(
    path: &Path,
    rule: ScoreRule,
    base: Option<&Evaluator>,
    out: &mut Vec<PackedPosition>,
) -> anyhow::Result<usize> {
    let mut over = 0usize;
    dataset::for_each_chunk(path, |lines| {
        let parsed: Vec<Result<Option<PackedPosition>, String>> = lines
            .par_iter()
            .map(|(_, text)| parse_line(text, rule, base))
            .collect();
        for ((line, text), result) in lines.iter().zip(parsed) {
            match result {
                Ok(Some(position)) => out.push(position),
                Ok(None) => over += 1,
                Err(message) => {
                    return Err(UsageError(dataset::line_error(path, *line, text, &message)).into());
                }
            }
        }
        Ok(())
    })?;
    Ok(over)
}

/// One `FEN; score; result` line: the packed position with its score read by `rule` (and
/// `base`'s evaluation of it, if given), or `None` when that score is beyond the rule's
/// cutoff.
pub fn parse_line(
    text: &str,
    rule: ScoreRule,
    base: Option<&Evaluator>,
) -> Result<Option<PackedPosition>, String> {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    let [fen, score, result] = fields.as_slice() else {
        return Err(
            "expected '<FEN>; <score>; <result>' (harness datagen --format score)".to_string(),
        );
    };
    let result_value = dataset::parse_result(result)?;
    let position = dataset::parse_position(fen)?;
    // The file's score is White's; the offset is the side to move's.
    let offset = match position.turn() {
        Color::White => rule.offset,
        Color::Black => -rule.offset,
    };
    let score = dataset::parse_score(score)? * rule.scale + offset;
    if score.abs() > rule.max_score as f32 {
        return Ok(None);
    }
    PackedPosition::new(
        position.board(),
        position.turn(),
        score.round() as i32,
        result_value,
    )
    .map(|packed| Some(base.map_or(packed, |e| packed.with_base(e.evaluate(&position)))))
    .map_err(|e| match e {
        PackError::Result => format!("result '{result}' is not 1.0, 0.5 or 0.0"),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUTOFF: ScoreRule = ScoreRule::cutoff(3000);

    #[test]
    fn a_position_survives_packing() {
        let line = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1; -35; 0.5";
        let packed = parse_line(line, CUTOFF, None).unwrap().unwrap();
        let position = dataset::parse_position(line.split(';').next().unwrap()).unwrap();
        assert_eq!(&packed.board(), position.board());
        assert_eq!(packed.turn(), Color::Black);
        assert_eq!(packed.score_white(), -35);
        assert_eq!(packed.score_stm(), 35.0);
        assert_eq!(packed.result_white(), 0.5);
        assert_eq!(packed.result_stm(), 0.5);
        assert_eq!(std::mem::size_of::<PackedPosition>(), 32);

        let white = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 900; 1.0", CUTOFF, None)
            .unwrap()
            .unwrap();
        assert_eq!((white.score_stm(), white.result_stm()), (900.0, 1.0));
        let black = parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1; 900; 1.0", CUTOFF, None)
            .unwrap()
            .unwrap();
        assert_eq!((black.score_stm(), black.result_stm()), (-900.0, 0.0));
    }

    #[test]
    fn scores_beyond_the_cutoff_are_left_out() {
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; -3001; 0.0", CUTOFF, None),
            Ok(None)
        );
        assert!(
            parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 3000; 1.0", CUTOFF, None)
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn another_engines_scores_are_scaled_before_the_cutoff() {
        let rule = ScoreRule {
            scale: 0.75,
            offset: 0.0,
            max_score: 3000,
        };
        let packed = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 1001; 1.0", rule, None)
            .unwrap()
            .unwrap();
        assert_eq!(packed.score_white(), 751);
        // 3,900 is beyond the cutoff as written, 2,925 within it once scaled.
        assert!(
            parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1; -3900; 0.0", rule, None)
                .unwrap()
                .is_some()
        );
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1; -4001; 0.0", rule, None),
            Ok(None)
        );
    }

    #[test]
    fn the_offset_is_added_from_the_side_to_moves_view_after_the_scale() {
        let rule = ScoreRule {
            scale: 0.5,
            offset: -40.0,
            max_score: 3000,
        };
        let white = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 200; 1.0", rule, None)
            .unwrap()
            .unwrap();
        assert_eq!((white.score_white(), white.score_stm()), (60, 60.0));
        let black = parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1; 200; 1.0", rule, None)
            .unwrap()
            .unwrap();
        assert_eq!((black.score_white(), black.score_stm()), (140, -140.0));
        // The cutoff applies to the score with its offset.
        let edge = ScoreRule {
            scale: 1.0,
            offset: 10.0,
            max_score: 3000,
        };
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 2995; 1.0", edge, None),
            Ok(None)
        );
    }

    #[test]
    fn a_residual_position_carries_the_evaluation_it_corrects() {
        let evaluator = Evaluator::new(&engine::params::Params::default());
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let packed = parse_line(&format!("{fen}; -35; 0.5"), CUTOFF, Some(&evaluator))
            .unwrap()
            .unwrap();
        let position = dataset::parse_position(fen).unwrap();
        assert_eq!(packed.base_stm(), evaluator.evaluate(&position) as f32);
        assert_ne!(packed.base_stm(), 0.0);
        let plain = parse_line(&format!("{fen}; -35; 0.5"), CUTOFF, None)
            .unwrap()
            .unwrap();
        assert_eq!(plain.base_stm(), 0.0);
        assert_eq!(plain.with_base(evaluator.evaluate(&position)), packed);
    }

    #[test]
    fn malformed_lines_say_why() {
        let err = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 1.0", CUTOFF, None).unwrap_err();
        assert!(err.contains("<FEN>; <score>; <result>"), "{err}");
        let err = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 12; 0.3", CUTOFF, None).unwrap_err();
        assert!(err.contains("result '0.3'"), "{err}");
        let err = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1; x; 0.5", CUTOFF, None).unwrap_err();
        assert!(err.contains("score 'x'"), "{err}");
        let err = parse_line("4k3/8/8/8/8/8/8/3QKK2 w - - 0 1; 0; 0.5", CUTOFF, None).unwrap_err();
        assert!(err.contains("illegal position"), "{err}");
    }
}
