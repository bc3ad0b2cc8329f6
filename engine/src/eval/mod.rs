//! Static evaluation: tapered, and linear in the weights of [`crate::params`].
//!
//! [`trace`] lists, for a position, each feature's coefficient (White's pieces count +1,
//! Black's −1) and the game phase; [`EvalTrace::value`] of that trace with a parameter set
//! equals [`Evaluator::evaluate_white`] (before rounding). The tuner depends on this identity.

use shakmaty::{Chess, Color, Position, Role};

use crate::params::{self, FeatureId, Params, TOTAL_FEATURES, feature};

/// Phase of a position with all pieces on the board; 0 is a pawn ending.
pub const PHASE_MAX: i32 = 24;

/// One feature's coefficient in a position (White minus Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceTerm {
    pub feature: u16,
    pub coef: i16,
}

/// The evaluation of a position as coefficients of features.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalTrace {
    /// 0 (pawn ending) ..= [`PHASE_MAX`] (all pieces).
    pub phase: i32,
    /// Non-zero coefficients, at most one entry per feature.
    pub terms: Vec<TraceTerm>,
}

impl EvalTrace {
    /// The evaluation (White's view, centipawns, unrounded) this trace gives with `params`.
    pub fn value(&self, params: &Params) -> f64 {
        let phase = f64::from(self.phase);
        let max = f64::from(PHASE_MAX);
        self.terms
            .iter()
            .map(|t| {
                let (mg, eg) = params::feature_params(usize::from(t.feature));
                let w = if mg == eg {
                    f64::from(params.get(mg))
                } else {
                    (f64::from(params.get(mg)) * phase + f64::from(params.get(eg)) * (max - phase))
                        / max
                };
                f64::from(t.coef) * w
            })
            .sum()
    }
}

/// Game phase from the pieces on the board (knight and bishop 1, rook 2, queen 4).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    let count = |r: Role| board.by_role(r).count() as i32;
    let raw =
        count(Role::Knight) + count(Role::Bishop) + 2 * count(Role::Rook) + 4 * count(Role::Queen);
    raw.min(PHASE_MAX)
}

/// Writes the trace of `pos` into `out` (reusing its allocation).
pub fn trace(pos: &Chess, out: &mut EvalTrace) {
    let mut coefs = [0i32; TOTAL_FEATURES];
    accumulate(pos, &mut coefs);
    out.phase = phase(pos);
    out.terms.clear();
    for (f, &c) in coefs.iter().enumerate() {
        if c != 0 {
            out.terms.push(TraceTerm {
                feature: f as u16,
                coef: c as i16,
            });
        }
    }
}

// Placeholder feature extraction: material only. The full evaluation replaces this.
fn accumulate(pos: &Chess, coefs: &mut [i32; TOTAL_FEATURES]) {
    let board = pos.board();
    for (i, role) in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .into_iter()
    .enumerate()
    {
        let white = (board.by_role(role) & board.by_color(Color::White)).count() as i32;
        let black = (board.by_role(role) & board.by_color(Color::Black)).count() as i32;
        coefs[feature::MATERIAL + i] += white - black;
    }
}

/// Evaluates positions with one parameter set.
#[derive(Clone, Debug)]
pub struct Evaluator {
    mg: Box<[i32]>,
    eg: Box<[i32]>,
}

impl Evaluator {
    pub fn new(params: &Params) -> Self {
        let weight = |f: FeatureId, pick_eg: bool| {
            let (mg, eg) = params::feature_params(f);
            params.get(if pick_eg { eg } else { mg })
        };
        Evaluator {
            mg: (0..TOTAL_FEATURES).map(|f| weight(f, false)).collect(),
            eg: (0..TOTAL_FEATURES).map(|f| weight(f, true)).collect(),
        }
    }

    /// Evaluation in centipawns from White's view.
    pub fn evaluate_white(&self, pos: &Chess) -> i32 {
        let mut coefs = [0i32; TOTAL_FEATURES];
        accumulate(pos, &mut coefs);
        let phase = phase(pos);
        let (mut mg, mut eg) = (0i64, 0i64);
        for (f, &c) in coefs.iter().enumerate() {
            mg += i64::from(c) * i64::from(self.mg[f]);
            eg += i64::from(c) * i64::from(self.eg[f]);
        }
        ((mg * i64::from(phase) + eg * i64::from(PHASE_MAX - phase)) / i64::from(PHASE_MAX)) as i32
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
