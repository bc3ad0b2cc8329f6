//! SPSA tuning as OpenBench does it, with no chess in it: parameters in OpenBench's input
//! format, its update rule, and a checkpointable [`Tuner`] that a driver feeds with game
//! results. Formulas, constants and their sources: `docs/spsa.md`.
//!
//! - [`input`]: [`ParamDef`] and OpenBench's `name, int|float, start, min, max, c_end, r_end`.
//! - [`rule`]: the arithmetic (c_k, R_k, perturbation with random rounding, update), pure.
//! - [`tuner`]: [`Tuner`] and its serde [`State`]: draws iterations from the current θ and
//!   applies their results in order, several in flight.
//! - [`trajectory`]: `spsa.csv`, one row an applied [`Step`], written and read.
//!
//! A driver: take [`Tuner::in_flight`] and play each [`Draw`]'s game pairs
//! ([`Draw::pairs`]) of `plus` against `minus`; hand each iteration's (W, D, L) from plus's
//! side to [`Tuner::complete`], in any order; play the [`Progress::drawn`] iterations it
//! returns, write its [`Progress::applied`] steps and checkpoint [`Tuner::state`]; stop when
//! [`Tuner::is_finished`]. After a crash, [`Tuner::resume`] from the checkpoint and play
//! [`Tuner::in_flight`] again.

pub mod input;
pub mod play;
pub mod rule;
pub mod trajectory;
pub mod tuner;

#[cfg(test)]
mod tests;

pub use input::{InputError, ParamDef, ValueKind};
pub use rule::{Settings, SettingsError};
pub use tuner::{Draw, Pending, Progress, SpsaError, State, Step, Tuner};
