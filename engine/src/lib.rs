//! A chess engine on shakmaty whose every knob is a named parameter.
//!
//! - [`params`]: the one registry of tunable values (evaluation weights and search knobs).
//! - [`eval`]: tapered, linear evaluation and its feature trace.
//! - [`search`]: iterative-deepening alpha-beta with quiescence search.
//! - [`uci`]: the UCI protocol loop; [`bench`]: OpenBench's fixed-depth node count.

// `search_params!` numbers its knobs by recursing once a knob: above the default 128.
#![recursion_limit = "256"]

pub mod bench;
mod cpu;
pub mod eval;
pub mod params;
pub mod search;
pub mod testing;
pub mod uci;

pub use params::Params;
pub use search::{Clock, Limits, Score, SearchInfo, SearchResult, Searcher};
