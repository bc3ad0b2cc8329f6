//! An external UCI engine as a match uses it: start with the handshake and options, new game,
//! search a position with limits and a deadline, restart after a fault.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::search::{Limits, Score};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use uci_protocol::{Bound, EngineMessage, GuiMessage, Info, OptionDecl, OptionKind, ScoreValue};

use super::commands;
use super::fault::{FaultKind, UciError, UciFault};
use super::process::{EngineCommand, EngineProcess, ReadError};

/// How often a waiting search checks whether the match is being interrupted.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// How an external engine is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciEngineConfig {
    /// The engine's name in the match (used in messages).
    pub name: String,
    pub command: EngineCommand,
    /// `setoption` pairs sent after the handshake, in this order.
    pub options: Vec<(String, String)>,
    /// Longest wait for `uciok` after start.
    pub startup_timeout: Duration,
    /// Longest wait for `readyok` after `isready`.
    pub ready_timeout: Duration,
    /// After a missed deadline, how long the engine gets to answer `stop` before it is killed.
    pub stop_grace: Duration,
    /// Sent as the `Hash` option (clamped to its range) when the engine declares one and
    /// `options` does not set it: the match's hash size.
    pub default_hash_mb: Option<usize>,
}

impl UciEngineConfig {
    /// A configuration with the default timeouts (10 s start-up, 10 s ready, 1 s after stop).
    pub fn new(name: impl Into<String>, command: EngineCommand) -> Self {
        UciEngineConfig {
            name: name.into(),
            command,
            options: Vec::new(),
            startup_timeout: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
            default_hash_mb: None,
        }
    }
}

/// The fields of one `info` line that a match keeps (each optional, as engines send subsets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// Score from the side to move's view.
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time: Option<Duration>,
    /// The principal variation as UCI move text.
    pub pv: Vec<String>,
}

impl From<&Info> for InfoLine {
    fn from(info: &Info) -> Self {
        InfoLine {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score.map(|s| match s.value {
                ScoreValue::Cp(cp) => Score::Cp(cp),
                ScoreValue::Mate(n) => Score::Mate(n),
            }),
            bound: info.score.map(|s| s.bound),
            nodes: info.nodes,
            nps: info.nps,
            hashfull: info.hashfull,
            time: info.time.map(Duration::from_millis),
            pv: info.pv.iter().map(ToString::to_string).collect(),
        }
    }
}

/// A line from the engine: a message, a `bestmove` that is not one, or other text.
enum EngineLine {
    Message(EngineMessage),
    /// `bestmove` followed by something that is not a move (kept for the fault's detail).
    BadBestMove(String),
    /// Banners, debug output, lines of unknown messages: ignored.
    Other,
}

fn classify(line: &str) -> EngineLine {
    // Lenient: engines print extra `info` fields, which must not hide the known ones.
    match EngineMessage::parse_lenient(line) {
        Ok(parsed) => EngineLine::Message(parsed.message),
        Err(_) if line.split_whitespace().next() == Some("bestmove") => {
            EngineLine::BadBestMove(line.split_whitespace().nth(1).unwrap_or("").to_string())
        }
        Err(_) => EngineLine::Other,
    }
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    pub best_move: Move,
    pub ponder: Option<String>,
    /// The last `info` line with a score (of the first PV line), if any.
    pub info: Option<InfoLine>,
    /// Time from sending `go` to reading `bestmove`, as the harness's clock counts it.
    pub elapsed: Duration,
}

/// A running external engine. Dropping it sends `quit` and kills the process if needed.
pub struct UciEngine {
    config: UciEngineConfig,
    process: Option<EngineProcess>,
    id_name: Option<String>,
    id_author: Option<String>,
    options: Vec<OptionDecl>,
}

impl UciEngine {
    /// Starts the engine: `uci` handshake, the configured options, `isready`.
    pub fn start(config: UciEngineConfig) -> Result<Self, UciError> {
        let mut engine = UciEngine {
            config,
            process: None,
            id_name: None,
            id_author: None,
            options: Vec::new(),
        };
        engine.launch()?;
        Ok(engine)
    }

    /// Kills the current process (if any) and starts a fresh one with the same configuration.
    pub fn restart(&mut self) -> Result<(), UciError> {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.launch()
    }

    /// False after a fault that killed the process; [`restart`](Self::restart) brings it back.
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    pub fn config(&self) -> &UciEngineConfig {
        &self.config
    }

    /// The engine's `id name`.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The engine's `id author`.
    pub fn id_author(&self) -> Option<&str> {
        self.id_author.as_deref()
    }

    /// The options the engine declared in its `uci` answer.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// The process id, while running.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(EngineProcess::pid)
    }

    /// Sends `setoption`, checking the name and value against the engine's declarations.
    /// Option names match without regard to case, as the UCI protocol asks.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        let spec = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| UciError::UnknownOption {
                engine: self.config.name.clone(),
                name: name.to_string(),
                known: self.options.iter().map(|o| o.name.clone()).collect(),
            })?;
        spec.check_value(value)
            .map_err(|message| UciError::BadOptionValue {
                engine: self.config.name.clone(),
                message,
            })?;
        let command = GuiMessage::SetOption {
            name: spec.name.clone(),
            value: (spec.kind != OptionKind::Button).then(|| value.to_string()),
        };
        self.send(&command.to_string())
    }

    /// `ucinewgame` followed by `isready`.
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.send(&GuiMessage::UciNewGame.to_string())?;
        self.ensure_ready()
    }

    /// `isready`, waiting for `readyok` up to the ready timeout (else the engine stalls).
    pub fn ensure_ready(&mut self) -> Result<(), UciError> {
        self.wait_ready().map(drop)
    }

    /// [`ensure_ready`](Self::ensure_ready), returning the first `info string` before
    /// `readyok` that reports an error, if any.
    fn wait_ready(&mut self) -> Result<Option<String>, UciError> {
        self.send(&GuiMessage::IsReady.to_string())?;
        let deadline = Instant::now() + self.config.ready_timeout;
        let mut error = None;
        loop {
            match self.read_line(deadline, "waiting for readyok")? {
                Some(EngineLine::Message(EngineMessage::ReadyOk)) => return Ok(error),
                Some(EngineLine::Message(EngineMessage::Info(info))) => {
                    if let Some(text) = info.string
                        && text.to_ascii_lowercase().starts_with("error")
                    {
                        error.get_or_insert(text);
                    }
                }
                Some(_) => {}
                None => {
                    let waited = self.config.ready_timeout;
                    return Err(self
                        .fail_killed(FaultKind::Stalled, format!("no readyok within {waited:?}")));
                }
            }
        }
    }

    /// Searches the position reached by `moves` from `start` with `limits`, waiting for
    /// `bestmove` up to `timeout` (the clock plus the margin). The move is checked for
    /// legality. On a missed deadline the engine is sent `stop`; the fault says whether it
    /// then answered (still usable) or was killed.
    pub fn go(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        timeout: Duration,
    ) -> Result<SearchReply, UciError> {
        self.go_interruptible(start, moves, limits, timeout, &AtomicBool::new(false))
    }

    /// [`go`](Self::go) that also gives up when `interrupt` is set (the match is stopping):
    /// the engine is sent `stop` and the result is [`UciError::Interrupted`].
    pub fn go_interruptible(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, UciError> {
        let mut current = start.clone();
        for m in moves {
            current.play_unchecked(*m);
        }
        // One write for both lines: one wake-up of the engine instead of two.
        let position = commands::position(start, moves);
        self.send(&format!("{position}\n{}", commands::go(limits)))?;
        let sent = Instant::now();
        let deadline = sent + timeout;
        let mut info: Option<InfoLine> = None;
        loop {
            // Short waits, so an interruption is noticed quickly.
            let slice = deadline.min(Instant::now() + INTERRUPT_POLL);
            match self.read_line(slice, "thinking")? {
                Some(EngineLine::Message(EngineMessage::Info(line)))
                    if line.score.is_some() && line.multipv.is_none_or(|k| k == 1) =>
                {
                    info = Some(InfoLine::from(&line));
                }
                Some(EngineLine::Message(EngineMessage::BestMove { best, ponder })) => {
                    let elapsed = sent.elapsed();
                    let best_move = self.check_move(&current, best)?;
                    return Ok(SearchReply {
                        best_move,
                        ponder: ponder.map(|p| p.to_string()),
                        info,
                        elapsed,
                    });
                }
                Some(EngineLine::BadBestMove(text)) => {
                    let fen = Fen::from_position(&current, EnPassantMode::Legal);
                    return Err(self.fail_alive(
                        FaultKind::IllegalMove,
                        format!("malformed bestmove '{text}' in {fen}"),
                    ));
                }
                Some(_) => {}
                None if interrupt.load(Ordering::Relaxed) => {
                    if !self.stop_search() {
                        self.kill();
                    }
                    return Err(UciError::Interrupted);
                }
                None if Instant::now() >= deadline => return Err(self.missed_deadline(timeout)),
                None => {}
            }
        }
    }

    /// Stops the process now (no `quit`); the engine needs a restart afterwards.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    fn launch(&mut self) -> Result<(), UciError> {
        let process =
            EngineProcess::spawn(&self.config.command).map_err(|source| UciError::Spawn {
                engine: self.config.name.clone(),
                program: self.config.command.program.display().to_string(),
                source,
            })?;
        self.process = Some(process);
        self.id_name = None;
        self.id_author = None;
        self.options.clear();

        self.send(&GuiMessage::Uci.to_string())?;
        let deadline = Instant::now() + self.config.startup_timeout;
        loop {
            match self.read_line(deadline, "starting (waiting for uciok)")? {
                Some(EngineLine::Message(message)) => match message {
                    EngineMessage::UciOk => break,
                    EngineMessage::IdName(name) => self.id_name = Some(name),
                    EngineMessage::IdAuthor(author) => self.id_author = Some(author),
                    EngineMessage::Option(spec) => self.options.push(spec),
                    _ => {}
                },
                Some(_) => {}
                None => {
                    let waited = self.config.startup_timeout;
                    return Err(
                        self.fail_killed(FaultKind::Stalled, format!("no uciok within {waited:?}"))
                    );
                }
            }
        }
        for (name, value) in self.config.options.clone() {
            self.set_option(&name, &value)?;
        }
        if let Some(hash) = self.default_hash() {
            self.set_option("Hash", &hash.to_string())?;
        }
        match self.wait_ready()? {
            // An engine that says it could not take an option (ours answers `info string
            // error: ...`, Stockfish `info string ERROR: ...`) would otherwise play on
            // without it: a match of a network file that was not found would pit the engine
            // against itself.
            Some(error) if !self.config.options.is_empty() => Err(UciError::BadOptionValue {
                engine: self.config.name.clone(),
                message: format!("the engine rejected its options: {error}"),
            }),
            _ => Ok(()),
        }
    }

    /// The `Hash` value to send for [`UciEngineConfig::default_hash_mb`], if any.
    fn default_hash(&self) -> Option<i64> {
        let wanted = i64::try_from(self.config.default_hash_mb?).ok()?;
        if self
            .config
            .options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("Hash"))
        {
            return None;
        }
        let spec = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("Hash"))?;
        match spec.kind {
            OptionKind::Spin { min, max, .. } => {
                Some(wanted.max(min.unwrap_or(wanted)).min(max.unwrap_or(wanted)))
            }
            _ => None,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), UciError> {
        let sent = match self.process.as_mut() {
            Some(process) => process.send(line).is_ok(),
            None => false,
        };
        if sent {
            Ok(())
        } else {
            Err(self.disconnected(&format!("sending `{line}`")))
        }
    }

    /// The next line, `None` at the deadline; a closed pipe is the `Disconnected` fault.
    fn read_line(
        &mut self,
        deadline: Instant,
        doing: &str,
    ) -> Result<Option<EngineLine>, UciError> {
        let Some(process) = self.process.as_mut() else {
            return Err(self.disconnected(doing));
        };
        match process.recv_until(deadline) {
            Ok(line) => Ok(Some(classify(&line))),
            Err(ReadError::Timeout) => Ok(None),
            Err(ReadError::Closed) => Err(self.disconnected(doing)),
            Err(ReadError::LineTooLong) => {
                if let Some(mut process) = self.process.take() {
                    process.finish(Duration::from_millis(500));
                }
                Err(self.fault(
                    FaultKind::Disconnected,
                    format!(
                        "wrote a line of more than {} bytes while {doing}; stopped reading it",
                        crate::uci::process::MAX_LINE_BYTES
                    ),
                    false,
                ))
            }
        }
    }

    fn check_move(&mut self, position: &Chess, uci: UciMove) -> Result<Move, UciError> {
        let fen = || Fen::from_position(position, EnPassantMode::Legal);
        uci.to_move(position).map_err(|_| {
            self.fail_alive(
                FaultKind::IllegalMove,
                format!("illegal bestmove '{uci}' in {}", fen()),
            )
        })
    }

    /// Sends `stop` and waits the stop grace for `bestmove`; true if it came.
    fn stop_search(&mut self) -> bool {
        if self.send(&GuiMessage::Stop.to_string()).is_err() {
            return false;
        }
        let deadline = Instant::now() + self.config.stop_grace;
        loop {
            match self.read_line(deadline, "stopping") {
                Ok(Some(EngineLine::Message(EngineMessage::BestMove { .. })))
                | Ok(Some(EngineLine::BadBestMove(_))) => return true,
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return false,
            }
        }
    }

    /// After a missed deadline: `stop`, a short grace for `bestmove`, else kill.
    fn missed_deadline(&mut self, timeout: Duration) -> UciError {
        let answered = self.stop_search();
        let detail = format!("no bestmove within {timeout:?}");
        if answered {
            self.fail_alive(FaultKind::TimedOut, format!("{detail} (answered stop)"))
        } else {
            self.fail_killed(
                FaultKind::TimedOut,
                format!("{detail}, nor after stop: killed"),
            )
        }
    }

    fn disconnected(&mut self, doing: &str) -> UciError {
        let detail = match self.process.take() {
            Some(mut process) => {
                let status = process.finish(Duration::from_millis(500));
                let stderr = last_lines(&process.stderr_tail());
                let stderr = if stderr.is_empty() {
                    String::new()
                } else {
                    format!("; stderr ends: {stderr}")
                };
                format!("closed its output while {doing} ({status}){stderr}")
            }
            None => format!("not running while {doing}"),
        };
        self.fault(FaultKind::Disconnected, detail, false)
    }

    fn fail_killed(&mut self, kind: FaultKind, detail: String) -> UciError {
        self.kill();
        self.fault(kind, detail, false)
    }

    fn fail_alive(&self, kind: FaultKind, detail: String) -> UciError {
        self.fault(kind, detail, true)
    }

    fn fault(&self, kind: FaultKind, detail: String, engine_alive: bool) -> UciError {
        UciError::Fault(UciFault {
            kind,
            engine: self.config.name.clone(),
            detail,
            engine_alive,
        })
    }
}

/// The last few lines of `text` on one line (for a fault's detail, which ends up in the PGN).
fn last_lines(text: &str) -> String {
    const LINES: usize = 4;
    const CHARS: usize = 300;
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let joined = lines[lines.len().saturating_sub(LINES)..].join(" | ");
    let skip = joined.chars().count().saturating_sub(CHARS);
    let mut tail: String = joined.chars().skip(skip).collect();
    if skip > 0 {
        tail.insert_str(0, "...");
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::last_lines;

    #[test]
    fn stderr_tail_is_short_and_on_one_line() {
        assert_eq!(last_lines("a\n\nb\nc\nd\ne\n"), "b | c | d | e");
        assert_eq!(last_lines(""), "");
        let long = "x".repeat(1000);
        let tail = last_lines(&long);
        assert!(tail.starts_with("...") && tail.chars().count() == 303);
    }
}
