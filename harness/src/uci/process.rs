//! An engine child process with its three pipes served by threads, so that every read can
//! time out, a chatty stderr never blocks the engine, and a stuck engine never blocks the
//! harness. The process (and anything it started) is killed and reaped on drop.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How much of the engine's stderr is kept for error messages.
const STDERR_TAIL_BYTES: usize = 2048;
/// How long a dropped engine gets to obey `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(250);
/// How long to wait for the pipe threads after the kill (they end at once unless a
/// process outside the engine's process group holds a pipe).
const THREAD_JOIN_LIMIT: Duration = Duration::from_secs(1);

/// What to run: a program, its arguments and the directory to run it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

impl EngineCommand {
    /// Runs `program` with no arguments in the current directory.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
            dir: None,
        }
    }
}

/// Why no line was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine closed its stdout (it exited or crashed).
    Closed,
    /// The engine wrote a line longer than [`MAX_LINE_BYTES`]; nothing more is read from it.
    LineTooLong,
}

/// The longest line read from an engine: a longer one is that engine's fault, so a flood
/// without line ends cannot grow the harness's memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Lines read ahead of the harness at most: an engine flooding ordinary lines waits on its
/// pipe instead of filling memory.
const QUEUED_LINES: usize = 4096;

/// A running engine process. Lines are read with a deadline; writes never block the caller.
pub struct EngineProcess {
    child: Child,
    /// `None` once the process has been told to go (dropping it closes the engine's stdin).
    to_stdin: Option<Sender<String>>,
    from_stdout: Receiver<Result<String, ReadError>>,
    /// Disconnects when all three pipe threads have ended (nothing is ever sent on it).
    threads_done: Receiver<()>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    /// Set once the child has been reaped.
    exit_status: Option<ExitStatus>,
}

impl EngineProcess {
    /// Starts the engine in its own process group (so a terminal's Ctrl-C reaches only the
    /// harness, which stops the engines itself).
    pub fn spawn(command: &EngineCommand) -> io::Result<Self> {
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = crate::spawn::spawn(&mut cmd)?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("engine pipes missing after spawn"));
        };

        let (done_tx, threads_done) = mpsc::channel::<()>();
        let (to_stdin, stdin_rx) = mpsc::channel::<String>();
        let (stdout_tx, from_stdout) =
            mpsc::sync_channel::<Result<String, ReadError>>(QUEUED_LINES);
        let stderr_tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL_BYTES)));

        let spawned = spawn_thread("uci-stdin", done_tx.clone(), move || {
            write_lines(stdin, stdin_rx)
        })
        .and_then(|_| {
            spawn_thread("uci-stdout", done_tx.clone(), move || {
                read_lines(stdout, stdout_tx)
            })
        })
        .and_then(|_| {
            let tail = Arc::clone(&stderr_tail);
            spawn_thread("uci-stderr", done_tx, move || drain_stderr(stderr, &tail))
        });
        let mut process = EngineProcess {
            child,
            to_stdin: Some(to_stdin),
            from_stdout,
            threads_done,
            stderr_tail,
            exit_status: None,
        };
        if let Err(err) = spawned {
            process.kill();
            return Err(err);
        }
        Ok(process)
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Queues one line for the engine's stdin. Fails only if the engine's stdin is closed.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "engine stdin is closed");
        let tx = self.to_stdin.as_ref().ok_or_else(closed)?;
        tx.send(format!("{line}\n")).map_err(|_| closed())
    }

    /// The next line of stdout (without its line end), waiting until `deadline` at most.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_stdout.recv_timeout(wait) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// The last part of what the engine wrote to stderr, for error messages.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = tail.as_slices();
        let bytes = [a, b].concat();
        String::from_utf8_lossy(&bytes).trim().to_string()
    }

    /// Waits up to `limit` for the engine to exit by itself, then kills what is left of it
    /// (its whole process group) and reaps it. Returns how it ended.
    pub fn finish(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        let mut pause = Duration::from_micros(200);
        while self.exit_status.is_none() && !self.has_exited() && Instant::now() < deadline {
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
        self.kill()
    }

    /// Kills the engine's process group at once, reaps the engine and closes the pipes.
    pub fn kill(&mut self) -> ExitStatus {
        self.to_stdin = None;
        let status = match self.exit_status {
            Some(status) => status,
            None => {
                // The engine is not reaped yet, so its process group id cannot have been reused.
                kill_process_group(self.child.id());
                let status = self.child.wait().unwrap_or_else(|_| exit_status_unknown());
                self.exit_status = Some(status);
                status
            }
        };
        // The pipe threads end at EOF now that the group is dead; wait so no pipe outlives us.
        let _ = self.threads_done.recv_timeout(THREAD_JOIN_LIMIT);
        status
    }

    /// Asks the engine to `quit`, gives it a moment, then kills whatever is left.
    pub fn shutdown(&mut self) {
        if self.exit_status.is_none() {
            let _ = self.send(&uci_protocol::GuiMessage::Quit.to_string());
            // Closing stdin also ends engines that stop at EOF.
            self.to_stdin = None;
            // The pipe threads end when the engine closes its pipes, normally by exiting.
            let _ = self.threads_done.recv_timeout(QUIT_GRACE);
        }
        self.kill();
    }

    /// True once the engine has exited (without reaping it, so the group can still be killed).
    fn has_exited(&self) -> bool {
        let pid: libc::id_t = self.child.id();
        // SAFETY: `info` is a plain C struct that waitid(2) fills in; zeroed is a valid value.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            libc::waitid(libc::P_PID, pid, &mut info, flags) == 0 && info.si_pid() != 0
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn kill_process_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) has no memory-safety preconditions; a negative pid names a group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

fn exit_status_unknown() -> ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    ExitStatus::from_raw(-1)
}

/// Spawns a pipe thread that holds `done` until it ends.
fn spawn_thread(
    name: &str,
    done: Sender<()>,
    body: impl FnOnce() + Send + 'static,
) -> io::Result<()> {
    thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            body();
            drop(done);
        })?;
    Ok(())
}

fn write_lines(mut stdin: std::process::ChildStdin, lines: Receiver<String>) {
    for line in lines {
        if stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

fn read_lines(
    stdout: std::process::ChildStdout,
    lines: mpsc::SyncSender<Result<String, ReadError>>,
) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // At most one byte past the limit, so an endless line is cut off in bounded memory.
        match (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(n) if n > MAX_LINE_BYTES => {
                let _ = lines.send(Err(ReadError::LineTooLong));
                return;
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if lines.send(Ok(line)).is_err() {
                    return;
                }
            }
        }
    }
}

fn drain_stderr(mut stderr: std::process::ChildStderr, tail: &Mutex<VecDeque<u8>>) {
    let mut chunk = [0u8; 8192];
    loop {
        match stderr.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                let keep = &chunk[n.saturating_sub(STDERR_TAIL_BYTES)..n];
                let overflow = (tail.len() + keep.len()).saturating_sub(STDERR_TAIL_BYTES);
                tail.drain(..overflow);
                tail.extend(keep);
            }
        }
    }
}
