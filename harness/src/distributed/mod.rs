//! Matches spread over many machines through the PostgreSQL [`store`](crate::store): the store
//! keeps tests, leases and results without knowing chess; this module gives them meaning.
//!
//! - [`spec`]: a [`MatchConfig`](crate::runner::MatchConfig) turned into a stored test (the
//!   spec JSON, pair count, seed, SPRT, expected benches, book hash) and back.
//! - [`verify`]: what a worker checks before it plays a test: the book's hash and each
//!   engine's `bench` node count (as OpenBench refuses a build with another bench).
//! - [`stored_game`]: the games of a committed pair, as the store keeps them.
//! - [`worker`]: the worker loop: claim a batch, play exactly its pairs, renew the lease while
//!   playing, commit the complete pairs.
//! - [`status`]: what `harness test status` and `list` print.
//! - [`export`]: a test's committed games written as the results folder of a local match.
//!
//! Because the games of pair k depend only on (seed, k, the engines), a test played by any
//! number of workers at fixed nodes gives exactly the games of the same match played locally.

pub mod export;
pub mod spec;
pub mod status;
pub mod stored_game;
pub mod verify;
pub mod worker;

pub use export::{ExportOutcome, export_test};
pub use spec::{match_config_of, new_test_from_config};
pub use stored_game::StoredGame;
pub use verify::{PreparedTest, expected_benches, prepare_test};
pub use worker::{WorkerEnd, WorkerOptions, run_worker};
