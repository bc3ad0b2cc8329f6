//! Command-line front ends: each file parses one subcommand's options and calls the library.

pub mod bench;
pub mod bench_engine;
pub mod bench_match;
pub mod bench_spsa;
pub mod bench_store;
pub mod bench_tune;
pub mod book;
pub mod check_net;
pub mod datagen;
pub mod elo;
pub mod extract;
pub mod gauntlet;
pub mod relabel;
pub mod report;
pub mod run_match;
pub mod spsa;
pub mod store_cmd;
pub mod test_cmd;
pub mod train_net;
pub mod tune;
pub mod worker;
