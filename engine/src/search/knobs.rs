//! The search parameters, read once from [`Params`] into plain fields for the hot path.

use crate::params::{Params, search};

/// Search settings taken from the parameter registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Knobs {
    pub delta_margin: i32,
    pub qsearch_depth: usize,
    pub qsearch_check_plies: usize,
    pub see_pruning: bool,
    pub check_extension: bool,
    pub mate_distance_pruning: bool,
    pub null_move: bool,
    pub null_move_reduction: i32,
    pub lmr: bool,
    pub reverse_futility: bool,
    pub reverse_futility_margin: i32,
    pub reverse_futility_depth: i32,
    pub aspiration_window: i32,
}

impl Knobs {
    pub(crate) fn new(params: &Params) -> Self {
        let on = |id| params.get(id) != 0;
        let count = |id| params.get(id).max(0) as usize;
        Knobs {
            delta_margin: params.get(search::DELTA_MARGIN),
            qsearch_depth: count(search::QSEARCH_DEPTH),
            qsearch_check_plies: count(search::QSEARCH_CHECK_PLIES),
            see_pruning: on(search::SEE_PRUNING),
            check_extension: on(search::CHECK_EXTENSION),
            mate_distance_pruning: on(search::MATE_DISTANCE_PRUNING),
            null_move: on(search::NULL_MOVE),
            null_move_reduction: params.get(search::NULL_MOVE_REDUCTION),
            lmr: on(search::LMR),
            reverse_futility: on(search::REVERSE_FUTILITY),
            reverse_futility_margin: params.get(search::REVERSE_FUTILITY_MARGIN),
            reverse_futility_depth: params.get(search::REVERSE_FUTILITY_DEPTH),
            aspiration_window: params.get(search::ASPIRATION_WINDOW),
        }
    }
}

/// Late-move reductions by remaining depth and move number:
/// `base + ln(depth) · ln(move number) / divisor` plies.
pub(crate) struct LmrTable {
    reductions: Box<[[u8; 64]; 64]>,
}

impl LmrTable {
    pub(crate) fn new(params: &Params) -> Self {
        let base = f64::from(params.get(search::LMR_BASE)) / 100.0;
        let divisor = f64::from(params.get(search::LMR_DIVISOR)) / 100.0;
        let mut reductions = Box::new([[0u8; 64]; 64]);
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                let value = base + (depth as f64).ln() * (index as f64).ln() / divisor;
                *r = value.clamp(0.0, 63.0) as u8;
            }
        }
        LmrTable { reductions }
    }

    #[inline]
    pub(crate) fn get(&self, depth: i32, index: usize) -> i32 {
        i32::from(self.reductions[(depth.max(0) as usize).min(63)][index.min(63)])
    }
}
