//! The UCI protocol: [`command`] parses lines; [`Session`] holds the engine state (options,
//! position, searcher) and runs searches on a separate, long-lived thread so that `stop` and
//! `isready` are answered while searching.
//!
//! Every option of the parameter registry is a UCI option with the parameter's exact name
//! (`spin`, or `check` for switches). The large evaluation tables are listed only after
//! `--all-options` or `setoption name ShowAllParams value true`; `setoption` accepts every
//! parameter either way.

pub mod command;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::params::{self, Params, ValueType};
use crate::search::{Limits, Score, SearchInfo, Searcher, position_key};
use command::{Command, StartPosition};

/// Transposition table size before any `setoption name Hash`.
pub const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 65_536;
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

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it sends `bestmove`: from then on the GUI may
    /// send the next `go`, and taking the searcher back takes no time.
    finished: Arc<AtomicBool>,
}

/// One `go`: everything the search thread needs, including the searcher it hands back.
struct SearchJob {
    searcher: Searcher,
    position: Chess,
    history: Vec<u64>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
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
        stop,
        finished,
    } = job;
    let result = searcher.search(&position, &history, &limits, &stop, &mut |info| {
        send(out, &info_line(info))
    });
    // UCI: after `go infinite` the best move waits for `stop`.
    while limits.infinite && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let best = result.best_move.map_or_else(
        || "0000".to_string(),
        |m| m.to_uci(CastlingMode::Standard).to_string(),
    );
    finished.store(true, Ordering::Release);
    send(out, &format!("bestmove {best}"));
    searcher
}

/// A UCI session: feed it lines with [`Session::handle_line`].
pub struct Session {
    out: Output,
    params: Params,
    /// Parameters changed since the searcher last received them.
    params_changed: bool,
    hash_mb: usize,
    show_all_params: bool,
    position: Chess,
    /// Keys of the positions before `position`, oldest first.
    history: Vec<u64>,
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
            hash_mb: DEFAULT_HASH_MB,
            show_all_params,
            position: Chess::default(),
            history: Vec::new(),
            running: None,
            worker: None,
        }
    }

    /// The current parameters (as set by `setoption`).
    pub fn params(&self) -> &Params {
        &self.params
    }

    fn error(&self, message: &str) {
        send(&self.out, &format!("info string error: {message}"));
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.reclaim_finished_search();
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(message) => {
                self.error(&message);
                return true;
            }
        };
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => send(&self.out, "readyok"),
            Command::SetOption { name, value } => {
                if self.running.is_some() {
                    self.error("setoption during a search is ignored (send stop first)");
                } else if let Err(message) = self.set_option(&name, value.as_deref()) {
                    self.error(&message);
                }
            }
            Command::UciNewGame => {
                if self.running.is_some() {
                    self.error("ucinewgame during a search is ignored (send stop first)");
                } else if let Some(searcher) = self.searcher.as_mut() {
                    searcher.new_game();
                    self.position = Chess::default();
                    self.history.clear();
                }
            }
            Command::Position { start, moves } => match parse_position(&start, &moves) {
                Ok((position, history)) => {
                    self.position = position;
                    self.history = history;
                }
                Err(message) => self.error(&format!("{message}; position unchanged")),
            },
            Command::Go { limits, warnings } => {
                for w in &warnings {
                    self.error(w);
                }
                self.go(limits);
            }
            Command::Stop => self.stop_and_wait(),
            Command::PonderHit | Command::Ignored => {}
            Command::Quit => {
                self.shutdown();
                return false;
            }
        }
        true
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

    fn uci(&self) {
        let mut lines = vec![
            format!(
                "id name {} {}",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION")
            ),
            "id author the engine authors".to_string(),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
            "option name Threads type spin default 1 min 1 max 1".to_string(),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name ShowAllParams type check default {}",
                self.show_all_params
            ),
        ];
        for spec in params::specs() {
            if spec.table && !self.show_all_params {
                continue;
            }
            lines.push(match spec.value_type {
                ValueType::Check => format!(
                    "option name {} type check default {}",
                    spec.name,
                    spec.default != 0
                ),
                ValueType::Spin => format!(
                    "option name {} type spin default {} min {} max {}",
                    spec.name, spec.default, spec.min, spec.max
                ),
            });
        }
        lines.push("uciok".to_string());
        send(&self.out, &lines.join("\n"));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let need_value = || value.ok_or_else(|| format!("setoption {name}: missing value"));
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = need_value()?
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| format!("Hash must be an integer in 1..={MAX_HASH_MB} MiB"))?;
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
            "showallparams" => {
                self.show_all_params = match need_value()?.trim() {
                    "true" => true,
                    "false" => false,
                    other => return Err(format!("ShowAllParams: '{other}' is not true or false")),
                };
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

    fn go(&mut self, limits: Limits) {
        if self.running.is_some() {
            self.error("go while a search is running is ignored (send stop first)");
            return;
        }
        let Some(mut searcher) = self.searcher.take() else {
            self.error("internal: no searcher available");
            return;
        };
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
        let job = SearchJob {
            searcher,
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            stop: Arc::clone(&stop),
            finished: Arc::clone(&finished),
        };
        let sent = match self.worker.as_ref() {
            Some(worker) => worker.jobs.send(job).map_err(|e| e.0),
            None => Err(job),
        };
        match sent {
            Ok(()) => self.running = Some(RunningSearch { stop, finished }),
            Err(job) => {
                self.worker = None;
                self.searcher = Some(job.searcher);
                self.error("internal: the search thread is gone; go ignored");
            }
        }
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
fn parse_position(start: &StartPosition, moves: &[String]) -> Result<(Chess, Vec<u64>), String> {
    let mut pos = match start {
        StartPosition::Startpos => Chess::default(),
        StartPosition::Fen(text) => text
            .parse::<Fen>()
            .map_err(|e| format!("bad FEN '{text}': {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal FEN position '{text}': {e}"))?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for text in moves {
        let m = text
            .parse::<UciMove>()
            .map_err(|_| format!("'{text}' is not a UCI move"))?
            .to_move(&pos)
            .map_err(|_| {
                format!(
                    "illegal move '{text}' in position {}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                )
            })?;
        history.push(position_key(&pos));
        pos.play_unchecked(m);
    }
    Ok((pos, history))
}

/// `info depth … pv …` for one iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let millis = info.time.as_millis();
    let nps = u128::from(info.nodes) * 1000 / millis.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {millis} hashfull {}",
        info.depth, info.seldepth, info.nodes, info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push(' ');
            line.push_str(&m.to_uci(CastlingMode::Standard).to_string());
        }
    }
    line
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
        assert!(text.contains("option name delta_margin type spin default 200 min 0 max 2000"));
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
