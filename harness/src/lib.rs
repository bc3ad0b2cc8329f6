//! The `harness` library: everything behind the `harness` command, so tests can call it.
//!
//! Architecture (each folder one concern):
//! - [`stats`]: Elo, pentanomial counts, SPRT; knows nothing of chess.
//! - [`book`]: opening books.
//! - [`game`]: one game between two players (in-process or UCI), clocks, adjudication.
//! - [`uci`]: external engines over the UCI protocol (processes, faults).
//! - [`build`]: engine binaries built from git revisions, and their `bench` signature.
//! - [`runner`]: the match runner as a library: a typed match, any set of game pairs played
//!   in parallel, typed events to listeners, a match in a results folder (resume, SPRT stop).
//! - [`scoreboard`]: the one place results are counted.
//! - [`reporters`]: listeners that show a run (progress bar, fastchess report, per-game
//!   lines, JSON events).
//! - [`output`]: games.csv, games.pgn, configuration and summary files.
//! - [`tune`] and [`datagen`]: Texel tuning and its training data.
//! - [`nnue`]: training the engine's NNUE evaluation on that data.
//! - [`report`]: match reports with plots.
//! - [`spawn`]: starting child processes (engines, their bench).
//! - [`store`]: tests in PostgreSQL for workers on many machines (claims, commits, SPRT).
//! - [`distributed`]: matches over the store: test specs, the worker loop, export.
//! - [`spsa`]: SPSA tuning as OpenBench does it (parameters, update rule, tuner state).
//! - [`cli`]: the command line, and the options several commands share.
//! - [`cmd`]: the command-line front ends of the above, one file a subcommand.
//! - [`interrupt`]: Ctrl-C and SIGTERM as a stop flag.

pub mod book;
pub mod build;
pub mod cli;
pub mod cmd;
pub mod datagen;
pub mod distributed;
pub mod game;
pub mod interrupt;
pub mod nnue;
pub mod output;
pub mod pgn;
pub mod report;
pub mod reporters;
pub mod runner;
pub mod scoreboard;
pub mod spawn;
pub mod spsa;
pub mod stats;
pub mod store;
pub mod tune;
pub mod uci;

/// An error in what the user asked for (bad option, malformed input); exits with code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Returns early with a [`UsageError`].
#[macro_export]
macro_rules! usage_bail {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::UsageError(format!($($arg)*))))
    };
}
