//! A match in a results folder: the configuration saved (or read back to resume), the games
//! already in games.csv counted, the rest played with the SPRT stop, then summary.json and
//! the report written. Commands, tests and tools call [`run_match`]; what the terminal shows
//! is up to the listener they pass.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;

use super::config::MatchConfig;
use super::event::{Control, Event, Listener, Listeners};
use super::folder_lock::lock_folder;
use super::play::{RunOutcome, make_players, play_pairs};
use crate::UsageError;
use crate::book::{Book, BookSpec};
use crate::output::csv_rows::CutOffLine;
use crate::output::{FolderWriter, RunEnd, SummaryFile, read_games_csv};
use crate::scoreboard::Scoreboard;
use crate::stats::{SprtConfig, SprtState, Summary};

/// Whether the folder is new or holds a match to continue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Fresh,
    Resume,
}

/// How a match run ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// The counts of every game in the folder, this run's and earlier ones.
    pub board: Scoreboard,
    pub summary: Summary,
    pub run: RunOutcome,
    /// Stopped by an SPRT decision that still holds once the pairs under way are counted.
    pub stopped_by_sprt: bool,
    /// The games counted when the LLR first crossed a bound in this run, if it did.
    pub sprt_crossed_at: Option<u64>,
    /// Wall time of this run and the earlier runs of the folder.
    pub wall_seconds: f64,
}

/// The scoreboard of `config`'s match from the rows of `dir/games.csv` (its skip notes name
/// each skipped row's line), and the last line cut off mid-write, if there is one. Resume,
/// `harness elo --results`, the report and summary.json all count a folder this way.
pub fn count_folder(
    config: &MatchConfig,
    dir: &Path,
) -> anyhow::Result<(Scoreboard, Option<CutOffLine>)> {
    let mut board = Scoreboard::new(
        &config.engines[0].name,
        &config.engines[1].name,
        Some(config.games.div_ceil(2)),
    );
    let path = dir.join("games.csv");
    if !path.exists() {
        return Ok((board, None));
    }
    let found = read_games_csv(&path)?;
    board.add_csv_rows(&found, &path);
    Ok((board, found.cut_off))
}

/// When the match has more game pairs than the book has openings (pair k plays opening
/// k mod the book's size), a note saying so: at fixed nodes or depth the games of a repeated
/// opening are the same two games again, which the Elo error bars and the SPRT would count
/// as new evidence.
fn repeated_openings_note(
    config: &MatchConfig,
    openings: usize,
    book: &BookSpec,
) -> Option<String> {
    let pairs = config.games.div_ceil(2);
    if pairs <= openings as u64 {
        return None;
    }
    let deterministic = config
        .engines
        .iter()
        .all(|e| e.limits.tc.is_none() && e.limits.movetime_ms.is_none());
    let consequence = if deterministic {
        "at fixed nodes or depth a deterministic engine (ours is one) replays the same two \
         games from a repeated opening, so the repeats add no information while the error \
         bars and the SPRT's LLR count them"
    } else {
        "repeated openings make the games less independent than the error bars assume"
    };
    Some(format!(
        "{book} has {openings} openings for {pairs} game pairs: openings repeat; \
         {consequence} (give a book of at least {pairs} openings)"
    ))
}

/// A resumed match may ask for more games than its folder's configuration (the games of pair
/// k depend only on the seed, k and the engines, so the first games stay what they were):
/// the configuration is saved with the new count. Fewer games is an error.
fn extend_saved_games(config: &MatchConfig, dir: &Path) -> anyhow::Result<()> {
    let saved = MatchConfig::load(dir)?;
    if config.games < saved.games {
        return Err(UsageError(format!(
            "--games {}: the match in {} already asks for {} games; a resumed match can only \
             grow (give at least {})",
            config.games,
            dir.display(),
            saved.games,
            saved.games
        ))
        .into());
    }
    if config.games > saved.games {
        let mut grown = saved;
        grown.games = config.games;
        grown.save(dir)?;
    }
    Ok(())
}

/// Plays (or with [`Start::Resume`] continues) `config`'s match in `dir`; `stop` interrupts
/// cleanly. Every event goes to `listener` after the folder's files are written.
pub fn run_match(
    config: &MatchConfig,
    dir: &Path,
    start: Start,
    stop: &AtomicBool,
    listener: &mut dyn Listener,
) -> anyhow::Result<MatchOutcome> {
    let started = Instant::now();
    let sprt = config.sprt.as_ref().map(|s| s.config()).transpose()?;
    // A bad engine (no such program, unknown option) fails before anything is written.
    make_players(config)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let _lock = lock_folder(dir)?;
    let resume = start == Start::Resume;
    let mut config = config.clone();
    if let Some(spec) = &config.book {
        let sha = file_sha256(&spec.file)?;
        match &config.book_sha256 {
            Some(saved) if resume && *saved != sha => {
                return Err(UsageError(format!(
                    "{} changed since this match started (SHA-256 {saved}, now {sha}); \
                     resuming would mix games from two books",
                    spec.file.display()
                ))
                .into());
            }
            _ => config.book_sha256 = Some(sha),
        }
    }
    if resume {
        extend_saved_games(&config, dir)?;
    }
    let config = &config;
    let book = config
        .book
        .as_ref()
        .map(|spec| Book::load(spec, config.seed))
        .transpose()?;

    let (mut board, mut notes) = if resume {
        let (board, cut_off) = count_folder(config, dir)?;
        let mut notes: Vec<String> = cut_off
            .map(|c| format!("{}; its game is played again", c.note))
            .into_iter()
            .collect();
        notes.extend(board.skipped().iter().cloned());
        (board, notes)
    } else {
        config.save(dir)?;
        let board = Scoreboard::new(
            &config.engines[0].name,
            &config.engines[1].name,
            Some(config.games.div_ceil(2)),
        );
        (board, Vec::new())
    };
    if let (Some(b), Some(spec)) = (&book, &config.book)
        && b.skipped > 0
    {
        notes.push(format!("skipped {} malformed entries of {spec}", b.skipped));
    }
    if let (Some(b), Some(spec)) = (&book, &config.book)
        && let Some(note) = repeated_openings_note(config, b.len(), spec)
    {
        notes.push(note);
    }
    let previous_wall = if resume {
        SummaryFile::load(dir).map_or(0.0, |s| s.wall_seconds)
    } else {
        0.0
    };
    let mut writer = FolderWriter::open(dir, config, resume, board.games_counted())?;

    let mut sprt_stop = SprtStop {
        sprt: sprt.as_ref(),
        crossed_at: None,
        inner: listener,
    };
    let mut chain = Listeners::new();
    chain.push(&mut writer);
    chain.push(&mut sprt_stop);

    for note in &notes {
        chain.on_event(&Event::Note { text: note }, &board)?;
    }
    let pairs = 0..config.games.div_ceil(2);
    let games_to_play = config
        .games
        .saturating_sub(board.games_counted().len() as u64);
    chain.on_event(
        &Event::MatchStarted {
            first: &config.engines[0].name,
            second: &config.engines[1].name,
            games_total: config.games,
            games_to_play,
            concurrency: config.concurrency.clamp(1, games_to_play.max(1) as usize),
        },
        &board,
    )?;
    // The pairs under way when the LLR crossed a bound count too and may bring it back
    // inside: then the test goes on from the pairs not yet played (the games of pair k depend
    // only on the seed, k and the engines, so this is the same match).
    let mut run = RunOutcome::default();
    loop {
        let more = play_pairs(
            config,
            book.as_ref(),
            pairs.clone(),
            &mut board,
            stop,
            &mut chain,
        )?;
        run = run.followed_by(more);
        let undecided_after_all = run.stopped_early
            && !run.interrupted
            && run.fault_stop.is_none()
            && board.summary(sprt.as_ref()).state() == SprtState::Continue
            && board.pairs() < pairs.end;
        if !undecided_after_all {
            break;
        }
    }
    drop(chain);
    let (crossed_at, listener) = (sprt_stop.crossed_at, sprt_stop.inner);

    let summary = board.summary(sprt.as_ref());
    let wall_seconds = previous_wall + started.elapsed().as_secs_f64();
    // Stopped by a decision that still holds once the pairs under way are counted.
    let stopped_by_sprt = run.stopped_early && summary.state() != SprtState::Continue;
    let end = RunEnd {
        games_requested: config.games,
        wall_seconds,
        interrupted: run.interrupted,
        fault_stop: run.fault_stop.clone(),
        stopped_by_sprt,
    };
    SummaryFile::new(&board, sprt.as_ref(), &config.engines, end).save(dir)?;
    // The games and summary are already safe on disk; a report failure is only a note.
    if let Err(err) = crate::report::write_reports(dir) {
        listener.on_event(
            &Event::Note {
                text: &format!("could not write the report: {err:#}"),
            },
            &board,
        )?;
    }
    if let Some(path) = &config.pgnout {
        std::fs::copy(dir.join("games.pgn"), path)
            .with_context(|| format!("cannot copy games.pgn to {}", path.display()))?;
    }
    listener.on_event(
        &Event::MatchFinished {
            games_played: run.games_played,
            interrupted: run.interrupted,
            stopped_by_sprt,
            fault_stop: run.fault_stop.as_deref(),
        },
        &board,
    )?;
    Ok(MatchOutcome {
        board,
        summary,
        run,
        stopped_by_sprt,
        sprt_crossed_at: crossed_at,
        wall_seconds,
    })
}

/// Passes every event on; after each completed pair also the SPRT's state, and once it has
/// decided, asks the runner to finish only the pairs already started.
struct SprtStop<'s, 'l> {
    sprt: Option<&'s SprtConfig>,
    /// Games counted when the LLR first crossed a bound.
    crossed_at: Option<u64>,
    inner: &'l mut dyn Listener,
}

impl Listener for SprtStop<'_, '_> {
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        let control = self.inner.on_event(event, board)?;
        let (Some(sprt), Event::PairFinished { .. }) = (self.sprt, event) else {
            return Ok(control);
        };
        let summary = board.summary(Some(sprt));
        let state = summary.state();
        self.inner.on_event(
            &Event::Sprt {
                pairs: board.pairs(),
                llr: summary.llr,
                lower: summary.llr_lower,
                upper: summary.llr_upper,
                state,
            },
            board,
        )?;
        if state == SprtState::Continue {
            return Ok(control);
        }
        self.crossed_at.get_or_insert(board.games());
        Ok(Control::FinishStartedPairs)
    }
}

/// The SHA-256 of a file's bytes, in hex.
pub fn file_sha256(path: &Path) -> anyhow::Result<String> {
    use sha2::{Digest, Sha256};
    let mut file =
        std::fs::File::open(path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).with_context(|| format!("reading {}", path.display()))?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
