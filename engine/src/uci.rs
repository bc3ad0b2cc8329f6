//! The UCI protocol: the `uci-protocol` crate parses lines and writes replies; [`command`]
//! turns `go` into search limits; [`Session`] holds the engine state (options, position,
//! searcher) and runs searches on a separate, long-lived thread so that `stop`, `ponderhit`
//! and `isready` are answered while searching.
//!
//! Every option of the parameter registry is a UCI option with the parameter's exact name
//! (`spin`, or `check` for switches). The large evaluation tables are listed only after
//! `--all-options` or `setoption name ShowAllParams value true`; `setoption` accepts every
//! parameter either way. `EvalFile` names a network file (`harness train-net`) that evaluates
//! instead of the built-in one when the `nnue` switch is on; `<embedded>` (the default) or an
//! empty value goes back to the built-in network.
//!
//! Pondering: `go ponder` searches until `ponderhit` or `stop`. On `ponderhit` the ponder
//! search is stopped silently and a search with the `go`'s own limits starts, finding the
//! ponder search's work in the transposition table.

pub mod command;

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use uci_protocol::{
    EngineMessage, GuiMessage, Info, OptionDecl, OptionKind, ScoreValue, StartPosition,
};

use crate::eval::nnue::{self, Network};
use crate::params::{self, Params, ValueType};
use crate::search::{Limits, Score, SearchInfo, SearchResult, Searcher, position_key};
use command::{GoRequest, MAX_PERFT_DEPTH};

/// `EvalFile`'s value for the built-in network.
const EMBEDDED_NETWORK: &str = "<embedded>";
/// Transposition table size before any `setoption name Hash`.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash`: 1 GiB. Larger tables gain little at the speeds this engine is tested at,
/// and a failed allocation aborts the process (release builds abort on panic).
pub const MAX_HASH_MB: usize = 1024;
/// How long a search's info lines may be held back (see [`run_search`]).
const INFO_HOLD: Duration = Duration::from_millis(10);
/// The search thread recurses deeply with a move list per ply.
const SEARCH_STACK_BYTES: usize = 64 << 20;

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Output, line: &str) {
    // A poisoned lock or a closed pipe leaves nothing useful to do with the line.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

fn send_message(out: &Output, message: &EngineMessage) {
    send(out, &message.to_string());
}

fn info_string(text: String) -> EngineMessage {
    EngineMessage::Info(Info {
        string: Some(text),
        ..Info::default()
    })
}

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it sends `bestmove`: from then on the GUI may
    /// send the next `go`, and taking the searcher back takes no time.
    finished: Arc<AtomicBool>,
    /// While pondering: the limits to search with after `ponderhit`.
    ponder_limits: Option<Limits>,
    /// Set to end the search without a word (a ponder search after `ponderhit`).
    silent: Arc<AtomicBool>,
}

/// One `go`: everything the search thread needs, including the searcher it hands back.
struct SearchJob {
    searcher: Searcher,
    position: Chess,
    history: Vec<u64>,
    limits: Limits,
    searchmoves: Vec<Move>,
    castling: CastlingMode,
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    silent: Arc<AtomicBool>,
}

/// The search thread, kept for the whole session: starting a thread with a large stack on
/// every `go` cost about as much as a 1000-node search.
struct SearchWorker {
    jobs: Sender<SearchJob>,
    searchers: Receiver<Searcher>,
    handle: JoinHandle<()>,
}

impl SearchWorker {
    fn spawn(out: Output) -> std::io::Result<Self> {
        let (jobs, job_queue) = channel::<SearchJob>();
        let (searcher_return, searchers) = channel();
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for job in job_queue {
                    let searcher = run_search(job, &out);
                    if searcher_return.send(searcher).is_err() {
                        break;
                    }
                }
            })?;
        Ok(SearchWorker {
            jobs,
            searchers,
            handle,
        })
    }
}

fn run_search(job: SearchJob, out: &Output) -> Searcher {
    let SearchJob {
        mut searcher,
        position,
        history,
        limits,
        searchmoves,
        castling,
        stop,
        finished,
        silent,
    } = job;
    let mut hashfull = 0;
    let started = Instant::now();
    // The info lines of a search's first milliseconds are held back and written with the
    // next line or the `bestmove`: one write (and one wake-up of the GUI) per short search
    // instead of one per iteration.
    let mut held: Vec<String> = Vec::new();
    let mut on_iteration = |info: &SearchInfo| {
        hashfull = info.hashfull;
        if !silent.load(Ordering::Relaxed) {
            held.push(iteration_message(info, castling).to_string());
            if started.elapsed() >= INFO_HOLD {
                send(out, &held.join("\n"));
                held.clear();
            }
        }
    };
    let result = searcher.search_moves(
        &position,
        &history,
        &limits,
        &searchmoves,
        &stop,
        &mut on_iteration,
    );
    // UCI: after `go infinite` (and while pondering) the best move waits for `stop`.
    if limits.infinite && !held.is_empty() && !silent.load(Ordering::Relaxed) {
        send(out, &held.join("\n"));
        held.clear();
    }
    while limits.infinite && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let silent = silent.load(Ordering::Relaxed);
    let mut lines = held;
    if !silent && let Some(best) = result.best_move {
        lines.push(final_message(&result, best, hashfull, castling).to_string());
    }
    let pv = played_pv(&result);
    let bestmove = EngineMessage::BestMove {
        best: result
            .best_move
            .map_or(UciMove::Null, |m| m.to_uci(castling)),
        ponder: pv.get(1).map(|m| m.to_uci(castling)),
    };
    lines.push(bestmove.to_string());
    finished.store(true, Ordering::Release);
    if !silent {
        send(out, &lines.join("\n"));
    }
    searcher
}

/// The principal variation of the move played: the search's, when it starts with that move.
fn played_pv(result: &SearchResult) -> Vec<Move> {
    match result.best_move {
        Some(best) if result.pv.first() == Some(&best) => result.pv.clone(),
        Some(best) => vec![best],
        None => Vec::new(),
    }
}

/// A UCI session: feed it lines with [`Session::handle_line`].
pub struct Session {
    out: Output,
    params: Params,
    /// Parameters changed since the searcher last received them.
    params_changed: bool,
    /// The network of `EvalFile` (`None`: the built-in one), and whether it changed since
    /// the searcher last received it.
    network: Option<&'static Network>,
    network_changed: bool,
    /// The root moves of the last `go searchmoves` (kept for its `ponderhit`); empty: all.
    searchmoves: Vec<Move>,
    hash_mb: usize,
    show_all_params: bool,
    chess960: bool,
    position: Chess,
    /// Keys of the positions before `position`, oldest first.
    history: Vec<u64>,
    /// The `position` command that gave `position`, so that the next one (the same game
    /// one or two moves on) only plays its new moves.
    replayed: Option<Replayed>,
    /// Why the last `position` was rejected: `go` then answers `bestmove 0000`.
    position_error: Option<String>,
    /// `None` while a search thread owns it.
    searcher: Option<Searcher>,
    running: Option<RunningSearch>,
    /// Started by the first `go`; `None` again after it failed.
    worker: Option<SearchWorker>,
}

impl Session {
    /// A session writing to `out`; `show_all_params` lists the table parameters in `uci`.
    pub fn new(out: Box<dyn Write + Send>, show_all_params: bool) -> Self {
        let params = Params::default();
        Session {
            out: Arc::new(Mutex::new(out)),
            searcher: Some(Searcher::new(params.clone(), DEFAULT_HASH_MB)),
            params,
            params_changed: false,
            network: None,
            network_changed: false,
            searchmoves: Vec::new(),
            hash_mb: DEFAULT_HASH_MB,
            show_all_params,
            chess960: false,
            position: Chess::default(),
            history: Vec::new(),
            replayed: None,
            position_error: None,
            running: None,
            worker: None,
        }
    }

    /// The current parameters (as set by `setoption`).
    pub fn params(&self) -> &Params {
        &self.params
    }

    fn error(&self, message: &str) {
        send_message(&self.out, &info_string(format!("error: {message}")));
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Handles one raw input line: a line that is not UTF-8 is reported and skipped.
    /// Returns `false` after `quit`.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(e) => {
                let shown = String::from_utf8_lossy(line);
                let shown: String = shown.trim_end().chars().take(40).collect();
                self.error(&format!("input line is not UTF-8 ({e}): '{shown}' ignored"));
                true
            }
        }
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.reclaim_finished_search();
        if line.trim().is_empty() {
            return true;
        }
        let message = match GuiMessage::parse_lenient(line) {
            Ok(parsed) => {
                for warning in &parsed.warnings {
                    self.error(&warning.to_string());
                }
                parsed.message
            }
            Err(e) => {
                // A bad `position` must not leave the previous position to be searched.
                if line.split_whitespace().next() == Some("position") {
                    self.reject_position(e.to_string());
                } else {
                    self.error(&e.to_string());
                }
                return true;
            }
        };
        match message {
            GuiMessage::Uci => self.uci(),
            GuiMessage::IsReady => send_message(&self.out, &EngineMessage::ReadyOk),
            GuiMessage::SetOption { name, value } => {
                if self.running.is_some() {
                    self.error("setoption during a search is ignored (send stop first)");
                } else if let Err(message) = self.set_option(&name, value.as_deref()) {
                    self.error(&message);
                }
            }
            GuiMessage::UciNewGame => {
                if self.running.is_some() {
                    self.error("ucinewgame during a search is ignored (send stop first)");
                } else if let Some(searcher) = self.searcher.as_mut() {
                    searcher.new_game();
                    self.position = Chess::default();
                    self.history.clear();
                    self.replayed = None;
                    self.position_error = None;
                }
            }
            GuiMessage::Position { start, moves } => self.set_position(start, moves),
            GuiMessage::Go(go) => {
                let mut warnings = Vec::new();
                let request = command::go_request(&go, &mut warnings);
                for w in &warnings {
                    self.error(w);
                }
                self.go(request);
            }
            GuiMessage::Stop => self.stop_and_wait(),
            GuiMessage::PonderHit => self.ponder_hit(),
            GuiMessage::Debug(_) | GuiMessage::Register(_) => {}
            GuiMessage::Quit => {
                self.shutdown();
                return false;
            }
        }
        true
    }

    /// `position`: when it continues the previous one (same start, same first moves), only
    /// the new moves are played on the current position; otherwise it is set up anew.
    fn set_position(&mut self, start: StartPosition, moves: Vec<UciMove>) {
        let castling = self.castling_mode();
        let continues = self.position_error.is_none()
            && self.replayed.as_ref().is_some_and(|r| {
                r.castling == castling && r.start == start && moves.starts_with(&r.moves)
            });
        let outcome = if continues {
            let done = self.replayed.as_ref().map_or(0, |r| r.moves.len());
            play_moves(&mut self.position, &mut self.history, &moves[done..])
        } else {
            set_up(&start, castling).and_then(|mut position| {
                let mut history = Vec::with_capacity(moves.len());
                play_moves(&mut position, &mut history, &moves)?;
                self.position = position;
                self.history = history;
                Ok(())
            })
        };
        match outcome {
            Ok(()) => {
                self.position_error = None;
                self.replayed = Some(Replayed {
                    start,
                    moves,
                    castling,
                });
            }
            Err(message) => self.reject_position(message),
        }
    }

    fn reject_position(&mut self, message: String) {
        self.replayed = None;
        self.error(&format!(
            "{message}; no position until the next good 'position'"
        ));
        self.position_error = Some(message);
    }

    /// Stops any running search and waits for its `bestmove`.
    pub fn shutdown(&mut self) {
        self.stop_and_wait();
    }

    /// Waits for a running search to finish by itself (for depth- or node-limited searches).
    pub fn wait_for_search(&mut self) {
        if let Some(running) = self.running.take() {
            self.join(running);
        }
    }

    /// The options this engine declares, in `uci` order.
    fn option_declarations(&self) -> Vec<OptionDecl> {
        let spin = |name: &str, default: i64, min: i64, max: i64| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Spin {
                default: Some(default),
                min: Some(min),
                max: Some(max),
            },
        };
        let check = |name: &str, default: bool| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Check {
                default: Some(default),
            },
        };
        let mut options = vec![
            spin("Hash", DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB as i64),
            spin("Threads", 1, 1, 1),
            OptionDecl {
                name: "Clear Hash".to_string(),
                kind: OptionKind::Button,
            },
            check("Ponder", false),
            check("UCI_Chess960", false),
            check("ShowAllParams", self.show_all_params),
            OptionDecl {
                name: "EvalFile".to_string(),
                kind: OptionKind::String {
                    default: Some(EMBEDDED_NETWORK.to_string()),
                },
            },
        ];
        for spec in params::specs() {
            if spec.table && !self.show_all_params {
                continue;
            }
            options.push(match spec.value_type {
                ValueType::Check => check(&spec.name, spec.default != 0),
                ValueType::Spin => spin(
                    &spec.name,
                    i64::from(spec.default),
                    i64::from(spec.min),
                    i64::from(spec.max),
                ),
            });
        }
        options
    }

    fn uci(&self) {
        let mut lines = vec![
            EngineMessage::IdName(format!(
                "{} {}",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION")
            )),
            EngineMessage::IdAuthor("the engine authors".to_string()),
        ];
        lines.extend(
            self.option_declarations()
                .into_iter()
                .map(EngineMessage::Option),
        );
        lines.push(EngineMessage::UciOk);
        let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
        send(&self.out, &text.join("\n"));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let need_value = || value.ok_or_else(|| format!("setoption {name}: missing value"));
        let boolean = |option: &str| match need_value()?.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(format!("{option}: '{other}' is not true or false")),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let text = need_value()?.trim();
                let mb = text
                    .parse::<usize>()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| {
                        format!(
                            "Hash value '{text}' is out of range (accepted: an integer in 1..={MAX_HASH_MB} MiB)"
                        )
                    })?;
                self.hash_mb = mb;
                if let Some(s) = self.searcher.as_mut() {
                    s.set_hash_size(mb);
                }
            }
            "threads" => {
                if need_value()?.trim() != "1" {
                    return Err("Threads: only 1 thread is supported".to_string());
                }
            }
            "clear hash" => {
                if let Some(s) = self.searcher.as_mut() {
                    s.set_hash_size(self.hash_mb);
                }
            }
            // The GUI's notice that it may send `go ponder`; nothing to change here.
            "ponder" => {
                boolean("Ponder")?;
            }
            "uci_chess960" => self.chess960 = boolean("UCI_Chess960")?,
            "showallparams" => self.show_all_params = boolean("ShowAllParams")?,
            "evalfile" => {
                let path = value.map_or("", str::trim);
                self.network = if path.is_empty() || path == EMBEDDED_NETWORK {
                    None
                } else {
                    Some(nnue::load(Path::new(path)).map_err(|e| format!("EvalFile {e}"))?)
                };
                self.network_changed = true;
            }
            _ => {
                // Parameter names are snake_case; GUIs may change the case of option names.
                let param = if params::find(name).is_some() {
                    name.to_string()
                } else {
                    name.to_ascii_lowercase()
                };
                self.params
                    .set_by_name(&param, need_value()?)
                    .map_err(|e| e.to_string())?;
                self.params_changed = true;
            }
        }
        Ok(())
    }

    fn go(&mut self, request: GoRequest) {
        if self.running.is_some() {
            self.error("go while a search is running is ignored (send stop first)");
            return;
        }
        if let Some(message) = &self.position_error {
            self.error(&format!("go: no valid position ({message})"));
            send_message(
                &self.out,
                &EngineMessage::BestMove {
                    best: UciMove::Null,
                    ponder: None,
                },
            );
            return;
        }
        match request {
            GoRequest::Perft(depth) => self.perft(depth),
            GoRequest::Search {
                limits,
                ponder,
                searchmoves,
            } => {
                self.searchmoves = self.root_moves(&searchmoves);
                if ponder {
                    let pondering = Limits {
                        infinite: true,
                        ..Limits::default()
                    };
                    self.start_search(pondering, Some(limits));
                } else {
                    self.start_search(limits, None);
                }
            }
        }
    }

    /// The legal moves among `go searchmoves`; each illegal one is reported and left out, and
    /// when none is legal the search takes every move (an empty list).
    fn root_moves(&self, searchmoves: &[UciMove]) -> Vec<Move> {
        let mut legal = Vec::new();
        for uci in searchmoves {
            match uci.to_move(&self.position) {
                Ok(m) => legal.push(m),
                Err(_) => self.error(&format!("go searchmoves: {uci} is not legal here; ignored")),
            }
        }
        if legal.is_empty() && !searchmoves.is_empty() {
            self.error("go searchmoves: no legal move given; searching every move");
        }
        legal
    }

    /// `go perft`: each root move's leaf count, then the total, as Stockfish prints them.
    fn perft(&self, depth: u32) {
        debug_assert!((1..=MAX_PERFT_DEPTH).contains(&depth));
        let castling = self.castling_mode();
        let mut lines = Vec::new();
        let mut total = 0;
        for m in self.position.legal_moves() {
            let mut child = self.position.clone();
            child.play_unchecked(m);
            let count = shakmaty::perft(&child, depth - 1);
            total += count;
            lines.push(format!("{}: {count}", m.to_uci(castling)));
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines.push(String::new());
        send(&self.out, &lines.join("\n"));
    }

    fn start_search(&mut self, limits: Limits, ponder_limits: Option<Limits>) {
        let Some(mut searcher) = self.searcher.take() else {
            self.error("internal: no searcher available");
            return;
        };
        if self.network_changed {
            searcher.set_network(self.network);
            self.network_changed = false;
        }
        if self.params_changed {
            searcher.set_params(self.params.clone());
            self.params_changed = false;
        }
        // A worker that died in an earlier search (a panic) has already been reported.
        if self.worker.as_ref().is_none_or(|w| w.handle.is_finished()) {
            match SearchWorker::spawn(Arc::clone(&self.out)) {
                Ok(worker) => self.worker = Some(worker),
                Err(e) => {
                    self.searcher = Some(searcher);
                    self.error(&format!("cannot start the search thread: {e}"));
                    return;
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let silent = Arc::new(AtomicBool::new(false));
        let job = SearchJob {
            searcher,
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            searchmoves: self.searchmoves.clone(),
            castling: self.castling_mode(),
            stop: Arc::clone(&stop),
            finished: Arc::clone(&finished),
            silent: Arc::clone(&silent),
        };
        let sent = match self.worker.as_ref() {
            Some(worker) => worker.jobs.send(job).map_err(|e| e.0),
            None => Err(job),
        };
        match sent {
            Ok(()) => {
                self.running = Some(RunningSearch {
                    stop,
                    finished,
                    ponder_limits,
                    silent,
                })
            }
            Err(job) => {
                self.worker = None;
                self.searcher = Some(job.searcher);
                self.error("internal: the search thread is gone; go ignored");
            }
        }
    }

    /// `ponderhit`: the opponent played the expected move; search it with the real limits.
    fn ponder_hit(&mut self) {
        let Some(limits) = self.running.as_ref().and_then(|r| r.ponder_limits) else {
            self.error("ponderhit without a ponder search is ignored");
            return;
        };
        if let Some(running) = self.running.take() {
            running.silent.store(true, Ordering::Relaxed);
            running.stop.store(true, Ordering::Relaxed);
            self.join(running);
        }
        self.start_search(limits, None);
    }

    fn stop_and_wait(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            self.join(running);
        }
    }

    fn reclaim_finished_search(&mut self) {
        let worker_died = self.worker.as_ref().is_some_and(|w| w.handle.is_finished());
        if self
            .running
            .as_ref()
            .is_some_and(|r| worker_died || r.finished.load(Ordering::Acquire))
            && let Some(running) = self.running.take()
        {
            self.join(running);
        }
    }

    /// Takes the searcher back from the search thread once the search is over.
    fn join(&mut self, _running: RunningSearch) {
        match self.worker.as_ref().map(|w| w.searchers.recv()) {
            Some(Ok(searcher)) => self.searcher = Some(searcher),
            _ => {
                self.worker = None;
                self.error("the search thread failed; starting a fresh searcher");
                self.searcher = Some(Searcher::new(self.params.clone(), self.hash_mb));
            }
        }
    }
}

/// The position a `position` command describes, and the keys of the positions before it.
/// What the last good `position` command said.
struct Replayed {
    start: StartPosition,
    moves: Vec<UciMove>,
    castling: CastlingMode,
}

/// The start position of a `position` command.
fn set_up(start: &StartPosition, castling: CastlingMode) -> Result<Chess, String> {
    match start {
        StartPosition::StartPos => Ok(Chess::default()),
        StartPosition::Fen(fen) => fen
            .clone()
            .into_position(castling)
            .map_err(|e| format!("position: illegal FEN position '{fen}': {e}")),
    }
}

/// Plays `moves` on `pos`, recording the key of each position left behind in `history`.
fn play_moves(pos: &mut Chess, history: &mut Vec<u64>, moves: &[UciMove]) -> Result<(), String> {
    for uci in moves {
        let m = uci.to_move(pos).map_err(|_| {
            format!(
                "position: illegal move '{uci}' in position {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            )
        })?;
        history.push(position_key(pos));
        pos.play_unchecked(m);
    }
    Ok(())
}

fn score_value(score: Score) -> ScoreValue {
    match score {
        Score::Cp(cp) => ScoreValue::Cp(cp),
        Score::Mate(n) => ScoreValue::Mate(n),
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let nps = u128::from(nodes) * 1000 / time.as_millis().max(1);
    u64::try_from(nps).unwrap_or(u64::MAX)
}

/// `info depth … pv …` for one iteration.
fn iteration_message(info: &SearchInfo, castling: CastlingMode) -> EngineMessage {
    EngineMessage::Info(Info {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        score: Some(uci_protocol::Score::exact(score_value(info.score))),
        nodes: Some(info.nodes),
        nps: Some(nps(info.nodes, info.time)),
        hashfull: Some(info.hashfull),
        time: Some(u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX)),
        pv: info.pv.iter().map(|m| m.to_uci(castling)).collect(),
        ..Info::default()
    })
}

/// The `info` line of the move played, just before `bestmove`: its score, the depth
/// reached, every node searched (also those of an unfinished iteration) and a pv that
/// starts with the move.
fn final_message(
    result: &SearchResult,
    best: Move,
    hashfull: u32,
    castling: CastlingMode,
) -> EngineMessage {
    let mut pv = played_pv(result);
    if pv.is_empty() {
        pv.push(best);
    }
    EngineMessage::Info(Info {
        depth: Some(result.depth),
        seldepth: Some(result.seldepth),
        score: Some(uci_protocol::Score::exact(score_value(result.score))),
        nodes: Some(result.nodes),
        nps: Some(nps(result.nodes, result.time)),
        hashfull: Some(hashfull),
        time: Some(u64::try_from(result.time.as_millis()).unwrap_or(u64::MAX)),
        pv: pv.iter().map(|m| m.to_uci(castling)).collect(),
        ..Info::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn options_and_errors() {
        let sink = Sink::default();
        let mut s = Session::new(Box::new(sink.clone()), false);
        s.handle_line("uci");
        let text = sink.text();
        assert!(text.contains("option name delta_margin type spin default 227 min 0 max 2000"));
        assert!(text.contains("option name null_move type check default true"));
        assert!(!text.contains("pst_knight_e4_mg"));
        assert!(text.trim_end().ends_with("uciok"));
        s.handle_line("setoption name pst_knight_e4_mg value 12");
        s.handle_line("setoption name qsearch_check_plies value 2");
        s.handle_line("setoption name lmr value false");
        assert_eq!(s.params().get_by_name("pst_knight_e4_mg"), Some(12));
        assert_eq!(s.params().get_by_name("qsearch_check_plies"), Some(2));
        assert_eq!(s.params().get_by_name("lmr"), Some(0));
        s.handle_line("setoption name delta_margin value 99999");
        s.handle_line("setoption name Threads value 4");
        s.handle_line("position startpos moves e2e4 e2e4");
        s.handle_line("position fen not/a/fen");
        s.handle_line("fly away");
        let errors = sink
            .text()
            .lines()
            .filter(|l| l.starts_with("info string error:"))
            .count();
        assert_eq!(errors, 5, "{}", sink.text());
        s.handle_line("setoption name ShowAllParams value true");
        s.handle_line("uci");
        assert!(
            sink.text()
                .contains("option name pst_knight_e4_mg type spin")
        );
    }

    /// The node count of the last `info depth` line of `text`.
    fn last_nodes(text: &str) -> u64 {
        let line = text
            .lines()
            .rfind(|l| l.starts_with("info depth"))
            .expect("an info line");
        let mut words = line.split_whitespace();
        words.find(|w| *w == "nodes").expect("nodes");
        words.next().unwrap().parse().unwrap()
    }

    #[test]
    fn eval_file_swaps_the_network_and_names_a_bad_file() {
        let dir = std::env::temp_dir().join(format!("uci-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Another network of the same shape: the built-in one with every seventh feature
        // weight negated.
        let mut float = nnue::embedded().dequantise();
        for w in float.feature_weights.iter_mut().step_by(7) {
            *w = -*w;
        }
        let bytes = float.quantise().to_bytes();
        let other = dir.join("other net.nnue");
        std::fs::write(&other, &bytes).unwrap();

        let sink = Sink::default();
        let mut s = Session::new(Box::new(sink.clone()), false);
        s.handle_line("uci");
        assert!(
            sink.text()
                .contains("option name EvalFile type string default <embedded>"),
            "{}",
            sink.text()
        );
        let search = |s: &mut Session| {
            s.handle_line("ucinewgame");
            s.handle_line("position startpos moves e2e4 e7e5 g1f3");
            s.handle_line("go depth 7");
            s.wait_for_search();
            last_nodes(&sink.text())
        };
        let built_in = search(&mut s);
        s.handle_line(&format!(
            "setoption name EvalFile value {}",
            other.display()
        ));
        let swapped = search(&mut s);
        assert_ne!(
            built_in, swapped,
            "the other network searched the same tree"
        );
        s.handle_line("setoption name EvalFile value <embedded>");
        assert_eq!(search(&mut s), built_in);

        let missing = dir.join("missing.nnue");
        s.handle_line(&format!(
            "setoption name EvalFile value {}",
            missing.display()
        ));
        assert!(
            sink.text().contains(&format!(
                "info string error: EvalFile {}: ",
                missing.display()
            )),
            "{}",
            sink.text()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn searches_and_reports() {
        let sink = Sink::default();
        let mut s = Session::new(Box::new(sink.clone()), false);
        s.handle_line("position startpos moves e2e4 e7e5");
        s.handle_line("go depth 3");
        s.handle_line("isready");
        s.wait_for_search();
        let text = sink.text();
        assert!(text.contains("readyok"));
        assert!(text.contains("info depth 3 seldepth"), "{text}");
        let bestmoves = text.lines().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(bestmoves, 1, "{text}");
    }
}
