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

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, Duration::from_secs(30))
    }

    fn until_within(&mut self, prefix: &str, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(wait)
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
    // The last `position` was rejected: `go depth banana` answers at once with no move.
    assert!(out.iter().any(|l| l == "bestmove 0000"), "{out:?}");

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

/// The node count of `engine bench 3` with `extra` arguments.
fn bench_nodes(extra: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["bench", "3"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap().to_string();
    last.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn bench_measures_the_network_of_eval_file() {
    let built_in = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    assert_eq!(
        bench_nodes(&[&format!("EvalFile={built_in}")]),
        bench_nodes(&[]),
        "the built-in network's file searches the built-in tree"
    );
    // The built-in network with every fifth feature weight negated searches another tree.
    let file = std::fs::read(built_in).unwrap();
    let mut float = engine::eval::nnue::Network::from_bytes(&file)
        .unwrap()
        .dequantise();
    for w in float.feature_weights.iter_mut().step_by(5) {
        *w = -*w;
    }
    let bytes = float.quantise().to_bytes();
    let other = std::env::temp_dir().join(format!("bench-evalfile-{}.nnue", std::process::id()));
    std::fs::write(&other, &bytes).unwrap();
    let other_nodes = bench_nodes(&[&format!("evalfile={}", other.display())]);
    std::fs::remove_file(&other).unwrap();
    assert_ne!(other_nodes, bench_nodes(&[]));

    let missing = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["bench", "3", "EvalFile=no/such/net.nnue"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8(missing.stderr).unwrap();
    assert!(
        err.contains("EvalFile") && err.contains("no/such/net.nnue"),
        "{err}"
    );
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_skipped() {
    let mut e = Engine::start(&[]);
    e.send_bytes(b"position startpos moves e2e4 \xff\xfe\n");
    e.send("isready");
    let out = e.until("readyok");
    let errors = errors(&out);
    assert_eq!(errors.len(), 1, "{out:?}");
    assert!(errors[0].contains("not UTF-8"), "{out:?}");
    e.send("go depth 1");
    e.until("bestmove");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn go_after_a_rejected_position_answers_no_move() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves e2e4");
    e.send("position startpos moves e2e4 e2e4");
    e.send("go depth 3");
    let out = e.until("bestmove");
    assert_eq!(out.last().unwrap(), "bestmove 0000", "{out:?}");
    assert!(
        errors(&out)
            .iter()
            .any(|l| l.contains("illegal move 'e2e4'")),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    // A good position ends it.
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let out = e.until("bestmove");
    assert_ne!(out.last().unwrap(), "bestmove 0000");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// The value after `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1).copied()
}

#[test]
fn the_last_info_line_is_the_move_played() {
    let mut e = Engine::start(&[]);
    let mut searches = 0;
    for (plies, moves) in [
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
        "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
        "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5 c4d5 f6d5",
    ]
    .iter()
    .enumerate()
    {
        let moves: Vec<&str> = moves.split(' ').collect();
        for end in 0..=moves.len() {
            for nodes in [700 + 97 * plies as u64, 2500, 6100] {
                e.send(&format!(
                    "position startpos moves {}",
                    moves[..end].join(" ")
                ));
                e.send(&format!("go nodes {nodes}"));
                let out = e.until("bestmove");
                searches += 1;
                let best = field(out.last().unwrap(), "bestmove").unwrap();
                let last = &out[out.len() - 2];
                assert!(last.starts_with("info depth "), "{out:?}");
                assert_eq!(field(last, "pv"), Some(best), "{out:?}");
                assert!(field(last, "score").is_some(), "{out:?}");
                let reported: u64 = field(last, "nodes").unwrap().parse().unwrap();
                let earlier = out[..out.len() - 2]
                    .iter()
                    .filter_map(|l| field(l, "nodes")?.parse::<u64>().ok())
                    .max()
                    .unwrap_or(0);
                assert!(reported >= earlier, "{out:?}");
                assert!(reported >= nodes * 9 / 10, "{nodes} nodes: {out:?}");
            }
        }
    }
    assert!(searches > 60);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn ponder_then_ponderhit_ends_with_the_clock() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 300 btime 300");
    e.send("isready");
    let out = e.until("readyok");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    std::thread::sleep(Duration::from_millis(50));
    e.send("ponderhit");
    // 300 ms on the clock: the answer comes in well under the 10 s waited here.
    let out = e.until_within("bestmove", Duration::from_secs(10));
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{out:?}"
    );
    // `stop` while pondering answers at once.
    e.send("go ponder movetime 100000");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.until_within("bestmove", Duration::from_secs(10));
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn go_perft_counts_like_stockfish() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go perft 3");
    let out = e.until_within("Nodes searched", Duration::from_secs(10));
    assert_eq!(out.last().unwrap(), "Nodes searched: 8902");
    let counts: Vec<&String> = out.iter().filter(|l| l.contains(": ")).collect();
    assert_eq!(counts.len(), 21, "{out:?}");
    assert!(out.iter().any(|l| l == "e2e4: 600"), "{out:?}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn go_searchmoves_searches_only_those_moves() {
    let mut e = Engine::start(&[]);
    // White can take a free queen with d1d8; searchmoves keeps the search off it.
    e.send("position fen 3q3k/6pp/8/8/8/8/6PP/3Q3K w - - 0 1");
    e.send("go depth 6");
    let free = e.until("bestmove");
    assert_eq!(free.last().unwrap(), "bestmove d1d8", "{free:?}");

    e.send("go depth 6 searchmoves h2h3 g2g4");
    let out = e.until("bestmove");
    let best = out.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(["h2h3", "g2g4"].contains(&best), "{out:?}");
    for info in out.iter().filter(|l| l.contains(" pv ")) {
        let first = field(info, "pv").unwrap();
        assert!(["h2h3", "g2g4"].contains(&first), "{info}");
    }
    assert!(errors(&out).is_empty(), "{out:?}");

    // An illegal move among them is reported and left out; none legal: every move.
    e.send("go depth 4 searchmoves e2e4 h2h4");
    let out = e.until("bestmove");
    assert_eq!(out.last().unwrap().split_whitespace().nth(1), Some("h2h4"));
    assert!(errors(&out).iter().any(|l| l.contains("e2e4")), "{out:?}");
    e.send("go depth 4 searchmoves e2e4");
    let out = e.until("bestmove");
    assert_eq!(out.last().unwrap(), "bestmove d1d8", "{out:?}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let listing = e.until("uciok");
    assert!(listing.contains(&"option name UCI_Chess960 type check default false".to_string()));
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let out = e.until("Nodes searched");
    assert!(out.iter().any(|l| l == "e1g1: 1"), "{out:?}");

    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let out = e.until("Nodes searched");
    assert!(out.iter().any(|l| l == "e1h1: 1"), "{out:?}");
    assert!(out.iter().any(|l| l == "e1a1: 1"), "{out:?}");
    // A Chess960 position with Shredder castling rights, castling as input (king takes rook).
    e.send("position fen 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1 moves e1g1 e8b8");
    e.send("go perft 1");
    let out = e.until("Nodes searched");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(out.last().unwrap(), "Nodes searched: 24", "{out:?}");
    assert!(
        out.iter().any(|l| l == "f1e1: 1"),
        "castled rook on f1: {out:?}"
    );
    // Without UCI_Chess960 that FEN is refused (b and g rooks are not standard castling).
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1 moves e1g1");
    e.send("isready");
    let out = e.until("readyok");
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn out_of_range_values_are_reported_not_fatal() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Hash value 65536");
    e.send("isready");
    let out = e.until("readyok");
    let errors_seen = errors(&out);
    assert_eq!(errors_seen.len(), 1, "{out:?}");
    assert!(errors_seen[0].contains("'65536'") && errors_seen[0].contains("1..=1024"));

    e.send("position startpos");
    e.send("go nodes -1 depth 2");
    let out = e.until("bestmove");
    let errors_seen = errors(&out);
    assert_eq!(errors_seen.len(), 1, "{out:?}");
    assert!(
        errors_seen[0].contains("'nodes' value '-1'") && errors_seen[0].contains("1..="),
        "{out:?}"
    );
    e.send("go depth 0 nodes 1000");
    let out = e.until("bestmove");
    assert!(errors(&out)[0].contains("'depth' value '0'"), "{out:?}");
    e.send("go perft 99");
    e.send("isready");
    let out = e.until("readyok");
    assert!(errors(&out)[0].contains("1..=12"), "{out:?}");
    e.send("stop");
    e.until("bestmove");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// The root moves `go perft 1` lists for the current position.
fn perft_moves(engine: &mut Engine) -> Vec<String> {
    engine.send("go perft 1");
    let mut moves: Vec<String> = engine
        .until("Nodes searched")
        .into_iter()
        .filter(|l| l.contains(": "))
        .collect();
    moves.sort();
    moves
}

#[test]
fn a_position_continuing_the_last_one_is_the_same_as_set_up_anew() {
    let lines = [
        "position startpos moves e2e4 e7e5",
        "position startpos moves e2e4 e7e5 g1f3 b8c6",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1",
        "position startpos moves d2d4",
        "position fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 moves e5d6",
        "position fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 moves e5d6 e8d7",
    ];
    let mut continuing = Engine::start(&[]);
    let mut listed = Vec::new();
    for line in lines {
        continuing.send(line);
        let moves = perft_moves(&mut continuing);
        let mut fresh = Engine::start(&[]);
        fresh.send(line);
        assert_eq!(moves, perft_moves(&mut fresh), "{line}");
        fresh.send("quit");
        listed.push(moves.len());
    }
    assert!(listed.iter().all(|&n| n > 0), "{listed:?}");
    // An illegal move in the continuation is rejected, and the next good `position` (which
    // continues the last good one) is set up correctly.
    continuing.send("position startpos moves d2d4 zzzz");
    continuing.send("go nodes 100");
    assert!(
        continuing
            .until("bestmove")
            .last()
            .is_some_and(|l| l == "bestmove 0000")
    );
    continuing.send("position startpos moves d2d4 d7d5");
    let mut fresh = Engine::start(&[]);
    fresh.send("position startpos moves d2d4 d7d5");
    assert_eq!(perft_moves(&mut continuing), perft_moves(&mut fresh));
    fresh.send("quit");
    continuing.send("quit");
}
