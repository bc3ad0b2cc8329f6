//! The command line: one subcommand per job; each subcommand's options live in its `cmd` module.

use clap::{Parser, Subcommand};

use crate::cmd;

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
    Match(cmd::run_match::MatchArgs),
    /// Make an opening book of balanced positions.
    Book(cmd::book::BookArgs),
    /// Generate labelled positions for the tuner by self-play.
    Datagen(cmd::datagen::DatagenArgs),
    /// Texel-tune evaluation weights on labelled positions.
    Tune(cmd::tune::TuneArgs),
    /// Write report.md and report.html for finished match folders.
    Report(cmd::report::ReportArgs),
    /// Measure the harness: match throughput and tuner speed.
    Bench(cmd::bench::BenchArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    match cli.command {
        Command::Elo(args) => cmd::elo::run(args),
        Command::Match(args) => cmd::run_match::run(args),
        Command::Book(args) => cmd::book::run(args),
        Command::Datagen(args) => cmd::datagen::run(args),
        Command::Tune(args) => cmd::tune::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Bench(args) => cmd::bench::run(args),
    }
}
