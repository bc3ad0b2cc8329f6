//! `fake-uci`: a UCI engine that plays legal moves, or misbehaves on purpose (crashes, hangs,
//! stalls, illegal moves, floods, slowness, time losses, garbage, random chaos), so the
//! harness's fault handling is tested without any other program. `fake-uci --help` lists the
//! modes and flags. GUI commands are parsed by the engine's own UCI parser.

mod chaos;
mod flags;
mod moves;

use std::io::{self, BufRead, Write};
use std::process;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use engine::search::Limits;
use engine::uci::command::{GoRequest, go_request};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position};
use uci_protocol::{GuiMessage, StartPosition};

use flags::{Flags, Mode};

/// How long a hanging fake sleeps: longer than any test waits, short enough that an orphan
/// left by a killed test run goes away.
const HANG: Duration = Duration::from_secs(3600);

const BUILT_IN_OPTIONS: [&str; 5] = [
    "name Hash type spin default 16 min 1 max 1024",
    "name Ponder type check default false",
    "name Style type combo default Normal var Solid var Normal var Risky",
    "name Clear Hash type button",
    "name Debug Log File type string default <empty>",
];

fn main() {
    let flags = Flags::parse();
    let lines = stdin_lines();
    Fake::new(flags).run(&lines);
}

/// Lines of stdin read on their own thread, so a thinking fake still sees `stop`. The
/// channel closes at the end of input.
fn stdin_lines() -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// Stdout, which a fake may close on purpose; writes to a closed pipe are dropped.
struct Output {
    closed: bool,
}

impl Output {
    fn line(&mut self, text: &str) {
        self.raw(format!("{text}\n").as_bytes());
    }

    /// Writes bytes as they are; false once nobody reads them.
    fn raw(&mut self, bytes: &[u8]) -> bool {
        if self.closed {
            return false;
        }
        let mut out = io::stdout().lock();
        out.write_all(bytes).and_then(|_| out.flush()).is_ok()
    }

    /// Closes file descriptor 1 (the GUI then reads the end of our output) and goes on.
    fn close(&mut self) {
        if !self.closed {
            let _ = io::stdout().lock().flush();
            // SAFETY: close(2) on our own stdout; nothing writes to fd 1 afterwards, as every
            // write goes through `raw`, which checks `closed` first.
            unsafe {
                libc::close(1);
            }
            self.closed = true;
        }
    }
}

struct Fake {
    flags: Flags,
    out: Output,
    /// The last `position` command (normalised text, the key of seeded draws) and the
    /// position it set, or why it was rejected.
    position_key: String,
    position: Result<Chess, String>,
    /// The position of the last `go`, for chaos draws on `isready`.
    searched: Option<String>,
    goes: u64,
    readies: u64,
    ucis: u64,
}

impl Fake {
    fn new(flags: Flags) -> Self {
        Fake {
            flags,
            out: Output { closed: false },
            position_key: "position startpos".to_string(),
            position: Ok(Chess::default()),
            searched: None,
            goes: 0,
            readies: 0,
            ucis: 0,
        }
    }

    fn run(&mut self, lines: &Receiver<String>) {
        self.out.line("fake engine banner, to be ignored");
        if self.flags.mode == Mode::FloodStderr {
            flood_stderr(self.flags.flood_bytes.saturating_mul(4));
        }
        while let Ok(line) = lines.recv() {
            match line.trim().parse::<GuiMessage>() {
                Ok(command) => self.handle(command, &line, lines),
                Err(_) if line.trim().is_empty() => {}
                Err(message) => {
                    let message = message.to_string();
                    if line.trim_start().starts_with("position") {
                        self.position = Err(message.clone());
                    }
                    self.out.line(&format!("info string fake-uci: {message}"));
                }
            }
        }
    }

    fn handle(&mut self, command: GuiMessage, line: &str, lines: &Receiver<String>) {
        match command {
            GuiMessage::Uci => self.uci(),
            GuiMessage::IsReady => {
                self.readies += 1;
                let stalls =
                    (self.flags.mode == Mode::Noready && self.readies >= self.flags.at)
                        || self.flags.chaos.as_ref().is_some_and(|c| {
                            c.ignores_isready(self.searched.as_deref(), self.readies)
                        });
                if !stalls {
                    self.out.line("readyok");
                }
            }
            GuiMessage::SetOption { name, .. } => {
                if !self.declares(&name) {
                    self.out
                        .line(&format!("info string fake-uci: no such option '{name}'"));
                }
            }
            GuiMessage::Position { start, moves } => {
                self.position_key = line.split_whitespace().collect::<Vec<_>>().join(" ");
                self.position = set_up(&start, &moves);
            }
            GuiMessage::Go(go) => {
                let limits = match go_request(&go, &mut Vec::new()) {
                    GoRequest::Search { limits, .. } => limits,
                    GoRequest::Perft(_) => Limits::default(),
                };
                self.go(&limits, lines)
            }
            GuiMessage::Quit => process::exit(0),
            GuiMessage::UciNewGame
            | GuiMessage::Stop
            | GuiMessage::PonderHit
            | GuiMessage::Debug(_)
            | GuiMessage::Register(_) => {}
        }
    }

    fn uci(&mut self) {
        self.ucis += 1;
        if self.flags.mode == Mode::ExitOnUci && self.ucis >= self.flags.at {
            eprintln!("fake engine: exiting on uci on purpose");
            process::exit(self.flags.exit_code);
        }
        if self.flags.mode == Mode::Garbage {
            self.garbage();
        }
        let name = match &self.flags.name {
            Some(name) => name.replace("{cwd}", &working_dir()),
            None => format!("FakeUci {}", self.flags.mode.name()),
        };
        self.out.line(&format!("id name {name}"));
        self.out.line("id author the harness tests");
        for option in self.declarations() {
            let line = format!("option {option}");
            self.out.line(&line);
        }
        if self.flags.mode != Mode::Nouciok {
            self.out.line("uciok");
        }
    }

    /// The `option` lines of the `uci` answer, without the word `option`.
    fn declarations(&self) -> Vec<String> {
        let extra = self.flags.options.iter().cloned();
        BUILT_IN_OPTIONS
            .iter()
            .map(|d| d.to_string())
            .chain(extra)
            .collect()
    }

    /// True if an `option` line declares `name` (without regard to case, as UCI asks).
    fn declares(&self, name: &str) -> bool {
        self.declarations().iter().any(|declaration| {
            let words: Vec<&str> = declaration.split_whitespace().collect();
            let end = words
                .iter()
                .position(|w| *w == "type")
                .unwrap_or(words.len());
            words
                .get(1..end)
                .is_some_and(|n| n.join(" ").eq_ignore_ascii_case(name))
        })
    }

    fn go(&mut self, limits: &Limits, lines: &Receiver<String>) {
        self.goes += 1;
        let fault = if self.flags.mode.acts_on_go() && self.goes >= self.flags.at {
            Some(self.flags.mode)
        } else {
            self.flags
                .chaos
                .as_ref()
                .and_then(|c| c.on_go(&self.position_key))
        };
        self.searched = Some(self.position_key.clone());
        match fault {
            None | Some(Mode::Normal | Mode::Noready | Mode::Nouciok | Mode::ExitOnUci) => {}
            Some(Mode::Crash) => {
                eprintln!("fake engine: crashing on purpose");
                process::exit(self.flags.exit_code);
            }
            Some(Mode::Abort) => {
                eprintln!("fake engine: aborting on purpose");
                no_core_dump();
                process::abort();
            }
            Some(Mode::Hang) => {
                thread::sleep(HANG);
                process::exit(0);
            }
            Some(Mode::Illegal) => {
                let text = format!("bestmove {}", self.flags.illegal_move);
                return self.out.line(&text);
            }
            Some(Mode::Malformed) => return self.out.line("bestmove xyz"),
            Some(Mode::Slow) => thread::sleep(self.flags.delay),
            Some(Mode::Timeloss) => {
                let think = self.clock_budget(limits) + self.flags.delay;
                self.think_until_stop(Instant::now() + think, lines);
            }
            Some(Mode::FloodStderr) => flood_stderr(self.flags.flood_bytes),
            Some(Mode::FloodStdout) => self.flood_stdout(),
            Some(Mode::FloodLines) => self.flood_lines(),
            Some(Mode::CloseStdout) => return self.out.close(),
            Some(Mode::Garbage) => self.garbage(),
        }
        self.answer();
    }

    /// The time the side to move has for this move: movetime, else its whole clock.
    fn clock_budget(&self, limits: &Limits) -> Duration {
        let turn = self.position.as_ref().map_or(Color::White, |p| p.turn());
        match (limits.movetime, limits.clock) {
            (Some(movetime), _) => movetime,
            (None, Some(clock)) if turn == Color::White => clock.white_time,
            (None, Some(clock)) => clock.black_time,
            (None, None) => Duration::ZERO,
        }
    }

    /// Waits until `deadline` or `stop`, answering `isready` meanwhile, as a searching engine.
    fn think_until_stop(&mut self, deadline: Instant, lines: &Receiver<String>) {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(wait) {
                Ok(line) => match line.trim().parse::<GuiMessage>() {
                    Ok(GuiMessage::Stop) => return,
                    Ok(GuiMessage::Quit) => process::exit(0),
                    Ok(GuiMessage::IsReady) => self.out.line("readyok"),
                    _ => {}
                },
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => process::exit(0),
            }
        }
    }

    /// The normal answer: an `info string`, two scored `info` lines and `bestmove`.
    fn answer(&mut self) {
        let position = match &self.position {
            Ok(position) => position,
            Err(message) => {
                let text = format!("info string fake-uci: no position to search ({message})");
                self.out.line(&text);
                return self.out.line("bestmove 0000");
            }
        };
        let legal = position.legal_moves().len();
        let chosen = moves::choose(
            position,
            self.flags.play,
            self.flags.seed,
            &self.position_key,
        );
        let Some(best) = chosen.map(moves::uci_text) else {
            return self.out.line("bestmove 0000");
        };
        let n = self.goes;
        self.out
            .line(&format!("info string thinking about {legal} moves"));
        self.out.line(&format!(
            "info depth 1 seldepth 1 score cp {n} nodes {} nps 1000 time 1 pv {best}",
            100 * n
        ));
        self.out.line(&format!(
            "info depth 2 seldepth 3 score cp -{n} nodes {} nps 2000 time 2 pv {best}",
            200 * n
        ));
        self.out.line(&format!("bestmove {best}"));
    }

    /// `--flood-bytes` bytes with no line end (endless for 0), then the line end.
    fn flood_stdout(&mut self) {
        let chunk = [b'x'; 1 << 16];
        let mut left = self.flags.flood_bytes;
        let endless = left == 0;
        while endless || left > 0 {
            let n = if endless {
                chunk.len()
            } else {
                left.min(chunk.len() as u64) as usize
            };
            if !self.out.raw(&chunk[..n]) {
                process::exit(0);
            }
            left = left.saturating_sub(n as u64);
        }
        self.out.raw(b"\n");
    }

    /// `info string` lines totalling `--flood-bytes` (endless for 0).
    fn flood_lines(&mut self) {
        let line = format!("info string flood {}\n", "y".repeat(100));
        let mut left = self.flags.flood_bytes;
        let endless = left == 0;
        while endless || left > 0 {
            if !self.out.raw(line.as_bytes()) {
                process::exit(0);
            }
            left = left.saturating_sub(line.len() as u64);
        }
    }

    /// Lines a GUI must ignore: not UTF-8, unknown words, malformed info and option lines
    /// (none with a score, so the last real info line stays the one a GUI keeps).
    fn garbage(&mut self) {
        let lines: [&[u8]; 10] = [
            b"\xff\xfe\x00 not utf-8 \xc3\x28",
            b"ce n'est pas une commande \xe2\x99\x9e",
            b"bestmovex e2e4",
            b"info depth zz nodes -5 currmove zz9 score cp",
            b"info score mate",
            b"option name",
            b"option name Broken type wheel",
            b"id",
            b"   \t  ",
            b"readyokay uciokay",
        ];
        for line in lines {
            self.out.raw(line);
            self.out.raw(b"\r\n");
        }
        self.out.line(&"~".repeat(10_000));
    }
}

/// The position of a `position` command, or why it cannot be set up.
fn set_up(start: &StartPosition, moves: &[UciMove]) -> Result<Chess, String> {
    let mut position = match start {
        StartPosition::StartPos => Chess::default(),
        StartPosition::Fen(fen) => fen
            .clone()
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("impossible position '{fen}': {e}"))?,
    };
    for uci in moves {
        let m = uci
            .to_move(&position)
            .map_err(|_| format!("illegal move '{uci}'"))?;
        position.play_unchecked(m);
    }
    Ok(position)
}

/// Keeps an abort on purpose from leaving a core file behind.
fn no_core_dump() {
    let none = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: setrlimit(2) reads the struct we pass and nothing else.
    unsafe {
        libc::setrlimit(libc::RLIMIT_CORE, &none);
    }
}

fn working_dir() -> String {
    std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|e| format!("<no working directory: {e}>"))
}

/// Writes `bytes` of text lines to stderr (a GUI must drain it or the engine blocks).
fn flood_stderr(bytes: u64) {
    let line = format!("{}\n", "stderr flood ".repeat(80));
    let mut err = io::stderr().lock();
    let mut written = 0;
    while written < bytes {
        if err.write_all(line.as_bytes()).is_err() {
            return;
        }
        written += line.len() as u64;
    }
    let _ = err.flush();
}
