//! Search parameters: the knobs of the quiescence search, the pruning margins and the on/off
//! switches of the search features; also the evaluation's endgame scale factors (`scale_*`),
//! which multiply a sum rather than weigh a feature, so that the Texel tuner holds them fixed
//! while SPSA can tune them like any knob here.
//!
//! Each knob is declared once, in [`search_params!`] below: that one line gives its constant
//! id (so the search reads it without a name lookup), its [`ParamSpec`] (name, default, range,
//! UCI type, SPSA step), and its typed field in [`Knobs`], the plain struct the search's hot
//! path reads.

use super::{ParamId, ParamKind, ParamSpec, Params, SpsaStep, Taper, ValueType};

/// First id of the search parameters (after every evaluation parameter).
pub const BASE: ParamId = 2 * super::TAPERED_FEATURES + super::FLAT_FEATURES;

/// Registry group of the numeric search knobs (`--params search`).
pub const GROUP: &str = "search";
/// Registry group of the on/off switches of search features (`--params switches`).
pub const SWITCH_GROUP: &str = "switches";

/// A Rust type a knob can have in [`Knobs`], and how it is stored in the integer registry.
pub(crate) trait KnobValue: Copy {
    const VALUE_TYPE: ValueType;
    fn encode(self) -> i32;
    fn decode(stored: i32) -> Self;
}

impl KnobValue for i32 {
    const VALUE_TYPE: ValueType = ValueType::Spin;
    fn encode(self) -> i32 {
        self
    }
    fn decode(stored: i32) -> Self {
        stored
    }
}

/// Counts (plies, numbers of moves); negative stored values read as 0.
impl KnobValue for usize {
    const VALUE_TYPE: ValueType = ValueType::Spin;
    fn encode(self) -> i32 {
        i32::try_from(self).unwrap_or(i32::MAX)
    }
    fn decode(stored: i32) -> Self {
        stored.max(0) as usize
    }
}

impl KnobValue for bool {
    const VALUE_TYPE: ValueType = ValueType::Check;
    fn encode(self) -> i32 {
        i32::from(self)
    }
    fn decode(stored: i32) -> Self {
        stored != 0
    }
}

/// Declares the search knobs. One entry:
/// `ID field: type = default, [min, max], c_end C, r_end R;`
/// where the parameter's name is `field`, `ID` is its constant id (the name in capitals,
/// checked by a test), `type` is `i32`, `usize` or `bool` (a UCI check), and `C`, `R` are its
/// SPSA step at the end of a tune (OpenBench's `c_end`, `r_end`; see `docs/spsa.md`).
macro_rules! search_params {
    ($(
        $(#[$doc:meta])*
        $id:ident $field:ident : $ty:ty = $default:expr, [$min:expr, $max:expr],
            c_end $c_end:expr, r_end $r_end:expr;
    )*) => {
        search_params!(@ids BASE; $( $(#[$doc])* $id, )*);

        /// Specifications of the search parameters, in id order.
        pub(super) fn specs() -> Vec<ParamSpec> {
            vec![$({
                let value_type = <$ty as KnobValue>::VALUE_TYPE;
                ParamSpec {
                    name: stringify!($field).to_string(),
                    default: <$ty as KnobValue>::encode($default),
                    min: $min,
                    max: $max,
                    kind: ParamKind::Search,
                    taper: Taper::Flat,
                    value_type,
                    table: false,
                    group: match value_type {
                        ValueType::Check => SWITCH_GROUP,
                        ValueType::Spin => GROUP,
                    },
                    spsa: SpsaStep { c_end: $c_end, r_end: $r_end },
                }
            },)*]
        }

        /// The search knobs, read once from [`Params`] into typed fields for the hot path.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct Knobs {
            $( $(#[$doc])* pub $field: $ty, )*
        }

        impl Knobs {
            pub(crate) fn new(params: &Params) -> Self {
                Knobs { $( $field: <$ty as KnobValue>::decode(params.get($id)), )* }
            }
        }

        /// Each constant id with the name it was declared with, for the test that they agree.
        #[cfg(test)]
        const DECLARED: &[(&str, ParamId)] = &[$( (stringify!($id), $id), )*];
    };
    (@ids $next:expr; $(#[$doc:meta])* $id:ident, $($rest:tt)*) => {
        $(#[$doc])*
        pub const $id: ParamId = $next;
        search_params!(@ids $next + 1; $($rest)*);
    };
    (@ids $next:expr;) => {
        /// One past the last parameter id.
        pub const END: ParamId = $next;
    };
}

// SPSA steps. `c_end` is the perturbation still applied at the end of a tune: large enough
// that θ ± c_end plays measurably differently at fast time controls, small next to the range
// of values worth trying (OpenBench's rule of thumb is about (max - min) / 20 of that range,
// not of the declared limits, which are only sanity bounds). `r_end` is OpenBench's default
// 0.002 throughout: with a = r_end·c_end², the last steps move θ by about
// r_end·c_end·(W - L) per iteration. On/off switches get the smallest integer step, 0.5,
// so SPSA rounds θ ± 0.5 to a random neighbour.
// The numeric defaults tuned by play are those of the last SPSA of them, docs/strength.md
// row 113 (input docs/spsa-runs/search-828344.txt), unless a later row says otherwise.
search_params! {
    /// Quiescence search: margin (cp) added to a capture's gain before delta pruning.
    /// Useful values lie within 50..450: c_end 20.
    DELTA_MARGIN delta_margin: i32 = 227, [0, 2000], c_end 20.0, r_end 0.002;
    /// Quiescence search: maximum plies below the horizon. Values below 4 or above 20 hardly
    /// differ from their neighbours: c_end 2.
    QSEARCH_DEPTH qsearch_depth: usize = 16, [0, 64], c_end 2.0, r_end 0.002;
    /// Quiescence search: how many of its first plies also search quiet checking moves
    /// (0 = captures and promotions only). Each ply costs much: c_end 1.
    QSEARCH_CHECK_PLIES qsearch_check_plies: usize = 1, [0, 16], c_end 1.0, r_end 0.002;
    /// Skip captures that lose material by static exchange evaluation.
    SEE_PRUNING see_pruning: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Extend the search by one ply when the side to move is in check.
    CHECK_EXTENSION check_extension: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// With `check_extension`: a checking move that loses material by SEE is not extended
    /// (its child takes the extension back), as Stockfish did for years. On since
    /// `docs/strength.md` row 137 (with `pawn_history`).
    CHECK_EXTENSION_SEE check_extension_see: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Cut off when no mate shorter than one already found is possible.
    MATE_DISTANCE_PRUNING mate_distance_pruning: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Null-move pruning.
    NULL_MOVE null_move: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Null-move depth reduction (plies). A narrow range, 1..6: c_end 0.5, the integer minimum.
    NULL_MOVE_REDUCTION null_move_reduction: i32 = 3, [1, 6], c_end 0.5, r_end 0.002;
    /// The null move is reduced one ply more per this many plies of depth (Stockfish: 3).
    /// c_end 1.
    NULL_MOVE_DEPTH_DIVISOR null_move_depth_divisor: i32 = 11, [2, 64], c_end 1.0, r_end 0.002;
    /// Late-move reductions.
    LMR lmr: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR: constant part of the reduction, in hundredths of a ply. Useful within 0..200:
    /// c_end 10 (a tenth of a ply).
    LMR_BASE lmr_base: i32 = 100, [0, 300], c_end 10.0, r_end 0.002;
    /// LMR: divisor of ln(depth)·ln(move number), in hundredths. Useful within 150..400:
    /// c_end 15.
    LMR_DIVISOR lmr_divisor: i32 = 139, [100, 1000], c_end 15.0, r_end 0.002;
    /// LMR: moves before this one in the list (0-based) are never reduced. 2: the first two
    /// moves are searched at full depth; Stockfish reduces from the second (1).
    LMR_MIN_INDEX lmr_min_index: i32 = 2, [1, 8], c_end 0.5, r_end 0.002;
    /// LMR: plies less reduction for a quiet move that takes a piece off a square the enemy
    /// attacks to one it does not (with `history_threats`, whose attack map it reads; 0 = off),
    /// as Stockfish once reduced moves escaping a capture less. 1 since `docs/strength.md`
    /// row 150 (with `lmr_threat_move`).
    LMR_ESCAPE lmr_escape: i32 = 1, [0, 2], c_end 0.5, r_end 0.002;
    /// LMR: plies less reduction for a quiet move that attacks, from its target square, an
    /// enemy piece worth more than the mover (`search/threats.rs`; 0 = off), as Seer,
    /// Koivisto and BlackMarlin reduce threatening moves less. 1 since `docs/strength.md`
    /// row 150 (with `lmr_escape`).
    LMR_THREAT_MOVE lmr_threat_move: i32 = 1, [0, 2], c_end 0.5, r_end 0.002;
    /// Reverse futility pruning (static null move) at shallow depth.
    REVERSE_FUTILITY reverse_futility: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Reverse futility margin per ply of depth (cp). Useful within 40..200: c_end 8.
    REVERSE_FUTILITY_MARGIN reverse_futility_margin: i32 = 51, [0, 1000], c_end 8.0, r_end 0.002;
    /// Deepest remaining depth (plies) at which reverse futility pruning applies. Useful
    /// within 3..12: c_end 1.
    REVERSE_FUTILITY_DEPTH reverse_futility_depth: i32 = 9, [1, 16], c_end 1.0, r_end 0.002;
    /// Reverse futility pruning: plies of depth more in its margin when a piece of the side to
    /// move stands attacked by a lesser enemy piece (`search/threats.rs`), whose loss the
    /// static evaluation does not see (0 = off). 1 since `docs/strength.md` row 151. c_end 0.5.
    RFP_THREAT_PLIES rfp_threat_plies: i32 = 1, [0, 4], c_end 0.5, r_end 0.002;
    /// Futility pruning: at shallow depth in non-PV nodes, skip quiet moves that do not give
    /// check when the static evaluation plus a margin stays at or below alpha.
    FUTILITY futility: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Futility pruning: deepest remaining depth (plies) where it applies. Useful within
    /// 3..10: c_end 1.
    FUTILITY_DEPTH futility_depth: i32 = 6, [1, 32], c_end 1.0, r_end 0.002;
    /// Futility pruning: constant part of the margin (cp). Useful within 0..250: c_end 12.
    FUTILITY_BASE futility_base: i32 = 45, [0, 2000], c_end 12.0, r_end 0.002;
    /// Futility pruning: margin per ply of depth (cp). Useful within 40..200: c_end 8.
    FUTILITY_MARGIN futility_margin: i32 = 72, [0, 1000], c_end 8.0, r_end 0.002;
    /// Where futility pruning applies (`futility` on, alpha not a mate score): futility and
    /// quiet SEE pruning count a late quiet move's (the third or later) depth after its
    /// late-move reduction (Stockfish's lmrDepth, at least 1) instead of the node's: the
    /// later the move, the smaller the margin, and deeper nodes' late moves come within
    /// `futility_depth`. Won +5.8 Elo at 20,000 nodes (docs/strength.md row 130).
    FUTILITY_LMR_DEPTH futility_lmr_depth: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// With `futility_lmr_depth`: a late quiet move below the killers counts one ply deeper
    /// per `futility_history_divisor` of its history score (shallower when negative, still at
    /// least 1), as its late-move reduction is one ply less (Stockfish's lmrDepth plus
    /// history); 0 = off. Flat at 8000 and 20,000 nodes (docs/strength.md row 132). Useful
    /// within 3000..30000: c_end 1500.
    FUTILITY_HISTORY_DIVISOR futility_history_divisor: i32 = 0, [0, 100000], c_end 1500.0, r_end 0.002;
    /// Futility pruning of captures: where quiet moves are futile (the same depths), a capture
    /// that gives no check is not tried when the captured piece's value and this margin (cp)
    /// on top of the quiet moves' margin still leave the pruning evaluation at or below
    /// alpha (0 = off); 150 won at 5,000 nodes (docs/strength.md row 91), 207 is row 113's
    /// SPSA. Useful within 0..400: c_end 20.
    CAPTURE_FUTILITY_MARGIN capture_futility_margin: i32 = 207, [0, 2000], c_end 20.0, r_end 0.002;
    /// Main search: in non-PV nodes at shallow depth, skip moves that lose material by
    /// static exchange evaluation (quiet moves by more than `main_see_quiet_margin`·depth, for
    /// a late quiet move its reduced depth where `futility_lmr_depth` acts; captures by more
    /// than `main_see_capture_margin`·depth²).
    MAIN_SEE_PRUNING main_see_pruning: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Main-search SEE pruning: deepest remaining depth (plies) where it applies. Useful
    /// within 3..10: c_end 1.
    MAIN_SEE_DEPTH main_see_depth: i32 = 8, [1, 32], c_end 1.0, r_end 0.002;
    /// Main-search SEE pruning of quiet moves: allowed loss per ply (cp). Useful within
    /// 20..120: c_end 6.
    MAIN_SEE_QUIET_MARGIN main_see_quiet_margin: i32 = 42, [0, 1000], c_end 6.0, r_end 0.002;
    /// Main-search SEE pruning of captures: allowed loss per ply squared (cp). Useful within
    /// 5..60: c_end 3.
    MAIN_SEE_CAPTURE_MARGIN main_see_capture_margin: i32 = 33, [0, 1000], c_end 3.0, r_end 0.002;
    /// Half-width of the aspiration window at the root (cp, 0 = full window). Useful within
    /// 10..100: c_end 5.
    ASPIRATION_WINDOW aspiration_window: i32 = 13, [0, 1000], c_end 5.0, r_end 0.002;
    /// Aspiration: each fail high at the root re-searches one ply shallower than the last
    /// (at least one ply, never below half the iteration's depth), and a fail low restores the
    /// full depth: a score above the window is usually confirmed cheaply, and the full
    /// depth follows in the next iteration (Stockfish's `failedHighCnt`). Won +16.8 Elo at
    /// 20,000 nodes (docs/strength.md row 127).
    ASPIRATION_FAIL_HIGH_REDUCTION aspiration_fail_high_reduction: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Late-move pruning: in non-PV nodes at shallow depth, once `lmp_base` + depth² moves
    /// have been tried, skip the remaining quiet moves that give no check.
    LMP lmp: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Late-move pruning: deepest remaining depth (plies) where it applies. Useful within
    /// 1..8: c_end 1.
    LMP_DEPTH lmp_depth: i32 = 6, [1, 32], c_end 1.0, r_end 0.002;
    /// Late-move pruning: moves always tried, before depth². Useful within 0..12: c_end 1.
    LMP_BASE lmp_base: i32 = 3, [0, 64], c_end 1.0, r_end 0.002;
    /// Time management with a clock: the soft deadline (no new iteration after it) grows
    /// while the best move changes or the score falls, and shrinks once the best move has
    /// stayed the same for several iterations. No effect on `movetime`, `nodes` or `depth`.
    TIME_STABILITY time_stability: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Soft deadline, in percent of the clock's share, right after the best move changed.
    /// Useful within 100..250: c_end 10.
    TIME_UNSTABLE_PERCENT time_unstable_percent: i32 = 150, [50, 400], c_end 10.0, r_end 0.002;
    /// Soft deadline, in percent of the clock's share, once the best move has stayed the same
    /// for `time_stable_iterations` iterations. Useful within 40..100: c_end 5.
    TIME_STABLE_PERCENT time_stable_percent: i32 = 65, [10, 200], c_end 5.0, r_end 0.002;
    /// Iterations with the same best move after which it counts as fully stable (the
    /// percentage moves linearly from unstable to stable). Useful within 2..10: c_end 1.
    TIME_STABLE_ITERATIONS time_stable_iterations: i32 = 6, [1, 30], c_end 1.0, r_end 0.002;
    /// Extra soft deadline, in percent, when the score fell by 100 cp or more since the last
    /// iteration (proportionally less for smaller falls). Useful within 0..150: c_end 10.
    TIME_SCORE_DROP_PERCENT time_score_drop_percent: i32 = 60, [0, 400], c_end 10.0, r_end 0.002;
    /// Continuation history: quiet moves also ordered by their history after the moves one
    /// and two plies before (moving piece and target square of each), and reduced by LMR by
    /// one ply less per `lmr_history_divisor` of their history score (one more when negative).
    CONT_HISTORY cont_history: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Continuation history also by the move four plies before (the side to move's own
    /// move before last), in ordering and updates alike.
    CONT_HISTORY_4 cont_history_4: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Pawn history: quiet moves also ordered (and reduced) by a history of their piece and
    /// target square under the same pawn structure (512 structures by a hash). On since
    /// `docs/strength.md` row 137 (with `check_extension_see`).
    PAWN_HISTORY pawn_history: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Threat-indexed butterfly history: a quiet move's history is kept apart by whether the
    /// enemy attacks its origin and whether it attacks its target (four tables a side), so that
    /// a piece escaping an attack and one walking into it learn separately. On since
    /// `docs/strength.md` row 144.
    HISTORY_THREATS history_threats: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Continuation history taught by LMR's re-searches (Stockfish's post-LMR update): a
    /// reduced quiet move whose reduced search failed high is re-searched at full depth, and
    /// that result moves its continuation histories by a cut-off's bonus at the re-search's
    /// depth, up if it reached beta, down if it fell to alpha or below. Needs `cont_history`.
    LMR_CONT_UPDATE lmr_cont_update: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR: history score worth one ply of reduction, with `cont_history`. Useful within
    /// 4000..30000: c_end 1500.
    LMR_HISTORY_DIVISOR lmr_history_divisor: i32 = 16868, [1000, 100000], c_end 1500.0, r_end 0.002;
    /// History bonus (and malus) per ply of depth for the quiet move that cut off (and the
    /// quiet moves tried before it): `history_bonus_per_ply`·depth − `history_bonus_per_ply`/2,
    /// at most `history_bonus_max`. An entry moves by 32·bonus, less its own value times
    /// bonus/512 (it saturates at ±16384), so a bonus of 5 moves it by about 1 % of the way.
    /// Useful within 4..16: c_end 1.
    HISTORY_BONUS_PER_PLY history_bonus_per_ply: i32 = 9, [1, 64], c_end 1.0, r_end 0.002;
    /// History bonus: the cap (see `history_bonus_per_ply`). Useful within 60..300: c_end 10.
    HISTORY_BONUS_MAX history_bonus_max: i32 = 160, [1, 512], c_end 10.0, r_end 0.002;
    /// History malus: the quiet moves tried before a quiet cut-off lose this percent of the
    /// cut-off's bonus (100 = as much as it gains; Stockfish's malus has outgrown its bonus).
    /// Useful within 50..200: c_end 10.
    HISTORY_MALUS_PERCENT history_malus_percent: i32 = 100, [0, 400], c_end 10.0, r_end 0.002;
    /// History bonus: a cut-off whose score clears beta by more than this many centipawns is
    /// rewarded (and the moves before it penalised) as if a ply deeper, as Stockfish's
    /// `stat_bonus(depth + (bestValue > beta + margin))` (0 = off). Useful within 50..300:
    /// c_end 10.
    HISTORY_OVERSHOOT_MARGIN history_overshoot_margin: i32 = 0, [0, 1000], c_end 10.0, r_end 0.002;
    /// History by the evaluation's change: the opponent's quiet move that led to a node
    /// (both it and its parent evaluated statically) gains in the butterfly history the
    /// swing it caused in its side's favour (the sum of the two static evaluations, negated),
    /// divided by this, within ±`history_bonus_max` (0 = off); 2 with `fail_low_prior_bonus`
    /// 100 won +22.3 Elo at 5,000 nodes and +13.5 at 20,000 (docs/strength.md rows 115-116).
    /// Useful within 1..8: c_end 1.
    EVAL_HISTORY_DIVISOR eval_history_divisor: i32 = 2, [0, 64], c_end 1.0, r_end 0.002;
    /// Fail-low reward of the previous move: a node that fails low (no move reaches alpha)
    /// rewards the opponent's quiet move that led to it, in the butterfly and continuation
    /// histories, by this percentage of a cut-off's bonus at the node's depth (0 = off; as
    /// Stockfish's bonus to the prior quiet move); 100 with `eval_history_divisor` 2 won
    /// +22.3 Elo at 5,000 nodes (docs/strength.md row 115). Useful within 0..300: c_end 20.
    FAIL_LOW_PRIOR_BONUS fail_low_prior_bonus: i32 = 100, [0, 1000], c_end 20.0, r_end 0.002;
    /// Hindsight depth: a node searched with an LMR reduction of 3 plies or more goes a ply
    /// deeper when its static evaluation says its side stands no better than the opponent's
    /// evaluation a ply before (the reduction misjudged a live position); one of 2 or more
    /// goes a ply shallower when it stands better by more than `hindsight_margin` (as
    /// Stockfish's `priorReduction` adjustments).
    HINDSIGHT_DEPTH hindsight_depth: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Hindsight depth: how much better (cp, the two static evaluations' sum) a reduced node
    /// must stand to go a ply shallower. Useful within 50..300: c_end 15.
    HINDSIGHT_MARGIN hindsight_margin: i32 = 175, [0, 2000], c_end 15.0, r_end 0.002;
    /// Quiescence in check: once an evasion has scored above a mate, quiet evasions after
    /// this many are not tried (0 = all are; Stockfish stops after two). 2 passed its SPRT
    /// on a book that repeated (docs/strength.md, row 95); on one that does not, 2 and 0
    /// came out within about 4 Elo (rows 107-108), and 2 stays. Useful within 1..4: c_end 1.
    QSEARCH_EVASION_LIMIT qsearch_evasion_limit: usize = 2, [0, 64], c_end 1.0, r_end 0.002;
    /// Quiescence fail-high damping: a quiescence score at or above beta that is no mate is
    /// brought toward beta, to beta plus this percentage of its excess (100 = fail-soft,
    /// unchanged; Stockfish keeps 75 %, for the stand pat only in null windows), since a
    /// score far above beta from a static evaluation is seldom as good as it looks.
    /// Useful within 25..100: c_end 5.
    QSEARCH_FAIL_HIGH_PERCENT qsearch_fail_high_percent: i32 = 100, [0, 100], c_end 5.0, r_end 0.002;
    /// Fail-high damping in the main search: a node below the root whose best score reaches
    /// beta, neither it nor the window a mate, returns (score·depth + beta)/(depth + 1):
    /// shallow fail-highs, the least sure, are pulled the most toward beta (Stockfish's rule).
    FAIL_HIGH_DAMPING fail_high_damping: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Shuffling damping: the static evaluation times (this − the halfmove clock) / this,
    /// so that a lead fades as moves pass without a capture or pawn move, toward the draw the
    /// fifty-move rule will call, and the side ahead prefers progress (0 = off; Stockfish
    /// damps by (200 − clock)/214; 200 lost, docs/strength.md row 104). Useful within
    /// 100..1000: c_end 20.
    FIFTY_MOVE_SCALE fifty_move_scale: i32 = 0, [0, 1000], c_end 20.0, r_end 0.002;
    /// A repetition or fifty-move draw inside the search scores −1 or +1 by the node count
    /// instead of 0 (Stockfish's `value_draw`): a side can no longer count on every draw being
    /// worth exactly alpha, which blinds the search to the other moves of a drawn line.
    DRAW_JITTER draw_jitter: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Internal iterative reduction: a node at depth `iir_depth` or more without a table move
    /// is searched one ply shallower (its move ordering is a guess anyway).
    IIR iir: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Internal iterative reduction: shallowest depth (plies) where it applies. Useful within
    /// 2..8: c_end 1.
    IIR_DEPTH iir_depth: i32 = 4, [1, 32], c_end 1.0, r_end 0.002;
    /// In non-PV nodes, the static evaluation used for pruning is replaced by the table's
    /// score when the entry's bound says the true score lies beyond it on that side.
    TT_EVAL tt_eval: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Null move: one ply more reduction per `null_move_eval_divisor` cp of static
    /// evaluation above beta (at most 3).
    NULL_MOVE_EVAL null_move_eval: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Null move: static evaluation above beta (cp) worth one ply more reduction, with
    /// `null_move_eval`. Useful within 100..400: c_end 20.
    NULL_MOVE_EVAL_DIVISOR null_move_eval_divisor: i32 = 200, [50, 2000], c_end 20.0, r_end 0.002;
    /// Null move: not tried below this depth when a piece of the side to move stands attacked
    /// by a lesser enemy piece (`search/threats.rs`): passing would mostly hand over the
    /// capture, and the null search fails low at the cost of its nodes (0 = off; Koivisto
    /// uses 5). Useful within 3..8: c_end 1.
    NULL_MOVE_THREAT_DEPTH null_move_threat_depth: i32 = 0, [0, 64], c_end 1.0, r_end 0.002;
    /// Transposition table in the quiescence search: null-window cut-offs on any entry whose
    /// bound decides and that searched at least as many plies of quiet checks, the entry's
    /// move tried first, and the result stored below depth 0 (only over empty, stale or
    /// quiescence entries, so that it never evicts a main-search one). Entries carry the
    /// plies of quiet checks they searched, and delta-pruned fail-lows return the optimistic
    /// bound, so that a stored upper bound stays true for a lower alpha (docs/strength.md
    /// rows 20 and 25).
    QSEARCH_TT qsearch_tt: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Razoring: in non-PV nodes at depth `razor_depth` or less, when the static evaluation
    /// plus `razor_margin`·depth stays below alpha, a null-window quiescence search decides;
    /// the node fails low if that does.
    RAZORING razoring: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Razoring: deepest remaining depth (plies). Useful within 1..4: c_end 1.
    RAZOR_DEPTH razor_depth: i32 = 2, [1, 16], c_end 1.0, r_end 0.002;
    /// Razoring: margin per ply of depth (cp). Useful within 100..500: c_end 20.
    RAZOR_MARGIN razor_margin: i32 = 250, [0, 2000], c_end 20.0, r_end 0.002;
    /// History pruning: in non-PV nodes at depth `history_prune_depth` or less, after the
    /// first move, quiet moves whose history score is below −`history_prune_margin`·depth
    /// are skipped.
    HISTORY_PRUNING history_pruning: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// History pruning: deepest remaining depth (plies). Useful within 1..6: c_end 1.
    HISTORY_PRUNE_DEPTH history_prune_depth: i32 = 3, [1, 32], c_end 1.0, r_end 0.002;
    /// History pruning: history score per ply of depth below which a quiet move is skipped.
    /// The histories (butterfly plus two continuation tables) stay small in short searches:
    /// at 5,000 nodes a move 4000 prunes almost nothing, and 250 lost (docs/strength.md row
    /// 31). Useful within 100..4000: c_end 100.
    HISTORY_PRUNE_MARGIN history_prune_margin: i32 = 4000, [0, 100000], c_end 100.0, r_end 0.002;
    /// LMR: extra plies of reduction for quiet moves at expected cut nodes (non-PV nodes
    /// reached by a null-window search expected to fail high: the children of a reduced
    /// search, and every other ply below them). 0 = off (docs/strength.md row 32). Useful
    /// within 0..3: c_end 0.5.
    LMR_CUT_NODE lmr_cut_node: i32 = 1, [0, 4], c_end 0.5, r_end 0.002;
    /// LMR: extra plies of reduction for quiet moves when the node's first move, the table
    /// move, is a capture (the position is tactical; the quiet moves rarely matter). 0 = off;
    /// 1 won +18.5 Elo at 5,000 nodes (docs/strength.md row 34). Useful within 0..2: c_end 0.5.
    LMR_TT_CAPTURE lmr_tt_capture: i32 = 1, [0, 4], c_end 0.5, r_end 0.002;
    /// LMR: captures that lose material by SEE (ordered after the quiet moves) are reduced
    /// like quiet moves, without the history term.
    LMR_BAD_CAPTURES lmr_bad_captures: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Quiescence: the stand pat is the table's score instead of the static evaluation when
    /// the entry's bound says the true score lies beyond it on that side (as `tt_eval` does
    /// for the main search's pruning). Won +15.9 Elo at 20,000 nodes (docs/strength.md row
    /// 126; +2.9 undecided at 5,000, row 33).
    QSEARCH_TT_EVAL qsearch_tt_eval: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Correction history (`search/correction.rs`): the static evaluation plus what the
    /// searches of this game found it to be off by in positions with the same pawns and side
    /// to move, for pruning and the quiescence stand pat. On since `docs/strength.md` row 153
    /// (with `correction_nonpawn` 100).
    CORRECTION_HISTORY correction_history: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Correction history: the largest correction (cp) either way. Useful within 20..200:
    /// c_end 10.
    CORRECTION_MAX correction_max: i32 = 96, [0, 1000], c_end 10.0, r_end 0.002;
    /// Correction history: two more tables, keyed by each side's pieces other than pawns
    /// (with the side to move), as Stockfish's non-pawn correction histories; their mean is
    /// added to the pawn table's correction at this percent (0 = off). The sum stays within
    /// `correction_max`. 100 since `docs/strength.md` row 153 (lost at 5,000 nodes, row 117).
    /// c_end 10.
    CORRECTION_NONPAWN correction_nonpawn: i32 = 100, [0, 300], c_end 10.0, r_end 0.002;
    /// Correction history: one more table, keyed by both sides' knights, bishops and kings
    /// (Stockfish's minor-piece correction history), whose entry is added to the others'
    /// correction at this percent (0 = off). The sum stays within `correction_max`. 100
    /// since `docs/strength.md` row 157 (with `correction_residual`). c_end 10.
    CORRECTION_MINOR correction_minor: i32 = 100, [0, 300], c_end 10.0, r_end 0.002;
    /// Correction history: one more table, keyed by both sides' rooks, queens and kings
    /// (Stockfish's major-piece correction history of 2024), whose entry is added to the
    /// others' correction at this percent (0 = off). The sum stays within `correction_max`.
    /// 100 since `docs/strength.md` row 187. c_end 10.
    CORRECTION_MAJOR correction_major: i32 = 100, [0, 300], c_end 10.0, r_end 0.002;
    /// Correction history: one more table, keyed by how many pieces of each kind each side
    /// has, whose entry is added to the others' correction at this percent (0 = off). The
    /// sum stays within `correction_max`. c_end 10.
    CORRECTION_MATERIAL correction_material: i32 = 0, [0, 300], c_end 10.0, r_end 0.002;
    /// Correction history: one more table, keyed by the last two moves' pieces and target
    /// squares (Stockfish's continuation correction history), whose entry is added to the
    /// others' correction at this percent (0 = off). The sum stays within `correction_max`.
    /// 100 since `docs/strength.md` row 157 (with `correction_residual`; off at row 154
    /// without it). c_end 10.
    CORRECTION_CONTINUATION correction_continuation: i32 = 100, [0, 300], c_end 10.0, r_end 0.002;
    /// One more continuation correction table, keyed by the moves four plies back and one ply
    /// back (Stockfish reads it beside the two-ply one), whose entry is added to the others'
    /// correction at this percent (0 = off). c_end 10.
    CORRECTION_CONTINUATION_4 correction_continuation_4: i32 = 0, [0, 300], c_end 10.0, r_end 0.002;
    /// Correction history: how fast its entries learn, in percent of the update weights (a
    /// search of depth d moves an entry (d + 1)/256 of the way to its error at 100, at most
    /// 16/256). c_end 10.
    CORRECTION_RATE correction_rate: i32 = 100, [10, 800], c_end 10.0, r_end 0.002;
    /// Correction history: every table learns what the correction read as a whole still
    /// misses (the search's score less the corrected evaluation), as Stockfish's do, instead
    /// of each table learning the whole error on its own (with several tables the sum then
    /// counts the error more than once). With the pawn table alone the two are the same.
    /// On since `docs/strength.md` row 157 (with `correction_minor` and
    /// `correction_continuation` 100).
    CORRECTION_RESIDUAL correction_residual: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Singular extension: the table move is searched a ply deeper when a reduced search of
    /// the node without it fails low against the table's score less `singular_margin`·depth
    /// (it alone holds the score); when that search reaches beta instead, the node fails high
    /// (multi-cut). On since docs/strength.md row 118 (H1 at 20,000 nodes; flat at 5,000).
    SINGULAR_EXTENSION singular_extension: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// Singular extension: shallowest depth (plies) where it is tried. Useful within 4..10:
    /// c_end 1.
    SINGULAR_DEPTH singular_depth: i32 = 6, [2, 64], c_end 1.0, r_end 0.002;
    /// Singular extension: margin below the table's score, per ply of depth (cp). Useful
    /// within 1..8: c_end 0.5.
    SINGULAR_MARGIN singular_margin: i32 = 2, [0, 100], c_end 0.5, r_end 0.002;
    /// Singular extension, negative: when the search without the table move neither fails
    /// low nor reaches beta, the table move is searched a ply shallower if its own score is at
    /// least beta or the node is expected to fail high (other moves may do as well).
    SINGULAR_NEGATIVE singular_negative: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Singular extension, double: in non-PV nodes the table move is searched two plies
    /// deeper when the search without it fails low by this margin (cp) more; 0: never.
    /// Useful within 10..60: c_end 5.
    SINGULAR_DOUBLE_MARGIN singular_double_margin: i32 = 0, [0, 500], c_end 5.0, r_end 0.002;
    /// Singular extension, double: at most this many double extensions on a path from the
    /// root (they would otherwise lengthen a forced line without end). Useful within 2..12.
    SINGULAR_DOUBLE_LIMIT singular_double_limit: i32 = 6, [0, 64], c_end 1.0, r_end 0.002;
    /// ProbCut: in non-PV nodes at depth `probcut_depth` or more, captures that win at least
    /// `probcut_margin` over beta by SEE are tried first against that raised beta, by a
    /// quiescence search and then a search `probcut_reduction` plies shallower; the node fails
    /// high on the first that holds.
    PROBCUT probcut: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// ProbCut: shallowest depth (plies). Useful within 3..8: c_end 1.
    PROBCUT_DEPTH probcut_depth: i32 = 5, [2, 64], c_end 1.0, r_end 0.002;
    /// ProbCut: how far above beta (cp) the capture must hold. Useful within 100..400:
    /// c_end 15.
    PROBCUT_MARGIN probcut_margin: i32 = 200, [0, 2000], c_end 15.0, r_end 0.002;
    /// ProbCut: plies the verification search is reduced by, beyond the move's own ply.
    /// Useful within 2..5: c_end 1.
    PROBCUT_REDUCTION probcut_reduction: i32 = 3, [1, 16], c_end 1.0, r_end 0.002;
    /// The table's ProbCut (Stockfish's "small ProbCut"): a non-PV node whose table entry is
    /// a lower bound (or exact) this many cp or more above beta, searched at most
    /// `tt_probcut_depth` plies shallower, returns beta plus the margin without a search.
    /// 0 = off. Useful within 200..600: c_end 30.
    TT_PROBCUT_MARGIN tt_probcut_margin: i32 = 0, [0, 2000], c_end 30.0, r_end 0.002;
    /// The table's ProbCut: how many plies shallower than the node its entry may be.
    /// Useful within 2..6: c_end 1.
    TT_PROBCUT_DEPTH tt_probcut_depth: i32 = 4, [0, 16], c_end 1.0, r_end 0.002;
    /// LMR: extra plies of reduction for quiet moves in non-PV nodes that are not improving
    /// (static evaluation not above that of the same side's previous evaluated node, two or
    /// else four plies up). 0 = off; 1 won +5.6 Elo at 5,000 nodes (docs/strength.md row 51).
    /// Useful within 0..2: c_end 0.5.
    LMR_NOT_IMPROVING lmr_not_improving: i32 = 1, [0, 4], c_end 0.5, r_end 0.002;
    /// A table cut-off by a quiet move rewards that move as a searched cut-off would: killer,
    /// butterfly and continuation history (no malus: no other move was tried).
    TT_CUTOFF_HISTORY tt_cutoff_history: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Reverse futility pruning: the margin counts one ply less of depth when the node is
    /// improving (its static evaluation above the same side's before), so that a rising
    /// position is cut off sooner.
    RFP_IMPROVING rfp_improving: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Late-move pruning: percent of the move count kept when the node is not improving
    /// (100 = the same count either way); 67 won +12.8 Elo at 5,000 nodes against 100
    /// (docs/strength.md row 67), row 113's SPSA set 93. Useful within 40..100: c_end 6.
    LMP_NOT_IMPROVING_PERCENT lmp_not_improving_percent: i32 = 93, [25, 100], c_end 6.0, r_end 0.002;
    /// Reverse futility pruning returns the mean of the pruning evaluation and beta instead
    /// of the evaluation: a fail-soft score less far above beta than an estimate warrants.
    RFP_BLEND rfp_blend: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Reverse futility pruning spares the nodes the table marks as once on a principal
    /// variation (as Stockfish's does), whose static estimate is worth a search.
    RFP_TT_PV rfp_tt_pv: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR also reduces quiet moves that give check, one ply less than the others; won
    /// +6.2 Elo at 5,000 nodes against never reducing them (docs/strength.md row 70).
    LMR_CHECKS lmr_checks: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR re-search depth by the reduced search's margin: a reduced move that failed high
    /// is searched again a ply deeper when its score beat the node's best by more than
    /// `lmr_deeper_margin` + 2·depth, a ply shallower when by less than
    /// `lmr_shallower_margin` (a re-search that only confirms needs no full depth).
    LMR_RESEARCH_ADJUST lmr_research_adjust: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR re-search one ply deeper past this margin over the node's best (cp, plus 2 a
    /// ply of depth). Useful within 10..120: c_end 6.
    LMR_DEEPER_MARGIN lmr_deeper_margin: i32 = 43, [0, 1000], c_end 6.0, r_end 0.002;
    /// LMR re-search one ply shallower below this margin over the node's best (cp). Useful
    /// within 0..40: c_end 2.
    LMR_SHALLOWER_MARGIN lmr_shallower_margin: i32 = 8, [-100, 1000], c_end 2.0, r_end 0.002;
    /// LMR of killer moves: the killers are reduced too, one ply less than the other quiet
    /// moves (before: never reduced); won +7.0 Elo at 5,000 nodes (docs/strength.md row 82).
    LMR_KILLERS lmr_killers: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// LMR: plies more for a move whose sibling nodes (the children of this node and of its
    /// siblings, since their parent began) cut off more than `lmr_cutoff_threshold` times:
    /// their refutations come easily, as in an all-node (0 = off).
    LMR_CUTOFF_COUNT lmr_cutoff_count: i32 = 0, [0, 4], c_end 0.5, r_end 0.002;
    /// LMR: a ply less for the moves of a node reached by a late move, one with at least this
    /// many moves before it in its parent's list, pruned ones included (7 is Stockfish's
    /// `(ss-1)->moveCount > 7`). 0 = off; useful within 3..16: c_end 1.
    LMR_PARENT_LATE lmr_parent_late: i32 = 0, [0, 64], c_end 1.0, r_end 0.002;
    /// LMR by cut-off count: how many cut-offs among the children first count. Useful
    /// within 1..8: c_end 1.
    LMR_CUTOFF_THRESHOLD lmr_cutoff_threshold: usize = 3, [0, 64], c_end 1.0, r_end 0.002;
    /// Move ordering: a quiet move of a piece (not a pawn) gains this much on its history
    /// score when it leaves a square attacked by an enemy pawn, and loses as much when it
    /// goes to one (0 = off); 4,000 won +9.3 Elo at 5,000 nodes against 0 (docs/strength.md
    /// row 68), row 113's SPSA set 4,527. History scores stay within ±16,384; useful
    /// within 0..8,000: c_end 500.
    QUIET_PAWN_THREAT quiet_pawn_threat: i32 = 4527, [0, 16384], c_end 500.0, r_end 0.002;
    /// Move ordering, as `quiet_pawn_threat` for the major pieces: a quiet rook move gains
    /// this much when it leaves a square an enemy knight or bishop attacks and loses as much
    /// when it goes to one; a quiet queen move likewise for squares an enemy knight, bishop
    /// or rook attacks (0 = off). Adds to the pawn-threat term; 4,000 won +6.9 Elo at 5,000
    /// nodes against 0 (docs/strength.md row 73), row 113's SPSA set 4,071. Useful within
    /// 0..8,000: c_end 500.
    QUIET_PIECE_THREAT quiet_piece_threat: i32 = 4071, [0, 16384], c_end 500.0, r_end 0.002;
    /// Capture history: captures are ordered by MVV-LVA plus a history of their own (by
    /// moving piece, target square and captured role), rewarded when a capture cuts a node
    /// off and penalised when a capture searched before the cut-off move did not; won +8.0
    /// Elo at 5,000 nodes against plain MVV-LVA (docs/strength.md row 71).
    CAPTURE_HISTORY capture_history: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// The quiescence search orders its captures by the capture history too (as the main
    /// search does), instead of by MVV-LVA alone. Needs `capture_history`.
    QSEARCH_CAPTURE_HISTORY qsearch_capture_history: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// The capture history kept in two tables, by whether the enemy attacks the target
    /// square (the victim is defended) or not, as Ethereal does: a capture of a defended
    /// piece learns apart from one of a hanging piece. Uses `history_threats`' attack map of
    /// the node (made for this switch alone when `history_threats` is off).
    CAPTURE_HISTORY_THREATS capture_history_threats: bool = false, [0, 1], c_end 0.5, r_end 0.002;
    /// Quiet moves that give check gain this on their history score (0 = off). Useful
    /// within 0..8000 against histories of ±16,384: c_end 500.
    QUIET_CHECK_BONUS quiet_check_bonus: i32 = 0, [0, 16384], c_end 500.0, r_end 0.002;
    /// Counter move: the quiet move that last cut off after the opponent's previous move
    /// (by its piece and target square) gains this on its history score (0 = off); row 113's SPSA set 335. Useful
    /// within 0..16,384 against histories of ±16,384: c_end 1000.
    COUNTERMOVE_BONUS countermove_bonus: i32 = 335, [0, 65536], c_end 1000.0, r_end 0.002;
    /// LMR: the moves of a non-PV node that the table marks as having been on a principal
    /// variation are reduced this many plies less (0 = off); 1 won +7.8 Elo at 5,000 nodes
    /// (docs/strength.md row 86). c_end 0.5.
    LMR_TT_PV lmr_tt_pv: i32 = 1, [0, 3], c_end 0.5, r_end 0.002;
    /// LMR: a node whose static evaluation the correction history moved by this many cp or
    /// more (an evaluation the search keeps finding wrong here) reduces its moves a ply less
    /// per this many cp (0 = off; as Stockfish's reduction by the correction's size).
    /// c_end 5.
    LMR_CORRECTION lmr_correction: i32 = 0, [0, 500], c_end 5.0, r_end 0.002;
    /// Low-ply history, as Stockfish's: a butterfly table for each of the first four plies,
    /// learnt like the butterfly history but cleared before every search, so that the moves
    /// near the root are ordered by what this search found there. A quiet move's score gains
    /// this times its entry / (4 · (1 + ply)) (0 = off; 16 weighs an entry at the root four
    /// times the butterfly history's). c_end 2.
    LOW_PLY_HISTORY low_ply_history: i32 = 0, [0, 64], c_end 2.0, r_end 0.002;
    /// Reverse futility: where the opponent's last move worsened its own position (the
    /// static evaluations of this node and its parent, each from its side to move, sum
    /// above 2), the margin shrinks by this percent of one ply's margin (0 = off; Stockfish's
    /// `opponentWorsening`, a third of a ply). c_end 5.
    RFP_WORSENING_PERCENT rfp_worsening_percent: i32 = 0, [0, 100], c_end 5.0, r_end 0.002;
    /// The static evaluation uses the embedded NNUE (`engine/nets/default.nnue`, trained by
    /// `harness train-net` on self-play positions): a full network instead of the
    /// hand-written terms, a residual one (`train-net --residual`) added to them; pawnless
    /// endings against a lone king and dead draws keep their own rules.
    NNUE nnue: bool = true, [0, 1], c_end 0.5, r_end 0.002;
    /// With a residual network (`nnue` on), its correction is kept within ±this many
    /// centipawns (0 = unlimited): the hand-written evaluation stays in charge where the
    /// network, trained on few positions, strays far from it. c_end 10.
    NNUE_RESIDUAL_LIMIT nnue_residual_limit: i32 = 40, [0, 1000], c_end 10.0, r_end 0.002;
    /// With a residual network, the percent of its correction kept before the limit above
    /// applies (100 = all of it): a network that is right in direction more often than in
    /// size weighs in less. c_end 10.
    NNUE_RESIDUAL_PERCENT nnue_residual_percent: i32 = 100, [0, 200], c_end 10.0, r_end 0.002;
    /// The capture history's entry (within ±16,384) is divided by this before it is added
    /// to the MVV-LVA score (eight points per centipawn of the victim: 8 lets a full entry
    /// outweigh about 256 cp). c_end 2.
    CAPTURE_HISTORY_DIVISOR capture_history_divisor: i32 = 10, [4, 64], c_end 2.0, r_end 0.002;
    /// Endgame scaling (`eval/scale.rs`), percent of the endgame sum kept when each side's
    /// only piece is a bishop and they stand on opposite colours. Not a linear weight: the
    /// Texel tuner holds the `scale_*` factors fixed. 100 = no scaling. c_end 5.
    SCALE_OPPOSITE_BISHOPS scale_opposite_bishops: i32 = 50, [0, 100], c_end 5.0, r_end 0.002;
    /// Endgame scaling: percent kept when the side ahead has no pawns and at most one minor
    /// piece (it cannot mate). c_end 5.
    SCALE_LONE_MINOR scale_lone_minor: i32 = 0, [0, 100], c_end 5.0, r_end 0.002;
    /// Endgame scaling: percent kept when the side ahead has no pawns and leads by at most a
    /// bishop in pieces (KRKB, KRKN, KRBKR, ...). c_end 5.
    SCALE_PAWNLESS_SMALL_LEAD scale_pawnless_small_lead: i32 = 25, [0, 100], c_end 5.0, r_end 0.002;
    /// Endgame scaling: percent kept when the side ahead has only rook pawns on one file and
    /// no piece or a bishop of the wrong colour, and the defending king holds the corner.
    /// c_end 5.
    SCALE_ROOK_PAWN_CORNER scale_rook_pawn_corner: i32 = 10, [0, 100], c_end 5.0, r_end 0.002;
}

/// The endgame scale factors, in the order of `eval::ScaleClass` after `Normal` (a test in
/// `eval::scale` checks that each name matches its class).
pub const SCALE_FACTORS: [ParamId; 4] = [
    SCALE_OPPOSITE_BISHOPS,
    SCALE_LONE_MINOR,
    SCALE_PAWNLESS_SMALL_LEAD,
    SCALE_ROOK_PAWN_CORNER,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_id_is_its_name_in_capitals() {
        assert_eq!(DECLARED.len(), END - BASE);
        for &(id_name, id) in DECLARED {
            let spec = &super::super::specs()[id];
            assert_eq!(id_name, spec.name.to_uppercase(), "id {id}");
            assert_eq!(spec.kind, ParamKind::Search);
        }
    }

    #[test]
    fn knobs_read_each_field_from_its_parameter() {
        let mut params = Params::default();
        params.set(DELTA_MARGIN, 123).unwrap();
        params.set(QSEARCH_DEPTH, 7).unwrap();
        params.set(NULL_MOVE, 0).unwrap();
        params.set(LMR_DIVISOR, 300).unwrap();
        let knobs = Knobs::new(&params);
        assert_eq!(knobs.delta_margin, 123);
        assert_eq!(knobs.qsearch_depth, 7usize);
        assert!(!knobs.null_move);
        assert!(knobs.lmr);
        assert_eq!(knobs.lmr_divisor, 300);
        assert_eq!(Knobs::new(&Params::default()).aspiration_window, 13);
    }

    #[test]
    fn switches_are_checks_in_zero_one_and_every_step_is_positive() {
        for spec in specs() {
            if spec.value_type == ValueType::Check {
                assert_eq!((spec.min, spec.max), (0, 1), "{}", spec.name);
                assert_eq!(spec.group, SWITCH_GROUP);
            } else {
                assert_eq!(spec.group, GROUP);
            }
            assert!(
                spec.spsa.c_end > 0.0 && spec.spsa.r_end > 0.0,
                "{}",
                spec.name
            );
            let range = f64::from(spec.max - spec.min);
            assert!(spec.spsa.c_end <= (range / 4.0).max(0.5), "{}", spec.name);
        }
    }
}
