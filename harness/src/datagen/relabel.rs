//! Relabelling positions with another engine's scores: each position of a data set searched by
//! an external UCI engine (say Stockfish at a fixed depth), its score written in place of the
//! one the line had, the game result kept.
//!
//! Fitting our evaluation to a stronger engine's scores takes the fit off our own games' habits.
//! The output is `FEN; score; result` (White's view), as `harness datagen --format score` writes,
//! so `harness tune --score-weight` reads it.
//!
//! Each position is searched from a cleared table (`ucinewgame`), so a line's score depends only
//! on the position, the engine and the limit, never on which worker searched it or what it
//! searched before: the output is the same at any concurrency. After each batch the number of
//! input positions settled so far and the output's line count then go to `<out>.done`, so a
//! stopped run resumes exactly where it stopped (positions left out for a mate score leave no
//! line to count), and lines written after the record (a kill between the two writes) are cut
//! off on resume rather than written twice.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use engine::search::{Limits, Score};
use shakmaty::{Color, Position};

use super::writer::{result_text, score_line};
use crate::UsageError;
use crate::tune::dataset::{self, Format, ReadOptions, Sample};
use crate::uci::{UciEngine, UciEngineConfig, UciError};

/// Positions handed out to the workers at a time; a stopped run loses at most one batch.
const BATCH: usize = 1024;

/// What to relabel, with what, and where to.
#[derive(Clone, Debug)]
pub struct RelabelSpec {
    pub inputs: Vec<PathBuf>,
    pub format: Format,
    pub out: PathBuf,
    /// The engine that scores the positions.
    pub engine: UciEngineConfig,
    /// The search of each position (depth or nodes).
    pub limits: Limits,
    /// Longest wait for one search.
    pub timeout: Duration,
    /// Keep every `stride`-th position of the inputs (1: all).
    pub stride: usize,
    /// Stop once the output holds this many lines (a resumed run's count too).
    pub limit: Option<u64>,
    /// Engine processes run at once.
    pub concurrency: usize,
    /// Append to `out`, skipping the selected positions that `<out>.done` says are settled.
    pub resume: bool,
}

/// How a run went.
#[derive(Clone, Debug, Default)]
pub struct RelabelReport {
    /// Lines this run wrote.
    pub written: u64,
    /// Lines the output held before (when resuming).
    pub held: u64,
    /// Selected positions settled by the run being resumed.
    pub resumed: u64,
    /// Selected positions left out because the engine saw a mate.
    pub mates: u64,
    /// Selected positions left out because the engine gave no score.
    pub unscored: u64,
    pub elapsed: Duration,
    /// Stopped by the stop flag before the inputs ran out.
    pub interrupted: bool,
}

/// One selected position's fate.
enum Outcome {
    Scored(i32),
    Mate,
    Unscored,
}

/// Runs a relabelling; `progress` sees the report after each batch.
pub fn relabel(
    spec: &RelabelSpec,
    stop: &AtomicBool,
    mut progress: impl FnMut(&RelabelReport),
) -> anyhow::Result<RelabelReport> {
    if spec.stride == 0 || spec.concurrency == 0 {
        return Err(UsageError("stride and concurrency must be at least 1".into()).into());
    }
    let started = Instant::now();
    let mut report = RelabelReport::default();
    // Selected positions already settled (written or left out) by the run being resumed.
    let done_path = done_path(&spec.out);
    let skip = if spec.resume && spec.out.exists() {
        let (settled, lines) = read_done(&done_path)?;
        report.resumed = settled;
        report.held = match lines {
            Some(lines) => cut_to_lines(&spec.out, lines)?,
            // A record of an older build: the count alone.
            None => count_lines(&spec.out)?,
        };
        settled
    } else {
        0
    };
    let out = if spec.resume {
        OpenOptions::new().create(true).append(true).open(&spec.out)
    } else {
        File::create(&spec.out)
    }
    .map_err(|e| UsageError(format!("cannot write {}: {e}", spec.out.display())))?;
    let engines = (0..spec.concurrency)
        .map(|i| {
            let mut config = spec.engine.clone();
            config.name = format!("{} #{}", config.name, i + 1);
            UciEngine::start(config)
                .map(Mutex::new)
                .map_err(|e| anyhow::anyhow!("starting {}: {e}", spec.engine.name))
        })
        .collect::<anyhow::Result<_>>()?;
    let mut batches = Batches {
        spec,
        engines,
        pending: Vec::with_capacity(BATCH),
        lines: String::new(),
        out,
        done_path,
        report,
        selected: 0,
        stop,
    };

    'inputs: for input in &spec.inputs {
        let mut index = 0usize;
        let options = ReadOptions {
            format: spec.format,
            skip_bad: false,
        };
        let read = dataset::read_chunks(input, options, |chunk| {
            for sample in chunk {
                let keep = index.is_multiple_of(spec.stride);
                index += 1;
                if !keep {
                    continue;
                }
                batches.selected += 1;
                if batches.selected <= skip {
                    continue;
                }
                batches.pending.push(sample);
                // The last batch before the limit is cut to what the limit leaves.
                if batches.pending.len() == BATCH || batches.pending.len() as u64 >= batches.room()
                {
                    batches.flush()?;
                    progress(&batches.report);
                    if stop.load(Ordering::Relaxed) || batches.room() == 0 {
                        return Err(Finished.into());
                    }
                }
            }
            Ok(())
        });
        match read {
            Ok(_) => {}
            Err(e) if e.is::<Finished>() => break 'inputs,
            Err(e) => return Err(e),
        }
    }
    if !stop.load(Ordering::Relaxed) && batches.room() > 0 && !batches.pending.is_empty() {
        batches.flush()?;
        progress(&batches.report);
    }
    let mut report = batches.report;
    report.interrupted = stop.load(Ordering::Relaxed);
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Ends the reading of the inputs early (stop flag or limit); not an error.
#[derive(Debug, thiserror::Error)]
#[error("finished")]
struct Finished;

/// The engines, the batch being gathered and the output it goes to.
struct Batches<'a> {
    spec: &'a RelabelSpec,
    engines: Vec<Mutex<UciEngine>>,
    pending: Vec<Sample>,
    lines: String,
    out: File,
    done_path: PathBuf,
    report: RelabelReport,
    /// Selected input positions so far (those skipped by a resumed run included).
    selected: u64,
    stop: &'a AtomicBool,
}

impl Batches<'_> {
    /// Lines the limit still allows.
    fn room(&self) -> u64 {
        let held = self.report.held + self.report.written;
        self.spec.limit.map_or(u64::MAX, |l| l.saturating_sub(held))
    }

    /// Scores the pending positions on all engines, appends their lines in input order and
    /// records the settled count in `<out>.done`. With the stop flag set during the batch
    /// nothing of it is written, so the output stays a prefix of a whole run.
    fn flush(&mut self) -> anyhow::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let Some(outcomes) = self.score(&pending)? else {
            return Ok(());
        };
        self.lines.clear();
        for (sample, outcome) in pending.iter().zip(outcomes) {
            match outcome {
                Outcome::Scored(score) => {
                    let result = result_text(sample.result);
                    self.lines
                        .push_str(&score_line(&sample.position, score, &result));
                    self.lines.push('\n');
                    self.report.written += 1;
                }
                Outcome::Mate => self.report.mates += 1,
                Outcome::Unscored => self.report.unscored += 1,
            }
        }
        let path = &self.spec.out;
        self.out
            .write_all(self.lines.as_bytes())
            .and_then(|()| self.out.flush())
            .with_context(|| format!("writing {}", path.display()))?;
        write_done(
            &self.done_path,
            self.selected,
            self.report.held + self.report.written,
        )
    }

    /// Every position's outcome, the engines taking the next unscored one in turn; `None` when
    /// stopped part-way. The first engine failure ends the batch and is returned.
    fn score(&self, pending: &[Sample]) -> anyhow::Result<Option<Vec<Outcome>>> {
        let mut slots: Vec<Option<Outcome>> = Vec::new();
        slots.resize_with(pending.len(), || None);
        let slots = Mutex::new(slots);
        let next = AtomicUsize::new(0);
        let abort = AtomicBool::new(false);
        let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for engine in &self.engines {
                scope.spawn(|| {
                    let mut engine = engine.lock().unwrap_or_else(|p| p.into_inner());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let halted =
                            self.stop.load(Ordering::Relaxed) || abort.load(Ordering::Relaxed);
                        if i >= pending.len() || halted {
                            return;
                        }
                        match score_one(&mut engine, &pending[i], self.spec) {
                            Ok(outcome) => {
                                slots.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(outcome);
                            }
                            Err(e) => {
                                abort.store(true, Ordering::Relaxed);
                                *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                                return;
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let slots = slots.into_inner().unwrap_or_else(|p| p.into_inner());
        Ok(slots.into_iter().collect())
    }
}

/// One search from a cleared table; the score turned to White's view.
fn score_one(
    engine: &mut UciEngine,
    sample: &Sample,
    spec: &RelabelSpec,
) -> anyhow::Result<Outcome> {
    let searched = engine
        .new_game()
        .and_then(|()| engine.go(&sample.position, &[], &spec.limits, spec.timeout));
    let reply = match searched {
        Ok(reply) => reply,
        Err(UciError::Fault(fault)) => {
            return Err(anyhow::anyhow!(
                "{} on {}: {fault}",
                spec.engine.name,
                shakmaty::fen::Fen::from_position(&sample.position, shakmaty::EnPassantMode::Legal)
            ));
        }
        Err(e) => return Err(e.into()),
    };
    let white = sample.position.turn() == Color::White;
    Ok(match reply.info.and_then(|info| info.score) {
        Some(Score::Cp(cp)) => Outcome::Scored(if white { cp } else { -cp }),
        Some(Score::Mate(_)) => Outcome::Mate,
        None => Outcome::Unscored,
    })
}

/// `<out>.done`: how many selected input positions the output has settled.
pub fn done_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".done");
    PathBuf::from(name)
}

/// `<out>.done`'s settled count and, when it records it, the output's line count then.
fn read_done(path: &Path) -> anyhow::Result<(u64, Option<u64>)> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        UsageError(format!(
            "cannot resume: {} ({e}); it records where the run stopped",
            path.display()
        ))
    })?;
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    match (fields.next(), fields.next(), fields.next()) {
        (Some(Ok(settled)), None, None) => Ok((settled, None)),
        (Some(Ok(settled)), Some(Ok(lines)), None) => Ok((settled, Some(lines))),
        _ => Err(UsageError(format!(
            "{}:1: '{}' is not a count of positions and one of lines",
            path.display(),
            text.trim()
        ))
        .into()),
    }
}

/// Written to a temporary file and renamed, so a crash leaves the old record or the new one:
/// `settled` input positions, `lines` output lines.
fn write_done(path: &Path, settled: u64, lines: u64) -> anyhow::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, format!("{settled} {lines}\n"))
        .and_then(|()| std::fs::rename(&temporary, path))
        .with_context(|| format!("writing {}", path.display()))
}

/// Cuts `path` after its first `lines` lines (lines written after the record was made) and
/// returns `lines`; a file with fewer lines than its record is not this run's.
fn cut_to_lines(path: &Path, lines: u64) -> anyhow::Result<u64> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let (mut bytes, mut buffer) = (0u64, Vec::new());
    for _ in 0..lines {
        buffer.clear();
        let read = reader
            .read_until(b'\n', &mut buffer)
            .with_context(|| format!("reading {}", path.display()))?;
        if read == 0 || buffer.last() != Some(&b'\n') {
            return Err(UsageError(format!(
                "cannot resume: {} has fewer whole lines than the {lines} its .done file \
                 records: not this run's output",
                path.display()
            ))
            .into());
        }
        bytes += read as u64;
    }
    let more = !reader
        .fill_buf()
        .with_context(|| format!("reading {}", path.display()))?
        .is_empty();
    if more {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| file.set_len(bytes))
            .with_context(|| format!("cutting {} back to {lines} lines", path.display()))?;
    }
    Ok(lines)
}

/// Lines in a file (a resumed output: every line is whole, as batches are written whole).
fn count_lines(path: &Path) -> anyhow::Result<u64> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut count = 0u64;
    for line in BufReader::new(file).lines() {
        line.with_context(|| format!("reading {}", path.display()))?;
        count += 1;
    }
    Ok(count)
}
