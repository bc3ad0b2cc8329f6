//! Static evaluation: tapered, and linear in the weights of [`crate::params`].
//!
//! One routine, [`extract`], walks a position and reports each feature's coefficient
//! (White's pieces count +1, Black's −1) to a [`Sink`]. The fast [`Evaluator`] sums weights
//! through it; [`trace`] records the coefficients instead, and [`EvalTrace::value`] of that
//! trace with a parameter set equals [`Evaluator::evaluate_white`] before rounding. The tuner
//! depends on this identity.
//!
//! `eval = (mg · phase + eg · (PHASE_MAX − phase)) / PHASE_MAX`, where `mg` and `eg` are the
//! sums of coefficient × weight; a flat feature (the K+piece vs K terms) has one weight used as
//! both, so it counts the same in every phase.
//!
//! Files by concern: `material` (material, piece-square tables), `pawns` (passed, doubled,
//! isolated, backward, connected pawns, supported passers, space), `pieces` (mobility, rook
//! files, attacks on the king zone, bishops hemmed in by rammed pawns, minors behind a pawn),
//! `king` (shelter, open files, the shelter and
//! storm tables by file and distance),
//! `threats` (pieces attacked by pawns or minors, queens by rooks, hanging pieces, pieces a
//! safe pawn push would attack), `passers` (kings and passed pawns, free, unstoppable passers, rooks behind
//! them), `king_activity` (endgame king centralisation and nearness to the pawns),
//! `outposts` (knight and bishop outposts, rooks and queens on the seventh), `king_danger`
//! (attack units on the enemy king from zone attackers and safe checks, weak squares next to
//! it), `mating`
//! (K+piece vs K, dead draws), `imbalance` (products of piece counts: own pairs and pairs
//! against the enemy's; the bishop pair and pieces by own pawn count). The side to move gets the tempo feature (+1 if White is to
//! move, −1 if Black).
//!
//! The endgame sum is then scaled down in drawish material (`scale`: opposite-coloured
//! bishops, pawnless small leads, a lone minor, rook pawns with the defending king in the
//! corner), by a factor that depends on which side is ahead; the trace records the class for
//! each side so that the tuner can apply the same factor.
//!
//! Pawnless positions where neither side can force mate (KK, KNK, KBK, KNNK, KBKB, ...) report
//! no features and evaluate to 0.
//!
//! With the `nnue` switch on, [`nnue`]'s network evaluates from accumulators the search keeps
//! move by move: instead of the terms, or added to them if it is a residual network; the dead
//! draws and the mating of a lone king keep the rules above.

pub(crate) mod imbalance;
mod incremental;
mod king;
mod king_activity;
mod king_danger;
mod material;
mod mating;
pub mod nnue;
mod outposts;
mod passers;
mod pawn_cache;
mod pawns;
/// Squares attacked by a set of pawns: also the move ordering's threat test.
pub(crate) use pawns::pawn_attacks_of;
mod pieces;
mod scale;
mod sink;
mod threats;
mod trace;

use shakmaty::{Chess, Color, Move, Position, Role};

use crate::params::{self, Params, TOTAL_FEATURES};
pub use incremental::PieceSquares;
pub use pawn_cache::PawnCache;
pub use scale::{SCALE_CLASSES, ScaleClass, Scales, classify as scale_class};
pub use sink::Sink;
use sink::{Packed, PackedWeights, WeightSink, Weights};
pub use trace::{EvalTrace, TraceTerm, trace};

/// Whether `board` is a pawnless ending against a lone king that the mating terms score: their
/// score is a gradient toward mate, not a guess at the result that a correction could mend.
#[inline]
pub(crate) fn is_mating_ending(board: &shakmaty::Board) -> bool {
    mating::lone_king_winner(board).is_some()
}

/// Phase of a position with all pieces on the board; 0 is a pawn ending.
pub const PHASE_MAX: i32 = 24;

/// Game phase from the pieces on the board (knight and bishop 1, rook 2, queen 4), at most
/// [`PHASE_MAX`].
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    let count = |r: Role| board.by_role(r).count() as i32;
    let raw =
        count(Role::Knight) + count(Role::Bishop) + 2 * count(Role::Rook) + 4 * count(Role::Queen);
    raw.min(PHASE_MAX)
}

/// +1 for White, −1 for Black: coefficients are White minus Black.
#[inline]
fn sign(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Reports every feature of `pos` to `sink`. The single source of the evaluation's logic.
/// Always inlined, with the terms it calls, so that the evaluator's copy for CPUs with popcnt
/// and BMI ([`Evaluator::finish`]) compiles all of it with them.
#[inline(always)]
pub fn extract<S: Sink>(pos: &Chess, sink: &mut S) {
    let board = pos.board();
    if mating::is_dead_draw(board) {
        return;
    }
    if let Some(winner) = mating::lone_king_winner(board) {
        // Only material and the mating terms: the tables and the other terms were fitted on
        // positions with play left and would pull the kings away from the mating pattern.
        for color in Color::ALL {
            material::material(board, color, sink);
        }
        mating::lone_king(board, winner, sink);
        return;
    }
    let mut attacks = [threats::Attacks::default(); 2];
    let passed = sink.pawns_and_kings(board);
    // Each side's pawn attacks, read by both sides' terms: computed once.
    let pawn_attacks = [Color::Black, Color::White].map(|c| pawns::pawn_attacks(board, c));
    // Side by side in the order of `Color::ALL`, each call inlined with its colour known (a
    // loop over the colours indexed every array and tested the colour at run time).
    let (white, black) = (Color::White as usize, Color::Black as usize);
    attacks[white] = side_activity(board, Color::White, &pawn_attacks, sink);
    attacks[black] = side_activity(board, Color::Black, &pawn_attacks, sink);
    side_threats(pos, Color::White, &attacks, passed[white], sink);
    side_threats(pos, Color::Black, &attacks, passed[black], sink);
    let (w, b) = (&attacks[white], &attacks[black]);
    let white_threats = threats::threats(board, Color::White, w, b);
    let black_threats = threats::threats(board, Color::Black, b, w);
    add_both_sides(sink, threats::THREAT_FEATURES, white_threats, black_threats);
    sink.imbalance(board);
    sink.add(params::feature::TEMPO, sign(pos.turn()));
}

/// Adds `features` with White's counts `white` less Black's `black`: terms counted per side
/// and added once, so that each weight is multiplied once instead of once a side.
#[inline(always)]
fn add_both_sides<S: Sink, const N: usize>(
    sink: &mut S,
    features: [params::FeatureId; N],
    white: [i32; N],
    black: [i32; N],
) {
    for ((feature, w), b) in features.into_iter().zip(white).zip(black) {
        sink.add(feature, w - b);
    }
}

/// `color`'s material, piece-square, mobility and king-attack terms; returns what it attacks.
#[inline(always)]
fn side_activity<S: Sink>(
    board: &shakmaty::Board,
    color: Color,
    pawn_attacks: &[shakmaty::Bitboard; 2],
    sink: &mut S,
) -> threats::Attacks {
    if S::PIECE_SQUARES {
        material::material(board, color, sink);
        material::piece_squares(board, color, sink);
    }
    let enemy_pawn_attacks = pawn_attacks[!color as usize];
    let pieces = pieces::piece_activity(board, color, enemy_pawn_attacks, sink);
    let own_pawn_attacks = pawn_attacks[color as usize];
    threats::Attacks::new(board, color, own_pawn_attacks, pieces)
}

/// `color`'s king-danger, outpost and passed-pawn terms (`passed`: its passed pawns).
#[inline(always)]
fn side_threats<S: Sink>(
    pos: &Chess,
    color: Color,
    attacks: &[threats::Attacks; 2],
    passed: shakmaty::Bitboard,
    sink: &mut S,
) {
    let board = pos.board();
    let (ours, theirs) = (&attacks[color as usize], &attacks[!color as usize]);
    king_danger::king_danger(board, color, ours, theirs, sink);
    outposts::outposts(board, color, ours, theirs, sink);
    passers::passers(board, color, pos.turn(), passed, theirs, sink);
}

/// The terms that depend on the pawns alone (pawn structure, both sides) and on the pawns and
/// one king (shelter, open files, king activity), reported to `sink`; returns the passed
/// pawns (`[color]`). The pawn cache keeps their sums by pawn placement and king squares.
#[inline(always)]
fn pawns_and_king_terms<S: Sink>(board: &shakmaty::Board, sink: &mut S) -> [shakmaty::Bitboard; 2] {
    let mut passed = [shakmaty::Bitboard::EMPTY; 2];
    for color in Color::ALL {
        passed[color as usize] = pawns::pawn_structure(board, color, sink);
        king_terms(board, color, sink);
    }
    passed
}

/// `color`'s terms that read only the pawns and its king.
#[inline(always)]
fn king_terms<S: Sink>(board: &shakmaty::Board, color: Color, sink: &mut S) {
    king::king_pawns(board, color, sink);
    king::shelter_and_storm(board, color, sink);
    king_activity::king_activity(board, color, sink);
}

/// The endgame scale factors of `params`, by [`ScaleClass`].
pub fn scales(params: &Params) -> Scales {
    let mut percent = [100; SCALE_CLASSES];
    for (class, id) in ScaleClass::ALL[1..]
        .iter()
        .zip(params::search::SCALE_FACTORS)
    {
        percent[*class as usize] = params.get(id);
    }
    Scales(percent)
}

/// Evaluates positions with one parameter set.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The weights as the evaluation adds them ([`sink::Packed`]).
    weights: Box<PackedWeights>,
    /// Material plus piece-square weight of each piece on each square, for the sums the
    /// search keeps incrementally.
    piece_squares: Box<incremental::PieceSquareTable>,
    /// Endgame scale factors by class, percent.
    scales: Scales,
    /// The network that evaluates instead of the terms, when the `nnue` switch is on.
    network: Option<&'static nnue::Network>,
    /// Whether the CPU has the instructions of [`crate::cpu::has_bit_instructions`], read
    /// once here rather than at every evaluation.
    #[cfg(target_arch = "x86_64")]
    bit_instructions: bool,
    /// Whether the CPU has popcnt ([`crate::cpu::has_popcnt`]), for CPUs without the BMI set.
    #[cfg(target_arch = "x86_64")]
    popcnt: bool,
}

impl Evaluator {
    /// An evaluator with the evaluation weights of `params` and, if its `nnue` switch is on,
    /// the built-in network.
    pub fn new(params: &Params) -> Self {
        Self::with_network(params, None)
    }

    /// [`Evaluator::new`] with `network` (`None`: the built-in one) when the `nnue` switch
    /// is on.
    pub fn with_network(params: &Params, network: Option<&'static nnue::Network>) -> Self {
        let mut weights: Box<Weights> = Box::new([[0; 2]; TOTAL_FEATURES]);
        for (feature, w) in weights.iter_mut().enumerate() {
            let (mg, eg) = params::feature_params(feature);
            *w = [params.get(mg), params.get(eg)];
        }
        let piece_squares = incremental::PieceSquareTable::new(&weights);
        Evaluator {
            weights: sink::packed(&weights),
            piece_squares,
            scales: scales(params),
            network: (params.get(params::search::NNUE) != 0)
                .then(|| network.unwrap_or_else(nnue::embedded)),
            #[cfg(target_arch = "x86_64")]
            bit_instructions: crate::cpu::has_bit_instructions(),
            #[cfg(target_arch = "x86_64")]
            popcnt: crate::cpu::has_popcnt(),
        }
    }

    /// Evaluation in centipawns from White's view. Allocation-free.
    pub fn evaluate_white(&self, pos: &Chess) -> i32 {
        self.finish::<true>(pos, Packed::default(), None)
    }

    /// [`Evaluator::evaluate_white`] given the material and piece-square sums of `pos`
    /// (kept up to date by [`Evaluator::piece_squares_after`]), so that only the other terms
    /// are computed. Exactly equal to `evaluate_white(pos)`.
    pub fn evaluate_white_with(&self, pos: &Chess, sums: PieceSquares) -> i32 {
        self.evaluate_white_sums(pos, sums, None)
    }

    /// [`Evaluator::evaluate_white_with`] taking the pawn-structure terms from `pawns`, a
    /// cache filled with this evaluator's weights. Exactly equal to `evaluate_white(pos)`.
    pub fn evaluate_white_cached(
        &self,
        pos: &Chess,
        sums: PieceSquares,
        pawns: &mut PawnCache,
    ) -> i32 {
        self.evaluate_white_sums(pos, sums, Some(pawns))
    }

    #[inline(always)]
    fn evaluate_white_sums(
        &self,
        pos: &Chess,
        sums: PieceSquares,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        // Pawnless boards may be dead draws or K+X vs K, evaluated by their own rules.
        if pos.board().pawns().is_empty() {
            return self.evaluate_white(pos);
        }
        self.finish::<false>(pos, sums.0, pawns)
    }

    /// Adds the features of `pos` to `sums` (through a [`WeightSink`] looking the pawn terms
    /// up in `pawns`, if any) and blends them by phase. The sink is built inside the copy
    /// compiled for the CPU, not passed to it: a sink passed in lived in memory there, and
    /// the evaluation cost 4 % more.
    #[inline(always)]
    fn finish<const PIECE_SQUARES: bool>(
        &self,
        pos: &Chess,
        sums: Packed,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        // The evaluation counts squares (mobility, king zone, phase) dozens of times and
        // masks and walks bitboards throughout, and the baseline x86-64 target has neither
        // popcnt nor the BMI instructions (`andn`, `blsr`, shifts by a register without `cl`):
        // this copy, compiled with them, is taken when the CPU has them.
        #[cfg(target_arch = "x86_64")]
        {
            if self.bit_instructions {
                // SAFETY: the CPU supports these instructions, as `new` checked.
                return unsafe { self.finish_bit_instructions::<PIECE_SQUARES>(pos, sums, pawns) };
            }
            if self.popcnt {
                // SAFETY: the CPU supports popcnt, as `new` checked.
                return unsafe { self.finish_popcnt::<PIECE_SQUARES>(pos, sums, pawns) };
            }
            self.finish_without_bit_instructions::<PIECE_SQUARES>(pos, sums, pawns)
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.finish_portable::<PIECE_SQUARES>(pos, sums, pawns)
    }

    /// The evaluation on an x86-64 CPU without them: out of line, so that its code does not
    /// sit in the callers' hot code.
    #[cfg(target_arch = "x86_64")]
    #[cold]
    #[inline(never)]
    fn finish_without_bit_instructions<const PIECE_SQUARES: bool>(
        &self,
        pos: &Chess,
        sums: Packed,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        self.finish_portable::<PIECE_SQUARES>(pos, sums, pawns)
    }

    /// The evaluation on an x86-64 CPU with popcnt but not the BMI set (which counts squares
    /// dozens of times a call): out of line, like the portable copy.
    #[cfg(target_arch = "x86_64")]
    #[cold]
    #[inline(never)]
    #[target_feature(enable = "popcnt")]
    fn finish_popcnt<const PIECE_SQUARES: bool>(
        &self,
        pos: &Chess,
        sums: Packed,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        self.finish_portable::<PIECE_SQUARES>(pos, sums, pawns)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn finish_bit_instructions<const PIECE_SQUARES: bool>(
        &self,
        pos: &Chess,
        sums: Packed,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        self.finish_portable::<PIECE_SQUARES>(pos, sums, pawns)
    }

    #[inline(always)]
    fn finish_portable<const PIECE_SQUARES: bool>(
        &self,
        pos: &Chess,
        sums: Packed,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        let mut sink = WeightSink::<PIECE_SQUARES> {
            weights: &self.weights,
            sums,
            pawns,
        };
        extract(pos, &mut sink);
        let phase = phase(pos);
        // Truncation toward zero keeps a position and its colour-flipped mirror exact negatives.
        let (mg, eg) = (sink.sums.mg(), sink.sums.eg());
        // Scaled and blended in one division, so that the result is the trace's value
        // truncated once (and exactly the unscaled formula at 100 %).
        let percent = self.scales.percent(pos.board(), eg);
        (mg * phase * 100 + eg * percent * (PHASE_MAX - phase)) / (PHASE_MAX * 100)
    }

    /// The network that evaluates, if the `nnue` switch is on.
    #[inline]
    pub fn network(&self) -> Option<&'static nnue::Network> {
        self.network
    }

    /// The network's evaluation of `pos`, the position at `ply` of `accumulators`, from the
    /// side to move's view, where the network evaluates: not in pawnless endings that the
    /// terms' own rules score (dead draws, mating a lone king), where this returns `None`
    /// (and leaves the accumulators as they are).
    #[inline]
    pub fn evaluate_network(
        &self,
        net: &nnue::Network,
        pos: &Chess,
        accumulators: &mut nnue::AccumulatorStack,
        ply: usize,
    ) -> Option<i32> {
        let board = pos.board();
        if board.pawns().is_empty()
            && (mating::is_dead_draw(board) || mating::lone_king_winner(board).is_some())
        {
            return None;
        }
        Some(accumulators.evaluate(net, ply, pos.turn(), nnue::OutputBucket::of(board)))
    }

    /// The material and piece-square sums of `pos`, from scratch.
    pub fn piece_squares(&self, pos: &Chess) -> PieceSquares {
        self.piece_squares.of(pos.board())
    }

    /// The sums after playing the legal move `m` in `pos`, whose sums are `sums`.
    #[inline]
    pub fn piece_squares_after(&self, pos: &Chess, sums: PieceSquares, m: Move) -> PieceSquares {
        self.piece_squares.after(pos.turn(), sums, m)
    }

    /// [`Evaluator::evaluate_white_with`] from the side to move's view.
    pub fn evaluate_with(&self, pos: &Chess, sums: PieceSquares) -> i32 {
        let white = self.evaluate_white_with(pos, sums);
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }

    /// [`Evaluator::evaluate_white_cached`] from the side to move's view.
    pub fn evaluate_cached(&self, pos: &Chess, sums: PieceSquares, pawns: &mut PawnCache) -> i32 {
        let white = self.evaluate_white_cached(pos, sums, pawns);
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }

    /// Evaluation in centipawns from the side to move's view.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        let white = self.evaluate_white(pos);
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }
}
