//! Plays a given set of game pairs on N threads and tells a listener of each game as it ends.
//!
//! Game `g` belongs to pair `g / 2`; both games of pair `k` start from the book's opening for
//! pair `k`, the first engine having White in the even game and Black in the odd one. What a
//! game is depends only on the seed (through the book order), its pair index and the engines,
//! so any split of the pairs over runs, sessions or machines plays the same games. Workers (a
//! rayon pool) take games in index order, each with its own players; the calling thread
//! counts every finished game on the scoreboard and hands it to the listener.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use anyhow::Context;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, EnPassantMode, Position};

use super::config::MatchConfig;
use super::event::{Control, Event, Listener};
use super::external;
use crate::book::{Book, Opening};
use crate::game::{GameRecord, GameResult, InProcessPlayer, Player, play_game};
use crate::output::GameRow;
use crate::scoreboard::{Counted, Scoreboard};

/// How a run of [`play_pairs`] ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunOutcome {
    /// Games played in this run.
    pub games_played: u64,
    /// Stopped by the stop flag (Ctrl-C): some games are still to play.
    pub interrupted: bool,
    /// A listener asked to finish the started pairs only (an SPRT decision).
    pub stopped_early: bool,
    /// Stopped because an engine faulted and `recover` is off: what happened.
    pub fault_stop: Option<String>,
    /// Time the players report searching, summed over the games of this run (seconds).
    pub search_seconds: f64,
}

impl RunOutcome {
    /// This run and then `more`: games and search time added, the way it ended `more`'s.
    pub fn followed_by(self, more: RunOutcome) -> RunOutcome {
        RunOutcome {
            games_played: self.games_played + more.games_played,
            search_seconds: self.search_seconds + more.search_seconds,
            ..more
        }
    }
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

/// The opening of pair `pair`: the book's, or the standard position without a book.
pub fn opening_for_pair<'b>(
    book: Option<&'b Book>,
    startpos: &'b Opening,
    pair: u64,
) -> (u64, &'b Opening) {
    match book {
        Some(b) => {
            let (index, opening) = b.for_pair(pair as usize);
            (index as u64, opening)
        }
        None => (0, startpos),
    }
}

/// The games.csv row of game `game` played from opening `opening_index`.
pub fn game_row(game: u64, opening_index: u64, opening: &Opening, record: &GameRecord) -> GameRow {
    GameRow {
        game,
        pair: game / 2,
        opening_index,
        opening_fen: Fen::from_position(&opening.position, EnPassantMode::Legal).to_string(),
        white: record.white.clone(),
        black: record.black.clone(),
        result: record.result.into(),
        termination: Some(record.termination),
        plies: record.moves.len() as u32,
        final_fen: Fen::from_position(&record.final_position, EnPassantMode::Legal).to_string(),
        white_nodes: record.nodes(Color::White),
        black_nodes: record.nodes(Color::Black),
        white_time_ms: record.time_used(Color::White).as_millis() as u64,
        black_time_ms: record.time_used(Color::Black).as_millis() as u64,
    }
}

/// Makes the players of one worker: one per engine, reused game after game (an external
/// engine is one process per worker).
pub fn make_players(config: &MatchConfig) -> anyhow::Result<Vec<Box<dyn Player>>> {
    config
        .engines
        .iter()
        .map(|e| -> anyhow::Result<Box<dyn Player>> {
            Ok(match &e.external {
                Some(x) => Box::new(external::start_player(e, x, config.hash_mb)?),
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

/// Which pairs to play: a range (a whole match, however long, without a list in memory) or
/// any list of pair indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairSet {
    Range(std::ops::Range<u64>),
    List(Vec<u64>),
}

impl PairSet {
    /// Number of pairs.
    pub fn len(&self) -> u64 {
        match self {
            PairSet::Range(r) => r.end.saturating_sub(r.start),
            PairSet::List(l) => l.len() as u64,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn iter(&self) -> Box<dyn Iterator<Item = u64> + Send + '_> {
        match self {
            PairSet::Range(r) => Box::new(r.clone()),
            PairSet::List(l) => Box::new(l.iter().copied()),
        }
    }
}

impl From<std::ops::Range<u64>> for PairSet {
    fn from(range: std::ops::Range<u64>) -> Self {
        PairSet::Range(range)
    }
}

impl From<Vec<u64>> for PairSet {
    fn from(list: Vec<u64>) -> Self {
        PairSet::List(list)
    }
}

impl From<&[u64]> for PairSet {
    fn from(list: &[u64]) -> Self {
        PairSet::List(list.to_vec())
    }
}

/// Hands out the games still to play in pair order, lazily: the memory it needs does not grow
/// with the number of games. Games are dispatched in order, so at most one started pair has
/// a game not yet handed out.
struct Queue<'p> {
    pairs: Box<dyn Iterator<Item = u64> + Send + 'p>,
    /// Games counted before this run (not played again).
    counted: &'p HashSet<u64>,
    /// The second game of the pair whose first game was just handed out.
    rest_of_pair: Option<u64>,
    /// After an SPRT decision: only the games of pairs already started.
    only_started_pairs: bool,
}

impl Queue<'_> {
    fn next(&mut self) -> Option<u64> {
        if let Some(game) = self.rest_of_pair.take() {
            return Some(game);
        }
        if self.only_started_pairs {
            return None;
        }
        loop {
            let pair = self.pairs.next()?;
            let mut games = [2 * pair, 2 * pair + 1]
                .into_iter()
                .filter(|g| !self.counted.contains(g));
            if let Some(first) = games.next() {
                self.rest_of_pair = games.next();
                return Some(first);
            }
        }
    }
}

/// What a worker sends to the thread that counts.
enum Message {
    Started { game: u64 },
    Finished { game: u64, record: Box<GameRecord> },
    Failed(anyhow::Error),
}

/// Plays the games of `pairs` that `board` has not counted yet, on `config.concurrency`
/// threads (no more than there are games), counting each finished game on `board` and
/// telling `listener`. `stop` interrupts: games in progress are abandoned and not counted.
pub fn play_pairs(
    config: &MatchConfig,
    book: Option<&Book>,
    pairs: impl Into<PairSet>,
    board: &mut Scoreboard,
    stop: &AtomicBool,
    listener: &mut dyn Listener,
) -> anyhow::Result<RunOutcome> {
    anyhow::ensure!(
        config.engines.len() == 2,
        "a match needs exactly two engines"
    );
    let pairs = pairs.into();
    let counted: HashSet<u64> = board.games_counted().clone();
    let in_set = |g: &u64| match &pairs {
        PairSet::Range(r) => r.contains(&(g / 2)),
        PairSet::List(l) => l.contains(&(g / 2)),
    };
    let already = if pairs.len() > counted.len() as u64 {
        counted.iter().filter(|g| in_set(g)).count() as u64
    } else {
        pairs
            .iter()
            .flat_map(|k| [2 * k, 2 * k + 1])
            .filter(|g| counted.contains(g))
            .count() as u64
    };
    let to_play = (2 * pairs.len()).saturating_sub(already);
    let mut outcome = RunOutcome::default();
    if to_play == 0 {
        return Ok(outcome);
    }
    // Build the players once up front, so a bad configuration fails before any game starts.
    make_players(config)?;
    let workers = config
        .concurrency
        .clamp(1, to_play.min(usize::MAX as u64) as usize);
    let queue = Mutex::new(Queue {
        pairs: pairs.iter(),
        counted: &counted,
        rest_of_pair: None,
        only_started_pairs: false,
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("match-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let startpos = Opening::startpos();
    let opening_of = |game: u64| opening_for_pair(book, &startpos, game / 2);

    let (sender, receiver) = mpsc::channel::<Message>();
    let fault_stop: Mutex<Option<String>> = Mutex::new(None);
    let mut failure: Option<anyhow::Error> = None;
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (queue, opening_of, fault_stop) = (&queue, &opening_of, &fault_stop);
            scope.spawn(move |_| {
                let mut players = match make_players(config) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = sender.send(Message::Failed(e));
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
                    if sender.send(Message::Started { game }).is_err() {
                        return;
                    }
                    let (_, opening) = opening_of(game);
                    let (first, second) = players.split_at_mut(1);
                    let (a, b) = (first[0].as_mut(), second[0].as_mut());
                    let (white, black, limits) = if game % 2 == 0 {
                        (a, b, [config.engines[0].limits, config.engines[1].limits])
                    } else {
                        (b, a, [config.engines[1].limits, config.engines[0].limits])
                    };
                    let Ok(record) =
                        play_game([white, black], limits, opening, &config.rules, stop)
                    else {
                        return;
                    };
                    let verdict = after_game(config, &mut players, game, &record);
                    let record = Box::new(record);
                    if sender.send(Message::Finished { game, record }).is_err() {
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
            });
        }
        drop(sender);

        for message in receiver {
            if failure.is_some() {
                continue;
            }
            let heard = match message {
                Message::Failed(e) => Err(e),
                Message::Started { game } => {
                    let (opening_index, _) = opening_of(game);
                    let (white, black) = if game % 2 == 0 { (0, 1) } else { (1, 0) };
                    listener.on_event(
                        &Event::GameStarted {
                            game,
                            pair: game / 2,
                            white: &config.engines[white].name,
                            black: &config.engines[black].name,
                            opening_index,
                        },
                        board,
                    )
                }
                Message::Finished { game, record } => {
                    outcome.games_played += 1;
                    outcome.search_seconds += record.search_time().as_secs_f64();
                    finished(game, &record, &opening_of, board, listener)
                }
            };
            match heard {
                Ok(Control::FinishStartedPairs) if !outcome.stopped_early => {
                    outcome.stopped_early = true;
                    if let Ok(mut q) = queue.lock() {
                        q.only_started_pairs = true;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // Games abandoned by the stop flag are not counted; they are played on resume.
    outcome.interrupted = stop.load(Ordering::Relaxed);
    outcome.fault_stop = fault_stop.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(outcome)
}

/// Counts a finished game and tells the listener: the game, its fault if any, and its pair
/// when it completes one.
fn finished<'b>(
    game: u64,
    record: &GameRecord,
    opening_of: &dyn Fn(u64) -> (u64, &'b Opening),
    board: &mut Scoreboard,
    listener: &mut dyn Listener,
) -> anyhow::Result<Control> {
    let (opening_index, opening) = opening_of(game);
    let row = game_row(game, opening_index, opening, record);
    let counted = board.add(&row, None);
    let moves = record
        .moves
        .iter()
        .map(|m| UciMove::from_move(m.mv, CastlingMode::Standard).to_string())
        .collect();
    let mut control = listener.on_event(
        &Event::GameFinished {
            row: &row,
            moves,
            reason: &record.reason,
            record,
        },
        board,
    )?;
    let mut also = |event: Event<'_>, board: &Scoreboard| -> anyhow::Result<()> {
        if listener.on_event(&event, board)? == Control::FinishStartedPairs {
            control = Control::FinishStartedPairs;
        }
        Ok(())
    };
    if let Some(kind) = record.termination.fault() {
        let white_at_fault = match record.result {
            GameResult::WhiteWins => false,
            GameResult::BlackWins => true,
            GameResult::Draw => record.final_position.turn() == Color::White,
        };
        let engine = if white_at_fault {
            &row.white
        } else {
            &row.black
        };
        also(
            Event::Fault {
                game,
                engine,
                kind,
                detail: &record.reason,
            },
            board,
        )?;
    }
    if let Counted::PairComplete { pair, points_x2 } = counted {
        also(Event::PairFinished { pair, points_x2 }, board)?;
    }
    Ok(control)
}
