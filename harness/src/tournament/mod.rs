//! Matchmaking: game pairs from a book, parallel play, early stop and resume.
//!
//! Game `g` belongs to pair `g / 2`; both games of a pair play the pair's opening, the first
//! engine having White in the even game and Black in the odd one. Workers (a rayon pool) take
//! games in index order, each with its own players; the calling thread writes every finished
//! game (PGN, then CSV, both flushed) and asks the caller whether to go on.

pub mod config;
pub mod external;

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use anyhow::Context;
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};

use crate::book::Book;
use crate::game::{GameRecord, GameResult, InProcessPlayer, Player, play_game};
use crate::output::{GameRow, GamesCsv, GamesPgn, PgnHeader, format_game};
pub use config::{EngineConfig, ExternalEngine, GitBuild, MatchConfig, SprtSettings};

/// What the caller wants after hearing of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Start no new pairs; finish the games of pairs already started (an SPRT decision).
    FinishStartedPairs,
}

/// A game that has just been written.
pub struct FinishedGame<'a> {
    pub row: &'a GameRow,
    pub record: &'a GameRecord,
    /// The first engine's points in this game: 0, 0.5 or 1, doubled (0, 1, 2).
    pub first_engine_points_x2: u8,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Games played and written in this run.
    pub games_played: u64,
    /// Stopped by the interrupt flag (Ctrl-C): some games are still to play.
    pub interrupted: bool,
    /// Stopped early because the caller asked (SPRT decided).
    pub stopped_early: bool,
    /// Stopped because an engine faulted and `recover` is off: what happened.
    pub fault_stop: Option<String>,
}

/// The first engine's doubled points in game `game` with result `result`.
pub fn first_engine_points_x2(game: u64, result: GameResult) -> u8 {
    let first_is_white = game.is_multiple_of(2);
    match (result, first_is_white) {
        (GameResult::Draw, _) => 1,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
        _ => 0,
    }
}

/// Makes the players of one worker: one per engine, reused game after game (an external
/// engine is one process per worker).
fn make_players(config: &MatchConfig) -> anyhow::Result<Vec<Box<dyn Player>>> {
    config
        .engines
        .iter()
        .map(|e| -> anyhow::Result<Box<dyn Player>> {
            Ok(match &e.external {
                Some(external) => Box::new(external::start_player(e, external, config.hash_mb)?),
                None => Box::new(InProcessPlayer::new(
                    &e.name,
                    e.build_params()?,
                    config.hash_mb,
                )),
            })
        })
        .collect()
}

/// After a game: restarts players that faulted (with `recover`), or says why the match
/// must stop.
fn after_game(
    config: &MatchConfig,
    players: &mut [Box<dyn Player>],
    game: u64,
    record: &GameRecord,
) -> Result<(), String> {
    for player in players.iter_mut().filter(|p| p.needs_restart()) {
        let name = player.name().to_string();
        if !config.recover {
            return Err(format!(
                "engine '{name}' faulted in game {} ({}); the match stopped. \
                 Restart faulted engines with --recover",
                game + 1,
                record.reason
            ));
        }
        if let Err(fault) = player.restart() {
            return Err(format!("engine '{name}' could not be restarted: {fault}"));
        }
    }
    Ok(())
}

/// The games still to play and which pairs have begun.
struct Queue {
    pending: BTreeSet<u64>,
    started_pairs: HashSet<u64>,
    only_started_pairs: bool,
}

impl Queue {
    fn next(&mut self) -> Option<u64> {
        let game = if self.only_started_pairs {
            let g = self
                .pending
                .iter()
                .copied()
                .find(|g| self.started_pairs.contains(&(g / 2)))?;
            self.pending.remove(&g);
            g
        } else {
            self.pending.pop_first()?
        };
        self.started_pairs.insert(game / 2);
        Some(game)
    }
}

/// Plays every game of `config` not in `done`, writing them into `dir`. `stop` interrupts
/// (games in progress are abandoned and not written). `on_game` hears of each written game.
pub fn run(
    config: &MatchConfig,
    book: Option<&Book>,
    dir: &Path,
    done: &HashSet<u64>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&FinishedGame<'_>) -> Control,
) -> anyhow::Result<RunOutcome> {
    anyhow::ensure!(
        config.engines.len() == 2,
        "a match needs exactly two engines"
    );
    // Build the players once up front, so a bad configuration fails before any game starts
    // (and before games.csv exists, so the same command can simply be run again).
    make_players(config)?;
    let resume = !done.is_empty() || dir.join("games.csv").exists();
    let (mut csv, _) = GamesCsv::open(dir, resume)?;
    let mut pgn = GamesPgn::open(&dir.join("games.pgn"), resume, done)?;

    // Pairs already half played are started: an early stop still completes them.
    let queue = Mutex::new(Queue {
        pending: (0..config.games).filter(|g| !done.contains(g)).collect(),
        started_pairs: done.iter().map(|g| g / 2).collect(),
        only_started_pairs: false,
    });

    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let workers = config.concurrency.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("match-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let startpos = crate::book::Opening::startpos();
    let opening_of = |game: u64| match book {
        Some(b) => {
            let (index, opening) = b.for_pair((game / 2) as usize);
            (index as u64, opening)
        }
        None => (0, &startpos),
    };

    let (sender, receiver) = mpsc::channel::<anyhow::Result<(u64, GameRecord)>>();
    let mut outcome = RunOutcome {
        games_played: 0,
        interrupted: false,
        stopped_early: false,
        fault_stop: None,
    };
    let fault_stop: Mutex<Option<String>> = Mutex::new(None);
    let mut failure: Option<anyhow::Error> = None;
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let queue = &queue;
            let opening_of = &opening_of;
            let fault_stop = &fault_stop;
            scope.spawn(move |_| {
                let mut players = match make_players(config) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        return;
                    }
                };
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(game) = queue.lock().map(|mut q| q.next()).unwrap_or(None) else {
                        return;
                    };
                    let (_, opening) = opening_of(game);
                    let (first, second) = players.split_at_mut(1);
                    let (a, b) = (first[0].as_mut(), second[0].as_mut());
                    let (white, black, limits) = if game % 2 == 0 {
                        (a, b, [config.engines[0].limits, config.engines[1].limits])
                    } else {
                        (b, a, [config.engines[1].limits, config.engines[0].limits])
                    };
                    match play_game([white, black], limits, opening, &config.rules, stop) {
                        Ok(record) => {
                            let verdict = after_game(config, &mut players, game, &record);
                            if sender.send(Ok((game, record))).is_err() {
                                return;
                            }
                            if let Err(why) = verdict {
                                // Games in progress elsewhere are abandoned, as on Ctrl-C.
                                if let Ok(mut slot) = fault_stop.lock() {
                                    slot.get_or_insert(why);
                                }
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                        }
                        Err(_interrupted) => return,
                    }
                }
            });
        }
        drop(sender);

        for message in receiver {
            let (game, record) = match message {
                Ok(m) => m,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            if failure.is_some() {
                continue;
            }
            let (opening_index, opening) = opening_of(game);
            let row = GameRow {
                game,
                pair: game / 2,
                opening_index,
                opening_fen: Fen::from_position(&opening.position, EnPassantMode::Legal)
                    .to_string(),
                white: record.white.clone(),
                black: record.black.clone(),
                result: record.result.as_str().to_string(),
                termination: record.termination.as_str().to_string(),
                plies: record.moves.len() as u32,
                final_fen: Fen::from_position(&record.final_position, EnPassantMode::Legal)
                    .to_string(),
                white_nodes: record.nodes(Color::White),
                black_nodes: record.nodes(Color::Black),
                white_time_ms: record.time_used(Color::White).as_millis() as u64,
                black_time_ms: record.time_used(Color::Black).as_millis() as u64,
            };
            let (white_engine, black_engine) = if game % 2 == 0 { (0, 1) } else { (1, 0) };
            let header = PgnHeader {
                event: &config.event,
                site: "harness",
                date: &date,
                game,
                white_time_control: config.engines[white_engine].limits.pgn_time_control(),
                black_time_control: config.engines[black_engine].limits.pgn_time_control(),
            };
            // PGN first: games.csv is the record of finished games, so a game in the CSV is
            // always in the PGN too.
            let written = pgn
                .append(&format_game(&header, &record))
                .and_then(|()| csv.append(&row));
            if let Err(e) = written {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
                continue;
            }
            outcome.games_played += 1;
            let finished = FinishedGame {
                row: &row,
                record: &record,
                first_engine_points_x2: first_engine_points_x2(game, record.result),
            };
            if on_game(&finished) == Control::FinishStartedPairs && !outcome.stopped_early {
                outcome.stopped_early = true;
                if let Ok(mut q) = queue.lock() {
                    q.only_started_pairs = true;
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // In-flight games abandoned by the stop flag are not written; they are played on resume.
    outcome.interrupted = stop.load(Ordering::Relaxed);
    outcome.fault_stop = fault_stop.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(outcome)
}
