//! Self-play generation of labelled positions for the tuner.
//!
//! - [`selfplay`]: games of the engine against itself, in parallel, on the match runner's loop;
//! - [`filter`]: which positions of a game are kept, resolved to quiet ones, deduplicated;
//! - [`writer`]: the output lines, written whole as each game ends;
//! - [`relabel`]: existing positions given another engine's scores.

pub mod filter;
pub mod relabel;
pub mod selfplay;
pub mod writer;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::book::Book;
use crate::game::GameResult;
use filter::{Deduplicator, FilterStats};
pub use selfplay::{Flow, SelfPlayConfig, default_rules};
use writer::{OutputFormat, PositionWriter};

/// What to generate and where.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    pub out: PathBuf,
    /// Stop once this many positions are written.
    pub positions: u64,
    pub format: OutputFormat,
    pub selfplay: SelfPlayConfig,
}

/// How a run is going, or how it went.
#[derive(Clone, Debug, Default)]
pub struct DatagenReport {
    /// Positions written.
    pub positions: u64,
    /// Games whose positions were used.
    pub games: u64,
    /// Game results: White wins, draws, Black wins.
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Kept positions dropped as duplicates of earlier ones.
    pub duplicates: u64,
    pub filtered: FilterStats,
    pub elapsed: Duration,
}

/// Plays self-play games and writes their labelled positions to `options.out` until
/// `options.positions` are written or `stop` is set. `on_progress` hears after every game.
/// Whatever was written stays valid if the run is stopped or killed.
pub fn generate(
    options: &DatagenOptions,
    book: Option<&Book>,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&DatagenReport),
) -> anyhow::Result<DatagenReport> {
    let started = Instant::now();
    let mut writer = PositionWriter::create(&options.out, options.format)?;
    let mut seen = Deduplicator::new();
    let mut report = DatagenReport::default();
    if options.positions == 0 {
        return Ok(report);
    }
    selfplay::run(&options.selfplay, book, stop, |game| {
        let mut fresh: Vec<_> = game
            .positions
            .into_iter()
            .filter(|c| seen.insert(c.key))
            .collect();
        report.duplicates += game.stats.kept - fresh.len() as u64;
        fresh.truncate((options.positions - report.positions) as usize);
        writer.write_game(&fresh, game.record.result)?;
        report.positions += fresh.len() as u64;
        report.games += 1;
        match game.record.result {
            GameResult::WhiteWins => report.white_wins += 1,
            GameResult::Draw => report.draws += 1,
            GameResult::BlackWins => report.black_wins += 1,
        }
        report.filtered.add(&game.stats);
        report.elapsed = started.elapsed();
        on_progress(&report);
        Ok(if report.positions >= options.positions {
            Flow::Stop
        } else {
            Flow::Continue
        })
    })?;
    report.elapsed = started.elapsed();
    Ok(report)
}
