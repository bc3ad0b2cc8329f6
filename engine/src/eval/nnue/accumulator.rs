//! The hidden layer's inputs, both perspectives: the bias plus the feature weights of every
//! piece. A move changes two to four pieces, so a child's accumulator is its parent's plus
//! and minus those rows, never the sum over the board again.

use shakmaty::{Board, CastlingSide, Color, Move, Piece, Role, Square};

use super::{
    FEATURE_ROWS, HIDDEN, INPUTS, Network, OutputBucket, QA, QB, SCALE, feature, input_row,
};

/// `[perspective]` (indexed by `Color as usize`): the hidden units' inputs, scaled by `QA`, and
/// the first row of the inputs that perspective reads (its king bucket's).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
    /// `[perspective]`: king bucket · [`INPUTS`].
    first_rows: [u16; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; HIDDEN]; 2],
            first_rows: [0; 2],
        }
    }
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Accumulator(white {:?}.., black {:?}..)",
            &self.values[Color::White as usize][..4],
            &self.values[Color::Black as usize][..4]
        )
    }
}

/// A piece and where it is, as a move adds or removes it.
type Placed = (Piece, Square);

/// The rows that `piece` on `square` adds, `[perspective]` (indexed by `Color as usize`),
/// each perspective's king bucket starting at `first_rows`: [`input_row`] for both sides at
/// once.
#[inline(always)]
fn features((piece, square): Placed, first_rows: [u16; 2]) -> [usize; 2] {
    // As the piece's own side sees it, then as the other side does (flipped).
    let own = (piece.role as usize - 1) * 64 + usize::from(square);
    let flipped = own ^ 56;
    let white = usize::from(piece.color == Color::White);
    let both = [
        flipped + 384 * white + usize::from(first_rows[Color::Black as usize]),
        own + 384 * (1 - white) + usize::from(first_rows[Color::White as usize]),
    ];
    for perspective in Color::ALL {
        debug_assert_eq!(
            both[perspective as usize],
            input_row(
                usize::from(first_rows[perspective as usize]) / INPUTS,
                perspective,
                piece,
                square
            )
        );
    }
    both
}

/// The feature weights of row `row`, one of [`features`]'s.
#[inline(always)]
fn row(net: &Network, row: usize) -> &[i16; HIDDEN] {
    debug_assert!(row < FEATURE_ROWS);
    // SAFETY: `features` gives an index below 6 · 64 = 384 (a role's below 6, a square's
    // below 64), plus 384 or not, plus a king bucket's first row (at most (KING_BUCKETS − 1)
    // · INPUTS, from `first_rows`): below FEATURE_ROWS, the rows every network holds.
    unsafe { net.feature_weights.get_unchecked(row) }
}

/// The first row of the inputs `perspective` reads on `board`: its king bucket's.
#[inline]
fn first_row(net: &Network, board: &Board, perspective: Color) -> u16 {
    let bucket = board
        .king_of(perspective)
        .map_or(0, |king| net.king_bucket(perspective, king));
    (bucket * INPUTS) as u16
}

/// The board after `us` plays the king move (or castling) `m` on `board`.
pub(super) fn board_after_king_move(board: &Board, us: Color, m: Move) -> Board {
    let mut after = board.clone();
    let king = Piece {
        color: us,
        role: Role::King,
    };
    match m {
        Move::Castle { king: from, rook } => {
            let side = castling_side(from, rook);
            after.discard_piece_at(from);
            after.discard_piece_at(rook);
            after.set_piece_at(side.king_to(us), king);
            after.set_piece_at(
                side.rook_to(us),
                Piece {
                    color: us,
                    role: Role::Rook,
                },
            );
        }
        m => {
            if let Some(from) = m.from() {
                after.discard_piece_at(from);
            }
            after.set_piece_at(m.to(), king);
        }
    }
    after
}

/// The side a castling move of the king on `king` with the rook on `rook` castles to.
#[inline(always)]
fn castling_side(king: Square, rook: Square) -> CastlingSide {
    if rook > king {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    }
}

/// Where the king of `us` stands after `us` plays `m`, if `m` moves it.
#[inline(always)]
fn king_to(us: Color, m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            role: Role::King,
            to,
            ..
        } => Some(to),
        Move::Castle { king, rook } => Some(castling_side(king, rook).king_to(us)),
        _ => None,
    }
}

impl Accumulator {
    /// The accumulator of `board`, from scratch.
    pub fn new(net: &Network, board: &Board) -> Self {
        let mut acc = Accumulator {
            values: [net.feature_bias; 2],
            first_rows: [0; 2],
        };
        for perspective in Color::ALL {
            acc.refresh(net, board, perspective);
        }
        acc
    }

    /// Recomputes `perspective`'s half from `board`.
    fn refresh(&mut self, net: &Network, board: &Board, perspective: Color) {
        let first = first_row(net, board, perspective);
        let values = &mut self.values[perspective as usize];
        *values = net.feature_bias;
        for (square, piece) in board {
            let row =
                &net.feature_weights[usize::from(first) + feature(perspective, piece, square)];
            for (v, w) in values.iter_mut().zip(row) {
                *v += w;
            }
        }
        self.first_rows[perspective as usize] = first;
    }

    /// Whether the child after `us` plays `m` needs its `us` half recomputed from its board
    /// ([`Accumulator::after_refreshing`]) rather than updated ([`Accumulator::after`]): the
    /// move takes the king of `us` to another king bucket.
    #[inline(always)]
    pub fn needs_refresh(net: &Network, board: &Board, us: Color, m: Move) -> bool {
        net.is_king_bucketed()
            && king_to(us, m).is_some_and(|to| {
                board
                    .king_of(us)
                    .is_some_and(|from| net.king_bucket(us, from) != net.king_bucket(us, to))
            })
    }

    /// Writes to `child` the accumulator after `us` plays `m`, a move for which
    /// [`Accumulator::needs_refresh`] holds, on the board this accumulator is of, `after`
    /// being the board then: the other side's half updated, the half of `us` recomputed.
    pub fn after_refreshing(
        &self,
        net: &Network,
        us: Color,
        m: Move,
        after: &Board,
        child: &mut Accumulator,
    ) {
        self.after_portable(net, us, m, child);
        child.refresh(net, after, us);
    }

    /// Writes to `child` the accumulator after `us` plays the legal move `m` on the board
    /// this accumulator is of, a move that keeps each king in its bucket (else
    /// [`Accumulator::after_refreshing`]).
    #[inline]
    pub fn after(&self, net: &Network, us: Color, m: Move, child: &mut Accumulator) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_avx2() {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.after_avx2(net, us, m, child) };
        }
        self.after_portable(net, us, m, child)
    }

    /// [`Accumulator::after`] compiled for AVX2, whose registers add 16 values at once.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn after_avx2(&self, net: &Network, us: Color, m: Move, child: &mut Accumulator) {
        self.after_portable(net, us, m, child)
    }

    /// [`Accumulator::after`] for code compiled for one instruction set (the stack's walk
    /// inlines it into its AVX2 copy).
    #[inline(always)]
    pub(super) fn after_portable(
        &self,
        net: &Network,
        us: Color,
        m: Move,
        child: &mut Accumulator,
    ) {
        let own = |role| Piece { color: us, role };
        match m {
            Move::Normal {
                role,
                from,
                capture: None,
                to,
                promotion,
            } => self.update(
                net,
                child,
                [(own(promotion.unwrap_or(role)), to)],
                [(own(role), from)],
            ),
            Move::Normal {
                role,
                from,
                capture: Some(captured),
                to,
                promotion,
            } => {
                let taken = Piece {
                    color: !us,
                    role: captured,
                };
                self.update(
                    net,
                    child,
                    [(own(promotion.unwrap_or(role)), to)],
                    [(own(role), from), (taken, to)],
                )
            }
            Move::EnPassant { from, to } => {
                let taken = Piece {
                    color: !us,
                    role: Role::Pawn,
                };
                let taken_on = Square::from_coords(to.file(), from.rank());
                self.update(
                    net,
                    child,
                    [(own(Role::Pawn), to)],
                    [(own(Role::Pawn), from), (taken, taken_on)],
                )
            }
            Move::Castle { king, rook } => {
                let side = castling_side(king, rook);
                self.update(
                    net,
                    child,
                    [
                        (own(Role::King), side.king_to(us)),
                        (own(Role::Rook), side.rook_to(us)),
                    ],
                    [(own(Role::King), king), (own(Role::Rook), rook)],
                )
            }
            Move::Put { role, to } => self.update(net, child, [(own(role), to)], []),
        }
    }

    /// `child = self + Σ rows of added − Σ rows of removed`, for both perspectives, in one
    /// pass over each.
    #[inline(always)]
    fn update<const A: usize, const R: usize>(
        &self,
        net: &Network,
        child: &mut Accumulator,
        added: [Placed; A],
        removed: [Placed; R],
    ) {
        let first_rows = self.first_rows;
        let added = added.map(|placed| features(placed, first_rows));
        let removed = removed.map(|placed| features(placed, first_rows));
        child.first_rows = first_rows;
        for p in 0..2 {
            let adds = added.map(|f| row(net, f[p]));
            let subs = removed.map(|f| row(net, f[p]));
            let (from, to) = (&self.values[p], &mut child.values[p]);
            for i in 0..HIDDEN {
                let mut v = from[i];
                for row in adds {
                    v = v.wrapping_add(row[i]);
                }
                for row in subs {
                    v = v.wrapping_sub(row[i]);
                }
                to[i] = v;
            }
        }
    }

    /// The network's output for this position with `stm` to move, from the output layer of
    /// `bucket` (the position's [`OutputBucket::of`]), in centipawns from its view.
    #[inline]
    pub fn evaluate(&self, net: &Network, stm: Color, bucket: OutputBucket) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_avx2() {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.evaluate_avx2(net, stm, bucket) };
        }
        self.evaluate_portable(net, stm, bucket)
    }

    /// [`Accumulator::evaluate`] in AVX2 registers of 16 lanes (compiled from the portable
    /// loop, the compiler used registers of 8). The same wrapping `i32` sum in another order,
    /// so the same result.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn evaluate_avx2(&self, net: &Network, stm: Color, bucket: OutputBucket) -> i32 {
        use std::arch::x86_64::{
            __m128i, __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
            _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
            _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
            _mm256_set1_epi16, _mm256_setzero_si256,
        };
        const LANES: usize = 16;
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let halves = [&self.values[stm as usize], &self.values[!stm as usize]];
        for (acc, weights) in halves
            .into_iter()
            .zip(net.output_weights[bucket.index()].chunks_exact(HIDDEN))
        {
            for (x, w) in acc.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
                // SAFETY: each chunk holds 16 `i16`s, the 32 bytes loaded.
                let (x, w) = unsafe {
                    (
                        _mm256_loadu_si256(x.as_ptr().cast::<__m256i>()),
                        _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
                    )
                };
                let c = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c));
            }
        }
        let quad: __m128i = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pair = _mm_add_epi32(quad, _mm_shuffle_epi32::<0b01_00_11_10>(quad));
        let one = _mm_add_epi32(pair, _mm_shuffle_epi32::<0b10_11_00_01>(pair));
        let raw = _mm_cvtsi128_si32(one) / QA + net.output_bias[bucket.index()];
        raw * SCALE / (QA * QB)
    }

    #[inline(always)]
    fn evaluate_portable(&self, net: &Network, stm: Color, bucket: OutputBucket) -> i32 {
        let (us, them) = (&self.values[stm as usize], &self.values[!stm as usize]);
        let (v_us, v_them) = net.output_weights[bucket.index()].split_at(HIDDEN);
        // screlu(x)·v = clamp(x)·v·clamp(x): clamp·v fits an i16 (255 · 127), and the sum
        // in i32 holds QA²·QB times the output.
        let half = |acc: &[i16; HIDDEN], weights: &[i16]| -> i32 {
            // In this shape (an i16 product, then i16 × i16 summed in i32) the compiler
            // multiplies and adds pairs of lanes in one instruction (pmaddwd).
            let mut sum = 0i32;
            for (x, w) in acc.iter().zip(weights) {
                let c = (*x).clamp(0, QA as i16);
                sum = sum.wrapping_add(i32::from(c.wrapping_mul(*w)) * i32::from(c));
            }
            sum
        };
        let raw =
            half(us, v_us).wrapping_add(half(them, v_them)) / QA + net.output_bias[bucket.index()];
        raw * SCALE / (QA * QB)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::*;
    use crate::eval::nnue::FloatNetwork;
    use crate::eval::nnue::network::{sample, sample_king_bucketed};

    /// The float network's output, computed directly from the board.
    fn float_eval(net: &FloatNetwork, pos: &Chess) -> f32 {
        let stm = pos.turn();
        let bucket = OutputBucket::of(pos.board());
        let mut total = net.output_bias[bucket.index()];
        for (half, perspective) in [stm, !stm].into_iter().enumerate() {
            let mut hidden = net.feature_bias.clone();
            for (square, piece) in pos.board() {
                let row = feature(perspective, piece, square) * HIDDEN;
                for (h, w) in hidden
                    .iter_mut()
                    .zip(&net.feature_weights[row..row + HIDDEN])
                {
                    *h += w;
                }
            }
            let weights = net.bucket_output_weights(bucket);
            for (h, v) in hidden.iter().zip(&weights[half * HIDDEN..]) {
                total += h.clamp(0.0, 1.0).powi(2) * v;
            }
        }
        total * SCALE as f32
    }

    fn walk(net: &Network, pos: &Chess, acc: &Accumulator, depth: u32) {
        assert_eq!(*acc, Accumulator::new(net, pos.board()), "{pos:?}");
        let bucket = OutputBucket::of(pos.board());
        for stm in Color::ALL {
            // The CPU's path (AVX2 where it has it) gives the portable loop's output exactly.
            assert_eq!(
                acc.evaluate(net, stm, bucket),
                acc.evaluate_portable(net, stm, bucket),
                "{pos:?}"
            );
        }
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child_acc = Accumulator::default();
            let mut child = pos.clone();
            child.play_unchecked(m);
            let us = pos.turn();
            if Accumulator::needs_refresh(net, pos.board(), us, m) {
                let after = board_after_king_move(pos.board(), us, m);
                assert_eq!(&after, child.board(), "{m:?} in {pos:?}");
                acc.after_refreshing(net, us, m, &after, &mut child_acc);
            } else {
                acc.after(net, us, m, &mut child_acc);
            }
            walk(net, &child, &child_acc, depth - 1);
        }
    }

    const FENS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn updated_accumulators_equal_recomputed_ones() {
        let net = sample(2).quantise();
        for fen in FENS {
            let pos = position(fen);
            walk(&net, &pos, &Accumulator::new(&net, pos.board()), 3);
        }
    }

    #[test]
    fn with_king_buckets_updated_and_refreshed_accumulators_equal_recomputed_ones() {
        let net = sample_king_bucketed(3).quantise();
        let mut refreshes = 0;
        for fen in FENS {
            let pos = position(fen);
            walk(&net, &pos, &Accumulator::new(&net, pos.board()), 3);
            refreshes += pos
                .legal_moves()
                .iter()
                .filter(|m| Accumulator::needs_refresh(&net, pos.board(), pos.turn(), **m))
                .count();
        }
        // Castling and king steps across the buckets' borders were among the moves.
        assert!(refreshes >= 3, "{refreshes}");
        // Each king bucket reads its own inputs: the same pieces evaluate differently with
        // the king elsewhere.
        let short = position("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        let centre = position("r3k2r/8/8/8/8/8/8/R3KR2 b kq - 1 1");
        let white = |pos: &Chess| Accumulator::new(&net, pos.board()).values[Color::White as usize];
        assert_ne!(white(&short), white(&centre));
    }

    #[test]
    fn the_integer_output_follows_the_float_network() {
        let float = sample(7);
        let net = float.quantise();
        // The quantised weights read back as floats: the integers must compute their output
        // to within the final division's rounding.
        let dequantised = net.dequantise();
        for fen in FENS {
            let pos = position(fen);
            let quantised = Accumulator::new(&net, pos.board()).evaluate(
                &net,
                pos.turn(),
                OutputBucket::of(pos.board()),
            );
            let exact = float_eval(&dequantised, &pos);
            assert!(
                (exact - quantised as f32).abs() <= 1.01,
                "{fen}: dequantised float {exact}, integer {quantised}"
            );
            // Rounding every weight moves the output by tens of centipawns at most (a wrong
            // scale would move it by hundreds).
            let original = float_eval(&float, &pos);
            assert!(
                (original - quantised as f32).abs() <= 40.0,
                "{fen}: float {original}, quantised {quantised}"
            );
        }
    }

    #[test]
    fn colours_flipped_the_output_is_the_same() {
        let net = sample(2).quantise();
        let pos = position(FENS[0]);
        let mirrored =
            position("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
        let bucket = OutputBucket::of(pos.board());
        assert_eq!(
            Accumulator::new(&net, pos.board()).evaluate(&net, pos.turn(), bucket),
            Accumulator::new(&net, mirrored.board()).evaluate(&net, mirrored.turn(), bucket)
        );
    }
}
