//! The command line: one subcommand per job; each subcommand's options live in its `cmd` module,
//! and the options several commands share (those of a match) live here, with their translation
//! into typed specifications.

pub mod external_engine;
pub mod key_value;
pub mod match_options;
pub mod net_targets;
pub mod spellings;

use clap::{Parser, Subcommand};

use crate::cmd;

/// Exit codes of `harness match` (and `harness gauntlet`) besides 0 (finished; with `--sprt`, H1 accepted),
/// 1 (error) and 2 (bad usage).
pub mod exit {
    /// The SPRT accepted H0: the change is not better by `elo1`.
    pub const SPRT_H0: u8 = 3;
    /// The match reached its game count with the SPRT undecided.
    pub const SPRT_UNDECIDED: u8 = 4;
    /// An engine faulted and `--recover` was not given: the match stopped (resumable).
    pub const FAULT_STOP: u8 = 5;
    /// Interrupted by Ctrl-C or SIGTERM (resumable).
    pub const INTERRUPTED: u8 = 130;
}

/// `s` quoted for a POSIX shell when it needs quoting (for the commands we print).
pub fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=+:".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "harness",
    version,
    about = "Matches, SPRT, Texel tuning and reports for chess engines"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Elo, nElo, LOS and SPRT from game counts (fastchess report format).
    Elo(cmd::elo::EloArgs),
    /// Play a match between engine configurations, optionally stopping on an SPRT decision.
    Match(Box<cmd::run_match::MatchCommandArgs>),
    /// One engine against a series of opponents that differ in one key (e.g. `UCI_Elo`).
    Gauntlet(Box<cmd::gauntlet::GauntletArgs>),
    /// Tune engine parameters by play with SPSA (OpenBench's arithmetic).
    Spsa(Box<cmd::spsa::SpsaArgs>),
    /// Make an opening book of balanced positions.
    Book(cmd::book::BookArgs),
    /// Generate labelled positions for the tuner by self-play.
    Datagen(cmd::datagen::DatagenArgs),
    /// Labelled positions from games already played (a match's games.pgn with its scores).
    Extract(cmd::extract::ExtractArgs),
    /// Give labelled positions another UCI engine's search scores (e.g. Stockfish's).
    Relabel(cmd::relabel::RelabelArgs),
    /// Texel-tune evaluation weights on labelled positions.
    Tune(cmd::tune::TuneArgs),
    /// Train the engine's NNUE evaluation on labelled positions (datagen --format score).
    TrainNet(cmd::train_net::TrainNetArgs),
    /// How a network fits labelled positions, next to the hand-written evaluation.
    CheckNet(cmd::check_net::CheckNetArgs),
    /// Write report.md and report.html for finished match folders.
    Report(cmd::report::ReportArgs),
    /// Measure the harness: match throughput and tuner speed.
    Bench(cmd::bench::BenchArgs),
    /// The PostgreSQL store of tests for many machines: `harness store migrate`.
    Store(cmd::store_cmd::StoreArgs),
    /// Tests in the store: create (from match options), list, status, stop, export.
    Test(cmd::test_cmd::TestArgs),
    /// Play batches of stored tests' game pairs and commit them to the store.
    Worker(cmd::worker::WorkerArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    match cli.command {
        Command::Elo(args) => cmd::elo::run(args),
        Command::Match(args) => cmd::run_match::run(*args),
        Command::Gauntlet(args) => cmd::gauntlet::run(*args),
        Command::Spsa(args) => cmd::spsa::run(*args),
        Command::Book(args) => cmd::book::run(args),
        Command::Datagen(args) => cmd::datagen::run(args),
        Command::Extract(args) => cmd::extract::run(args),
        Command::Relabel(args) => cmd::relabel::run(args),
        Command::Tune(args) => cmd::tune::run(args),
        Command::TrainNet(args) => cmd::train_net::run(args),
        Command::CheckNet(args) => cmd::check_net::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Store(args) => cmd::store_cmd::run(args),
        Command::Test(args) => cmd::test_cmd::run(args),
        Command::Worker(args) => cmd::worker::run(args),
    }
}
