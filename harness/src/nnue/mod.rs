//! Training the engine's NNUE evaluation (`engine::eval::nnue`) on labelled positions.
//!
//! - [`data`]: `FEN; score; result` files (`harness datagen --format score`) packed into 32
//!   bytes a position.
//! - [`model`]: the float network's forward pass, loss, sparse gradient, initialisation and
//!   Adam.
//! - [`split`]: the validation split, by runs of consecutive positions (a game's positions lie
//!   together).
//! - [`trainer`]: the run: split, shuffled mini-batches in parallel, learning-rate decay, a
//!   quantised network file after every epoch, the quantisation check at the end.
//! - [`fit`]: how a network fits labelled positions next to the hand-written evaluation.

pub mod data;
pub mod fit;
pub mod model;
pub mod split;
pub mod trainer;

pub use trainer::{EpochStats, Progress, QuantisationCheck, TrainReport, TrainSpec, train};
