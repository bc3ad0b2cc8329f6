//! The `engine` binary driven as a UCI subprocess, the way a GUI or the harness does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}' after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

#[test]
fn full_session() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let listing = e.until("uciok");
    assert!(listing.iter().any(|l| l.starts_with("id name ")));
    assert!(
        listing
            .iter()
            .any(|l| l == "option name Threads type spin default 1 min 1 max 1")
    );
    assert!(
        listing
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default "))
    );
    for name in [
        "delta_margin",
        "qsearch_depth",
        "king_distance_factor",
        "qsearch_check_plies",
    ] {
        assert!(
            listing
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type spin"))),
            "{name}"
        );
    }
    assert!(
        listing
            .iter()
            .any(|l| l == "option name see_pruning type check default true")
    );
    assert!(
        !listing.iter().any(|l| l.contains("pst_")),
        "tables listed without the flag"
    );

    e.send("setoption name Hash value 8");
    e.send("setoption name delta_margin value 150");
    e.send("ucinewgame");
    e.send("isready");
    e.until("readyok");

    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 5");
    let out = e.until("bestmove");
    let info = out
        .iter()
        .find(|l| l.starts_with("info depth 5 "))
        .expect("depth 5 info");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }

    // Mate scores, in moves.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go depth 4");
    let out = e.until("bestmove");
    assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
    assert_eq!(out.last().unwrap(), "bestmove d1d8");

    // Node limit and clock.
    e.send("position startpos");
    e.send("go nodes 5000");
    e.until("bestmove");
    e.send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20");
    e.until("bestmove");
    e.send("go movetime 100");
    e.until("bestmove");

    // Infinite search: isready answered while searching, bestmove only after stop.
    e.send("go infinite");
    e.send("isready");
    let out = e.until("readyok");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let out = e.until("bestmove");
    assert!(out.last().unwrap().len() > "bestmove ".len());

    // Garbage, illegal moves and commands out of order: errors, never a crash.
    for bad in [
        "position startpos moves e2e5",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e7e5",
        "setoption name no_such_param value 3",
        "setoption name qsearch_depth value -4",
        "go depth banana",
        "\u{1F600} 12",
        "position",
        "setoption",
    ] {
        e.send(bad);
    }
    e.send("isready");
    let out = e.until("readyok");
    let errors = out
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert!(errors >= 9, "{out:?}");
    // `go depth banana` still searches (with the remaining limits: none → until stopped... by
    // time? no: it is unbounded), so stop it.
    e.send("stop");
    e.until("bestmove");

    // After errors the position is the last good one.
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let out = e.until("bestmove");
    let best = out.last().unwrap();
    assert!(
        ["e7", "d7", "c7", "g8", "b8", "a7", "b7", "f7", "g7", "h7"]
            .iter()
            .any(|s| best.starts_with(&format!("bestmove {s}"))),
        "{best}"
    );

    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn all_options_flag_lists_tables() {
    let mut e = Engine::start(&["--all-options"]);
    e.send("uci");
    let listing = e.until("uciok");
    assert!(
        listing
            .iter()
            .any(|l| l.starts_with("option name pst_knight_e4_mg type spin"))
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn bench_prints_the_openbench_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["bench", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let parts: Vec<&str> = last.split(' ').collect();
    assert_eq!(parts.len(), 4, "{last}");
    assert!(parts[0].parse::<u64>().unwrap() > 0);
    assert_eq!((parts[1], parts[3]), ("nodes", "nps"));
    assert!(parts[2].parse::<u64>().is_ok(), "{last}");
    let bad = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["bench", "x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
