//! The fake engine's command line: which fault, when, and how it plays otherwise.

use std::time::Duration;

use clap::{Parser, ValueEnum};

use crate::chaos::Chaos;

const AFTER_HELP: &str = "\
MODES (the fault starts at the --at N-th `go`, unless said otherwise, and repeats on every later one):
  normal        answer every go with a legal move (see --play), two info lines and `bestmove`
  crash         write `fake engine: crashing on purpose` to stderr and exit with --exit-code
  abort         abort (killed by SIGABRT, as a failed assertion in a C engine)
  hang          never answer, ignore `stop` and `quit` (sleeps an hour)
  illegal       answer `bestmove <--move>` (default a1a1, illegal in every position)
  malformed     answer `bestmove xyz`
  slow          sleep --delay seconds, then answer; `stop` is read but not obeyed early
  timeloss      think for the side to move's whole clock (or movetime) plus --delay, then
                answer; `stop` is obeyed at once, as a real engine that lost on time does
  flood-stderr  (alias flood) write 4 x --flood-bytes to stderr at start and --flood-bytes
                on every go from --at, otherwise normal
  flood-stdout  write --flood-bytes bytes on stdout with no line end (0: endless), then a
                line end and a normal answer
  flood-lines   write `info string` lines totalling --flood-bytes (0: endless), then answer
  close-stdout  close stdout and keep running (reading stdin) until `quit` or end of input
  garbage       write lines a GUI must ignore (bytes that are not UTF-8, unknown words,
                malformed info and option lines) after `uci` and before every answer
  noready       from the N-th `isready` on (the first is the start-up one), never answer it
  nouciok       answer `uci` with id and options but never `uciok`
  exit-on-uci   exit with --exit-code at the N-th `uci`, before writing anything for it

OPTIONS DECLARED by default: Hash (spin 1..1024, default 16), Ponder (check), Style (combo
Solid/Normal/Risky), Clear Hash (button), Debug Log File (string); more with --option.

EXAMPLES
  fake-uci --mode crash --at 3           crash at the third go
  fake-uci --mode noready --at 2         answer the start-up isready, stall on the next
  fake-uci --play greedy --chaos seed=7,crash=0.01,hang=0.005,flood-stdout=0.01,illegal=0.01,slow=0.02
";

/// A UCI engine that plays legal moves, or misbehaves on purpose, for testing chess GUIs and
/// match runners.
#[derive(Parser, Debug)]
#[command(name = "fake-uci", version, after_help = AFTER_HELP)]
pub struct Flags {
    /// The fault to show (see MODES below).
    #[arg(long, value_enum, default_value_t = Mode::Normal)]
    pub mode: Mode,

    /// The fault starts at the N-th `go` (the N-th `isready` for noready, the N-th `uci` for
    /// exit-on-uci) and repeats from then on.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub at: u64,

    /// Seconds slow waits before bestmove, and timeloss waits past its clock (0 to 3600).
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_seconds)]
    pub delay: Duration,

    /// The bestmove text of illegal mode.
    #[arg(long = "move", value_name = "TEXT", default_value = "a1a1")]
    pub illegal_move: String,

    /// Bytes the flood modes write each time (0 = endless for flood-stdout and flood-lines).
    #[arg(long, value_name = "BYTES", default_value_t = 1_000_000)]
    pub flood_bytes: u64,

    /// Exit status of crash and exit-on-uci.
    #[arg(long, value_name = "STATUS", default_value_t = 3)]
    pub exit_code: i32,

    /// How moves are chosen: first = the first legal move in sorted UCI text; random = a
    /// legal move drawn from --seed and the position; greedy = mate in one, else the biggest
    /// capture or promotion (ties drawn as random), so games between fakes end.
    #[arg(long, value_enum, default_value_t = Play::First)]
    pub play: Play,

    /// Seed of --play random and greedy (the move depends only on the seed and the position).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// The `id name` (default `FakeUci <mode>`); `{cwd}` in it becomes the working directory.
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,

    /// One more `option` line after the built-in ones, without the word `option`, e.g.
    /// "name Threads type spin default 1 min 1 max 64" (repeatable).
    #[arg(long = "option", value_name = "DECLARATION")]
    pub options: Vec<String>,

    /// Random faults: `seed=N,MODE=P,...` with P the probability of MODE on each `go` (on each
    /// `isready` after the first game's search for noready). MODE is one of crash, abort, hang,
    /// illegal, malformed, slow, timeloss, flood-stderr, flood-stdout, flood-lines,
    /// close-stdout, garbage, noready; the probabilities add up to 1 at most. The draw depends
    /// only on the seed and the position, so a restarted fake repeats it.
    #[arg(long, value_name = "SPEC")]
    pub chaos: Option<Chaos>,
}

/// The fault a fake engine shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Normal,
    Crash,
    Abort,
    Hang,
    Illegal,
    Malformed,
    Slow,
    Timeloss,
    #[value(alias = "flood")]
    FloodStderr,
    FloodStdout,
    FloodLines,
    CloseStdout,
    Garbage,
    Noready,
    Nouciok,
    ExitOnUci,
}

impl Mode {
    /// The mode's name on the command line.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// True for the faults that happen on `go`.
    pub fn acts_on_go(self) -> bool {
        !matches!(
            self,
            Mode::Normal | Mode::Noready | Mode::Nouciok | Mode::ExitOnUci
        )
    }
}

/// How the fake picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Play {
    First,
    Random,
    Greedy,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.0..=3600.0).contains(&seconds) {
        return Err(format!("{seconds} is outside 0..=3600 seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}
