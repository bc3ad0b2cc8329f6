//! Self-play generation of labelled positions for the tuner.
//!
//! - [`selfplay`]: games of the engine against itself, in parallel, on the match runner's loop;
//! - [`filter`]: which positions of a game are kept, resolved to quiet ones, deduplicated;
//! - [`writer`]: the output lines, written whole as each game ends;
//! - [`progress`]: where a run stands after each game, so a stopped run resumes exactly;
//! - [`relabel`]: existing positions given another engine's scores;
//! - [`from_games`]: the positions of games already played (a match's games.pgn).

pub mod filter;
pub mod from_games;
pub mod progress;
pub mod relabel;
pub mod selfplay;
pub mod writer;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::book::Book;
use crate::game::GameResult;
use filter::{Deduplicator, FilterStats};
use progress::{Progress, RunSettings, Written, progress_path};
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
    /// The opening book as the user named it (`None`: the start position), for the progress
    /// file's record of the run.
    pub book_name: Option<String>,
    /// Carry on the run recorded in `<out>.progress` (same settings) instead of starting anew.
    pub resume: bool,
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
    /// Of [`DatagenReport::positions`], those written before this invocation (a resumed run).
    pub resumed_positions: u64,
    /// Time spent by this invocation.
    pub elapsed: Duration,
}

/// Plays self-play games and writes their labelled positions to `options.out` until
/// `options.positions` are written or `stop` is set. `on_progress` hears after every game.
/// Whatever was written stays valid if the run is stopped or killed, and `<out>.progress`
/// records it after every game: with `options.resume` the run carries on from there (the
/// report then counts the resumed run's games and positions too), and the file ends as one
/// uninterrupted run's would.
pub fn generate(
    options: &DatagenOptions,
    book: Option<&Book>,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&DatagenReport),
) -> anyhow::Result<DatagenReport> {
    let started = Instant::now();
    let settings = RunSettings::of(options, book.map_or(0, Book::len));
    let progress_file = progress_path(&options.out);
    let (mut writer, mut seen, mut report) = if options.resume {
        let progress = Progress::load(&progress_file)?;
        progress.check_settings(&settings, &progress_file)?;
        if options.positions < progress.written.positions {
            return Err(crate::UsageError(format!(
                "--positions {} is below the {} positions the run recorded in {} has written",
                options.positions,
                progress.written.positions,
                progress_file.display()
            ))
            .into());
        }
        let seen = progress::restore(&options.out, progress.written.bytes, options.format)?;
        let writer = PositionWriter::append(&options.out, options.format, progress.written.bytes)?;
        (writer, seen, progress.written.report())
    } else {
        (
            PositionWriter::create(&options.out, options.format)?,
            Deduplicator::new(),
            DatagenReport::default(),
        )
    };
    let mut progress = Progress {
        run: settings,
        written: Written::of(&report, writer.bytes()),
    };
    progress.save(&progress_file)?;
    if report.positions >= options.positions {
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    selfplay::run(&options.selfplay, book, report.games, stop, |game| {
        let mut fresh: Vec<_> = game
            .positions
            .into_iter()
            .filter(|c| seen.insert(c.key))
            .collect();
        report.duplicates += game.stats.kept - fresh.len() as u64;
        let cut_short = fresh.len() as u64 > options.positions - report.positions;
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
        // A game cut short at the target is not recorded: a resumed run with a higher
        // target plays it again whole.
        if !cut_short {
            progress.written = Written::of(&report, writer.bytes());
            progress.save(&progress_file)?;
        }
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
