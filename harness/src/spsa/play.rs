//! Playing an SPSA tune through the match runner: each iteration's plus and minus values
//! become two engine configurations, its game pairs are played with [`play_pairs`] while
//! other iterations are in flight, and the results go to the [`Tuner`] in iteration order.
//! Writes `spsa.csv` (one row an applied iteration), a checkpoint `state.json` after each
//! result, `tuned.toml`, and the games as a match does.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, mpsc};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::{Draw, ParamDef, Settings, Step, Tuner, ValueKind, trajectory};
use crate::book::Book;
use crate::output::{FolderWriter, read_games_csv, write_atomically, write_json};
use crate::runner::{Control, EngineConfig, Event, Listener, MatchConfig, play_pairs};
use crate::scoreboard::Scoreboard;
use crate::stats::Trinomial;

/// Everything that determines a tune; saved as `spsa.toml` and read back by `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaSpec {
    /// The games: `engines[0]` is the engine tuned, at its start values (its name is used for
    /// nothing: the sides are called `plus` and `minus`); limits, book, rules, seed,
    /// concurrency and hash as in a match.
    pub games: MatchConfig,
    pub params: Vec<ParamDef>,
    pub settings: Settings,
}

impl SpsaSpec {
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = toml::to_string_pretty(self).context("cannot encode the tune")?;
        write_atomically(&dir.join("spsa.toml"), &text)
    }

    pub fn load(dir: &Path) -> anyhow::Result<SpsaSpec> {
        let path = dir.join("spsa.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            crate::UsageError(format!("{}: {e} (is this a tune folder?)", path.display()))
        })?;
        toml::from_str(&text)
            .map_err(|e| crate::UsageError(format!("{}: {e}", path.display())).into())
    }

    /// The tuned engine with `values` for the tuned parameters, named `name`.
    pub fn engine_with(&self, name: &str, values: &[f64]) -> anyhow::Result<EngineConfig> {
        let mut engine = self.games.engines[0].clone();
        engine.name = name.to_string();
        let as_text = |def: &ParamDef, v: f64| match def.kind {
            ValueKind::Int => format!("{}", v.round() as i64),
            ValueKind::Float => format!("{v}"),
        };
        match engine.external.as_mut() {
            Some(external) => {
                for (def, &v) in self.params.iter().zip(values) {
                    external
                        .options
                        .retain(|(k, _)| !k.eq_ignore_ascii_case(&def.name));
                    external.options.push((def.name.clone(), as_text(def, v)));
                }
            }
            None => {
                let mut params = engine.build_params()?;
                for (def, &v) in self.params.iter().zip(values) {
                    params
                        .set_by_name(&def.name, &as_text(def, v))
                        .with_context(|| format!("tuned parameter {}", def.name))?;
                }
                engine.set_params(&params);
            }
        }
        Ok(engine)
    }

    /// The match of one iteration: plus against minus.
    fn iteration_match(&self, draw: &Draw) -> anyhow::Result<MatchConfig> {
        let mut games = self.games.clone();
        games.engines = vec![
            self.engine_with("plus", &draw.plus)?,
            self.engine_with("minus", &draw.minus)?,
        ];
        games.event = format!("SPSA iteration {}", draw.index + 1);
        games.games = 2 * self.settings.pairs_per_iteration * self.settings.iterations;
        games.concurrency = (self.games.concurrency / self.settings.in_flight as usize).max(1);
        games.sprt = None;
        Ok(games)
    }
}

/// Our engine's parameters named by `list` (names, groups, prefixes: see
/// [`engine::params::select`]) as SPSA parameters: start values from `start`, range and step
/// from their one declaration in the registry. Parameters with no range (switches fixed by
/// the registry) are left out.
pub fn registry_params(
    list: &str,
    start: &engine::params::Params,
) -> Result<Vec<ParamDef>, String> {
    let ids = engine::params::select(list).map_err(|e| e.to_string())?;
    let specs = engine::params::specs();
    Ok(ids
        .into_iter()
        .map(|id| {
            let spec = &specs[id];
            ParamDef {
                name: spec.name.clone(),
                kind: ValueKind::Int,
                start: f64::from(start.get(id)),
                min: f64::from(spec.min),
                max: f64::from(spec.max),
                c_end: spec.spsa.c_end,
                r_end: spec.spsa.r_end,
            }
        })
        .filter(|d| d.min < d.max)
        .collect())
}

/// Starts both sides once at the start values, so that a parameter the engine does not have
/// (not in our registry, or not among an external engine's `uci` options), an engine that
/// does not start or a bad value is an error before any file is written.
pub fn check_engines(spec: &SpsaSpec) -> anyhow::Result<()> {
    let starts: Vec<f64> = spec.params.iter().map(|p| p.start).collect();
    let mut both = spec.games.clone();
    both.engines = vec![
        spec.engine_with("plus", &starts)?,
        spec.engine_with("minus", &starts)?,
    ];
    crate::runner::play::make_players(&both).map(drop)
}

/// What the caller hears as the tune goes.
pub enum TuneEvent<'a> {
    /// An iteration was applied; `tuner` has the new θ.
    Applied { step: &'a Step, tuner: &'a Tuner },
    /// A game of some iteration ended.
    Game,
}

/// How a tune run ended.
#[derive(Debug)]
pub struct TuneOutcome {
    /// The tuner as the run left it (θ, iterations applied).
    pub tuner: Tuner,
    /// Stopped before the last iteration was applied.
    pub interrupted: bool,
}

/// Plays the tune in `dir` from `tuner`'s state until it finishes or `stop` is set.
pub fn run_tune(
    spec: &SpsaSpec,
    mut tuner: Tuner,
    dir: &Path,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(TuneEvent<'_>),
) -> anyhow::Result<TuneOutcome> {
    let book = spec
        .games
        .book
        .as_ref()
        .map(|b| Book::load(b, spec.games.seed))
        .transpose()?;
    let resume = dir.join("games.csv").exists();
    let mut names = spec.games.clone();
    names.engines = vec![
        spec.engine_with("plus", &tuner.values())?,
        spec.engine_with("minus", &tuner.values())?,
    ];
    // On resume, the games already written (those of iterations in flight at the interrupt
    // included) are not written again when their iteration is replayed: the replay plays the
    // same games, since an iteration's values and pairs depend only on (seed, its index).
    let written: std::collections::HashSet<u64> = if resume {
        read_games_csv(&dir.join("games.csv"))?
            .rows
            .iter()
            .map(|r| r.game)
            .collect()
    } else {
        Default::default()
    };
    let writer = Mutex::new(FolderWriter::open(dir, &names, resume, &written)?);
    let mut csv = SpsaCsv::open(&dir.join("spsa.csv"), &spec.params, tuner.state().applied)?;

    let (done_tx, done_rx) = mpsc::channel::<(u64, anyhow::Result<Option<Trinomial>>)>();
    let (game_tx, game_rx) = mpsc::channel::<()>();
    let mut queue: Vec<Draw> = tuner.in_flight().cloned().collect();
    let mut running = 0usize;
    let mut interrupted = false;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        loop {
            while let Some(draw) = queue.pop() {
                let config = spec.iteration_match(&draw)?;
                let (done_tx, game_tx) = (done_tx.clone(), game_tx.clone());
                let (book, writer) = (book.as_ref(), &writer);
                running += 1;
                scope.spawn(move || {
                    let result = play_iteration(&config, book, &draw, spec, writer, stop, &game_tx);
                    let _ = done_tx.send((draw.index, result));
                });
            }
            if running == 0 {
                return Ok(());
            }
            let (index, result) = loop {
                while game_rx.try_recv().is_ok() {
                    on_event(TuneEvent::Game);
                }
                match done_rx.recv_timeout(std::time::Duration::from_millis(200)) {
                    Ok(done) => break done,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
                }
            };
            running -= 1;
            let Some(result) = result? else {
                interrupted = true;
                continue;
            };
            let progress = tuner.complete(index, result)?;
            write_json(&dir.join("state.json"), tuner.state())?;
            for step in &progress.applied {
                csv.append(step)?;
                on_event(TuneEvent::Applied {
                    step,
                    tuner: &tuner,
                });
            }
            if !stop.load(std::sync::atomic::Ordering::Relaxed) {
                queue.extend(progress.drawn);
            }
        }
    })?;
    write_tuned(spec, &tuner, &dir.join("tuned.toml"))?;
    Ok(TuneOutcome {
        interrupted: interrupted || !tuner.is_finished(),
        tuner,
    })
}

/// Plays one iteration's pairs; `None` when interrupted before they all finished.
fn play_iteration(
    config: &MatchConfig,
    book: Option<&Book>,
    draw: &Draw,
    spec: &SpsaSpec,
    writer: &Mutex<FolderWriter>,
    stop: &AtomicBool,
    games: &mpsc::Sender<()>,
) -> anyhow::Result<Option<Trinomial>> {
    let pairs = draw.pairs(spec.settings.pairs_per_iteration);
    let mut board = Scoreboard::new("plus", "minus", None);
    let mut listener = |event: &Event<'_>, board: &Scoreboard| -> anyhow::Result<Control> {
        if let Event::GameFinished { .. } = event {
            let _ = games.send(());
            let mut writer = writer.lock().unwrap_or_else(|e| e.into_inner());
            writer.on_event(event, board)?;
        }
        Ok(Control::Continue)
    };
    let expected = 2 * (pairs.end - pairs.start);
    let outcome = play_pairs(config, book, pairs, &mut board, stop, &mut listener)?;
    if outcome.interrupted || board.games() < expected {
        return Ok(None);
    }
    Ok(Some(*board.trinomial()))
}

/// Writes θ (rounded for integer parameters) as a parameter file for `--engine file=`: the
/// tuned engine's own settings plus the tuned values.
pub fn write_tuned(spec: &SpsaSpec, tuner: &Tuner, path: &Path) -> anyhow::Result<()> {
    let mut text = format!(
        "# SPSA result after {} of {} iterations (harness spsa)\n",
        tuner.state().applied,
        spec.settings.iterations
    );
    let engine = spec.engine_with("tuned", &tuner.values())?;
    match &engine.external {
        None => {
            for (name, value) in &engine.params {
                text.push_str(&format!("{name} = {value}\n"));
            }
        }
        Some(_) => {
            for (def, v) in spec.params.iter().zip(tuner.values()) {
                text.push_str(&format!("{} = {}\n", def.name, v));
            }
        }
    }
    write_atomically(path, &text)
}

/// spsa.csv, appended as the tune goes (its rows: [`trajectory`]).
struct SpsaCsv {
    writer: csv::Writer<std::fs::File>,
    path: PathBuf,
}

impl SpsaCsv {
    /// Opens it for appending, keeping the first `applied` rows (a resumed tune re-applies
    /// nothing, so rows after the checkpoint are dropped).
    fn open(path: &Path, params: &[ParamDef], applied: u64) -> anyhow::Result<SpsaCsv> {
        let header = trajectory::header(params);
        let kept: String = match std::fs::read_to_string(path) {
            Ok(text) => text
                .lines()
                .take(1 + applied as usize)
                .map(|l| format!("{l}\n"))
                .collect(),
            Err(_) => String::new(),
        };
        let fresh = kept.is_empty();
        write_atomically(path, &kept)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if fresh {
            writer.write_record(&header)?;
            writer.flush()?;
        }
        Ok(SpsaCsv {
            writer,
            path: path.to_path_buf(),
        })
    }

    fn append(&mut self, step: &Step) -> anyhow::Result<()> {
        let record = trajectory::record(step);
        self.writer
            .write_record(&record)
            .and_then(|()| self.writer.flush().map_err(csv::Error::from))
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}
