//! Match statistics: Elo, pentanomial counts and the SPRT. Knows nothing of chess.
//!
//! Everything is computed as fishtest computes it (see `README.md` in this folder for the
//! formulas, where fastchess, OpenBench and cutechess differ, and what we do at the edges):
//! - [`counts`]: [`Trinomial`] (losses, draws, wins) and [`Pentanomial`] pair counts.
//! - [`elo`]: logistic Elo and its 95 % error, LOS, draw ratio, normalized Elo and its error.
//! - [`sprt`]: the generalized SPRT (normalized, logistic, BayesElo bounds), bounds, decision.
//! - [`summary`]: [`Summary`], the fastchess report lines and the JSON object.
#![doc = include_str!("README.md")]

mod brent;
pub mod counts;
pub mod elo;
pub mod sample;
pub mod sprt;
pub mod summary;

pub use counts::{Pentanomial, Trinomial};
pub use elo::{EloEstimate, estimate};
pub use sprt::{
    EloModel, LlrError, SprtConfig, SprtConfigError, SprtState, SprtTracker, llr_bounds,
};
pub use summary::{Summary, summarize};
