//! Texel tuning: data sets, compact traces, the scaling constant K and the optimisers.
//!
//! - [`dataset`]: reading labelled positions (book, CSV, EPD; plain or `.xz`).
//! - [`traces`]: each position's evaluation trace, extracted once and stored compactly.
//! - [`model`]: the loss (mean squared error of the sigmoid) and its analytic gradient.
//! - [`kfit`]: fitting K on the starting weights.
//! - [`optim`]: L-BFGS (argmin) and Adam.
//! - [`session`]: one run from files to a parameter set.

pub mod dataset;
pub mod kfit;
pub mod model;
pub mod optim;
pub mod session;
pub mod traces;
