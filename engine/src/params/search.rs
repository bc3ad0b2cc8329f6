//! Search parameters: the knobs of the quiescence search and the on/off switches of the
//! search features. Each has a constant id so the search reads it without a name lookup.

use super::{ParamId, ParamKind, ParamSpec, Taper, ValueType};

/// First id of the search parameters (after every evaluation parameter).
pub const BASE: ParamId = 2 * super::TAPERED_FEATURES + super::FLAT_FEATURES;

macro_rules! search_params {
    ($( $(#[$doc:meta])* $id:ident = ($name:literal, $ty:ident, $default:expr, $min:expr, $max:expr); )*) => {
        search_params!(@ids BASE; $( $(#[$doc])* $id, )*);

        /// Specifications of the search parameters, in id order.
        pub(super) fn specs() -> Vec<ParamSpec> {
            vec![$(ParamSpec {
                name: $name.to_string(),
                default: $default,
                min: $min,
                max: $max,
                kind: ParamKind::Search,
                taper: Taper::Flat,
                value_type: ValueType::$ty,
                table: false,
            },)*]
        }
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

search_params! {
    /// Quiescence search: margin (cp) added to a capture's gain before delta pruning.
    DELTA_MARGIN = ("delta_margin", Spin, 200, 0, 2000);
    /// Quiescence search: maximum plies below the horizon.
    QSEARCH_DEPTH = ("qsearch_depth", Spin, 16, 0, 64);
    /// Quiescence search: how many of its first plies also search quiet checking moves
    /// (0 = captures and promotions only).
    QSEARCH_CHECK_PLIES = ("qsearch_check_plies", Spin, 1, 0, 16);
    /// Skip captures that lose material by static exchange evaluation.
    SEE_PRUNING = ("see_pruning", Check, 1, 0, 1);
    /// Extend the search by one ply when the side to move is in check.
    CHECK_EXTENSION = ("check_extension", Check, 1, 0, 1);
    /// Cut off when no mate shorter than one already found is possible.
    MATE_DISTANCE_PRUNING = ("mate_distance_pruning", Check, 1, 0, 1);
    /// Null-move pruning.
    NULL_MOVE = ("null_move", Check, 1, 0, 1);
    /// Null-move depth reduction (plies).
    NULL_MOVE_REDUCTION = ("null_move_reduction", Spin, 3, 1, 6);
    /// Late-move reductions.
    LMR = ("lmr", Check, 1, 0, 1);
    /// LMR: constant part of the reduction, in hundredths of a ply.
    LMR_BASE = ("lmr_base", Spin, 75, 0, 300);
    /// LMR: divisor of ln(depth)·ln(move number), in hundredths.
    LMR_DIVISOR = ("lmr_divisor", Spin, 225, 100, 1000);
    /// Reverse futility pruning (static null move) at shallow depth.
    REVERSE_FUTILITY = ("reverse_futility", Check, 1, 0, 1);
    /// Reverse futility margin per ply of depth (cp).
    REVERSE_FUTILITY_MARGIN = ("reverse_futility_margin", Spin, 80, 0, 1000);
    /// Deepest remaining depth (plies) at which reverse futility pruning applies.
    REVERSE_FUTILITY_DEPTH = ("reverse_futility_depth", Spin, 6, 1, 16);
    /// Half-width of the aspiration window at the root (cp, 0 = full window).
    ASPIRATION_WINDOW = ("aspiration_window", Spin, 30, 0, 1000);
}
